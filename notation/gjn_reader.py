"""Reading GJN (Gouji notation) text into the record model of :mod:`notation.gjn_model`.

How a text is read (the SJN reader's plan, :mod:`notation.reader`, on a
line-oriented notation):

1. **Records.** :func:`notation._records.split_records` cuts the input, line by
   line, into record chunks (a ``[`` line after game content starts a new
   record). One chunk is held in memory at a time: any file streams.
2. **Logical lines.** A chunk is cut into logical lines
   (:func:`notation._records.logical_lines`: a line, plus the lines a ``{ … }``
   commentary runs over). An unterminated commentary is reported (SJ103).
3. **Lines.** The usual line, an action or a seat line with no commentary,
   is read by one regular expression (:func:`_quick_play`); any other line is
   parsed by the Lark LALR parser of ``gjn.lark``. A line that fails gets one
   positioned diagnostic (SJ101–SJ106) and is dropped; reading goes on.
4. **Assembly.** :func:`_assemble` builds :class:`GoujiRecord` and
   :class:`Game` nodes, attaches comments to the element before them and
   reports repeated lines (SJ108).

Full-width letters, digits and ``：．＝`` outside comments read as ASCII.
Diagnostics are collected, never raised; nothing here knows game rules.
"""

from __future__ import annotations

import difflib
import gc
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedInput

from replay.diagnostics import NO_SPAN, Diagnostic, Span
from replay.gjcards import CardError, parse_group

from ._fill import set_dict, set_extra, set_fields_set, set_private
from ._records import (
    error_place,
    join_comment,
    logical_lines,
    merge_spans,
    stream_records,
    unterminated_commentary,
)
from .gjn_model import (
    SEATS,
    Action,
    Buy,
    Dian,
    Game,
    GoujiRecord,
    Lead,
    Point,
    Position,
    Redeal,
    Remove,
    Result,
    Return,
    Revolt,
    Score,
    SeatCards,
    Show,
    Tag,
    Tribute,
)
from .reader import tag_problem, unescape_tag_value

__all__ = ["read_records", "parse_chunk", "KEYWORDS", "USAGE", "QUICK_LINES", "split_cards"]

GRAMMAR_PATH = Path(__file__).with_name("gjn.lark")

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

#: read plain action and seat lines with :func:`_quick_play` (tests switch it off
#: to compare with the grammar)
QUICK_LINES = True


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


def split_cards(words: list[tuple[str, int]]) -> tuple[int, ...] | tuple[int, str]:
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

    def __init__(self, kind: str, value, span: Span, comments: list[str] | None = None):
        self.kind = kind
        self.value = value
        self.span = span
        self.comments = comments if comments is not None else []
        self.line_comment: str | None = None


class _PlayLine:
    """The fields of a seat line or an action, before assembly decides which."""

    __slots__ = ("number", "seat", "kind", "cards", "burn", "fail", "finish",
                 "cards_span", "marks_span")

    def __init__(self, number, seat, kind, cards, burn, fail, finish, cards_span, marks_span):
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


def _new_action(span, number, seat, kind, cards, burn, fail, finish, cards_span, marks_span, comments,
                _new=object.__new__, _cls=Action, _set_dict=_set_dict, _given=_set_fields_set,
                _extra=_set_extra, _private=_set_private) -> Action:
    obj = _new(_cls)
    _set_dict(obj, {"span": span, "comments": comments, "line_comment": None, "number": number,
                    "seat": seat, "kind": kind, "cards": cards, "burn": burn, "fail": fail,
                    "finish": finish, "cards_span": cards_span, "marks_span": marks_span})
    _given(obj, {"span", "comments", "number", "seat", "kind", "cards", "burn", "fail", "finish",
                 "cards_span", "marks_span"})
    _extra(obj, None)
    _private(obj, None)
    return obj


def _new_seat_cards(span, seat, cards, comments,
                    _new=object.__new__, _cls=SeatCards, _set_dict=_set_dict, _given=_set_fields_set,
                    _extra=_set_extra, _private=_set_private) -> SeatCards:
    obj = _new(_cls)
    _set_dict(obj, {"span": span, "comments": comments, "line_comment": None, "seat": seat,
                    "cards": cards})
    _given(obj, {"span", "comments", "seat", "cards"})
    _extra(obj, None)
    _private(obj, None)
    return obj


def _self_check() -> None:
    """Use validated models instead if a direct build ever differs."""
    global _new_action, _new_seat_cards
    span = Span(1, 2, 1, 5)
    pairs = [
        (_new_action(span, 3, "P2", "play", (8, 9), True, False, 2, span, NO_SPAN, ["c"]),
         Action(span=span, number=3, seat="P2", kind="play", cards=(8, 9), burn=True, fail=False,
                finish=2, cards_span=span, marks_span=NO_SPAN, comments=["c"])),
        (_new_seat_cards(span, "P1", (8,), []), SeatCards(span=span, seat="P1", cards=(8,))),
    ]
    try:
        ok = all(a == b and a.model_dump() == b.model_dump() and list(a.__dict__) == list(b.__dict__)
                 for a, b in pairs)
    except Exception:  # pragma: no cover - depends on the pydantic version
        ok = False
    if not ok:  # pragma: no cover
        def _new_action(span, number, seat, kind, cards, burn, fail, finish, cards_span, marks_span,
                        comments):
            return Action(span=span, number=number, seat=seat, kind=kind, cards=cards, burn=burn,
                          fail=fail, finish=finish, cards_span=cards_span, marks_span=marks_span,
                          comments=comments)

        def _new_seat_cards(span, seat, cards, comments):
            return SeatCards(span=span, seat=seat, cards=cards, comments=comments)


_self_check()


# Words are (text, line, column) with 1-based columns, as Lark tokens give them.

def _wspan(w) -> Span:
    text, line, col = w
    return Span(line, col, line, col + len(text))


def _seat(w, kw: str) -> str:
    text = w[0]
    if text in _SEAT_SET:
        return text
    up = text.upper()
    hint = f" (write `{up}`)" if up in _SEAT_SET else ""
    how = USAGE.get(kw, "seats are P1 to P6")
    raise _LineError("SJ106", _wspan(w), f"`{text}` is not a seat{hint}: {how}")


def _number(w, what: str, low: int = 0) -> int:
    text = w[0]
    if text.isascii() and text.isdigit() and int(text) >= low:
        return int(text)
    raise _LineError("SJ106", _wspan(w), f"`{text}` is not {what}")


def _signed(w, what: str) -> int:
    text = w[0]
    digits = text[1:] if text[:1] in "-+" else text
    if digits.isascii() and digits.isdigit():
        return int(text)
    raise _LineError("SJ106", _wspan(w), f"`{text}` is not {what}")


def _cards(words) -> tuple[int, ...]:
    try:
        return split_cards([(w[0], w[2]) for w in words])
    except _BadGroup as bad:
        line = words[0][1]
        span = Span(line, bad.column, line, bad.column + len(bad.word))
        if bad.word in _SEAT_SET:
            raise _LineError("SJ101", span, f"`{bad.word}` is not a card: a seat that introduces "
                                            f"cards is followed by a colon (`{bad.word}:`)") from None
        raise _LineError("SJ102", span, f"`{bad.word}` is not a card group: {bad}") from None


def _span_of(words) -> Span:
    first, last = words[0], words[-1]
    return Span(first[1], first[2], last[1], last[2] + len(last[0]))


# -- building lines (shared by the grammar and the quick path) -----------------------

def _build_play(actno, seat_w, rest, marks) -> _PlayLine:
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


def _line_item(kw: str, words: list, span: Span):
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
            node = Buy(span=span, buyer=first, seller=second, cards=cards)
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


def _distinct(seats, words, kw):
    seen = set()
    for seat, w in zip(seats, words):
        if seat in seen:
            raise _LineError("SJ106", _wspan(w), f"`{seat}` is listed twice: {USAGE[kw]}")
        seen.add(seat)


# -- the grammar path ------------------------------------------------------------------

_LOCK = threading.Lock()
_PARSER: Lark | None = None


def _parser() -> Lark:
    global _PARSER
    if _PARSER is None:
        _PARSER = Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                       propagate_positions=False, maybe_placeholders=False)
    return _PARSER


def _w(tok: Token, offset: int):
    return (str(tok), tok.line + offset, tok.column)


def _tok_span(first: Token, last: Token, offset: int) -> Span:
    return Span(first.line + offset, first.column, last.end_line + offset, last.end_column)


def _items_of_tree(tree: Tree, offset: int, diags: list[Diagnostic]) -> list[_Item]:
    """Items of a parsed logical line (``start`` tree)."""
    out: list[_Item] = []
    prev: _Item | None = None
    for child in tree.children:
        if isinstance(child, Token):
            if child.type == "LINE_COMMENT":
                text = child[1:].strip()
                if prev is not None and prev.span.line == child.line + offset:
                    if prev.kind != "bad":
                        prev.line_comment = text
                else:
                    item = _Item("comment", None, Span(child.line + offset, child.column,
                                                       child.line + offset, child.end_column))
                    item.line_comment = text
                    out.append(item)
                prev = None
            continue
        try:
            item = _element(child, offset)
        except _LineError as err:
            diags.append(err.diag)
            first = _first_token(child)
            line = first.line + offset if first is not None else 0
            item = _Item("bad", None, Span(line, first.column if first is not None else 0, line,
                                           first.column if first is not None else 0))
        if item.kind != "bad":
            out.append(item)
        prev = item
    return out


def _first_token(tree: Tree) -> Token | None:
    for t in tree.scan_values(lambda v: isinstance(v, Token)):
        return t
    return None


def _element(tree: Tree, offset: int) -> _Item:
    kind = tree.data
    toks = [c for c in tree.children if isinstance(c, Token)]
    comments = [_commentary_text(t) for t in toks if t.type == "COMMENTARY"]
    body = [t for t in toks if t.type != "COMMENTARY"]
    if kind == "notes":
        first, last = toks[0], toks[-1]
        return _Item("notes", comments, _tok_span(first, last, offset))
    if kind == "tags":
        tags = []
        for sub in tree.children:
            tag_tok = sub.children[0]
            span = _tok_span(tag_tok, tag_tok, offset)
            m = _TAG_RE.match(str(tag_tok))
            if m is None:
                raise _LineError("SJ105", span, tag_problem(str(tag_tok)))
            tags.append(Tag(span=span, name=m.group(1), value=unescape_tag_value(m.group(2)),
                            comments=[_commentary_text(t) for t in sub.children[1:]]))
        first = tree.children[0].children[0]
        last_tag = tree.children[-1].children[-1]
        return _Item("tags", tags, _tok_span(first, last_tag, offset))
    span = _tok_span(body[0], body[-1], offset)
    if kind == "play":
        i = 0
        actno = None
        if body[0].type == "ACTNO":
            actno = _w(body[0], offset)
            i = 1
        seat_w = _w(body[i], offset)
        rest_toks = body[i + 1:]
        if rest_toks and rest_toks[0].type in ("PASS", "LET"):
            rest = (rest_toks[0].type.lower(), _w(rest_toks[0], offset))
            marks = []
        else:
            rest = [_w(t, offset) for t in rest_toks if t.type == "GROUP"]
            marks = [_w(t, offset) for t in rest_toks if t.type in ("BURN", "FAIL", "FINISH")]
        return _Item("play", _build_play(actno, seat_w, rest, marks), span, comments)
    words = [_w(t, offset) for t in body[1:]]
    item = _line_item(str(kind), words, span)
    item.comments = comments
    if isinstance(item.value, (Position, Result, Score)) or item.kind == "preplay" or item.kind == "point":
        item.value.comments = comments
    return item


_TAG_RE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_.\-]*)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]\Z')


# -- the quick path ------------------------------------------------------------------------

_QUICK_PLAY = re.compile(
    r'[ \t]*+(?:([0-9]++)\.[ \t]*+)?([^\s:;{}\[\]"=.]++):[ \t]*+([^;{}\[\]"]*?)[ \t]*+(;.*)?\Z')
_MARK_WORDS = frozenset(("burn", "fail"))


def _quick_play(text: str, line: int) -> _Item | None:
    """An action or seat line without commentary, read without Lark: the
    same item the grammar gives, or None to leave the line to it."""
    m = _QUICK_PLAY.match(text)
    if m is None:
        return None
    rest = m.group(3)
    number, seat = m.group(1), m.group(2)
    if seat in _SEAT_SET and (number is None or number[0] != "0") and " " not in rest \
            and "\t" not in rest and "=" not in rest and rest:
        # the usual line: one card group, or pass / let, no marks
        start = m.start(3) + 1
        end = start + len(rest)
        cspan = _span_new(Span, (line, start, line, end))
        if rest == "pass" or rest == "let":
            play = _PlayLine(None if number is None else int(number), seat, rest, (), False, False,
                             None, cspan, NO_SPAN)
        else:
            cards = _GROUP_CACHE.get(rest)
            if cards is None or rest in _MARK_WORDS:
                return _quick_play_words(m, text, line)
            play = _PlayLine(None if number is None else int(number), seat, "play", cards, False,
                             False, None, cspan, NO_SPAN)
        first = m.start(1) if number is not None else m.start(2)
        item = _Item("play", play, _span_new(Span, (line, first + 1, line, end)))
        if m.group(4) is not None:
            item.line_comment = m.group(4)[1:].strip()
        return item
    return _quick_play_words(m, text, line)


def _quick_play_words(m: re.Match, text: str, line: int) -> _Item | None:
    rest = m.group(3)
    if ":" in rest:
        return None  # `KK P2: QQ`: the grammar explains
    words = []
    for wm in _WORD.finditer(rest):
        words.append((wm.group(), line, m.start(3) + wm.start() + 1))
    if not words:
        return None
    actno = None
    if m.group(1) is not None:
        actno = (m.group(1) + ".", line, m.start(1) + 1)
    seat_w = (m.group(2) + ":", line, m.start(2) + 1)
    first = words[0][0]
    if first in ("pass", "let"):
        if len(words) > 1:
            return None
        play = _build_play(actno, seat_w, (first, words[0]), [])
    else:
        groups = []
        marks = []
        for w in words:
            t = w[0]
            if t in _MARK_WORDS or t[0] == "=":
                marks.append(w)
            elif marks or "=" in t or t.startswith(("pass", "let")):
                return None  # a card after a mark, `KK=1`, `passx`: the grammar decides
            else:
                groups.append(w)
        if not groups:
            return None
        play = _build_play(actno, seat_w, groups, marks)
    start = m.start(1) if m.group(1) is not None else m.start(2)
    last = words[-1]
    span = Span(line, start + 1, line, last[2] + len(last[0]))
    item = _Item("play", play, span)
    if m.group(4) is not None:
        item.line_comment = m.group(4)[1:].strip()
    return item


_WORD = re.compile(r"\S+")

#: the usual action line exactly as the writer writes it: `12. P3: KK`, `13. P4: pass`,
#: `14. P5: LJ 88 burn =2` (one blank between words, no comment)
_FAST_ACTION = re.compile(r'([1-9][0-9]*)\. (P[1-6]): ([^\s;{}\[\]":=]+(?: [^\s;{}\[\]":]+)*)\Z').match
_FINISH_MARKS = {f"={k}": k for k in range(1, 7)}


def _fast_words(m, rest: str, k: int, start: int, end: int) -> Action | None:
    """An action line of several words (groups, then marks), every group met
    before; None when anything is unusual (the general path decides)."""
    words = rest.split(" ")
    cache = _GROUP_CACHE
    cards: tuple[int, ...] = ()
    n = 0
    for w in words:
        c = cache.get(w)
        if c is None:
            break
        cards += c
        n += 1
    if n == 0:
        return None
    burn = fail = False
    finish = None
    for w in words[n:]:
        if w == "burn" and not burn:
            burn = True
        elif w == "fail" and not fail:
            fail = True
        elif finish is None and w in _FINISH_MARKS:
            finish = _FINISH_MARKS[w]
        else:
            return None
    cards_end = start + sum(len(w) for w in words[:n]) + n - 1
    marks_span = _span_new(Span, (k, cards_end + 1, k, end)) if n < len(words) else NO_SPAN
    return _new_action(_span_new(Span, (k, 1, k, end)), int(m.group(1)), m.group(2), "play", cards, burn,
                       fail, finish, _span_new(Span, (k, start, k, cards_end)), marks_span, [])

#: keyword -> (fewest, most words on the line, the keyword included; None: any)
_ARITY = {"game": (1, 2), "position": (1, None), "point": (2, 3), "show": (3, None),
          "dian": (4, None), "tribute": (4, None), "return": (4, None), "buy": (4, None),
          "revolt": (2, 2), "redeal": (1, 1), "remove": (2, None), "lead": (2, 2),
          "result": (1, None), "score": (5, 5)}
_TWO_SEAT_KW = frozenset(("dian", "tribute", "return", "buy"))


def _quick_keyword(text: str, line: int) -> _Item | None:
    """A keyword line without commentary, read without Lark when its words
    are exactly what the grammar takes (else None: the grammar decides)."""
    if "[" in text or "]" in text or '"' in text:
        return None
    code, sep, comment = text.partition(";")
    words = [(wm.group(), line, wm.start() + 1) for wm in _WORD.finditer(code)]
    if not words:
        return None
    kw = words[0][0]
    arity = _ARITY.get(kw)
    if arity is None or len(words) < arity[0] or (arity[1] is not None and len(words) > arity[1]):
        return None
    rest = words[1:]
    if kw == "show" or kw in _TWO_SEAT_KW:
        k = 1 if kw == "show" else 2
        if any(":" in w[0] for w in rest[:k - 1] + [rest[0]]):
            return None
        if kw in _TWO_SEAT_KW:
            seat = rest[1][0]
            if not seat.endswith(":") or ":" in seat[:-1] or "." in seat or "=" in seat or len(seat) < 2:
                return None
        if any(":" in w[0] or "=" in w[0] for w in rest[k:]):
            return None
    elif any(":" in w[0] for w in rest):
        return None
    item = _line_item(kw, rest, _span_of(words))
    if hasattr(item.value, "comments"):
        item.value.comments = item.comments
    if sep:
        item.line_comment = comment.strip()
    return item


# -- explaining syntax errors ---------------------------------------------------------------



def explain(text: str, exc: Exception, offset: int) -> Diagnostic:
    """A diagnostic for a Lark error in ``text`` (one logical line + "\\n")."""
    line, col, line_text, rest, word, span, head = error_place(text, exc, offset)
    before = line_text[:col].strip()
    keyword = head if head in KEYWORDS else None

    def diag(code: str, message: str, s: Span = span) -> Diagnostic:
        return Diagnostic.at(code, s, message)

    if rest.startswith("["):
        return diag("SJ105", tag_problem(rest.rstrip()), Span(line, col + 1, line, col + 1 + len(rest.rstrip())))
    if rest.startswith("}"):
        return diag("SJ101", "`}` closes no commentary: its `{` is missing")
    if not word or word.startswith(";"):
        if keyword:
            return diag("SJ101", f"the `{keyword}` line ends too early: {USAGE[keyword]}")
        if before.endswith(":"):
            return diag("SJ101", f"expected cards, `pass` or `let` after `{before}`")
        return diag("SJ101", f"the line ends too early after `{before}`")
    if not before:
        return _explain_start(word, line, col, diag)
    if keyword:
        return diag("SJ101", f"unexpected `{word}` after `{before}`: {USAGE[keyword]}")
    last = before.split()[-1]
    if last in ("pass", "let"):
        return diag("SJ101", f"nothing but a comment may follow `{last}`")
    if last in ("burn", "fail") or last.startswith("="):
        return diag("SJ101", f"unexpected `{word}` after the marks: the cards come first, then "
                             f"the marks `burn`, `fail`, `=k`, like `3. P2: KKK burn`")
    if re.fullmatch(r"[0-9]+\.", before):
        if re.match(r"P[1-6](?=\s|$)", word):
            return diag("SJ101", f"a seat that introduces an action is followed by a colon: "
                                 f"`{before} {word}: …`")
        return diag("SJ101", f"expected a seat like `P1:` after `{before}`, found `{word}`")
    return diag("SJ101", f"unexpected `{word}` after `{before}`")


def _explain_start(word: str, line: int, col: int, diag) -> Diagnostic:
    wspan = Span(line, col + 1, line, col + 1 + len(word))
    if re.fullmatch(r"[^\s.]+\.", word):
        return diag("SJ106", f"`{word}` is not an action number: write the number and a dot, like `3.`",
                    wspan)
    if re.fullmatch(r"[Pp][1-6]", word):
        return diag("SJ101", f"a seat that introduces cards is followed by a colon: `{word.upper()}: …`",
                    wspan)
    name = re.match(r"[^\W\d_][\w.]*", word)
    if name:
        w = name.group()
        s = Span(line, col + 1, line, col + 1 + len(w))
        if w.lower() in KEYWORDS:
            return diag("SJ104", f"keywords are written in lowercase: `{w.lower()}`", s)
        close = difflib.get_close_matches(w.lower(), KEYWORDS, n=1, cutoff=0.6)
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        return diag("SJ104", f"`{w}` is not a GJN keyword{hint}; a line starts with a keyword, a tag "
                             f"`[…]`, an action number like `1.` or a seat like `P1:`", s)
    return diag("SJ101", f"unexpected `{word}` at the start of a line; a line starts with a keyword, "
                         f"a tag `[…]`, an action number like `1.` or a seat like `P1:`", wspan)


# -- a chunk --------------------------------------------------------------------------------

def parse_chunk(lines: list[str], first_line: int = 1) -> tuple[list[GoujiRecord], list[Diagnostic]]:
    """Parse one record chunk (lines without line ends) whose first line has
    number ``first_line``. Never raises."""
    gc_was_enabled = gc.isenabled()
    try:
        # many small acyclic objects: pausing the cyclic GC while a chunk is
        # built saves rescanning the caller's heap (as the SJN reader does)
        gc.disable()
        with _LOCK:
            items, diags = _parse_items(lines, first_line)
        records, more = _assemble(items)
        diags.extend(more)
    except Exception as exc:  # the API boundary: report, never raise
        return [], [Diagnostic.at("SJ101", Span(first_line, 1, first_line, 1),
                                  f"internal error while reading this record ({type(exc).__name__}: "
                                  f"{exc}); the record is skipped")]
    finally:
        if gc_was_enabled:
            gc.enable()
    diags.sort(key=Diagnostic.sort_key)
    return records, diags


def _parse_items(lines: list[str], first_line: int) -> tuple[list[_Item], list[Diagnostic]]:
    diags: list[Diagnostic] = []
    items: list[_Item] = []
    if QUICK_LINES and not any("{" in line for line in lines):
        # no commentary: every line is a logical line of its own
        quick = _quick_play
        fast = _FAST_ACTION
        cache = _GROUP_CACHE
        new_action = _new_action
        span_new = _span_new
        append = items.append
        for k, line in enumerate(lines, first_line):
            m = fast(line)
            if m is not None:
                # the usual action, `12. P3: KK` / `13. P4: pass`: built here directly
                rest = m.group(3)
                end = len(line) + 1
                start = m.start(3) + 1
                if rest == "pass" or rest == "let":
                    append(new_action(span_new(Span, (k, 1, k, end)), int(m.group(1)), m.group(2), rest, (),
                                      False, False, None, span_new(Span, (k, start, k, end)), NO_SPAN, []))
                    continue
                cards = cache.get(rest)
                if cards is not None:
                    append(new_action(span_new(Span, (k, 1, k, end)), int(m.group(1)), m.group(2), "play",
                                      cards, False, False, None, span_new(Span, (k, start, k, end)),
                                      NO_SPAN, []))
                    continue
                action = _fast_words(m, rest, k, start, end)
                if action is not None:
                    append(action)
                    continue
            k -= first_line
            if not line.isascii():
                line = halfwidth(line)
            if not line or line.isspace():
                continue
            try:
                head = line.lstrip()[:1]
                item = quick(line, first_line + k) if head.isdigit() or head == "P" else \
                    _quick_keyword(line, first_line + k)
            except _LineError as err:
                diags.append(err.diag)
                continue
            if item is not None:
                items.append(item)
            else:
                items.extend(_parse_line(line, first_line + k - 1, diags))
        return items, diags
    quick = QUICK_LINES
    for logical in logical_lines(lines):
        offset = first_line + logical.first - 1
        if logical.open_line >= 0:
            diags.append(unterminated_commentary(logical, first_line))
        text = halfwidth(logical.text)
        if not text.strip():
            if logical.open_text:
                line_no = first_line + logical.open_line
                col = logical.open_column + 1
                items.append(_Item("notes", [logical.open_text],
                                   Span(line_no, col, line_no, len(lines[logical.open_line]) + 1)))
            continue
        got = None
        if quick and "\n" not in text and "{" not in text:
            try:
                head = text.lstrip()[:1]
                item = _quick_play(text, offset + 1) if head.isdigit() or head == "P" else \
                    _quick_keyword(text, offset + 1)
            except _LineError as err:
                diags.append(err.diag)
                continue
            if item is not None:
                got = [item]
        if got is None:
            got = _parse_line(text, offset, diags)
        if logical.open_text:
            for it in reversed(got):
                if it.kind != "comment":
                    _attach(it, logical.open_text)
                    break
        items.extend(got)
    return items, diags


def _parse_line(text: str, offset: int, diags: list[Diagnostic]) -> list[_Item]:
    """The items of one logical line, by the grammar; [] and a diagnostic when
    the line is not GJN."""
    try:
        tree = _parser().parse(text + "\n")
    except (LarkError, UnexpectedInput) as exc:
        diags.append(explain(text + "\n", exc, offset))
        return []
    return _items_of_tree(tree, offset, diags)


def _attach(item: _Item, text: str) -> None:
    if item.kind == "tags":
        item.value[-1].comments.append(text)
    elif item.kind == "notes":
        item.value.append(text)
    else:
        item.comments.append(text)
        if hasattr(item.value, "comments") and item.value.comments is not item.comments:
            item.value.comments.append(text)


# -- assembly -----------------------------------------------------------------------------------

def _assemble(items: list[_Item]) -> tuple[list[GoujiRecord], list[Diagnostic]]:
    records: list[GoujiRecord] = []
    diags: list[Diagnostic] = []
    rec: GoujiRecord | None = None
    game: Game | None = None
    target = None
    rec_start = rec_end = game_start = game_end = NO_SPAN

    def close_game():
        if game is not None:
            game.span = merge_spans(game_start, game_end)

    def close_record():
        close_game()
        if rec is not None:
            rec.span = merge_spans(rec_start, rec_end)

    for item in items:
        if item.__class__ is Action:  # built by the fast path: always a numbered action
            if game is not None:
                game.actions.append(item)
                target = item
                game_end = rec_end = item.span
                continue
            item = _Item("action", item, item.span)
        kind = item.kind
        span = item.span
        if rec is None or (kind == "tags" and game is not None):
            close_record()
            rec = GoujiRecord()
            records.append(rec)
            game = target = None
            rec_start = span
        rec_end = span
        if kind in ("comment", "notes"):
            if kind == "notes":
                if game is None:
                    rec.header_comments.extend(item.value)
                else:
                    target.comments.extend(item.value)
            if item.line_comment is not None:
                owner = rec if target is None else target
                owner.line_comment = join_comment(owner.line_comment, item.line_comment)
            if game is not None:
                game_end = span
            continue
        if kind == "tags":
            rec.tags.extend(item.value)
            target = item.value[-1]
            if item.line_comment is not None:
                target.line_comment = item.line_comment
            continue
        if kind == "game" or game is None:
            close_game()
            game = Game(number=item.value if kind == "game" else None)
            rec.games.append(game)
            game_start = span
            if kind == "game":
                game.comments.extend(item.comments)
                game.line_comment = item.line_comment
                target = game
                game_end = span
                continue
        game_end = span
        node = None
        if kind == "action":
            node = item.value
            game.actions.append(node)
        elif kind == "play":
            p = item.value
            if p.number is None and not game.actions:
                if p.kind != "play" or p.burn or p.fail or p.finish is not None:
                    diags.append(Diagnostic.at(
                        "SJ101", span, f"a seat line before the game's first action gives dealt cards "
                                       f"only; number the first action, like `1. {p.seat}: …`"))
                    continue
                if game.seat_cards(p.seat) is not None:
                    diags.append(Diagnostic.at(
                        "SJ108", span, f"a second `{p.seat}:` line with dealt cards in this game; the "
                                       f"first one is kept (an action needs a number, like "
                                       f"`1. {p.seat}: …`)"))
                    continue
                node = _new_seat_cards(span, p.seat, p.cards, item.comments)
                game.deal.append(node)
            else:
                node = _new_action(span, p.number, p.seat, p.kind, p.cards, p.burn, p.fail, p.finish,
                                   p.cards_span, p.marks_span, item.comments)
                game.actions.append(node)
        elif kind == "point":
            node = item.value
            if node.pre and not game.deal and not game.preplay and not game.actions:
                game.pre_points.append(node)
            else:
                node.after_actions = len(game.actions)
                game.preplay.append(node)
        elif kind == "preplay":
            node = item.value
            node.after_actions = len(game.actions)
            game.preplay.append(node)
        else:  # position, result, score: once per game
            if getattr(game, kind) is not None:
                diags.append(Diagnostic.at("SJ108", span, f"a second `{kind}` line in this game; the "
                                                          f"first one is kept"))
                continue
            node = item.value
            setattr(game, kind, node)
        if item.line_comment is not None:
            node.line_comment = item.line_comment
        target = node
    close_record()
    return records, diags


# -- streaming --------------------------------------------------------------------------------

def read_records(source: Any, start_line: int = 1) -> Iterator[tuple[GoujiRecord, list[Diagnostic]]]:
    """Stream ``(record, diagnostics)`` from any input (text, bytes, a file, an
    iterable of lines); never raises. Tags or comments with no game are folded
    into the record that follows (:func:`notation._records.stream_records`)."""
    return stream_records(source, start_line, parse_chunk, _empty_record, _has_games)


def _empty_record(span: Span) -> GoujiRecord:
    return GoujiRecord(span=span)


def _has_games(record: GoujiRecord) -> bool:
    return bool(record.games)
