"""``shengji convert`` and ``shengji annotate`` as library functions: a
:class:`~analyzer.io.inputs.Source`'s records written to a text stream, one record
at a time. Reading errors are told to ``err`` (one line each) and then refuse
the whole output (:class:`~analyzer.io.errors.UserError`, exit status 1), so a
caller writing through :func:`analyzer.io.outputs.open_output` gets all or nothing."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from analyzer.io.errors import UserError
from analyzer.io.inputs import Source, diag_line

Echo = Callable[[str], None]


def _stderr(line: str) -> None:
    sys.stderr.write(line + "\n")


def _reading_error(d: object) -> bool:
    return getattr(d, "severity", "") == "error" and str(getattr(d, "code", "")).startswith(("SJ1", "SJ9"))


def convert_records(src: Source, to: str, out: IO[str], *, name: str, spans: bool = False,
                    unicode: bool = False, err: Echo = _stderr) -> int:
    """Write the Shengji records of ``src`` to ``out`` as ``sjn`` or ``json`` (one
    object, or an array for several records); the number of records. Every
    reading error is told to ``err`` before the output is refused."""
    from notation.jsonio import to_json
    from notation.writer import _Style, write_record
    style = _Style(unicode, True)
    errors = 0
    count = 0
    held: str | None = None  # JSON: the first record, until we know whether an array is needed
    for record, diags in src.records():
        for d in diags:
            err(diag_line(name, d))
            if _reading_error(d):
                errors += 1
        if errors or record is None:
            continue  # keep reading: every reading error is reported
        count += 1
        if to == "sjn":
            try:
                text = write_record(record, style)
            except ValueError as exc:
                raise UserError(f"{name}: not converted: {exc}", 1) from None
            out.write(("\n" if count > 1 else "") + text)
            continue
        item = to_json(record, indent=2, spans=spans)
        if count == 1:
            held = item
            continue
        if held is not None:
            out.write("[\n  " + held.replace("\n", "\n  "))
            held = None
        out.write(",\n  " + item.replace("\n", "\n  "))
    src.check()
    if errors:
        raise UserError(f"{name}: not converted: {errors} reading error(s)", 1)
    if not count:
        raise UserError(f"{name}: no record found", 1)
    if to == "json":
        out.write(held + "\n" if held is not None else "\n]\n")
    return count


def convert_gjn(src: Source, to: str, *, name: str, spans: bool = False, unicode: bool = False,
                err: Echo = _stderr) -> str:
    """A Gouji record (GJN, or JSON written from GJN) as ``gjn`` or ``json`` text."""
    from notation import gjn
    if to == "sjn":
        raise UserError(f"{name}: a Gouji record converts to gjn or json, not sjn", 2)
    records, diags = src.load()
    errors = [d for d in diags if d.severity == "error" and d.code.startswith(("SJ1", "SJ9"))]
    for d in diags:
        err(diag_line(name, d))
    if errors:
        raise UserError(f"{name}: not converted: {len(errors)} reading error(s)", 1)
    if not records:
        raise UserError(f"{name}: no record found", 1)
    if to == "gjn":
        try:
            text = gjn.write(records, unicode=unicode)
        except ValueError as exc:
            raise UserError(f"{name}: not converted: {exc}", 1) from None
        return text if text.endswith("\n") else text + "\n"
    dumped = [json.loads(gjn.to_json(r, spans=spans)) for r in records]
    data = dumped[0] if len(dumped) == 1 else dumped
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def annotate_records(src: Source, out: IO[str], *, rules: str | None = None, endgame: int | None = None,
                     prefixes: Sequence[str] = (), unicode: bool = False,
                     err: Echo = _stderr, progress: Any = None) -> tuple[int, int, list[str]]:
    """Review every record of ``src`` and write it to ``out`` with its mistake
    annotations (SJ6xx comments on the plays). ``(annotations, records, summary
    lines)``. A record with reading errors refuses the whole output.
    ``progress``: an :class:`analyzer.io.progress.Progress` told of every hand reviewed."""
    from analyzer.report.model import TAG_OF_SEAT, summary_lines
    from analyzer.review.mistakes import ENDGAME_TRICKS, review_full, summarize
    from analyzer.review.mistakes import annotate as annotate_record
    from notation.writer import _Style, write_record
    from replay.game import replay as run_replay
    name = src.name
    style = _Style(unicode, True)
    count = records = 0
    reading = False
    lines: list[str] = []
    for record, diags in src.records():
        for d in diags:
            err(diag_line(name, d))
            reading = reading or d.code.startswith(("SJ1", "SJ9"))
        if reading or record is None:
            continue
        match = run_replay(record, rules=rules)
        if progress is not None:
            progress.add_total(len(match.hands))
        rv = review_full(match, record=record, endgame_tricks=ENDGAME_TRICKS if endgame is None else endgame,
                         on_hand=(lambda _i, _n: progress.advance()) if progress is not None else None)
        found = [d for d in rv.findings if not prefixes or any(d.code.startswith(p) for p in prefixes)]
        count += len(found)
        text = write_record(annotate_record(record, found), style)
        if text:
            out.write(("\n" if records else "") + text)
        records += 1
        players = {s: {"name": record.tag(tag)} for s, tag in TAG_OF_SEAT.items()}
        lines.append(f"record {records}:")
        lines.extend("  " + line for line in summary_lines(summarize(found, rv.hands), players))
    src.check()
    if reading:
        raise UserError(f"{name}: fix the reading errors first (shengji lint shows them)", 1)
    if not records:
        raise UserError(f"{name}: no record found")
    return count, records, lines
