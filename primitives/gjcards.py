"""Gouji (够级) cards as small ints, shared by ``notation`` (GJN) and the Gouji engine.

The Shengji ints of :mod:`primitives.cards` do not fit Gouji: GJN card groups are
*suit-free* unless a suit is written (GOUJI.md §10), and Gouji orders the
ranks ``3 < … < A < 2 < LJ < BJ`` (§1). So a Gouji card is::

    card = rank << 3 | suit

* ``rank`` (:func:`rank_of`, ``card >> 3``) is the Gouji order itself:
  ``3..14`` for 3…A (J=11, Q=12, K=13, A=14), :data:`TWO` = 15 for the 2,
  :data:`LJ_RANK` = 16 (小王), :data:`BJ_RANK` = 17 (大王). Comparing two
  cards' ranks is comparing ints.
* ``suit`` (:func:`suit_of`, ``card & 7``) is ``S=0 H=1 D=2 C=3`` as in
  :mod:`primitives.cards`, or :data:`ANY` = 4 when no suit was written. Jokers are
  always :data:`ANY`.

So ``make(3, SPADES)`` is ♠3 (= 24), ``make(14)`` a suit-free A (= 116),
:data:`BJ` = 140. Identical copies are the same int; a hand is a multiset.

This module knows spelling (GJN groups, for the reader, the writer and
messages) but no rules.
"""

from __future__ import annotations

from collections.abc import Iterable

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
#: the "suit" of a card written without one (and of every joker)
ANY = 4
SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"

ACE = 14
TWO = 15
LJ_RANK = 16
BJ_RANK = 17
#: every rank, low → high (Gouji order)
RANKS: tuple[int, ...] = tuple(range(3, 18))


def make(rank: int, suit: int = ANY) -> int:
    """The card of ``rank`` (3..17, Gouji order) and ``suit`` (0..3 or :data:`ANY`)."""
    if rank not in RANKS or suit not in (0, 1, 2, 3, ANY) or (rank >= LJ_RANK and suit != ANY):
        raise ValueError(f"no Gouji card with rank {rank} and suit {suit}")
    return rank << 3 | suit


LJ = make(LJ_RANK)
BJ = make(BJ_RANK)
#: the largest card int (arrays indexed by card need ``MAX_CARD + 1`` slots)
MAX_CARD = BJ


def rank_of(card: int) -> int:
    """3..14 for 3…A, 15 for a 2, 16 LJ, 17 BJ."""
    return card >> 3


def suit_of(card: int) -> int:
    """0..3 (S H D C), or :data:`ANY` for a suit-free card or a joker."""
    return card & 7


def is_joker(card: int) -> bool:
    return card >= LJ


def is_two(card: int) -> bool:
    return card >> 3 == TWO


def suit_free(card: int) -> int:
    """``card`` with its suit forgotten."""
    return card | ANY if card & 7 != ANY else card


def matches(written: int, actual: int) -> bool:
    """True when ``written`` may stand for ``actual``: same rank, and the same
    suit unless one of them is suit-free (GOUJI.md §10)."""
    if written >> 3 != actual >> 3:
        return False
    a, b = written & 7, actual & 7
    return a == b or a == ANY or b == ANY


_RANK_NAMES = {3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
               11: "J", 12: "Q", 13: "K", 14: "A", 15: "2", 16: "LJ", 17: "BJ"}
_RANK_CHAR = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10,
              "J": 11, "Q": 12, "K": 13, "A": 14, "2": 15}
_SUIT_OF_CHAR = {ch: i for i, ch in enumerate(SUIT_LETTERS)}
_SUIT_OF_CHAR.update({ch.lower(): i for i, ch in enumerate(SUIT_LETTERS)})
_SUIT_OF_CHAR.update({ch: i for i, ch in enumerate(SUIT_SYMBOLS)})
_SUIT_OF_CHAR.update({ch: i for i, ch in enumerate("♤♡♢♧")})


def rank_name(rank: int) -> str:
    """``14`` → ``'A'``, ``15`` → ``'2'``, ``17`` → ``'BJ'``."""
    return _RANK_NAMES[rank]


def to_str(card: int, unicode: bool = False) -> str:
    """One card: ``'A'`` (suit-free), ``'S3'`` (``'♠3'`` with ``unicode``), ``'BJ'``."""
    suit = card & 7
    name = _RANK_NAMES[card >> 3]
    if suit == ANY:
        return name
    return (SUIT_SYMBOLS if unicode else SUIT_LETTERS)[suit] + name


class CardError(ValueError):
    """A bad card group; ``index`` is the offset of the fault in the group."""

    def __init__(self, index: int, message: str):
        super().__init__(message)
        self.index = index


def parse_group(text: str) -> tuple[int, ...]:
    """One GJN card group (no blanks) → cards, in written order.

    An optional suit (``S H D C``, ``♠♥♦♣``, any case) then ranks ``3``–``9``,
    ``10``/``T``, ``J Q K A 2``, ``BJ``/``大王``, ``LJ``/``小王`` (any case).
    The suit applies to the group's ranks; jokers take no suit. Raises
    :class:`CardError` naming the fault.
    """
    if not text:
        raise CardError(0, "empty card group")
    i, n = 0, len(text)
    suit = ANY
    first = text[0]
    if first in _SUIT_OF_CHAR:
        suit = _SUIT_OF_CHAR[first]
        i = 1
        if n == 1:
            raise CardError(0, f"suit {first!r} without a rank")
    out: list[int] = []
    while i < n:
        ch = text[i]
        if ch == "1" and text.startswith("10", i):
            out.append(80 | suit)  # 10 << 3
            i += 2
            continue
        up = ch.upper()
        rank = _RANK_CHAR.get(up)
        if rank is not None:
            out.append(rank << 3 | suit)
            i += 1
            continue
        two = text[i:i + 2]
        upper2 = two.upper()
        if upper2 in ("BJ", "LJ") or two in ("大王", "小王"):
            if suit != ANY:
                raise CardError(i, f"a joker takes no suit ({text!r})")
            out.append(BJ if upper2 == "BJ" or two == "大王" else LJ)
            i += 2
            continue
        if ch in _SUIT_OF_CHAR:
            raise CardError(i, f"a suit goes only at the start of a group: write "
                               f"{text[:i]!r} {text[i:]!r} as two groups")
        raise CardError(i, f"bad rank {text[i:]!r} in {text!r}")
    return tuple(out)


def parse_cards(text: str) -> tuple[int, ...]:
    """Blank-separated GJN groups → cards in written order (tests and tools)."""
    out: list[int] = []
    for group in text.split():
        out.extend(parse_group(group))
    return tuple(out)


def sort_key(card: int) -> int:
    """Sort key for the tidy order: high → low by rank; within a rank the
    suit-free cards first, then ♠ ♥ ♦ ♣."""
    return -(card >> 3) * 8 + ((card & 7) + 1) % 5


def tidy(cards: Iterable[int]) -> tuple[int, ...]:
    """``cards`` in the tidy order of GOUJI.md §10 (high → low)."""
    return tuple(sorted(cards, key=sort_key))


def groups(cards: Iterable[int], unicode: bool = False) -> list[str]:
    """The tidy spelling: one group per rank (and per written suit), high →
    low: ``['BJBJ', 'LJ', '222', '101010', 'S33', '3']``."""
    out: list[str] = []
    prev = -1
    for card in tidy(cards):
        if card != prev:
            out.append(to_str(card, unicode))
            prev = card
        else:
            out[-1] += _RANK_NAMES[card >> 3]
    return out


def cards_text(cards: Iterable[int], unicode: bool = False) -> str:
    """``'BJBJ LJ 222 101010 S33'`` (tidy), for the writer and messages."""
    return " ".join(groups(cards, unicode))
