"""Writing findings back into a record as ``{SJ6xx …}`` commentaries."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from primitives.diagnostics import Diagnostic, Span

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Hand, Record


class _Commented(Protocol):
    """A record element that takes ``{ … }`` commentaries."""

    comments: list[str]

#: an analyzer annotation: the commentary starts with a mistake code
ANNOTATION = re.compile(r"^SJ6\d\d\b")


def comment_text(d: Diagnostic) -> str:
    """``SJ6xx message`` as SJN commentary text (no braces, one line, no blanks at the ends)."""
    text = f"{d.code} {d.message}".replace("{", "(").replace("}", ")")
    return " ".join(text.split())


def _in_span(d: Diagnostic, span: Span | None) -> bool:
    if not span or span.line == 0 or d.line == 0:
        return False
    start, end = (span.line, span.column), (span.end_line, span.end_column)
    return start <= (d.line, d.column) and ((d.line, d.column) < end or end == (0, 0))


def annotate(record: Record, findings: Iterable[Diagnostic], *, replace: bool = True) -> Record:
    """A copy of ``record`` with each finding attached as a ``{SJ6xx …}``
    commentary to the element it is about.

    A finding of :func:`analyzer.review.mistakes.review` says where it belongs
    (``target``, ``hand``, ``trick``, ``seat``): the play of that seat in
    that trick, or the hand's last ``bury`` line. A plain
    :class:`~primitives.diagnostics.Diagnostic` is placed by its position: the
    play whose span holds it, else its trick, else its hand. ``replace``
    first removes the annotations an earlier run wrote (commentaries starting
    with an SJ6xx code), so annotating twice gives the same record.
    """
    out = record.model_copy(deep=True)
    if replace:
        for hand in out.hands:
            for node in _nodes(hand):
                node.comments = [c for c in node.comments if not ANNOTATION.match(c)]
    for d in findings:
        target = _target(out, d)
        if target is None:
            continue
        text = comment_text(d)
        if text not in target.comments:
            target.comments.append(text)
    return out


def _nodes(hand: Hand) -> Iterator[_Commented]:
    yield hand
    yield from hand.events
    for t in hand.tricks:
        yield t
        yield from t.plays


def _target(record: Record, d: Diagnostic) -> _Commented | None:
    if d.hand is None or not 1 <= d.hand <= len(record.hands):
        return None
    hand = record.hands[d.hand - 1]
    target = getattr(d, "target", None)
    seat = getattr(d, "seat", None)
    if target == "bury":
        buries = hand.buries
        return buries[-1] if buries else hand
    trick = hand.tricks[d.trick - 1] if d.trick is not None and 1 <= d.trick <= len(hand.tricks) else None
    if trick is not None and seat is not None:
        for p in trick.plays:
            if p.seat == seat:
                return p
    candidates = [trick] if trick is not None else hand.tricks
    for t in candidates:
        for p in t.plays:
            if _in_span(d, p.span):
                return p
    return trick if trick is not None else hand
