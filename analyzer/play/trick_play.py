"""How a bot plays a trick: what to lead (units that stand, throws that the
engine lets stand, low cards of short suits) and how to follow (win cheaply,
feed points to a partner who wins, else give low cards); see
:mod:`analyzer.play.bot` for the policy in short."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from analyzer.play.views import BotParams, TrickView
from primitives.cards import NUM_CARDS, POINTS
from replay.legal import build_follow, is_legal_follow, single_unit_leads
from replay.order import TRUMP, Order
from replay.ruleset import Ruleset
from replay.shapes import Unit
from replay.throws import beats_unit
from replay.trick import Winner, check_throw, lead_suit, trick_winner
from replay.units import decompose

#: a NamedTuple built from its fields without its Python-level ``__new__``
_new = tuple.__new__


class TrickPlay:
    """The leads and follows of :class:`analyzer.play.bot.Bot`."""

    # the bot's state, set by :class:`analyzer.play.bot.Bot`
    rs: Ruleset
    rng: random.Random
    p: BotParams
    _units_cache: tuple[tuple[int, ...], Order | None, list[Unit]]
    _cost_order: Order | None
    _cost_cache: tuple[int, ...]

    def _costs(self, order: Order) -> tuple[int, ...]:
        """The cost of giving up each card under ``order`` (cached for the hand)."""
        if self._cost_order is not order:
            self._cost_order, self._cost_cache = order, _cost_table(order)
        return self._cost_cache

    # ------------------------------------------------------------------ leading
    def lead(self, view: TrickView) -> tuple[int, ...]:
        """The cards to lead (a throw may fail: the generator asks the engine)."""
        order, rs = view.order, self.rs
        eff, key = order.eff, order.key
        hold = view.holding
        seat = view.seat
        others = [(s, view.holdings[s]) for s in view.after(seat)]
        by_suit = _split(hold, eff)
        costs = self._costs(order)
        others_by_suit = [_split(h, eff) for _, h in others]
        opp_by_suit = [others_by_suit[i] for i, (s, _) in enumerate(others)
                       if not view.mates(s, seat)]

        stand_cache: dict[tuple[int, ...], bool] = {}

        def stands(u: Unit) -> bool:
            got = stand_cache.get(u.cards)
            if got is None:
                s = eff[u.cards[0]]
                got = True
                for h in others_by_suit:
                    hs = h.get(s)
                    if hs is not None and beats_unit(hs, u, order) is not None:
                        got = False
                        break
                stand_cache[u.cards] = got
            return got

        def ruffable(u: Unit) -> bool:
            s = eff[u.cards[0]]
            if s == TRUMP:
                return False
            return any(not h.get(s) and sum(h.get(TRUMP, {}).values()) >= u.size for h in opp_by_suit)

        # top unit of each shape in each suit: the candidates for a sure winner
        cands = _top_units(by_suit, order)
        left = view.cards_left

        # the end of the hand: fight for the last trick (the kitty): keep the lead with
        # units nobody can beat, the biggest first
        if left <= self.p.endgame:
            best = max(cands, key=lambda u: (stands(u) and not ruffable(u), u.size,
                                             eff[u.cards[0]] == TRUMP, u.top))
            return best.cards

        rng = self.rng
        # a throw that stands: every unit of a suit nobody can beat
        if rs.throws and rng.random() < self.p.throw_chance:
            throw = self._standing_throw(by_suit, stands, ruffable, order)
            if throw is not None:
                if view.state is not None:
                    chk = view.state.throw_check(throw)
                else:
                    holdings = [hold] + [h for _, h in others]
                    chk = check_throw(throw, 0, holdings, [seat] + [s for s, _ in others], order, rs)
                if not chk.blockers:
                    return throw
        # a risky throw: the top units of a suit, without looking
        if rs.throws and rng.random() < self.p.risky_throw_chance:
            suits = [s for s, cs in by_suit.items() if len(decompose(_cards(cs), order)) >= 2]
            if suits:
                s = rng.choice(sorted(suits))
                units = sorted(decompose(_cards(by_suit[s]), order), key=lambda u: -u.top)
                k = min(len(units), rng.choice((2, 2, 3)))
                return tuple(c for u in units[:k] for c in u.cards)
        # a sure winner: bigger units first, plain suits before trumps
        # (dealers with many trumps pull trumps first)
        trumps = sum(by_suit.get(TRUMP, {}).values())
        pull = trumps >= 0.5 * left and view.mates(seat, view.dealer)
        cands.sort(key=lambda u: (u.size, (eff[u.cards[0]] == TRUMP) == pull, u.top), reverse=True)
        u = next((u for u in cands if stands(u) and not ruffable(u)), None)
        if u is not None and (u.size >= 2 or rng.random() < 0.85):
            return u.cards
        # a cheap card, from a short plain suit (towards a void), no points if possible
        plain = [s for s in by_suit if s != TRUMP]
        if plain:
            def lead_cost(s: int) -> float:
                cs = by_suit[s]
                return min(costs[c] + 4 * (cs[c] > 1) for c in cs) + sum(cs.values())

            s = min(plain, key=lambda s: (lead_cost(s), s))
            cs = by_suit[s]
            pairs = [c for c, k in cs.items() if k >= 2 and not POINTS[c]]
            if pairs and rng.random() < 0.3:
                c = min(pairs, key=lambda c: key[c])
                return (c, c)
            c = min(cs, key=lambda c: (costs[c] + 4 * (cs[c] > 1), c))
            return (c,)
        cs = by_suit[TRUMP]
        c = min(cs, key=lambda c: (costs[c] + 4 * (cs[c] > 1), c))
        return (c,)

    def _standing_throw(self, by_suit: Mapping[int, Mapping[int, int]], stands: Callable[[Unit], bool],
                        ruffable: Callable[[Unit], bool], order: Order) -> tuple[int, ...] | None:
        """All units of one suit that stand, when there are at least two of them."""
        best: tuple[int, ...] | None = None
        for s in sorted(by_suit):
            units = decompose(_cards(by_suit[s]), order)
            if len(units) < 2:
                continue
            if ruffable(min(units, key=lambda u: u.size)):
                continue            # an opponent could trump it
            # a unit that is beaten makes every lower unit of its shape beaten too,
            # so each shape is looked at from the top down
            good: list[Unit] = []
            failed: set[tuple[int, int]] = set()
            for u in sorted(units, key=lambda u: -u.top):
                if u.shape in failed:
                    continue
                if stands(u):
                    good.append(u)
                else:
                    failed.add(u.shape)
            if len(good) < 2:
                continue
            cards = tuple(c for u in good for c in u.cards)
            if best is None or len(cards) > len(best):
                best = cards
        return best

    # ------------------------------------------------------------------ following
    def follow(self, view: TrickView) -> tuple[int, ...]:
        """A legal follow to the trick's lead."""
        order, rs = view.order, self.rs
        eff, key = order.eff, order.key
        seat = view.seat
        hold = view.holdings[seat]
        vplays = view.plays
        lead = vplays[0][1]
        n = len(lead)
        suit = lead_suit(lead, order)
        lead_units = self._lead_units(lead, order)
        plays = [p for _, p in vplays]
        # the lead alone wins until someone beats it
        cur = trick_winner(plays, order, rs) if len(plays) > 1 else Winner(0, tuple(lead_units), False)
        cur_seat = vplays[cur.index][0]
        later = view.later_seats()
        last = not later
        mate_wins = view.mates(cur_seat, seat)
        opp_later = [s for s in later if not view.mates(s, seat)]

        costs = self._costs(order)

        def low(c: int) -> float:
            # cheap first: low cards, no points, no trumps, keep tuples
            return costs[c] + 4 * (hold[c] > 1)

        if mate_wins:
            def feed(c: int) -> tuple[bool, int, int]:
                return (eff[c] == TRUMP, -POINTS[c], key[c])

            safe = last or self._stands_against(cur.units, cur.ruffed, suit, opp_later, view)
            return build_follow(lead, hold, order, rs, feed if safe else low, units=lead_units)

        trick_points = 0
        for p in plays:
            for c in p:
                trick_points += POINTS[c]
        in_suit = {c: k for c, k in hold.items() if k and eff[c] == suit}
        have = sum(in_suit.values())
        endgame = sum(hold.values()) <= self.p.endgame

        # an opponent is winning: try to win
        win = None
        if have >= n:
            if len(lead_units) == 1 and not cur.ruffed:
                win = self._lowest_beating(lead, plays, in_suit, view, cur.units[0].top)
        elif have == 0 and suit != TRUMP:
            if trick_points or endgame or last or self.rng.random() < self.p.ruff_chance:
                win = self._lowest_ruff(lead, plays, hold, view)
        if win is not None and rs.follow_suit == "printed" and not is_legal_follow(lead, hold, win, order, rs):
            win = None  # follow_suit printed (botzone): a beating play of the effective suit may not follow
        if win is not None:
            if last or trick_points >= 10 or endgame:
                return win
            units = decompose(win, order)
            if self._stands_against(units, eff[win[0]] != suit, suit, opp_later, view) or \
                    self.rng.random() < 0.5:
                return win
        return build_follow(lead, hold, order, rs, low, units=lead_units)

    def _lead_units(self, lead: tuple[int, ...], order: Order) -> list[Unit]:
        """``decompose(lead)``, remembered for the rest of the trick."""
        cached_lead, cached_order, units = self._units_cache
        if cached_lead != lead or cached_order is not order:
            units = decompose(lead, order)
            self._units_cache = (lead, order, units)
        return units

    def _stands_against(self, units: Sequence[Unit], ruffed: bool, suit: int | None, seats: list[str],
                        view: TrickView) -> bool:
        """Can none of ``seats`` beat this winning play (in suit, or by ruffing)?"""
        order = view.order
        eff = order.eff
        one = len(units) == 1
        unit_suit = eff[units[0].cards[0]] if one else -1
        ruffs = not ruffed and suit != TRUMP
        holdings = view.holdings
        for s in seats:
            h = holdings[s]
            has_unit_suit = has_suit = has_trump = False
            for c, k in h.items():
                if k:
                    e = eff[c]
                    if e == unit_suit:
                        has_unit_suit = True
                    if e == suit:
                        has_suit = True
                    elif e == TRUMP:
                        has_trump = True
            if has_unit_suit and beats_unit(h, units[0], order) is not None:
                return False
            if ruffs and has_trump and not has_suit:
                return False
        return True

    def _lowest_beating(self, lead: tuple[int, ...], plays: Sequence[tuple[int, ...]], in_suit: Mapping[int, int],
                        view: TrickView, best: int) -> tuple[int, ...] | None:
        """The lowest unit of the led suit, shaped like the one-unit lead, that wins now."""
        order = view.order
        u = self._lead_units(lead, order)[0]
        cands: list[Unit] = []
        if u.length == 1:
            for c, k in in_suit.items():
                if k >= u.width and order.key[c] > best:
                    cands.append(Unit(u.width, 1, order.key[c], (c,) * u.width))
        else:
            wide = {c: k for c, k in in_suit.items() if k >= u.width}
            cands = [v for v in single_unit_leads(wide, order)
                     if v.shape == u.shape and v.top > best]
        for v in sorted(cands, key=lambda v: v.top):
            if trick_winner(list(plays) + [v.cards], order, self.rs).index == len(plays):
                return v.cards
        return None

    def _lowest_ruff(self, lead: tuple[int, ...], plays: Sequence[tuple[int, ...]], hold: Mapping[int, int],
                     view: TrickView) -> tuple[int, ...] | None:
        """The lowest trump play matching the lead's structure that wins now."""
        order = view.order
        eff = order.eff
        trumps = Counter({c: k for c, k in hold.items() if k and eff[c] == TRUMP})
        if sum(trumps.values()) < len(lead):
            return None
        units = self._lead_units(lead, order)
        if len(units) == 1:
            u = units[0]
            if u.length == 1:
                cands = [(c,) * u.width for c in sorted(trumps, key=lambda c: order.key[c])
                         if trumps[c] >= u.width]
            else:
                wide = {c: k for c, k in trumps.items() if k >= u.width}
                cands = [v.cards for v in sorted(single_unit_leads(wide, order), key=lambda v: v.top)
                         if v.shape == u.shape]
        else:
            rem = Counter(trumps)
            cards: list[int] = []
            for u in units:
                opts = [v for v in single_unit_leads(rem, order) if v.shape == u.shape]
                if not opts:
                    return None
                v = min(opts, key=lambda v: v.top)
                cards.extend(v.cards)
                rem.subtract(v.cards)
                rem = +rem
            cands = [tuple(cards)]
        for cand in cands:
            if trick_winner(list(plays) + [cand], order, self.rs).index == len(plays):
                return tuple(cand)
        return None


def _cost(order: Order, c: int) -> int:
    """What giving up card ``c`` costs: its strength (trumps above every plain
    card, and high trumps dearer still), plus a charge for points (a 10 or K
    weighs like six plain ranks, a 5 three)."""
    pts = POINTS[c]
    k = order.key[c]
    return (30 + 2 * k if order.eff[c] == TRUMP else k) + (6 if pts == 10 else 3 if pts == 5 else 0)


@lru_cache(maxsize=64)
def _cost_table(order: Order) -> tuple[int, ...]:
    """:func:`_cost` of every card (once per order: a review makes a bot per play-out)."""
    return tuple(_cost(order, c) for c in range(NUM_CARDS))


def _top_units(by_suit: Mapping[int, Mapping[int, int]], order: Order) -> list[Unit]:
    """The highest unit of each shape (single, pair, …, each tractor) in each suit."""
    key = order.key
    singles = order.singles
    out: list[Unit] = []
    for cs in by_suit.values():
        top_w: dict[int, int] = {}
        for c, k in cs.items():
            kc = key[c]
            for w in range(1, k + 1):
                t = top_w.get(w)
                if t is None or kc > key[t]:
                    top_w[w] = c
        for w, c in top_w.items():
            # (Unit(w, 1, key[c], (c,) * w), without the NamedTuple's Python-level __new__)
            out.append(singles[c] if w == 1 else _new(Unit, (w, 1, key[c], (c,) * w)))
        wide = {c: k for c, k in cs.items() if k >= 2}
        if len(wide) >= 2:
            best: dict[tuple[int, int], Unit] = {}
            for u in single_unit_leads(wide, order):
                if u.length >= 2 and (u.shape not in best or u.top > best[u.shape].top):
                    best[u.shape] = u
            out.extend(best.values())
    return out


def _cards(holding: Mapping[int, int]) -> list[int]:
    """A holding (card → count) as a list of cards."""
    return [c for c, k in holding.items() for _ in range(k)]


def _split(holding: Mapping[int, int], eff: Sequence[int]) -> dict[int, dict[int, int]]:
    """A holding split by effective suit."""
    out: dict[int, dict[int, int]] = {}
    for c, k in holding.items():
        if k:
            e = eff[c]
            got = out.get(e)
            if got is None:
                out[e] = {c: k}
            else:
                got[c] = k
    return out
