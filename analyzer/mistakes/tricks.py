"""Questions about one trick in progress, answered by the engine: who is
winning so far (:func:`replay.trick.trick_winner`), can a player still beat it
(:func:`replay.legal.beating_follow`), and the least / most points a player's
legal follows carry (:func:`replay.legal.follow_extremes`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from replay.legal import beating_follow, follow_extremes
from replay.order import Order
from replay.trick import trick_winner

__all__ = ["winning_index", "beating_follow", "follow_extremes", "team_certain"]


def winning_index(plays: Sequence[Sequence[int]], order: Order, ruleset) -> int:
    """Index of the play winning the (partial) trick ``plays`` so far."""
    return trick_winner([tuple(p) for p in plays], order, ruleset).index


def team_certain(plays: Sequence[Sequence[int]], seats_after: Sequence[tuple[str, Mapping[int, int]]],
                 order: Order, ruleset) -> bool:
    """No player in ``seats_after`` (seat, holding) can beat the best of ``plays``."""
    return all(beating_follow(plays, h, order, ruleset) is None for _, h in seats_after)
