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
from collections.abc import Sequence
from typing import TYPE_CHECKING

from analyzer.play.trick_play import TrickPlay
from analyzer.play.views import BotParams
from primitives.cards import LJ, POINTS, suit_of
from replay.bids import Bid, is_level_card, partner_of
from replay.declare import advance, legal_declarations
from replay.declare_state import DeclEvent, DeclState
from replay.order import NT, TRUMP, Order
from replay.ruleset import Ruleset
from replay.scoring import team_of
from replay.shapes import Unit

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Hand


class Bot(TrickPlay):
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

    def begin_play(self, hand: Hand) -> None:
        """Before trick 1 of a fixed-partner hand the generator hands the record hand
        as written so far (the deal, the kitty, the declarations, the bury), its
        ``tricks`` filled in as each trick finishes. The plain bot does not look at it
        (:class:`analyzer.play.review_bot.ReviewBot` does)."""

    def new_hand(self) -> None:
        """Start a hand: draw this hand's mood (a shy hand: nobody likes the cards)."""
        self.shy = self.rng.random() < self.p.shy_hand

    # ------------------------------------------------------------------ declaring
    def declaration(self, state: DeclState, seat: str, drawn: Sequence[int], *,
                    after_bury: bool = False, last_chance: bool = False,
                    eager: bool = False, partners: bool = True) -> tuple[int, ...] | None:
        """The cumulative card set ``seat`` writes on a ``declare`` line now, or None.

        ``drawn``: the seat's cards so far; ``last_chance``: the deal is over;
        ``eager``: declare anything legal (the generator's guard against a long
        run of redeals); ``after_bury``: campus 反主抄底; ``partners=False``: no
        seat is a partner yet (a table of friends, declaring through the engine's
        stand-in seats, :class:`replay.friends.StandIns`: the stand-in opposite is no partner).
        """
        rng, p, rs = self.rng, self.p, self.rs
        cur = state.standing
        level = state.level
        if state.own_levels is not None:   # declarer_deals: each seat declares its own team's level
            level = state.own_levels[0] if seat in ("N", "S") else state.own_levels[1]
        alt = state.alt_level       # attacker_level: an attacker may also show its own team's level
        if alt is not None and (seat == state.dealer or partner_of(seat) == state.dealer):
            alt = None
        # cheap filters first (bot policy, not rules): the engine is asked only when
        # the seat holds cards that may declare and would want to use them
        trumps = self._order(level, NT).trump_cards
        if alt is not None:
            trumps = trumps | self._order(alt, NT).trump_cards
        held = Counter(c for c in drawn if c in trumps)
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
        # (an attacker's own-level declaration is judged at the level it would make the hand's)
        scored = sorted(((self._share(drawn, alt if alt is not None and any(is_level_card(c, alt) for c in o)
                                      else level, bids[o].trump), o) for o in options),
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
        if partners and team_of(cur.seat) == team_of(seat):   # over the partner: rarely
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


__all__ = ["Bot"]
