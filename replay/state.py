"""One hand in play: :class:`HandState`, the engine's position API.

In the manner of python-chess's ``chess.Board``: a :class:`HandState` holds
the holdings of every seat, the trick in progress, the tricks done and the
score, and moves on by :meth:`HandState.push` (one seat's play) and back by
:meth:`HandState.pop`. It answers what is legal (:meth:`HandState.legal_plays`,
:meth:`HandState.is_legal`), whose turn it is, who is winning the trick, and
the attackers' points. Every rule it applies is the engine's own
(:mod:`replay.trick`, :mod:`replay.units`, :mod:`replay.legal`,
:mod:`replay.scoring`, :mod:`replay.teams`): the generator's bots, the
endgame search and the mistake rules ask it instead of deciding a rule
themselves, and :mod:`replay.game` replays a record's tricks on its lenient
record mode, :class:`replay.record.RecordState` (one per hand:
``record_tricks`` applies the tricks as written and reports each ``Fault``).

Internals are cheap: holdings are ``Counter`` maps card → copies (cards are
ints), plays are tuples, and a finished trick is one tuple
(:class:`TrickDone`); there is no object per play.

Example::

    from replay.ruleset import preset
    from replay.state import HandState

    st = HandState.new(preset("standard"), level=2, trump=0,
                       holdings={"N": n_cards, "W": w_cards, "S": s_cards, "E": e_cards},
                       leader="N", dealer="N")
    for play in st.legal_plays():     # every legal lead of N (throws included)
        ...
    st.push((0,))                     # N leads a card; W is to play
    st.pop()                          # and back

The hand's teams are one :class:`replay.teams.Teams`: fixed partners are
known from the start; a finding-friends table (``P1``…``Pn``, built with
``seats`` and the friend ``calls``, :class:`replay.teams.FriendResult`)
starts with the dealer alone, the team grows as the calls are answered, and
:attr:`HandState.attacker_points` counts for the players outside it as it stands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple, cast

from primitives.cards import JOKER_LEVEL, POINTS
from replay.holdings import Cards, remove_from
from replay.order import Order
from replay.questions import PositionQuestions
from replay.ruleset import Ruleset
from replay.scoring import hooks_back, last_trick_multiplier
from replay.seats import SEATS
from replay.shapes import Unit
from replay.teams import FriendResult, Snapshot, Teams
from replay.trick import (
    ThrowCheck,
    Winner,
    check_throw,
    throw_penalty,
    trick_winner,
)
from replay.units import decompose

# -- the state -----------------------------------------------------------------------------------------

class IllegalPlay(ValueError):
    """:meth:`HandState.push` was given a play the rules do not allow."""


class TrickDone(NamedTuple):
    """A finished trick (one tuple: no object per play)."""

    number: int                                 # 1-based
    leader: str
    plays: tuple[tuple[str, Cards], ...]        # (seat, cards as played) in turn order
    attempted: Cards | None                     # a failed throw's attempt (the lead played the forced unit)
    winner: str
    points: int                                 # point cards in the trick
    penalty: int                                # the failed throw's cost (unsigned; 0: none)
    units: tuple[Unit, ...]                     # the winning play's units
    ruffed: bool
    friends_before: tuple[tuple[str | None, int | None], ...]   # the calls' answers before the trick
    skips_before: tuple[int, ...]
    team_before: tuple[str, ...]

    @property
    def teams_before(self) -> Snapshot:
        """The hand's :class:`~replay.teams.Teams` before the trick (what :meth:`Teams.restore` takes)."""
        return self.friends_before, self.skips_before, self.team_before


class HandState(PositionQuestions):
    """The position of one hand during the play of the tricks (see the module doc).

    ``holdings`` maps each seat to its cards (any iterable of cards, or a
    card → copies map). The hand's teams are one :class:`~replay.teams.Teams`
    (``teams``), or made from ``team``, the dealer's team as known at the
    start (fixed partners: the dealer and partner, the default), and the
    friend ``calls`` (finding friends: the dealer alone by default).
    """

    __slots__ = ("ruleset", "order", "seats", "dealer", "kitty_points", "_index", "_n", "_hands",
                 "_leader", "_plays", "_attempted", "_penalty", "_done", "_teams", "_first_trick", "_undo")

    def __init__(self, ruleset: Ruleset, order: Order, holdings: Mapping[str, Iterable[int]], *,
                 leader: str, dealer: str, seats: Sequence[str] = SEATS, team: Sequence[str] | None = None,
                 calls: list[FriendResult] | None = None, kitty_points: int = 0, first_trick: int = 1,
                 teams: Teams | None = None) -> None:
        self.ruleset = ruleset
        self.order = order
        self.seats: tuple[str, ...] = tuple(str(s) for s in seats)
        self.dealer = str(dealer)
        #: the kitty's point cards (the bury), at stake on the last trick
        self.kitty_points = kitty_points
        self._n = len(self.seats)
        self._index = {s: i for i, s in enumerate(self.seats)}
        self._hands: dict[str, Counter[int]] = {}
        for s in self.seats:
            h = holdings.get(s, ())
            self._hands[s] = +Counter(h) if not isinstance(h, Mapping) else +Counter(dict(h))
        self._leader = self._index[str(leader)]
        self._plays: list[tuple[str, Cards]] = []
        self._attempted: Cards | None = None
        self._penalty = 0
        self._done: list[TrickDone] = []
        if teams is None:
            held = ruleset.friend_rule == "held"
            if team is not None:
                teams = Teams([str(s) for s in team], settled=calls is None, calls=calls, held=held)
            elif self._n == 4 and calls is None:
                teams = Teams.fixed(self.dealer, self.seats)
            else:
                teams = Teams.forming(self.dealer, calls, held=held)
        self._teams = teams
        self._first_trick = first_trick
        #: the holdings' key order before each push that emptied a card's count (see :meth:`pop`;
        #: None in a copy made with ``undo=False``)
        self._undo: list[tuple[int, int, object]] | None = []

    @classmethod
    def new(cls, ruleset: Ruleset, *, level: int, trump: int, holdings: Mapping[str, Iterable[int]],
            leader: str, dealer: str, seats: Sequence[str] = SEATS, team: Sequence[str] | None = None,
            calls: list[FriendResult] | None = None, kitty_points: int = 0) -> HandState:
        """A state from the hand's level rank and trump (0..3, or 4 = NT) instead of an :class:`Order`."""
        order = Order.for_ruleset(level, 4 if level == JOKER_LEVEL else trump, ruleset)
        return cls(ruleset, order, holdings, leader=leader, dealer=dealer, seats=seats, team=team, calls=calls,
                   kitty_points=kitty_points)

    # -- reading the position -------------------------------------------------------------------

    @property
    def holdings(self) -> Mapping[str, Counter[int]]:
        """Every seat's cards now (card → copies). Read only: change them by push/pop."""
        return self._hands

    def holding(self, seat: str) -> Counter[int]:
        return self._hands[str(seat)]

    @property
    def leader(self) -> str:
        """Who leads (led) the current trick."""
        return self.seats[self._leader]

    @property
    def turn(self) -> str:
        """The seat to play now."""
        return self.seats[(self._leader + len(self._plays)) % self._n]

    @property
    def plays(self) -> tuple[tuple[str, Cards], ...]:
        """The current trick's plays so far, ``(seat, cards as played)``, leader first."""
        return tuple(self._plays)

    @property
    def lead(self) -> Cards | None:
        """The current trick's lead as played (a failed throw: the forced unit), or None."""
        return self._plays[0][1] if self._plays else None

    @property
    def attempted(self) -> Cards | None:
        """The current trick's failed throw (the attempt), or None."""
        return self._attempted

    @property
    def trick_number(self) -> int:
        """The number of the current trick (1-based; after the last trick: one more)."""
        return self._first_trick + len(self._done)

    @property
    def tricks(self) -> tuple[TrickDone, ...]:
        """The finished tricks, in order."""
        return tuple(self._finished())

    @property
    def last_trick(self) -> TrickDone | None:
        done = self._finished()
        return done[-1] if done else None

    @property
    def is_over(self) -> bool:
        """Every card is played (and no trick is in progress)."""
        return not self._plays and not any(self._hands.values())

    def winning(self) -> Winner | None:
        """The current trick's best play so far (``index`` into :attr:`plays`), or None before the lead."""
        if not self._plays:
            return None
        if len(self._plays) == 1:
            return Winner(0, tuple(decompose(self._plays[0][1], self.order)), False)
        return trick_winner([c for _, c in self._plays], self.order, self.ruleset)

    @property
    def winner_so_far(self) -> str | None:
        """The seat winning the current trick so far (None before the lead)."""
        w = self.winning()
        return None if w is None else self._plays[w.index][0]

    # -- teams and score --------------------------------------------------------------------------

    @property
    def team(self) -> tuple[str, ...]:
        """The dealer's team as known now (finding friends: grows as calls are answered)."""
        return tuple(self._teams.members)

    @property
    def teams(self) -> Teams:
        """The hand's teams (read only: the tricks move them)."""
        return self._teams

    @property
    def calls(self) -> tuple[FriendResult, ...]:
        return tuple(self._teams.calls)

    def defends(self, seat: str) -> bool:
        """Is ``seat`` on the dealer's team (as known now)?"""
        return str(seat) in self._teams.members

    def mates(self, a: str, b: str) -> bool:
        """Are ``a`` and ``b`` on one side (as known now)?"""
        team = self._teams.members
        return (str(a) in team) == (str(b) in team)

    @property
    def trick_points(self) -> tuple[int, ...]:
        """The point cards of each finished trick."""
        return tuple(t.points for t in self._finished())

    @property
    def attacker_points(self) -> int:
        """The attackers' points so far: the tricks they won and the throw
        penalties (signed), the dealer's team taken as known now; the kitty not included."""
        team = self._teams.members
        total = 0
        for t in self._finished():
            if t.winner not in team:
                total += t.points
            if t.penalty:
                total += t.penalty if t.plays[0][0] in team else -t.penalty
        return total

    @property
    def kitty_multiplier(self) -> int:
        """After the last trick: the kitty's multiplier when the attackers won it, else 0."""
        done = self._finished()
        last = done[-1] if done and self.is_over else None
        if last is None or last.winner in self._teams.members or not last.units:
            return 0
        return last_trick_multiplier(self.ruleset, self.order, last.units, len(last.plays[0][1]),
                                     last.plays[-1][1])

    @property
    def hooked(self) -> bool:
        """After the last trick: the attackers won it with a card of the level rank."""
        done = self._finished()
        last = done[-1] if done and self.is_over else None
        return bool(last is not None and last.winner not in self._teams.members
                    and hooks_back(last.units, self.order.level))

    @property
    def final_points(self) -> int:
        """The attackers' total: :attr:`attacker_points` plus the kitty × multiplier (when they won the last trick)."""
        return self.attacker_points + self.kitty_points * self.kitty_multiplier

    # -- legality (the rest: replay.questions) ------------------------------------------------------

    def throw_check(self, cards: Sequence[int]) -> ThrowCheck:
        """Would a lead of ``cards`` by the seat to play stand? (§6 throw check: the blockers and
        the forced unit; no blockers for a single unit or under ``throw_check: none``)."""
        ring = [self.seats[(self._leader + k) % self._n] for k in range(self._n)]
        return check_throw(tuple(cards), 0, [self.holding(s) for s in ring], ring, self.order, self.ruleset)

    # -- moving -------------------------------------------------------------------------------------

    def push(self, play: Sequence[int], *, check: bool = True) -> Cards:
        """The seat to play plays ``play``; the cards actually played (a lead
        that is a failed throw plays the forced unit: :attr:`attempted` keeps
        the attempt and the penalty is counted). ``check``: refuse an illegal
        play (:class:`IllegalPlay`)."""
        seat = self.seats[(self._leader + len(self._plays)) % self._n]   # (self.turn, inlined: the hot path)
        cards = tuple(play)
        if check and not self.is_legal(cards):
            raise IllegalPlay(f"{seat} may not play {cards} now")
        if not self._plays:
            played = cards
            if len(cards) > 1 and len(decompose(cards, self.order)) > 1:
                chk = self.throw_check(cards)
                if chk.blockers and chk.forced is not None:
                    played = tuple(chk.forced.cards)
                    self._attempted = cards
                    self._penalty = throw_penalty(self.ruleset, len(cards))
        else:
            played = cards
        undo = self._undo
        if undo is not None:
            keys = self._keys_if_emptied(seat, played)
            if keys is not None:
                undo.append((self.trick_number, len(self._plays), keys))
        if self._take(seat, played):
            raise IllegalPlay(f"{seat} does not hold {played}")
        self._plays.append((seat, played))
        if len(self._plays) == self._n:
            self._finish()
        return played

    def _finish(self) -> None:
        plays = tuple(self._plays)
        w = trick_winner([c for _, c in plays], self.order, self.ruleset)
        winner = plays[w.index][0]
        pts = 0
        for _, cards in plays:
            for c in cards:
                pts += POINTS[c]
        teams = self._teams
        friends_before, skips_before, team_before = teams.snapshot()
        number = self.trick_number
        teams.answer(number, plays)
        self._finished().append(TrickDone(number, plays[0][0], plays, self._attempted, winner, pts, self._penalty,
                                          w.units, w.ruffed, friends_before, skips_before, team_before))
        self._leader = self._index[winner]
        self._plays = []
        self._attempted = None
        self._penalty = 0

    def pop(self) -> Cards:
        """Take back the last play (across a trick's end); the cards it played.
        A failed throw is taken back whole. Push then pop is exact: the
        holdings come back in their iteration order too (a card whose last
        copy was played goes back in its place, not at the end), so the
        order of :meth:`legal_plays` and the ties a bot or a rule breaks by it
        are as before the "what if"."""
        if not self._plays:
            done = self._finished()
            if not done:
                raise IndexError("pop from a hand with no play")
            t = done.pop()
            self._plays = list(t.plays)
            self._attempted = t.attempted
            self._penalty = t.penalty
            self._leader = self._index[t.leader]
            self._teams.restore(t.teams_before)
        undo = self._undo
        at = (self.trick_number, len(self._plays) - 1)
        seat, cards = self._plays.pop()
        self._give(seat, cards)
        if undo and undo[-1][:2] == at:
            self._restore_keys(seat, undo.pop()[2])
        if not self._plays:
            self._attempted = None
            self._penalty = 0
        return cards

    def copy(self, *, undo: bool = True) -> HandState:
        """An independent copy (the friend calls are copied too). ``undo=False``:
        a copy that is only pushed (a play-out): its pushes skip what :meth:`pop`
        needs to put the holdings back in their key order (a pop still takes
        the play back, the holdings' iteration order may then differ)."""
        cls = type(self)
        new = object.__new__(cls)
        for name in _all_slots(cls):
            setattr(new, name, getattr(self, name))
        self._copy_holdings(new)
        new._plays = list(self._plays)
        new._done = list(self._finished())
        new._teams = self._teams.copy()
        new._undo = list(self._undo) if undo and self._undo is not None else None
        return new

    def _finished(self) -> list[TrickDone]:
        """The finished tricks (a RecordState first files the tricks it recorded)."""
        return self._done

    # -- the holdings' representation (a RecordState keeps them split by suit) ----------------------

    def _take(self, seat: str, cards: Sequence[int]) -> list[int]:
        """Take ``cards`` out of ``seat``'s holding; the cards it lacked."""
        return remove_from(self._hands[seat], cards)

    def _give(self, seat: str, cards: Sequence[int]) -> None:
        """Give ``cards`` back to ``seat`` (a play taken back)."""
        self._hands[seat].update(cards)

    def _keys_if_emptied(self, seat: str, cards: Sequence[int]) -> object:
        """``seat``'s holding's key order when taking ``cards`` out may empty a
        card's count (the key is then deleted: :meth:`pop` puts it back in its
        place), else None. Conservative: any card held at most ``len(cards)`` times."""
        h = self._hands[seat]
        n = len(cards)
        if n == 1:
            return tuple(h) if h.get(cards[0], 0) <= 1 else None
        get = h.get
        for c in cards:
            if get(c, 0) <= n:
                return tuple(h)
        return None

    def _restore_keys(self, seat: str, keys: object) -> None:
        """Put ``seat``'s holding back in the key order ``keys`` (:meth:`_keys_if_emptied`)
        after a pop gave back the cards (the same cards and counts as then)."""
        h = self._hands[seat]
        order = cast("tuple[int, ...]", keys)
        if tuple(h) != order:
            counts = dict(h)
            h.clear()
            dict.update(h, [(c, counts[c]) for c in order])

    def _copy_holdings(self, new: HandState) -> None:
        new._hands = {s: Counter(h) for s, h in self._hands.items()}

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} trick {self.trick_number}, {self.turn} to play, "
                f"{len(self._plays)} play(s) in the trick, attackers {self.attacker_points}>")


def _all_slots(cls: type) -> list[str]:
    """Every slot of ``cls`` and its bases (what :meth:`HandState.copy` copies)."""
    names: list[str] = []
    for k in reversed(cls.__mro__):
        names.extend(k.__dict__.get("__slots__", ()))
    return names


__all__ = ["HandState", "IllegalPlay", "TrickDone"]
