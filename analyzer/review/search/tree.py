"""The solver's state and the alpha-beta loop over lean nodes: the root, the
trick starts (the transposition table), the nodes inside a trick, the caches'
limits, and the crossing to the native search when it is in use."""

from __future__ import annotations

from typing import Any

from analyzer.review.search.moves import Moves
from analyzer.review.search.position import (
    INF,
    Hands,
    Play,
    Reps,
    SearchBudgetExceeded,
    TableKey,
    minus,
)
from primitives.cards import POINTS
from replay import native
from replay.order import Order
from replay.ruleset import Ruleset
from replay.scoring import team_of
from replay.seats import SEATS as SEAT_ORDER

#: entries of the move and position caches (about 1 kB each) before they are emptied
CACHE_LIMIT = 150_000
#: entries of the transposition table before it is emptied
TABLE_LIMIT = 400_000
#: the limits are checked every TRIM_MASK + 1 nodes
TRIM_MASK = 0xFFF


class Tree(Moves):
    """The search proper of :class:`analyzer.review.search.Solver` (its constructor too)."""

    def __init__(self, order: Order, ruleset: Ruleset, dealer: str, kitty_points: int = 0,
                 objective: str = "points", max_nodes: int | None = None) -> None:
        if objective not in ("points", "last_trick"):
            raise ValueError(f"unknown objective {objective!r}")
        self.order = order
        self.ruleset = ruleset
        self.dealer = dealer
        self.kitty_points = kitty_points
        self.objective = objective
        dealers = team_of(dealer)
        #: per seat index: True for the attackers (the maximising side)
        self.attacker = tuple(team_of(s) != dealers for s in SEAT_ORDER)
        #: nodes visited so far (all questions asked of this solver)
        self.nodes = 0
        #: the node budget of one question (:meth:`value`, :meth:`best_move`):
        #: :class:`SearchBudgetExceeded` is raised when it runs out
        self.max_nodes = INF if max_nodes is None else max_nodes
        #: an absolute cap on :attr:`nodes` over all questions (None: none)
        self.node_limit: int | None = None
        self._limit = INF
        self._tt: dict[TableKey, tuple[int, int, Play | None]] = {}
        self._follow_cache: dict[tuple[Play, tuple[int, ...]], list[Play]] = {}
        self._unit_leads: dict[tuple[int, ...], list[Play]] = {}
        self._throw_cands: dict[tuple[int, tuple[tuple[int, tuple[int, ...]], ...]], list[tuple[Play, int]]] = {}
        self._stands: dict[tuple[Play, Hands], bool] = {}
        self._leads: dict[tuple[Hands, int], list[Play]] = {}
        self._winner: dict[tuple[Play, ...], tuple[int, int, int]] = {}
        self._max_mult: dict[tuple[int, tuple[int, int, int, int, int]], int] = {}
        self._mult_bound: dict[int, tuple[int, int]] = {}
        self._analysis: dict[Hands, tuple[tuple[tuple[int, ...], ...], Reps]] = {}
        #: a card's (effective suit, strength) as one int: suit * 128 + key
        self._rank = tuple(order.eff[c] * 128 + order.key[c] for c in range(len(order.key)))
        self._follow_distinct: dict[tuple[Play, tuple[int, ...], tuple[tuple[int, int], ...]], list[Play]] = {}
        self._partial: dict[tuple[Play, ...], int] = {}
        self._suit_cards: dict[Play, Any] = {}
        #: the leader's sure rounds bound a trick start (``Tables._sure_rounds``); not where a
        #: single lead is followed otherwise than by its effective suit, nor under shengji.io's
        #: reading of leads and follows
        self._sure_bound = (objective == "points" and ruleset.follow_suit == "effective"
                            and ruleset.follow_policy != "shengji_io" and ruleset.unit_split != "shengji_io")
        #: the native search of this hand (``replay.native``), or None: the tree is walked here
        self._native = self._native_solver()

    def _native_solver(self) -> Any:
        """The extension's search for this hand when it is in use and knows the ruleset
        (the same tree, move for move and node for node), else None."""
        rules = native.rules_for(self.order, self.ruleset)
        if rules is None:
            return None
        mod = native.module()
        assert mod is not None
        return mod.NativeSolver(rules, list(self.attacker), int(self.kitty_points), self.objective == "last_trick",
                                TABLE_LIMIT, TRIM_MASK, CACHE_LIMIT)

    @property
    def engine(self) -> str:
        """``native`` or ``python``: which search walks this solver's tree."""
        return "python" if self._native is None else "native"

    def _start_hands(self, hands: Hands, leader: int, plays: tuple[Play, ...]) -> Hands:
        if not plays:
            return hands
        hs = list(hands)
        for k, p in enumerate(plays):
            i = (leader + k) % 4
            hs[i] = tuple(sorted(hs[i] + p))
        return tuple(hs)

    def _root(self, hands: Hands, leader: int, plays: tuple[Play, ...], alpha: int, beta: int) -> int:
        if self._native is not None and crossable(hands, leader, plays):
            v, self.nodes, exceeded = self._native.search(hands, leader, plays, alpha, beta, self.nodes,
                                                          max(self._limit, 0))
            if exceeded:
                raise SearchBudgetExceeded("the search ran out of its node budget")
            return int(v)
        if not plays:
            return self._trick_start(hands, leader, alpha, beta)
        reps = self._trick_reps(self._start_hands(hands, leader, plays))
        return self._node(hands, leader, plays, alpha, beta, reps, None)

    def _trick_start(self, hands: Hands, leader: int, alpha: int, beta: int) -> int:
        """Value of a trick-start position (fail-soft alpha-beta; bounds in the table)."""
        if len(hands[leader]) == 1:
            # the last trick, one card each: nothing to choose
            self.nodes += 1
            plays = tuple((h[0],) for h in hands[leader:] + hands[:leader])
            w, pts, mult = self._trick(plays)
            return self._gain(self.attacker[(leader + w) % 4], True, pts, mult)
        pts = left = 0
        if self.objective == "points":
            # the value lies between 0 and the points still held (+ the most the
            # kitty can be worth with plays of this many cards; and, when that
            # would decide, with the units the hands can still form)
            pts = 0
            for h in hands:
                for c in h:
                    pts += POINTS[c]
            left = pts
            if self.kitty_points:
                n = len(hands[leader])
                most, singles = self._mult_bounds(n)
                left += self.kitty_points * most
                if left > alpha and pts + self.kitty_points * singles <= alpha:
                    left = pts + self.kitty_points * self._max_multiplier_held(hands, n)
            if left <= alpha or left == 0:
                return left
            if beta <= 0:
                return 0
        tt_key = self._canon(hands, leader)
        e = self._tt.get(tt_key)
        first = None
        if e is not None:
            lo, hi, first = e
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        if self._sure_bound and (beta <= pts or not self.attacker[leader]):
            # the points the leader's side surely takes bound the value from below (the
            # attackers lead: at most every point held, so asked only when that could decide)
            # or from above (the defenders do)
            sure, every = self._sure_rounds(hands, leader)
            if self.attacker[leader]:
                lo = pts if every else sure
                if lo >= beta:
                    return lo
            else:
                hi = 0 if every else left - sure
                if hi <= alpha:
                    return hi
        return self._node(hands, leader, (), alpha, beta, self._trick_reps(hands), first, tt_key)

    def _trim(self) -> None:
        """Bound the memory: the caches are rebuilt on demand, and the table only
        speeds the search up, so each is emptied when it grows past its limit."""
        if len(self._analysis) + len(self._leads) > CACHE_LIMIT:
            for cache in (self._analysis, self._leads, self._partial, self._winner, self._follow_cache,
                          self._follow_distinct, self._stands, self._unit_leads, self._throw_cands,
                          self._suit_cards):
                cache.clear()
        if len(self._tt) > TABLE_LIMIT:
            self._tt.clear()
        if self._native is not None:
            self._native.trim(TABLE_LIMIT, CACHE_LIMIT)

    def _node(self, hands: Hands, leader: int, plays: tuple[Play, ...], alpha: int, beta: int,
              reps: Reps, first: Play | None, tt_key: TableKey | None = None) -> int:
        self.nodes += 1
        if self.nodes > self._limit:
            raise SearchBudgetExceeded("the search ran out of its node budget")
        if not self.nodes & TRIM_MASK:
            self._trim()
        k = len(plays)
        seat = (leader + k) % 4
        maxi = self.attacker[seat]
        hand = hands[seat]
        if k == 0:
            moves = self._lead_moves(hands, seat)
            if first is not None and moves[0] != first and first in moves:
                moves = [first] + [m for m in moves if m != first]
        else:
            moves = self._follow_moves(plays[0], hand, reps[seat])
            if len(moves) > 1:
                moves = self._ordered_follows(moves, leader, plays, seat)
                # a node with many moves costs more: charge the budget for it
                self.nodes += len(moves) >> 4
        a0, b0 = alpha, beta
        best = -INF if maxi else INF
        best_move = None
        pvs = False
        for m in moves:
            nh = hands[:seat] + (minus(hand, m),) + hands[seat + 1:]
            np = plays + (m,)
            g = 0
            if k == 3:
                w, pts, mult = self._trick(np)
                wseat = (leader + w) % 4
                att = self.attacker[wseat]
                if not nh[wseat]:
                    v = self._gain(att, True, pts, mult)
                    pvs = False
                else:
                    g = self._gain(att, False, pts, mult)
                    pvs = True
            if k != 3 or pvs:
                # principal variation search: after the first move, a null window
                # proves the move no better; re-search only when it is
                if best_move is None or beta - alpha <= 1:
                    v = (g + self._trick_start(nh, wseat, alpha - g, beta - g) if k == 3
                         else self._node(nh, leader, np, alpha, beta, reps, None))
                elif maxi:
                    v = (g + self._trick_start(nh, wseat, alpha - g, alpha - g + 1) if k == 3
                         else self._node(nh, leader, np, alpha, alpha + 1, reps, None))
                    if alpha < v < beta:
                        v = (g + self._trick_start(nh, wseat, v - g, beta - g) if k == 3
                             else self._node(nh, leader, np, v, beta, reps, None))
                else:
                    v = (g + self._trick_start(nh, wseat, beta - g - 1, beta - g) if k == 3
                         else self._node(nh, leader, np, beta - 1, beta, reps, None))
                    if alpha < v < beta:
                        v = (g + self._trick_start(nh, wseat, alpha - g, v - g) if k == 3
                             else self._node(nh, leader, np, alpha, v, reps, None))
            if maxi:
                if v > best:
                    best, best_move = v, m
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best, best_move = v, m
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        if k == 0:
            if tt_key is None:
                tt_key = self._canon(hands, leader)
            lo, hi = -INF, INF
            e = self._tt.get(tt_key)
            if e is not None:
                lo, hi = e[0], e[1]
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self._tt[tt_key] = (lo, hi, best_move)
        return best


def crossable(hands: Hands, leader: int, plays: tuple[Play, ...]) -> bool:
    """May this position cross to the native search? (Validated here, not there: four
    holdings of card ints, a leader 0..3, at most three plays of the lead's size, and the
    holdings of one size at the trick's start, as every position of a hand has.)"""
    if len(hands) != 4 or not 0 <= leader <= 3 or len(plays) > 3:
        return False
    n = len(plays[0]) if plays else 0
    size = len(hands[leader]) + n
    for k in range(4):
        h = hands[(leader + k) % 4]
        if k < len(plays):
            if len(plays[k]) != n or not native.valid_cards(plays[k]):
                return False
            if len(h) + n != size:
                return False
        elif len(h) != size:
            return False
        if not native.valid_cards(h):
            return False
    return size > 0
