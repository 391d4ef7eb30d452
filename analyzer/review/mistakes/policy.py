"""The review's own choice at a position of a hand being played: the policy of
:class:`analyzer.play.review_bot.ReviewBot` (``bench_review_random.py --bots review``).

:class:`ReviewChoice` writes the hand as far as it has been played (the record hand the
generator keeps, its finished tricks, the trick so far) with the seat's intended move in
the decision's place, replays it (:func:`replay.game.replay`) and values that decision
exactly as the review does (:func:`analyzer.review.mistakes.decisions.value_decision`: the
review's sampler, the options, exact solves in the last tricks and the bots' play-outs
before), with its own number of deals and **its own seed**: the review that later judges
the hand draws other deals (a choice made on the very deals it is judged on would be
best in-sample, so never a loss there). The best option for the seat's side is played
(the intended move on a tie: the options keep it first among equals).
"""

from __future__ import annotations

import copy

from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.decisions import value_decision
from analyzer.review.mistakes.pov import SEED
from notation.model import Hand, Play, Record, Trick
from replay.game import replay
from replay.state import HandState

#: deals a decision (the review's default is 8)
DEALS = 32
#: the choice's sampler seed: not the review's (:data:`analyzer.review.mistakes.pov.SEED`)
CHOICE_SEED = SEED + 1_000


def hand_so_far(hand: Hand, state: HandState, move: tuple[int, ...]) -> tuple[Hand, int, int]:
    """A copy of ``hand`` (its finished tricks) with the trick being played (``state.plays``)
    and ``move`` by the seat to play in it, written as the generator writes a trick (a failed
    throw as ``attempted -> forced``); and the decision's (trick index, play index)."""
    order = state.order
    ti, k = len(hand.tricks), len(state.plays)
    plays = [Play(seat=s, cards=tuple(order.sorted(c)), attempted=state.attempted if i == 0 else None)  # type: ignore[arg-type]
             for i, (s, c) in enumerate(state.plays)]
    cards, attempted = tuple(order.sorted(move)), None
    if k == 0:
        s = state.copy(undo=False)
        cards = tuple(order.sorted(s.push(cards)))
        attempted = s.attempted
    plays.append(Play(seat=state.turn, cards=cards, attempted=attempted))  # type: ignore[arg-type]
    out = copy.copy(hand)
    out.tricks = [*hand.tricks, Trick(number=state.trick_number, plays=plays)]
    out.points = None
    return out, ti, k


class ReviewChoice:
    """:class:`analyzer.play.review_bot.Choice`: the review's best option (module doc)."""

    def __init__(self, deals: int = DEALS, seed: int = CHOICE_SEED) -> None:
        self.deals = deals
        self.seed = seed

    def __call__(self, hand: Hand, state: HandState, proposal: tuple[int, ...]) -> tuple[int, ...] | None:
        written, ti, k = hand_so_far(hand, state, proposal)
        match = replay(Record(hands=[written]), ruleset=state.ruleset)
        if len(match.hands) != 1 or len(match.hands[0].tricks) != ti + 1:
            return None
        ctx = HandContext(match.hands[0], record_hand=written, match=match, samples=0)
        d = value_decision(ctx, ti, k, samples=self.deals, seed=self.seed)
        if d.forced or not d.judged or not d.options:
            return None
        return d.options[0].play


__all__ = ["CHOICE_SEED", "DEALS", "ReviewChoice", "hand_so_far"]
