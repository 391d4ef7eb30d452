"""Exact perfect-information endgame search for one hand (the analyzer's
"engine eval", like a chess engine's: all four hands are known).

A position is the four holdings (sorted card tuples by seat N W S E), the
leader of the current trick and the plays already made in it. Its **value**
is the number of points the attackers (the non-dealer team) score from this
position to the end of the hand under best play by both teams: the point
cards of the tricks they win, plus, when they win the last trick, the kitty's
points × the ruleset's kitty multiplier for that trick's winning play. The
attackers maximise, the dealers minimise. The points scored before the
position are not part of the value (the rest of the hand is additive), so one
transposition-table entry serves every route into a position.

Every rule comes from the engine (``replay``), never from here:

* leads are :func:`replay.legal.single_unit_leads` plus the multi-unit throws
  that :func:`replay.trick.check_throw` lets stand. A throw that fails is a
  legal lead whose outcome is forced: the forced unit is played and the
  penalty goes against the thrower's team. That outcome is the same as leading
  the forced unit (a single-unit lead the search already tries) with the
  penalty on top, so failed throws never improve on a move the search has and
  are not searched; :meth:`Solver.play_value` values a failed throw that was
  actually played as ``penalty + value(forced unit)``;
* follows are :func:`replay.legal.legal_follows`;
* the winner is :func:`replay.trick.trick_winner`, the multiplier
  :func:`replay.scoring.kitty_multiplier`.

The search is alpha-beta over those moves with a transposition table keyed on
``(hands, leader)`` at trick boundaries (entries are value bounds and the best
lead, which is tried first on a revisit). The value of a node depends only on
the cards still held, so the table stays valid for the whole hand and is
shared by every question asked of one :class:`Solver` (the review asks for the
value before and after each play of the last tricks).

Two objectives: ``"points"`` (the value above) and ``"last_trick"`` (1 when
the attackers win the last trick, else 0: "can the dealers still protect the
kitty?", used by SJ602).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import product
from typing import NamedTuple

from replay.cards import POINTS
from replay.legal import legal_follows, single_unit_leads
from replay.order import TRUMP, Order
from replay.scoring import kitty_multiplier, team_of
from replay.seats import SEATS as SEAT_ORDER
from replay.seats import Seat
from replay.state import HandState, last_trick_multiplier, penalty_delta
from replay.trick import check_throw, trick_winner
from replay.units import Unit, decompose

INF = 10 ** 9
#: entries of the move and position caches (about 1 kB each) before they are emptied
CACHE_LIMIT = 150_000
#: entries of the transposition table before it is emptied
TABLE_LIMIT = 400_000
#: the limits are checked every TRIM_MASK + 1 nodes
TRIM_MASK = 0xFFF

Hands = tuple[tuple[int, ...], ...]
Play = tuple[int, ...]


class SearchBudgetExceeded(RuntimeError):
    """The solver's node budget (``max_nodes``) ran out before an answer.

    The solver stays usable: its table holds only proven bounds, so a later
    question (with a larger budget) goes on from what was learnt.
    """


class Position(NamedTuple):
    """A node of the search: holdings by seat index (``SEAT_ORDER`` N W S E),
    the leader's seat index and the plays already made in this trick (cards
    removed from ``hands``)."""

    hands: Hands
    leader: int
    plays: tuple[Play, ...] = ()

    @property
    def to_move(self) -> int:
        """Seat index of the player to move."""
        return (self.leader + len(self.plays)) % 4

    @property
    def terminal(self) -> bool:
        return not self.plays and not any(self.hands)


def position(hands: Sequence[Iterable[int]], leader: int | str, plays: Sequence[Iterable[int]] = ()) -> Position:
    """A :class:`Position` from any card iterables; ``leader`` a seat letter or index.

    ``hands`` are the holdings at the start of the trick; the cards of
    ``plays`` are taken out of them here.
    """
    lead_i = Seat[leader].value if isinstance(leader, str) else int(leader)
    hs = [list(h) for h in hands]
    ps = tuple(tuple(sorted(p)) for p in plays)
    for k, p in enumerate(ps):
        h = hs[(lead_i + k) % 4]
        for c in p:
            h.remove(c)
    return Position(tuple(tuple(sorted(h)) for h in hs), lead_i, ps)


def position_of(state: HandState) -> Position:
    """The search's :class:`Position` of a four-seat :class:`replay.state.HandState`
    (its holdings now, its leader and the current trick's plays)."""
    if state.seats != SEAT_ORDER:
        raise ValueError("the endgame search plays fixed partners at N W S E")
    hands = tuple(tuple(sorted(state.holding(s).elements())) for s in SEAT_ORDER)
    return Position(hands, Seat[state.leader].value, tuple(tuple(sorted(c)) for _, c in state.plays))


def _minus(hand: tuple[int, ...], play: Play) -> tuple[int, ...]:
    if len(play) == 1:
        i = hand.index(play[0])
        return hand[:i] + hand[i + 1:]
    h = list(hand)
    for c in play:
        h.remove(c)
    return tuple(h)


class Solver:
    """Exact endgame values for one hand (order, ruleset, dealer and kitty fixed).

    ``kitty_points`` are the point cards of the final kitty (the bury);
    ``objective`` is ``"points"`` or ``"last_trick"`` (see the module doc).
    """

    def __init__(self, order: Order, ruleset, dealer: str, kitty_points: int = 0,
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
        self._tt: dict[tuple[Hands, int], tuple[int, int, Play | None]] = {}
        self._follow_cache: dict[tuple[Play, tuple[int, ...]], list[Play]] = {}
        self._unit_leads: dict[tuple[int, ...], list[Play]] = {}
        self._throw_cands: dict[tuple, list[tuple[Play, int]]] = {}
        self._stands: dict[tuple, bool] = {}
        self._leads: dict[tuple[Hands, int], list[Play]] = {}
        self._winner: dict[tuple[Play, ...], tuple[int, int, int]] = {}
        self._max_mult: dict[int, int] = {}
        self._analysis: dict[Hands, tuple[tuple, tuple]] = {}
        #: a card's (effective suit, strength) as one int: suit * 128 + key
        self._rank = tuple(order.eff[c] * 128 + order.key[c] for c in range(len(order.key)))
        self._follow_distinct: dict[tuple, list[Play]] = {}
        self._partial: dict[tuple[Play, ...], int] = {}

    @classmethod
    def for_state(cls, state: HandState, objective: str = "points", max_nodes: int | None = None) -> Solver:
        """A solver for the hand of a four-seat :class:`replay.state.HandState`
        (its order, ruleset, dealer and kitty points); ask it about
        :func:`position_of` the state."""
        return cls(state.order, state.ruleset, state.dealer, state.kitty_points, objective, max_nodes)

    # -- public API ---------------------------------------------------------------------

    def value(self, pos: Position) -> int:
        """The exact value of ``pos`` (attacker points from here to the end)."""
        if pos.terminal:
            return 0
        self._set_limit()
        return self._root(pos.hands, pos.leader, pos.plays, -INF, INF)

    def _set_limit(self) -> None:
        self._limit = self.nodes + self.max_nodes
        if self.node_limit is not None and self.node_limit < self._limit:
            self._limit = self.node_limit

    def moves(self, pos: Position) -> list[Play]:
        """The moves the search considers at ``pos``: every legal follow, or
        every single-unit lead and standing throw."""
        seat = pos.to_move
        if not pos.plays:
            return list(self._lead_moves(pos.hands, seat))
        return list(self._follows(pos.plays[0], pos.hands[seat]))

    def after(self, pos: Position, move: Play) -> tuple[Position, int]:
        """The position after ``move`` and the points the attackers gain by it
        (the trick's points when it completes a trick they win, plus the kitty
        on the last trick; 0/1 under the ``last_trick`` objective)."""
        move = tuple(sorted(move))
        seat = pos.to_move
        hands = list(pos.hands)
        hands[seat] = _minus(hands[seat], move)
        hands_t = tuple(hands)
        plays = pos.plays + (move,)
        if len(plays) < 4:
            return Position(hands_t, pos.leader, plays), 0
        w, pts, mult = self._trick(plays)
        wseat = (pos.leader + w) % 4
        att = self.attacker[wseat]
        last = not any(hands_t)
        return Position(hands_t, wseat, ()), self._gain(att, last, pts, mult)

    def play_value(self, pos: Position, move: Play, attempted: Play | None = None) -> int:
        """The value of playing ``move`` at ``pos`` (gain of the move + value of
        the position after it). ``attempted``: a failed throw's attempt at the
        lead, whose penalty is added (against the thrower's team)."""
        nxt, gain = self.after(pos, move)
        v = gain + self.value(nxt)
        if attempted is not None and self.objective == "points":
            v += penalty_delta(self.ruleset, len(attempted), not self.attacker[pos.to_move])
        return v

    def move_values(self, pos: Position) -> list[tuple[Play, int]]:
        """Every considered move at ``pos`` with its exact value, best first
        for the side to move (ties keep the engine's order)."""
        out = [(m, self.play_value(pos, m)) for m in self.moves(pos)]
        maxi = self.attacker[pos.to_move]
        out.sort(key=lambda mv: -mv[1] if maxi else mv[1])
        return out

    def best_move(self, pos: Position, target: int | None = None) -> tuple[Play, int]:
        """A best move at ``pos`` and its value (``target``: the value of ``pos``
        if already known). Uses null-window tests, so it is cheaper than
        :meth:`move_values`."""
        if target is None:
            target = self.value(pos)
        self._set_limit()
        return self._first_reaching(pos, self._ordered(pos), target)

    def cheap_key(self, move: Play) -> tuple[int, int, int, int]:
        """How much a move spends, for choosing among equally good moves: its
        points, then its trumps (level cards and jokers are trumps), then the
        strength of its cards (a weaker card is cheaper)."""
        eff, key = self.order.eff, self.order.key
        return (sum(POINTS[c] for c in move), sum(eff[c] == TRUMP for c in move),
                sum(key[c] for c in move), sum(move))

    def cheapest_best(self, pos: Position, target: int | None = None) -> tuple[Play, int]:
        """The cheapest move (:meth:`cheap_key`) that reaches the value of
        ``pos``: the suggestion a player can trust (never a point card, a
        level card, a joker or an extra trump when a plain low card does
        as well). Null-window tests, cheapest candidate first."""
        if target is None:
            target = self.value(pos)
        self._set_limit()
        return self._first_reaching(pos, sorted(self.moves(pos), key=self.cheap_key), target)

    def _first_reaching(self, pos: Position, moves: Iterable[Play], target: int) -> tuple[Play, int]:
        """The first of ``moves`` whose value is ``target`` (null-window tests)."""
        maxi = self.attacker[pos.to_move]
        for m in moves:
            nxt, gain = self.after(pos, m)
            if nxt.terminal:
                v = gain
            elif maxi:
                v = gain + self._root(nxt.hands, nxt.leader, nxt.plays, target - gain - 1, target - gain)
            else:
                v = gain + self._root(nxt.hands, nxt.leader, nxt.plays, target - gain, target - gain + 1)
            if v == target:
                return m, target
        raise AssertionError("no move reaches the position's value")  # pragma: no cover

    def principal_variation(self, pos: Position, tricks: int = 1) -> list[tuple[int, Play]]:
        """The plays under best play from ``pos`` (seat index, cards) to the end
        of the current trick and ``tricks`` more (each the cheapest best move)."""
        out: list[tuple[int, Play]] = []
        ends = 0
        while not pos.terminal and ends <= tricks:
            m, _ = self.cheapest_best(pos)
            out.append((pos.to_move, m))
            pos, _ = self.after(pos, m)
            if not pos.plays:
                ends += 1
        return out

    def _ordered(self, pos: Position) -> list[Play]:
        moves = self.moves(pos)
        if not pos.plays:
            e = self._tt.get(self._canon(pos.hands, pos.leader))
            if e is not None and e[2] in moves:
                moves.remove(e[2])
                moves.insert(0, e[2])
        return moves

    # -- move generation ----------------------------------------------------------------

    def _follows(self, lead: Play, hand: tuple[int, ...]) -> list[Play]:
        key = (lead, hand)
        got = self._follow_cache.get(key)
        if got is None:
            if len(lead) == 1:
                got = self._single_follows(lead[0], hand)
            else:
                got = [tuple(p) for p in legal_follows(lead, Counter(hand), self.order, self.ruleset)]
            self._follow_cache[key] = got
        return got

    def _single_follows(self, card: int, hand: tuple[int, ...]) -> list[Play]:
        # the engine's rule for a single lead, read through legal_follows once per
        # distinct holding; the answer is the distinct cards of the suit, or all
        return [tuple(p) for p in legal_follows((card,), Counter(hand), self.order, self.ruleset)]

    def _lead_moves(self, hands: Hands, seat: int) -> list[Play]:
        key = (hands, seat)
        got = self._leads.get(key)
        if got is not None:
            return got
        hand = hands[seat]
        moves = list(self._single_unit_leads(hand))
        eff = self.order.eff
        others_idx = [(seat + k) % 4 for k in (1, 2, 3)]
        for cards, suit in self._throw_candidates(hands, seat):
            others = tuple(tuple(c for c in hands[i] if eff[c] == suit) for i in others_idx)
            skey = (cards, others)
            ok = self._stands.get(skey)
            if ok is None:
                holds = [Counter(hand)] + [Counter(o) for o in others]
                seats = [SEAT_ORDER[seat]] + [SEAT_ORDER[i] for i in others_idx]
                chk = check_throw(cards, 0, holds, seats, self.order, self.ruleset)
                ok = not chk.blockers
                self._stands[skey] = ok
            if ok:
                moves.append(cards)
        moves = self._distinct(moves, self._trick_reps(hands)[seat])
        # strongest first: bigger leads, then higher tops (a cheap ordering that
        # lets winning leads cut the tree early)
        key_of = self.order.key
        moves.sort(key=lambda m: (-len(m), -max(key_of[c] for c in m), -sum(POINTS[c] for c in m)))
        self._leads[key] = moves
        return moves

    def _single_unit_leads(self, hand: tuple[int, ...]) -> list[Play]:
        got = self._unit_leads.get(hand)
        if got is None:
            seen: dict[Play, None] = {}
            for u in single_unit_leads(Counter(hand), self.order):
                seen.setdefault(tuple(sorted(u.cards)), None)
            got = list(seen)
            self._unit_leads[hand] = got
        return got

    def _throw_candidates(self, hands: Hands, seat: int) -> list[tuple[Play, int]]:
        """The multi-unit leads of one effective suit worth asking
        :func:`replay.trick.check_throw` about.

        A card that appears once in a throw is a single unit of it, and a single
        that another player can beat (a higher card of that suit) makes the
        throw fail. So, unless the ruleset checks no throws, a card may go into
        a candidate once only when no other player holds a higher card of its
        suit; cards held several times may go in as tuples (the engine decides).
        """
        eff, key = self.order.eff, self.order.key
        check = self.ruleset.throw_check != "none"
        by_suit: dict[int, Counter[int]] = {}
        for c in hands[seat]:
            e = eff[c]
            if e in by_suit:
                by_suit[e][c] += 1
            else:
                by_suit[e] = Counter((c,))
        out: list[tuple[Play, int]] = []
        for suit, cnt in by_suit.items():
            if sum(cnt.values()) < 2:
                continue
            top = -1
            if check:
                for i, h in enumerate(hands):
                    if i != seat:
                        for c in h:
                            if eff[c] == suit and key[c] > top:
                                top = key[c]
            options = tuple((c, tuple(n for n in range(cnt[c] + 1) if n != 1 or key[c] >= top))
                            for c in sorted(cnt))
            ckey = (suit, options)
            got = self._throw_cands.get(ckey)
            if got is None:
                got = []
                for counts in product(*(o for _, o in options)):
                    if sum(counts) < 2:
                        continue
                    cards = tuple(c for (c, _), n in zip(options, counts) for _ in range(n))
                    if len(decompose(cards, self.order)) >= 2:
                        got.append((cards, suit))
                self._throw_cands[ckey] = got
            out.extend(got)
        return out

    # -- equivalent cards --------------------------------------------------------------

    def _trick_reps(self, hands: Hands) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each seat, its interchangeable single cards as (card, representative)
        pairs, valid for the whole trick that starts with ``hands`` (a player to
        move has not played yet in the trick, and the cards the others hold or
        have played in it are exactly the cards they held at its start)."""
        return self._analyse(hands)[1]

    @staticmethod
    def _distinct(moves: list[Play], pairs: tuple[tuple[int, int], ...]) -> list[Play]:
        """One move per class of equivalent moves (see "Equivalent cards")."""
        if not pairs or len(moves) < 2:
            return moves
        rep = dict(pairs)
        seen: set[Play] = set()
        out = []
        for m in moves:
            c = tuple(sorted(rep.get(x, x) for x in m))
            if c not in seen:
                seen.add(c)
                out.append(m)
        return out

    def _follow_moves(self, lead: Play, hand: tuple[int, ...], pairs) -> list[Play]:
        key = (lead, hand, pairs)
        got = self._follow_distinct.get(key)
        if got is None:
            got = self._distinct(self._follows(lead, hand), pairs)
            self._follow_distinct[key] = got
        return got

    def _ordered_follows(self, moves: list[Play], leader: int, plays: tuple[Play, ...], seat: int) -> list[Play]:
        """Best guess first: plays that leave the trick to the mover's team (most
        points first), then the others (fewest points first, lowest cards first).

        Only the order of the moves depends on this guess, never a value; for a
        single-card lead it is read from the card order directly."""
        mine = self.attacker[seat]
        eff, key = self.order.eff, self.order.key
        att = self.attacker
        bi = self._partial_winner(plays)
        team_now = att[(leader + bi) % 4] == mine
        single = len(plays[0]) == 1
        if single:
            lead_e = eff[plays[0][0]]
            b = plays[bi][0]
            be, bk = eff[b], key[b]
        scored = []
        for m in moves:
            if single:
                c = m[0]
                e = eff[c]
                takes = (e == be and key[c] > bk and (e == lead_e or e == TRUMP)) or (e == TRUMP and be != TRUMP)
                ours = True if takes else team_now
                pts = POINTS[c]
                strength = key[c]
            else:
                # a play mixing effective suits never takes a trick: ask the engine
                # about the others only
                e = eff[m[0]]
                if all(eff[c] == e for c in m):
                    ours = att[(leader + self._partial_winner(plays + (m,))) % 4] == mine
                else:
                    ours = team_now
                pts = strength = 0
                for c in m:
                    pts += POINTS[c]
                    strength += key[c]
            if ours:
                scored.append((0, -pts, strength, m))
            else:
                scored.append((1, pts, strength, m))
        scored.sort()
        return [t[3] for t in scored]

    def _partial_winner(self, plays: tuple[Play, ...]) -> int:
        got = self._partial.get(plays)
        if got is None:
            got = trick_winner(plays, self.order, self.ruleset).index
            self._partial[plays] = got
        return got

    # -- the search -------------------------------------------------------------------

    def _max_multiplier(self, n: int) -> int:
        """The largest kitty multiplier a last trick of at most ``n`` cards per play
        can give (asked of the engine for every unit shape that fits)."""
        got = self._max_mult.get(n)
        if got is None:
            got = 1
            policy = self.ruleset.kitty_multiplier
            for w in range(1, self.ruleset.decks + 1):
                for length in range(1, n // w + 1):
                    u = Unit(w, length, 0, ())
                    for cards in range(w * length, n + 1):
                        got = max(got, kitty_multiplier(policy, [u], play_cards=cards, lead_cards=cards,
                                                        last_play=[u]))
            self._max_mult[n] = got
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

    def _gain(self, att: bool, last: bool, pts: int, mult: int) -> int:
        if self.objective == "last_trick":
            return 1 if (att and last) else 0
        if not att:
            return 0
        return pts + self.kitty_points * mult if last else pts

    def _start_hands(self, hands: Hands, leader: int, plays: tuple[Play, ...]) -> Hands:
        if not plays:
            return hands
        hs = list(hands)
        for k, p in enumerate(plays):
            i = (leader + k) % 4
            hs[i] = tuple(sorted(hs[i] + p))
        return tuple(hs)

    def _root(self, hands: Hands, leader: int, plays: tuple[Play, ...], alpha: int, beta: int) -> int:
        if not plays:
            return self._trick_start(hands, leader, alpha, beta)
        reps = self._trick_reps(self._start_hands(hands, leader, plays))
        return self._node(hands, leader, plays, alpha, beta, reps, None)

    def _canon(self, hands: Hands, leader: int) -> tuple:
        """The transposition-table key of a trick-start position (see "Equivalent cards")."""
        return (leader, self._analyse(hands)[0])

    def _analyse(self, hands: Hands) -> tuple[tuple, tuple]:
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

    def _trick_start(self, hands: Hands, leader: int, alpha: int, beta: int) -> int:
        """Value of a trick-start position (fail-soft alpha-beta; bounds in the table)."""
        if len(hands[leader]) == 1:
            # the last trick, one card each: nothing to choose
            self.nodes += 1
            plays = tuple((h[0],) for h in hands[leader:] + hands[:leader])
            w, pts, mult = self._trick(plays)
            return self._gain(self.attacker[(leader + w) % 4], True, pts, mult)
        if self.objective == "points":
            # the value lies between 0 and the points still held (+ the most the
            # kitty can be worth with plays of this many cards)
            left = 0
            for h in hands:
                for c in h:
                    left += POINTS[c]
            if self.kitty_points:
                left += self.kitty_points * self._max_multiplier(len(hands[leader]))
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
        return self._node(hands, leader, (), alpha, beta, self._trick_reps(hands), first, tt_key)

    def _trim(self) -> None:
        """Bound the memory: the caches are rebuilt on demand, and the table only
        speeds the search up, so each is emptied when it grows past its limit."""
        if len(self._analysis) + len(self._leads) > CACHE_LIMIT:
            for cache in (self._analysis, self._leads, self._partial, self._winner, self._follow_cache,
                          self._follow_distinct, self._stands, self._unit_leads, self._throw_cands):
                cache.clear()
        if len(self._tt) > TABLE_LIMIT:
            self._tt.clear()

    def _node(self, hands: Hands, leader: int, plays: tuple[Play, ...], alpha: int, beta: int,
              reps, first: Play | None, tt_key=None) -> int:
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
            nh = hands[:seat] + (_minus(hand, m),) + hands[seat + 1:]
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


def solve(hands: Sequence[Iterable[int]], leader: int | str, order: Order, ruleset, dealer: str,
          kitty_points: int = 0, objective: str = "points") -> int:
    """The exact value of a trick-start position (a one-shot convenience)."""
    return Solver(order, ruleset, dealer, kitty_points, objective).value(position(hands, leader))
