"""The Shengji plug-in (:class:`analyzer.games.Game`): light to import; every
member imports what it wires (the engine, lint, report, store, play, review)
when it is called."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from analyzer.games import Checker, Game, ReadResult


class Shengji(Game):
    name = "shengji"
    title = "Shengji"
    notation = "sjn"
    suffixes = (".sjn",)
    #: ``log``: another program's log, read by the importers into Shengji records
    kinds = ("sjn", "json", "log")
    store_tables = ("matches", "hands", "tricks", "plays", "diagnostics")

    def detect(self, head: str, path: str) -> str:
        from notation.detect import detect
        return detect(head, path, strict=True)

    def read(self, source: str | Iterable[str], kind: str, *, start_line: int = 1) -> Iterator[ReadResult]:
        from notation.detect import read
        return read(source, kind, start_line=start_line)

    def holds(self, record: Any) -> bool:
        return bool(record.tags or record.hands)

    def write(self, records: Sequence[Any], *, unicode: bool = False) -> str:
        from notation import write
        return write(list(records), unicode=unicode)

    def to_json(self, record: Any, *, spans: bool = False) -> str:
        from notation.jsonio import to_json
        return to_json(record, indent=2, spans=spans)

    def presets(self) -> Sequence[str]:
        from replay.ruleset import PRESETS
        return tuple(PRESETS)

    def preset_rows(self) -> list[tuple[str, str]]:
        from analyzer.report.presets import preset_rows
        return preset_rows()

    def option_table(self, preset: str) -> tuple[list[tuple[str, str, str, bool]], str]:
        from analyzer.report.presets import option_rows
        return option_rows(preset), f"Preset {preset} (* differs from standard)"

    def lint_checker(self, rules: str | None, mistakes: Callable[..., Any] | None) -> Checker:
        from analyzer.lint.check import replay_checker, shengji_rules
        from replay.game import replay
        return replay_checker(replay, shengji_rules(rules), mistakes)

    def lint_mode(self, kind: str) -> str:
        return "whole" if kind == "sjn" else "lines"

    def splits(self, kind: str) -> bool:
        return kind == "sjn"

    def replay(self, src: Any, file: str, *, hand: int | None, trick: int | None, step: bool,
               record: int | None, rules: str | None) -> None:
        from analyzer.games.shengji.commands import replay_records
        replay_records(src, file, hand=hand, trick=trick, step=step, record=record, rules=rules)

    def report(self, src: Any, file: str, fmt: str, output: str | None, *, force: bool, rules: str | None,
               mistakes: bool, progress: bool, jobs: int = 1) -> None:
        from analyzer.games.shengji.commands import report_records
        report_records(src, file, fmt, output, rules=rules, mistakes=mistakes, progress=progress, jobs=jobs)

    def convert(self, src: Any, to: str, output: str | None, *, spans: bool, unicode: bool) -> None:
        from analyzer.games.shengji.commands import convert_file
        convert_file(src, to, output, spans=spans, unicode=unicode)

    def fmt(self, src: Any, path: str, *, unicode: bool, check: bool, diff: bool, write_back: bool,
            err: Callable[[str], None]) -> bool | None:
        from analyzer.io.formatting import format_streamed
        return format_streamed(src, path, unicode=unicode, check=check, diff=diff, write_back=write_back, err=err)

    def not_formatted(self, kind: str) -> str | None:
        return "JSON (use shengji convert --to sjn)" if kind == "json" else None

    def generate(self, rules: str, count: int, seed: int, *, players: int | None,
                 games: int | None, bot: str = "plain") -> tuple[str, str, list[str]]:
        from analyzer.games.shengji.commands import generate_match
        return generate_match(rules, count, seed, players=players, games=games, bot=bot)

    def bot(self) -> Any:
        from analyzer.play import bot
        return bot

    def review(self) -> Callable[..., Any] | None:
        from analyzer.lint.options import REVIEW_ENTRY, mistake_hook
        return mistake_hook(REVIEW_ENTRY)

    def annotate(self, src: Any, out: Any, **kw: Any) -> tuple[int, int, Any]:
        from analyzer.games.shengji.annotate import annotate_records
        return annotate_records(src, out, **kw)


GAME = Shengji()
