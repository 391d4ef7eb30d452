"""Simple rule-following bots for the record generator (``analyzer.play.generate``).

A :class:`Bot` makes every decision of one seat in a hand: whether to declare
while the cards are drawn, which cards to bury, what to lead and how to follow.
It plays legally and "reasonably": it is not a strong player, it only has to
produce records that look like real games and exercise every rule.

Rules are never re-implemented here: what may be declared comes from
:func:`replay.declare.legal_declarations`, units and throws from
:mod:`replay.units` / :func:`replay.trick.check_throw`, follows from
:func:`replay.legal.build_follow` (checked by the engine's ``check_follow``),
and who wins from :func:`replay.trick.trick_winner`. The bots are
*omniscient*: the generator shows them every holding, and they use it to see
which units stand (``beats_unit``) and which throws would fail. All randomness
comes from the ``random.Random`` the generator passes in, so a seed gives the
same decisions every time.

Policy in short
---------------
* **Declaring**: show a level card (or pair, or campus card + joker) when its
  suit is long in the cards drawn so far; reinforce one's own declaration;
  override an opponent with a pair when that suit is good for us; declare NT
  with a joker pair now and then, more readily over an opponent. When nobody
  has declared by the end of the deal most seats declare whatever they can
  (a few hands are redealt or fall to ``no_declaration``).
* **Burying**: keep trumps, aces, kings and tuples; void short plain suits
  first; bury point cards only with a strong trump holding.
* **Leading**: in the last tricks, lead units nobody can beat, biggest
  first, to keep the lead (the last trick decides the kitty); otherwise sometimes throw all the units of a suit
  that nobody can beat (``check_throw`` confirms), rarely a risky throw that may
  fail; lead a unit nobody can beat (tractors and pairs first) when the
  opponents cannot ruff it; else a low card of the shortest plain suit.
* **Following**: win cheaply (the lowest matching unit that beats the best
  play, or the lowest ruff when void) when an opponent is winning; feed points
  (10, K, 5) when the partner's play will stand; otherwise give low cards,
  keeping tuples and point cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from primitives.cards import LJ, NUM_CARDS, POINTS, suit_of
from replay.declare import Bid, DeclEvent, DeclState, advance, legal_declarations
from replay.legal import build_follow, is_legal_follow, single_unit_leads
from replay.order import NT, TRUMP, Order
from replay.ruleset import Ruleset
from replay.scoring import team_of
from replay.seats import SEATS, Seat
from replay.state import HandState
from replay.trick import Winner, check_throw, lead_suit, trick_winner
from replay.units import Unit, beats_unit, decompose

#: the seats after each seat in play order
_AFTER = {s: [Seat[s].next(4, k).name for k in (1, 2, 3)] for s in SEATS}


@dataclass(frozen=True)
class BotParams:
    """Knobs of the policy (probabilities are per decision)."""

    #: lead a throw that stands when one is available
    throw_chance: float = 0.35
    #: lead a throw without knowing that it stands (some of these fail)
    risky_throw_chance: float = 0.06
    #: declare at the end of the deal when nobody has declared yet
    last_chance_declare: float = 0.5
    #: override an opponent's declaration when our suit is good
    override_chance: float = 0.7
    #: reinforce one's own declaration when possible
    reinforce_chance: float = 0.75
    #: declare NT with a joker pair (over an opponent: twice as likely)
    joker_nt_chance: float = 0.3
    #: share of hands where nobody wants to declare while the cards are drawn
    shy_hand: float = 0.08
    #: in such a hand, the chance that a seat declares at the end of the deal
    shy_last_chance: float = 0.25
    #: campus, later hands: keep an override for after the bury (反主抄底)
    save_for_kitty: float = 0.5
    #: ruff a pointless trick an opponent is winning
    ruff_chance: float = 0.75
    #: cards left in hand from which the bot fights for the last trick
    endgame: int = 3


@dataclass
class TrickView:
    """What a bot sees when it plays: the position of one trick.

    ``holdings`` are every seat's current cards (the bots are omniscient);
    ``plays`` the plays of this trick so far, leader first, as played.
    """

    seat: str
    order: Order
    ruleset: Ruleset
    holdings: Mapping[str, Counter[int]]
    plays: list[tuple[str, tuple[int, ...]]]
    dealer: str
    trick_number: int
    #: points in the kitty at stake on the last trick (0: nothing to fight for)
    kitty_points: int = 0
    #: the table in play order (finding friends: P1…Pn)
    seats: tuple[str, ...] = SEATS
    #: finding friends: the dealer's team as revealed so far (None: fixed partners)
    team: frozenset[str] | None = None
    #: the engine's position (the generator plays through :class:`replay.state.HandState`):
    #: what the bot asks about throws
    state: HandState | None = None

    @classmethod
    def of(cls, state: HandState, friends: bool = False) -> TrickView:
        """The view of the seat to play in ``state`` (``friends``: show the team revealed so far)."""
        return cls(state.turn, state.order, state.ruleset, state.holdings, list(state.plays), state.dealer,
                   state.trick_number, state.kitty_points, state.seats,
                   frozenset(state.team) if friends else None, state)

    @property
    def holding(self) -> Counter[int]:
        return self.holdings[self.seat]

    @property
    def cards_left(self) -> int:
        return sum(self.holding.values())

    def after(self, seat: str) -> list[str]:
        """The other seats, in play order after ``seat``."""
        if self.team is None:
            return _AFTER[seat]
        n = len(self.seats)
        return [Seat[seat].next(n, k).name for k in range(1, n)]

    def later_seats(self) -> list[str]:
        """Seats still to play after this one in this trick."""
        if self.team is None:
            return _AFTER[self.seat][:3 - len(self.plays)]
        return self.after(self.seat)[:len(self.seats) - 1 - len(self.plays)]

    def mates(self, a: str, b: str) -> bool:
        """Are ``a`` and ``b`` on one side (as far as the table knows)?"""
        if self.team is None:
            return team_of(a) == team_of(b)
        return (a in self.team) == (b in self.team)


class Bot:
    """The decisions of every seat (the generator shares one bot for the four
    seats: each call says which seat decides)."""

    def __init__(self, ruleset: Ruleset, rng: random.Random, params: BotParams | None = None) -> None:
        self.rs = ruleset
        self.rng = rng
        self.p = params or BotParams()
        self.shy = False
        self._units_cache: tuple[tuple[int, ...], Order | None, list[Unit]] = ((), None, [])
        self._orders: dict[tuple[int, int], Order] = {}
        self._cost_order: Order | None = None
        self._cost_cache: tuple[int, ...] = ()

    def new_hand(self) -> None:
        """Start a hand: draw this hand's mood (a shy hand: nobody likes the cards)."""
        self.shy = self.rng.random() < self.p.shy_hand

    # ------------------------------------------------------------------ declaring
    def declaration(self, state: DeclState, seat: str, drawn: Sequence[int], *,
                    after_bury: bool = False, last_chance: bool = False,
                    eager: bool = False) -> tuple[int, ...] | None:
        """The cumulative card set ``seat`` writes on a ``declare`` line now, or None.

        ``drawn``: the seat's cards so far; ``last_chance``: the deal is over;
        ``eager``: declare anything legal (the generator's guard against a long
        run of redeals); ``after_bury``: campus 反主抄底.
        """
        rng, p, rs = self.rng, self.p, self.rs
        cur = state.standing
        level = state.level
        if state.own_levels is not None:   # declarer_deals: each seat declares its own team's level
            level = state.own_levels[0] if seat in ("N", "S") else state.own_levels[1]
        # cheap filters first (bot policy, not rules): the engine is asked only when
        # the seat holds cards that may declare and would want to use them
        held = Counter(c for c in drawn if c in self._order(level, NT).trump_cards)
        if not held:
            return None
        if not eager:
            if cur is None and not last_chance:
                if self.shy:
                    return None
                need = 0.34 - 0.1 * min(1.0, len(drawn) / rs.hand_size)
                suits = {suit_of(c) for c in held if c < LJ}
                if max((self._share(drawn, level, t) for t in suits), default=0.0) < need and \
                        max(held.values()) < 2:
                    return None
            elif cur is not None and not rs.partner_reinforce and max(held.values()) < 2:
                return None             # the bots bid over a standing declaration only with a tuple
        options = legal_declarations(rs, level, state, seat, drawn, after_bury=after_bury)
        if not options:
            return None
        # what each option would do, as the engine reads it
        bids = {o: self._bid_of(state, seat, o, after_bury) for o in options}
        scored = sorted(((self._share(drawn, level, bids[o].trump), o) for o in options),
                        key=lambda x: -x[0])
        if eager:
            return scored[0][1]
        if len(scored) > 1 and bids[scored[0][1]].trump == NT and rng.random() >= 2 * p.joker_nt_chance:
            scored = scored[1:]         # a joker pair is kept back this time
        quality, best = scored[0]
        bid = bids[best]
        if cur is None:
            if last_chance:
                chance = p.shy_last_chance if self.shy else p.last_chance_declare
                return best if rng.random() < chance else None
            # declare early only with a long suit; later more readily
            need = 0.34 - 0.1 * min(1.0, len(drawn) / rs.hand_size)
            return best if quality >= need and rng.random() < 0.8 else None
        if bid.how in ("reinforce", "partner"):         # 自保 / 对家保
            return best if rng.random() < p.reinforce_chance else None
        if cur.seat == seat:                              # 自反: rarely
            return best if quality >= 0.4 and rng.random() < 0.15 else None
        if team_of(cur.seat) == team_of(seat):            # over the partner: rarely
            return best if quality >= 0.45 and rng.random() < 0.1 else None
        # an opponent's declaration stands: override (反主)
        if (rs.declaration == "campus" and not state.first_hand and not after_bury
                and rng.random() < p.save_for_kitty):
            return None                 # keep it for 反主抄底 after the bury
        if bid.trump == NT:
            return best if rng.random() < 2 * p.joker_nt_chance else None
        if after_bury:
            return best if quality >= 0.2 or rng.random() < 0.5 else None
        return best if quality >= 0.28 and rng.random() < p.override_chance else None

    def _bid_of(self, state: DeclState, seat: str, cards: tuple[int, ...], after_bury: bool) -> Bid:
        """The bid ``seat`` would make by showing ``cards`` (the engine's reading)."""
        new, ok, _ = advance(state, DeclEvent(seat, cards, None, after_bury=after_bury))
        assert ok and new.standing is not None, "legal_declarations offered a refused declaration"
        return new.standing

    def _costs(self, order: Order) -> tuple[int, ...]:
        """The cost of giving up each card under ``order`` (cached for the hand)."""
        if self._cost_order is not order:
            self._cost_order, self._cost_cache = order, _cost_table(order)
        return self._cost_cache

    def _order(self, level: int, trump: int) -> Order:
        """The card order for ``level`` and ``trump`` (cached)."""
        key = (level, trump)
        order = self._orders.get(key)
        if order is None:
            order = self._orders[key] = Order.for_ruleset(level, trump, self.rs)
        return order

    def _share(self, drawn: Sequence[int], level: int, trump: int) -> float:
        """How good ``trump`` would be for ``drawn``: the share of trumps among
        the cards (scaled up for NT, where only jokers and level cards are trumps)."""
        trumps = self._order(level, trump).trump_cards
        share = sum(1 for c in drawn if c in trumps) / max(len(drawn), 1)
        return 2.2 * share if trump == NT else share

    # ------------------------------------------------------------------ burying
    def bury(self, cards: Sequence[int], order: Order, count: int) -> tuple[int, ...]:
        """``count`` cards to lay down from ``cards`` (hand + kitty).

        Keeps trumps, aces and kings, tuples; voids the shortest plain suits
        when they fit; buries point cards only with many trumps.
        """
        eff, key = order.eff, order.key
        hold = Counter(cards)
        trumps = sum(k for c, k in hold.items() if eff[c] == TRUMP)
        strong = trumps >= 0.45 * len(cards)
        plain: dict[int, list[int]] = {}
        for c in cards:
            if eff[c] != TRUMP:
                plain.setdefault(eff[c], []).append(c)
        top_key = {s: max(key[c] for c in cs) for s, cs in plain.items()}

        def keep_value(c: int) -> float:
            if eff[c] == TRUMP:
                return 1000 + key[c]
            v = key[c] * 2.0
            if hold[c] >= 2:
                v += 40
            if key[c] >= top_key[eff[c]] and key[c] >= 10:
                v += 30            # the suit's ace (or the best card left)
            if POINTS[c]:
                v += 8 if strong else 25
            return v

        out: list[int] = []
        # void short plain suits whose cards are all cheap
        for s in sorted(plain, key=lambda s: (len(plain[s]), s)):
            cs = plain[s]
            if len(out) + len(cs) > count:
                continue
            if any(keep_value(c) >= 40 for c in cs):
                continue
            out.extend(cs)
        rest = Counter(cards)
        rest.subtract(out)
        pool = sorted(rest.elements(), key=lambda c: (keep_value(c), c))
        out.extend(pool[:count - len(out)])
        return tuple(order.sorted(out))

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
                got = all(beats_unit(h[s], u, order) is None for h in others_by_suit if s in h)
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
        hold = view.holding
        seat = view.seat
        lead = view.plays[0][1]
        n = len(lead)
        suit = lead_suit(lead, order)
        lead_units = self._lead_units(lead, order)
        plays = [p for _, p in view.plays]
        # the lead alone wins until someone beats it
        cur = trick_winner(plays, order, rs) if len(plays) > 1 else Winner(0, tuple(lead_units), False)
        cur_seat = view.plays[cur.index][0]
        later = view.later_seats()
        last = not later
        mate_wins = view.mates(cur_seat, seat)
        trick_points = sum(POINTS[c] for p in plays for c in p)
        in_suit = {c: k for c, k in hold.items() if k and eff[c] == suit}
        have = sum(in_suit.values())
        endgame = view.cards_left <= self.p.endgame
        opp_later = [s for s in later if not view.mates(s, seat)]

        costs = self._costs(order)

        def low(c: int) -> float:
            # cheap first: low cards, no points, no trumps, keep tuples
            return costs[c] + 4 * (hold[c] > 1)

        def feed(c: int) -> tuple[bool, int, int]:
            return (eff[c] == TRUMP, -POINTS[c], key[c])

        if mate_wins:
            safe = last or self._stands_against(cur.units, cur.ruffed, suit, opp_later, view)
            return build_follow(lead, hold, order, rs, feed if safe else low, units=lead_units)

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
        for s in seats:
            h = view.holdings[s]
            if len(units) == 1 and any(eff[c] == eff[units[0].cards[0]] and k for c, k in h.items()):
                if beats_unit(h, units[0], order) is not None:
                    return False
            if not ruffed and suit != TRUMP and not any(k and eff[c] == suit for c, k in h.items()):
                if any(k and eff[c] == TRUMP for c, k in h.items()):
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


def _cost_table(order: Order) -> tuple[int, ...]:
    """:func:`_cost` of every card."""
    return tuple(_cost(order, c) for c in range(NUM_CARDS))


def _top_units(by_suit: Mapping[int, Mapping[int, int]], order: Order) -> list[Unit]:
    """The highest unit of each shape (single, pair, …, each tractor) in each suit."""
    key = order.key
    out: list[Unit] = []
    for cs in by_suit.values():
        top_w: dict[int, int] = {}
        for c, k in cs.items():
            for w in range(1, k + 1):
                if w not in top_w or key[c] > key[top_w[w]]:
                    top_w[w] = c
        out.extend(Unit(w, 1, key[c], (c,) * w) for w, c in top_w.items())
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
            out.setdefault(eff[c], {})[c] = k
    return out


__all__ = ["Bot", "BotParams", "TrickView"]
