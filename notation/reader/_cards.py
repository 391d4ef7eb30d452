"""SJN card lists: blank-separated groups, with SJN's shorthand (ranks alone
continue the suit before them); each group is read by :func:`primitives.cards.parse_group`."""

from __future__ import annotations

from primitives.cards import (
    BJ,
    LJ,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    SUIT_SYMBOLS_ALT,
    parse_group,
    rank_name,
    suit_from_char,
)

from ._common import SEATS


class CardError(ValueError):
    """A card list holds a bad group: ``index`` of the group, and a message."""

    def __init__(self, index: int, message: str):
        super().__init__(message)
        self.index = index


#: card group text -> cards (card groups repeat a lot: "HA", "S10", ...)
_GROUP_CACHE: dict[str, tuple[int, ...]] = {}


def _usual_groups() -> dict[str, tuple[int, ...]]:
    """The groups of one or two cards as the writer spells them (``SA``,
    ``H10``, ``D109``, ``CQQ``) and the jokers: most groups a record holds,
    known from the start (728 + 2 entries, about 0.3 ms to make) rather than
    read one by one on a file's first lines."""
    groups: dict[str, tuple[int, ...]] = {"BJ": (BJ,), "LJ": (LJ,)}
    ranks = [rank_name(rank) for rank in range(2, 15)]
    for suit, letter in enumerate(SUIT_LETTERS):
        base = 13 * suit
        for i, first in enumerate(ranks):
            groups[letter + first] = (base + i,)
            for j, second in enumerate(ranks):
                groups[letter + first + second] = (base + i, base + j)
    return groups


_GROUP_CACHE.update(_usual_groups())
#: the text of a whole card list in a play -> cards (plays repeat a lot too)
_LIST_CACHE: dict[str, tuple[int, ...]] = {}
#: the characters that start a group of ranks alone (SJN's shorthand)
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
    rest = iter(groups)
    while True:
        try:
            # the usual list, in one go: each group written with its suit and met
            # before (a group of ranks alone is never a key: its key has a suit)
            for group in rest:
                out += cache[group]
            return tuple(out)
        except KeyError:
            pass
        # `group` is not cached: most often a group of three cards or more in a
        # deal line, which no other list holds, so it is read here (ASCII: a suit
        # letter, then ranks) and not kept; then the list goes on where it was.
        # Anything else (the shorthand, a symbol, a bad group) goes the general way.
        table = _RANK_BYTES.get(group[0])
        if table is None:
            return _split_general(groups)
        cards = group[1:].replace("10", "T").encode().translate(table)
        if not cards or _NOT_A_RANK in cards:
            return _split_general(groups)
        out += cards  # (the bytes are the cards' ints)


#: a suit letter (either case) -> a `bytes.translate` table taking each rank
#: character (either case; ``T`` for 10) to the int of that suit's card, any
#: other byte to `_NOT_A_RANK`: what :func:`primitives.cards.parse_group` reads
#: after an ASCII suit letter
_NOT_A_RANK = 255
_RANK_BYTES: dict[str, bytes] = {}
for _suit, _letter in enumerate(SUIT_LETTERS):
    _table = bytearray([_NOT_A_RANK]) * 256
    for _rank in range(2, 15):
        _name = "T" if _rank == 10 else rank_name(_rank)
        _table[ord(_name)] = _table[ord(_name.lower())] = 13 * _suit + _rank - 2
    _RANK_BYTES[_letter] = _RANK_BYTES[_letter.lower()] = bytes(_table)
del _suit, _letter, _table, _rank, _name


def _split_general(groups: list[str]) -> tuple[int, ...]:
    """:func:`split_cards` of the list ``groups``, any spelling, shorthand
    included; raises :class:`CardError` at the first bad group."""
    cache = _GROUP_CACHE
    out: list[int] = []
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


#: the characters that write a suit (those `suit_from_char` reads)
_SUIT_CHARS = frozenset(SUIT_LETTERS + SUIT_LETTERS.lower() + SUIT_SYMBOLS + SUIT_SYMBOLS_ALT)


def _group_cards(key: str) -> tuple[int, ...]:
    """Cards of one group, read by :func:`primitives.cards.parse_group` (the one card
    parser); the suit may be repeated before each rank (``♠A♠K♠K`` = ``♠AKK``),
    but a group holds one suit."""
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


