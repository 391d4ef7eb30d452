"""``shengji annotate`` as a library function: every Shengji record of a
:class:`~analyzer.io.inputs.Source` reviewed (:mod:`analyzer.review.mistakes`)
and written back with its mistake annotations, one record at a time. Reading
errors are told to ``err`` and refuse the whole output."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from analyzer.io.errors import UserError
from analyzer.io.inputs import Source, diag_line

Echo = Callable[[str], None]


def _stderr(line: str) -> None:
    sys.stderr.write(line + "\n")


def annotate_records(src: Source, out: IO[str], *, rules: str | None = None, endgame: int | None = None,
                     prefixes: Sequence[str] = (), unicode: bool = False,
                     err: Echo = _stderr, progress: Any = None, lines: Any = None,
                     jobs: int = 1) -> tuple[int, int, Any]:
    """Review every record of ``src`` and write it to ``out`` with its mistake
    annotations (SJ6xx comments on the plays). ``(annotations, records, summary
    lines)``. A record with reading errors refuses the whole output.
    ``progress``: an :class:`analyzer.io.progress.Progress` told of every hand reviewed.
    ``lines``: where the summary lines go (``append``, ``extend``; a list by
    default; the command gives :class:`analyzer.io.spool.SpooledLines`).
    ``jobs``: the review's worker processes (one record's hands at a time)."""
    from analyzer.report.matches import TAG_OF_SEAT
    from analyzer.report.text import summary_lines
    from analyzer.review.mistakes import ENDGAME_TRICKS, review_full, summarize
    from analyzer.review.mistakes import annotate as annotate_record
    from notation.writer import WriteStyle, write_record
    from replay.game import replay as run_replay
    name = src.name
    style = WriteStyle(unicode, True)
    count = records = 0
    reading = False
    if lines is None:
        lines = []
    for record, diags in src.records():
        for d in diags:
            err(diag_line(name, d))
            reading = reading or d.code.startswith(("SJ1", "SJ9"))
        if reading or record is None:
            continue
        match = run_replay(record, rules=rules)
        if progress is not None:
            progress.add_total(len(match.hands))
        rv = review_full(match, record=record, endgame_tricks=ENDGAME_TRICKS if endgame is None else endgame, jobs=jobs,
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
