"""Exact perfect-information endgame search for one hand (the analyzer's
"engine eval", like a chess engine's: all four hands are known).

The position is the engine's: a :class:`replay.state.HandState` (four fixed
seats N W S E), as a python-chess engine takes a ``chess.Board``. Its
**value** is the number of points the attackers (the non-dealer team) score
from this position to the end of the hand under best play by both teams: the
point cards of the tricks they win, plus, when they win the last trick, the
kitty's points × the ruleset's kitty multiplier for that trick's winning
play. The attackers maximise, the dealers minimise. The points scored before
the position (a failed throw's penalty in the current trick included) are not
part of the value (the rest of the hand is additive), so one
transposition-table entry serves every route into a position.

Asking about a state
--------------------

Every public question of :class:`Solver` (:meth:`~Solver.value`,
:meth:`~Solver.moves`, :meth:`~Solver.after`, :meth:`~Solver.play_value`,
:meth:`~Solver.move_values`, :meth:`~Solver.best_move`,
:meth:`~Solver.cheapest_best`, :meth:`~Solver.principal_variation`,
:meth:`~Solver.key`) takes a :class:`~replay.state.HandState`
(:meth:`Solver.for_state` builds the solver of its hand). At that root, the
state is asked for everything: the moves are its
:meth:`~replay.state.HandState.legal_follows`, or its
:meth:`~replay.state.HandState.unit_leads` and the throws its
:meth:`~replay.state.HandState.throw_check` lets stand; a move is
:meth:`~replay.state.HandState.push`-ed and :meth:`~replay.state.HandState.pop`-ped,
and what it gains is read from the state (the finished trick's winner and
points, :attr:`~replay.state.HandState.kitty_multiplier`, the pending
failed throw). The state is left as it was found.

Inside the tree: a lean node, checked against the state
-------------------------------------------------------

Below the root the search walks a lean copy of the position: a
:class:`Position` (the four holdings as sorted card tuples, the leader's
seat index and the current trick's plays), built from the state by
:func:`position_of`, hashed by the table and the move caches directly. Walking
the tree through ``HandState.push``/``pop`` instead was measured
(``bench/bench_endgame.py --state-walk``, 36 two-deck hands): the search costs
10.8–12.8 µs per node in all, the moves, a push, a pop and the table key of a
``HandState`` alone 10.8–12.6 µs per node, and they would replace only the
part of the search's node that they do (move generation, the card removal and
the trick's winner: about a third of its time, profiled), so the tree through
``HandState`` would cost about ×1.7, past the ×1.25 the search may give up.

The lean node decides no rule: its moves, winners and multipliers come from
the same engine functions ``HandState`` itself calls (cached per holding):

* leads are :func:`replay.legal.single_unit_leads` (``HandState.unit_leads``)
  plus the multi-unit throws that :func:`replay.trick.check_throw`
  (``HandState.throw_check``) lets stand. A throw that fails is a legal lead
  whose outcome is forced: the forced unit is played and the penalty goes
  against the thrower's team. That outcome is the same as leading the forced
  unit (a single-unit lead the search already tries) with the penalty on top,
  so failed throws never improve on a move the search has and are not
  searched; :meth:`Solver.play_value` values a failed throw as the engine
  plays it: ``penalty + value(forced unit)``;
* follows are :func:`replay.legal.legal_follows` (``HandState.legal_follows``);
* the winner is :func:`replay.trick.trick_winner`, the multiplier
  :func:`replay.state.last_trick_multiplier`, the penalty
  :func:`replay.state.penalty_delta` (what ``HandState`` uses).

``tests/mistakes/test_search_state.py`` holds the two views together: at
random positions the search's moves equal the moves derived from
``HandState.legal_plays()`` after the search's reductions (failed throws
dropped, interchangeable cards merged), the answers asked of a state equal
those asked of its :class:`Position`, and the values equal a plain minimax
that plays through ``HandState.push``/``pop`` and scores with
``HandState.final_points``.

A play is a tuple of cards in ascending order (the order
``HandState.legal_follows`` gives); moves come in a fixed order (the
engine's enumeration, the cards ascending), so the answers never depend on
how a holding was built.

The search is alpha-beta over those moves with a transposition table keyed on
the canonical key of a trick-start position (:meth:`Solver.key`: the leader
and each holding described up to interchangeable cards); entries are value
bounds and the best lead, which is tried first on a revisit. The value of a
node depends only on the cards still held, so the table stays valid for the
whole hand and is shared by every question asked of one :class:`Solver` (the
review asks for the value before and after each play of the last tricks).

Two objectives: ``"points"`` (the value above) and ``"last_trick"`` (1 when
the attackers win the last trick, else 0: "can the dealers still protect the
kitty?", used by SJ602).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from primitives.cards import POINTS
from replay import native
from replay.legal import legal_follows, single_unit_leads
from replay.order import TRUMP, Order
from replay.ruleset import Ruleset
from replay.scoring import kitty_multiplier, team_of
from replay.seats import SEATS as SEAT_ORDER
from replay.seats import Seat
from replay.state import HandState, last_trick_multiplier, penalty_delta
from replay.trick import check_throw, throw_leads, throw_options, trick_winner
from replay.units import Unit

INF = 10 ** 9
#: entries of the move and position caches (about 1 kB each) before they are emptied
CACHE_LIMIT = 150_000
#: entries of the transposition table before it is emptied
TABLE_LIMIT = 400_000
#: the limits are checked every TRIM_MASK + 1 nodes
TRIM_MASK = 0xFFF

Hands = tuple[tuple[int, ...], ...]
Play = tuple[int, ...]
#: per seat index: (card, representative) pairs of interchangeable single cards
Reps = tuple[tuple[tuple[int, int], ...], ...]
#: a transposition-table key (:meth:`Solver.key`)
TableKey = tuple[int, tuple[tuple[int, ...], ...]]


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


#: what a question is asked about: the engine's state, or the search's lean copy of it
Node = HandState | Position


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
        self._max_mult: dict[int, int] = {}
        self._analysis: dict[Hands, tuple[tuple[tuple[int, ...], ...], Reps]] = {}
        #: a card's (effective suit, strength) as one int: suit * 128 + key
        self._rank = tuple(order.eff[c] * 128 + order.key[c] for c in range(len(order.key)))
        self._follow_distinct: dict[tuple[Play, tuple[int, ...], tuple[tuple[int, int], ...]], list[Play]] = {}
        self._partial: dict[tuple[Play, ...], int] = {}
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

    @classmethod
    def for_state(cls, state: HandState, objective: str = "points", max_nodes: int | None = None) -> Solver:
        """A solver for the hand of a four-seat :class:`replay.state.HandState`
        (its order, ruleset, dealer and kitty points); ask it about the state
        (or any later state of the hand)."""
        if state.seats != SEAT_ORDER:
            raise ValueError("the endgame search plays fixed partners at N W S E")
        return cls(state.order, state.ruleset, state.dealer, state.kitty_points, objective, max_nodes)

    # -- public API ---------------------------------------------------------------------
    #
    # Every question takes a HandState (the engine's position) or a Position (the
    # search's lean copy of one, see the module doc); the answers agree.

    @staticmethod
    def position(node: Node) -> Position:
        """The search's lean :class:`Position` of ``node`` (built from a state by :func:`position_of`)."""
        return node if isinstance(node, Position) else position_of(node)

    def value(self, node: Node) -> int:
        """The exact value of ``node`` (attacker points from here to the end)."""
        pos = self.position(node)
        if pos.terminal:
            return 0
        self._set_limit()
        return self._root(pos.hands, pos.leader, pos.plays, -INF, INF)

    def _set_limit(self) -> None:
        self._limit = self.nodes + self.max_nodes
        if self.node_limit is not None and self.node_limit < self._limit:
            self._limit = self.node_limit

    def key(self, node: Node) -> TableKey:
        """The transposition-table key of a trick-start position: the leader
        and each holding described up to interchangeable cards (positions
        with one key have one value)."""
        pos = self.position(node)
        if pos.plays:
            raise ValueError("the table keys trick-start positions only")
        return self._canon(pos.hands, pos.leader)

    def moves(self, node: Node) -> list[Play]:
        """The moves the search considers at ``node``: every legal follow, or
        every single-unit lead and standing throw (one of each set of
        interchangeable leads); cards ascending, in a fixed order. Asked of a
        state, they are the state's own (see the module doc)."""
        if isinstance(node, HandState):
            return self._state_moves(node)
        seat = node.to_move
        if not node.plays:
            return list(self._lead_moves(node.hands, seat))
        return list(self._follows(node.plays[0], node.hands[seat]))

    def _state_moves(self, state: HandState) -> list[Play]:
        """:meth:`moves` asked of the state: its legal follows, or its unit
        leads and the throws its throw check lets stand, reduced and ordered
        as the tree's moves are."""
        if state.plays:
            return sorted(state.legal_follows())
        pos = position_of(state)
        moves = sorted(state.unit_leads())
        for cards, _ in self._throw_candidates(pos.hands, pos.leader):
            if not state.throw_check(cards).blockers:
                moves.append(cards)
        return self._lead_order(self._distinct(moves, self._trick_reps(pos.hands)[pos.leader]))

    def after(self, node: Node, move: Sequence[int]) -> tuple[Node, int]:
        """The position after ``move`` (of the same kind as ``node``: a state
        is copied and the copy pushed) and the points the attackers gain by
        it (the trick's points when it completes a trick they win, plus the
        kitty on the last trick; 0/1 under the ``last_trick`` objective)."""
        if isinstance(node, HandState):
            st = node.copy()
            done = st.trick_number
            st.push(tuple(move))
            return st, self._state_gain(st, done)
        return self._after(node, tuple(sorted(move)))

    def _after(self, pos: Position, move: Play) -> tuple[Position, int]:
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

    def _state_gain(self, state: HandState, trick_before: int) -> int:
        """What the attackers gained by the play just pushed on ``state``
        (``trick_before``: its trick number before the push), read from the
        state: the finished trick's winner and points, the kitty multiplier."""
        if state.trick_number == trick_before:
            return 0
        t = state.last_trick
        assert t is not None
        last = state.is_over
        return self._gain(not state.defends(t.winner), last, t.points, state.kitty_multiplier if last else 0)

    def _step(self, node: Node, move: Sequence[int]) -> tuple[Position, int, int]:
        """(the lean position after ``move``, the attackers' gain, the signed
        penalty of a lead the engine plays as a failed throw). A state is
        pushed, read and popped back."""
        if isinstance(node, Position):
            nxt, gain = self._after(node, tuple(sorted(move)))
            return nxt, gain, 0
        st = node
        before = st.trick_number
        seat = st.turn
        leads = not st.plays
        st.push(tuple(move))
        try:
            gain = self._state_gain(st, before)
            attempted = st.attempted if leads else None
            pen = 0
            if attempted is not None and self.objective == "points":
                pen = penalty_delta(self.ruleset, len(attempted), st.defends(seat))
            return position_of(st), gain, pen
        finally:
            st.pop()

    def play_value(self, node: Node, move: Sequence[int], attempted: Sequence[int] | None = None) -> int:
        """The value of playing ``move`` at ``node`` (gain of the move + value of
        the position after it). A lead the engine finds to be a failed throw
        counts as it plays it: the forced unit, and the penalty (against the
        thrower's team). ``attempted``: ``move`` is the forced unit of this
        failed throw (the play as recorded), whose penalty is added."""
        nxt, gain, pen = self._step(node, move)
        v = gain + pen + self.value(nxt)
        if attempted is not None and self.objective == "points":
            seat = node.to_move if isinstance(node, Position) else Seat[node.turn].value
            v += penalty_delta(self.ruleset, len(attempted), not self.attacker[seat])
        return v

    def move_values(self, node: Node) -> list[tuple[Play, int]]:
        """Every considered move at ``node`` with its exact value, best first
        for the side to move (ties keep the moves' order)."""
        out = [(m, self.play_value(node, m)) for m in self.moves(node)]
        maxi = self.attacker[self._to_move(node)]
        out.sort(key=lambda mv: -mv[1] if maxi else mv[1])
        return out

    @staticmethod
    def _to_move(node: Node) -> int:
        return node.to_move if isinstance(node, Position) else Seat[node.turn].value

    def best_move(self, node: Node, target: int | None = None) -> tuple[Play, int]:
        """A best move at ``node`` and its value (``target``: the value of ``node``
        if already known). Uses null-window tests, so it is cheaper than
        :meth:`move_values`."""
        if target is None:
            target = self.value(node)
        self._set_limit()
        return self._first_reaching(node, self._ordered(node), target)

    def cheap_key(self, move: Play) -> tuple[int, int, int, int]:
        """How much a move spends, for choosing among equally good moves: its
        points, then its trumps (level cards and jokers are trumps), then the
        strength of its cards (a weaker card is cheaper)."""
        eff, key = self.order.eff, self.order.key
        return (sum(POINTS[c] for c in move), sum(eff[c] == TRUMP for c in move),
                sum(key[c] for c in move), sum(move))

    def cheapest_best(self, node: Node, target: int | None = None) -> tuple[Play, int]:
        """The cheapest move (:meth:`cheap_key`) that reaches the value of
        ``node``: the suggestion a player can trust (never a point card, a
        level card, a joker or an extra trump when a plain low card does
        as well). Null-window tests, cheapest candidate first."""
        if target is None:
            target = self.value(node)
        self._set_limit()
        return self._first_reaching(node, sorted(self.moves(node), key=self.cheap_key), target)

    def _first_reaching(self, node: Node, moves: Iterable[Play], target: int) -> tuple[Play, int]:
        """The first of ``moves`` whose value is ``target`` (null-window tests)."""
        maxi = self.attacker[self._to_move(node)]
        for m in moves:
            nxt, gain, _ = self._step(node, m)
            if nxt.terminal:
                v = gain
            elif maxi:
                v = gain + self._root(nxt.hands, nxt.leader, nxt.plays, target - gain - 1, target - gain)
            else:
                v = gain + self._root(nxt.hands, nxt.leader, nxt.plays, target - gain, target - gain + 1)
            if v == target:
                return m, target
        raise AssertionError("no move reaches the position's value")  # pragma: no cover

    def principal_variation(self, node: Node, tricks: int = 1) -> list[tuple[int, Play]]:
        """The plays under best play from ``node`` (seat index, cards) to the end
        of the current trick and ``tricks`` more (each the cheapest best move;
        a state is played on a copy)."""
        out: list[tuple[int, Play]] = []
        ends = 0
        cur: Node = node.copy() if isinstance(node, HandState) else node
        while ends <= tricks:
            if isinstance(cur, HandState):
                if cur.is_over:
                    break
                m, _ = self.cheapest_best(cur)
                out.append((Seat[cur.turn].value, m))
                cur.push(m)
                ended = not cur.plays
            else:
                if cur.terminal:
                    break
                m, _ = self.cheapest_best(cur)
                out.append((cur.to_move, m))
                cur, _ = self._after(cur, m)
                ended = not cur.plays
            if ended:
                ends += 1
        return out

    def playout(self, node: Node) -> int:
        """A fast guess of ``node``'s value for positions beyond the exact search's
        reach: the attackers' points from here to the end when every seat plays the
        move the search would try first (leads: the biggest and highest first;
        follows: take the trick for one's side with the most points, else give the
        fewest). One line, no search: exact only when the hand has one line left."""
        pos = self.position(node)
        if pos.terminal:
            return 0
        if self._native is not None and _crossable(pos.hands, pos.leader, pos.plays):
            return int(self._native.playout(pos.hands, pos.leader, pos.plays))
        hands, leader, plays = pos.hands, pos.leader, pos.plays
        reps = self._trick_reps(self._start_hands(hands, leader, plays))
        total = 0
        while plays or any(hands):
            k = len(plays)
            seat = (leader + k) % 4
            if k == 0:
                reps = self._trick_reps(hands)
                m = self._lead_moves(hands, seat)[0]
            else:
                moves = self._follow_moves(plays[0], hands[seat], reps[seat])
                m = self._ordered_follows(moves, leader, plays, seat)[0] if len(moves) > 1 else moves[0]
            hands = hands[:seat] + (_minus(hands[seat], m),) + hands[seat + 1:]
            plays = plays + (m,)
            if k == 3:
                w, pts, mult = self._trick(plays)
                wseat = (leader + w) % 4
                total += self._gain(self.attacker[wseat], not hands[wseat], pts, mult)
                leader, plays = wseat, ()
        return total

    def _ordered(self, node: Node) -> list[Play]:
        moves = self.moves(node)
        pos = self.position(node)
        if not pos.plays:
            if self._native is not None and _crossable(pos.hands, pos.leader, ()):
                got = self._native.table_move(pos.hands, pos.leader)
                first = None if got is None else tuple(got)
            else:
                e = self._tt.get(self._canon(pos.hands, pos.leader))
                first = None if e is None else e[2]
            if first is not None and first in moves:
                moves.remove(first)
                moves.insert(0, first)
        return moves

    # -- move generation ----------------------------------------------------------------

    def _follows(self, lead: Play, hand: tuple[int, ...]) -> list[Play]:
        """The engine's legal follows (what ``HandState.legal_follows`` gives:
        cards ascending, in ascending order), once per distinct lead and holding."""
        key = (lead, hand)
        got = self._follow_cache.get(key)
        if got is None:
            got = sorted(tuple(sorted(p)) for p in legal_follows(lead, Counter(hand), self.order, self.ruleset))
            self._follow_cache[key] = got
        return got

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
        moves = self._lead_order(self._distinct(moves, self._trick_reps(hands)[seat]))
        self._leads[key] = moves
        return moves

    def _lead_order(self, moves: list[Play]) -> list[Play]:
        """Strongest first: bigger leads, then higher tops (a cheap ordering that
        lets winning leads cut the tree early); ties keep their order."""
        key_of = self.order.key
        moves.sort(key=lambda m: (-len(m), -max(key_of[c] for c in m), -sum(POINTS[c] for c in m)))
        return moves

    def _single_unit_leads(self, hand: tuple[int, ...]) -> list[Play]:
        """The engine's distinct single-unit leads (what ``HandState.unit_leads``
        gives), cards ascending, in ascending order."""
        got = self._unit_leads.get(hand)
        if got is None:
            got = sorted({tuple(sorted(u.cards)) for u in single_unit_leads(Counter(hand), self.order)})
            self._unit_leads[hand] = got
        return got

    def _throw_candidates(self, hands: Hands, seat: int) -> list[tuple[Play, int]]:
        """The multi-unit leads of one effective suit worth asking
        :func:`replay.trick.check_throw` about: the engine's
        :func:`replay.trick.throw_options` (which singles cannot stand, §6)
        and :func:`replay.trick.throw_leads`, the leads cached per suit's options."""
        out: list[tuple[Play, int]] = []
        for ckey in throw_options(hands[seat], [h for i, h in enumerate(hands) if i != seat], self.order,
                                  self.ruleset):
            got = self._throw_cands.get(ckey)
            if got is None:
                suit = ckey[0]
                got = self._throw_cands[ckey] = [(cards, suit) for cards in throw_leads(ckey, self.order)]
            out.extend(got)
        return out

    # -- equivalent cards --------------------------------------------------------------

    def _trick_reps(self, hands: Hands) -> Reps:
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

    def _follow_moves(self, lead: Play, hand: tuple[int, ...], pairs: tuple[tuple[int, int], ...]) -> list[Play]:
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
        if self._native is not None and _crossable(hands, leader, plays):
            v, self.nodes, exceeded = self._native.search(hands, leader, plays, alpha, beta, self.nodes,
                                                          max(self._limit, 0))
            if exceeded:
                raise SearchBudgetExceeded("the search ran out of its node budget")
            return int(v)
        if not plays:
            return self._trick_start(hands, leader, alpha, beta)
        reps = self._trick_reps(self._start_hands(hands, leader, plays))
        return self._node(hands, leader, plays, alpha, beta, reps, None)

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


def _crossable(hands: Hands, leader: int, plays: tuple[Play, ...]) -> bool:
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


def solve(hands: Sequence[Iterable[int]], leader: int | str, order: Order, ruleset: Ruleset, dealer: str,
          kitty_points: int = 0, objective: str = "points") -> int:
    """The exact value of a trick-start position (a one-shot convenience)."""
    return Solver(order, ruleset, dealer, kitty_points, objective).value(position(hands, leader))
