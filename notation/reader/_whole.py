"""Building the usual lines, read whole by one regex, straight from the match."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from primitives.cards import parse_rank
from primitives.diagnostics import Span

from ..model import Play, SeatCards, Trick
from ._cards import _LIST_CACHE, CardError, split_cards
from ._common import (
    _TAG_RE,
    SEATS,
    _Item,
    _number,
    _signed_number,
    _span_new,
    _trump_value,
    unescape_tag_value,
)
from ._grammar import _terminals
from ._models import (
    _DIRECT_LINE_NODES,
    _blank,
    _Bury,
    _Declaration,
    _Levels,
    _new_play,
    _new_seat_cards,
    _new_trick,
    _Tag,
)


class _WholeLines:
    """The builders of the lines the shortcut reads whole, a base of
    :class:`~._build._Build` (whose ``_play_line`` reads a line the general way).

    `_quick_read` gives these the match of a line read whole by its
    `_WHOLE_LINES` regex: group 1 is the element (keyword to last value),
    then one group a terminal, as in `_SHAPES`. Each builds the item of a
    line whose values are good, as the rule method of the same name would
    from the tokens; when the rule method would report something, it
    returns None and the tokens go to the rule method.
    """

    def _play_line(self, text: str, line: int, column: int, more: Sequence[Any] = ()) -> _Item:
        raise NotImplementedError  # defined by `_Build`

    def _whole_friend(self, m: re.Match[str], span: Span) -> _Item | None:
        return None  # read token by token by the rule method

    def _whole_tags(self, m: re.Match[str], span: Span) -> _Item | None:
        tm = _TAG_RE.match(m.group(2))
        if tm is None:
            return None
        tag = _Tag(name=tm.group(1), value=unescape_tag_value(tm.group(2)), span=span, comments=[])
        return _Item("tags", [tag], span, tag.comments, tag.comments)

    def _whole_hand(self, m: re.Match[str], span: Span) -> _Item | None:
        value = m.group(3)
        number = None if value is None else _number(value)
        if number is None and value is not None:
            return None
        return _Item("hand", number, span, [])

    def _whole_levels(self, m: re.Match[str], span: Span) -> _Item | None:
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

    def _whole_dealer(self, m: re.Match[str], span: Span) -> _Item | None:
        seat = m.group(3)
        return _Item("dealer", seat, span, []) if seat in SEATS or seat == "?" else None

    def _whole_first(self, m: re.Match[str], span: Span) -> _Item | None:
        seat = m.group(3)
        return _Item("first", seat, span, []) if seat in SEATS else None

    def _whole_kitty(self, m: re.Match[str], span: Span) -> _Item | None:
        try:
            return _Item("kitty", split_cards(m.group(3)), span, [])
        except CardError:
            return None

    def _whole_declare(self, m: re.Match[str], span: Span) -> _Item | None:
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

    def _whole_trump(self, m: re.Match[str], span: Span) -> _Item | None:
        trump = _trump_value(m.group(3))
        return None if trump is None else _Item("trump", trump, span, [])

    def _whole_bury(self, m: re.Match[str], span: Span) -> _Item | None:
        text = m.group(3)
        play = _terminals()["play"].match(text)  # one play, no `->`, as `bury` wants
        if play is None or play.end() != len(text) or play.group(3) is not None:
            return None
        try:
            cards = split_cards(play.group(2))
        except CardError:
            return None
        node = _Bury(seat=play.group(1), cards=cards, span=span, comments=[])
        return _Item("bury", node, span, node.comments)

    def _whole_points(self, m: re.Match[str], span: Span) -> _Item | None:
        number = _signed_number(m.group(3))
        return None if number is None else _Item("points", number, span, [])

    def _whole_redeal(self, m: re.Match[str], span: Span) -> _Item | None:
        return _Item("redeal", span, span, [])

    def _matched_play_line(self, m: re.Match[str], line: int) -> Trick | SeatCards | _Item:
        """A seat or trick line matched whole by ``_terminals()["plays4"]``:
        what `_play_line` makes of its PLAY_LINES token (group 1), read from
        the match's groups. This runs for nearly every line of a record, so
        the nodes are built here directly (as `_line_item` would build them)
        and given without an item (`_assemble` takes them as they are); a
        line with a bad card is read the general way, which gives an item."""
        groups = m.groups()  # group k is groups[k - 1]
        # (where the groups it needs start and end, one call each: `m.regs`
        # would make a pair for each of the 15 groups)
        start_of, end_of = m.start, m.end
        start, end = m.span(1)
        if groups[1] is None and groups[4] is None and groups[5] is None:
            # a seat line: one play (groups 3 and 4), no number, no `->`
            # (not cached: a seat line's list is one deal's, it does not come back)
            try:
                dealt = split_cards(groups[3])
            except CardError:  # a bad card: the general way says what is wrong
                return self._play_line(groups[0], line, start + 1)
            play_span = _span_new(Span, (line, start_of(3) + 1, line, end_of(4) + 1))
            # (the line is the play: `span` equals `play_span`)
            return _new_seat_cards(groups[2], dealt, play_span, [])
        plays: list[Play] = []
        append = plays.append
        listed = _LIST_CACHE.get
        blank, direct = _blank, _DIRECT_LINE_NODES
        for k in (3, 6, 9, 12):  # the group numbers of the seats
            seat = groups[k - 1]
            if seat is None:
                break
            if groups[k + 1] is None:  # `S: cards`
                cards = listed(groups[k])
                if cards is None:
                    cards = self._listed_cards(groups[k])
                    if cards is None:  # a bad card: the general way says what is wrong
                        return self._play_line(groups[0], line, start + 1)
                # `_new_play(seat, cards, None, span)` inline: the reader's innermost loop
                # (a blank instance and its slots set: see `_models._new_play`)
                if direct:
                    p: Play = blank(Play)
                    p.span = _span_new(Span, (line, start_of(k) + 1, line, end_of(k + 1) + 1))
                    p.comments = []
                    p.line_comment = None
                    p.seat = seat  # type: ignore[assignment]  # a seat: the regex's
                    p.cards = cards
                    p.attempted = None
                    append(p)
                else:  # pragma: no cover - only if the line nodes gain a field
                    append(_new_play(seat, cards, None,
                                     _span_new(Span, (line, start_of(k) + 1, line, end_of(k + 1) + 1))))
            else:  # `S: attempted -> cards`
                attempted = self._listed_cards(groups[k], cache=False)
                cards = self._listed_cards(groups[k + 1], cache=False)
                if cards is None or attempted is None:
                    return self._play_line(groups[0], line, start + 1)
                append(_new_play(seat, cards, attempted,
                                 _span_new(Span, (line, start_of(k) + 1, line, end_of(k + 2) + 1))))
        number = groups[1]
        if direct:  # `_new_trick(...)` inline, as the plays above
            t: Trick = blank(Trick)
            t.span = _span_new(Span, (line, start + 1, line, end + 1))
            t.comments = []
            t.line_comment = None
            t.number = None if number is None else int(number)
            t.plays = plays
            return t
        return _new_trick(None if number is None else int(number), plays,  # pragma: no cover - as above
                          _span_new(Span, (line, start + 1, line, end + 1)), [])

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

