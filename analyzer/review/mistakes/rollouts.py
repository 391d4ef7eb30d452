"""A bot's move from its own view, valued as the review values a decision: the view bot
(``generate --bot view``).

The project's plain bots are omniscient (the generator shows them every holding). The
review judges every decision from the deciding player's own view, so a bot's move that
is good only because of cards it could not have seen is, correctly, a loss there: the
plain bots' accuracy is about 80 % (docs/performance.md, "Eighteenth session: bots that
play from their own view"; these bots: about 83 %).
:class:`ViewRollouts` plays what the review rewards: at each decision of the seat to play
it deals the cards that seat has not seen again (hand sizes and the suits each seat has
shown to be out of kept; the kitty too, but for the dealer who buried it:
:func:`analyzer.review.search.endgame.view_deals`, a simpler sampler than the review's), plays
each legal option out to the end of the hand with the plain bots in every deal (the
review's play-out, :func:`analyzer.review.mistakes.decisions.option_ends`, native when
installed) and plays the option best for the seat's side on average; the plain bot's own
move when it is among the best (a tie), or when there are more than :data:`MAX_OPTIONS`
options, or fewer than :data:`MIN_DEALS` deals could be played out.

Given to :class:`analyzer.play.strong.StrongBot` for every trick (the bots' package does
not import the review): ``StrongBot.factory(ViewRollouts(), tricks=ALL_TRICKS)``.
Deterministic: each question's deals and bots are drawn from a seed made of the position.
Four seats with fixed partners (StrongBot keeps the plain move elsewhere).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from analyzer.play.bot import Bot
from analyzer.review.mistakes.decisions import option_ends
from analyzer.review.search.endgame import view_deals
from replay.state import HandState

#: deals a question (each option played out once in each)
DEALS = 8
#: fewer deals played out than this: the plain bot's move stands
MIN_DEALS = 4
#: more legal options than this (a follow with many ways to discard): the plain bot's move stands
MAX_OPTIONS = 16
#: ``StrongBot``'s window that covers every trick of a hand
ALL_TRICKS = 1_000


class ViewRollouts:
    """The best option of the seat to play from its own view (module doc); the
    :class:`analyzer.play.strong.Endgame` protocol."""

    def __init__(self, deals: int = DEALS, seed: int = 0) -> None:
        self.deals = deals
        self.seed = seed

    def __call__(self, state: HandState, proposal: Sequence[int]) -> tuple[int, ...] | None:
        seat = state.turn
        plain = tuple(proposal)
        opts = list(state.legal_follows(limit=MAX_OPTIONS + 1)) if state.plays else list(state.unit_leads())
        if not any(sorted(o) == sorted(plain) for o in opts):
            opts.insert(0, plain)
        if len(opts) < 2 or len(opts) > MAX_OPTIONS:
            return plain
        key = (self.seed, state.seats.index(seat), state.trick_number, len(state.plays),
               tuple(sorted(state.holding(seat).elements())))
        rng = random.Random(repr(key))
        sign = -1 if state.defends(seat) else 1
        sums = [0] * len(opts)
        played = 0
        for st, _ in view_deals(state, seat, rng, self.deals):
            bots = Bot(state.ruleset, random.Random(rng.getrandbits(32)))
            ends = option_ends(st, opts, bots)
            if any(e is None for e in ends):
                continue
            played += 1
            for i, end in enumerate(ends):
                sums[i] += sign * end.final_points  # type: ignore[union-attr]
        if played < MIN_DEALS:
            return plain
        best = max(sums)
        mine = next(i for i, o in enumerate(opts) if sorted(o) == sorted(plain))
        if sums[mine] == best:
            return plain
        return opts[sums.index(best)]


__all__ = ["ALL_TRICKS", "DEALS", "MAX_OPTIONS", "MIN_DEALS", "ViewRollouts"]
