"""Card order for one hand (RULES.md §2, §3).

An :class:`Order` is built once per hand from the level rank, the trump suit
(or NT), ``two_is_trump`` and the ruleset's ``tractor_links``. It gives every
card (int 0..53):

* ``eff[c]``: its effective suit, 0..3 for plain suits or :data:`TRUMP`;
* ``key[c]``: its strength within that effective suit (higher beats lower;
  equal keys are equal cards, e.g. off-suit level cards of different suits).

Keys are also the tractor ladder: two tuples are adjacent (can form a tractor)
exactly when their keys differ by 1. Where a ``tractor_links`` bridge is
switched off, the ladder leaves a gap of 2, so the bridge is not adjacent. The
level rank (and the 2s when ``two_is_trump``) are taken out of the plain
ladders, so at level 4 ``♠5 ♠3`` are adjacent (§3).

Readings (documented in docs/rules.md): with ``two_is_trump`` the 2s sit
between the plain trumps and the level cards; the bridge from the top plain
trump to the off-suit 2s, and from the trump-suit 2 to the off-suit level
cards, use ``level_top``; off-suit 2 → trump-suit 2 uses ``level``. In NT,
``joker_level`` joins the (off-suit) level cards to the little joker (§3).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from primitives.cards import BJ, JOKER_LEVEL, LJ, NUM_CARDS, SUITS
from replay.shapes import Unit

if TYPE_CHECKING:
    from replay.ruleset import Ruleset

#: effective suit index of trumps (plain suits are 0..3)
TRUMP = 4
#: trump value meaning "no trump suit" (无主)
NT = 4

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs", "trumps")


class Order:
    """Effective suits and strength keys of all cards for one hand."""

    __slots__ = ("level", "trump", "two_is_trump", "links", "split", "eff", "key",
                 "trump_cards", "suit_cards", "singles", "power", "_place", "_hash")

    def __init__(self, level: int, trump: int, two_is_trump: bool = False,
                 links: frozenset[str] | set[str] = frozenset(
                     ("joker", "joker_level", "level", "level_top")),
                 split: str = "longest") -> None:
        if level == JOKER_LEVEL:
            trump = NT  # §2: at the Joker level the hand is always NT
        self.level = level
        self.trump = trump
        self.two_is_trump = two_is_trump
        self.links = frozenset(links)
        #: the ruleset's ``unit_split``: how :func:`replay.units.decompose` reads a lead
        self.split = split
        eff = [0] * NUM_CARDS
        key = [0] * NUM_CARDS
        two_trump = two_is_trump and level != 2

        def is_trump(c: int) -> bool:
            if c >= 52:
                return True
            s, r = divmod(c, 13)
            r += 2
            return r == level or s == trump or (two_trump and r == 2)

        # plain suits: ranks ascending, level rank (and trump 2s) taken out
        for s in SUITS:
            k = 0
            for r in range(2, 15):
                c = s * 13 + r - 2
                if is_trump(c):
                    continue
                eff[c] = s
                key[c] = k
                k += 1
        # the trump ladder, low to high, with gaps where a bridge is off
        last = -1  # key of the highest trump placed so far (-1: none yet)
        if trump != NT:
            for r in range(2, 15):
                c = trump * 13 + r - 2
                if r == level or (two_trump and r == 2):
                    continue
                last += 1
                eff[c] = TRUMP
                key[c] = last

        def place(cards: list[int], link: str | None) -> None:
            nonlocal last
            if last < 0:
                last = 0
            else:
                last += 1 if link is not None and link in self.links else 2
            for c in cards:
                eff[c] = TRUMP
                key[c] = last

        if two_trump:
            place([s * 13 for s in SUITS if s != trump], "level_top")
            if trump != NT:
                place([trump * 13], "level")
        if level != JOKER_LEVEL:
            place([s * 13 + level - 2 for s in SUITS if s != trump], "level_top")
            if trump != NT:
                place([trump * 13 + level - 2], "level")
            place([LJ], "joker_level")
        else:
            place([LJ], None)
        place([BJ], "joker")
        self.eff: tuple[int, ...] = tuple(eff)
        self.key: tuple[int, ...] = tuple(key)
        self.trump_cards = frozenset(c for c in range(NUM_CARDS) if eff[c] == TRUMP)
        #: the cards of each effective suit (index 0..3, TRUMP), ascending by key
        self.suit_cards: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted((c for c in range(NUM_CARDS) if eff[c] == s), key=key.__getitem__))
            for s in range(5))
        #: each card as a single unit (``Unit(1, 1, key, (card,))``), built once per order
        self.singles: tuple[Unit, ...] = tuple(Unit(1, 1, key[c], (c,)) for c in range(NUM_CARDS))
        #: ``power[s][c]``: how strongly card c plays to a trick led in effective suit s
        #: (0..3, TRUMP), one number for the one-card tricks: 0 for a discard, the key + 1
        #: in the led suit, the key + 101 for a trump ruffing a plain suit
        self.power: tuple[tuple[int, ...], ...] = tuple(
            tuple(key[c] + 1 if eff[c] == s else key[c] + 101 if eff[c] == TRUMP else 0
                  for c in range(NUM_CARDS))
            for s in range(5))
        #: each card's place in the display order (:meth:`sort_key` as one int)
        places = [0] * NUM_CARDS
        for i, c in enumerate(sorted(range(NUM_CARDS), key=self.sort_key)):
            places[c] = i
        self._place: tuple[int, ...] = tuple(places)
        self._hash = hash((level, trump, two_is_trump, self.links, split))

    @classmethod
    def for_ruleset(cls, level: int, trump: int, ruleset: Ruleset) -> Order:
        """The (shared, cached) order of a hand under ``ruleset``."""
        return _cached(level, trump, ruleset.two_is_trump, frozenset(ruleset.tractor_links), ruleset.unit_split)

    def is_trump(self, card: int) -> bool:
        return self.eff[card] == TRUMP

    def sort_key(self, card: int) -> tuple[int, int, int]:
        """Display order: trumps first (high to low), then suits S H D C."""
        e = self.eff[card]
        return (0 if e == TRUMP else 1 + e, -self.key[card], card)

    def sorted(self, cards: Iterable[int]) -> list[int]:
        """``cards`` in display order (:meth:`sort_key`)."""
        return sorted(cards, key=self._place.__getitem__)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Order) and self.level == other.level and self.trump == other.trump
                and self.two_is_trump == other.two_is_trump and self.links == other.links
                and self.split == other.split)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        t = "NT" if self.trump == NT else "SHDC"[self.trump]
        return f"Order(level={self.level}, trump={t}, two_is_trump={self.two_is_trump})"


@lru_cache(maxsize=512)
def _cached(level: int, trump: int, two_is_trump: bool, links: frozenset[str], split: str = "longest") -> Order:
    return Order(level, trump, two_is_trump, links, split)
