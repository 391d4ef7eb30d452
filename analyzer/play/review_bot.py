"""A bot that plays the review's own choice (an experiment for issue 32: ``bench_review_random.py
--bots review``).

At each lead and follow of a four-seat, fixed-partner hand, :class:`ReviewBot` asks a
:class:`Choice` (given, not imported: the bots' package does not import the review;
:class:`analyzer.review.mistakes.policy.ReviewChoice` is the one the bench gives) which play
is best from the seat's own view as the review values a decision, and plays it; the plain
bot's own move stands when the choice has no answer (a forced play, a decision the review
could not judge) or is the plain move itself. The plain bot still decides first at every
play, so the generator's random stream is drawn as for the plain bot (declarations and the
bury are the plain bot's); the moves differ from the first changed play on.

The choice needs what the review reads of a hand besides the position (the declarations
and the bury, the throws seen), so the bot keeps the record hand the generator hands it
(:meth:`analyzer.play.bot.Bot.begin_play`); finding-friends tables keep the plain bot.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from analyzer.play.bot import Bot
from analyzer.play.views import BotParams, TrickView
from replay.ruleset import Ruleset
from replay.seats import SEATS
from replay.state import HandState

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

    from notation.model import Hand


class Choice(Protocol):
    """The best play of the seat to play in ``state`` from its own view (the review's valuation)."""

    def __call__(self, hand: Hand, state: HandState, proposal: tuple[int, ...]) -> tuple[int, ...] | None:
        """``hand``: the record hand as written so far (its finished tricks); ``state``: the
        position (the trick so far in ``state.plays``); ``proposal``: the plain bot's move.
        None: no answer (the caller keeps ``proposal``)."""
        ...


class ReviewBot(Bot):
    """:class:`~analyzer.play.bot.Bot` whose leads and follows are ``choice``'s (module doc)."""

    def __init__(self, ruleset: Ruleset, rng: random.Random, params: BotParams | None = None, *,
                 choice: Choice) -> None:
        super().__init__(ruleset, rng, params)
        self.choice = choice
        self.hand: Hand | None = None
        #: decisions asked / changed from the plain bot's move / with no answer
        self.asked = self.changed = self.cut = 0

    @classmethod
    def factory(cls, choice: Choice) -> Callable[[Ruleset, random.Random, BotParams | None], Bot]:
        """A ``make_bot`` for :func:`analyzer.play.generate.generate_match`."""
        def make(ruleset: Ruleset, rng: random.Random, params: BotParams | None = None) -> Bot:
            return cls(ruleset, rng, params, choice=choice)
        return make

    def begin_play(self, hand: Hand) -> None:
        self.hand = hand

    def lead(self, view: TrickView) -> tuple[int, ...]:
        return self._choose(view, tuple(super().lead(view)))

    def follow(self, view: TrickView) -> tuple[int, ...]:
        return self._choose(view, tuple(super().follow(view)))

    def _choose(self, view: TrickView, proposal: tuple[int, ...]) -> tuple[int, ...]:
        state = view.state
        if state is None or self.hand is None or view.team is not None or state.seats != SEATS:
            return proposal
        self.asked += 1
        got = self.choice(self.hand, state, proposal)
        if got is None:
            self.cut += 1
            return proposal
        if sorted(got) == sorted(proposal):
            return proposal
        self.changed += 1
        return tuple(got)


__all__ = ["Choice", "ReviewBot"]
