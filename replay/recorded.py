"""What a recorded trick is and what it can get wrong: the record mode's values and checks.

:class:`RecordedPlay` (a play as a record writes it), :class:`Fault` (one
thing a recorded trick gets wrong, :data:`FAULTS`: every kind, its code and
its value) and :class:`RecordedTrick` (what the record mode made of a
trick), for :class:`replay.record.RecordState`; and the record mode's checks
of the seats' turns (:func:`turn_faults`) and of a throw as recorded
(:func:`throw_faults`), the rules being :mod:`replay.trick`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, cast

from primitives.cards import NUM_CARDS, POINTS
from replay.holdings import Cards
from replay.order import Order
from replay.ruleset import Ruleset
from replay.shapes import Unit
from replay.throws import Blocker
from replay.trick import check_suited_throw, throw_penalty


class RecordedPlay(Protocol):
    """A play as a record writes it (``notation.model.Play`` is one, :class:`Recorded` another)."""

    @property
    def seat(self) -> str: ...

    @property
    def cards(self) -> Sequence[int]: ...

    @property
    def attempted(self) -> Sequence[int] | None: ...


class Recorded(NamedTuple):
    """A recorded play for :meth:`RecordState.record_trick`: the seat, the cards as
    written (a failed throw: the forced unit) and a failed throw's attempt."""

    seat: str
    cards: Sequence[int]
    attempted: Sequence[int] | None = None


class Fault(NamedTuple):
    """One thing a recorded trick gets wrong (:meth:`RecordState.record_trick`);
    the caller words it (:mod:`replay.game` attaches the spans and the messages)."""

    code: str        # the diagnostic code (primitives.diagnostics.CODES)
    play: int        # index into the trick's kept plays (RecordedTrick.plays); -1: the trick as a whole
    what: str        # which check (FAULTS)
    value: Any = None  # what the message needs (see FAULTS)


#: every :attr:`Fault.what`, its code and its :attr:`Fault.value`
FAULTS: dict[str, tuple[str, str]] = {
    "stranger": ("SJ525", "a seat not at the table (its play is left out): the seat"),
    "after_end": ("SJ409", "the trick comes after every card has been played"),
    "absurd": ("SJ402", "more cards in one play than the decks hold (the trick is not played): how many"),
    "leader": ("SJ401", "the wrong seat leads: the seat that should"),
    "twice": ("SJ401", "a seat plays twice in the trick"),
    "out_of_turn": ("SJ401", "a seat plays out of turn: the seat that should"),
    "missing_seats": ("SJ401", "seats did not play (and more tricks follow): those seats"),
    "mixed": ("SJ405", "the lead mixes effective suits: the cards tried"),
    "no_throw": ("SJ410", "a throw where the rules allow none (``throws: no``): the units tried"),
    "should_fail": ("SJ406", "a throw recorded as standing fails: the ThrowCheck"),
    "stands": ("SJ407", "a throw recorded as failed stands"),
    "wrong_forced": ("SJ407", "a failed throw plays the wrong unit: the ThrowCheck"),
    "not_a_throw": ("SJ407", "a failed throw whose attempt is a single unit"),
    "not_from_attempt": ("SJ407", "the cards played after a failed throw are not from the attempt"),
    "follower_throw": ("SJ407", "a follower writes a throw (`->`)"),
    "count": ("SJ402", "a follow of another number of cards than the lead: the lead's count"),
    "follow": ("SJ403/SJ404", "an illegal follow (suit or shape): the message"),
    "not_held": ("SJ203", "cards a seat known to hold its hand does not hold: the cards"),
}


class RecordedTrick(NamedTuple):
    """What :meth:`RecordState.record_trick` made of a recorded trick."""

    number: int                          # 1-based, as the record counts
    plays: Sequence[RecordedPlay]        # the plays kept (seats at the table), in record order
    cards: list[Cards]                   # each kept play's cards as played (a failed throw: the forced unit)
    winner: str | None                   # None: the trick is not played (no plays, or unreadable)
    points: int                          # point cards in the trick
    to_attackers: bool                   # the attackers (fixed partners, dealer known) won it
    penalty: int                         # a failed throw's cost: signed for the attackers (fixed
    #                                      partners), unsigned at a finding-friends table, 0 unknown
    is_throw: bool
    failed: bool
    blockers: tuple[Blocker, ...]
    units: tuple[Unit, ...]              # the winning play's units (none when the lead mixes suits)
    ruffed: bool
    faults: list[Fault]                  # what the record got wrong, in the order found


#: tuple.__new__ typed: a named tuple built without its Python-level ``__new__`` (the lint loop's pace)
new_recorded = cast("Callable[[type[RecordedTrick], tuple[Any, ...]], RecordedTrick]", tuple.__new__)


def take_counted(hs: tuple[dict[int, int], ...], cards: Sequence[int],
                  eff: Sequence[int]) -> tuple[int, list[int] | None]:
    """:func:`~replay.holdings.remove_by_suit` of a play of several cards, and the
    play's points, in one pass (the trick loop's call for such a play)."""
    pts = 0
    missing: list[int] | None = None
    for c in cards:
        pts += POINTS[c]
        h = hs[eff[c]]
        m = h.get(c, 0)
        if m > 1:
            h[c] = m - 1
        elif m:
            del h[c]
        elif missing is None:
            missing = [c]
        else:
            missing.append(c)
    return pts, missing


_RULES: dict[int, tuple[Ruleset, tuple[bool, int, int]]] = {}


def rules_of(rs: Ruleset) -> tuple[bool, int, int]:
    """What the record mode reads of a ruleset, once per ruleset (``hand_size`` is computed):
    ``follow_suit: printed``, the hand size, the cards of the decks."""
    got = _RULES.get(id(rs))
    if got is None or got[0] is not rs:
        if len(_RULES) > 64:
            _RULES.clear()
        got = _RULES[id(rs)] = (rs, (rs.follow_suit == "printed", rs.hand_size,
                                     rs.decks * NUM_CARDS))
    return got[1]


_TABLES: dict[tuple[str, ...], tuple[dict[str, int], dict[str, tuple[str, ...]]]] = {}


def table_of(seats: tuple[str, ...]) -> tuple[dict[str, int], dict[str, tuple[str, ...]]]:
    """Each seat's index and the seats in turn from it (built once per table; never changed)."""
    t = _TABLES.get(seats)
    if t is None:
        n = len(seats)
        t = _TABLES[seats] = ({s: i for i, s in enumerate(seats)},
                              {s: tuple(seats[(i + k) % n] for k in range(n)) for i, s in enumerate(seats)})
    return t


def turn_faults(seats: tuple[str, ...], index: Mapping[str, int], seats_t: tuple[str, ...], more: bool,
                faults: list[Fault]) -> None:
    """The faults of a trick whose seats (``seats_t``) are not the table's
    ``seats`` in turn from the leader (``index``: each seat's place)."""
    n = len(seats)
    seen = {seats_t[0]}
    for k in range(1, len(seats_t)):
        seat = seats_t[k]
        expect = seats[(index[seats_t[k - 1]] + 1) % n]
        if seat in seen:
            faults.append(Fault("SJ401", k, "twice"))
        elif seat != expect:
            faults.append(Fault("SJ401", k, "out_of_turn", expect))
        seen.add(seat)
    if len(seats_t) < n and more:
        faults.append(Fault("SJ401", -1, "missing_seats", tuple(s for s in seats if s not in seen)))

def throw_faults(ring: tuple[str, ...], hands: Mapping[str, tuple[dict[int, int], ...]], order: Order, rs: Ruleset,
                 lead_cards: Cards, attempted: Cards | None, tried: Cards, tried_units: Sequence[Unit],
                 suit: int | None, is_throw: bool, faults: list[Fault]) -> tuple[tuple[Blocker, ...], int]:
    """The throw check of a lead of several units, and the consistency of a
    recorded failed throw (SJ406, SJ407): the blockers and the failed throw's
    cost (unsigned; 0 when it stands or the rules charge nothing). ``ring``:
    the table's seats in turn from the leader; ``hands``: each seat's cards
    by effective suit."""
    blockers: tuple[Blocker, ...] = ()
    failed = attempted is not None
    if is_throw and suit is not None:
        others = ring[1:]
        suited = []
        for s in others:   # (a loop: cheaper than a comprehension for a few seats)
            if h := hands[s][suit]:
                suited.append((s, h))
        chk = check_suited_throw(tried_units, suited, others, order, rs)
        blockers = tuple(chk.blockers)
        if not failed and chk.blockers:
            faults.append(Fault("SJ406", 0, "should_fail", chk))
        elif failed and not chk.blockers:
            faults.append(Fault("SJ407", 0, "stands"))
        elif failed and chk.forced is not None and not chk.accepts(lead_cards):
            faults.append(Fault("SJ407", 0, "wrong_forced", chk))
    elif failed:
        faults.append(Fault("SJ407", 0, "not_a_throw"))
    cost = 0
    if attempted is not None:
        # (Counter(lead_cards) - Counter(attempted) not empty, without building Counters)
        left = list(attempted)
        for c in lead_cards:
            if c not in left:
                faults.append(Fault("SJ407", 0, "not_from_attempt"))
                break
            left.remove(c)
        cost = throw_penalty(rs, len(attempted))
    return blockers, cost


__all__ = ["RecordedPlay", "Recorded", "Fault", "FAULTS", "RecordedTrick", "new_recorded", "take_counted",
           "rules_of", "table_of", "turn_faults", "throw_faults"]
