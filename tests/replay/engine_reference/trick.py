# ruff: noqa
# mypy: ignore-errors
"""One trick: lead check, throw check, follow legality and the winner (§6).

Pure functions over card ints, holdings (card → count) and an Order. The
replay (``replay.game``) calls these; the generator and the analyzer call the
same functions, so no rule is written twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from primitives.cards import format_cards
from .order import SUIT_NAMES, TRUMP, Order
from .units import (
    Blocker,
    Unit,
    all_covers,
    compare_covers,
    cover,
    decompose,
    forced_units,
    obligation,
    shape_name,
    throw_blockers,
)


def cards_text(cards: Sequence[int], order: Order | None = None) -> str:
    """Cards for messages: sorted high to low when an order is known."""
    if len(cards) > _MESSAGE_CARDS:  # an absurd play: say how many, not each card
        return f"{len(cards):,} cards"
    if order is not None:
        cards = order.sorted(cards)
    return format_cards(cards, unicode=True)


#: more cards than this in a message are given as a count
_MESSAGE_CARDS = 60


def unit_text(u: Unit, order: Order | None = None) -> str:
    return f"{shape_name(u.width, u.length)} {cards_text(u.cards, order)}"


def lead_suit(cards: Sequence[int], order: Order) -> int | None:
    """The effective suit of a lead, or None when it mixes suits (SJ405)."""
    effs = {order.eff[c] for c in cards}
    return effs.pop() if len(effs) == 1 else None


class ThrowCheck(NamedTuple):
    blockers: list[Blocker]
    forced: Unit | None     # the unit the thrower must play when it fails
    allowed: tuple[Unit, ...] = ()   # every equally small unit that may be played instead

    def accepts(self, played: Sequence[int]) -> bool:
        """Is ``played`` a correct forced unit for this failed throw?"""
        want = Counter(played)
        return any(Counter(u.cards) == want for u in self.allowed)


def check_throw(lead_cards: Sequence[int], leader_index: int, holdings: Sequence[dict[int, int]],
                seats: Sequence[str], order: Order, ruleset,
                units: Sequence[Unit] | None = None) -> ThrowCheck:
    """Does a lead of several units fail (§6 throw check)? ``holdings`` and
    ``seats`` are in play order starting with the leader at ``leader_index``;
    ``units``: the lead's decomposition when the caller has it."""
    if units is None:
        units = decompose(lead_cards, order)
    if len(units) < 2 or ruleset.throw_check == "none":
        return ThrowCheck([], None)
    n = len(seats)
    others = [(seats[(leader_index + k) % n], holdings[(leader_index + k) % n]) for k in range(1, n)]
    blockers = throw_blockers(units, others, order)
    if not blockers:
        return ThrowCheck([], None)
    allowed = forced_units(blockers, ruleset.throw_forced, [seat for seat, _ in others])
    return ThrowCheck(blockers, allowed[0], tuple(allowed))


def throw_penalty(ruleset, attempted: int) -> int:
    """Points a failed throw of ``attempted`` cards costs its team (§6)."""
    if ruleset.throw_penalty == "per_card":
        return 10 * attempted
    if ruleset.throw_penalty == "per_attempt":
        return 10
    return 0


class FollowError(NamedTuple):
    code: str        # SJ403 (suit) or SJ404 (shape)
    message: str


def check_follow(lead: Sequence[Unit], suit: int, holding: dict[int, int], play: Sequence[int],
                 order: Order, ruleset, n: int | None = None) -> FollowError | None:
    """Is ``play`` a legal follow to ``lead`` (units, of effective ``suit``)
    for a player holding ``holding`` (card → count, before the play)?

    The holding may be partly known (cards known to be held): every error
    reported is then still certain. The card count is checked by the caller.
    """
    if n is None:
        n = sum(u.size for u in lead)
    eff = order.eff
    get = holding.get
    if n == 1:  # fast path: a single card must be of the led suit when one is held
        if eff[play[0]] == suit:
            return None
        held = [c for c in order.suit_cards[suit] if get(c, 0) > 0]
        if not held:
            return None
        what = "trumps" if suit == TRUMP else "cards of the led suit"
        return FollowError("SJ403", f"did not follow suit (revoke): played no {what} "
                                    f"but held {cards_text(held, order)}")
    played = [c for c in play if eff[c] == suit]
    singles = all(u.width == 1 for u in lead)
    if singles and len(played) == n:
        return None  # wholly of the led suit, and a lead of singles has no shape to follow
    suit_held = {c: k for c, k in holding.items() if k > 0 and eff[c] == suit}
    n_held = sum(suit_held.values())
    need = min(n, n_held)
    if len(played) < need:
        held = [c for c in order.suit_cards[suit] for _ in range(suit_held.get(c, 0))]
        what = "trumps" if suit == TRUMP else "cards of the led suit"
        return FollowError("SJ403", f"did not follow suit (revoke): played {len(played)} {what} "
                                    f"but held {n_held} ({cards_text(held, order)}); {need} were required")
    if n_held <= n or singles or max(suit_held.values()) < 2:
        # the play exhausts the suit, the lead is all singles, or no two identical
        # cards are held: no shape can be owed
        return None
    policy, decks = ruleset.follow_policy, ruleset.decks
    got = obligation(lead, played, order, policy, decks)
    if got == full_obligation(tuple(lead), order, policy, decks):
        return None  # the play meets the lead's whole structure: nothing more can be owed
    held = [c for c, k in suit_held.items() for _ in range(k)]
    if got < obligation(lead, held, order, policy, decks):
        return FollowError("SJ404", _shape_message(lead, held, played, order, ruleset))
    return None


def printed_suit(lead_cards: Sequence[int], order: Order) -> int | None:
    """``follow_suit: printed`` (the Botzone judge behind the real log): the
    printed suit a lead asks for: that of its first card that is not a joker
    (a level card too: a ♥2 pair led at level 2 asks for plain hearts); None
    for a lead of jokers only (nothing to follow, *reading*)."""
    for c in lead_cards:
        if c < 52:
            return c // 13
    return None


def check_follow_printed(lead: Sequence[Unit], suit: int | None, holding: Sequence[dict[int, int]],
                         play: Sequence[int], order: Order, n: int) -> FollowError | None:
    """``follow_suit: printed``: follow ``suit`` (a printed suit, see
    :func:`printed_suit`) with the cards of that suit that are not jokers,
    level cards or constant 2s, trumps or not; then play as many pairs of
    them as the lead has pairs and as are held (pairs of a tractor counted).
    ``holding``: the seat's cards split by effective suit (as the replay keeps them)."""
    if suit is None:
        return None
    level, two = order.level, order.two_is_trump

    def ours(c: int) -> bool:
        if c >= 52 or c // 13 != suit:
            return False
        r = c % 13 + 2
        return r != level and not (two and r == 2)

    held: dict[int, int] = {}
    for h in holding:
        for c, k in h.items():
            if k > 0 and ours(c):
                held[c] = k
    n_held = sum(held.values())
    played = [c for c in play if ours(c)]
    need = min(n, n_held)
    if len(played) < need:
        return FollowError("SJ403", f"did not follow suit (revoke; follow_suit printed): played {len(played)} "
                                    f"{SUIT_NAMES[suit]} but held {n_held} "
                                    f"({cards_text([c for c, k in held.items() for _ in range(k)], order)}); "
                                    f"{need} were required")
    lead_pairs = sum(u.length for u in lead if u.width >= 2)
    if not lead_pairs or n_held <= n:
        return None
    counts = Counter(played)
    got = sum(k // 2 for k in counts.values())
    have = sum(k // 2 for k in held.values())
    if got < min(lead_pairs, have):
        return FollowError("SJ404", f"did not follow the lead's shape (follow_suit printed): played "
                                    f"{got} pair(s) of {SUIT_NAMES[suit]} but held {have}; "
                                    f"{min(lead_pairs, have)} were required")
    return None


@lru_cache(maxsize=4096)
def full_obligation(lead: tuple[Unit, ...], order: Order, policy: str, decks: int) -> tuple[int, ...]:
    """The obligation vector of the lead's own cards: the largest any holding can
    owe (each part is capped by the lead's demand), so a follow reaching it is legal."""
    return obligation(lead, [c for u in lead for c in u.cards], order, policy, decks)


def _shape_message(lead: Sequence[Unit], held: list[int], played: list[int], order: Order,
                   ruleset) -> str:
    lead_desc = " + ".join(shape_name(u.width, u.length) for u in lead)
    held_units = [u for u in decompose(held, order) if u.width >= 2]
    held_desc = ", ".join(cards_text(u.cards, order) for u in held_units[:4]) or "none"
    return (f"did not follow the lead's shape ({lead_desc}): held {held_desc} "
            f"but played {cards_text(played, order) or 'no cards of the suit'}")


class Winner(NamedTuple):
    index: int               # index of the winning play in the trick
    units: tuple[Unit, ...]  # the winning play's units (matching the lead)
    ruffed: bool             # won by trumping a plain lead


def trick_winner(plays: Sequence[Sequence[int]], order: Order, ruleset,
                 lead_units: Sequence[Unit] | None = None) -> Winner:
    """The winning play of a trick (§6 "Winning"); ``plays[0]`` is the lead
    as actually played (after a failed throw: the forced unit); ``lead_units``
    its decomposition when the caller has it."""
    lead_cards = plays[0]
    eff, key = order.eff, order.key
    if len(lead_cards) == 1:
        # fast path: a single card (most tricks)
        c = lead_cards[0]
        suit = eff[c]
        best_i, best_card, best_ruff = 0, c, False
        for i in range(1, len(plays)):
            if len(plays[i]) != 1:
                continue
            d = plays[i][0]
            e = eff[d]
            if e == suit:
                if not best_ruff and key[d] > key[best_card]:
                    best_i, best_card = i, d
            elif e == TRUMP:
                if not best_ruff or key[d] > key[best_card]:
                    best_i, best_card, best_ruff = i, d, True
        return Winner(best_i, (order.singles[best_card],), best_ruff)
    suit = lead_suit(lead_cards, order)
    lead = list(lead_units) if lead_units is not None else decompose(lead_cards, order)
    if suit is None:
        return Winner(0, tuple(lead), False)
    if len(lead) == 1 and lead[0].length == 1:
        # fast path: one tuple led (a pair, a triple); only as many copies of one
        # card match it, and the highest wins (as compare_covers rules for one unit)
        n = len(lead_cards)
        best_i, best_top, best_ruff = 0, lead[0].top, False
        for i in range(1, len(plays)):
            cards = plays[i]
            if len(cards) != n or cards.count(cards[0]) != n:
                continue
            c = cards[0]
            e = eff[c]
            if e == suit:
                if not best_ruff and key[c] > best_top:
                    best_i, best_top = i, key[c]
            elif e == TRUMP:
                if not best_ruff or key[c] > best_top:
                    best_i, best_top, best_ruff = i, key[c], True
        unit = lead[0] if best_i == 0 else Unit(n, 1, best_top, tuple(plays[best_i]))
        return Winner(best_i, (unit,), best_ruff)
    shape = [u.shape for u in lead]
    single = len(lead) == 1
    best_i, best_units, best_ruff = 0, lead, False
    for i in range(1, len(plays)):
        cards = plays[i]
        if len(cards) != len(lead_cards) or not cards:
            continue
        e = eff[cards[0]]
        if e == suit:
            if not single or best_ruff:
                continue
        elif not (e == TRUMP and suit != TRUMP):
            continue
        if any(eff[c] != e for c in cards):
            continue
        cv = cover(shape, cards, order)
        if cv is None:
            continue
        ruff = e != suit
        if (ruff and not best_ruff) or compare_covers(cv, best_units, lead, ruleset.throw_compare):
            best_i, best_units, best_ruff = i, cv, ruff
        elif ruleset.throw_compare == "all_units" and ruff == best_ruff:
            # shengji.io: any reading of the play that beats every unit wins (♣66 + ♣2 ♣2
            # beats ♣55 + ♣A + ♠2 though the reading ♣22 + ♣6 ♣6 does not)
            for alt in all_covers(shape, cards, order):
                if compare_covers(alt, best_units, lead, "all_units"):
                    best_i, best_units, best_ruff = i, alt, ruff
                    break
    return Winner(best_i, tuple(best_units), best_ruff)


def explain_beat(winner: Sequence[Unit], loser_cards: Sequence[int], lead: Sequence[Unit], order: Order,
                 ruleset) -> str:
    """Why the ``winner`` units (a trick's winning play, read as the lead's
    structure) beat the play ``loser_cards``: each unit against its match, as
    ``throw_compare`` compares them; empty when there is nothing to say (the
    loser's play does not have the lead's structure, or a one-unit lead)."""
    if len(lead) < 2:
        return ""
    shape = [u.shape for u in lead]
    mine = cover(shape, loser_cards, order)
    if mine is None:
        return ""
    policy = ruleset.throw_compare
    pairs = []
    by_shape: dict[tuple[int, int], tuple[list[Unit], list[Unit]]] = {}
    for u in winner:
        by_shape.setdefault(u.shape, ([], []))[0].append(u)
    for u in mine:
        by_shape.setdefault(u.shape, ([], []))[1].append(u)
    for a, b in by_shape.values():
        for x, y in zip(sorted(a, key=lambda u: -u.top), sorted(b, key=lambda u: -u.top)):
            pairs.append(f"{unit_text(x, order)} beats {unit_text(y, order)}" if x.top > y.top
                         else f"{unit_text(x, order)} against {unit_text(y, order)}")
    rule = {"all_units": "every unit must beat its match (all_units)",
            "largest_unit": "the largest unit decides (largest_unit)",
            "highest_card": "the highest card decides (highest_card)"}.get(policy, policy)
    return f"{'; '.join(pairs)}: {rule}"
