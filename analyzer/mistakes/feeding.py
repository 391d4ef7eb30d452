"""SJ604 (points fed), SJ605 (points withheld), SJ606 (ruffed partner):
point cards and trumps spent on a trick whose winner was already certain.

"Certain" is exact: all four hands are known, and no player still to play on
the other side has a legal follow that beats the best play so far (asked of
the engine: ``legal`` and ``trick_winner``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from replay.cards import POINTS, points
from replay.order import TRUMP
from replay.scoring import SEAT_ORDER, partner, team_of
from replay.trick import cards_text, lead_suit

from ..search import SearchBudgetExceeded
from .base import MIN_COST, HandContext, Mistake, Rule, make, rule
from .tricks import follow_extremes, team_certain, winning_index


def _follows(ctx: HandContext) -> Iterator[tuple[int, object, int, object, dict[str, Counter]]]:
    """(trick index, trick, k, play, holdings by seat at the trick's start) for
    every follow of a hand whose four hands are known."""
    if not (ctx.playable and ctx.clean and ctx.all_known and ctx.consistent):
        return
    for ti, t in enumerate(ctx.hand.tricks):
        if len(t.plays) != 4 or not t.plays[0].cards:
            continue
        holds = {s: Counter(t.hands_before[i]) for i, s in enumerate(SEAT_ORDER)}
        for k in range(1, 4):
            yield ti, t, k, t.plays[k], holds


def _certain_for(ctx: HandContext, t, k: int, holds, team: str, *, from_k: int) -> bool:
    """The best of plays[:k] cannot be beaten by any player of ``team`` playing
    at positions ``from_k``..3."""
    plays = [p.cards for p in t.plays[:k]]
    rivals = [(p.seat, holds[p.seat]) for p in t.plays[from_k:] if team_of(p.seat) == team]
    return team_certain(plays, rivals, ctx.order, ctx.ruleset)


def _signed_change(ctx: HandContext, seat: str, cost: int) -> str | None:
    """Level consequence of ``cost`` points against ``seat``'s team."""
    h = ctx.hand
    if h.outcome is None:
        return None
    actual = h.attacker_points
    return ctx.level_change(actual, actual + cost if ctx.is_attacker(seat) else actual - cost)


@rule
class PointsFed(Rule):
    """A point card fed to a trick the opponents were already certain to win.

    Bad pattern: an opponent's play is winning the trick and nobody on your
    side who is still to play (you included) has a legal play that beats it,
    yet you play a 5, 10 or K into it.

    Better play: follow with the legal play carrying the fewest points (the
    message shows it) and keep the point card for a trick your side can win.

    Cost: points played − the fewest points a legal follow could carry.
    """

    code = "SJ604"
    name = "points-fed"

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        order, rs = ctx.order, ctx.ruleset
        for ti, t, k, p, holds in _follows(ctx):
            fed = points(p.cards)
            if fed < MIN_COST:
                continue
            w = t.plays[winning_index([q.cards for q in t.plays[:k]], order, rs)]
            team = team_of(p.seat)
            if team_of(w.seat) == team:
                continue
            if not _certain_for(ctx, t, k, holds, team, from_k=k):
                continue
            low, _ = follow_extremes(t.plays[0].cards, holds[p.seat], order, rs)
            cost = fed - points(low)
            if cost < MIN_COST:
                continue
            fed_cards = [c for c in order.sorted(p.cards) if POINTS[c]]
            text = (f"{p.seat} fed {cards_text(fed_cards, order)} ({fed} points) to {w.seat}'s "
                    f"{cards_text(w.cards, order)}, which {p.seat}'s side could not beat; "
                    f"{cards_text(low, order)} was legal and gave "
                    + (f"{points(low)} points" if points(low) else "nothing"))
            yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=cost,
                       level_change=_signed_change(ctx, p.seat, cost), best=low)


@rule
class PointsWithheld(Rule):
    """A point card kept back from a trick the partner was already certain to win.

    Bad pattern: your partner's play is winning the trick and no opponent still
    to play can beat it, yet you follow with a play carrying fewer points than
    a legal one you held; the point card kept back later falls to the
    opponents.

    Better play: give your partner the points (the message shows the legal
    play with the most points).

    Cost: the points of the withheld cards that the opponents later won (a
    card kept back and later won by your own side cost nothing, and is not
    reported).
    """

    code = "SJ605"
    name = "points-withheld"

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        order, rs = ctx.order, ctx.ruleset
        tricks = ctx.hand.tricks
        for ti, t, k, p, holds in _follows(ctx):
            w = t.plays[winning_index([q.cards for q in t.plays[:k]], order, rs)]
            if w.seat != partner(p.seat):
                continue
            held_points = sum(POINTS[c] * n for c, n in holds[p.seat].items())
            if held_points - points(p.cards) < MIN_COST:
                continue
            other = "EW" if team_of(p.seat) == "NS" else "NS"
            if not _certain_for(ctx, t, k, holds, other, from_k=k + 1):
                continue
            _, high = follow_extremes(t.plays[0].cards, holds[p.seat], order, rs)
            if points(high) - points(p.cards) < MIN_COST:
                continue
            kept = Counter(c for c in high if POINTS[c]) - Counter(p.cards)
            lost, where = 0, []
            for c, fate in self._fates(tricks, ti, p.seat, kept):
                if team_of(fate.winner) != team_of(p.seat):
                    lost += POINTS[c]
                    where.append(f"{cards_text([c], order)} fell to {fate.winner} in trick {fate.number}")
            if lost < MIN_COST:
                continue
            text = (f"{p.seat} kept {cards_text([c for c in order.sorted(kept.elements())], order)} back from "
                    f"{w.seat}'s {cards_text(w.cards, order)}, which no opponent could beat "
                    f"({cards_text(high, order)} was legal); later " + ", ".join(where))
            yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=lost,
                       level_change=_signed_change(ctx, p.seat, lost), best=high)

    @staticmethod
    def _fates(tricks, ti: int, seat: str, kept: Counter):
        """(card, later trick where ``seat`` played it) for each kept card played later."""
        left = Counter(kept)
        for t in tricks[ti + 1:]:
            for q in t.plays:
                if q.seat != seat:
                    continue
                for c in q.cards:
                    if left[c] > 0:
                        left[c] -= 1
                        yield c, t


@rule
class RuffedPartner(Rule):
    """Ruffing (毙) a trick the partner was already certain to win.

    Bad pattern: a plain suit is led, your partner's play is winning and no
    opponent still to play can beat it, yet you play trumps that take the
    trick from your partner: a trump spent for nothing, and the lead moves to
    you.

    Better play: discard (the message shows a legal play that leaves the trick
    to the partner), keeping the trump for a trick that needs it.

    Inside the searched endgame (all hands known, complete hand) the cost is
    exact: the best non-ruffing play's value against the ruff's, and a ruff
    the search finds harmless (cost < 5) is not reported. Earlier in the hand
    the pattern is reported as an inaccuracy with its cost not measured.
    """

    code = "SJ606"
    name = "ruffed-partner"

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        order, rs = ctx.order, ctx.ruleset
        for ti, t, k, p, holds in _follows(ctx):
            lead = t.plays[0].cards
            if lead_suit(lead, order) in (None, TRUMP) or any(order.eff[c] != TRUMP for c in p.cards):
                continue
            so_far = [q.cards for q in t.plays[:k]]
            w = t.plays[winning_index(so_far, order, rs)]
            if w.seat != partner(p.seat):
                continue
            if winning_index(so_far + [p.cards], order, rs) != k:
                continue  # a trump discard that does not take the trick
            other = "EW" if team_of(p.seat) == "NS" else "NS"
            if not _certain_for(ctx, t, k, holds, other, from_k=k + 1):
                continue
            found = self._cost(ctx, ti, k, so_far)
            if found is None:
                continue
            cost, alt, measured = found
            if measured and cost < MIN_COST:
                continue
            text = (f"{p.seat} ruffed with {cards_text(p.cards, order)} a trick {w.seat} was sure to win with "
                    f"{cards_text(w.cards, order)}; {cards_text(alt, order)} would have left it to the partner")
            if not measured:
                text += " (cost not measured: outside the searched endgame)"
            yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=cost,
                       level_change=_signed_change(ctx, p.seat, cost) if measured else None, best=alt,
                       show_cost=measured)

    @staticmethod
    def _cost(ctx: HandContext, ti: int, k: int, so_far) -> tuple[int, tuple[int, ...], bool] | None:
        """(cost, best non-ruffing play, measured?) or None when every legal play ruffs."""
        order, rs = ctx.order, ctx.ruleset
        t = ctx.hand.tricks[ti]
        p = t.plays[k]
        start = ctx.window_start
        actual = ctx.play_value(ti, k) if start is not None and ti >= start else None
        if actual is not None:
            pos = ctx.node(ti, k)

            def question(solver):
                return [(m, solver.play_value(pos, m)) for m in solver.moves(pos)
                        if winning_index(so_far + [m], order, rs) != k]
            try:
                alts = ctx.ask("points", question)
            except SearchBudgetExceeded:
                alts = None
            if alts == []:
                return None
            if alts is not None:
                att = ctx.is_attacker(p.seat)
                m, v = (max if att else min)(alts, key=lambda mv: mv[1])
                return max(0, (v - actual) if att else (actual - v)), m, True
        from replay.legal import legal_follows
        alts = [f for f in legal_follows(t.plays[0].cards, Counter(t.hands_before[SEAT_ORDER.index(p.seat)]),
                                         order, rs, limit=200)
                if winning_index(so_far + [f], order, rs) != k]
        if not alts:
            return None
        alt = min(alts, key=lambda f: (sum(order.eff[c] == TRUMP for c in f), points(f), sum(order.key[c] for c in f)))
        return 0, tuple(alt), False
