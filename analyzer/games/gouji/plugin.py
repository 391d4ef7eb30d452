"""The Gouji plug-in (:class:`analyzer.games.Game`): light to import (a one-hand
SJN lint loads it and nothing of Gouji); every member imports what it wires
(the GJN reader, the engine in :mod:`replay.gouji`, :mod:`.analysis`, the viewer)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from analyzer.games import Checker, Game, ReadResult

#: a Gouji record anywhere in the start of a text that reads as the tool's JSON
_GOUJI_JSON = re.compile(r'"game_type"\s*:\s*"gouji"')



class Gouji(Game):
    name = "gouji"
    title = "Gouji"
    notation = "gjn"
    suffixes = (".gjn",)
    kinds = ("gjn", "gjn-json")
    tags = ('[Game "gouji"]', '[Rules "gouji…"]')
    #: its own tables (analyzer/games/gouji/store.py) and the store's shared diagnostics
    store_tables = ("gouji_matches", "gouji_games", "gouji_plays", "diagnostics")

    def detect(self, head: str, path: str) -> str:
        from notation.detect import detect
        return detect(head, path, strict=True)

    def read(self, source: str | Iterable[str], kind: str, *, start_line: int = 1) -> Iterator[ReadResult]:
        from notation.detect import read
        return read(source, kind, start_line=start_line)

    def claims(self, head: str, kind: str) -> bool:
        """A ``[Game "gouji"]`` tag (or a Gouji ``[Rules]``) in the first tags of what reads as
        SJN; a Gouji record (``"game_type": "gouji"``) in what reads as the tool's JSON."""
        if kind == "sjn":
            from notation.detect import is_gjn
            return is_gjn(None, head)
        return kind == "json" and _GOUJI_JSON.search(head) is not None

    def holds(self, record: Any) -> bool:
        return bool(record.tags or record.games)

    def write(self, records: Sequence[Any], *, unicode: bool = False) -> str:
        from notation import gjn
        return gjn.write(list(records), unicode=unicode)

    def to_json(self, record: Any, *, spans: bool = False) -> str:
        from notation import gjn
        return gjn.to_json(record, spans=spans)

    def store_schemas(self) -> dict[str, tuple[tuple[str, str, str], ...]]:
        from analyzer.games.gouji.store import SCHEMAS
        return SCHEMAS

    def store_rows(self) -> Any:
        from analyzer.games.gouji.store import GoujiRows
        return GoujiRows()

    def presets(self) -> Sequence[str]:
        try:
            from replay.gouji.rules import PRESETS
        except ImportError:
            return ()
        return tuple(PRESETS)

    def preset_rows(self) -> list[tuple[str, str]]:
        from analyzer.games.gouji.analysis import preset_rows
        return preset_rows()

    def option_table(self, preset: str) -> tuple[list[tuple[str, str, str, bool]], str]:
        from analyzer.games.gouji.analysis import option_rows
        return option_rows(preset), f"Gouji preset {preset} (* differs from gouji)"

    def lint_checker(self, rules: str | None, mistakes: Callable[..., Any] | None) -> Checker:
        from analyzer.games.gouji.lint import checker
        return checker(rules if rules in self.presets() else None)

    def lint_mode(self, kind: str) -> str:
        return "lines" if kind == "gjn" else "records"

    def replay(self, src: Any, file: str, *, hand: int | None, trick: int | None, step: bool,
               record: int | None, rules: str | None) -> None:
        from analyzer.games.gouji.commands import replay_records
        replay_records(src, file, game=hand, record=record, rules=rules)

    def report(self, src: Any, file: str, fmt: str, output: str | None, *, force: bool, rules: str | None,
               mistakes: bool, progress: bool, jobs: int = 1) -> None:
        from analyzer.games.gouji.commands import report_records
        report_records(src, file, fmt, output, force=force, rules=rules, mistakes=mistakes)

    def convert(self, src: Any, to: str, output: str | None, *, spans: bool, unicode: bool) -> None:
        from analyzer.games.gouji.commands import convert_file
        convert_file(src, to, output, spans=spans, unicode=unicode)

    def fmt(self, src: Any, path: str, *, unicode: bool, check: bool, diff: bool, write_back: bool,
            err: Callable[[str], None]) -> bool | None:
        from analyzer.io.formatting import format_streamed, record_pieces
        from notation.gjn_writer import write_record
        return format_streamed(src, path, unicode=unicode, check=check, diff=diff, write_back=write_back,
                               err=err, pieces_of=record_pieces(write_record), errors="syntax")

    def not_formatted(self, kind: str) -> str | None:
        return "the JSON of a Gouji record (use shengji convert --to gjn)" if kind == "gjn-json" else None

    def generate(self, rules: str, count: int, seed: int, *, players: int | None,
                 games: int | None, bot: str = "plain") -> tuple[str, str, list[str]]:
        from analyzer.games.gouji.commands import generate_match
        if bot != "plain":
            from analyzer.io.echo import usage
            usage(f"--bot {bot} is for the Shengji presets; a {rules} match is played by the Gouji bots")
        return generate_match(rules, games or count, seed)

    def bot(self) -> Any:
        from analyzer.games.gouji import bot
        return bot


GAME = Gouji()
