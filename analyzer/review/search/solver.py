"""The questions asked of the search (:class:`Solver`: values, moves, best
moves, principal variations) about a state or a lean node, and :func:`solve`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from analyzer.review.search.position import (
    INF,
    Node,
    Play,
    Position,
    TableKey,
    minus,
    position,
    position_of,
)
from analyzer.review.search.tree import Tree, crossable
from primitives.cards import POINTS
from replay.order import TRUMP, Order
from replay.ruleset import Ruleset
from replay.scoring import penalty_delta
from replay.seats import SEATS as SEAT_ORDER
from replay.seats import Seat
from replay.state import HandState


class Solver(Tree):
    """Exact endgame values for one hand (order, ruleset, dealer and kitty fixed).

    ``kitty_points`` are the point cards of the final kitty (the bury);
    ``objective`` is ``"points"`` or ``"last_trick"`` (see the module doc).
    """

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
        hands[seat] = minus(hands[seat], move)
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
        if self._native is not None and crossable(pos.hands, pos.leader, pos.plays):
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
            hands = hands[:seat] + (minus(hands[seat], m),) + hands[seat + 1:]
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
            if self._native is not None and crossable(pos.hands, pos.leader, ()):
                got = self._native.table_move(pos.hands, pos.leader)
                first = None if got is None else tuple(got)
            else:
                e = self._tt.get(self._canon(pos.hands, pos.leader))
                first = None if e is None else e[2]
            if first is not None and first in moves:
                moves.remove(first)
                moves.insert(0, first)
        return moves


def solve(hands: Sequence[Iterable[int]], leader: int | str, order: Order, ruleset: Ruleset, dealer: str,
          kitty_points: int = 0, objective: str = "points") -> int:
    """The exact value of a trick-start position (a one-shot convenience)."""
    return Solver(order, ruleset, dealer, kitty_points, objective).value(position(hands, leader))
