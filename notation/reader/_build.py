"""The tree builder: grammar rules to line items, inlined into Lark's LALR
parser and called by the shortcut."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from primitives.cards import parse_rank
from primitives.diagnostics import NO_SPAN, Diagnostic, Span

from .._records import merge_spans
from ..model import Cards, FriendCall, Play, PlayerLevels, Tag
from ._cards import _LIST_CACHE, CardError, split_cards
from ._common import (
    _DIGITS,
    _ORDINAL_RE,
    _TAG_RE,
    _WORD_RE,
    SEATS,
    USAGE,
    TokenLike,
    _commentary_text,
    _Item,
    _number,
    _signed_number,
    _span_new,
    _trump_value,
    tag_problem,
    unescape_tag_value,
)
from ._grammar import _terminals
from ._models import _Bury, _Declaration, _Levels, _new_play, _new_seat_cards, _new_trick, _Tag
from ._whole import _WholeLines

# -- the tree builder, inlined into the LALR parser --------------------------------

class _Build(_WholeLines):
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
    def _span(self, tok: TokenLike) -> Span:
        off = self.offset
        return Span(tok.line + off, tok.column, tok.end_line + off, tok.end_column)

    def _fail(self, code: str, span: Span, message: str) -> None:
        self.diags.append(Diagnostic.at(code, span, message))
        self.bad = True

    def _value_error(self, tok: TokenLike, message: str) -> None:
        self._fail("SJ106", self._span(tok), message)

    def _cards(self, tok: TokenLike, before: str = "") -> Cards:
        """Cards of a CARDS token."""
        return self._cards_at(tok.value, tok.line + self.offset, tok.column, before)

    def _cards_at(self, text: str, line: int, column: int, before: str = "") -> Cards:
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

    def _comments(self, children: Sequence[Any], start: int) -> list[str]:
        return [_commentary_text(t.value) for t in children[start:]]

    # lines
    def _done(self, item: _Item) -> _Item:
        """Every element rule ends here: a line with a problem becomes a
        ``bad`` item, dropped by :meth:`start` (with its ``;`` comment)."""
        if self.bad:
            self.bad = False
            return _Item("bad", None, item.span, [])
        return item

    def start(self, children: Sequence[Any]) -> list[_Item]:
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

    def notes(self, children: Sequence[Any]) -> _Item:
        span = merge_spans(self._span(children[0]), self._span(children[-1]))
        texts = self._comments(children, 0)
        return self._done(_Item("notes", texts, span, texts))

    # tags
    def tag(self, children: Sequence[Any]) -> Tag | None:
        tok = children[0]
        span = self._span(tok)
        self._bad_span = span
        m = _TAG_RE.match(tok.value)
        if m is None:
            self._fail("SJ105", span, tag_problem(tok.value))
            return None
        return _Tag(name=m.group(1), value=unescape_tag_value(m.group(2)), span=span,
                    comments=self._comments(children, 1))

    def tags(self, children: Sequence[Any]) -> _Item:
        if self.bad:
            self.bad = False
            return _Item("bad", None, self._bad_span, [])
        span = merge_spans(children[0].span, children[-1].span)
        last = children[-1]
        return _Item("tags", children, span, last.comments, last.comments)

    # one-value lines
    def hand(self, children: Sequence[Any]) -> _Item:
        kw = children[0]
        number, i = None, 1
        if len(children) > 1 and children[1].type == "VALUE":
            tok = children[1]
            i = 2
            number = _number(tok.value)
            if number is None:
                self._value_error(tok, f"`{tok.value}` is not a hand number: {USAGE['hand']}")
        end = children[i - 1]
        return self._done(_Item("hand", number, merge_spans(self._span(kw), self._span(end)),
                                self._comments(children, i)))

    def levels(self, children: Sequence[Any]) -> _Item:
        kw = children[0]
        values = [t for t in children[1:] if t.type == "VALUE"]
        if values[0].value not in ("NS", "EW"):
            return self._player_levels(kw, values, children)
        if len(values) != 4:
            self._value_error(values[min(len(values) - 1, 4)],
                              f"a team's level line has two teams: {USAGE['levels']}")
            return self._done(_Item("levels", None, merge_spans(self._span(kw), self._span(values[-1])), []))
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
        span = merge_spans(self._span(kw), self._span(l2))
        if self.bad:
            return self._done(_Item("levels", None, span, []))
        node = _Levels(ns=teams["NS"], ew=teams["EW"], span=span, comments=self._comments(children, 5))
        return _Item("levels", node, span, node.comments)

    def _player_levels(self, kw: TokenLike, values: list[TokenLike], children: Sequence[Any]) -> _Item:
        """``levels P1 2 P2 5 …`` (or ``levels N 2 W 3 S 2 E 2``): each player's level."""
        span = merge_spans(self._span(kw), self._span(values[-1]))
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

    def friend(self, children: Sequence[Any]) -> _Item:
        """``friend [ordinal] CARD [SEAT|none [@k]]``."""
        kw = children[0]
        values = [t for t in children[1:] if t.type == "VALUE"]
        span = merge_spans(self._span(kw), self._span(values[-1]))
        comments = self._comments(children, 1 + len(values))
        words = [t.value for t in values]
        ordinal = None
        i = 0
        if words and (om := _ORDINAL_RE.match(words[0])):
            ordinal = int(om.group(1))
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

    def _seat_value(self, kw: TokenLike, tok: TokenLike, allow_unknown: bool) -> str | None:
        value = tok.value
        if value in SEATS or (allow_unknown and value == "?"):
            return value
        self._value_error(tok, f"`{value}` is not a seat: {USAGE[kw.value]}")
        return None

    def dealer(self, children: Sequence[Any]) -> _Item:
        kw, tok = children[0], children[1]
        seat = self._seat_value(kw, tok, True)
        return self._done(_Item("dealer", seat, merge_spans(self._span(kw), self._span(tok)),
                                self._comments(children, 2)))

    def first(self, children: Sequence[Any]) -> _Item:
        kw, tok = children[0], children[1]
        seat = self._seat_value(kw, tok, False)
        return self._done(_Item("first", seat, merge_spans(self._span(kw), self._span(tok)),
                                self._comments(children, 2)))

    def kitty(self, children: Sequence[Any]) -> _Item:
        kw, tok = children[0], children[1]
        cards = self._cards(tok, before="kitty")
        return self._done(_Item("kitty", cards, merge_spans(self._span(kw), self._span(tok)),
                                self._comments(children, 2)))

    def trump(self, children: Sequence[Any]) -> _Item:
        kw, tok = children[0], children[1]
        value = tok.value
        trump = _trump_value(value)
        if trump is None:
            self._value_error(tok, f"`{value}` is not a trump: {USAGE['trump']}")
        return self._done(_Item("trump", trump, merge_spans(self._span(kw), self._span(tok)),
                                self._comments(children, 2)))

    def points(self, children: Sequence[Any]) -> _Item:
        kw, tok = children[0], children[1]
        value = tok.value
        number = _signed_number(value)
        if number is None:
            self._value_error(tok, f"`{value}` is not a number of points: {USAGE['points']}")
        return self._done(_Item("points", number, merge_spans(self._span(kw), self._span(tok)),
                                self._comments(children, 2)))

    def redeal(self, children: Sequence[Any]) -> _Item:
        kw = children[0]
        span = self._span(kw)
        return self._done(_Item("redeal", span, span, self._comments(children, 1)))

    def declare_none(self, children: Sequence[Any]) -> _Item:
        span = merge_spans(self._span(children[0]), self._span(children[1]))
        return self._done(_Item("declare none", span, span, self._comments(children, 2)))

    # events
    def declare(self, children: Sequence[Any]) -> _Item:
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
        span = merge_spans(self._span(kw), self._span(end))
        if self.bad:
            return self._done(_Item("declare", None, span, []))
        node = _Declaration(seat=seat, cards=cards, at=at, span=span, comments=self._comments(children, i))
        return _Item("declare", node, span, node.comments)

    def bury(self, children: Sequence[Any]) -> _Item:
        kw, tok = children[0], children[1]
        plays = self._plays(tok.value, 0, tok.line + self.offset, tok.column)
        span = merge_spans(self._span(kw), self._span(tok))
        if not self.bad and (len(plays) != 1 or plays[0].attempted is not None):
            self._fail("SJ101", span, f"{USAGE['bury']}; found more than one seat or a `->`")
        if self.bad:
            return self._done(_Item("bury", None, span, []))
        play = plays[0]
        node = _Bury(seat=play.seat, cards=play.cards, span=span, comments=self._comments(children, 2))
        return _Item("bury", node, span, node.comments)

    # plays: seat lines and tricks
    def _plays(self, text: str, start: int, line: int, column: int) -> list[Play]:
        """The plays written in ``text`` from index ``start``; ``text[0]`` is at
        ``line``:``column`` of the source."""
        plays: list[Play] = []
        append = plays.append
        cache = _LIST_CACHE
        for m in _terminals()["play"].finditer(text, start):
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

    def _play_line(self, text: str, line: int, column: int, more: Sequence[Any] = ()) -> _Item:
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

    def _line_item(self, number: int | None, plays: list[Play], span: Span, trick_comments: list[str]) -> _Item:
        """The item of a seat line (no number, one play) or a trick line."""
        if self.bad:
            return self._done(_Item("trick", None, span, []))
        if number is None and len(plays) == 1 and plays[0].attempted is None:
            play = plays[0]
            node = _new_seat_cards(play.seat, play.cards, play.span, play.comments)
            return _Item("seat", node, span, node.comments)
        trick = _new_trick(number, plays, span, trick_comments)
        return _Item("trick", trick, span, trick.comments, plays[-1].comments if plays else trick_comments)

    def plays(self, children: Sequence[Any]) -> _Item | list[_Item]:
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


#: the one builder: Lark's transformer and the shortcut's
_BUILD = _Build()
