"""One match flow: :class:`MatchFlow`, the state machine of a match from hand to hand.

A match is a run of hands, each going through the same steps: the deal, the
declarations, the kitty and the bury, the tricks, the score, the levels, and
the next hand (its dealer, the level changes, or the match's end). What
happens inside a step is the engine's (:mod:`replay.declare`,
:mod:`replay.state`, :mod:`replay.scoring`, :mod:`replay.friend_calls`);
:class:`MatchFlow` keeps the order of the steps and what passes from one hand
to the next, for both tables (fixed partners and finding friends). Its two
drivers are the record replay (:func:`replay_match`, which
:func:`replay.game.replay` runs for either table; the importers reach it
through that replay) and the generator (:mod:`analyzer.play.generate`).

    flow = MatchFlow(ruleset)
    while not flow.over:
        hand = flow.begin()          # levels and dealer as the previous hands leave them
        flow.step("declare"); ...; flow.step("tricks")
        outcome = flow.score(levels, dealer, points, hooked=..., team=...)
        flow.end(outcome)            # the next hand's levels and dealer, or the end

A record may be wrong or partial: a hand's written levels and dealer are
taken as given when the previous hand leaves them unknown (``end(None)``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from primitives.diagnostics import Diagnostic
from replay.friend_calls import friends_bonus, friends_outcome
from replay.hand import FIXED, Table, replay_hand
from replay.results import HandResult, MatchResult
from replay.ruleset import Ruleset
from replay.scoring import HandOutcome, hand_outcome, hooks_back
from replay.seats import SEATS

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Record

#: the steps of a hand, in order (``next``: the hand is over, the next one not begun)
Phase = Literal["deal", "declare", "kitty", "bury", "tricks", "score", "next", "over"]
PHASES: tuple[Phase, ...] = ("deal", "declare", "kitty", "bury", "tricks", "score", "next", "over")


class HandStart(NamedTuple):
    """What a hand begins from: its number in the match (redeals keep it), the
    levels (team → level, or player → level; None: not known), the dealer
    (None: declaring decides, or not known) and whether it is the match's
    first hand (:meth:`MatchFlow.is_first`)."""

    number: int
    levels: dict[str, int] | None
    dealer: str | None
    first: bool


#: tuple.__new__ typed: a HandStart built without its Python-level ``__new__`` (once a hand, on lint's path)
_new_start = cast("Callable[[type[HandStart], tuple[Any, ...]], HandStart]", tuple.__new__)


class MatchFlow:
    """A match between and around its hands (see the module doc).

    ``levels`` and ``dealer``: what the next hand begins from. ``played``:
    the hands played to their end (a redeal is not one). ``over`` and
    ``winner``: the match is decided (a fixed number of hands played, a team
    or players over the top). ``redeals``: the redeals in a row since the
    last hand played. ``phase``: the step the current hand is at."""

    __slots__ = ("ruleset", "levels", "dealer", "played", "over", "winner", "redeals", "phase")

    def __init__(self, ruleset: Ruleset, levels: dict[str, int] | None = None, dealer: str | None = None) -> None:
        self.ruleset = ruleset
        self.levels = levels
        self.dealer = dealer
        self.played = 0
        self.over = False
        self.winner: str | None = None
        self.redeals = 0
        self.phase: Phase = "next"

    def begin(self, number: int | None = None, dealer: str | None = None) -> HandStart:
        """A hand is dealt: the levels and dealer it begins from. ``number`` and
        ``dealer``: as a record writes them (``first``: :meth:`is_first`)."""
        self.phase = "deal"
        played = self.played
        return _new_start(HandStart, (played + 1, self.levels, self.dealer,
                                      played == 0 and number in (None, 1) and dealer in (None, "?")))

    def is_first(self, number: int | None, dealer: str | None) -> bool:
        """Is a recorded hand the match's first: nothing played before it, not
        numbered as a later hand (a record may hold one hand of a match, e.g.
        ``hand 7`` with its levels and dealer) and its dealer not written as a
        seat (``dealer ?`` is "declaring decides")?"""
        return self.played == 0 and number in (None, 1) and dealer in (None, "?")

    def step(self, phase: Phase) -> None:
        """The current hand moves on to ``phase`` (deal → declare → kitty → bury → tricks → score)."""
        if PHASES.index(phase) < PHASES.index(self.phase) and self.phase != "next":
            raise ValueError(f"a hand cannot go back from {self.phase} to {phase}")
        self.phase = phase

    def redeal(self, levels: dict[str, int] | None, dealer: str | None) -> None:
        """Nobody declared and the rules redeal: the same hand again, from
        ``levels`` and ``dealer`` (the dealer stays unknown on the first hand)."""
        self.levels, self.dealer = levels, dealer
        self.redeals += 1
        self.phase = "next"

    def score(self, levels: dict[str, int], dealer: str, attacker_points: int, *, hooked: bool = False,
              team: tuple[str, ...] | None = None, seats: Sequence[str] = SEATS) -> HandOutcome:
        """The score, the levels after the hand, the next dealer and the match's end.

        Fixed partners (``team`` None): :func:`replay.scoring.hand_outcome`
        (``hooked``: the attackers won the last trick with a level card).
        Finding friends: :func:`replay.friend_calls.friends_outcome` for the
        dealer's final ``team`` at the table ``seats``."""
        self.phase = "score"
        rs = self.ruleset
        if team is None:
            return hand_outcome(rs, levels, dealer, attacker_points, last_trick_rank_hook=hooked,
                                hands_played=self.played + 1)
        return friends_outcome(rs, levels, dealer, team, tuple(seats), attacker_points)

    def end(self, outcome: HandOutcome | None) -> None:
        """The hand is over: the next hand's levels and dealer (None: not known,
        a hand not played to its end), and the match's end."""
        self.played += 1
        self.redeals = 0
        if outcome is not None:
            self.levels, self.dealer = outcome.levels, outcome.next_dealer
            if outcome.match_over and not self.over:
                self.over, self.winner = True, outcome.winner
        else:
            self.levels, self.dealer = None, None
        self.phase = "over" if self.over else "next"


def replay_match(record: Record, ruleset: Ruleset, diags: list[Diagnostic], table: Table = FIXED) -> MatchResult:
    """Drive a :class:`MatchFlow` through a record's hands, each replayed at
    ``table`` by :func:`replay.hand.replay_hand` (fixed partners, or finding friends)."""
    flow = MatchFlow(ruleset)
    hands: list[HandResult] = []
    for i, hand in enumerate(record.hands, 1):
        if flow.over:
            diags.append(Diagnostic.at("SJ504", hand.span,
                                       f"hand {i} is recorded after the match was decided ({flow.winner} won)",
                                       hand=i))
        _, levels, dealer, first = flow.begin(hand.number, hand.dealer)
        res = replay_hand(hand, i, ruleset, table, levels, dealer, first)
        hands.append(res)
        diags.extend(res.diagnostics)
        if res.redeal:
            flow.redeal(res.levels, res.dealer if flow.played > 0 else None)
            continue
        if res.complete and res.dealer and res.outcome is None:
            res.outcome = flow.score(res.levels, res.dealer, res.attacker_points, hooked=res.team is None and hooked(res),
                                     team=res.team, seats=res.seats)
            if res.team is not None:
                res.bonus = friends_bonus(ruleset, res.team, res.outcome.dealers_keep)
        flow.end(res.outcome)
    diags.sort(key=Diagnostic.sort_key)
    return MatchResult(ruleset, hands, diags, flow.winner)


def hooked(res: HandResult) -> bool:
    """The attackers won the last trick with a card of the level rank (hook back)."""
    if not res.tricks or res.order is None:
        return False
    last = res.tricks[-1]
    if not last.to_attackers:
        return False
    return hooks_back(last.winning_units, res.level)


__all__ = ["MatchFlow", "HandStart", "Phase", "PHASES", "replay_match", "hooked"]
