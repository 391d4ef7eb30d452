"""What the record replay returns: a match's, a hand's, a trick's and a play's results.

:func:`replay.game.replay` returns a :class:`MatchResult`: every hand's
:class:`HandResult` (the deal, kitty, bury, tricks, score, level changes and
diagnostics), each trick's :class:`TrickResult` (the holdings before and after
it built when asked, from the hand's :class:`History`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from primitives.diagnostics import Diagnostic, Span
from replay.order import Order
from replay.ruleset import Ruleset
from replay.scoring import SEAT_ORDER, HandOutcome, other_team, team_of
from replay.shapes import Unit
from replay.teams import FriendResult
from replay.throws import Blocker

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Play

#: ``diag(code, span, message, trick=None)``: report a diagnostic of the hand
DiagFn = Callable[..., None]


@dataclass(slots=True)
class PlayResult:
    seat: str
    cards: tuple[int, ...]                 # as played (a failed throw: the forced unit)
    attempted: tuple[int, ...] | None      # a failed throw's attempt
    span: Span


@dataclass(slots=True)
class TrickResult:
    number: int                            # 1-based
    leader: str
    #: the record's plays of this trick (notation.model.Play), in turn order
    source: Sequence[Play] = field(repr=False)
    #: each play's cards as played (a failed throw: the forced unit), as tuples, in turn order
    cards_played: list[tuple[int, ...]] = field(repr=False)
    winner: str
    points: int                            # point cards in the trick
    to_attackers: bool                     # the attackers won it
    penalty: int                           # signed change to the attackers' total from a failed throw
    attacker_points: int                   # running total after this trick (tricks + penalties)
    is_throw: bool
    failed_throw: bool
    blockers: tuple[Blocker, ...]
    winning_units: tuple[Unit, ...]
    ruffed: bool
    span: Span
    _history: History | None = field(default=None, repr=False, compare=False)
    _plays: tuple[PlayResult, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def plays(self) -> tuple[PlayResult, ...]:
        """The plays in turn order (built when first asked: linting never needs them)."""
        plays = self._plays
        if plays is None:
            src = self.source
            plays = self._plays = tuple([PlayResult(p.seat, cards, tuple(a) if (a := p.attempted) else None, p.span)
                                         for p, cards in zip(src, self.cards_played)])
        return plays

    def play_rows(self) -> Iterator[tuple[Play, tuple[int, ...]]]:
        """Each play's record line (seat, attempt, span) with its cards as played,
        in turn order: what :attr:`plays` pairs, without building its objects."""
        return zip(self.source, self.cards_played)

    @property
    def hands_before(self) -> tuple[tuple[int, ...], ...]:
        """Known holdings before this trick, by the hand's seats (N W S E; or P1…Pn), cards sorted."""
        return self._history.hands_at(self._index) if self._history else ((),) * 4

    @property
    def hands_after(self) -> tuple[tuple[int, ...], ...]:
        return self._history.hands_at(self._index + 1) if self._history else ((),) * 4

    @property
    def _index(self) -> int:
        """This trick's place in its hand's history (tricks without plays are not kept)."""
        return self._history.index_of(self.number) if self._history else 0

    @property
    def lead(self) -> PlayResult:
        return self.plays[0]

    def play_of(self, seat: str) -> PlayResult | None:
        for p in self.plays:
            if p.seat == seat:
                return p
        return None


class History:
    """The cards of a hand's tricks, for the holdings before and after each one.

    Shared by a :class:`HandResult` and its tricks; it refers to neither, so the
    results form no reference cycle and are freed as soon as they are dropped
    (no work for the cyclic garbage collector when millions of hands are linted).
    """

    __slots__ = ("start_hands", "numbers", "plays", "seats")

    def __init__(self, start_hands: dict[str, tuple[int, ...]], seats: tuple[str, ...] = SEAT_ORDER) -> None:
        self.start_hands = start_hands
        self.seats = seats
        self.numbers: list[int] = []                              # trick numbers, in order
        self.plays: list[tuple[Sequence[Play], list[tuple[int, ...]]]] = []  # (record plays, their cards)

    def index_of(self, number: int) -> int:
        return self.numbers.index(number)

    def hands_at(self, k: int) -> tuple[tuple[int, ...], ...]:
        if k <= 0:  # the start hands (kept sorted, positive counts): nothing to take out
            start = self.start_hands
            return tuple([tuple(sorted(start.get(s, ()))) for s in self.seats])
        hands = {s: Counter(self.start_hands.get(s, ())) for s in self.seats}
        for plays, cards in self.plays[:k]:
            for p, c in zip(plays, cards):
                h = hands.get(p.seat)
                if h is not None:
                    h.subtract(c)
        return tuple(tuple(sorted(c for c, n in hands[s].items() for _ in range(max(n, 0))))
                     for s in self.seats)


@dataclass
class HandResult:
    number: int
    span: Span
    ruleset: Ruleset
    levels: dict[str, int]                 # team → level before the hand
    level: int                             # the hand's level rank
    dealer: str | None
    declarer: str | None
    trump: int | None                      # 0..3 or NT (4)
    order: Order | None
    redeal: bool = False
    dealt: dict[str, tuple[int, ...]] = field(default_factory=dict)   # seat lines as written
    kitty: tuple[int, ...] | None = None   # the kitty before burying
    bury: tuple[int, ...] | None = None    # the final buried cards
    start_hands: dict[str, tuple[int, ...]] = field(default_factory=dict)  # at trick 1 (known part)
    known: dict[str, bool] = field(default_factory=dict)   # start hand fully known
    tricks: list[TrickResult] = field(default_factory=list)
    complete: bool = False
    card_points: int = 0
    penalties: int = 0
    kitty_points: int = 0                  # kitty points × multiplier added to the attackers
    multiplier: int = 0
    #: the kitty multiplier the last trick carries, whoever wins it (0: hand not complete)
    last_trick_multiplier: int = 0
    attacker_points: int = 0
    outcome: HandOutcome | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: tricks written without plays (``5.`` alone, or a trick line the reader could
    #: not read): after one, who leads and what each seat holds are not certain
    unknown_tricks: int = 0
    #: the table's seats in play order (finding friends: P1…Pn, or N W S E)
    seats: tuple[str, ...] = SEAT_ORDER
    #: finding friends: the dealer's team at the end of the hand (dealer first), else None
    team: tuple[str, ...] | None = None
    #: finding friends: each call and who answered it when (:class:`replay.teams.FriendResult`)
    friends: list[FriendResult] = field(default_factory=list)
    #: finding friends: the dealers won with a team smaller than called (+1 level, shengji.io)
    bonus: bool = False
    #: each ``declare`` line's act as :mod:`replay.declare` read it (:data:`replay.declare.ACTS`:
    #: ``declare``, ``override``, ``reinforce``, ``partner``, ``refused``), in record order
    declaration_acts: tuple[str, ...] = ()
    #: fixed partners: the dealer the declarations were read from, before they moved the deal (the
    #: previous hand's next dealer, or the one written where the previous hands leave none; on the
    #: match's first hand the one written, if any), and the seat the draw began from — what
    #: :func:`replay.declare.resolve_declarations` was given (``declarer_deals``/``attacker_level`` may
    #: then make :attr:`dealer` another seat)
    declared_from: str | None = None
    first_drawer: str | None = None

    @property
    def attackers(self) -> str | None:
        """The attacking side: a team (``NS``/``EW``), or finding friends the seats
        outside the dealer's final team (``P2 P4 P5``)."""
        if self.team is not None:
            return " ".join(s for s in self.seats if s not in self.team)
        return other_team(team_of(self.dealer)) if self.dealer else None

    def team_at(self, trick: int) -> tuple[str, ...]:
        """Finding friends: the dealer's team as known after trick ``trick`` (0: before play)."""
        if self.dealer is None:
            return ()
        team = [self.dealer]
        for f in self.friends:
            if f.seat is not None and f.trick is not None and f.trick <= trick and f.seat not in team:
                team.append(f.seat)
        return tuple(team)

    def points_breakdown(self) -> str:
        """The attackers' total in words: tricks, throw penalties, kitty × multiplier."""
        parts = [f"{self.card_points} in tricks"]
        if self.penalties:
            parts.append(f"{self.penalties:+d} in throw penalties")
        if self.kitty_points:
            parts.append(f"{self.kitty_points} from the kitty ×{self.multiplier}")
        return ", ".join(parts)

    def hands_at(self, k: int) -> tuple[tuple[int, ...], ...]:
        """Known holdings (sorted cards by SEAT_ORDER) after the first ``k`` tricks."""
        history = History(self.start_hands, self.seats)
        history.plays = [(t.source, t.cards_played) for t in self.tricks]
        return history.hands_at(k)


@dataclass
class MatchResult:
    ruleset: Ruleset
    hands: list[HandResult]
    diagnostics: list[Diagnostic]
    winner: str | None = None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


__all__ = ["DiagFn", "PlayResult", "TrickResult", "History", "HandResult", "MatchResult"]
