"""Reading SJN text into the record model.

How a text is read:

1. **Records.** :func:`split_records` cuts the input, line by line, into
   record chunks: a line whose first non-blank character is ``[`` starts a new
   record once the current one has hand content. Only one chunk is held in
   memory at a time, so a file of any size streams.
2. **Shortcut.** A chunk made only of one-line elements (tags, keyword
   lines, seat and trick lines, blanks, ``;`` comments: what the writer
   produces when there is no commentary) is lexed line by line with the
   grammar's own terminals (:func:`_quick_lex`): the usual line (a seat or
   trick line, a tag or keyword line without commentary) is read whole with
   one regex and built directly; a line with a bad value (a card, a seat) is
   built by the same rule methods as in step 3, which report it. Anything
   else (a commentary over lines, a syntax error) leaves the whole chunk to
   step 3.
3. **Lark.** The chunk is parsed in one go by the Lark LALR parser
   (``sjn.lark``) with the tree builder inlined (:class:`_Build`): each line
   becomes an :class:`_Item`, and the cards are split in Python.
4. **Recovery.** If Lark stops on a syntax error, the chunk is read again one
   *logical line* at a time (a line, plus the following lines a multi-line
   ``{ … }`` commentary runs over). A line that fails is dropped with one
   diagnostic and reading goes on at the next line.
5. **Assembly.** :func:`_assemble` turns the items into :class:`Record` and
   :class:`Hand` objects, attaches comments and reports repeated lines.

Diagnostics are collected, never raised; any unexpected failure becomes an
SJ101 diagnostic at the start of the chunk. Nothing here knows game rules.
"""

from __future__ import annotations

import difflib
import gc
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pydantic import BaseModel

from replay.cards import SUIT_LETTERS, parse_group, parse_rank, suit_from_char
from replay.diagnostics import NO_SPAN, Diagnostic, Span

from .model import (
    NUMBERED_SEATS,
    Bury,
    Declaration,
    FriendCall,
    Hand,
    Levels,
    Note,
    Play,
    PlayerLevels,
    Record,
    SeatCards,
    Tag,
    Trick,
)

if TYPE_CHECKING:
    from lark import Lark

# Lark is imported, and the LALR parser built, only when a chunk needs it (a
# commentary over lines, a syntax error): the shortcut below reads the usual
# record with the grammar's terminals from `_terminals.py` and never calls it.

__all__ = ["parse_chunk", "split_records", "read_records", "split_cards", "use_backend",
           "split_lines", "BACKEND", "KEYWORDS", "FULLWIDTH"]

GRAMMAR_PATH = Path(__file__).with_name("sjn.lark")

KEYWORDS = ("hand", "levels", "dealer", "first", "kitty", "declare", "trump",
            "bury", "points", "redeal", "friend")
SEATS = frozenset(("N", "W", "S", "E") + NUMBERED_SEATS)
_TRUMPS = {"NT": 4}

#: how each keyword is written (completes error messages)
USAGE = {
    "hand": "`hand` takes an optional number, like `hand 3`",
    "levels": "`levels` gives both teams' levels, like `levels NS 2 EW 2` "
              "(a level is 2 to 10, J, Q, K, A or Joker)",
    "player levels": "`levels` gives each player's level, like `levels P1 2 P2 5 P3 2 P4 2 P5 3` "
                     "(a level is 2 to 10, J, Q, K, A or Joker)",
    "dealer": "`dealer` takes a seat (N, W, S, E) or `?`, like `dealer S`",
    "first": "`first` takes a seat (N, W, S, E), like `first S`",
    "kitty": "`kitty` takes the kitty's cards, like `kitty C3 C4 D7`",
    "declare": "`declare` takes a seat, the cards shown and an optional `@k`, "
               "like `declare S H2 @7`, or is written `declare none`",
    "trump": "`trump` takes S, H, D, C (or ♠ ♥ ♦ ♣) or NT, like `trump H`",
    "bury": "`bury` takes a seat with a colon and the buried cards, like `bury S: SK H5`",
    "points": "`points` takes a whole number, like `points 85`",
    "redeal": "`redeal` stands alone on its line",
    "friend": "`friend` takes an optional ordinal, a card, and optionally the seat that joined "
              "(or `none`) with the trick `@k`, like `friend 2nd HA` or `friend 2nd HA P3 @7`",
}


# -- fast model construction ---------------------------------------------------
#
# Parsed values are already typed (seats come from a regex, cards are ints),
# so validation would only cost time, and pydantic's ``model_construct`` is
# slow in the versions we run on (it inspects each ``default_factory`` on every
# call). The reader fills the instances directly instead: ``_fill`` sets the
# field dict and pydantic's three per-instance slots. ``_self_check`` compares
# the results with validated models at import and falls back to validation if
# pydantic's internals ever differ.

_set = object.__setattr__
_new_object = object.__new__
#: sets an instance's field dict: the ``__dict__`` slot's own setter, which
#: ``object.__setattr__`` would look up on every call
_set_dict = vars(BaseModel)["__dict__"].__set__
_set_fields_set = BaseModel.__pydantic_fields_set__.__set__
_set_extra = BaseModel.__pydantic_extra__.__set__
_set_private = BaseModel.__pydantic_private__.__set__


def _fill(cls, fields: dict, given: set):
    """An instance of ``cls`` holding ``fields`` (all of them, in field order)."""
    obj = cls.__new__(cls)
    _set_dict(obj, fields)
    _set_fields_set(obj, given)
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


def _builder(cls):
    """``build(**fields)`` for ``cls``: the given fields, defaults for the rest."""
    template: dict = {}
    factories = []
    for name, field in cls.model_fields.items():
        template[name] = None if field.is_required() or field.default_factory else field.default
        if field.default_factory is not None:
            factories.append((name, field.default_factory))

    def build(**kw):
        d = template.copy()
        d.update(kw)
        for name, factory in factories:
            if name not in kw:
                d[name] = factory()
        return _fill(cls, d, set(kw))

    build.model = cls
    return build


_Tag, _Levels, _Declaration, _Bury = _builder(Tag), _builder(Levels), _builder(Declaration), _builder(Bury)
_Hand, _Record, _Note = _builder(Hand), _builder(Record), _builder(Note)


# The three objects built for every play line (about 130 a hand): `_fill`
# spelled out, with everything bound as defaults (local lookups).
def _new_play(seat: str, cards: tuple, attempted: tuple | None, span: Span,
              _new=object.__new__, _cls=Play, _set_dict=_set_dict, _given=_set_fields_set,
              _extra=_set_extra, _private=_set_private) -> Play:
    obj = _new(_cls)
    _set_dict(obj, {"span": span, "comments": [], "line_comment": None,
                    "seat": seat, "cards": cards, "attempted": attempted})
    _given(obj, {"seat", "cards", "attempted", "span"})
    _extra(obj, None)
    _private(obj, None)
    return obj


def _new_trick(number: int | None, plays: list, span: Span, comments: list[str],
               _new=object.__new__, _cls=Trick, _set_dict=_set_dict, _given=_set_fields_set,
               _extra=_set_extra, _private=_set_private) -> Trick:
    obj = _new(_cls)
    _set_dict(obj, {"span": span, "comments": comments, "line_comment": None,
                    "number": number, "plays": plays})
    _given(obj, {"span", "comments", "number", "plays"})
    _extra(obj, None)
    _private(obj, None)
    return obj


def _new_seat_cards(seat: str, cards: tuple, span: Span, comments: list[str]) -> SeatCards:
    return _fill(SeatCards, {"span": span, "comments": comments, "line_comment": None,
                             "seat": seat, "cards": cards},
                 {"span", "comments", "seat", "cards"})


#: the direct builds above match validated models (`_self_check`)
_DIRECT_MODELS = True


def _self_check() -> None:
    """Use validated models instead if a direct build ever differs."""
    global _new_play, _new_trick, _new_seat_cards, _Tag, _Levels, _Declaration, _Bury, _Hand, _Record, _Note
    global _DIRECT_MODELS
    span = Span(1, 2, 1, 5)
    play = Play(seat="S", cards=(1, 2), attempted=(3,), span=span)
    pairs = [
        (_new_play("S", (1, 2), (3,), span), play),
        (_new_trick(3, [play], span, ["c"]), Trick(number=3, plays=[play], span=span, comments=["c"])),
        (_new_seat_cards("N", (1,), span, ["c"]), SeatCards(seat="N", cards=(1,), span=span, comments=["c"])),
        (_Tag(name="A", value="b"), Tag(name="A", value="b")),
        (_Hand(number=2, span=span), Hand(number=2, span=span)),
    ]
    try:
        ok = all(a == b and a.model_dump() == b.model_dump() and list(a.__dict__) == list(b.__dict__)
                 and a.model_fields_set <= set(a.__dict__) for a, b in pairs)
    except Exception:  # pragma: no cover - depends on the pydantic version
        ok = False
    if not ok:  # pragma: no cover
        _DIRECT_MODELS = False
        _new_play = lambda seat, cards, attempted, span: Play(
            seat=seat, cards=cards, attempted=attempted, span=span)
        _new_trick = lambda number, plays, span, comments: Trick(
            number=number, plays=plays, span=span, comments=comments)
        _new_seat_cards = lambda seat, cards, span, comments: SeatCards(
            seat=seat, cards=cards, span=span, comments=comments)
        _Tag, _Levels, _Declaration, _Bury = Tag, Levels, Declaration, Bury
        _Hand, _Record, _Note = Hand, Record, Note


_self_check()


# -- cards -----------------------------------------------------------------------

class CardError(ValueError):
    """A card list holds a bad group: ``index`` of the group, and a message."""

    def __init__(self, index: int, message: str):
        super().__init__(message)
        self.index = index


#: card group text -> cards (card groups repeat a lot: "HA", "S10", ...)
_GROUP_CACHE: dict[str, tuple[int, ...]] = {}
#: the text of a whole card list in a play -> cards (plays repeat a lot too)
_LIST_CACHE: dict[str, tuple[int, ...]] = {}
#: Span(...) without NamedTuple's Python-level __new__
_span_new = tuple.__new__
_RANK_START = frozenset("123456789TJQKAtjqka")


def split_cards(text: str) -> tuple[int, ...]:
    """Blank-separated card groups → cards, in order.

    A group is a suit followed by ranks (``SAKK``, ``H10109``), a joker
    (``BJ``, ``LJ``, ``大王``, ``小王``) or — SJN's shorthand — ranks alone,
    which continue the suit of the group before them in the same list:
    ``H10 10 9`` is three groups holding ♥10 ♥10 ♥9. Raises :class:`CardError`.
    """
    groups = text.split()
    cache = _GROUP_CACHE
    out: list[int] = []
    try:
        # the usual list, in one go: each group written with its suit and met
        # before (a group of ranks alone is never a key: its key has a suit)
        for group in groups:
            out += cache[group]
        return tuple(out)
    except KeyError:
        out = []
    suit = -1
    for index, group in enumerate(groups):
        if group[0] in _RANK_START:
            if suit < 0:
                raise CardError(index, _no_suit_message(group, out))
            key = SUIT_LETTERS[suit] + group
        else:
            key = group
        cards = cache.get(key)
        if cards is None:
            try:
                cards = _group_cards(key)
            except ValueError as exc:
                raise CardError(index, _group_message(group, key, exc)) from None
            if len(cache) < 100_000:
                cache[key] = cards
        out.extend(cards)
        last = cards[-1]
        suit = last // 13 if last < 52 else -1
    return tuple(out)


_SUIT_CHARS = frozenset("SHDCshdc♠♥♦♣♤♡♢♧")


#: suit character -> rank as written -> card, for `_group_cards`; ranks are
#: read left to right, ``10`` first, in either case (as `parse_group` does)
_RANK_TOKEN = re.compile(r"10|.", re.S)
_RANK_OFFSETS = {**{str(r): r - 2 for r in range(2, 11)}, "T": 8, "J": 9, "Q": 10, "K": 11, "A": 12}
_CARD_BY_RANK = {ch: {written: suit_from_char(ch) * 13 + offset
                      for rank, offset in _RANK_OFFSETS.items() for written in {rank, rank.lower()}}
                 for ch in _SUIT_CHARS}


def _group_cards(key: str) -> tuple[int, ...]:
    """Cards of one group; the suit may be repeated before each rank
    (``♠A♠K♠K`` = ``♠AKK``), but a group holds one suit."""
    by_rank = _CARD_BY_RANK.get(key[0])
    if by_rank is not None and len(key) > 1:  # the usual group, in one go
        try:
            return tuple(map(by_rank.__getitem__, _RANK_TOKEN.findall(key, 1)))
        except KeyError:
            pass  # `parse_group` explains
    try:
        return parse_group(key)
    except ValueError:
        cuts = [i for i in range(1, len(key)) if key[i] in _SUIT_CHARS]
        if not cuts or key[0] not in _SUIT_CHARS:
            raise
    suit = suit_from_char(key[0])
    out: list[int] = []
    for start, end in zip([0] + cuts, cuts + [len(key)]):
        piece = key[start:end]
        if suit_from_char(piece[0]) != suit:
            raise ValueError(f"a group holds one suit: put a blank before {piece[0]!r}")
        out.extend(parse_group(piece))
    return tuple(out)


def _no_suit_message(group: str, before: list[int]) -> str:
    where = "after a joker" if before else "at the start of a card list"
    return (f"`{group}` has no suit: ranks written alone continue the suit of the "
            f"group before them, and there is none {where} (write e.g. `H{group}`)")


def _group_message(group: str, key: str, exc: ValueError) -> str:
    if group in SEATS:
        return f"`{group}` alone is not a card"
    reason = str(exc)
    if key != group:  # a continuation group: name it as written
        reason = reason.replace(repr(key), repr(group))
    return f"`{group}` is not a card group: {reason}"


# -- lexical helpers -------------------------------------------------------------

_TAG_RE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_.\-]*)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]\Z')
_TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*\Z")
_UNESCAPE_RE = re.compile(r'\\([\\"])')
_GROUPS = r'[^\s:;{}\[\]"@>\-]++(?!:)(?:[ \t]++[^\s:;{}\[\]"@>\-]++(?!:))*+'
_DIGITS = frozenset("0123456789")
_PLAY_RE = re.compile(rf"([NWSE]|P[1-8]):[ \t]*+({_GROUPS})(?:[ \t]*+->[ \t]*+({_GROUPS}))?")
_WORD_RE = re.compile(r"\S+")
_ORDINAL_RE = re.compile(r"([0-9]+)(?:st|nd|rd|th)?\Z")


def unescape_tag_value(raw: str) -> str:
    """``\\"`` → ``"`` and ``\\\\`` → ``\\``; any other backslash is kept."""
    return _UNESCAPE_RE.sub(r"\1", raw) if "\\" in raw else raw


def tag_problem(text: str) -> str:
    """Why ``text`` (from ``[`` to the end of the line) is not a good tag."""
    i, n = 1, len(text)
    while i < n and text[i] in " \t":
        i += 1
    j = i
    while j < n and text[j] not in ' \t"]':
        j += 1
    name = text[i:j]
    i = j
    while i < n and text[i] in " \t":
        i += 1
    if not name:
        return 'a tag is written `[Name "value"]`: the name is missing'
    if not _TAG_NAME_RE.match(name):
        return (f"`{name}` is not a tag name: a name is letters, digits, `_`, `.` "
                f"and `-`, starting with a letter")
    if i >= n or text[i] == "]":
        return f'tag `{name}` has no value: write `[{name} "…"]`'
    if text[i] != '"':
        value = text[i:].split("]", 1)[0].strip()
        return f'the value of tag `{name}` must be in double quotes: `[{name} "{value}"]`'
    m = re.compile(r'"((?:[^"\\\n]|\\.)*)"').match(text, i)
    if not m:
        return f'the value of tag `{name}` is missing its closing `"`'
    i = m.end()
    while i < n and text[i] in " \t":
        i += 1
    if i >= n:
        return f"tag `{name}` is not closed with `]`"
    if text[i] != "]":
        return f"unexpected `{text[i:].split()[0]}` after the value of tag `{name}`"
    return 'a tag is written `[Name "value"]`'


def _number(text: str) -> int | None:
    """A whole number written with ASCII digits, else None."""
    return int(text) if text.isdigit() and text.isascii() else None


def _signed_number(text: str) -> int | None:
    """:func:`_number`, with an optional ``-`` in front."""
    digits = text[1:] if text[:1] == "-" else text
    return int(text) if digits.isdigit() and digits.isascii() else None


def _trump_value(text: str) -> int | None:
    """``S H D C`` (or a suit symbol) as 0..3, ``NT`` as 4, else None."""
    trump = _TRUMPS.get(text.upper())
    if trump is None and len(text) == 1:
        try:
            trump = suit_from_char(text)
        except ValueError:
            pass
    return trump


def _commentary_text(token_value: str) -> str:
    return token_value[1:-1].strip()


def _join_comment(old: str | None, new: str) -> str:
    return new if old is None else old + "\n" + new


# -- items: one per logical line ---------------------------------------------------

class _Item:
    """One parsed line: ``kind``, its ``value`` (a node or a plain value), its
    span, commentaries, ``;`` comment, and ``tail``: the list a commentary
    written right after the line's last element goes to."""

    __slots__ = ("kind", "value", "span", "comments", "line_comment", "tail")

    def __init__(self, kind: str, value, span: Span, comments: list[str], tail: list[str] | None = None):
        self.kind = kind
        self.value = value
        self.span = span
        self.comments = comments
        self.line_comment: str | None = None
        self.tail = comments if tail is None else tail


def _merge(a: Span, b: Span) -> Span:
    """From the start of ``a`` to the end of ``b``."""
    return _span_new(Span, (a[0], a[1], b[2], b[3]))


# -- the tree builder, inlined into the LALR parser --------------------------------

class _Build:
    """Turns grammar rules into items and model nodes while Lark parses.

    Lark inlines it as a transformer by looking its rule methods up by name (a
    rule without a method becomes a ``Tree``); it needs no ``lark.Transformer``
    base class, so reading a simple record does not import Lark.

    ``offset`` is added to every line number (Lark counts from 1 in the text
    it is given); ``diags`` collects problems; ``bad`` marks the current line
    as dropped (reset at each line end).
    """

    __visit_tokens__ = False

    def __init__(self) -> None:
        self.offset = 0
        self.diags: list[Diagnostic] = []
        self.bad = False
        self._bad_span = NO_SPAN

    # helpers
    def _span(self, tok) -> Span:
        off = self.offset
        return Span(tok.line + off, tok.column, tok.end_line + off, tok.end_column)

    def _fail(self, code: str, span: Span, message: str) -> None:
        self.diags.append(Diagnostic.at(code, span, message))
        self.bad = True

    def _value_error(self, tok, message: str) -> None:
        self._fail("SJ106", self._span(tok), message)

    def _cards(self, tok, before: str = ""):
        """Cards of a CARDS token."""
        return self._cards_at(tok.value, tok.line + self.offset, tok.column, before)

    def _cards_at(self, text: str, line: int, column: int, before: str = ""):
        """Cards of ``text`` found at ``line``:``column``; () and a diagnostic
        (the line is dropped) when a group is bad."""
        try:
            return split_cards(text)
        except CardError as exc:
            words = list(_WORD_RE.finditer(text))
            word = words[exc.index]
            span = Span(line, column + word.start(), line, column + word.end())
            group = word.group()
            prefix = " ".join((before + " " + text[:word.start()]).split())
            if group in SEATS:
                message = (f"expected a card or a seat like `{group}:` after `{prefix}`; "
                           f"`{group}` alone is not a card (a seat that starts a play "
                           f"needs a colon)")
                self._fail("SJ101", span, message)
            else:
                self._fail("SJ102", span, str(exc))
            return ()

    def _comments(self, children, start: int) -> list[str]:
        return [_commentary_text(t.value) for t in children[start:]]

    # lines
    def _done(self, item: _Item) -> _Item:
        """Every element rule ends here: a line with a problem becomes a
        ``bad`` item, dropped by :meth:`start` (with its ``;`` comment)."""
        if self.bad:
            self.bad = False
            return _Item("bad", None, item.span, [])
        return item

    def start(self, children):
        """Items in order; each ``;`` comment goes to the element it ends the
        line of, or becomes a ``comment`` item (a line of its own)."""
        out = []
        prev = None
        offset = self.offset
        for child in children:
            kind = type(child)
            if kind is _Item:
                prev = child
                if child.kind != "bad":
                    out.append(child)
                continue
            if kind is list:  # a run of play lines
                for item in child:
                    if item.kind != "bad":
                        out.append(item)
                prev = child[-1]
                continue
            line = child.line + offset
            text = child.value[1:].strip()
            if prev is not None and prev.span.end_line == line:
                if prev.kind != "bad":
                    prev.line_comment = text
                prev = None
                continue
            item = _Item("comment", None, self._span(child), [])
            item.line_comment = text
            out.append(item)
            prev = None
        return out

    def notes(self, children):
        span = _merge(self._span(children[0]), self._span(children[-1]))
        texts = self._comments(children, 0)
        return self._done(_Item("notes", texts, span, texts))

    # tags
    def tag(self, children):
        tok = children[0]
        span = self._span(tok)
        self._bad_span = span
        m = _TAG_RE.match(tok.value)
        if m is None:
            self._fail("SJ105", span, tag_problem(tok.value))
            return None
        return _Tag(name=m.group(1), value=unescape_tag_value(m.group(2)), span=span,
                    comments=self._comments(children, 1))

    def tags(self, children):
        if self.bad:
            self.bad = False
            return _Item("bad", None, self._bad_span, [])
        span = _merge(children[0].span, children[-1].span)
        last = children[-1]
        return _Item("tags", children, span, last.comments, last.comments)

    # one-value lines
    def hand(self, children):
        kw = children[0]
        number, i = None, 1
        if len(children) > 1 and children[1].type == "VALUE":
            tok = children[1]
            i = 2
            number = _number(tok.value)
            if number is None:
                self._value_error(tok, f"`{tok.value}` is not a hand number: {USAGE['hand']}")
        end = children[i - 1]
        return self._done(_Item("hand", number, _merge(self._span(kw), self._span(end)),
                                self._comments(children, i)))

    def levels(self, children):
        kw = children[0]
        values = [t for t in children[1:] if t.type == "VALUE"]
        if values[0].value not in ("NS", "EW"):
            return self._player_levels(kw, values, children)
        if len(values) != 4:
            self._value_error(values[min(len(values) - 1, 4)],
                              f"a team's level line has two teams: {USAGE['levels']}")
            return self._done(_Item("levels", None, _merge(self._span(kw), self._span(values[-1])), []))
        t1, l1, t2, l2 = values
        teams = {}
        for team_tok, level_tok in ((t1, l1), (t2, l2)):
            team = team_tok.value
            if team not in ("NS", "EW") or team in teams:
                self._value_error(team_tok, f"`{team}` is not a team here: {USAGE['levels']}")
                continue
            try:
                teams[team] = parse_rank(level_tok.value)
            except ValueError:
                self._value_error(level_tok, f"`{level_tok.value}` is not a level: {USAGE['levels']}")
        span = _merge(self._span(kw), self._span(l2))
        if self.bad:
            return self._done(_Item("levels", None, span, []))
        node = _Levels(ns=teams["NS"], ew=teams["EW"], span=span, comments=self._comments(children, 5))
        return _Item("levels", node, span, node.comments)

    def _player_levels(self, kw, values, children):
        """``levels P1 2 P2 5 …`` (or ``levels N 2 W 3 S 2 E 2``): each player's level."""
        span = _merge(self._span(kw), self._span(values[-1]))
        levels: dict[str, int] = {}
        if len(values) % 2:
            self._value_error(values[-1], f"a seat without its level: {USAGE['player levels']}")
        for k in range(0, len(values) - 1, 2):
            seat_tok, level_tok = values[k], values[k + 1]
            if seat_tok.value not in SEATS or seat_tok.value in levels:
                self._value_error(seat_tok, f"`{seat_tok.value}` is not a seat here: {USAGE['player levels']}")
                continue
            try:
                levels[seat_tok.value] = parse_rank(level_tok.value)
            except ValueError:
                self._value_error(level_tok, f"`{level_tok.value}` is not a level: {USAGE['player levels']}")
        if self.bad:
            return self._done(_Item("levels", None, span, []))
        node = PlayerLevels(levels=levels, span=span, comments=self._comments(children, 1 + len(values)))
        return _Item("levels", node, span, node.comments)

    def friend(self, children):
        """``friend [ordinal] CARD [SEAT|none [@k]]``."""
        kw = children[0]
        values = [t for t in children[1:] if t.type == "VALUE"]
        span = _merge(self._span(kw), self._span(values[-1]))
        comments = self._comments(children, 1 + len(values))
        words = [t.value for t in values]
        ordinal = None
        i = 0
        if words and _ORDINAL_RE.match(words[0]):
            ordinal = int(_ORDINAL_RE.match(words[0]).group(1))
            i = 1
            if ordinal < 1:
                self._value_error(values[0], f"`{words[0]}` is not an ordinal: {USAGE['friend']}")
        if i >= len(words):
            self._fail("SJ101", span, f"the called card is missing: {USAGE['friend']}")
            return self._done(_Item("friend", None, span, []))
        cards = self._cards(values[i], before="friend")
        if not self.bad and (cards is None or len(cards) != 1):
            self._value_error(values[i], f"a friend is called by one card, not `{words[i]}`: {USAGE['friend']}")
        i += 1
        joined = at = None
        if i < len(words):
            if words[i] in SEATS or words[i] == "none":
                joined = words[i]
            else:
                self._value_error(values[i], f"`{words[i]}` is not a seat or `none`: {USAGE['friend']}")
            i += 1
        if i < len(words):
            at = _number(words[i][1:]) if words[i].startswith("@") else None
            if at is None or at < 1 or joined in (None, "none"):
                self._value_error(values[i], f"`{words[i]}` is not the trick of a reveal (`@7` after the "
                                             f"seat that joined): {USAGE['friend']}")
            i += 1
        if i < len(words):
            self._value_error(values[i], f"unexpected `{words[i]}`: {USAGE['friend']}")
        if self.bad:
            return self._done(_Item("friend", None, span, []))
        node = FriendCall(ordinal=ordinal, card=cards[0], joined=joined, at=at, span=span, comments=comments)
        return _Item("friend", node, span, node.comments)

    def _whole_friend(self, m: re.Match, span: Span) -> _Item | None:
        return None  # read token by token by the rule method

    def _seat_value(self, kw, tok, allow_unknown: bool):
        value = tok.value
        if value in SEATS or (allow_unknown and value == "?"):
            return value
        self._value_error(tok, f"`{value}` is not a seat: {USAGE[kw.value]}")
        return None

    def dealer(self, children):
        kw, tok = children[0], children[1]
        seat = self._seat_value(kw, tok, True)
        return self._done(_Item("dealer", seat, _merge(self._span(kw), self._span(tok)),
                                self._comments(children, 2)))

    def first(self, children):
        kw, tok = children[0], children[1]
        seat = self._seat_value(kw, tok, False)
        return self._done(_Item("first", seat, _merge(self._span(kw), self._span(tok)),
                                self._comments(children, 2)))

    def kitty(self, children):
        kw, tok = children[0], children[1]
        cards = self._cards(tok, before="kitty")
        return self._done(_Item("kitty", cards, _merge(self._span(kw), self._span(tok)),
                                self._comments(children, 2)))

    def trump(self, children):
        kw, tok = children[0], children[1]
        value = tok.value
        trump = _trump_value(value)
        if trump is None:
            self._value_error(tok, f"`{value}` is not a trump: {USAGE['trump']}")
        return self._done(_Item("trump", trump, _merge(self._span(kw), self._span(tok)),
                                self._comments(children, 2)))

    def points(self, children):
        kw, tok = children[0], children[1]
        value = tok.value
        number = _signed_number(value)
        if number is None:
            self._value_error(tok, f"`{value}` is not a number of points: {USAGE['points']}")
        return self._done(_Item("points", number, _merge(self._span(kw), self._span(tok)),
                                self._comments(children, 2)))

    def redeal(self, children):
        kw = children[0]
        span = self._span(kw)
        return self._done(_Item("redeal", span, span, self._comments(children, 1)))

    def declare_none(self, children):
        span = _merge(self._span(children[0]), self._span(children[1]))
        return self._done(_Item("declare none", span, span, self._comments(children, 2)))

    # events
    def declare(self, children):
        kw, seat_tok, cards_tok = children[0], children[1], children[2]
        seat = self._seat_value(kw, seat_tok, False)
        cards = self._cards(cards_tok, before=f"declare {seat_tok.value}")
        at, i, end = None, 3, cards_tok
        if len(children) > 3 and children[3].type == "AT":
            end = at_tok = children[3]
            i = 4
            at = _number(at_tok.value[1:])
            if at is None:
                self._value_error(at_tok, f"`{at_tok.value}` is not a draw count: after `@` comes "
                                          f"the number of cards the declarer had drawn, like `@7`")
        span = _merge(self._span(kw), self._span(end))
        if self.bad:
            return self._done(_Item("declare", None, span, []))
        node = _Declaration(seat=seat, cards=cards, at=at, span=span, comments=self._comments(children, i))
        return _Item("declare", node, span, node.comments)

    def bury(self, children):
        kw, tok = children[0], children[1]
        plays = self._plays(tok.value, 0, tok.line + self.offset, tok.column)
        span = _merge(self._span(kw), self._span(tok))
        if not self.bad and (len(plays) != 1 or plays[0].attempted is not None):
            self._fail("SJ101", span, f"{USAGE['bury']}; found more than one seat or a `->`")
        if self.bad:
            return self._done(_Item("bury", None, span, []))
        play = plays[0]
        node = _Bury(seat=play.seat, cards=play.cards, span=span, comments=self._comments(children, 2))
        return _Item("bury", node, span, node.comments)

    # tag and keyword lines read whole by the shortcut
    #
    # `_quick_items` gives these the match of a line read whole by its
    # `_WHOLE_LINES` regex: group 1 is the element (keyword to last value),
    # then one group a terminal, as in `_SHAPES`. Each builds the item of a
    # line whose values are good, as the rule method of the same name would
    # from the tokens; when the rule method would report something, it
    # returns None and the tokens go to the rule method.

    def _whole_tags(self, m: re.Match, span: Span) -> _Item | None:
        tm = _TAG_RE.match(m.group(2))
        if tm is None:
            return None
        tag = _Tag(name=tm.group(1), value=unescape_tag_value(tm.group(2)), span=span, comments=[])
        return _Item("tags", [tag], span, tag.comments, tag.comments)

    def _whole_hand(self, m: re.Match, span: Span) -> _Item | None:
        value = m.group(3)
        number = None if value is None else _number(value)
        if number is None and value is not None:
            return None
        return _Item("hand", number, span, [])

    def _whole_levels(self, m: re.Match, span: Span) -> _Item | None:
        if m.group(7) is not None:
            return None  # players' own levels: read by the rule method
        team1, level1, team2, level2 = m.group(3, 4, 5, 6)
        if not ((team1 == "NS" and team2 == "EW") or (team1 == "EW" and team2 == "NS")):
            return None
        try:
            teams = {team1: parse_rank(level1), team2: parse_rank(level2)}
        except ValueError:
            return None
        node = _Levels(ns=teams["NS"], ew=teams["EW"], span=span, comments=[])
        return _Item("levels", node, span, node.comments)

    def _whole_dealer(self, m: re.Match, span: Span) -> _Item | None:
        seat = m.group(3)
        return _Item("dealer", seat, span, []) if seat in SEATS or seat == "?" else None

    def _whole_first(self, m: re.Match, span: Span) -> _Item | None:
        seat = m.group(3)
        return _Item("first", seat, span, []) if seat in SEATS else None

    def _whole_kitty(self, m: re.Match, span: Span) -> _Item | None:
        try:
            return _Item("kitty", split_cards(m.group(3)), span, [])
        except CardError:
            return None

    def _whole_declare(self, m: re.Match, span: Span) -> _Item | None:
        seat, cards_text, at_text = m.group(3, 4, 5)
        at = None if at_text is None else _number(at_text[1:])
        if seat not in SEATS or (at is None and at_text is not None):
            return None
        try:
            cards = split_cards(cards_text)
        except CardError:
            return None
        node = _Declaration(seat=seat, cards=cards, at=at, span=span, comments=[])
        return _Item("declare", node, span, node.comments)

    def _whole_trump(self, m: re.Match, span: Span) -> _Item | None:
        trump = _trump_value(m.group(3))
        return None if trump is None else _Item("trump", trump, span, [])

    def _whole_bury(self, m: re.Match, span: Span) -> _Item | None:
        text = m.group(3)
        play = _PLAY_RE.match(text)  # one play, no `->`, as `bury` wants
        if play is None or play.end() != len(text) or play.group(3) is not None:
            return None
        try:
            cards = split_cards(play.group(2))
        except CardError:
            return None
        node = _Bury(seat=play.group(1), cards=cards, span=span, comments=[])
        return _Item("bury", node, span, node.comments)

    def _whole_points(self, m: re.Match, span: Span) -> _Item | None:
        number = _signed_number(m.group(3))
        return None if number is None else _Item("points", number, span, [])

    def _whole_redeal(self, m: re.Match, span: Span) -> _Item | None:
        return _Item("redeal", span, span, [])

    # plays: seat lines and tricks
    def _plays(self, text: str, start: int, line: int, column: int) -> list:
        """The plays written in ``text`` from index ``start``; ``text[0]`` is at
        ``line``:``column`` of the source."""
        plays = []
        append = plays.append
        cache = _LIST_CACHE
        for m in _PLAY_RE.finditer(text, start):
            seat, cards_text, attempt_text = m.groups()
            cards = cache.get(cards_text)
            if cards is not None and attempt_text is None:  # the usual case
                s, e = m.span()
                append(_new_play(seat, cards, None, _span_new(Span, (line, column + s, line, column + e))))
                continue
            try:
                cards = split_cards(cards_text)
                attempted = None
                if attempt_text is not None:
                    attempted, cards = cards, split_cards(attempt_text)
                elif len(cache) < 50_000:
                    cache[cards_text] = cards
            except CardError:
                head = text[m.start():m.start(2)]
                cards = self._cards_at(cards_text, line, column + m.start(2), head)
                attempted = None
                if attempt_text is not None:
                    attempted = cards
                    head = text[m.start():m.start(3)]
                    cards = self._cards_at(attempt_text, line, column + m.start(3), head)
            append(_new_play(seat, cards, attempted, Span(line, column + m.start(), line, column + m.end())))
        return plays

    def _play_line(self, text: str, line: int, column: int, more=()) -> _Item:
        """One seat line or trick line: ``text`` (no line end) starts at
        ``line``:``column``; ``more`` are the COMMENTARY / PLAYS tokens that
        follow it on its line."""
        if text[:1] in _DIGITS:  # `12.` (the plays are searched for after it)
            dot = text.index(".")
            number = int(text[:dot])
            plays = self._plays(text, dot + 1, line, column)
        else:
            number = None
            plays = self._plays(text, 0, line, column)
        end_line, end_column = line, column + len(text.rstrip())
        trick_comments: list[str] = []
        offset = self.offset
        for tok in more:
            if tok.type == "PLAYS":
                plays.extend(self._plays(tok.value, 0, tok.line + offset, tok.column))
                end_line, end_column = tok.end_line + offset, tok.end_column
            else:
                (plays[-1].comments if plays else trick_comments).append(_commentary_text(tok.value))
        return self._line_item(number, plays, _span_new(Span, (line, column, end_line, end_column)),
                               trick_comments)

    def _line_item(self, number: int | None, plays: list, span: Span, trick_comments: list[str]) -> _Item:
        """The item of a seat line (no number, one play) or a trick line."""
        if self.bad:
            return self._done(_Item("trick", None, span, []))
        if number is None and len(plays) == 1 and plays[0].attempted is None:
            play = plays[0]
            node = _new_seat_cards(play.seat, play.cards, play.span, play.comments)
            return _Item("seat", node, span, node.comments)
        node = _new_trick(number, plays, span, trick_comments)
        return _Item("trick", node, span, node.comments, plays[-1].comments if plays else trick_comments)

    def _matched_play_line(self, m: re.Match, line: int) -> _Item:
        """A seat or trick line matched whole by ``_terminals()["plays4"]``:
        what `_play_line` makes of its PLAY_LINES token (group 1), read from
        the match's groups. This runs for nearly every line of a record, so
        the nodes are built here directly (as `_line_item` would build them)."""
        groups = m.groups()  # group k is groups[k - 1]
        regs = m.regs  # (start, end) of each group, by group number
        start, end = regs[1]
        if not _DIRECT_MODELS:  # pragma: no cover - Play is built inline below
            return self._play_line(groups[0], line, start + 1)
        span = _span_new(Span, (line, start + 1, line, end + 1))
        if groups[1] is None and groups[4] is None and groups[5] is None:
            # a seat line: one play (groups 3 and 4), no number, no `->`
            # (not cached: a seat line's list is one deal's, it does not come back)
            cards = self._listed_cards(groups[3], cache=False)
            if cards is None:  # a bad card: the general way says what is wrong
                return self._play_line(groups[0], line, start + 1)
            play_span = _span_new(Span, (line, regs[3][0] + 1, line, regs[4][1] + 1))
            node = _new_seat_cards(groups[2], cards, play_span, [])
            return _Item("seat", node, span, node.comments)
        plays = []
        for k in (3, 6, 9, 12):  # the group numbers of the seats
            seat = groups[k - 1]
            if seat is None:
                break
            if groups[k + 1] is None:  # `S: cards`
                cards = _LIST_CACHE.get(groups[k]) or self._listed_cards(groups[k])
                attempted, play_end = None, regs[k + 1][1]
                if cards is None:  # a bad card: the general way says what is wrong
                    return self._play_line(groups[0], line, start + 1)
            else:  # `S: attempted -> cards`
                attempted = self._listed_cards(groups[k], cache=False)
                cards = self._listed_cards(groups[k + 1], cache=False)
                play_end = regs[k + 2][1]
                if cards is None or attempted is None:
                    return self._play_line(groups[0], line, start + 1)
            # `_new_play(seat, cards, attempted, span)` spelled out: this is
            # the reader's innermost loop (_DIRECT_MODELS vouches for it)
            play = _new_object(Play)
            _set_dict(play, {"span": _span_new(Span, (line, regs[k][0] + 1, line, play_end + 1)),
                             "comments": [], "line_comment": None,
                             "seat": seat, "cards": cards, "attempted": attempted})
            _set_fields_set(play, {"seat", "cards", "attempted", "span"})
            _set_extra(play, None)
            _set_private(play, None)
            plays.append(play)
        number = groups[1]
        node = _new_trick(None if number is None else int(number), plays, span, [])
        return _Item("trick", node, span, node.comments, plays[-1].comments)

    @staticmethod
    def _listed_cards(text: str, cache: bool = True) -> tuple[int, ...] | None:
        """The cards of a play's card list (kept in `_LIST_CACHE` if ``cache``),
        or None when a group is bad."""
        try:
            cards = split_cards(text)
        except CardError:
            return None
        if cache and len(_LIST_CACHE) < 50_000:
            _LIST_CACHE[text] = cards
        return cards

    def plays(self, children):
        first = children[0]
        line = first.line + self.offset
        if first.type == "TRICKNO":
            return self._play_line(first.value, line, first.column, children[1:])
        lines = first.value.split("\n")
        last = len(lines) - 1
        items = []
        column = first.column
        for k, text in enumerate(lines):
            if k:
                stripped = text.lstrip(" \t")
                column += len(text) - len(stripped)
                text = stripped
            items.append(self._play_line(text, line + k, column, children[1:] if k == last else ()))
            column = 1
        return items


# -- the parser (built once) ---------------------------------------------------------

_LOCK = threading.Lock()
PAUSE_GC = True
_BUILD = _Build()


#: Lark's exception classes, set when the parser is built (a parse error can
#: only come from a parser that exists)
_LARK_ERRORS: tuple[type[Exception], ...] = ()


def _make_parser(cython: bool) -> tuple[Lark, str]:
    global _LARK_ERRORS
    from lark import Lark
    from lark.exceptions import LarkError, UnexpectedInput
    _LARK_ERRORS = (LarkError, UnexpectedInput)
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    if cython:
        try:
            import lark_cython  # optional accelerator
            parser = Lark(grammar, parser="lalr", lexer="contextual", transformer=_BUILD,
                          maybe_placeholders=False, _plugins=lark_cython.plugins)
            return parser, "lark-cython"
        except Exception:
            pass
    parser = Lark(grammar, parser="lalr", lexer="contextual", transformer=_BUILD,
                  maybe_placeholders=False)
    return parser, "lark"


_PARSER: Lark | None = None
#: which Lark runs the grammar: "lark-cython" when importable (and not disabled
#: with SHENGJI_PLAIN_LARK=1), else "lark"; set at the first parse
BACKEND = ""


def _parser() -> Lark:
    global _PARSER, BACKEND
    if _PARSER is None:
        _PARSER, BACKEND = _make_parser(not os.environ.get("SHENGJI_PLAIN_LARK"))
    return _PARSER


def use_backend(name: str) -> str:
    """Switch to ``"lark"`` or ``"lark-cython"`` (for benchmarks and tests).

    Returns the backend actually in use (plain Lark when lark-cython is not
    installed).
    """
    global _PARSER, BACKEND
    with _LOCK:
        _PARSER, BACKEND = _make_parser(name == "lark-cython")
    return BACKEND


# -- the shortcut for simple chunks ----------------------------------------------------
#
# Most chunks hold nothing but well-formed one-line elements: tags, keyword
# lines, seat and trick lines, blank lines, `;` comments and `{ … }`
# commentaries that close on their line. For those, Lark's LALR machinery
# costs more than building the model (a few µs a token). The shortcut lexes
# such a chunk line by line with the grammar's own terminal regexes, tried in
# the order Lark's contextual lexer tries them, and hands the same tokens to
# the same `_Build` rule methods Lark would call. The usual lines are read
# whole by one regex each (`plays4`, `_whole_line`) and built straight from
# its groups (`_Build._matched_play_line`, `_Build._whole_*`); when a value
# there is bad, the line goes to the rule method after all. If any line of the
# chunk holds anything else (a commentary running over lines, a syntax error,
# …), the shortcut gives up before building anything and Lark reads the chunk
# as before. Only the rule methods report problems, on both paths, so a bad
# card or seat gets the same diagnostic and span either way.
#
# Why no line can be lexed differently by the two: the grammar is a sequence
# of line elements and only COMMENTARY (refused here when it does not close on
# its line) and PLAY_LINES cross a line end. A PLAY_LINES token that runs over
# several lines is split back into lines by `_Build.plays`, which gives the
# commentaries and plays after it to its last line; it continues into a line
# only through that line's own PLAY_LINES token, as read here, and only after
# a line that token's plays end.

#: use the shortcut (tests turn it off to compare with the Lark path)
QUICK_LINES = True


class _Tok(NamedTuple):
    """The parts of a (one-line) Lark token that `_Build` reads."""

    type: str
    value: str
    line: int
    column: int  # from 1, as Lark counts
    end_line: int
    end_column: int


def _tok(type_: str, value: str, line: int, start: int) -> _Tok:
    """The token ``value`` found at index ``start`` of line ``line``."""
    return _span_new(_Tok, (type_, value, line, start + 1, line, start + 1 + len(value)))


_BLANKS = re.compile(r"[ \t]*")
_LOWER_WORD = re.compile(r"[a-z]+")

#: keyword -> (rule, the terminals that follow it; "?" ends an optional one).
#: `declare none` is told apart first (NONE has priority over VALUE).
_SHAPES = {
    "hand": ("hand", ("VALUE?",)),
    # two teams, or up to eight players' own levels (finding friends)
    "levels": ("levels", ("VALUE", "VALUE", "VALUE", "VALUE") + ("VALUE?",) * 12),
    "dealer": ("dealer", ("VALUE",)),
    "first": ("first", ("VALUE",)),
    "kitty": ("kitty", ("CARDS",)),
    "declare": ("declare", ("VALUE", "CARDS", "AT?")),
    "trump": ("trump", ("VALUE",)),
    "bury": ("bury", ("PLAYS",)),
    "points": ("points", ("VALUE",)),
    "redeal": ("redeal", ()),
    "friend": ("friend", ("VALUE", "VALUE?", "VALUE?", "VALUE?")),
}

_TERMINALS: dict[str, re.Pattern] = {}
#: keyword, or "[" for a tag line -> (rule, the regex reading the line whole,
#: the terminals in its groups 2, 3, …): see `_whole_line`
_WHOLE_LINES: dict[str, tuple[str, re.Pattern, tuple[str, ...]]] = {}


def _terminals() -> dict[str, re.Pattern]:
    """The grammar's terminals, compiled (matched within one line), and
    ``plays4``: a whole seat or trick line of up to four plays."""
    if not _TERMINALS:
        for name, pattern in _terminal_patterns():
            _TERMINALS[name] = re.compile(pattern)
        # the same line with at most four plays, each play's parts in groups
        # (seat, cards, cards after `->`), to the end of the line: anchored at
        # the end, only the greedy reading Lark's lexer takes can match
        cards = _TERMINALS["CARDS"].pattern
        play = rf"([NWSE]|P[1-8]):[ \t]*+({cards})(?:[ \t]*+->[ \t]*+({cards}))?+"
        _TERMINALS["plays4"] = re.compile(
            rf"[ \t]*+((?:([0-9]+)\.[ \t]*+)?+{play}(?:[ \t]++{play}(?:[ \t]++{play}"
            rf"(?:[ \t]++{play})?+)?+)?+)[ \t]*+(;.*)?\Z")
        for keyword, (rule, wanted) in _SHAPES.items():
            names = (keyword.upper(), *wanted)
            # `declare none` is left to the token-by-token reading
            guard = rf"(?![ \t]*+(?>{_TERMINALS['NONE'].pattern}))" if keyword == "declare" else ""
            _WHOLE_LINES[keyword] = (rule, _whole_line(names, guard), tuple(n.rstrip("?") for n in names))
        _WHOLE_LINES["["] = ("tags", _whole_line(("TAG",)), ("TAG",))
    return _TERMINALS


def _terminal_patterns() -> tuple[tuple[str, str], ...]:
    """The grammar's terminals as (name, regex), in Lark's order: from the table
    in `_terminals.py` when it was made from this very grammar (the usual case:
    no Lark needed), else from the Lark parser."""
    from . import _terminals
    if _terminals.grammar_digest(GRAMMAR_PATH.read_bytes()) == _terminals.GRAMMAR_DIGEST:
        return _terminals.TERMINALS
    return _terminals.from_lark(_parser())


def _whole_line(names: tuple[str, ...], guard: str = "") -> re.Pattern:
    """A line holding the terminals ``names`` (the last may be optional:
    ``"AT?"``) and then nothing but blanks and a `;` comment: the element
    (first to last terminal) in group 1, the terminals in groups 2, 3, …, the
    comment in the last group. ``guard`` follows the first terminal.

    Each terminal is an atomic group ``(?>…)``: it takes what its own regex
    takes at that point and never gives any back, so the line is cut exactly
    as `_quick_lex` cuts it token by token (and as Lark's lexer does). A line
    this does not match (one with a commentary, or a syntax error) is read
    token by token."""
    parts = []
    for k, name in enumerate(names):
        terminal = _TERMINALS[name.rstrip("?")]
        assert not terminal.groups, "a terminal with groups would shift the group numbers"
        term = rf"((?>{terminal.pattern}))"
        if k:
            term = rf"[ \t]*+{term}"
        parts.append(rf"(?:{term})?+" if name.endswith("?") else term)
        if k == 0:
            parts.append(guard)
    return re.compile(rf"({''.join(parts)})[ \t]*+(;.*)?\Z")


def _quick_lex(lines: list[str]) -> list | None:
    """Each line of a simple chunk, lexed, or None when some line needs Lark.

    One entry a line: None for a blank line; for a seat or trick line read
    whole (the usual line), the ``plays4`` match; for a tag or keyword line
    read whole, ``(rule, match, terminals)`` (see `_whole_line`); else what
    :func:`_lex_line` makes of it."""
    plays4 = _terminals()["plays4"].match
    blanks = _BLANKS.match
    out = []
    append = out.append
    for number, line in enumerate(lines, 1):
        m = plays4(line)
        if m is not None:  # the usual line, whole
            append(m)
            continue
        pos = blanks(line).end()
        if pos == len(line):
            append(None)
            continue
        head = line[pos]
        if head == "[":
            shape = _WHOLE_LINES["["]
        elif head in "NWSEP0123456789;{":
            shape = None
        else:
            word = _LOWER_WORD.match(line, pos)
            shape = _WHOLE_LINES.get(word.group()) if word else None
            if shape is None:
                return None
        if shape is not None and (m := shape[1].match(line, pos)) is not None:
            append((shape[0], m, shape[2]))  # the usual tag or keyword line, whole
            continue
        entry = _lex_line(line, pos, number)
        if entry is None:
            return None
        append(entry)
    return out


def _lex_line(line: str, pos: int, number: int) -> tuple | None:
    """Line ``number`` (from 1), from its first non-blank character at index
    ``pos``, as ``(rule, tokens, comment)`` read token by token, or None when
    it needs Lark. ``rule`` is a `_Build` rule, or None for a comment line;
    ``comment`` is the ``;`` comment's token or None."""
    terms = _terminals()
    commentary, blanks = terms["COMMENTARY"].match, _BLANKS.match

    def commentaries(pos: int, toks: list) -> int:
        """Add the COMMENTARY tokens from ``pos`` on; where they end."""
        while (m := commentary(line, blanks(line, pos).end())) is not None:
            toks.append(_tok("COMMENTARY", m.group(), number, m.start()))
            pos = m.end()
        return pos

    head = line[pos]
    if head in "NWSEP0123456789":
        # PLAY_LINES, or a bare TRICKNO; then commentaries and plays
        kind, m = "PLAY_LINES", terms["PLAY_LINES"].match(line, pos)
        if m is None:
            kind, m = "TRICKNO", terms["TRICKNO"].match(line, pos)
            if m is None:
                return None
        toks = [_tok(kind, m.group(), number, pos)]
        pos = m.end()
        while True:
            pos = commentaries(pos, toks)
            m = terms["PLAYS"].match(line, blanks(line, pos).end())
            if m is None:
                break
            toks.append(_tok("PLAYS", m.group(), number, m.start()))
            pos = m.end()
        rule = "plays"
    elif head == ";":
        return None, None, _tok("LINE_COMMENT", line[pos:], number, pos)
    elif head == "{":
        toks = []
        pos = commentaries(pos, toks)
        rule = "notes"
    elif head == "[":
        toks = []  # a tag: its TAG and COMMENTARY tokens
        while (m := terms["TAG"].match(line, pos)) is not None:
            tag = [_tok("TAG", m.group(), number, pos)]
            pos = blanks(line, commentaries(m.end(), tag)).end()
            toks.append(tag)
        rule = "tags"
    else:
        word = _LOWER_WORD.match(line, pos)
        shape = _SHAPES.get(word.group()) if word else None
        if shape is None or terms[word.group().upper()].match(line, pos) is None:
            return None
        rule, wanted = shape
        toks = [_tok(word.group().upper(), word.group(), number, pos)]
        pos = blanks(line, word.end()).end()
        if rule == "declare" and (m := terms["NONE"].match(line, pos)) is not None:
            rule, wanted = "declare_none", ()
            toks.append(_tok("NONE", m.group(), number, pos))
            pos = m.end()
        for name in wanted:
            optional = name.endswith("?")
            name = name.rstrip("?")
            pos = blanks(line, pos).end()
            m = terms[name].match(line, pos)
            if m is None:
                if optional:
                    break
                return None
            toks.append(_tok(name, m.group(), number, pos))
            pos = m.end()
        pos = commentaries(pos, toks)
    # what may end a line: blanks, then nothing or a `;` comment
    pos = blanks(line, pos).end()
    comment = None
    if pos < len(line):
        if line[pos] != ";":
            return None
        comment = _tok("LINE_COMMENT", line[pos:], number, pos)
    return rule, toks, comment


def _quick_items(lexed: list, offset: int) -> list[_Item]:
    """Build the items of a chunk lexed by :func:`_quick_lex`, as Lark would
    (and as `_Build.start` orders them: a line's ``;`` comment goes to its
    element, or is an item of its own on a line with no element)."""
    build = _BUILD
    build.offset = offset
    build.bad = False
    play_line = build._matched_play_line
    items = []
    for line, entry in enumerate(lexed, offset + 1):
        if entry is None:  # a blank line
            continue
        if type(entry) is re.Match:  # a seat or trick line
            item = play_line(entry, line)
            comment = entry.group(15)
        elif type(entry[1]) is re.Match:  # a tag or keyword line read whole
            rule, m, names = entry
            comment = m.group(len(names) + 2)
            span = _span_new(Span, (line, m.start(1) + 1, line, m.end(1) + 1))
            item = getattr(build, "_whole_" + rule)(m, span)
            if item is None:  # a value to report: the rule method reads the tokens
                toks = [_tok(name, m.group(k), line - offset, m.start(k))
                        for k, name in enumerate(names, 2) if m.group(k) is not None]
                item = build.tags([build.tag(toks)]) if rule == "tags" else getattr(build, rule)(toks)
        else:  # a line read token by token
            rule, toks, comment_tok = entry
            if rule is None:  # a comment line
                item = _Item("comment", None, build._span(comment_tok), [])
                item.line_comment = comment_tok.value[1:].strip()
                items.append(item)
                continue
            if rule == "tags":
                item = build.tags([build.tag(tag) for tag in toks])
            else:
                item = getattr(build, rule)(toks)
                if type(item) is list:  # `plays` gives a list for PLAY_LINES: here one line
                    (item,) = item
            comment = None if comment_tok is None else comment_tok.value
        if item.kind == "bad":  # dropped, with its comment
            continue
        if comment is not None:
            item.line_comment = comment[1:].strip()
        items.append(item)
    return items


# -- splitting into records and logical lines -------------------------------------------

_OUTSIDE = re.compile(r'[";{]')
_BRACE = re.compile(r"[{}]")
_QUOTED_REST = re.compile(r'(?:[^"\\]|\\.)*"')


def _open_at_end(line: str, inside: bool) -> bool:
    """Is a ``{`` commentary still open at the end of ``line``?"""
    i = 0
    while True:
        if inside:
            m = _BRACE.search(line, i)
            if m is None:
                return True
            inside = m.group() == "{"
            i = m.end()
        else:
            m = _OUTSIDE.search(line, i)
            if m is None:
                return False
            ch = m.group()
            if ch == ";":
                return False
            if ch == '"':
                q = _QUOTED_REST.match(line, m.end())
                if q is None:
                    return False
                i = q.end()
            else:
                inside = True
                i = m.end()


#: full-width letters and digits (``Ａ``, ``Ｈ３`` typed with a Chinese IME) are
#: read as their ASCII forms, on every path of the SJN reader (:func:`parse_chunk`
#: translates a chunk's lines before the shortcut or Lark sees them); columns do
#: not move
FULLWIDTH = {c: c - 0xFEE0 for c in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B),
                                     *range(0xFF41, 0xFF5B))}

#: the reader's line breaks: ``\n``, ``\r\n`` and a lone ``\r``, nothing else (not
#: U+2028, U+0085, a form feed or a vertical tab, which ``str.splitlines`` breaks on)
LINE_BREAKS = ("\r\n", "\r", "\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as the reader cuts them, without their line ends
    (a final line end does not start another line). Every command that shows
    line numbers cuts text with this, never with ``str.splitlines``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _ascii(line: str, _table=FULLWIDTH) -> str:
    return line if line.isascii() else line.translate(_table)


def _lines_of(source, held) -> Iterator[str]:
    """The lines of a str, bytes, file or iterable of lines, without line ends
    (``\n``, ``\r\n`` or ``\r``: :func:`split_lines`; an iterable's pieces may hold
    several lines).

    An error raised while a file or an iterable is read is raised again as
    :class:`_InputFailed`, carrying ``held()`` (the chunk held then)."""
    if isinstance(source, (str, bytes)):
        text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        start = 0
        n = len(text)
        while start < n:
            end = text.find("\n", start)
            if end < 0:
                yield text[start:]
                return
            yield text[start:end]
            start = end + 1
        return
    try:
        pieces = iter(source)
    except Exception as exc:
        raise _InputFailed(exc, held()) from exc
    while True:
        try:  # what the input gives may fail anywhere in here
            piece = next(pieces)
            if isinstance(piece, bytes):
                piece = piece.decode("utf-8", "replace")
            if piece.endswith("\n"):
                piece = piece[:-1]
            if piece.endswith("\r"):
                piece = piece[:-1]
            several = "\n" in piece or "\r" in piece
        except StopIteration:
            return
        except Exception as exc:
            raise _InputFailed(exc, held()) from exc
        if several:
            yield from piece.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        else:
            yield piece


class _InputFailed(Exception):
    """The input raised while being read; ``pending`` is the chunk held then."""

    def __init__(self, error: BaseException, pending):
        super().__init__(str(error))
        self.error = error
        self.pending = pending


def split_records(source, start_line: int = 1) -> Iterator[tuple[int, list[str]]]:
    """Cut the input into record chunks: ``(first line number, lines)``.

    A line whose first non-blank character is ``[`` starts a new record when
    the current one already has hand content (any line that is not a tag,
    comment, commentary or blank). Comment lines separated from the hand
    above by a blank line go with the record that follows. A commentary
    cannot hold a line starting with ``[``: such a line ends an open
    commentary (reported unterminated), which bounds the memory a chunk takes.
    """
    try:
        yield from _split_records(source, start_line)
    except _InputFailed as failed:
        first, buf = failed.pending
        if any(s.strip() for s in buf):
            yield first, list(buf)
        raise failed.error from None


def _split_records(source, start_line: int) -> Iterator[tuple[int, list[str]]]:
    buf: list[str] = []
    first = start_line
    has_content = False
    inside = False
    cut: int | None = None
    for number, line in enumerate(_lines_of(source, lambda: (first, buf))):
        if number == 0 and line.startswith("\ufeff"):
            line = line[1:]
        stripped = line.lstrip()
        head = stripped[:1]
        if inside and head != "[":
            buf.append(line)
            inside = _open_at_end(line, True)
            continue
        inside = False  # a line starting with `[` always ends a commentary
        if not head:
            if has_content and cut is None:
                cut = len(buf)
        elif head == "[":
            if has_content:
                if cut is None:
                    cut = len(buf)
                yield first, buf[:cut]
                buf = buf[cut:]
                first += cut
                has_content = False
        elif head not in ";{":
            has_content = True
            cut = None
        buf.append(line)
        if "{" in line:
            inside = _open_at_end(line, False)
        if number % 4096 == 4095 and not has_content and not any(s.strip() for s in buf):
            first += len(buf)  # do not hold long runs of blank lines
            buf = []
    if any(s.strip() for s in buf):
        yield first, buf


class _Logical:
    """A logical line of a chunk: lines ``first..last`` (0-based in the chunk),
    its ``text``, and an unterminated commentary found on it, if any."""

    __slots__ = ("first", "text", "open_line", "open_column", "open_text")

    def __init__(self, first: int, text: str):
        self.first = first
        self.text = text
        self.open_line = -1
        self.open_column = 0
        self.open_text = ""


def _find_close(lines: list[str], j: int, i: int) -> tuple[int, int] | None:
    """From line ``j`` column ``i`` (inside a commentary), where is the ``}``?

    ``(line, index after it)``, or None when a ``{``, a line starting with
    ``[`` or the end of the chunk comes first: the commentary is unterminated.
    """
    while j < len(lines):
        m = _BRACE.search(lines[j], i)
        if m is not None:
            return (j, m.end()) if m.group() == "}" else None
        j, i = j + 1, 0
        if j < len(lines) and lines[j].lstrip().startswith("["):
            return None
    return None


def logical_lines(lines: list[str]) -> Iterator[_Logical]:
    """Group a chunk's lines into logical lines (multi-line commentaries)."""
    j = 0
    n = len(lines)
    while j < n:
        first = j
        i = 0
        while True:
            line = lines[j]
            m = _OUTSIDE.search(line, i)
            if m is None or m.group() == ";":
                item = _Logical(first, "\n".join(lines[first:j + 1]))
                break
            if m.group() == '"':
                q = _QUOTED_REST.match(line, m.end())
                if q is None:
                    item = _Logical(first, "\n".join(lines[first:j + 1]))
                    break
                i = q.end()
                continue
            close = _find_close(lines, j, m.end())
            if close is not None:
                j, i = close
                continue
            # unterminated: parse what is before the `{`, keep the text after it
            item = _Logical(first, "\n".join(lines[first:j] + [line[:m.start()]]))
            item.open_line = j
            item.open_column = m.start()
            rest = line[m.end():]
            item.open_text = _BRACE.split(rest, 1)[0].strip()
            break
        yield item
        j += 1


# -- explaining syntax errors -----------------------------------------------------------

_SEAT_NO_COLON = re.compile(r"([NWSE]|P[1-8])(?=[ \t]|$)")
_SEAT_COLON = re.compile(r"(?:[NWSE]|P[1-8]):")
_BAD_TRICKNO = re.compile(r"[^\s.:;{}\[\]]+\.(?=\s|$)")
_LAST_PLAY = re.compile(r".*((?:[NWSE]|P[1-8]):.*)$")


def _describe(before: str) -> str:
    """The text before an error, for a message: from the last play on, and short."""
    m = _LAST_PLAY.match(before)
    text = m.group(1) if m else before
    return text if len(text) <= 40 else "…" + text[-39:]


def _missing_colon(rest: str, line: int, col: int, diag) -> Diagnostic:
    seat = rest[0]
    nxt = rest[1:].split()
    example = f"{seat}: {nxt[0]}" if nxt and nxt[0][0] not in ";{" else f"{seat}: …"
    return diag("SJ101", f"a seat that introduces cards is followed by a colon: write `{example}`",
                Span(line, col + 1, line, col + 2))


def _explain_line_start(rest: str, word: str, line: int, col: int, diag) -> Diagnostic:
    """The line cannot start with ``rest``."""
    if _BAD_TRICKNO.match(rest):
        return diag("SJ106", f"`{word}` is not a trick number: write the number and a dot, like `3.`")
    if _SEAT_COLON.match(rest):
        return diag("SJ101", f"expected cards after `{rest[:2]}`")
    if _SEAT_NO_COLON.match(rest):
        return _missing_colon(rest, line, col, diag)
    name = re.match(r"[^\W\d_][\w.]*", word)
    if name:
        w = name.group()
        wspan = Span(line, col + 1, line, col + 1 + len(w))
        if w.lower() in KEYWORDS:
            return diag("SJ104", f"keywords are written in lowercase: `{w.lower()}`", wspan)
        close = difflib.get_close_matches(w.lower(), KEYWORDS, n=1, cutoff=0.6)
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        return diag("SJ104", f"`{w}` is not an SJN keyword{hint}; a line starts with a keyword, "
                             f"a tag `[…]`, a trick number like `1.` or a seat like `S:`", wspan)
    return diag("SJ101", f"unexpected `{word}` at the start of a line; a line starts with a keyword, "
                         f"a tag `[…]`, a trick number like `1.` or a seat like `S:`")


def explain(text: str, exc: Exception, line_offset: int) -> Diagnostic:
    """A diagnostic for a Lark error in ``text`` (one logical line + "\\n")."""
    pos = getattr(exc, "pos_in_stream", None)
    token = getattr(exc, "token", None)
    if token is not None and getattr(token, "start_pos", None) is not None:
        pos = token.start_pos
    if pos is None:
        pos = len(text.rstrip("\n"))
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    if line_end < 0:
        line_end = len(text)
    line_text = text[line_start:line_end]
    line = text.count("\n", 0, pos) + 1 + line_offset
    col = pos - line_start
    before = line_text[:col].rstrip()
    rest = line_text[col:]
    word_m = _WORD_RE.match(rest)
    word = word_m.group() if word_m else ""
    span = Span(line, col + 1, line, col + 1 + max(len(word), 1))
    stripped = text.lstrip()
    head = stripped.split(None, 1)[0] if stripped else ""
    keyword = head if head in KEYWORDS else None

    def diag(code: str, message: str, s: Span = span) -> Diagnostic:
        return Diagnostic.at(code, s, message)

    if rest.startswith("["):
        return diag("SJ105", tag_problem(rest), Span(line, col + 1, line, col + 1 + len(rest.rstrip())))
    if rest.startswith("}"):
        return diag("SJ101", "`}` closes no commentary: its `{` is missing")
    if rest.startswith("->") or before.endswith("->"):
        after = rest[2:].strip() if rest.startswith("->") else rest.strip()
        if not after or _SEAT_COLON.match(after) or after[0] in ";{":
            return diag("SJ101", "expected the cards actually played after `->` "
                                 "(a failed throw is written `S: CAKK -> CKK`)")
        return diag("SJ101", "`->` goes between the attempted and the played cards of "
                             "one play: `S: CAKK -> CKK`")
    if not word:
        if keyword:
            return diag("SJ101", f"the `{keyword}` line ends too early: {USAGE[keyword]}")
        if before.endswith(":"):
            return diag("SJ101", f"expected cards after `{_describe(before)}`")
        return diag("SJ101", f"the line ends too early after `{_describe(before)}`")
    if not before:
        return _explain_line_start(rest, word, line, col, diag)
    if keyword is None and re.fullmatch(r"[0-9]+\.", before):
        # right after a trick number: a play must follow
        if _SEAT_COLON.match(rest):
            return diag("SJ101", f"expected cards after `{rest[:2]}`")
        if _SEAT_NO_COLON.match(rest):
            return _missing_colon(rest, line, col, diag)
        return diag("SJ101", f"expected a play like `S: HA` after `{before}`, found `{word}`")
    if keyword:
        return diag("SJ101", f"unexpected `{word}` after `{_describe(before)}`: {USAGE[keyword]}")
    if head[:1] in SEATS or head[:1].isdigit():
        if _SEAT_NO_COLON.match(rest):
            return diag("SJ101", f"expected a card or a seat like `{rest[0]}:` after "
                                 f"`{_describe(before)}`; a seat that introduces cards is "
                                 f"followed by a colon", Span(line, col + 1, line, col + 2))
        if _SEAT_COLON.match(rest):
            return diag("SJ101", f"expected cards after `{rest[:2]}`")
        return diag("SJ101", f"expected a card or a seat like `W:` after `{_describe(before)}`, "
                             f"found `{word}`")
    return diag("SJ101", f"unexpected `{word}` after `{_describe(before)}`")


# -- parsing a chunk ---------------------------------------------------------------------

def _run(parser: Lark, text: str, offset: int) -> list:
    build = _BUILD
    build.offset = offset
    build.bad = False
    return parser.parse(text)


def parse_chunk(lines: list[str], first_line: int = 1) -> tuple[list[Record], list[Diagnostic]]:
    """Parse one record chunk (lines without line ends) whose first line has
    number ``first_line``. Never raises."""
    gc_was_enabled = gc.isenabled()
    try:
        # The reader allocates many small acyclic objects; pausing the cyclic
        # GC while one chunk is built avoids scanning the caller's heap over
        # and over (about 40% of the time when many records are kept).
        if PAUSE_GC:
            gc.disable()
        if not all(map(str.isascii, lines)):  # full-width letters and digits read as ASCII
            lines = [_ascii(line) for line in lines]
        with _LOCK:
            items, diags = _parse_items(lines, first_line)
        if diags:
            items = _lost_tricks(items, diags, lines, first_line)
            diags = _blame_controls(diags, lines, first_line)
        records, more = _assemble(items)
        diags.extend(more)
    except MemoryError:
        raise
    except Exception as exc:  # the API boundary: report, never raise
        diag = Diagnostic.at("SJ901", Span(first_line, 1, first_line, 1),
                             f"internal error while reading this record ({type(exc).__name__}: {exc}); "
                             f"the record is skipped; please report this bug with the record")
        return [], [diag]
    finally:
        if gc_was_enabled:
            gc.enable()
    diags.sort(key=Diagnostic.sort_key)
    return records, diags


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    """``text`` with control characters shown as ``\\x00`` (for messages)."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _blame_controls(diags: list[Diagnostic], lines: list[str], first_line: int) -> list[Diagnostic]:
    """A diagnostic on text that holds a control character (a NUL, a form feed, …):
    put it on that character, say so, and never echo it raw."""
    out = []
    for d in diags:
        k = d.line - first_line
        line = lines[k] if 0 <= k < len(lines) else ""
        start = max(d.column - 1, 0)
        end = d.end_column - 1 if d.end_line == d.line and d.end_column > d.column else len(line)
        m = _CONTROL.search(line, start, max(end, start + 1)) if line else None
        if m is None:
            m = _CONTROL.search(line) if line and d.code in ("SJ101", "SJ104") else None
        if m is not None:
            col = m.start() + 1
            d = Diagnostic(d.code, f"a control character (U+{ord(m.group()):04X}) is not SJN text: "
                                   f"{escape_controls(d.message)}",
                           d.line, col, d.line, col + 1, d.severity, d.hand, d.trick)
        elif _CONTROL.search(d.message):
            d = Diagnostic(d.code, escape_controls(d.message), d.line, d.column, d.end_line, d.end_column,
                           d.severity, d.hand, d.trick)
        out.append(d)
    return out


_TRICK_START = re.compile(r"[ \t]*(\d{1,6})[ \t]*\.")


def _lost_tricks(items: list[_Item], diags: list[Diagnostic], lines: list[str], first_line: int) -> list[_Item]:
    """A trick line that could not be read still holds its place: an empty trick
    with the written number (the engine then keeps the written numbering and
    checks nothing that depends on the lost plays)."""
    lost: dict[int, _Item] = {}
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
    out: list[_Item] = []
    pending = sorted(lost.items())
    for it in items:
        while pending and pending[0][0] < it.span.line:
            out.append(pending.pop(0)[1])
        out.append(it)
    out.extend(item for _, item in pending)
    return out


def _parse_items(lines: list[str], first_line: int) -> tuple[list[_Item], list[Diagnostic]]:
    build = _BUILD
    build.diags = diags = []
    if QUICK_LINES:
        lexed = _quick_lex(lines)
        if lexed is not None:
            return _quick_items(lexed, first_line - 1), diags
    parser = _parser()
    try:
        return _run(parser, "\n".join(lines) + "\n", first_line - 1), diags
    except _LARK_ERRORS:
        pass
    # recovery: one logical line at a time
    build.diags = diags = []
    items = []
    for logical in logical_lines(lines):
        offset = first_line + logical.first - 1
        if logical.open_line >= 0:
            line_no = first_line + logical.open_line
            diags.append(Diagnostic.at(
                "SJ103", Span(line_no, logical.open_column + 1, line_no, logical.open_column + 2),
                "`{` opens a commentary that is never closed (its `}` must come before any "
                "other `{` and before a line starting with `[`); it is taken to end with its line"))
        if not logical.text.strip():
            if logical.open_text:  # a lone unterminated commentary line
                line_no = first_line + logical.open_line
                col = logical.open_column + 1
                items.append(_Item("notes", [logical.open_text],
                                   Span(line_no, col, line_no, len(lines[logical.open_line]) + 1),
                                   []))
            continue
        text = logical.text + "\n"
        try:
            got = _run(parser, text, offset)
        except _LARK_ERRORS as exc:
            diags.append(explain(text, exc, offset))
            continue
        for it in got:
            if logical.open_text and it.kind != "comment":
                it.tail.append(logical.open_text)
            items.append(it)
    return items, diags


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


def _assemble(items: list[_Item]) -> tuple[list[Record], list[Diagnostic]]:
    """Build records from the items of one chunk (normally one record).

    Model fields are written straight into the instance dicts: the values are
    already typed, and pydantic's ``__setattr__`` would only cost time.
    """
    records: list[Record] = []
    diags: list[Diagnostic] = []
    rec = hand = None
    rec_start = rec_end = hand_start = hand_end = NO_SPAN
    target = None       # receives `;` continuation lines and own-line commentary
    seats_seen: set[str] = set()

    def close_hand():
        if hand is not None:
            hand.__dict__["span"] = _merge(hand_start, hand_end)

    def close_record():
        close_hand()
        if rec is not None:
            rec.__dict__["span"] = _merge(rec_start, rec_end)

    for item in items:
        kind = item.kind
        span = item.span
        if rec is None or (kind == "tags" and hand is not None):
            close_record()
            rec = _Record()
            records.append(rec)
            hand = target = None
            rec_start = span
        rec_end = span
        if kind == "comment" or kind == "notes":
            if kind == "notes":
                if hand is None:
                    rec.header_comments.extend(item.value)
                else:
                    target.comments.extend(item.value)
            if item.line_comment is not None:
                owner = rec if target is None else target
                owner.line_comment = _join_comment(owner.line_comment, item.line_comment)
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
            close_hand()
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
                diags.append(Diagnostic.at("SJ108", span, f"a second `{seat}:` line with dealt cards "
                                                          f"in this hand; the first one is kept "
                                                          f"(a trick needs a number, like `5. {seat}: …`)"))
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
            node.__dict__["line_comment"] = item.line_comment
        target = node
    close_record()
    return records, diags


class _LazyNote:
    """Stands for a hand line's :class:`Note` (in ``hand.line_notes[key]``),
    built and stored only when the line has a comment."""

    __slots__ = ("hand", "key", "span", "_comments", "_line_comment", "note")

    def __init__(self, hand, key: str, span: Span, comments: list[str], line_comment: str | None):
        self.hand = hand
        self.key = key
        self.span = span
        self._comments = comments
        self._line_comment = line_comment
        self.note = None
        if comments or line_comment is not None:
            self._stored()

    def _stored(self):
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


# -- reading a whole input ---------------------------------------------------------------------

def read_records(source, start_line: int = 1) -> Iterator[tuple[Record, list[Diagnostic]]]:
    """Stream ``(record, diagnostics)`` from any input; never raises.

    A record is a tag section followed by hands. What the reader finds with no
    hand (tags or comments whose hand lines were all bad, or a chunk of
    errors only) is not a record of its own: it is folded into the record
    that follows (its tags and comments first), as reading the written text
    again would do. Only at the very end is a hand-less record yielded alone.
    """
    chunks = split_records(source, start_line)
    line = start_line
    pending: tuple[Record, list[Diagnostic]] | None = None
    while True:
        try:
            first, lines = next(chunks)
        except StopIteration:
            break
        except Exception as exc:  # reading the input itself failed
            diag = Diagnostic.at("SJ101", Span(line, 1, line, 1),
                                 f"the input could not be read past this line ({type(exc).__name__}: {exc})")
            if pending is not None:
                pending[1].append(diag)
            else:
                pending = (_Record(span=Span(line, 1, line, 1)), [diag])
            break
        line = first + len(lines)
        records, diags = parse_chunk(lines, first)
        if not records:
            records = [_Record(span=Span(first, 1, first, 1))]
        if len(records) == 1:
            parts = [(records[0], diags)]
        else:  # several records in one chunk: hand each its own diagnostics
            starts = [r.span.line for r in records]
            parts = []
            for k, record in enumerate(records):
                lo = starts[k] if k else 0
                hi = starts[k + 1] if k + 1 < len(records) else None
                parts.append((record, [d for d in diags if d.line >= lo and (hi is None or d.line < hi)]))
        for record, found in parts:
            if pending is not None:
                record, found = _fold(pending, (record, found))
                pending = None
            if record.hands:
                yield record, found
            else:
                pending = (record, found)
    if pending is not None:
        yield pending


def _fold(before: tuple[Record, list[Diagnostic]], after: tuple[Record, list[Diagnostic]]):
    """Put a hand-less record in front of the record that follows it."""
    head, head_diags = before
    rec, diags = after
    merged = rec.model_copy(update={
        "tags": head.tags + rec.tags,
        "header_comments": head.header_comments + rec.header_comments,
        "line_comment": (rec.line_comment if head.line_comment is None else
                         _join_comment(head.line_comment, rec.line_comment)
                         if rec.line_comment is not None else head.line_comment),
        "span": _merge(head.span, rec.span) if head.span.line else rec.span,
    })
    return merged, head_diags + diags
