"""The Gouji ``report`` and ``convert``, a record at a time.

A Gouji file is read by the streaming reader (:meth:`analyzer.io.inputs.Source.records`)
and each record is built, written and dropped before the next one is taken,
so memory stays flat on a file of any size (the reader holds one record, the
writer one match and the one after it: a page's title, a JSON list or a single
object depend on whether there is more than one). The output is what the whole
report rendered at once gives, byte for byte.

Diagnostics: each record's match carries the diagnostics read with it (those of
a stretch of the file without a record go to the next record, those after the
last record to the last one).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from analyzer.io.inputs import reading_errors


@dataclass
class Reading:
    """What reading a file gave besides its records: the count of reading errors,
    and (only while no record was found) the diagnostics, to show instead."""

    bad: int = 0
    orphans: list[Any] = field(default_factory=list)
    records: int = 0


def records_of(src: Any, reading: Reading) -> Iterator[tuple[Any, list[Any], bool]]:
    """``(record, its diagnostics, last)`` of ``src``, one record ahead of the reader."""
    pending: tuple[Any, list[Any]] | None = None
    held: list[Any] = []
    for record, diags in src.records():
        reading.bad += reading_errors(diags)
        if record is None:
            held.extend(diags)
            continue
        if pending is not None:
            yield pending[0], pending[1], False
        reading.records += 1
        pending = (record, held + list(diags))
        held = []
    if pending is not None:
        yield pending[0], pending[1] + held, True
    else:
        reading.orphans = held


def matches_of(src: Any, reading: Reading, *, path: str, rules: str | None) -> Iterator[tuple[dict[str, Any], bool]]:
    """``(match of the report, last)`` of each record of ``src``."""
    from analyzer.games.gouji.analysis import build_match
    for k, (record, diags, last) in enumerate(records_of(src, reading), 1):
        yield build_match(record, index=k, path=path, rules=rules, parse_diagnostics=diags), last


def _indented(text: str, pad: str) -> str:
    return "\n".join(pad + line for line in text.split("\n"))


def write_json_report(out: IO[str], head: dict[str, Any], matches: Iterator[tuple[dict[str, Any], bool]]) -> None:
    """``json.dumps({**head, "matches": [...]}, indent=2)`` (and a newline), a match at a time."""
    shell = json.dumps({**head, "matches": []}, indent=2, ensure_ascii=False)
    opening, closing = shell.rsplit('"matches": []', 1)
    out.write(opening + '"matches": [')
    n = 0
    for m, _last in matches:
        out.write(("\n" if n == 0 else ",\n") + _indented(json.dumps(m, indent=2, ensure_ascii=False), "    "))
        n += 1
    out.write(("\n  ]" if n else "]") + closing + "\n")


def write_markdown(out: IO[str], matches: Iterator[tuple[dict[str, Any], bool]]) -> None:
    """:func:`analyzer.games.gouji.render.render_markdown`, a match at a time (its
    trailing blank lines written only when more text follows)."""
    from analyzer.games.gouji.render import markdown_lines
    pending = ""
    first = True
    for m, _last in matches:
        text = ("" if first else "\n") + "\n".join(markdown_lines(m))
        first = False
        kept = text.rstrip()
        if not kept:
            pending += text
            continue
        out.write(pending + kept)
        pending = text[len(kept):]
    out.write("\n")


def write_text(console: Any, matches: Iterator[tuple[dict[str, Any], bool]]) -> None:
    """The report on a Rich console, a match at a time."""
    from analyzer.games.gouji.render import render_report
    for m, _last in matches:
        render_report(console, {"matches": [m]})


def write_html(out: IO[str], head: dict[str, Any], matches: Iterator[tuple[dict[str, Any], bool]]) -> None:
    """The interactive page, a match at a time."""
    from analyzer.games.gouji.viewer import write_html as page
    first = next(matches, None)
    if first is None:
        page(out, head, iter(()), single=False)
        return

    def each() -> Iterator[dict[str, Any]]:
        yield first[0]
        for m, _last in matches:
            yield m
    page(out, head, each(), single=first[1])


def write_converted(out: IO[str], records: Iterator[tuple[Any, list[Any], bool]], to: str, *,
                    spans: bool, unicode: bool) -> None:
    """``convert`` of Gouji records to ``gjn`` (tidy, records separated by a blank
    line) or ``json`` (one record: its object; more: a list), a record at a time.
    Raises ``ValueError`` for a record GJN cannot represent."""
    from notation import gjn
    from notation.gjn_writer import write_record
    if to == "gjn":
        written = False
        ends = True
        for record, _diags, _last in records:
            text = write_record(record, unicode=unicode)
            if text:
                out.write(("\n" if written else "") + text)
                written = True
                ends = text.endswith("\n")
        if not ends:
            out.write("\n")
        if not written:
            out.write("\n")
        return
    n = 0
    for record, _diags, last in records:
        text = json.dumps(json.loads(gjn.to_json(record, spans=spans)), indent=2, ensure_ascii=False)
        if n == 0 and last:
            out.write(text + "\n")
            return
        out.write(("[\n" if n == 0 else ",\n") + _indented(text, "  "))
        n += 1
    out.write("\n]\n" if n else "[]\n")
