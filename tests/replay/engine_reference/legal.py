# ruff: noqa
# mypy: ignore-errors
"""Legal plays of a seat in a position: the engine API that bots, the
generator and the endgame search use (they never re-implement a rule).

Holdings are ``Counter``-like maps card → count. Plays are tuples of cards.
Enumeration yields distinct multisets only (two copies of ♠A are one choice).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from math import comb

from primitives.cards import POINTS
from .order import TRUMP, Order
from .trick import (
    check_follow,
    check_follow_printed,
    lead_suit,
    printed_suit,
    trick_winner,
)
from .units import Unit, _runs, _sub_runs, decompose


def multisets(holding: Mapping[int, int], k: int) -> Iterator[tuple[int, ...]]:
    """Every distinct sub-multiset of ``holding`` with ``k`` cards (cards ascending)."""
    items = sorted((c, n) for c, n in holding.items() if n > 0)
    suffix = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + items[i][1]
    out: list[int] = []

    def rec(i: int, need: int) -> Iterator[tuple[int, ...]]:
        if need == 0:
            yield tuple(out)
            return
        if i == len(items) or suffix[i] < need:
            return
        c, n = items[i]
        for take in range(min(n, need), -1, -1):
            out.extend([c] * take)
            yield from rec(i + 1, need - take)
            if take:
                del out[-take:]

    yield from rec(0, k)


def legal_follows(lead: Sequence[int], holding: Mapping[int, int], order: Order, ruleset,
                  limit: int | None = None) -> list[tuple[int, ...]]:
    """Every legal follow (distinct multisets) to the played ``lead``.

    ``limit`` caps the number returned (the enumeration can be large when a
    player cannot follow and may discard any cards).
    """
    if ruleset.follow_suit == "printed":
        return _printed_follows(lead, holding, order, limit)
    suit = lead_suit(lead, order)
    n = len(lead)
    eff = order.eff
    in_suit = Counter({c: k for c, k in holding.items() if k > 0 and eff[c] == suit})
    others = Counter({c: k for c, k in holding.items() if k > 0 and eff[c] != suit})
    have = sum(in_suit.values())
    out: list[tuple[int, ...]] = []
    if have >= n:
        units = decompose(lead, order)
        for play in multisets(in_suit, n):
            if check_follow(units, suit, in_suit, play, order, ruleset) is None:
                out.append(play)
                if limit is not None and len(out) >= limit:
                    break
        return out
    base = tuple(sorted(in_suit.elements()))
    for fill in multisets(others, n - have):
        out.append(base + fill)
        if limit is not None and len(out) >= limit:
            break
    return out


def _printed_class(lead: Sequence[int], order: Order):
    """``follow_suit: printed``: the test "this card follows ``lead``" (see
    :func:`replay.follow.check_follow_printed`)."""
    psuit = printed_suit(lead, order)
    level, two = order.level, order.two_is_trump

    def ours(c: int) -> bool:
        if psuit is None or c >= 52 or c // 13 != psuit:
            return False
        r = c % 13 + 2
        return r != level and not (two and r == 2)
    return psuit, ours


def _printed_follows(lead: Sequence[int], holding: Mapping[int, int], order: Order,
                     limit: int | None) -> list[tuple[int, ...]]:
    """:func:`legal_follows` under ``follow_suit: printed`` (see :func:`replay.follow.check_follow_printed`)."""
    n = len(lead)
    psuit, ours = _printed_class(lead, order)
    hold = {c: k for c, k in holding.items() if k > 0}
    mine = Counter({c: k for c, k in hold.items() if ours(c)})
    others = Counter({c: k for c, k in hold.items() if not ours(c)})
    have = sum(mine.values())
    out: list[tuple[int, ...]] = []
    if have >= n:
        units = decompose(lead, order) if lead_suit(lead, order) is not None else []
        for play in multisets(mine, n):
            if check_follow_printed(units, psuit, (hold,), play, order, n) is None:
                out.append(play)
                if limit is not None and len(out) >= limit:
                    break
        return out
    base = tuple(sorted(mine.elements()))
    for fill in multisets(others, n - have):
        out.append(base + fill)
        if limit is not None and len(out) >= limit:
            break
    return out


def is_legal_follow(lead: Sequence[int], holding: Mapping[int, int], play: Sequence[int],
                    order: Order, ruleset) -> bool:
    if len(play) != len(lead) or Counter(play) - Counter(holding):
        return False
    if ruleset.follow_suit == "printed":
        units = decompose(lead, order) if lead_suit(lead, order) is not None else []
        return check_follow_printed(units, printed_suit(lead, order), (dict(holding),), play, order,
                                    len(lead)) is None
    suit = lead_suit(lead, order)
    return check_follow(decompose(lead, order), suit, Counter(holding), play, order, ruleset) is None


def single_unit_leads(holding: Mapping[int, int], order: Order) -> list[Unit]:
    """Every distinct single-unit lead: singles, tuples (w ≤ copies held) and
    tractors of every width and length the holding allows."""
    eff, key = order.eff, order.key
    out: list[Unit] = []
    by_suit: dict[int, dict[int, int]] = {}
    for c, n in holding.items():
        if n > 0:
            by_suit.setdefault(eff[c], {})[c] = n
    for suit_cards in by_suit.values():
        for c, n in suit_cards.items():
            for w in range(1, n + 1):
                out.append(Unit(w, 1, key[c], (c,) * w))
        top = max(suit_cards.values())
        for w in range(2, top + 1):
            longest = 0
            for run in _runs(suit_cards, key, w):
                longest = max(longest, len(run))
            for length in range(2, longest + 1):
                for run in _sub_runs(suit_cards, key, w, length):
                    out.append(Unit(w, length, key[run[-1]],
                                    tuple(c for c in reversed(run) for _ in range(w))))
    return out


# -- building one legal follow directly (bots, the generator) -------------------------

def build_follow(lead: Sequence[int], holding: Mapping[int, int], order: Order, ruleset,
                 prefer=None, units: Sequence[Unit] | None = None) -> tuple[int, ...]:
    """One legal follow to ``lead``, built directly instead of enumerated.

    ``prefer(card) -> sortable`` ranks the cards the caller would rather give
    up (smallest first; default: lowest strength). The play is built the way
    §6 "Following" reads: every card of the led suit when short of it (filled
    with the most preferred other cards); otherwise the lead's tractors, then
    its tuples widest first (an unmet w-tuple falls back to a (w-1)-tuple), then
    singles, each time taking the most preferred cards of the led suit. The
    result is checked with :func:`replay.follow.check_follow`; when the greedy
    choice misses an obligation (``follow_policy: strict``, Titanic fallbacks)
    the most preferred play among :func:`legal_follows` is returned instead.
    ``units``: ``decompose(lead, order)`` when the caller has it already.
    """
    eff, key = order.eff, order.key
    if prefer is None:
        def prefer(c: int) -> int:
            return key[c]
    if ruleset.follow_suit == "printed":
        return _printed_build(lead, holding, order, prefer, units)
    n = len(lead)
    suit = eff[lead[0]] if n == 1 else lead_suit(lead, order)
    in_suit = {c: k for c, k in holding.items() if k > 0 and eff[c] == suit}
    if n == 1 and in_suit:
        return (min(in_suit, key=prefer),)
    have = sum(in_suit.values())
    if have <= n:
        base = sorted(c for c, k in in_suit.items() for _ in range(k))
        if have == n:
            return tuple(base)
        others = sorted((c for c, k in holding.items() if k > 0 and eff[c] != suit
                         for _ in range(k)), key=prefer)
        return tuple(base + others[:n - have])
    if units is None:
        units = decompose(lead, order)
    rem = Counter(in_suit)
    out: list[int] = []

    def take(cards: Sequence[int]) -> None:
        for c in cards:
            rem[c] -= 1
            if not rem[c]:
                del rem[c]
        out.extend(cards)

    demand: dict[int, int] = {}
    for u in units:
        if u.width >= 2:
            demand[u.width] = demand.get(u.width, 0) + u.length
    for u in units:
        if u.length < 2:
            continue
        runs = _sub_runs(rem, key, u.width, u.length)
        if runs:
            run = min(runs, key=lambda r: sorted(prefer(c) for c in r))
            take([c for c in run for _ in range(u.width)])
            demand[u.width] -= u.length
    for w in range(max(demand, default=1), 1, -1):
        need = demand.get(w, 0)
        while need > 0:
            cands = [c for c, k in rem.items() if k >= w]
            if not cands:
                break
            take([min(cands, key=lambda c: (rem[c] > w, prefer(c)))] * w)
            need -= 1
        if need > 0 and w > 2:
            demand[w - 1] = demand.get(w - 1, 0) + need
    if len(out) < n:
        # singles: the most preferred cards left (``prefer`` may charge for breaking a tuple)
        rest = sorted(rem.elements(), key=prefer)
        out.extend(rest[:n - len(out)])
    play = tuple(out[:n])
    if check_follow(units, suit, in_suit, play, order, ruleset) is None:
        return play
    legal = legal_follows(lead, holding, order, ruleset, limit=64)
    return min(legal, key=lambda p: sorted(prefer(c) for c in p))


def _printed_build(lead: Sequence[int], holding: Mapping[int, int], order: Order, prefer,
                   units: Sequence[Unit] | None) -> tuple[int, ...]:
    """:func:`build_follow` under ``follow_suit: printed``: the cards of the
    printed suit asked for (pairs first when the lead has pairs), filled with
    the most preferred other cards."""
    n = len(lead)
    psuit, ours = _printed_class(lead, order)
    if units is None:
        units = decompose(lead, order) if lead_suit(lead, order) is not None else []
    hold = Counter({c: k for c, k in holding.items() if k > 0})
    mine = sorted((c for c in hold.elements() if ours(c)), key=prefer)
    if len(mine) <= n:
        rest = hold - Counter(mine)
        play = tuple(mine + sorted(rest.elements(), key=prefer)[:n - len(mine)])
    else:
        want = sum(u.length for u in units if u.width >= 2)
        pairs = sorted((c for c, k in Counter(mine).items() if k >= 2), key=prefer)[:min(want, n // 2)]
        out = [c for c in pairs for _ in range(2)]
        left = Counter(mine) - Counter(out)
        out += sorted(left.elements(), key=prefer)[:n - len(out)]
        play = tuple(out)
    if check_follow_printed(units, psuit, (dict(hold),), play, order, n) is None:
        return play
    legal = _printed_follows(lead, hold, order, 64)
    return min(legal, key=lambda p: sorted(prefer(c) for c in p))


# -- questions about a trick in progress (the mistake rules ask them) ---------------------

#: above this many fills, the extremes of a void player's follows are read
#: from the sorted point values instead of enumerating every fill
_ENUMERATE_FILLS = 4000


def beating_follow(plays: Sequence[Sequence[int]], holding: Mapping[int, int], order: Order,
                   ruleset) -> tuple[int, ...] | None:
    """A legal follow of ``holding`` that would beat the best of ``plays`` if
    played next, else None.

    Only plays that can win at all are tried: all in the led suit (when the
    player has enough of it), or all trump when the player is void in a plain
    led suit (a play mixing suits never wins, RULES §6 "Winning"); each is
    checked with ``is_legal_follow`` and ``trick_winner``.
    """
    lead = tuple(plays[0])
    n = len(lead)
    suit = lead_suit(lead, order)
    if suit is None:
        return None
    eff = order.eff
    hold = Counter({c: k for c, k in holding.items() if k > 0})
    in_suit = Counter({c: k for c, k in hold.items() if eff[c] == suit})
    have = sum(in_suit.values())
    if have >= n:
        pool = in_suit
    elif have == 0 and suit != TRUMP:
        pool = Counter({c: k for c, k in hold.items() if eff[c] == TRUMP})
        if sum(pool.values()) < n:
            return None
    else:
        return None
    seq = [tuple(p) for p in plays]
    i = len(seq)
    for cand in multisets(pool, n):
        if trick_winner(seq + [cand], order, ruleset).index == i and is_legal_follow(lead, hold, cand, order,
                                                                                          ruleset):
            return cand
    return None


def follow_extremes(lead: Sequence[int], holding: Mapping[int, int], order: Order,
                    ruleset) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A legal follow with the fewest points and one with the most; among
    equals, the one spending the fewest trumps, then the weakest cards (never
    a level card or a joker when a plain low card carries as few points)."""
    lead = tuple(lead)
    n = len(lead)
    suit = lead_suit(lead, order)
    eff, key = order.eff, order.key

    def spend(p) -> tuple[int, int]:
        return sum(eff[c] == TRUMP for c in p), sum(key[c] for c in p)

    hold = Counter({c: k for c, k in holding.items() if k > 0})
    if ruleset.follow_suit == "printed":
        _, ours = _printed_class(lead, order)
        in_suit = sorted(c for c, k in hold.items() if ours(c) for _ in range(k))
        others = [c for c, k in hold.items() if not ours(c) for _ in range(k)]
    else:
        in_suit = sorted(c for c, k in hold.items() if eff[c] == suit for _ in range(k))
        others = [c for c, k in hold.items() if eff[c] != suit for _ in range(k)]
    if len(in_suit) < n and comb(len(others), n - len(in_suit)) > _ENUMERATE_FILLS:
        # a player short of the led suit plays all of it and fills with any
        # cards (legal_follows enumerates exactly these): the extremes are the
        # fills with the fewest and the most points
        k = n - len(in_suit)
        by_low = sorted(others, key=lambda c: (POINTS[c], eff[c] == TRUMP, key[c], c))
        by_high = sorted(others, key=lambda c: (-POINTS[c], eff[c] == TRUMP, key[c], c))
        low = tuple(sorted(in_suit + by_low[:k]))
        high = tuple(sorted(in_suit + by_high[:k]))
        return low, high
    follows = legal_follows(lead, hold, order, ruleset)
    low = min(follows, key=lambda p: (sum(POINTS[c] for c in p), *spend(p)))
    high = min(follows, key=lambda p: (-sum(POINTS[c] for c in p), *spend(p)))
    return tuple(low), tuple(high)


def shown_void(lead: Sequence[int], play: Sequence[int], order: Order, ruleset=None) -> int | None:
    """The effective suit a follow shows its player to be out of, or None.

    A follower must play as many cards of the led suit as they hold, up to
    the lead's size (RULES §6); a follow with fewer cards of that suit than
    the lead shows the player held no more of it. Under ``follow_suit:
    printed`` the obligation is by printed suit, so nothing about the
    effective suit is shown (None). Used to sample the hidden hands
    consistent with what a player has seen.
    """
    if ruleset is not None and ruleset.follow_suit == "printed":
        return None
    suit = lead_suit(lead, order)
    if suit is None:
        return None
    eff = order.eff
    return suit if sum(1 for c in play if eff[c] == suit) < len(lead) else None
