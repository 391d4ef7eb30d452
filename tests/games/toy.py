"""A toy third game, "high card", registered in the tests only: the proof that a
game is a plug-in (docs/extending.md, "A game"). A ``.toy`` file holds one record:
``[Tag "value"]`` lines, then one hand a line, ``N:7 E:K S:2 W:10``; the highest
card (2 < … < 10 < J < Q < K < A) wins the hand. Reading: SJ102 for a bad card;
the "engine": SJ202 for a card played twice in one hand."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from analyzer.games import UNKNOWN, Checker, Game, ReadResult
from primitives.diagnostics import Diagnostic
from primitives.spans import NO_SPAN, Span

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@dataclass
class ToyHand:
    line: int
    plays: list[tuple[str, str]]      # (seat, rank)


@dataclass
class ToyRecord:
    tags: list[tuple[str, str]] = field(default_factory=list)
    hands: list[ToyHand] = field(default_factory=list)
    span: Span = NO_SPAN


def parse(text: str) -> tuple[list[ToyRecord], list[Diagnostic]]:
    """All records of a text (a toy file holds one) and the reading diagnostics."""
    record = ToyRecord()
    diags: list[Diagnostic] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            name, _, value = line.strip("[]").partition(" ")
            record.tags.append((name, value.strip('"')))
            continue
        plays = []
        for word in line.split():
            seat, _, rank = word.partition(":")
            if rank not in RANKS:
                col = raw.index(word) + 1
                diags.append(Diagnostic.at("SJ102", Span(n, col, n, col + len(word)), f"`{word}` is not a toy card"))
                continue
            plays.append((seat, rank))
        record.hands.append(ToyHand(n, plays))
        if not record.span.line:
            record.span = Span(n, 1, n, 2)
    return [record], diags


def write(records: Sequence[ToyRecord], *, unicode: bool = False) -> str:
    out = []
    for r in records:
        out += [f'[{k} "{v}"]' for k, v in r.tags]
        out += [" ".join(f"{s}:{c}" for s, c in h.plays) for h in r.hands]
    return "\n".join(out) + "\n"


def winner(hand: ToyHand) -> str | None:
    return max(hand.plays, key=lambda p: RANKS.index(p[1]))[0] if hand.plays else None


def check(record: ToyRecord | None) -> list[Diagnostic]:
    """The toy engine: a card played twice in one hand is SJ202."""
    out = []
    for h in record.hands if record is not None else ():
        ranks = [c for _, c in h.plays]
        for c in sorted({c for c in ranks if ranks.count(c) > 1}):
            out.append(Diagnostic.at("SJ202", Span(h.line, 1, h.line, 2), f"{c} is played twice in one hand"))
    return out


class Toy(Game):
    name = "toy"
    title = "Toy"
    notation = "toy"
    suffixes = (".toy",)
    kinds = ("toy",)
    store_note = "a Toy record: the Parquet store has no table for it; not exported"

    def detect(self, head: str, path: str) -> str:
        return "toy" if path.lower().endswith(".toy") else UNKNOWN

    def read(self, source: str | Iterable[str], kind: str, *, start_line: int = 1) -> Iterator[ReadResult]:
        records, diags = parse(source if isinstance(source, str) else "".join(source))
        yield records[0], diags

    def holds(self, record: Any) -> bool:
        return bool(record.tags or record.hands)

    def write(self, records: Sequence[Any], *, unicode: bool = False) -> str:
        return write(records)

    def to_json(self, record: Any, *, spans: bool = False) -> str:
        return json.dumps({"game_type": "toy", "tags": dict(record.tags),
                           "hands": [dict(h.plays) for h in record.hands]}, indent=2)

    def presets(self) -> Sequence[str]:
        return ("toy-high",)

    def preset_rows(self) -> list[tuple[str, str]]:
        return [("toy-high", "Toy: the highest card wins")]

    def option_table(self, preset: str) -> tuple[list[tuple[str, str, str, bool]], str]:
        return [("order", "2..A", "tests/games/toy.py", False)], f"Toy preset {preset}"

    def lint_checker(self, rules: str | None, mistakes: Callable[..., Any] | None) -> Checker:
        return lambda record, parse_diags, start_line: list(parse_diags) + check(record)

    def replay(self, src: Any, file: str, *, hand: int | None, trick: int | None, step: bool,
               record: int | None, rules: str | None) -> None:
        from analyzer.io.echo import fail
        records, _ = src.load()
        if not records:
            fail(f"{file}: no record found")
        for k, h in enumerate(records[0].hands, 1):
            if hand is None or hand == k:
                print(f"hand {k}: " + " ".join(f"{s} {c}" for s, c in h.plays) + f" -> {winner(h)} wins")

    def report(self, src: Any, file: str, fmt: str, output: str | None, *, force: bool, rules: str | None,
               mistakes: bool, progress: bool) -> None:
        from analyzer.io.outputs import write_output
        records, _ = src.load()
        wins: dict[str, int] = {}
        for h in records[0].hands:
            w = winner(h)
            if w is not None:
                wins[w] = wins.get(w, 0) + 1
        if fmt == "json":
            text = json.dumps({"game": "toy", "wins": wins}) + "\n"
        else:
            text = "".join(f"{seat}: {n} hand(s) won\n" for seat, n in sorted(wins.items()))
        write_output(output, text, force=force)

    def convert(self, src: Any, to: str, output: str | None, *, spans: bool, unicode: bool) -> None:
        from analyzer.io.echo import fail
        from analyzer.io.outputs import write_output
        if to not in ("toy", "json"):
            fail(f"{src.path}: a Toy record converts to toy or json, not {to}", 2)
        records, _ = src.load()
        write_output(output, self.to_json(records[0]) + "\n" if to == "json" else write(records), force=False)

    def fmt(self, src: Any, path: str, *, unicode: bool, check: bool, diff: bool, write_back: bool,
            err: Callable[[str], None]) -> bool | None:
        from analyzer.io.formatting import format_whole
        return format_whole(src, path, parse, write, unicode=unicode, check=check, diff=diff,
                            write_back=write_back, err=err)

    def generate(self, rules: str, count: int, seed: int, *, players: int | None,
                 games: int | None) -> tuple[str, str, list[str]]:
        rng = random.Random(seed)
        hands = [ToyHand(0, list(zip("NESW", rng.sample(RANKS, 4)))) for _ in range(count)]
        return write([ToyRecord([("Game", "toy")], hands)]), f"{rules}-{count}h-seed{seed}.toy", []


TOY = Toy()
