"""Cards as small ints: the one card encoding shared by `notation` and `replay`.

A card is an int in ``0..53``:

* ``suit * 13 + (rank - 2)`` for the 52 suited cards, with suits
  ``S=0 H=1 D=2 C=3`` and ranks ``2..14`` (J=11, Q=12, K=13, A=14);
* ``LJ = 52`` (little joker, 小王) and ``BJ = 53`` (big joker, 大王).

Identical copies (two decks hold two ``SA``) are the same int; a hand is a
multiset of ints (a tuple, or a 54-slot count list in hot paths).

This module knows spelling (for the writer, messages and tests) but no rules:
what is trump, what beats what, lives in :mod:`replay.order`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
JOKER_SUIT = 4
SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_SYMBOLS_ALT = "♤♡♢♧"

LJ = 52
BJ = 53
NUM_CARDS = 54

#: rank numbers; 15 is the ``Joker`` level (RULES.md §2, ``joker_level``)
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
JOKER_LEVEL = 15
RANKS = tuple(range(2, 15))

_RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
               10: "10", 11: "J", 12: "Q", 13: "K", 14: "A", 15: "Joker"}
_RANK_PARSE = {v: k for k, v in _RANK_NAMES.items()}
_RANK_PARSE["T"] = 10
_RANK_PARSE["JOKER"] = 15

#: point value of each card (5 → 5, 10 and K → 10), indexed by card int
POINTS: tuple[int, ...] = tuple(
    (5 if c % 13 == 3 else 10 if c % 13 in (8, 11) else 0) if c < 52 else 0
    for c in range(NUM_CARDS)
)

_SUIT_OF_CHAR = {ch: i for i, ch in enumerate(SUIT_LETTERS)}
_SUIT_OF_CHAR.update({ch: i for i, ch in enumerate(SUIT_SYMBOLS)})
_SUIT_OF_CHAR.update({ch: i for i, ch in enumerate(SUIT_SYMBOLS_ALT)})
for _ch, _i in list(_SUIT_OF_CHAR.items()):
    _SUIT_OF_CHAR[_ch.lower()] = _i


def make(suit: int, rank: int) -> int:
    """The card of ``suit`` (0..3) and ``rank`` (2..14)."""
    if suit not in SUITS or not 2 <= rank <= 14:
        raise ValueError(f"no card with suit {suit} and rank {rank}")
    return suit * 13 + rank - 2


def suit_of(card: int) -> int:
    """0..3 for suited cards, :data:`JOKER_SUIT` for jokers."""
    return card // 13 if card < 52 else JOKER_SUIT


def rank_of(card: int) -> int:
    """2..14 for suited cards; 15 for LJ, 16 for BJ."""
    return card % 13 + 2 if card < 52 else card - 37


def is_joker(card: int) -> bool:
    return card >= 52


def points(cards: Iterable[int]) -> int:
    """Sum of point values (5, 10, K) of ``cards``."""
    return sum(map(POINTS.__getitem__, cards))


def rank_name(rank: int) -> str:
    """``10`` → ``'10'``, ``14`` → ``'A'``, ``15`` → ``'Joker'``."""
    return _RANK_NAMES[rank]


def parse_rank(text: str) -> int:
    """``'A'`` → 14, ``'T'``/``'10'`` → 10, ``'Joker'`` → 15; ValueError otherwise."""
    try:
        return _RANK_PARSE[text.strip().upper()]
    except KeyError:
        raise ValueError(f"not a rank: {text!r}") from None


def suit_from_char(ch: str) -> int:
    """``'S'``/``'♠'``/``'♤'`` → 0 …; ValueError otherwise."""
    try:
        return _SUIT_OF_CHAR[ch]
    except KeyError:
        raise ValueError(f"not a suit: {ch!r}") from None


def to_str(card: int, unicode: bool = False) -> str:
    """``'SA'``, ``'H10'``, ``'BJ'`` (or ``'♠A'`` with ``unicode``)."""
    if card == BJ:
        return "BJ"
    if card == LJ:
        return "LJ"
    letters = SUIT_SYMBOLS if unicode else SUIT_LETTERS
    return letters[card // 13] + _RANK_NAMES[card % 13 + 2]


def parse_group(text: str) -> tuple[int, ...]:
    """Split one card group (no spaces) into cards.

    ``'SAKK'`` → (SA, SK, SK); ``'H10109'`` → (H10, H10, H9); ``'BJ'``;
    ``'大王'``. Raises ValueError naming the offending part.
    """
    if text in ("BJ", "bj", "大王"):
        return (BJ,)
    if text in ("LJ", "lj", "小王"):
        return (LJ,)
    if not text:
        raise ValueError("empty card group")
    try:
        suit = _SUIT_OF_CHAR[text[0]]
    except KeyError:
        raise ValueError(f"unknown suit {text[0]!r} in {text!r}") from None
    if len(text) == 1:
        raise ValueError(f"suit {text[0]!r} without a rank")
    # the ranks looked up in C (a map over the suit's table; ``10`` read as ``T``); a rank
    # not in the table (KeyError) is left to the loop below, which names it
    ranks = text[1:]
    if "1" in ranks:
        ranks = ranks.replace("10", "T")
    try:
        return tuple(map(_CARD_OF_RANK[suit].__getitem__, ranks))
    except KeyError:
        pass
    base = suit * 13
    out = []
    i, n = 1, len(text)
    offsets = _RANK_OFFSET
    while i < n:
        ch = text[i]
        if ch == "1" and text.startswith("10", i):
            out.append(base + 8)
            i += 2
            continue
        offset = offsets.get(ch)
        if offset is None:
            raise ValueError(f"bad rank {text[i:]!r} in {text!r}")
        out.append(base + offset)
        i += 1
    return tuple(out)


#: a rank character (either case) → the rank's offset in its suit (rank - 2)
_RANK_OFFSET = {ch: rank - 2 for ch, rank in (*((str(r), r) for r in range(2, 10)),
                                              ("T", 10), ("J", 11), ("Q", 12), ("K", 13), ("A", 14))}
_RANK_OFFSET.update({ch.lower(): offset for ch, offset in list(_RANK_OFFSET.items()) if ch.isalpha()})
#: per suit (0..3), a rank character → the card
_CARD_OF_RANK = tuple({ch: suit * 13 + offset for ch, offset in _RANK_OFFSET.items()} for suit in SUITS)


def parse_cards(text: str) -> tuple[int, ...]:
    """Whitespace-separated card groups → cards, in order (for tests and tools)."""
    out: list[int] = []
    for group in text.split():
        out.extend(parse_group(group))
    return tuple(out)


#: each card's text (``'SA'``, ``'♠A'``, ``'BJ'``), its rank's text and its suit
#: (0..3, JOKER_SUIT), by card int: `format_cards` looks them up
_CARD_TEXT = tuple(to_str(c) for c in range(NUM_CARDS))
_CARD_TEXT_UNICODE = tuple(to_str(c, True) for c in range(NUM_CARDS))
_RANK_TEXT = tuple(_RANK_NAMES[c % 13 + 2] if c < 52 else "" for c in range(NUM_CARDS))
_SUIT = tuple(suit_of(c) for c in range(NUM_CARDS))


def format_cards(cards: Iterable[int], unicode: bool = False, grouped: bool = True) -> str:
    """Cards as text; ``grouped`` joins runs of one suit: ``SAKK H10 9``.

    Order is kept; a new group starts whenever the suit changes.
    """
    text = _CARD_TEXT_UNICODE if unicode else _CARD_TEXT
    if not grouped:
        return " ".join([text[c] for c in cards])
    out: list[str] = []
    prev_suit = -1
    for c in cards:
        s = _SUIT[c]
        if s == prev_suit and s != JOKER_SUIT:
            out.append(_RANK_TEXT[c])
        else:
            if out:
                out.append(" ")
            out.append(text[c])
        prev_suit = s
    return "".join(out)


def full_deck(decks: int) -> Counter[int]:
    """The multiset of ``decks`` standard 54-card decks."""
    return Counter({c: decks for c in range(NUM_CARDS)})


def deck_list(decks: int) -> list[int]:
    """All cards of ``decks`` decks as a list (for dealing)."""
    return [c for c in range(NUM_CARDS) for _ in range(decks)]
