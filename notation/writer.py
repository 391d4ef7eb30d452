"""Writing records as canonical SJN.

The canonical style (documented in ``docs/notation.md``):

* comment lines of the record (``Record.line_comment``) first, then the tags,
  one per line, then the header commentaries, one per line;
* a blank line before each hand and between records;
* within a hand, a fixed line order: ``hand``, ``levels``, ``dealer``,
  ``first``, the seat lines in N W S E order, ``kitty``, ``declare none``,
  the ``declare``/``bury`` lines in their recorded order with ``trump`` right
  before the first ``bury`` (after the last declaration when nothing is
  buried), the ``friend`` lines, the tricks (one per line, always numbered),
  ``points``, ``redeal``;
* cards suit-first with ASCII suits (``unicode=True``: ♠ ♥ ♦ ♣), a run of
  one suit written as one group (``SAKK H109``; ``grouped=False``: one card
  per group), two spaces between the plays of a trick;
* a ``{ … }`` commentary right after its element, a ``;`` comment at the end
  of its line (a comment of several lines continues on ``;`` lines below);
  the commentary of a whole trick goes on the line after it.

Writing then reading gives back the same content (``parse(write(r))`` equals
:func:`canonical` of ``r`` ignoring spans), and writing what was read is
idempotent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from primitives.cards import SUIT_LETTERS, SUIT_SYMBOLS, format_cards, rank_name

from ._writing import comment_lines, emit, head_problems, node_problems, write_head
from .model import ALL_SEATS, Hand, PlayerLevels, Record, Trick

__all__ = ["write", "write_record", "canonical", "representable_problems"]

_SEAT_ORDER = {seat: i for i, seat in enumerate(ALL_SEATS)}
_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal_text(k: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` …"""
    return _ORDINALS.get(k, f"{k}th")


class WriteStyle:
    __slots__ = ("unicode", "grouped")

    def __init__(self, unicode: bool, grouped: bool):
        self.unicode = unicode
        self.grouped = grouped

    def cards(self, cards: Iterable[int]) -> str:
        return format_cards(cards, unicode=self.unicode, grouped=self.grouped)


def write(records: Record | Iterable[Record], *, unicode: bool = False, grouped: bool = True) -> str:
    """Canonical SJN for one record or several (separated by a blank line).

    Raises ``ValueError`` for a record that SJN cannot represent (see
    :func:`representable_problems`); records read from SJN or JSON by this
    package always can be written.
    """
    if isinstance(records, Record):
        records = [records]
    style = WriteStyle(unicode, grouped)
    parts = [write_record(r, style) for r in records]
    return "\n".join(p for p in parts if p)


def _ascii_text(text: str) -> str:
    """Full-width letters and digits as ASCII (the reader reads them so)."""
    from .reader import FULLWIDTH
    return text if text.isascii() else text.translate(FULLWIDTH)


def write_record(record: Record, style: WriteStyle | None = None) -> str:
    problems = representable_problems(record)
    if problems:
        raise ValueError("record cannot be written as SJN: " + "; ".join(problems[:3]))
    style = style or WriteStyle(False, True)
    out: list[str] = []
    write_head(out, record)
    for hand in record.hands:
        if out:
            out.append("")
        _write_hand(out, hand, style)
    return _ascii_text("\n".join(out) + "\n") if out else ""


def _write_hand(out: list[str], hand: Hand, style: WriteStyle) -> None:
    notes = hand.line_notes
    head = "hand" if hand.number is None else f"hand {hand.number}"
    emit(out, head, hand)
    if hand.levels is not None:
        lv = hand.levels
        if isinstance(lv, PlayerLevels):
            text = " ".join(f"{seat} {rank_name(level)}" for seat, level in
                            sorted(lv.levels.items(), key=lambda kv: _SEAT_ORDER[kv[0]]))
            emit(out, f"levels {text}", lv)
        else:
            emit(out, f"levels NS {rank_name(lv.ns)} EW {rank_name(lv.ew)}", lv)
    if hand.dealer is not None:
        emit(out, f"dealer {hand.dealer}", notes.get("dealer"))
    if hand.first is not None:
        emit(out, f"first {hand.first}", notes.get("first"))
    for sc in sorted(hand.deal, key=lambda s: _SEAT_ORDER[s.seat]):
        emit(out, f"{sc.seat}: {style.cards(sc.cards)}", sc)
    if hand.kitty is not None:
        emit(out, f"kitty {style.cards(hand.kitty)}", notes.get("kitty"))
    if hand.declare_none is not None:
        emit(out, "declare none", notes.get("declare none"))
    trump_line = None
    if hand.trump is not None:
        symbols = SUIT_SYMBOLS if style.unicode else SUIT_LETTERS
        trump_line = "NT" if hand.trump == 4 else symbols[hand.trump]
    for event in hand.events:
        if event.kind == "bury":
            if trump_line is not None:
                emit(out, f"trump {trump_line}", notes.get("trump"))
                trump_line = None
            emit(out, f"bury {event.seat}: {style.cards(event.cards)}", event)
        else:
            text = f"declare {event.seat} {style.cards(event.cards)}"
            if event.at is not None:
                text += f" @{event.at}"
            emit(out, text, event)
    if trump_line is not None:
        emit(out, f"trump {trump_line}", notes.get("trump"))
    for call in hand.friends:
        text = "friend "
        if call.ordinal is not None:
            text += ordinal_text(call.ordinal) + " "
        text += style.cards((call.card,))
        if call.joined is not None:
            text += f" {call.joined}"
            if call.at is not None:
                text += f" @{call.at}"
        emit(out, text, call)
    for index, trick in enumerate(hand.tricks):
        _write_trick(out, trick, index, style)
    if hand.points is not None:
        emit(out, f"points {hand.points}", notes.get("points"))
    if hand.redeal is not None:
        emit(out, "redeal", notes.get("redeal"))


def _write_trick(out: list[str], trick: Trick, index: int, style: WriteStyle) -> None:
    number = trick.number if trick.number is not None else index + 1
    plays = []
    for play in trick.plays:
        text = f"{play.seat}: "
        if play.attempted is not None:
            text += f"{style.cards(play.attempted)} -> "
        text += style.cards(play.cards)
        for comment in play.comments:
            text += f" {{{comment}}}"
        plays.append(text)
    line = f"{number}."
    if plays:
        line += " " + "  ".join(plays)
    if trick.line_comment is not None:
        lines = comment_lines(trick.line_comment)
        out.append(f"{line}  {lines[0]}")
        out.extend(lines[1:])
    else:
        out.append(line)
    for comment in trick.comments:
        out.append(f"{{{comment}}}")


def canonical(record: Record) -> Record:
    """The record as canonical SJN gives it back: seat lines in N W S E order,
    every trick numbered (a missing number is its position in the hand) and
    no empty line notes. Spans are kept."""
    hands = []
    for hand in record.hands:
        deal = sorted(hand.deal, key=lambda s: _SEAT_ORDER[s.seat])
        tricks = [t if t.number is not None else dataclasses.replace(t, number=i + 1)
                  for i, t in enumerate(hand.tricks)]
        notes = {k: n for k, n in hand.line_notes.items() if n.comments or n.line_comment is not None}
        hands.append(hand.model_copy(update={"deal": deal, "tricks": tricks, "line_notes": notes}))
    return record.model_copy(update={"hands": hands})


# -- what SJN can hold ------------------------------------------------------------------------


def _cards_problems(what: str, cards: Sequence[object]) -> list[str]:
    if not cards:
        return [f"{what} has no cards"]
    if any(not (isinstance(c, int) and 0 <= c < 54) for c in cards):
        return [f"{what} holds a card outside 0..53"]
    return []


def representable_problems(record: Record) -> list[str]:
    """Why ``record`` cannot be written as SJN (empty when it can).

    SJN cannot write: empty card lists, cards outside 0..53, levels outside
    2..15, a trump outside 0..4, negative hand/trick numbers or draw counts,
    a tag name that is not ``[A-Za-z][A-Za-z0-9_.-]*`` or a value with a line
    break, comment text with blanks at its ends, a commentary holding a brace
    or a line starting with ``[``, a ``;`` comment on a
    single play, and two seat lines for one seat.
    """
    problems = head_problems(record, "Record.comments has no SJN form (use header_comments)")
    for h, hand in enumerate(record.hands, 1):
        where = f"hand #{h}"
        if hand.number is not None and hand.number < 0:
            problems.append(f"{where} has a negative number")
        problems += node_problems(where, hand)
        if isinstance(hand.levels, PlayerLevels):
            if len(hand.levels.levels) < 2:
                problems.append(f"{where} has a `levels` line of fewer than two players")
            if any(not 2 <= v <= 15 for v in hand.levels.levels.values()):
                problems.append(f"{where} has a level outside 2..15")
            problems += node_problems(f"the levels of {where}", hand.levels)
        elif hand.levels is not None:
            if not (2 <= hand.levels.ns <= 15 and 2 <= hand.levels.ew <= 15):
                problems.append(f"{where} has a level outside 2..15")
            problems += node_problems(f"the levels of {where}", hand.levels)
        if hand.trump is not None and not 0 <= hand.trump <= 4:
            problems.append(f"{where} has a trump outside 0..4")
        seats = [sc.seat for sc in hand.deal]
        if len(set(seats)) != len(seats):
            problems.append(f"{where} has two seat lines for one seat")
        for sc in hand.deal:
            problems += _cards_problems(f"{sc.seat}'s cards in {where}", sc.cards)
            problems += node_problems(f"{sc.seat}'s cards in {where}", sc)
        if hand.kitty is not None:
            problems += _cards_problems(f"the kitty of {where}", hand.kitty)
        for event in hand.events:
            problems += _cards_problems(f"a {event.kind} in {where}", event.cards)
            problems += node_problems(f"a {event.kind} in {where}", event)
            at = getattr(event, "at", None)
            if at is not None and at < 0:
                problems.append(f"a declaration in {where} has a negative `@k`")
        for call in hand.friends:
            problems += _cards_problems(f"a friend call in {where}", (call.card,))
            problems += node_problems(f"a friend call in {where}", call)
            if call.ordinal is not None and call.ordinal < 1:
                problems.append(f"a friend call in {where} has an ordinal below 1")
            if call.joined is not None and call.joined not in _SEAT_ORDER and call.joined != "none":
                problems.append(f"a friend call in {where} names {call.joined!r}, not a seat")
            if call.at is not None and (call.at < 1 or call.joined in (None, "none")):
                problems.append(f"a friend call in {where} has a reveal trick without a seat, or below 1")
        for t, trick in enumerate(hand.tricks, 1):
            if trick.number is not None and trick.number < 0:
                problems.append(f"trick #{t} of {where} has a negative number")
            problems += node_problems(f"trick #{t} of {where}", trick)
            for play in trick.plays:
                problems += _cards_problems(f"a play in trick #{t} of {where}", play.cards)
                if play.attempted is not None:
                    problems += _cards_problems(f"a failed throw in trick #{t} of {where}", play.attempted)
                if play.line_comment is not None:
                    problems.append(f"a play in trick #{t} of {where} has a `;` comment "
                                    f"(only the trick line can)")
                problems += node_problems(f"a play in trick #{t} of {where}", play)
        for key, note in hand.line_notes.items():
            if key not in _NOTE_KEYS:
                problems.append(f"{where} has a note for unknown line {key!r}")
            elif getattr(hand, _NOTE_KEYS[key]) is None:
                problems.append(f"{where} has a note for its `{key}` line but no such line")
            problems += node_problems(f"the `{key}` line of {where}", note)
    return problems


_NOTE_KEYS = {"dealer": "dealer", "first": "first", "kitty": "kitty", "declare none": "declare_none",
              "trump": "trump", "points": "points", "redeal": "redeal"}
