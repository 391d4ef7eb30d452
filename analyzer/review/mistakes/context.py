"""The per-hand context of the mistake rules (:class:`HandContext`): the
replayed hand, its teams, the engine's state at any play and the exact
endgame search's values and verdicts, built once and only when a rule asks;
:func:`make` writes a finding at a play of the hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, TypeVar

from analyzer.review.mistakes.findings import Mistake, band
from analyzer.review.mistakes.verdicts import Verdict, outcome_text, pv_text
from analyzer.review.search import SearchBudgetExceeded, Solver
from primitives.cards import points
from primitives.diagnostics import ERROR, INFO, Span
from replay.deck import remainder
from replay.order import TRUMP, Order
from replay.scoring import HandOutcome, hand_outcome, team_of
from replay.seats import SEATS as SEAT_ORDER
from replay.state import HandState
from replay.units import decompose

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Hand as RecordHand
    from replay.results import HandResult, MatchResult

T = TypeVar("T")

#: nodes a suggestion may spend past the hand's budget when the budget ran out
BEST_ALLOWANCE = 2_000
#: nodes any one question may visit even when the hand's pool is spent
QUESTION_ALLOWANCE = 100
#: default number of last tricks searched exactly (SJ602, SJ606, SJ610)
ENDGAME_TRICKS = 4
#: default node budget of one hand's endgame searches (a few hundredths of a
#: second of one core): fitting the window (1, 2, … K tricks) may spend half of
#: what is left per step; the questions along the recorded plays share the rest
#: plus as much again (review()). A hand whose window the budget cut short gets
#: an SJ690 note.
SEARCH_BUDGET = 10_000


# -- two compositions of the engine's answers (nothing decided here) -------------------------------

def best_so_far(st: HandState) -> int:
    """Index (into ``st.plays``) of the play winning the current trick so far
    (:meth:`replay.state.HandState.winning`; the trick has a lead)."""
    w = st.winning()
    assert w is not None, "the trick has no play yet"
    return w.index


class HandContext:
    """What the rules of one hand share: the replayed hand, its teams, the
    record's hand (when given), the engine's state at any play
    (:meth:`state`) and the endgame solvers and values, built once and only
    when a rule asks."""

    def __init__(self, hand: HandResult, *, record_hand: RecordHand | None = None,
                 endgame_tricks: int = ENDGAME_TRICKS, search_budget: int | None = SEARCH_BUDGET,
                 match: MatchResult | None = None, samples: int = 0, pov_budget: int = 0) -> None:
        self.hand = hand
        self.match = match
        self.record_hand = record_hand
        self.endgame_tricks = max(0, endgame_tricks)
        self.search_budget = search_budget
        #: the hand's card order (None only when the hand has no order: not :attr:`playable`)
        self.order: Order = hand.order  # type: ignore[assignment]
        self.ruleset = hand.ruleset
        self.dealer = hand.dealer
        self.dealers = team_of(hand.dealer) if hand.dealer and hand.team is None else None
        self.attackers = hand.attackers
        self._solvers: dict[str, Solver] = {}
        #: hidden deals sampled per decision judged from the player's view (analyzer.review.mistakes.pov)
        self.samples = samples
        #: nodes left for those searches in this hand
        self.pov_pool = pov_budget
        self._pool = float("inf") if search_budget is None else search_budget
        self._window: int | None = None
        self._values: dict[tuple[str, int, int], int | None] = {}
        self._verdicts: dict[tuple[int, int], Verdict | None] = {}
        self._holdings: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._states: dict[tuple[int, int], HandState] = {}
        self._outcomes: dict[tuple[int, bool], HandOutcome | None] = {}
        self._forced: dict[tuple[int, int], bool] = {}
        self._extremes: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        #: the window fitting stopped on the budget (fewer tricks than asked)
        self.budget_cut = False

    # -- facts about the hand --------------------------------------------------------------

    @property
    def playable(self) -> bool:
        """The hand was played (not redealt) with a known order and dealer."""
        h = self.hand
        return not h.redeal and h.order is not None and h.dealer is not None and bool(h.tricks)

    @cached_property
    def clean(self) -> bool:
        """No rule breach in the hand: the recorded holdings can be trusted."""
        return not any(d.severity == ERROR for d in self.hand.diagnostics)

    @cached_property
    def all_known(self) -> bool:
        """All four hands are known (seat lines, or reconstructed from a complete hand)."""
        return bool(self.hand.known) and all(self.hand.known.get(s, False) for s in SEAT_ORDER)

    @cached_property
    def consistent(self) -> bool:
        """Before every trick the four known holdings have the same size (a
        holding rebuilt from the plays can be off after a failed throw)."""
        return all(len({len(h) for h in self.hands_before(ti)}) == 1 for ti in range(len(self.hand.tricks)))

    def hands_before(self, t_index: int) -> tuple[tuple[int, ...], ...]:
        """The four holdings (N W S E) before trick ``t_index`` (0-based), cached."""
        got = self._holdings.get(t_index)
        if got is None:
            got = self._holdings[t_index] = self.hand.tricks[t_index].hands_before
        return got

    @cached_property
    def searchable(self) -> bool:
        """Complete, clean, all four hands known: the search-based rules apply."""
        return (self.playable and self.clean and self.all_known and self.hand.complete
                and self.consistent and not any(self.hand.tricks[-1].hands_after))

    # -- teams (asked of the engine's HandState) ------------------------------------------------

    @cached_property
    def _table(self) -> HandState | None:
        """A state with no cards: the teams as they stand at the start of play
        (fixed partners: they do not change)."""
        if not self.dealer:
            return None
        return HandState(self.ruleset, self.order, {}, leader=self.dealer, dealer=self.dealer,
                         seats=self.hand.seats)

    def is_attacker(self, seat: str) -> bool:
        """Is ``seat`` outside the dealer's team? (False when the hand has no dealer)"""
        table = self._table
        return table is not None and not table.defends(seat)

    def mates(self, a: str, b: str) -> bool:
        """Are ``a`` and ``b`` on one side? (:meth:`replay.state.HandState.mates`)"""
        table = self._table
        return table.mates(a, b) if table is not None else team_of(a) == team_of(b)

    # -- facts about cards (the hand's order) ------------------------------------------------------

    def is_trump(self, card: int) -> bool:
        return self.order.eff[card] == TRUMP

    def suit(self, card: int) -> int:
        """The card's effective suit (0..3, or :data:`replay.order.TRUMP`)."""
        return self.order.eff[card]

    def rank(self, card: int) -> int:
        """The card's strength in the hand's order (higher beats lower within a suit)."""
        return self.order.key[card]

    def is_throw(self, cards: Sequence[int]) -> bool:
        """Are ``cards`` several units (a throw, 甩牌) rather than one?"""
        return len(decompose(cards, self.order)) >= 2

    @property
    def burier(self) -> str | None:
        """Who made the hand's last bury (the record's ``bury`` line when given, else the dealer)."""
        rh = self.record_hand
        if rh is not None and rh.buries:
            return rh.buries[-1].seat
        return self.dealer if self.hand.bury is not None else None

    @cached_property
    def kitty_cards(self) -> tuple[int, ...] | None:
        """The final kitty (the bury, or what the known hands leave of the decks)."""
        h = self.hand
        if h.bury is not None:
            return tuple(h.bury)
        if not self.all_known or not h.start_hands:
            return None
        return remainder(self.ruleset, *h.start_hands.values())

    def points_before(self, t_index: int) -> int:
        """Attacker points (tricks and penalties) before trick ``t_index`` (0-based)."""
        return self.hand.tricks[t_index - 1].attacker_points if t_index > 0 else 0

    # -- outcomes --------------------------------------------------------------------------

    def outcome(self, total: int, hooked: bool = False) -> HandOutcome | None:
        """The hand's outcome for ``total`` attacker points (kept per total: the review asks
        for a few dozen totals thousands of times)."""
        key = (total, hooked)
        try:
            return self._outcomes[key]
        except KeyError:
            pass
        h = self.hand
        got = None
        if h.outcome is not None and h.dealer:
            got = hand_outcome(self.ruleset, h.levels, h.dealer, total, last_trick_rank_hook=hooked)
        self._outcomes[key] = got
        return got

    def level_change(self, actual_total: int, better_total: int, *, actual_hooked: bool | None = None,
                     better_hooked: bool | None = None, actual_label: str = "in the hand",
                     better_label: str = "with the better play") -> str | None:
        """How the hand's level outcome would differ with ``better_total``
        attacker points instead of ``actual_total`` (None when it would not).
        The labels say what each total is (the search's totals are "after
        this play" and "with the best play", both followed by best play)."""
        h = self.hand
        if h.outcome is None:
            return None
        hooked_now = h.outcome.hooked_back if actual_hooked is None else actual_hooked
        a = self.outcome(actual_total, hooked_now)
        b = self.outcome(better_total, hooked_now if better_hooked is None else better_hooked)
        if a is None or b is None or self.dealers is None or (a.levels == b.levels
                                                               and a.next_dealer == b.next_dealer):
            return None
        return f"{outcome_text(b, self.dealers)} {better_label}, {outcome_text(a, self.dealers)} {actual_label}"

    # -- the endgame search ----------------------------------------------------------------

    def new_solver(self, kitty_points: int, objective: str = "points") -> Solver:
        """A fresh endgame solver of this hand with ``kitty_points`` at stake on the last trick."""
        assert self.dealer is not None, "a searched hand has a dealer"
        return Solver(self.order, self.ruleset, self.dealer, kitty_points, objective)

    def solver(self, objective: str = "points") -> Solver:
        """The hand's solver for ``objective`` (shared by every question about the hand)."""
        s = self._solvers.get(objective)
        if s is None:
            s = self._solvers[objective] = self.new_solver(points(self.kitty_cards or ()), objective)
        return s

    def ask(self, objective: str, question: Callable[[Solver], T], share: float = 1.0) -> T:
        """Run ``question(solver)`` within the hand's node budget (``share`` of
        what is left); SearchBudgetExceeded when it runs out."""
        s = self.solver(objective)
        if self.search_budget is not None and self.search_budget <= 0:
            raise SearchBudgetExceeded("no search budget")
        # a spent pool still answers what a few nodes settle (the last tricks): the
        # window's plays the search can reach cheaply keep their exact verdict
        allowed = max(self._pool * share, QUESTION_ALLOWANCE)
        before = s.nodes
        s.node_limit = before + int(allowed) if allowed != float("inf") else None
        try:
            return question(s)
        finally:
            s.node_limit = None
            self._pool -= s.nodes - before

    def node(self, t_index: int, k: int) -> HandState:
        """The position before play ``k`` of trick ``t_index`` (0-based) for a
        question of the endgame search about its moves: a copy of
        :meth:`state` (the search pushes and pops the moves on the state it
        is given; a value question reads the shared state itself)."""
        return self.state(t_index, k).copy()

    def state(self, t_index: int, k: int = 0) -> HandState:
        """The engine's :class:`replay.state.HandState` before play ``k`` of trick
        ``t_index`` (0-based), from the known holdings: what a rule asks about
        legal plays, who is winning the trick so far, the teams and the score
        (never deciding a rule itself).

        The state is cached and shared by every rule that asks (one per
        play, each the copy of the one before with the play pushed): do not
        move it; ask "what if" of :meth:`~replay.state.HandState.winner_if` or on a
        :meth:`~replay.state.HandState.copy`."""
        key = (t_index, k)
        st = self._states.get(key)
        if st is not None:
            return st
        if k == 0:
            st = self._states[key] = self._new_state(t_index)
            return st
        st = self.state(t_index, k - 1).copy()
        p = self.hand.tricks[t_index].plays[k - 1]
        st.push(p.attempted or p.cards if k == 1 else p.cards, check=False)
        self._states[key] = st
        return st

    def _new_state(self, t_index: int) -> HandState:
        h, t = self.hand, self.hand.tricks[t_index]
        assert h.dealer is not None
        return HandState(self.ruleset, self.order, dict(zip(h.seats, self.hands_before(t_index), strict=True)),
                         leader=t.leader, dealer=h.dealer, seats=h.seats,
                         kitty_points=points(self.kitty_cards or ()), first_trick=t.number)

    @property
    def window_start(self) -> int | None:
        """Index of the first trick the exact search covers, or None when the
        hand cannot be searched. The window is always the last
        ``endgame_tricks`` tricks (it never shrinks): the endgame is solved
        from 1, 2, … tricks before the end (each solve fills the table the
        next one reuses) within half of the budget left at each step; when the
        budget runs out (``budget_cut``), the plays of the window the search
        cannot reach get no exact verdict, and each is said (SJ690) and left
        out of accuracy."""
        if self._window is None:
            self._window = self._fit_window()
        return self._window if self._window >= 0 else None

    def _fit_window(self) -> int:
        if not self.searchable or self.endgame_tricks == 0:
            return -1
        n = len(self.hand.tricks)
        fitted = n - min(self.endgame_tricks, n)
        for size in range(1, min(self.endgame_tricks, n) + 1):
            start = n - size
            pos = self.state(start, 0)  # a value question: the search only reads the state
            try:
                self.ask("points", lambda s: s.value(pos), share=0.5)
            except SearchBudgetExceeded:
                self.budget_cut = True
                break  # the window stays: the plays the search cannot reach are said, per play
        if self.search_budget is not None:
            # the questions along the recorded plays of the window get a budget of
            # their own on top of what the fitting left: a verdict inside the
            # window should come from the search, not from a spent pool
            self._pool += self.search_budget
        return fitted

    def value(self, t_index: int, k: int, objective: str = "points") -> int | None:
        """Exact value of the position before play ``k`` of trick ``t_index``
        (``k`` = 4: after the trick, including its gain); None when out of
        the window or out of budget."""
        start = self.window_start
        if start is None or t_index < start:
            return None
        if k == 4:
            gain = self._trick_gain(t_index, objective)
            if t_index + 1 == len(self.hand.tricks):
                return gain
            nxt = self.value(t_index + 1, 0, objective)
            return None if nxt is None else gain + nxt
        key = (objective, t_index, k)
        if key not in self._values:
            pos = self.state(t_index, k)  # a value question: the search only reads the state
            try:
                self._values[key] = self.ask(objective, lambda s: s.value(pos))
            except SearchBudgetExceeded:
                self._values[key] = None
        return self._values[key]

    def _trick_gain(self, t_index: int, objective: str) -> int:
        """What a completed trick added to the value (attacker points incl. the
        kitty on the last trick, or 1/0 for the last trick objective)."""
        t = self.hand.tricks[t_index]
        last = t_index + 1 == len(self.hand.tricks)
        if objective == "last_trick":
            return 1 if (last and t.to_attackers) else 0
        gain = t.points if t.to_attackers else 0
        if last and t.to_attackers:
            gain += self.hand.kitty_points
        return gain

    def play_value(self, t_index: int, k: int, objective: str = "points") -> int | None:
        """Value of the position after the recorded play ``k`` (a failed throw
        counts its penalty)."""
        v = self.value(t_index, k + 1, objective)
        if v is None:
            return None
        if k == 0 and objective == "points":
            v += self.hand.tricks[t_index].penalty
        return v

    # -- the verdict of one play (inside the window) ---------------------------------------

    def in_window(self, t_index: int) -> bool:
        start = self.window_start
        return start is not None and t_index >= start

    def judge(self, t_index: int, k: int) -> Verdict | None:
        """The exact verdict on play ``k`` of trick ``t_index``: its cost for
        the player's side (best play's value − the play's value, both
        followed by best play) and the attacker totals either way; None
        outside the window or when the budget ran out."""
        key = (t_index, k)
        if key in self._verdicts:
            return self._verdicts[key]
        got = None
        if self.in_window(t_index):
            before = self.value(t_index, k)
            after = self.play_value(t_index, k)
            if before is not None and after is not None:
                t = self.hand.tricks[t_index]
                att = self.is_attacker(t.plays[k].seat)
                cost = max(0, before - after if att else after - before)
                base = self.points_before(t_index) + (t.penalty if k > 0 else 0)
                got = Verdict(cost, base + before, base + after)
        self._verdicts[key] = got
        return got

    def unjudged(self) -> list[tuple[int, int]]:
        """The plays (trick index, play index) of the window that got no exact
        verdict (the node budget ran out)."""
        start = self.window_start
        if start is None:
            return []
        return [(ti, k) for ti in range(start, len(self.hand.tricks))
                for k in range(len(self.hand.tricks[ti].plays)) if self.judge(ti, k) is None]

    def forced(self, t_index: int, k: int) -> bool:
        """Play ``k`` of trick ``t_index`` had one legal option (no decision); cached
        (the review and the hand's summary both ask)."""
        key = (t_index, k)
        got = self._forced.get(key)
        if got is None:
            st = self.state(t_index, k)
            if k:
                got = len(st.legal_follows(limit=2)) <= 1
            else:
                lead = self.hand.tricks[t_index].plays[0]
                got = len(st.unit_leads()) <= 1 and not self.is_throw(lead.attempted or lead.cards)
            self._forced[key] = got
        return got

    def follow_extremes(self, t_index: int, k: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The engine's legal follows with the fewest and the most points before
        follow ``k`` (> 0) of trick ``t_index`` (:meth:`~replay.state.HandState.follow_extremes`
        of :meth:`state`), cached: SJ604 and SJ605 ask of the same plays, and on
        three decks a follow's legal plays run to thousands."""
        key = (t_index, k)
        got = self._extremes.get(key)
        if got is None:
            got = self._extremes[key] = self.state(t_index, k).follow_extremes()
        return got

    def pattern_note(self, t_index: int) -> str:
        """What a pattern rule's finding adds when the search could not judge
        the play although it lies in the window (the budget ran out): said,
        never silent."""
        if self.in_window(t_index):
            return " (the node budget ran out before the search reached this play: judged by the pattern)"
        return ""

    def best_line(self, t_index: int, k: int) -> tuple[tuple[int, ...] | None, str]:
        """The cheapest best play at play ``k`` of trick ``t_index`` and the
        principal variation from there (text: the rest of this trick and the
        next one under best play); (None, "") when the budget ran out."""
        pos = self.node(t_index, k)
        try:
            # the line may take a part of what is left only: the verdicts come first
            pv = self.ask("points", lambda s: s.principal_variation(pos, 1), share=0.25)
        except SearchBudgetExceeded:
            # the line is a nicety, the suggestion is not: a small allowance past
            # the hand's budget for it (the position's value is usually in the table)
            s = self.solver("points")
            s.node_limit = s.nodes + BEST_ALLOWANCE
            try:
                best, _ = s.cheapest_best(pos)
            except SearchBudgetExceeded:
                return None, ""
            finally:
                s.node_limit = None
            return tuple(best), ""
        if not pv:
            return None, ""
        return tuple(pv[0][1]), pv_text(pv, self.order, t_index + 1, k)

    def verdict_text(self, t_index: int, k: int, v: Verdict) -> tuple[tuple[int, ...] | None, str]:
        """(best play, text) for an in-window finding: what the best play was,
        the line it leads to, and the attacker totals with it and after the
        play made (both followed by best play), and what the hand gave."""
        best, line = self.best_line(t_index, k)
        t = self.hand.tricks[t_index]
        p = t.plays[k]
        from replay.texts import cards_text
        text = ""
        if best is not None:
            text += f"best was {cards_text(best, self.order)}"
            if line:
                text += f" ({line})"
            text += "; "
        text += (f"with best play from this position the attackers finish with {v.best_total} points, "
                 f"after {p.seat}'s play (best play after it) with {v.after_total}; "
                 f"in the hand they scored {self.hand.attacker_points}")
        return best, text

    def verdict_finding(self, code: str, text: str, t_index: int, k: int, v: Verdict,
                        played: str | None = None) -> Mistake:
        """The finding for play ``k`` of trick ``t_index`` as the exact search
        judged it (``v``): ``text``, then the best play, its line and the
        totals (:meth:`verdict_text`), with the cost and level outcome of the
        verdict; ``played`` names the play in the level outcome (default: its cards)."""
        best, why = self.verdict_text(t_index, k, v)
        t = self.hand.tricks[t_index]
        p = t.plays[k]
        if played is None:
            from replay.texts import cards_text
            played = cards_text(p.cards, self.order)
        return make(code, f"{text}; {why}", ctx=self, span=p.span, trick=t.number, seat=p.seat, cost=v.cost,
                    level_change=self.verdict_change(v, played), best=best)

    def verdict_change(self, v: Verdict, played: str) -> str | None:
        return self.level_change(v.after_total, v.best_total, actual_label=f"after {played}",
                                 better_label="with the best play")

    def signed_change(self, seat: str, cost: int) -> str | None:
        """Level consequence of a heuristic ``cost`` (points against ``seat``'s
        team) measured on the hand's actual total."""
        h = self.hand
        if h.outcome is None:
            return None
        actual = h.attacker_points
        better = actual + cost if self.is_attacker(seat) else actual - cost
        return self.level_change(actual, better, actual_label="in the hand",
                                 better_label="without this loss")


def make(code: str, text: str, *, ctx: HandContext, span: Span | None, trick: int | None,
         seat: str | None, cost: int, level_change: str | None = None, target: str = "play",
         best: tuple[int, ...] | None = None, show_cost: bool = True, hidden: bool | None = None) -> Mistake:
    """A finding with the band and cost written at the head of its message."""
    b = band(cost, level_change is not None)
    if not show_cost:
        head = f"{b} (cost not measured)"
    elif cost:
        head = f"{b} ({cost} points)"
    else:
        head = f"{b} (no points lost)"
    if level_change:
        head += f", level outcome: {level_change}"
    s = span or Span()
    return Mistake(code, f"{head}: {text}", s.line, s.column, s.end_line, s.end_column, INFO,
                   ctx.hand.number, trick, seat, target, cost, b, level_change, best, hidden)
