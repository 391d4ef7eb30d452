"""What the search knows of a trick and a holding, cached per solver: the
winner, points and multiplier of a trick's plays, the gain of a finished
trick, interchangeable cards (:meth:`Tables._analyse`) and the canonical key
of a trick-start position (the transposition table's)."""

from __future__ import annotations

from typing import Any

from analyzer.review.search.position import (
    Hands,
    Play,
    Reps,
    TableKey,
)
from primitives.cards import POINTS
from replay.order import TRUMP, Order
from replay.ruleset import Ruleset
from replay.scoring import kitty_multiplier, last_trick_multiplier
from replay.shapes import Unit
from replay.trick import trick_winner


class Tables:
    """The trick arithmetic and the table keys of :class:`analyzer.review.search.Solver`."""

    # the solver's state, set by its __init__ (:class:`analyzer.review.search.tree.Tree`)
    order: Order
    ruleset: Ruleset
    dealer: str
    kitty_points: int
    objective: str
    attacker: tuple[bool, ...]
    nodes: int
    max_nodes: int
    node_limit: int | None
    _limit: int
    _tt: dict[TableKey, tuple[int, int, Play | None]]
    _follow_cache: dict[tuple[Play, tuple[int, ...]], list[Play]]
    _unit_leads: dict[tuple[int, ...], list[Play]]
    _throw_cands: dict[tuple[int, tuple[tuple[int, tuple[int, ...]], ...]], list[tuple[Play, int]]]
    _stands: dict[tuple[Play, Hands], bool]
    _leads: dict[tuple[Hands, int], list[Play]]
    _winner: dict[tuple[Play, ...], tuple[int, int, int]]
    _max_mult: dict[tuple[int, tuple[int, int, int, int, int]], int]
    _mult_bound: dict[int, tuple[int, int]]
    _analysis: dict[Hands, tuple[tuple[tuple[int, ...], ...], Reps]]
    _rank: tuple[int, ...]
    _follow_distinct: dict[tuple[Play, tuple[int, ...], tuple[tuple[int, int], ...]], list[Play]]
    _partial: dict[tuple[Play, ...], int]
    _suit_cards: dict[Play, Any]
    _native: Any

    def _partial_winner(self, plays: tuple[Play, ...]) -> int:
        got = self._partial.get(plays)
        if got is None:
            got = trick_winner(plays, self.order, self.ruleset).index
            self._partial[plays] = got
        return got

    def _max_multiplier(self, n: int) -> int:
        """The largest kitty multiplier a last trick of at most ``n`` cards per play
        can give (asked of the engine for every unit shape that fits)."""
        return self._max_multiplier_of(n, (n, n, n // 2, n // 3, n // 4))

    def _mult_bounds(self, n: int) -> tuple[int, int]:
        """(:meth:`_max_multiplier` of ``n``, the same for hands without a card held
        twice): the kitty's bound, and the least :meth:`_max_multiplier_held` can make it."""
        got = self._mult_bound.get(n)
        if got is None:
            got = (self._max_multiplier(n), self._max_multiplier_of(n, (n, n, 0, 0, 0)))
            self._mult_bound[n] = got
        return got

    def _max_multiplier_held(self, hands: Hands, n: int) -> int:
        """:meth:`_max_multiplier` for ``hands`` (``n`` cards a seat): a unit of width
        ``w`` >= 2 and length ``l`` needs ``l`` cards held ``w`` times in one seat's hand
        (cards only leave the hands, and a play's units are one seat's cards). A hand with
        ``e`` copies beyond its distinct cards holds at most ``e`` cards twice, ``e // 2``
        three times and ``e // 3`` four times (exactly ``e`` pairs with two decks), which
        bounds the units' lengths (the native search bounds alike, node for node)."""
        e = 0
        for h in hands:
            extra = len(h) - len(set(h))
            if extra > e:
                e = extra
        return self._max_multiplier_of(n, (n, n, min(e, n // 2), min(e // 2, n // 3), min(e // 3, n // 4)))

    def _max_multiplier_of(self, n: int, longest: tuple[int, int, int, int, int]) -> int:
        """The largest multiplier of a unit of width ``w`` and length at most
        ``longest[w]``, played with at most ``n`` cards (cached)."""
        key = (n, longest)
        got = self._max_mult.get(key)
        if got is None:
            got = 1
            policy = self.ruleset.kitty_multiplier
            # a play of more units than one (a throw) too: the botzone multiplier reads the
            # largest of several units otherwise than one alone (2 × its size for a tractor,
            # 4 for a pair, where one unit alone gives the play's cards)
            single = Unit(1, 1, 0, ())
            for w in range(1, self.ruleset.decks + 1):
                for length in range(1, min(n // w, longest[w]) + 1):
                    u = Unit(w, length, 0, ())
                    for cards in range(w * length, n + 1):
                        got = max(got, kitty_multiplier(policy, [u], play_cards=cards, lead_cards=cards,
                                                        last_play=[u]))
                        if cards > w * length:
                            got = max(got, kitty_multiplier(policy, [u, single], play_cards=cards,
                                                            lead_cards=cards, last_play=[u, single]))
            self._max_mult[key] = got
        return got

    def _trick(self, plays: tuple[Play, ...]) -> tuple[int, int, int]:
        """(winning play index, points in the trick, kitty multiplier if last)."""
        got = self._winner.get(plays)
        if got is None:
            w = trick_winner(plays, self.order, self.ruleset)
            pts = sum(POINTS[c] for p in plays for c in p)
            mult = last_trick_multiplier(self.ruleset, self.order, w.units, len(plays[0]), plays[-1])
            got = (w.index, pts, mult)
            self._winner[plays] = got
        return got

    def _sure_rounds(self, hands: Hands, leader: int) -> tuple[int, bool]:
        """The points the leader's side surely takes from here by leading single cards
        that win whatever the others play (``Solver::sure_rounds`` alike, node for node):
        in a plain suit, its cards no other card of the suit beats, as many rounds as
        every other seat holding a trump has cards of the suit (none can ruff; a seat
        without trumps cannot win them); then its trumps no other trump beats. Each round
        counts the leader's card and the fewest points the seats that must follow can
        give (a seat with trumps follows the plain rounds; in the trump rounds a seat
        follows with trumps while it has them). And whether those rounds are every trick
        left (the leader's side then takes every point and the last trick)."""
        mine = self._suits(hands[leader])
        others = [self._suits(hands[(leader + k) % 4]) for k in (1, 2, 3)]
        trumps = [bool(o[TRUMP][0]) for o in others]
        sure = 0
        rounds = 0
        for e in range(5):
            cards = mine[e][0]
            if not cards:
                continue
            best = max((o[e][0][0][0] for o in others if o[e][0]), default=None)
            # the leader's cards of the suit no other card beats (the first played wins a tie)
            own = [pt for p, pt in cards if best is None or p >= best]
            r = len(own)
            if e != TRUMP:
                for o, t in zip(others, trumps, strict=True):
                    if t:
                        r = min(r, len(o[e][0]))
            if r == 0:
                continue
            # the rounds lead the sure cards with the most points first
            own.sort(reverse=True)
            sure += sum(own[:r])
            for o, t in zip(others, trumps, strict=True):
                if e == TRUMP or t:
                    fewest = o[e][1]
                    sure += fewest[min(r, len(fewest) - 1)]
            rounds += r
        return sure, rounds == len(hands[leader])

    def _suits(self, hand: Play) -> tuple[tuple[tuple[tuple[int, int], ...], tuple[int, ...]], ...]:
        """Per effective suit, a holding's cards as (power, points), strongest first, and the
        fewest points its i cards can give (i = 0, 1, …)."""
        got = self._suit_cards.get(hand)
        if got is None:
            eff = self.order.eff
            power = self.order.power
            per: list[list[tuple[int, int]]] = [[], [], [], [], []]
            for c in hand:
                e = eff[c]
                per[e].append((power[e][c], POINTS[c]))
            out = []
            for cards in per:
                fewest = [0]
                for pt in sorted(pt for _, pt in cards):
                    fewest.append(fewest[-1] + pt)
                out.append((tuple(sorted(cards, reverse=True)), tuple(fewest)))
            got = tuple(out)
            self._suit_cards[hand] = got
        return got

    def _gain(self, att: bool, last: bool, pts: int, mult: int) -> int:
        if self.objective == "last_trick":
            return 1 if (att and last) else 0
        if not att:
            return 0
        return pts + self.kitty_points * mult if last else pts

    def _canon(self, hands: Hands, leader: int) -> TableKey:
        """The transposition-table key of a trick-start position (see "Equivalent cards")."""
        return (leader, self._analyse(hands)[0])

    def _analyse(self, hands: Hands) -> tuple[tuple[tuple[int, ...], ...], Reps]:
        """Describe every card of a trick-start position for the table key and
        the equivalent-move test, in one pass.

        A card a player holds once is described by its effective suit, its
        points and where it falls among the *other* players' cards of that suit
        (how many are lower, how many are lower or equal); cards held more than
        once keep their identity (tuples and tractors need the exact ranks).
        Two single cards of one player with the same description have no other
        player's card between them: they are interchangeable, for this trick
        and for the rest of the hand. Positions whose descriptions agree have
        the same value.
        """
        got = self._analysis.get(hands)
        if got is not None:
            return got
        rank = self._rank
        pts_of = POINTS
        # per (suit, key) slot: how many cards each seat holds there
        slots: dict[int, list[int]] = {}
        for i, h in enumerate(hands):
            for c in h:
                r = rank[c]
                x = slots.get(r)
                if x is None:
                    slots[r] = x = [0, 0, 0, 0, 0]
                x[i] += 1
                x[4] += 1
        # per slot: cards of the suit below it, in total and per seat
        below: dict[int, tuple[int, list[int]]] = {}
        suit = -1
        tot = 0
        own = [0, 0, 0, 0]
        for r in sorted(slots):
            if r >> 7 != suit:
                suit = r >> 7
                tot = 0
                own = [0, 0, 0, 0]
            x = slots[r]
            below[r] = (tot, own)
            tot += x[4]
            own = [own[0] + x[0], own[1] + x[1], own[2] + x[2], own[3] + x[3]]
        descs = []
        reps = []
        for i, h in enumerate(hands):
            desc = []
            pairs: list[tuple[int, int]] = []
            first_of: dict[int, int] = {}
            prev = -1
            n = len(h)
            for j, c in enumerate(h):
                if c == prev or (j + 1 < n and h[j + 1] == c):
                    desc.append(c)
                else:
                    r = rank[c]
                    tb, ob = below[r]
                    x = slots[r]
                    lo = tb - ob[i]
                    # (suit, points, others below, others below or level): a single's description
                    d = ((((r >> 7) + 1) * 16 + pts_of[c]) * 128 + lo) * 128 + lo + x[4] - x[i]
                    desc.append(d)
                    r0 = first_of.get(d)
                    if r0 is None:
                        first_of[d] = c
                    else:
                        pairs.append((c, r0))
                prev = c
            desc.sort()
            descs.append(tuple(desc))
            reps.append(tuple(pairs))
        got = (tuple(descs), tuple(reps))
        self._analysis[hands] = got
        return got
