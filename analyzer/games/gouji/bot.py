"""Rule-following Gouji bots: they choose among the moves the engine allows.

The bot reads a :class:`replay.gouji.state.GoujiState` (the rules live
there) and picks an action the way club players do, with some randomness:

* lead the lowest natural set (all cards of one rank); with a head and a
  strong hand, attack the 对头 with a 够级 set (A/K/Q… padded with 2s);
* a burner leads with a joker while he is burning (or empties his hand);
* answer an opponent's set with the cheapest set that beats it (fewest 2s
  and jokers, lowest rank), but let a teammate's set stand;
* burn a 够级 play only when a joker is left to lead with afterwards;
* as the target of a play with players after him, sometimes let (让牌);
* under 憋3, keep the 3s for the very last set.
"""

from __future__ import annotations

import random

from replay.gouji.board import ASK, LET, PASS, PLAY
from replay.gouji.sets import GOUJI_THRESHOLDS, beats, info
from replay.gouji.state import GoujiState

BJ, LJ, TWO = 17, 16, 15


def _cost(ranks: tuple[int, ...]) -> int:
    return sum(1000 if r == BJ else 400 if r == LJ else 60 if r == TWO else r for r in ranks)


class GoujiBot:
    def __init__(self, rng: random.Random, *, aggression: float = 0.5) -> None:
        self.rng = rng
        self.aggression = aggression

    # -- candidate sets ------------------------------------------------------------
    @staticmethod
    def whole_hand(st: GoujiState, seat: int) -> tuple[int, ...] | None:
        """The whole hand as one set, if it is one (a finishing play)."""
        h = st.hold[seat]
        ranks = st.hand_ranks(seat)
        if not ranks:
            return None
        s = info(ranks)
        if not s.wellformed:
            return None
        if st.bie3 and s.threes and s.threes != s.n:
            return None
        return ranks if h is not None else None

    @staticmethod
    def beats_of(st: GoujiState, seat: int) -> list[tuple[int, ...]]:
        """One cheapest composition per base rank of every set that beats the top."""
        h = st.hold[seat]
        top = st.top
        assert h is not None and top is not None
        n = top.n
        out: set[tuple[int, ...]] = set()
        for bj in range(min(h[BJ], n) + 1):
            for lj in range(min(h[LJ], n - bj) + 1):
                m = n - bj - lj
                jok = (BJ,) * bj + (LJ,) * lj
                if m == 0:
                    out.add(jok)
                    continue
                if m <= h[TWO]:
                    out.add(jok + (TWO,) * m)
                for r in range(3, 15):
                    if not h[r]:
                        continue
                    if st.bie3 and r == 3:
                        continue
                    k = min(h[r], m)
                    tw = m - k
                    if tw <= h[TWO]:
                        out.add(jok + (TWO,) * tw + (r,) * k)
        res = []
        for ranks in out:
            s = info(ranks)
            if s.wellformed and beats(s, top, st.compare):
                res.append(ranks)
        res.sort(key=_cost)
        return res

    def lead_of(self, st: GoujiState, seat: int) -> tuple[int, ...]:
        h = st.hold[seat]
        assert h is not None
        whole = self.whole_hand(st, seat)
        if whole is not None:
            return whole
        burning = seat in st.burning
        low = [r for r in range(3, 15) if h[r] and not (st.bie3 and r == 3)]
        if burning and (h[LJ] or h[BJ]):
            j = LJ if h[LJ] else BJ
            if low:
                r = low[0]
                return (j,) + (r,) * h[r]
            return (j,)
        if st.has_head(seat) and not st.chaos() and self.rng.random() < self.aggression:
            # attack: a 够级 set of the highest rank that reaches its threshold (with 2s)
            for r in range(14, 9, -1):
                need = GOUJI_THRESHOLDS[r]
                if h[r] and h[r] + h[TWO] >= need and (h[r] < need or self.rng.random() < 0.7):
                    tw = max(0, need - h[r])
                    if tw <= h[TWO] and (tw == 0 or self.rng.random() < 0.6):
                        return (TWO,) * tw + (r,) * h[r]
        if low:
            r = low[0] if self.rng.random() < 0.8 else self.rng.choice(low)
            return (r,) * h[r]
        if h[TWO]:
            return (TWO,) * h[TWO]
        if h[LJ]:
            return (LJ,) * h[LJ]
        if h[BJ]:
            return (BJ,) * h[BJ]
        # only 3s left under bie3: the whole hand (handled above); fall back to anything
        return (3,) * h[3]

    # -- the choice ----------------------------------------------------------------
    def choose(self, st: GoujiState) -> tuple[int, str, tuple[int, ...]]:
        seat = st.to_act()
        if st.phase != ASK:
            return seat, PLAY, self.lead_of(st, seat)
        h = st.hold[seat]
        assert h is not None
        owner = st.owner
        cands = self.beats_of(st, seat)
        whole = self.whole_hand(st, seat)
        if whole is not None and whole in cands:
            return seat, PLAY, whole
        rng = self.rng
        if st.can_let(seat) and rng.random() < 0.25:
            return seat, LET, ()
        if not cands:
            return seat, PASS, ()
        mate = owner & 1 == seat & 1
        if mate and rng.random() < 0.9:
            return seat, PASS, ()
        would_burn = (st.top_gouji and seat != st.target and st.has_head(seat)
                      and seat not in st.let_after)
        choice = None
        for ranks in cands:
            if would_burn:
                left_jokers = h[LJ] + h[BJ] - sum(1 for r in ranks if r >= LJ)
                left = sum(h) - len(ranks)
                if left and (left_jokers < 1 or (left_jokers < 2 and left > 8)):
                    continue  # a burner must lead with a joker until he is out
            choice = ranks
            break
        if choice is None:
            return seat, PASS, ()
        spend = sum(1 for r in choice if r >= TWO)
        keen = 0.85 if not spend else 0.55 if spend == 1 else 0.35
        if st.top_gouji and seat == st.target:
            keen = max(keen, 0.7)  # defend against a 够级 play
        if rng.random() < keen:
            return seat, PLAY, choice
        return seat, PASS, ()


__all__ = ["GoujiBot"]
