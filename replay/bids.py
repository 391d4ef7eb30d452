"""What a declaration is (RULES.md §4, §8b): the declaration unit
(:class:`DeclareGroup`), an accepted bid (:class:`Bid`), what a seat's shown
cards declare (:func:`read_cards`), how strong a unit is under each policy
(:func:`base_key`, :func:`declaration_strength`), and their words in messages.

Pure values and functions of cards, a level and a policy: the fold that
applies them is :mod:`replay.declare`; who may bid what under each preset is
:mod:`replay.bid_policies`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from primitives.cards import (
    BJ,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JOKER_LEVEL,
    LJ,
    SPADES,
    SUIT_SYMBOLS,
    format_cards,
    rank_name,
    suit_of,
    to_str,
)
from replay.order import NT
from replay.seats import Seat

if TYPE_CHECKING:  # pragma: no cover
    from replay.ruleset import Ruleset


def partner_of(seat: str) -> str:
    """The seat opposite ``seat``."""
    return Seat[seat].partner().name


# ---------------------------------------------------------------------------
# units and bids
# ---------------------------------------------------------------------------

class DeclareGroup(NamedTuple):
    """One declaration unit: ``copies`` × ``card`` (+ campus ``joker``)."""

    card: int               # a level card, or LJ/BJ for a joker tuple
    copies: int
    joker: int | None = None

    @property
    def cards(self) -> tuple[int, ...]:
        extra = () if self.joker is None else (self.joker,)
        return (self.card,) * self.copies + extra

    @property
    def is_joker_tuple(self) -> bool:
        return self.card >= LJ

    @property
    def trump(self) -> int:
        return NT if self.card >= LJ else suit_of(self.card)


@dataclass(frozen=True)
class Bid:
    """An accepted declaration: who, which unit, and how it came about.

    ``how`` is ``"declare"`` (a new declaration: first, override, self-override),
    ``"reinforce"`` (自保) or ``"partner"`` (对家保; ``unit`` is then the combined
    pair, of which ``seat`` showed one card).
    """

    seat: str
    unit: DeclareGroup
    how: str = "declare"
    after_bury: bool = False

    @property
    def trump(self) -> int:
        return self.unit.trump


# ---------------------------------------------------------------------------
# spelling (messages)
# ---------------------------------------------------------------------------

def card_name(card: int) -> str:
    return to_str(card, unicode=True)


def describe(unit: DeclareGroup) -> str:
    """``♠2``, ``a pair of ♠2``, ``three ♠2``, ``a pair of BJ`` (+ `` + BJ`` for campus)."""
    name = card_name(unit.card)
    base = {1: name, 2: f"a pair of {name}", 3: f"three {name}", 4: f"four {name}"}.get(
        unit.copies, f"{unit.copies} × {name}")
    if unit.joker is not None:
        base += f" + {card_name(unit.joker)}"
    if unit.is_joker_tuple:
        base += " (NT)"
    return base


def who(bid: Bid) -> str:
    if bid.how == "reinforce":
        return f"{bid.seat}'s reinforced {describe(bid.unit).removeprefix('a ')}"
    if bid.how == "partner":
        return f"{bid.seat}'s {describe(bid.unit).removeprefix('a ')} (with the partner's card, 对家保)"
    return f"{bid.seat}'s {describe(bid.unit).removeprefix('a ')}"


# ---------------------------------------------------------------------------
# units: what a set of cards declares
# ---------------------------------------------------------------------------

def is_level_card(card: int, level: int) -> bool:
    return card < LJ and card % 13 + 2 == level


def campus_joker(suit: int) -> int:
    """The joker that goes with a level card of ``suit`` under campus: BJ red, LJ black."""
    return BJ if suit in (HEARTS, DIAMONDS) else LJ


def declaration_units(counts: Counter[int], level: int, policy: str, joker: bool | str = False) -> list[DeclareGroup]:
    """Every declaration unit the multiset ``counts`` contains under ``policy``
    (``joker``: ``declare_joker``, a level card goes with either joker; ``"colour"``:
    with the joker of its colour, ``joker_colour``)."""
    out: list[DeclareGroup] = []
    for card, n in counts.items():
        if card >= LJ:
            out.extend(DeclareGroup(card, k) for k in range(2, n + 1))
        elif is_level_card(card, level):
            if policy == "campus":
                j = campus_joker(suit_of(card))
                if counts[j] >= 1:
                    out.extend(DeclareGroup(card, k, j) for k in range(1, n + 1))
            elif joker:
                for j in ((campus_joker(suit_of(card)),) if joker == "colour" else (LJ, BJ)):
                    if counts[j] >= 1:
                        out.extend(DeclareGroup(card, k, j) for k in range(1, n + 1))
            else:
                out.extend(DeclareGroup(card, k) for k in range(1, n + 1))
    return out


def _why_not_unit(cards: Counter[int], level: int, policy: str, joker: bool | str = False) -> str:
    """Why ``cards`` is not one declaration (they are all level cards or jokers)."""
    levels = [c for c in cards if c < LJ]
    jokers = [c for c in cards if c >= LJ]
    if joker and policy != "campus" and levels and not jokers:
        return "declare_joker is on: a level card is declared together with a joker (seed 000)"
    if joker == "colour" and policy != "campus" and len({suit_of(c) for c in levels}) == 1:
        j = campus_joker(suit_of(levels[0]))
        if cards[j] == 0:
            return (f"joker_colour is on: {SUIT_SYMBOLS[suit_of(levels[0])]} is declared with "
                    f"{to_str(j)}, the joker of its colour")
    if policy == "campus":
        if len(set(levels)) == 1 and len({suit_of(c) for c in levels}) == 1:
            s = suit_of(levels[0])
            j = campus_joker(s)
            if cards[j] == 0:
                return (f"campus needs a matching joker: {SUIT_SYMBOLS[s]} goes with "
                        f"{to_str(j)}")
        if not levels and len(jokers) == 1 and cards[jokers[0]] == 1:
            return "under campus a joker alone declares nothing (a level card goes with it)"
        return (f"{format_cards(sorted(cards.elements()), unicode=True)} is not one declaration: "
                f"campus shows a level card (or pair) + its joker, or a joker pair")
    if not levels and len(jokers) == 1 and cards[jokers[0]] == 1:
        return "a single joker declares nothing (a joker pair declares NT)"
    return (f"{format_cards(sorted(cards.elements()), unicode=True)} is not one declaration: "
            f"show copies of one level card, or a joker pair")


def joker_mode(rs: Ruleset) -> bool | str:
    """How a level card goes with a joker: not at all (False), with either (True,
    ``declare_joker``), or with the joker of its colour (``"colour"``, ``joker_colour``)."""
    if rs.declare_joker and rs.joker_colour:
        return "colour"
    return rs.declare_joker


@lru_cache(maxsize=8192)
def read_cards(cards: tuple[int, ...], shown: tuple[int, ...], seat: str, level: int, policy: str,
                decks: int, joker: bool | str = False) -> tuple[DeclareGroup | None, bool, str]:
    """:func:`_read` for ``cards`` after the seat's ``shown`` cards (a pure
    function of its arguments: cached, as the same few declarations recur)."""
    cur = Counter(cards)
    for c in cur:
        if not (c >= LJ or is_level_card(c, level)):
            return None, False, (f"{card_name(c)} is neither a level card ({rank_name(level)}) nor a joker"
                                 f" and cannot be declared")
    for c, n in cur.items():
        if n > decks:
            return None, False, (f"{n} × {card_name(c)} shown, but {decks} deck"
                                 f"{'s hold' if decks > 1 else ' holds'} only {decks}")
    prev = Counter(shown)
    extends = bool(prev) and cur >= prev
    added = cur - prev if extends else cur
    if not added:
        return None, extends, f"{seat} shows nothing new ({format_cards(cards, unicode=True)} again)"
    cands = [u for u in declaration_units(cur, level, policy, joker) if Counter(u.cards) >= added]
    if not cands:
        return None, extends, _why_not_unit(added, level, policy, joker)
    best = max(cands, key=lambda u: (base_key(u, policy), len(u.cards)))
    return best, extends, ""


# ---------------------------------------------------------------------------
# strength keys
# ---------------------------------------------------------------------------

_CAMPUS_ORDER = {DIAMONDS: 0, CLUBS: 1, HEARTS: 2, SPADES: 3}


def base_key(u: DeclareGroup, policy: str) -> tuple[int, ...]:
    """Strength of a fresh unit under ``policy`` (higher is stronger)."""
    if policy == "titanic":
        return (2 * u.copies,) if u.is_joker_tuple else (2 * u.copies - 1,)
    if policy == "ladder":
        return (u.copies, 0 if not u.is_joker_tuple else (1 if u.card == LJ else 2))
    if policy == "campus":
        if u.is_joker_tuple:
            return (1, 4 if u.card == LJ else 5)
        return (0, 0) if u.copies == 1 else (1, _CAMPUS_ORDER[suit_of(u.card)])
    if policy == "tractor97":
        return (3,) if u.is_joker_tuple else (min(u.copies, 2),)
    if policy == "botzone":
        return (min(u.copies, 2),)
    if policy == "first":
        return (1,) if u.is_joker_tuple else (0,)
    # standard
    return (99, 0) if u.is_joker_tuple else (u.copies, 0)


def bid_key(bid: Bid, policy: str) -> tuple[int, ...]:
    if policy == "standard" and not bid.unit.is_joker_tuple and bid.how != "declare":
        return (bid.unit.copies, 1)
    return base_key(bid.unit, policy)


def declaration_strength(ruleset: Ruleset, level: int, cards: Iterable[int]) -> tuple[int, ...] | None:
    """Strength of ``cards`` read as one fresh declaration under the ruleset's policy.

    ``None`` when the cards are not one declaration. Keys compare within one
    policy (higher is stronger); context (reinforcement, campus order rules,
    tractor97 fixing, botzone's one overcall) is only in :func:`can_declare`.
    """
    if level == JOKER_LEVEL:
        return None
    cur = Counter(cards)
    if not cur:
        return None
    for u in declaration_units(cur, level, ruleset.declaration, joker_mode(ruleset)):
        if Counter(u.cards) == cur:
            return base_key(u, ruleset.declaration)
    return None
