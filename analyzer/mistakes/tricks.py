"""Questions about one trick in progress, answered by the engine
(:func:`replay.trick.trick_winner`, :func:`replay.legal.legal_follows`,
:func:`replay.legal.is_legal_follow`): who is winning so far, can a player
still beat it, and the least / most points a player's legal follows carry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from math import comb

from replay.cards import POINTS
from replay.legal import is_legal_follow, legal_follows, multisets
from replay.order import TRUMP, Order
from replay.trick import lead_suit, trick_winner

Play = tuple[int, ...]
#: above this many fills, the extremes of a void player's follows are read
#: from the sorted point values instead of enumerating every fill
_ENUMERATE_FILLS = 4000


def winning_index(plays: Sequence[Sequence[int]], order: Order, ruleset) -> int:
    """Index of the play winning the (partial) trick ``plays`` so far."""
    return trick_winner([tuple(p) for p in plays], order, ruleset).index


def beating_follow(plays: Sequence[Sequence[int]], holding: Mapping[int, int], order: Order,
                   ruleset) -> Play | None:
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
                    ruleset) -> tuple[Play, Play]:
    """A legal follow with the fewest points and one with the most."""
    lead = tuple(lead)
    n = len(lead)
    suit = lead_suit(lead, order)
    eff = order.eff
    hold = Counter({c: k for c, k in holding.items() if k > 0})
    in_suit = sorted(c for c, k in hold.items() if eff[c] == suit for _ in range(k))
    others = [c for c, k in hold.items() if eff[c] != suit for _ in range(k)]
    if len(in_suit) < n and comb(len(others), n - len(in_suit)) > _ENUMERATE_FILLS:
        # a player short of the led suit plays all of it and fills with any
        # cards (legal_follows enumerates exactly these): the extremes are the
        # fills with the fewest and the most points
        by_points = sorted(others, key=lambda c: (POINTS[c], c))
        k = n - len(in_suit)
        low = tuple(sorted(in_suit + by_points[:k]))
        high = tuple(sorted(in_suit + by_points[len(by_points) - k:]))
        return low, high
    follows = legal_follows(lead, hold, order, ruleset)
    low = min(follows, key=lambda p: sum(POINTS[c] for c in p))
    high = max(follows, key=lambda p: sum(POINTS[c] for c in p))
    return tuple(low), tuple(high)


def team_certain(plays: Sequence[Sequence[int]], seats_after: Sequence[tuple[str, Mapping[int, int]]],
                 order: Order, ruleset) -> bool:
    """No player in ``seats_after`` (seat, holding) can beat the best of ``plays``."""
    return all(beating_follow(plays, h, order, ruleset) is None for _, h in seats_after)
