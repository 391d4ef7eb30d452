"""Cards as the report writes them: SJN text in the hand's trump order (grouped
by suit, as :func:`primitives.cards.format_cards` writes them), made fast for
the tricks of a match."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from primitives.cards import JOKER_SUIT, NUM_CARDS, rank_name, suit_of, to_str
from replay.order import NT, Order

if TYPE_CHECKING:
    pass


#: per card, as :func:`format_cards` writes it (grouped, ASCII): after a card
#: of another suit (a space, then ``"SA"``), and after a card of its own suit
#: (``"A"``; a joker is never grouped: ``" BJ"``)
_SPACED = tuple(" " + to_str(c) for c in range(NUM_CARDS))
_GROUPED = tuple(_SPACED[c] if suit_of(c) == JOKER_SUIT else _SPACED[c][2:] for c in range(NUM_CARDS))
_SUIT = tuple(suit_of(c) for c in range(NUM_CARDS))


#: the text of card ``c`` after card ``b`` (``b`` = NUM_CARDS: after no card) at
#: ``_AFTER[b][c]``: grouped in ``b``'s suit, else spaced
_AFTER = tuple(tuple(_GROUPED[c] if b < NUM_CARDS and _SUIT[b] == _SUIT[c] else _SPACED[c]
                     for c in range(NUM_CARDS)) for b in range(NUM_CARDS + 1))


def _format(cards: Sequence[int]) -> str:
    """``format_cards(cards)`` (grouped, ASCII), by table look-ups: each
    card's text depends only on the card before it."""
    after = _AFTER
    return "".join([after[b][c] for b, c in zip((NUM_CARDS, *cards), cards)])[1:]


#: the text of one card, and of a pair, by its cards
_SAME_IN_EVERY_ORDER: dict[tuple[int, ...], str] = {
    **{(c,): _SPACED[c][1:] for c in range(NUM_CARDS)}, **{(c, c): _format((c, c)) for c in range(NUM_CARDS)}}


class CardText:
    """SJN text of card groups sorted in one hand's trump order (as
    ``format_cards(order.sorted(cards))``; ``order`` None: as given),
    remembered: most plays are one to four cards and recur. A long holding is
    sorted by a precomputed rank (the order of ``order.sorted``: its sort key
    ends with the card itself, so different cards never tie)."""

    __slots__ = ("rank", "memo")

    def __init__(self, order: Order | None) -> None:
        self.rank: Callable[[int], int] | None = None
        if order is not None:
            rank = [0] * NUM_CARDS
            for i, c in enumerate(sorted(range(NUM_CARDS), key=order.sort_key)):
                rank[c] = i
            self.rank = rank.__getitem__
        #: texts of short groups, by the cards (a tuple) as played; one card or
        #: a pair reads the same in every order (most plays: known at once)
        self.memo: dict[tuple[int, ...], str] = dict(_SAME_IN_EVERY_ORDER)

    def __call__(self, cards: Sequence[int]) -> str:
        if len(cards) > 4:
            return _format(sorted(cards, key=self.rank) if self.rank is not None else cards)
        key = tuple(cards)
        text = self.memo.get(key)
        if text is None:
            if len(self.memo) >= 4096:
                self.memo.clear()
            rank = self.rank
            if rank is None:
                text = _format(key)
            elif len(key) == 2:  # (the most frequent: a follow of two cards)
                a, b = key if rank(key[0]) < rank(key[1]) else key[::-1]
                text = _SPACED[a][1:] + _AFTER[a][b]
            else:
                text = _format(sorted(key, key=rank))
            self.memo[key] = text
        return text


_CARD_TEXT: dict[Order | None, CardText] = {}


def card_text(order: Order | None) -> CardText:
    """The (shared) :class:`CardText` of an order (or of None: cards as given)."""
    got = _CARD_TEXT.get(order)
    if got is None:
        if len(_CARD_TEXT) >= 256:
            _CARD_TEXT.clear()
        got = _CARD_TEXT[order] = CardText(order)
    return got


def report_cards(cards: Sequence[int] | None, order: Order | None = None) -> str | None:
    if cards is None:
        return None
    return card_text(order)(cards)


def report_trump(t: int | None) -> str | None:
    if t is None:
        return None
    return "NT" if t == NT else "SHDC"[t]


def report_levels(levels: dict[str, int] | None) -> dict[str, str] | None:
    if levels is None:
        return None
    return {team: rank_name(v) for team, v in levels.items()}
