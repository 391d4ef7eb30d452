"""Assembling a chunk's line items into records and hands."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from primitives.diagnostics import NO_SPAN, Diagnostic, Span

from .._records import attach_notes, merge_spans
from ..model import Hand, Note, Record, Trick
from ._common import Entry, _Item
from ._models import _Hand, _new_trick, _Note, _Record

_TRICK_START = re.compile(r"[ \t]*(\d{1,6})[ \t]*\.")


def _lost_tricks(items: list[Entry], diags: list[Diagnostic], lines: list[str], first_line: int) -> list[Entry]:
    """A trick line that could not be read still holds its place: an empty trick
    with the written number (the engine then keeps the written numbering and
    checks nothing that depends on the lost plays)."""
    lost: dict[int, Entry] = {}
    covered = None
    for d in diags:
        k = d.line - first_line
        if d.severity != "error" or not d.code.startswith("SJ1") or not 0 <= k < len(lines) or d.line in lost:
            continue
        m = _TRICK_START.match(lines[k])
        if m is None:
            continue
        if covered is None:
            covered = {it.span.line for it in items}
        if d.line in covered:
            continue
        span = Span(d.line, m.start(1) + 1, d.line, len(lines[k]) + 1)
        lost[d.line] = _Item("trick", _new_trick(int(m.group(1)), [], span, []), span, [])
    if not lost:
        return items
    out: list[Entry] = []
    pending = sorted(lost.items())
    for it in items:
        while pending and pending[0][0] < it.span.line:
            out.append(pending.pop(0)[1])
        out.append(it)
    out.extend(item for _, item in pending)
    return out


# -- assembling records ----------------------------------------------------------------------

_FIELD_KINDS = {
    # kind: (Hand field, its span field)
    "dealer": ("dealer", "dealer_span"),
    "first": ("first", "first_span"),
    "kitty": ("kitty", "kitty_span"),
    "trump": ("trump", "trump_span"),
    "points": ("points", "points_span"),
    "declare none": ("declare_none", None),
    "redeal": ("redeal", None),
}


def _second_seat_line(seat: str, span: Span) -> Diagnostic:
    return Diagnostic.at("SJ108", span, f"a second `{seat}:` line with dealt cards in this hand; the first "
                                        f"one is kept (a trick needs a number, like `5. {seat}: …`)")


def _assemble(items: Sequence[Entry]) -> tuple[list[Record], list[Diagnostic]]:
    """Build records from the items of one chunk (normally one record).

    Model fields are written straight into the instance dicts: the values are
    already typed, and pydantic's ``__setattr__`` would only cost time.
    """
    records: list[Record] = []
    diags: list[Diagnostic] = []
    rec: Record | None = None
    hand: Hand | None = None
    rec_start = rec_end = hand_start = hand_end = NO_SPAN
    target: Any = None  # receives `;` continuation lines and own-line commentary
    seats_seen: set[str] = set()

    for entry in items:
        cls = type(entry)
        if cls is not _Item:  # a trick or seat line's node, from the shortcut
            span = entry.span
            if hand is not None:
                rec_end = hand_end = span
                if cls is Trick:
                    hand.tricks.append(entry)  # type: ignore[arg-type]  # the class was checked
                else:
                    seat = entry.seat  # type: ignore[union-attr]  # a SeatCards
                    if seat in seats_seen:
                        diags.append(_second_seat_line(seat, span))
                        continue
                    seats_seen.add(seat)
                    hand.deal.append(entry)  # type: ignore[arg-type]  # the class was checked
                target = entry
                continue
            # the first line of a hand: the general way below starts the hand
            item = _Item("trick" if cls is Trick else "seat", entry, span, entry.comments)
        else:
            item = entry  # type: ignore[assignment]  # an _Item
        kind = item.kind
        span = item.span
        if rec is None or (kind == "tags" and hand is not None):
            if hand is not None:
                hand.__dict__["span"] = merge_spans(hand_start, hand_end)
            if rec is not None:
                rec.__dict__["span"] = merge_spans(rec_start, rec_end)
            rec = _Record()
            records.append(rec)
            hand = target = None
            rec_start = span
        rec_end = span
        if kind == "comment" or kind == "notes":
            attach_notes(rec, hand is not None, target, item.value if kind == "notes" else None,
                         item.line_comment)
            if hand is not None:
                hand_end = span
            continue
        if kind == "tags":
            rec.tags.extend(item.value)
            target = item.value[-1]
            if item.line_comment is not None:
                target.__dict__["line_comment"] = item.line_comment
            continue
        # hand content
        if kind == "hand" or hand is None:
            if hand is not None:
                hand.__dict__["span"] = merge_spans(hand_start, hand_end)
            hand = _Hand(number=item.value if kind == "hand" else None)
            rec.hands.append(hand)
            hand_start = span
            seats_seen = set()
            if kind == "hand":
                hand.comments.extend(item.comments)
                hand.__dict__["line_comment"] = item.line_comment
                target = hand
                hand_end = span
                continue
        hand_end = span
        fields = hand.__dict__
        if kind == "trick":
            node = item.value
            hand.tricks.append(node)
        elif kind == "seat":
            node = item.value
            seat = node.seat
            if seat in seats_seen:
                diags.append(_second_seat_line(seat, span))
                continue
            seats_seen.add(seat)
            hand.deal.append(node)
        elif kind == "declare" or kind == "bury":
            node = item.value
            hand.events.append(node)
        elif kind == "friend":
            node = item.value
            hand.friends.append(node)
        elif kind == "levels":
            if fields["levels"] is not None:
                diags.append(Diagnostic.at("SJ108", span, "a second `levels` line in this hand; "
                                                          "the first one is kept"))
                continue
            node = fields["levels"] = item.value
        else:  # a one-value line: dealer, first, kitty, trump, points, declare none, redeal
            field, span_field = _FIELD_KINDS[kind]
            if fields[field] is not None:
                diags.append(Diagnostic.at("SJ108", span, f"a second `{kind}` line in this hand; "
                                                          f"the first one is kept"))
                continue
            fields[field] = item.value
            if span_field:
                fields[span_field] = span
            target = _LazyNote(hand, kind, span, item.comments, item.line_comment)
            continue
        if item.line_comment is not None:
            # (a slotted line node or a pydantic model: no `__setattr__` of pydantic's)
            object.__setattr__(node, "line_comment", item.line_comment)
        target = node
    if hand is not None:
        hand.__dict__["span"] = merge_spans(hand_start, hand_end)
    if rec is not None:
        rec.__dict__["span"] = merge_spans(rec_start, rec_end)
    return records, diags


class _LazyNote:
    """Stands for a hand line's :class:`Note` (in ``hand.line_notes[key]``),
    built and stored only when the line has a comment."""

    __slots__ = ("hand", "key", "span", "_comments", "_line_comment", "note")

    def __init__(self, hand: Hand, key: str, span: Span, comments: list[str], line_comment: str | None):
        self.hand = hand
        self.key = key
        self.span = span
        self._comments = comments
        self._line_comment = line_comment
        self.note: Note | None = None
        if comments or line_comment is not None:
            self._stored()

    def _stored(self) -> Note:
        if self.note is None:
            self.note = _Note(span=self.span, comments=self._comments, line_comment=self._line_comment)
            self.hand.line_notes[self.key] = self.note
        return self.note

    @property
    def comments(self) -> list[str]:
        return self._stored().comments

    @property
    def line_comment(self) -> str | None:
        return self._line_comment if self.note is None else self.note.line_comment

    @line_comment.setter
    def line_comment(self, value: str | None) -> None:
        self._stored().line_comment = value
