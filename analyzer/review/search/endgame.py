"""The exact endgame move of an omniscient bot (:class:`analyzer.play.strong.StrongBot`'s search).

:class:`ExactEndgame` answers, for the real position of a four-seat,
fixed-partner hand, a best move of the seat to play: the bot's own proposal
when its exact value (:meth:`Solver.play_value`, a failed throw as the engine
plays it) is the position's value, else the solver's cheapest best move
(:meth:`Solver.cheapest_best`). One :class:`Solver` serves every question
of a hand (its transposition table stays valid for the whole hand), under a
node budget per question: a cut search answers None.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from analyzer.review.search.position import SearchBudgetExceeded
from analyzer.review.search.solver import Solver
from replay.state import HandState, IllegalPlay

#: the node budget of one question (a cut search keeps the bot's move)
ENDGAME_NODES = 200_000


class ExactEndgame:
    """A best move of the seat to play, exactly (see the module doc)."""

    def __init__(self, max_nodes: int = ENDGAME_NODES) -> None:
        self.max_nodes = max_nodes
        #: the hand's state and its solver (the state is held, so its id is never another hand's)
        self._state: HandState | None = None
        self._solver: Solver | None = None

    def solver(self, state: HandState) -> Solver:
        """The solver of ``state``'s hand (one per hand: the generator plays a hand on one state)."""
        if self._solver is None or self._state is not state:
            self._state, self._solver = state, Solver.for_state(state, max_nodes=self.max_nodes)
        return self._solver

    def __call__(self, state: HandState, proposal: Sequence[int]) -> tuple[int, ...] | None:
        s = self.solver(state)
        try:
            target = s.value(state)
            if s.play_value(state, proposal) == target:
                return tuple(proposal)
            return s.cheapest_best(state, target)[0]
        except SearchBudgetExceeded:
            return None





class ViewEndgame(ExactEndgame):
    """A best move of the seat to play **from its own view** (perfect-information
    Monte Carlo, as the review judges it: :mod:`analyzer.review.mistakes.pov`).

    The cards the seat cannot see (the other seats' holdings and, for all but
    the dealer who buried it, the kitty) are dealt again ``samples`` times at
    random, consistently with the hand sizes and the suits each seat has shown
    to be out of (a sampled deal where the current trick's throw would not have
    stood is drawn again); each candidate move (the state's moves and the
    proposal) is valued exactly in every deal (:meth:`Solver.play_value`, a
    throw as the engine plays it there), and the move with the best average for
    the seat's side is played: the proposal when its average is the best. A
    simpler sampler than the review's (it does not pin cards shown in
    declarations nor read earlier throws). Deterministic: the deals are drawn
    from a seed made of the position. None (keep the proposal) when fewer than
    half the deals are solved within the node budget.
    """

    def __init__(self, max_nodes: int = ENDGAME_NODES, samples: int = 16, seed: int = 0) -> None:
        super().__init__(max_nodes)
        self.samples = samples
        self.seed = seed
        self._by_kitty: dict[int, Solver] = {}

    def _solver_for(self, state: HandState, kitty_points: int) -> Solver:
        if self._state is not state:
            self._state, self._by_kitty = state, {}
        s = self._by_kitty.get(kitty_points)
        if s is None:
            s = self._by_kitty[kitty_points] = Solver(state.order, state.ruleset, state.dealer, kitty_points,
                                                      max_nodes=self.max_nodes)
        return s

    def __call__(self, state: HandState, proposal: Sequence[int]) -> tuple[int, ...] | None:


        seat = state.turn
        proposal = tuple(sorted(proposal))
        real = self.solver(state)
        cands = [tuple(sorted(m)) for m in real.moves(state)]
        if proposal not in cands:
            cands.append(proposal)
        if len(cands) == 1:
            return proposal
        key = (self.seed, state.seats.index(seat), state.trick_number, len(state.plays), tuple(sorted(state.holding(seat).elements())))
        rng = random.Random(hash(key))
        sums = [0] * len(cands)
        solved = 0
        maxi = not state.defends(seat)
        for st, kp in view_deals(state, seat, rng, self.samples):
            sv = self._solver_for(state, kp)
            try:
                vals = [sv.play_value(st, m) for m in cands]
            except SearchBudgetExceeded:
                continue
            solved += 1
            sums = [a + b for a, b in zip(sums, vals, strict=True)]
        if solved * 2 < self.samples:
            return None
        best = max(sums) if maxi else min(sums)
        i = cands.index(proposal)
        if sums[i] == best:
            return proposal
        return min((m for m, v in zip(cands, sums, strict=True) if v == best), key=real.cheap_key)


def view_deals(state: HandState, seat: str, rng: random.Random, n: int) -> Iterator[tuple[HandState, int]]:
    """``n`` draws of the cards ``seat`` has not seen in ``state`` (the other seats' holdings and,
    but for the dealer who buried it, the kitty: :func:`_deal`, hand sizes and shown voids kept),
    each as a position (this trick's plays so far played again) and its kitty's points; a draw
    that runs into a dead end, or where a throw of this trick would not stand, is skipped."""
    from collections import Counter

    from primitives.cards import points
    from replay.deck import deck_cards

    unseen = Counter(deck_cards(state.ruleset))
    for t in state.tricks:
        for _, cards in t.plays:
            unseen.subtract(cards)
    for _, cards in state.plays:
        unseen.subtract(cards)
    unseen.subtract(state.holding(seat))
    others = [s for s in state.seats if s != seat]
    sizes = {s: sum(state.holding(s).values()) for s in others}
    kitty_real = Counter(unseen)
    for s in others:
        kitty_real.subtract(state.holding(s))
    kitty_real = +kitty_real
    if seat == state.dealer:        # the dealer buried the kitty: it is known
        unseen.subtract(kitty_real)
    else:
        sizes["kitty"] = sum(kitty_real.values())
    pool = sorted((+unseen).elements())
    voids = {s: state.shown_voids(s) for s in others}
    for _ in range(n):
        deal = _deal(pool, sizes, voids, state.order.eff, rng)
        if deal is None:
            continue
        kitty = deal.pop("kitty", None)
        kp = state.kitty_points if kitty is None else points(kitty)
        hands = {s: deal[s] for s in others}
        hands[seat] = list(state.holding(seat).elements())
        for s, cards in state.plays:
            hands[s] = hands[s] + list(cards)     # this trick's plays so far, played again below
        st = HandState(state.ruleset, state.order, hands, leader=state.leader, dealer=state.dealer,
                       kitty_points=kp, teams=state.teams)
        try:
            for _, cards in state.plays:
                st.push(cards, check=False)
                if st.attempted is not None:    # a throw that stood would fail in this deal
                    raise IllegalPlay("the deal disagrees with a throw")
        except IllegalPlay:
            continue
        yield st, kp


def _deal(pool: Sequence[int], sizes: dict[str, int], voids: dict[str, frozenset[int]], eff: Sequence[int],
          rng: random.Random) -> dict[str, list[int]] | None:
    """``pool`` dealt at random into ``sizes`` (a seat gets no card of a suit it is void in;
    the kitty takes any), or None when the draw runs into a dead end (a few tries)."""
    for _ in range(8):
        cards = list(pool)
        rng.shuffle(cards)
        # the most constrained cards first: those fewest slots may take
        left = dict(sizes)
        out: dict[str, list[int]] = {s: [] for s in sizes}
        ok = True
        cards.sort(key=lambda c: sum(1 for s in sizes if s == "kitty" or eff[c] not in voids[s]))
        for c in cards:
            slots = [s for s in sizes if left[s] and (s == "kitty" or eff[c] not in voids[s])]
            if not slots:
                ok = False
                break
            weights = [left[s] for s in slots]
            r = rng.random() * sum(weights)
            pick = slots[-1]
            for slot, w in zip(slots, weights, strict=True):
                r -= w
                if r < 0:
                    pick = slot
                    break
            out[pick].append(c)
            left[pick] -= 1
        if ok:
            return out
    return None
__all__ = ["ENDGAME_NODES", "ExactEndgame", "ViewEndgame", "view_deals"]
