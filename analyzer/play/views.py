"""What a bot sees of a trick (:class:`TrickView`: every holding, the plays so
far, the teams) and the knobs of its policy (:class:`BotParams`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from replay.order import Order
from replay.ruleset import Ruleset
from replay.scoring import team_of
from replay.seats import SEATS, Seat
from replay.state import HandState

#: the seats after each seat in play order
_AFTER = {s: [Seat[s].next(4, k).name for k in (1, 2, 3)] for s in SEATS}
#: are two seats on one side (fixed partners: :func:`replay.scoring.team_of`), by pair
_MATES = {(a, b): team_of(a) == team_of(b) for a in SEATS for b in SEATS}


@dataclass(frozen=True)
class BotParams:
    """Knobs of the policy (probabilities are per decision)."""

    #: lead a throw that stands when one is available
    throw_chance: float = 0.35
    #: lead a throw without knowing that it stands (some of these fail)
    risky_throw_chance: float = 0.06
    #: declare at the end of the deal when nobody has declared yet
    last_chance_declare: float = 0.5
    #: override an opponent's declaration when our suit is good
    override_chance: float = 0.7
    #: reinforce one's own declaration when possible
    reinforce_chance: float = 0.75
    #: declare NT with a joker pair (over an opponent: twice as likely)
    joker_nt_chance: float = 0.3
    #: share of hands where nobody wants to declare while the cards are drawn
    shy_hand: float = 0.08
    #: in such a hand, the chance that a seat declares at the end of the deal
    shy_last_chance: float = 0.25
    #: campus, later hands: keep an override for after the bury (反主抄底)
    save_for_kitty: float = 0.5
    #: ruff a pointless trick an opponent is winning
    ruff_chance: float = 0.75
    #: cards left in hand from which the bot fights for the last trick
    endgame: int = 3


@dataclass
class TrickView:
    """What a bot sees when it plays: the position of one trick.

    ``holdings`` are every seat's current cards (the bots are omniscient);
    ``plays`` the plays of this trick so far, leader first, as played.
    """

    seat: str
    order: Order
    ruleset: Ruleset
    holdings: Mapping[str, Counter[int]]
    plays: list[tuple[str, tuple[int, ...]]]
    dealer: str
    trick_number: int
    #: points in the kitty at stake on the last trick (0: nothing to fight for)
    kitty_points: int = 0
    #: the table in play order (finding friends: P1…Pn)
    seats: tuple[str, ...] = SEATS
    #: finding friends: the dealer's team as revealed so far (None: fixed partners)
    team: frozenset[str] | None = None
    #: the engine's position (the generator plays through :class:`replay.state.HandState`):
    #: what the bot asks about throws
    state: HandState | None = None

    @classmethod
    def of(cls, state: HandState, friends: bool = False) -> TrickView:
        """The view of the seat to play in ``state`` (``friends``: show the team revealed so far)."""
        return cls(state.turn, state.order, state.ruleset, state.holdings, list(state.plays), state.dealer,
                   state.trick_number, state.kitty_points, state.seats,
                   frozenset(state.team) if friends else None, state)

    def refresh(self, state: HandState, friends: bool = False) -> None:
        """Make this the view of the seat to play in ``state`` now, as :meth:`of`
        would (a play-out keeps one view per hand instead of a new one per play)."""
        self.seat = state.turn
        self.holdings = state.holdings
        self.plays = list(state.plays)
        self.trick_number = state.trick_number
        if friends:
            self.team = frozenset(state.team)

    @property
    def holding(self) -> Counter[int]:
        return self.holdings[self.seat]

    @property
    def cards_left(self) -> int:
        return sum(self.holding.values())

    def after(self, seat: str) -> list[str]:
        """The other seats, in play order after ``seat``."""
        if self.team is None:
            return _AFTER[seat]
        n = len(self.seats)
        return [Seat[seat].next(n, k).name for k in range(1, n)]

    def later_seats(self) -> list[str]:
        """Seats still to play after this one in this trick."""
        if self.team is None:
            return _AFTER[self.seat][:3 - len(self.plays)]
        return self.after(self.seat)[:len(self.seats) - 1 - len(self.plays)]

    def mates(self, a: str, b: str) -> bool:
        """Are ``a`` and ``b`` on one side (as far as the table knows)?"""
        if self.team is None:
            got = _MATES.get((a, b))
            return team_of(a) == team_of(b) if got is None else got
        return (a in self.team) == (b in self.team)
