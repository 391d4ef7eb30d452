"""What the GJN reader's parts share: keywords and their usage, full-width
text, card words, line items and building a line's node."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from primitives.diagnostics import NO_SPAN, Diagnostic, Span
from primitives.gjcards import CardError, parse_group

from .._fill import set_dict, set_extra, set_fields_set, set_private
from ..gjn_model import (
    SEATS,
    Action,
    Buy,
    Cards,
    Dian,
    Lead,
    Point,
    Position,
    PrePlayLine,
    Redeal,
    Remove,
    Result,
    Return,
    Revolt,
    Score,
    SeatCards,
    Show,
    Tribute,
)

GRAMMAR_PATH = Path(__file__).parent.parent / "gjn.lark"

KEYWORDS = ("game", "position", "point", "show", "dian", "tribute", "return", "buy", "revolt",
            "redeal", "remove", "lead", "result", "score")
_SEAT_SET = frozenset(SEATS)

USAGE = {
    "game": "`game` takes an optional number, like `game 2`",
    "position": "`position` lists the seats already out, in place order, like `position P1 P4` "
                "(or none: `position`)",
    "point": "`point` takes a seat and an optional `pre`, like `point P3` or `point P3 pre`",
    "show": "`show` takes a seat and the 3s shown, like `show P3 S333`",
    "dian": "`dian` takes the payer, the receiver with a colon and the cards, like `dian P4 P1: 2`",
    "tribute": "`tribute` takes the payer, the receiver with a colon and the cards, "
               "like `tribute P5 P2: LJ 2`",
    "return": "`return` takes the giver, the receiver with a colon and the cards, "
              "like `return P2 P5: 44`",
    "buy": "`buy` takes the buyer, the seller with a colon and the card paid, like `buy P6 P3: 2`",
    "revolt": "`revolt` takes a seat, like `revolt P4`",
    "redeal": "`redeal` stands alone on its line",
    "remove": "`remove` takes 3, 4 or both, like `remove 3 4`",
    "lead": "`lead` takes a seat, like `lead P5`",
    "result": "`result` lists the six seats in place order, like `result P3 P5 P1 P2 P6 P4`",
    "score": "`score` gives both sides' points, like `score odd 4 even 0`",
}


# -- full width -----------------------------------------------------------------

_FW = {c: c - 0xFEE0 for c in range(0xFF10, 0xFF1A)}                   # ０-９
_FW.update({c: c - 0xFEE0 for c in range(0xFF21, 0xFF3B)})             # Ａ-Ｚ
_FW.update({c: c - 0xFEE0 for c in range(0xFF41, 0xFF5B)})             # ａ-ｚ
_FW.update({0xFF1A: ord(":"), 0xFF0E: ord("."), 0xFF1D: ord("="), 0x3000: ord(" ")})
_FW_CHARS = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\uff1a\uff0e\uff1d\u3000]")
_COMMENT_PART = re.compile(r'\{[^}]*\}?|;.*|"(?:[^"\\\n]|\\.)*"?', re.S)


def halfwidth(text: str) -> str:
    """Full-width letters, digits and ``：．＝`` (and the ideographic space)
    outside comments and quoted tag values, as ASCII (one char for one, so
    columns stay)."""
    if _FW_CHARS.search(text) is None:
        return text
    out = []
    i = 0
    for m in _COMMENT_PART.finditer(text):
        out.append(text[i:m.start()].translate(_FW))
        out.append(m.group())
        i = m.end()
    out.append(text[i:].translate(_FW))
    return "".join(out)


# -- cards ----------------------------------------------------------------------

_GROUP_CACHE: dict[str, tuple[int, ...]] = {}


def split_cards(words: list[tuple[str, int]]) -> tuple[int, ...]:
    """Cards of ``(group, column)`` words; raises :class:`_BadGroup`."""
    out: list[int] = []
    cache = _GROUP_CACHE
    for word, column in words:
        cards = cache.get(word)
        if cards is None:
            try:
                cards = parse_group(word)
            except CardError as exc:
                raise _BadGroup(word, column, str(exc)) from None
            if len(cache) < 50_000:
                cache[word] = cards
        out.extend(cards)
    return tuple(out)


class _BadGroup(Exception):
    def __init__(self, word: str, column: int, message: str):
        super().__init__(message)
        self.word = word
        self.column = column


# -- items ------------------------------------------------------------------------

class _Item:
    """One parsed line: ``kind``, ``value`` (a node or plain data), ``span``,
    the commentaries written after it and its ``;`` comment."""

    __slots__ = ("kind", "value", "span", "comments", "line_comment")

    def __init__(self, kind: str, value: Any, span: Span, comments: list[str] | None = None):
        self.kind = kind
        self.value = value
        self.span = span
        self.comments = comments if comments is not None else []
        self.line_comment: str | None = None


class _PlayLine:
    """The fields of a seat line or an action, before assembly decides which."""

    __slots__ = ("number", "seat", "kind", "cards", "burn", "fail", "finish",
                 "cards_span", "marks_span")

    def __init__(self, number: int | None, seat: str, kind: str, cards: Cards, burn: bool, fail: bool,
                 finish: int | None, cards_span: Span, marks_span: Span):
        self.number = number
        self.seat = seat
        self.kind = kind
        self.cards = cards
        self.burn = burn
        self.fail = fail
        self.finish = finish
        self.cards_span = cards_span
        self.marks_span = marks_span


class _LineError(Exception):
    """A bad value on a line: the line is dropped with this diagnostic."""

    def __init__(self, code: str, span: Span, message: str):
        super().__init__(message)
        self.diag = Diagnostic.at(code, span, message)


def _commentary_text(raw: str) -> str:
    return raw[1:-1].strip()


# -- fast model construction ---------------------------------------------------
#
# Read values are already typed (seats come from a regex, cards are ints), so
# pydantic validation of the one node built per action would only cost time.
# As in the SJN reader, the action and seat-line nodes are filled directly;
# ``_self_check`` compares them with validated models at import and falls
# back to validation if pydantic's internals ever differ.

_set_dict = set_dict
_set_fields_set = set_fields_set
_set_extra = set_extra
_set_private = set_private
_span_new = tuple.__new__


def _new_action(span: Span, number: int | None, seat: str, kind: str, cards: Cards, burn: bool, fail: bool,
                finish: int | None, cards_span: Span, marks_span: Span, comments: list[str],
                _new: Any = object.__new__, _cls: type[Action] = Action, _set_dict: Any = _set_dict,
                _given: Any = _set_fields_set, _extra: Any = _set_extra, _private: Any = _set_private) -> Action:
    obj: Action = _new(_cls)
    _set_dict(obj, {"span": span, "comments": comments, "line_comment": None, "number": number,
                    "seat": seat, "kind": kind, "cards": cards, "burn": burn, "fail": fail,
                    "finish": finish, "cards_span": cards_span, "marks_span": marks_span})
    _given(obj, {"span", "comments", "number", "seat", "kind", "cards", "burn", "fail", "finish",
                 "cards_span", "marks_span"})
    _extra(obj, None)
    _private(obj, None)
    return obj


def _new_seat_cards(span: Span, seat: str, cards: Cards, comments: list[str],
                    _new: Any = object.__new__, _cls: type[SeatCards] = SeatCards, _set_dict: Any = _set_dict,
                    _given: Any = _set_fields_set, _extra: Any = _set_extra,
                    _private: Any = _set_private) -> SeatCards:
    obj: SeatCards = _new(_cls)
    _set_dict(obj, {"span": span, "comments": comments, "line_comment": None, "seat": seat,
                    "cards": cards})
    _given(obj, {"span", "comments", "seat", "cards"})
    _extra(obj, None)
    _private(obj, None)
    return obj


def _validated_action(span: Span, number: int | None, seat: str, kind: str, cards: Cards, burn: bool,
                      fail: bool, finish: int | None, cards_span: Span, marks_span: Span,
                      comments: list[str]) -> Action:
    return Action(span=span, number=number, seat=seat, kind=kind, cards=cards, burn=burn,
                  fail=fail, finish=finish, cards_span=cards_span, marks_span=marks_span, comments=comments)


def _validated_seat_cards(span: Span, seat: str, cards: Cards, comments: list[str]) -> SeatCards:
    return SeatCards(span=span, seat=seat, cards=cards, comments=comments)


def _self_check() -> bool:
    """Do the direct builds give what validated models give?"""
    span = Span(1, 2, 1, 5)
    pairs: list[tuple[BaseModel, BaseModel]] = [
        (_new_action(span, 3, "P2", "play", (8, 9), True, False, 2, span, NO_SPAN, ["c"]),
         Action(span=span, number=3, seat="P2", kind="play", cards=(8, 9), burn=True, fail=False,
                finish=2, cards_span=span, marks_span=NO_SPAN, comments=["c"])),
        (_new_seat_cards(span, "P1", (8,), []), SeatCards(span=span, seat="P1", cards=(8,))),
    ]
    try:
        return all(a == b and a.model_dump() == b.model_dump() and list(a.__dict__) == list(b.__dict__)
                   for a, b in pairs)
    except Exception:  # pragma: no cover - depends on the pydantic version
        return False


if not _self_check():  # pragma: no cover - depends on the pydantic version
    # validated models instead (every other module imports these after this has run)
    globals().update(_new_action=_validated_action, _new_seat_cards=_validated_seat_cards)


# Words are (text, line, column) with 1-based columns, as Lark tokens give them.
Word = tuple[str, int, int]

def _wspan(w: Word) -> Span:
    text, line, col = w
    return Span(line, col, line, col + len(text))


def _seat(w: Word, kw: str) -> str:
    text = w[0]
    if text in _SEAT_SET:
        return text
    up = text.upper()
    hint = f" (write `{up}`)" if up in _SEAT_SET else ""
    how = USAGE.get(kw, "seats are P1 to P6")
    raise _LineError("SJ106", _wspan(w), f"`{text}` is not a seat{hint}: {how}")


def _number(w: Word, what: str, low: int = 0) -> int:
    text = w[0]
    if text.isascii() and text.isdigit() and int(text) >= low:
        return int(text)
    raise _LineError("SJ106", _wspan(w), f"`{text}` is not {what}")


def _signed(w: Word, what: str) -> int:
    text = w[0]
    digits = text[1:] if text[:1] in "-+" else text
    if digits.isascii() and digits.isdigit():
        return int(text)
    raise _LineError("SJ106", _wspan(w), f"`{text}` is not {what}")


def _cards(words: Sequence[Word]) -> tuple[int, ...]:
    try:
        return split_cards([(w[0], w[2]) for w in words])
    except _BadGroup as bad:
        line = words[0][1]
        span = Span(line, bad.column, line, bad.column + len(bad.word))
        if bad.word in _SEAT_SET:
            raise _LineError("SJ101", span, f"`{bad.word}` is not a card: a seat that introduces "
                                            f"cards is followed by a colon (`{bad.word}:`)") from None
        raise _LineError("SJ102", span, f"`{bad.word}` is not a card group: {bad}") from None


def _span_of(words: Sequence[Word]) -> Span:
    first, last = words[0], words[-1]
    return Span(first[1], first[2], last[1], last[2] + len(last[0]))


# -- building lines (shared by the grammar and the quick path) -----------------------

def _build_play(actno: Word | None, seat_w: Word, rest: tuple[str, Word] | Sequence[Word],
                marks: Sequence[Word]) -> _PlayLine:
    """``actno`` word or None, the ``P1:`` word, ``rest``: ('pass'|'let', word)
    or the group words, ``marks``: mark words."""
    number = None
    if actno is not None:
        number = _number((actno[0][:-1], actno[1], actno[2]), "an action number", 1)
    seat_text = seat_w[0][:-1]
    seat = _seat((seat_text, seat_w[1], seat_w[2]), "")
    if isinstance(rest, tuple):
        kind, w = rest
        return _PlayLine(number, seat, kind, (), False, False, None, _wspan(w), NO_SPAN)
    cards = _cards(rest)
    burn = fail = False
    finish = None
    for m in marks:
        text = m[0]
        if text == "burn":
            if burn:
                raise _LineError("SJ101", _wspan(m), "`burn` is written twice")
            burn = True
        elif text == "fail":
            if fail:
                raise _LineError("SJ101", _wspan(m), "`fail` is written twice")
            fail = True
        else:
            if finish is not None:
                raise _LineError("SJ101", _wspan(m), "a play finishes once: one `=k` mark")
            k = text[1:]
            if not (k.isascii() and k.isdigit() and 1 <= int(k) <= 6):
                raise _LineError("SJ106", _wspan(m), f"`{text}` is not a place: write `=1` to `=6` "
                                                     f"(the place the player finishes in)")
            finish = int(k)
    marks_span = _span_of(marks) if marks else NO_SPAN
    return _PlayLine(number, seat, "play", cards, burn, fail, finish, _span_of(rest), marks_span)


def _line_item(kw: str, words: list[Word], span: Span) -> _Item:
    """The item of a keyword line; ``words`` after the keyword (the seat word
    of the two-seat lines keeps its colon)."""
    if kw == "game":
        return _Item("game", _number(words[0], "a game number: write a whole number, like `game 2`", 1)
                     if words else None, span)
    if kw == "position":
        seats = tuple(_seat(w, kw) for w in words)
        _distinct(seats, words, kw)
        return _Item("position", Position(span=span, finished=seats), span)
    if kw == "point":
        seat = _seat(words[0], kw)
        pre = False
        if len(words) > 1:
            if words[1][0] != "pre":
                raise _LineError("SJ106", _wspan(words[1]), f"unexpected `{words[1][0]}`: {USAGE[kw]}")
            pre = True
        return _Item("point", Point(span=span, seat=seat, pre=pre), span)
    if kw == "show":
        return _Item("preplay", Show(span=span, seat=_seat(words[0], kw), cards=_cards(words[1:])), span)
    if kw in ("dian", "tribute", "return", "buy"):
        first = _seat(words[0], kw)
        sw = words[1]
        second = _seat((sw[0][:-1], sw[1], sw[2]), kw)
        cards = _cards(words[2:])
        if kw == "buy":
            node: PrePlayLine = Buy(span=span, buyer=first, seller=second, cards=cards)
        else:
            node = _TWO_SEAT[kw](span=span, payer=first, receiver=second, cards=cards)
        return _Item("preplay", node, span)
    if kw == "revolt":
        return _Item("preplay", Revolt(span=span, seat=_seat(words[0], kw)), span)
    if kw == "redeal":
        return _Item("preplay", Redeal(span=span), span)
    if kw == "remove":
        ranks = []
        for w in words:
            if w[0] not in ("3", "4") or int(w[0]) in ranks:
                raise _LineError("SJ106", _wspan(w), f"`{w[0]}` cannot be removed here: {USAGE[kw]}")
            ranks.append(int(w[0]))
        return _Item("preplay", Remove(span=span, ranks=tuple(ranks)), span)
    if kw == "lead":
        return _Item("preplay", Lead(span=span, seat=_seat(words[0], kw)), span)
    if kw == "result":
        seats = tuple(_seat(w, kw) for w in words)
        if len(seats) != 6:
            raise _LineError("SJ106", span, f"`result` lists {len(seats)} seat(s): it lists the six "
                                            f"seats in place order, like `result P3 P5 P1 P2 P6 P4`")
        _distinct(seats, words, kw)
        return _Item("result", Result(span=span, seats=seats), span)
    if kw == "score":
        values = {}
        for side_w, value_w in ((words[0], words[1]), (words[2], words[3])):
            side = side_w[0]
            if side not in ("odd", "even") or side in values:
                raise _LineError("SJ106", _wspan(side_w), f"expected `odd` or `even`, found `{side}`: "
                                                          f"{USAGE[kw]}")
            values[side] = _signed(value_w, "a whole number of points")
        return _Item("score", Score(span=span, odd=values["odd"], even=values["even"]), span)
    raise AssertionError(kw)


_TWO_SEAT = {"dian": Dian, "tribute": Tribute, "return": Return}


def _distinct(seats: Sequence[str], words: Sequence[Word], kw: str) -> None:
    seen: set[str] = set()
    for seat, w in zip(seats, words):
        if seat in seen:
            raise _LineError("SJ106", _wspan(w), f"`{seat}` is listed twice: {USAGE[kw]}")
        seen.add(seat)


