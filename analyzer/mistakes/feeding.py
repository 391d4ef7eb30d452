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
        hb = ctx.hands_before(ti)
        holds = {s: Counter(hb[i]) for i, s in enumerate(SEAT_ORDER)}
        for k in range(1, 4):
            yield ti, t, k, t.plays[k], holds


def _certain_for(ctx: HandContext, t, k: int, holds, team: str, *, from_k: int) -> bool:
    """The best of plays[:k] cannot be beaten by any player of ``team`` playing
    at positions ``from_k``..3."""
    plays = [p.cards for p in t.plays[:k]]
    rivals = [(p.seat, holds[p.seat]) for p in t.plays[from_k:] if team_of(p.seat) == team]
    return team_certain(plays, rivals, ctx.order, ctx.ruleset)


@rule
class PointsFed(Rule):
    """A point card fed to a trick the opponents were already certain to win.

    Bad pattern: an opponent's play is winning the trick and nobody on your
    side who is still to play (you included) has a legal play that beats it,
    yet you play a 5, 10 or K into it.

    Better play: follow with the legal play carrying the fewest points (the
    message shows it) and keep the point card for a trick your side can win.

    Inside the searched endgame the exact search decides: the cost is the
    best play's value against the play made (both followed by best play) and
    a feed the search finds harmless (under 5 points: the card falls anyway)
    is not reported. Earlier: points played − the fewest points a legal
    follow could carry, less the point cards that would have fallen to the
    opponents later anyway (the low card kept instead went into a trick the
    opponents won, where the point card could have gone in its place).
    """

    code = "SJ604"
    name = "points-fed"

    def check(self, ctx: HandContext) -> Iterator[Mistake]:
        order, rs = ctx.order, ctx.ruleset
        tricks = ctx.hand.tricks
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
            if fed - points(low) < MIN_COST:
                continue
            fed_cards = [c for c in order.sorted(p.cards) if POINTS[c]]
            text = (f"{p.seat} fed {cards_text(fed_cards, order)} ({fed} points) to {w.seat}'s "
                    f"{cards_text(w.cards, order)}, which {p.seat}'s side could not beat")
            v = ctx.judge(ti, k)
            if v is not None:
                # inside the searched window the exact search decides
                if v.cost < MIN_COST:
                    continue
                best, why = ctx.verdict_text(ti, k, v)
                yield make(self.code, f"{text}; {why}", ctx=ctx, span=p.span, trick=t.number, seat=p.seat,
                           cost=v.cost, level_change=ctx.verdict_change(v, cards_text(p.cards, order)), best=best)
                continue
            cost, anyway = self._cost_outside(ctx, tricks, ti, p, low)
            if cost < MIN_COST:
                continue
            text += (f"; {cards_text(low, order)} was legal and gave "
                     + (f"{points(low)} points" if points(low) else "nothing"))
            if anyway:
                text += "; " + ", ".join(anyway) + " (counted as falling anyway)"
            text += ctx.pattern_note(ti)
            yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=cost,
                       level_change=ctx.signed_change(p.seat, cost), best=low)

    @staticmethod
    def _cost_outside(ctx: HandContext, tricks, ti: int, p, low) -> tuple[int, list[str]]:
        """Before the searched window: the points fed beyond the cheapest legal
        follow, less the point cards that would have fallen to the opponents
        later anyway. The cheap follow keeps a point card and spends a card
        ``x`` of the same suit instead; the player later played ``x`` into a
        trick (the swap of the two cards); when the opponents won that trick,
        the point card would have gone to them there: it falls anyway."""
        order = ctx.order
        saved = sorted((Counter(p.cards) - Counter(low)).elements(), key=lambda c: -POINTS[c])
        instead = list((Counter(low) - Counter(p.cards)).elements())
        fates = dict(PointsWithheld._fate_map(tricks, ti, p.seat, Counter(instead)))
        cost, notes = 0, []
        used: set[int] = set()
        for c in saved:
            if not POINTS[c]:
                continue
            gain = POINTS[c]
            for j, x in enumerate(instead):
                if j in used or order.eff[x] != order.eff[c]:
                    continue
                used.add(j)
                gain = POINTS[c] - POINTS[x]
                fate = fates.get((x, j))
                if fate is not None and team_of(fate.winner) != team_of(p.seat):
                    notes.append(f"{cards_text([c], order)} would have fallen to {fate.winner} in trick "
                                 f"{fate.number} in place of {cards_text([x], order)}")
                    gain = 0
                break
            cost += gain
        return cost, notes


@rule
class PointsWithheld(Rule):
    """A point card kept back from a trick the partner was already certain to win.

    Bad pattern: your partner's play is winning the trick and no opponent still
    to play can beat it, yet you follow with a play carrying fewer points than
    a legal one you held; the point card kept back later falls to the
    opponents.

    Better play: give your partner the points (the message shows the legal
    play with the most points).

    Inside the searched endgame the exact search decides (cost: the best
    play's value against the play made; a withheld card whose gift would
    have lost as much elsewhere is not reported). Earlier: the points of the
    withheld cards that the opponents later won (a card kept back and later
    won by your own side cost nothing, and is not reported).
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
            v = ctx.judge(ti, k)
            if v is not None:
                # inside the searched window the exact search decides
                if v.cost < MIN_COST:
                    continue
                best, why = ctx.verdict_text(ti, k, v)
                text = (f"{p.seat} kept {cards_text(order.sorted(kept.elements()), order)} back from "
                        f"{w.seat}'s {cards_text(w.cards, order)}, which no opponent could beat; {why}")
                yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=v.cost,
                           level_change=ctx.verdict_change(v, cards_text(p.cards, order)), best=best)
                continue
            lost, where = 0, []
            for c, fate in self._fates(tricks, ti, p.seat, kept):
                if team_of(fate.winner) != team_of(p.seat):
                    lost += POINTS[c]
                    where.append(f"{cards_text([c], order)} fell to {fate.winner} in trick {fate.number}")
            if lost < MIN_COST:
                continue
            text = (f"{p.seat} kept {cards_text([c for c in order.sorted(kept.elements())], order)} back from "
                    f"{w.seat}'s {cards_text(w.cards, order)}, which no opponent could beat "
                    f"({cards_text(high, order)} was legal); later " + ", ".join(where)) + ctx.pattern_note(ti)
            yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=lost,
                       level_change=ctx.signed_change(p.seat, lost), best=high)

    @staticmethod
    def _fate_map(tricks, ti: int, seat: str, cards: Counter):
        """((card, index among ``cards``' copies of the list), later trick where ``seat`` played it)."""
        seen: Counter = Counter()
        order_list = list(cards.elements())
        for c, t in PointsWithheld._fates(tricks, ti, seat, cards):
            # the j-th occurrence of c in order_list
            idx = [j for j, x in enumerate(order_list) if x == c][seen[c]]
            seen[c] += 1
            yield (c, idx), t

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

    Inside the searched endgame (all hands known, complete hand) the exact
    search decides: the cost is the best play's value against the ruff's,
    and a ruff the search finds harmless (cost < 5) is not reported. Earlier
    in the hand the pattern is reported as a *note* (cost not measured).
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
            alt = self._alternative(ctx, ti, k, so_far)
            if alt is None:
                continue
            text = (f"{p.seat} ruffed with {cards_text(p.cards, order)} a trick {w.seat} was sure to win with "
                    f"{cards_text(w.cards, order)}")
            v = ctx.judge(ti, k)
            if v is not None:
                # inside the searched window the exact search decides
                if v.cost < MIN_COST:
                    continue
                best, why = ctx.verdict_text(ti, k, v)
                yield make(self.code, f"{text}; {why}", ctx=ctx, span=p.span, trick=t.number, seat=p.seat,
                           cost=v.cost, level_change=ctx.verdict_change(v, cards_text(p.cards, order)),
                           best=best)
                continue
            text += (f"; {cards_text(alt, order)} would have left it to the partner (a trump spent for "
                     f"nothing; its cost in points is only measured by the search of the endgame)"
                     + ctx.pattern_note(ti))
            yield make(self.code, text, ctx=ctx, span=p.span, trick=t.number, seat=p.seat, cost=0, best=alt,
                       show_cost=False)

    @staticmethod
    def _alternative(ctx: HandContext, ti: int, k: int, so_far) -> tuple[int, ...] | None:
        """The cheapest legal play that leaves the trick to the partner, or None."""
        order, rs = ctx.order, ctx.ruleset
        t = ctx.hand.tricks[ti]
        p = t.plays[k]
        from replay.legal import legal_follows
        alts = [f for f in legal_follows(t.plays[0].cards, Counter(ctx.hands_before(ti)[SEAT_ORDER.index(p.seat)]),
                                         order, rs, limit=200)
                if winning_index(so_far + [f], order, rs) != k]
        if not alts:
            return None
        return tuple(min(alts, key=lambda f: (sum(order.eff[c] == TRUMP for c in f), points(f),
                                              sum(order.key[c] for c in f))))
