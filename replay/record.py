"""Replaying a record's tricks: :class:`RecordState`, :class:`HandState`'s lenient record mode.

:mod:`replay.game` replays a whole record on one :class:`RecordState` per
hand: :meth:`RecordState.record_tricks` applies the tricks as written (plays
out of turn, cards not held, wrong counts, throws recorded wrongly, tricks
without plays), goes on, and returns a :class:`RecordedTrick` per trick with
every :class:`Fault` found (small values: ``replay.game`` words them as the
diagnostics). The rules themselves are the engine's (:mod:`replay.trick`,
:mod:`replay.units`); the strict position API is :class:`replay.state.HandState`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import cast

from primitives.cards import POINTS
from replay.follow import FollowError, check_follow, check_follow_printed, check_suited_follow, printed_suit
from replay.holdings import by_suit, remove_by_suit
from replay.order import TRUMP, Order
from replay.recorded import (
    Fault,
    RecordedPlay,
    RecordedTrick,
    new_recorded,
    rules_of,
    table_of,
    take_counted,
    throw_faults,
    turn_faults,
)
from replay.ruleset import Ruleset
from replay.scoring import penalty_delta
from replay.seats import SEATS
from replay.shapes import Unit
from replay.state import HandState, TrickDone
from replay.teams import Teams
from replay.throws import Blocker
from replay.trick import lead_suit, trick_winner
from replay.units import decompose


class RecordState(HandState):
    """A :class:`HandState` that replays a record's tricks as written (the lint loop of :mod:`replay.game`).

    A record may be wrong: plays out of turn, cards a seat does not hold, the
    wrong number of cards, a throw recorded wrongly, tricks without plays, seats
    not at the table. :meth:`record_trick` applies a whole recorded trick
    leniently and returns what it made of it, with every :class:`Fault` found
    (small codes and values; the caller words them), instead of raising. The
    holdings are kept split by effective suit (:func:`by_suit`: a seat void in
    the led suit needs no follow check, and a check sees only the suit's cards).

    The rest of :class:`HandState` works on it too (``holding``, ``holdings``:
    snapshots as ``Counter``; ``push``/``pop``/``legal_plays``): a record
    replayed to a trick can be played on strictly. Tricks recorded leniently
    are kept as :class:`TrickDone` (the record mode answers no friend call
    itself: the record replay's trick loop does, on the hand's
    :class:`~replay.teams.Teams`). ``known``: the seats whose whole hand
    is known (only they are told they lack a card: SJ203); after a trick without
    plays, nobody's hand and not the next leader are known, and the follow and
    throw checks stop.
    """

    __slots__ = ("_suits", "_eff", "_counts", "_friends", "_known", "_uncertain", "_leader_known",
                 "_cards_played", "_all_held", "_turns", "_printed", "_full", "_deck", "_pending", "_n_pending")

    def __init__(self, ruleset: Ruleset, order: Order, holdings: Mapping[str, Iterable[int]] | None = None, *,
                 dealer: str | None, seats: Sequence[str] = SEATS, known: Mapping[str, bool] | None = None,
                 friends: bool = False, kitty_points: int = 0,
                 split: Mapping[str, tuple[dict[int, int], ...]] | None = None, teams: Teams | None = None) -> None:
        """``holdings`` as for :class:`HandState`, or ``split``: each seat's
        holding by effective suit (:func:`by_suit`), taken over and changed in
        place. ``dealer`` None: nobody is known to lead trick 1. ``friends``: a
        finding-friends table (the teams are known only at the end: tricks are
        not given to a side, a failed throw's cost is unsigned). ``teams``: the
        hand's :class:`~replay.teams.Teams` (by default: fixed partners at four
        seats, else the dealer alone); a trick is given to the attackers when
        they are settled (:attr:`Teams.attackers`)."""
        self.ruleset = ruleset
        self.order = order
        self.seats = seats if type(seats) is tuple else tuple(str(s) for s in seats)
        self._n = n = len(self.seats)
        self._index, self._turns = table_of(self.seats)
        self.dealer = dealer if dealer is not None else ""
        self.kitty_points = kitty_points
        eff = self._eff = order.eff
        if split is not None:
            suits = split if type(split) is dict else dict(split)
        else:
            suits = {}
            for s, h in (holdings or {}).items():
                suits[str(s)] = by_suit(h if isinstance(h, Mapping) else Counter(h), eff)
        if suits.keys() != self._index.keys():
            for s in self.seats:
                if s not in suits:
                    suits[s] = ({}, {}, {}, {}, {})
        self._suits = suits
        self._hands = {}
        self._counts: dict[str, Counter[int]] = {}
        known_dealer = dealer is not None and dealer in self._index
        self._leader = self._index[dealer] if dealer is not None and known_dealer else 0
        self._leader_known = known_dealer
        self._plays = []
        self._attempted = None
        self._penalty = 0
        self._done = []
        self._friends = friends
        if teams is None:
            if not known_dealer:
                teams = Teams((), settled=not friends)
            elif friends or n != 4:
                teams = Teams.forming(self.dealer)
            else:
                teams = Teams.fixed(self.dealer, self.seats)
        self._teams = teams
        self._first_trick = 1
        self._known = set(self.seats) if known is None else {s for s, k in known.items() if k}
        self._uncertain = False
        self._cards_played = 0
        self._all_held = True
        self._printed, self._full, self._deck = rules_of(ruleset)
        self._pending: list[list[RecordedTrick]] = []   # record_tricks' answers not yet filed as TrickDone
        self._n_pending = 0                              # the tricks played in them
        self._undo = []

    # -- the holdings, split by suit ------------------------------------------------------------------

    @property
    def holdings(self) -> Mapping[str, Counter[int]]:
        """Every seat's cards now (card → copies): snapshots, rebuilt after a change."""
        return {s: self.holding(s) for s in self.seats}

    def holding(self, seat: str) -> Counter[int]:
        seat = str(seat)
        c = self._counts.get(seat)
        if c is None:
            h0, h1, h2, h3, h4 = self._suits[seat]
            c = self._counts[seat] = Counter({**h0, **h1, **h2, **h3, **h4})
        return c

    def holding_by_suit(self, seat: str) -> tuple[dict[int, int], ...]:
        """``seat``'s cards split by effective suit (index 0..3, TRUMP): card → copies. Read only."""
        return self._suits[str(seat)]

    @property
    def is_over(self) -> bool:
        return not self._plays and not any(map(any, self._suits.values()))

    @property
    def all_held(self) -> bool:
        """Every card recorded so far was in its seat's holding (and no play was unreadable)."""
        return self._all_held

    @property
    def uncertain(self) -> bool:
        """A trick without plays (or unreadable) was recorded: holdings and leader are not certain since."""
        return self._uncertain

    def _take(self, seat: str, cards: Sequence[int]) -> list[int]:
        self._counts.pop(seat, None)
        return remove_by_suit(self._suits[seat], cards, self._eff) or []

    def _give(self, seat: str, cards: Sequence[int]) -> None:
        self._counts.pop(seat, None)
        hs, eff = self._suits[seat], self._eff
        for c in cards:
            h = hs[eff[c]]
            h[c] = h.get(c, 0) + 1

    def _keys_if_emptied(self, seat: str, cards: Sequence[int]) -> object:
        hs, eff, n = self._suits[seat], self._eff, len(cards)
        for c in cards:
            if hs[eff[c]].get(c, 0) <= n:
                return tuple([tuple(h) for h in hs])
        return None

    def _restore_keys(self, seat: str, keys: object) -> None:
        for h, order in zip(self._suits[seat], cast("tuple[tuple[int, ...], ...]", keys), strict=True):
            if tuple(h) != order:
                counts = dict(h)
                h.clear()
                h.update([(c, counts[c]) for c in order])
        self._counts.pop(seat, None)

    def _copy_holdings(self, new: HandState) -> None:
        assert isinstance(new, RecordState)
        new._hands = {}
        new._suits = {s: tuple([h.copy() for h in hs]) for s, hs in self._suits.items()}
        new._counts = {}
        new._known = set(self._known)
        new._pending = []
        new._n_pending = 0

    @property
    def trick_number(self) -> int:
        return self._first_trick + len(self._done) + self._n_pending

    def _finished(self) -> list[TrickDone]:
        pending = self._pending
        if pending:
            # a failed throw's cost is what the trick's penalty signs (0 when no side is known)
            done, team = self._done, tuple(self._teams.members)  # (the team as it stands when filed)
            for answers in pending:
                for rt in answers:
                    if rt.winner is None:
                        continue
                    plays = rt.plays
                    a = plays[0].attempted
                    done.append(TrickDone(rt.number, plays[0].seat, tuple([(p.seat, c) for p, c in zip(plays, rt.cards)]),
                                          tuple(a) if a else None, rt.winner, rt.points, abs(rt.penalty), rt.units,
                                          rt.ruffed, (), (), team))
            pending.clear()
            self._n_pending = 0
        return self._done

    # -- the lenient mode -------------------------------------------------------------------------------

    def _lose_track(self) -> None:
        """A trick whose cards are unknown: its cards stay in the hands and its winner
        is unknown; the checks that depend on them (leader, follow, throws, cards held) stop."""
        self._uncertain = True
        self._leader_known = False
        self._known = set()
        self._first_trick += 1

    def record_trick(self, plays: Sequence[RecordedPlay], more: bool = False) -> RecordedTrick:
        """Apply one trick as recorded (every seat's play, record order), leniently.

        Checks who leads and the turn order, the number of cards, the lead's
        suit, the throw check (a failed throw: the attempt is checked, the forced
        unit played), each follow's legality and the cards held; takes the cards
        out of the hands, decides the winner and the points; and moves on to the
        next trick. Nothing raises: each problem is a :class:`Fault`. ``more``:
        tricks follow this one (a trick short of plays is then SJ401).
        A trick without plays (kept) is not played: the hands and the next
        leader become unknown, except at a finding-friends table, where it is
        skipped. The winner is the leader when the lead mixes suits."""
        return self.record_tricks((plays,), more)[0]

    def record_tricks(self, tricks: Sequence[Sequence[RecordedPlay]], more: bool = False) -> list[RecordedTrick]:
        """:meth:`record_trick` for each trick of ``tricks`` in turn (one call for a
        hand's tricks: the lint loop's pace); ``more``: tricks follow the last one."""
        if self._plays:
            raise ValueError("record_tricks: a trick is in progress (push/pop it first)")
        out: list[RecordedTrick] = []
        more_after = more
        last = len(tricks) - 1
        turns = self._turns
        rs, order = self.ruleset, self.order
        eff, singles = self._eff, order.singles
        printed = self._printed
        hands = self._suits
        friends, full, deck = self._friends, self._full, self._deck
        attackers = self._teams.attackers   # (the sides, when settled from the start: fixed partners)
        if self._counts:
            self._counts.clear()
        # the position as locals while the tricks run (written back after the loop)
        seats = self.seats
        leader: str | None = seats[self._leader] if self._leader_known else None
        played = self._cards_played
        uncertain, known = self._uncertain, self._known
        all_held = True
        # (each trick, played or not, counts one: the number of the next is one more)
        first_number = self._first_trick + len(self._done) + self._n_pending
        n_played = 0
        for k_trick, plays in enumerate(tricks):
            faults: list[Fault] = []
            number = first_number + k_trick
            if len(plays) == 4:   # (four plays, most tricks: unpacked, cheaper than a comprehension)
                p0, p1, p2, p3 = plays
                seats_t: tuple[str, ...] = (p0.seat, p1.seat, p2.seat, p3.seat)
                # no play can hold more cards than the decks (the absurd check below) when all
                # together do not, and none is a failed throw (a quick test, no loop)
                may_be_absurd = bool(len(p0.cards) + len(p1.cards) + len(p2.cards) + len(p3.cards) > deck
                                     or p0.attempted or p1.attempted or p2.attempted or p3.attempted)
            else:
                seats_t = tuple([p.seat for p in plays])
                may_be_absurd = True
            in_turn = turns.get(seats_t[0]) if seats_t else None   # the table's seats in turn from the leader
            if seats_t != in_turn and seats_t:
                index = self._index
                if not all(s in index for s in seats_t):
                    # seats not at the table: their plays are left out
                    for p in plays:
                        if p.seat not in index:
                            faults.append(Fault("SJ525", -1, "stranger", p.seat))
                    plays = [p for p in plays if p.seat in index]
                    may_be_absurd = True
                    seats_t = tuple([p.seat for p in plays])
                    in_turn = turns.get(seats_t[0]) if seats_t else None
            if not plays:
                if friends:
                    self._first_trick += 1
                else:
                    self._lose_track()
                    leader, uncertain, known = None, True, self._known
                out.append(new_recorded(RecordedTrick, (number, plays, [], None, 0, False, 0, False, False, (), (),
                                                         False, faults)))
                continue
            if played >= full:
                faults.append(Fault("SJ409", -1, "after_end"))
            if not friends and may_be_absurd:
                absurd = None
                for p in plays:  # (a loop that stops at once: faster than a comprehension here)
                    if len(p.cards) > deck or (p.attempted and len(p.attempted) > deck):
                        absurd = [k for k, p in enumerate(plays)
                                  if len(p.cards) > deck or (p.attempted and len(p.attempted) > deck)]
                        break
                if absurd:  # more cards than the decks hold: nothing of this trick can be checked
                    all_held = False
                    for k in absurd:
                        p = plays[k]
                        faults.append(Fault("SJ402", k, "absurd", max(len(p.cards), len(p.attempted or ()))))
                    self._lose_track()
                    leader, uncertain, known = None, True, self._known
                    out.append(new_recorded(RecordedTrick, (number, plays, [], None, 0, False, 0, False, False,
                                                             (), (), False, faults)))
                    continue
            lead_play = plays[0]
            lead_seat = lead_play.seat
            if leader is not None and lead_seat != leader:
                faults.append(Fault("SJ401", 0, "leader", leader))
            if seats_t != in_turn:
                turn_faults(seats, self._index, seats_t, k_trick < last or more_after, faults)

            # the lead (a failed throw: the attempt is checked, the forced unit is played)
            attempted = tuple(lead_play.attempted) if lead_play.attempted else None
            lead_cards = tuple(lead_play.cards)
            tried = attempted or lead_cards
            suit: int | None
            tried_units: Sequence[Unit]
            if len(tried) == 1:
                suit = eff[tried[0]]
                tried_units = [singles[tried[0]]]
            else:
                suit = lead_suit(tried, order) if tried else None
                if tried and suit is None:
                    faults.append(Fault("SJ405", 0, "mixed", tried))
                tried_units = decompose(tried, order) if tried and suit is not None else []
            is_throw = len(tried_units) > 1
            failed = attempted is not None
            blockers: tuple[Blocker, ...] = ()
            penalty = cost = 0
            if is_throw and not rs.throws:
                faults.append(Fault("SJ410", 0, "no_throw", tuple(tried_units)))
            elif (is_throw or failed) and not uncertain:
                blockers, cost = throw_faults(self._turns[lead_seat], hands, order, rs, lead_cards, attempted, tried,
                                              tried_units, suit,
                                                    is_throw, faults)
                if friends:
                    penalty = cost
                elif (att := attackers) is not None and cost:
                    penalty = penalty_delta(rs, len(tried), lead_seat not in att)
            missing: list[int] | None
            if len(lead_cards) == 1:  # (remove_by_suit, written out for one card: most leads)
                c = lead_cards[0]
                pts = POINTS[c]
                h = hands[lead_seat][eff[c]]
                m = h.get(c, 0)
                if m > 1:
                    h[c] = m - 1
                    missing = None
                elif m:
                    del h[c]
                    missing = None
                else:
                    missing = [c]
            else:
                pts, missing = take_counted(hands[lead_seat], lead_cards, eff)
            if missing:
                all_held = False
                if lead_seat in known:
                    faults.append(Fault("SJ203", 0, "not_held", missing))

            # the follows
            lead_units: Sequence[Unit]
            if not failed and suit is not None:
                lead_units = tried_units
            elif len(lead_cards) == 1:
                lead_units = [singles[lead_cards[0]]]
            else:
                lead_units = decompose(lead_cards, order) if lead_cards else []
            n = len(lead_cards)
            cards_played = [lead_cards]
            psuit = printed_suit(lead_cards, order) if printed else None
            # one card led (most tricks): the winner is found as the follows come (trick_winner's own
            # one-card rule: the highest power wins, ties to the earlier; other plays cannot win)
            single = n == 1 and suit is not None and eff[lead_cards[0]] == suit
            if single:
                assert suit is not None
                led = suit
                power = order.power[suit]
                best_k, best_card = 0, lead_cards[0]
                best = power[best_card]
            err: FollowError | None
            if single and not uncertain and not printed:
                # one card led, the holdings certain (most tricks): the general loop below, specialised
                for k in range(1, len(plays)):
                    p = plays[k]
                    cards = tuple(p.cards)
                    cards_played.append(cards)
                    if p.attempted:
                        faults.append(Fault("SJ407", k, "follower_throw"))
                    seat = p.seat
                    if len(cards) == 1:
                        c = cards[0]
                        pts += POINTS[c]
                        e = eff[c]
                        hs = hands[seat]
                        if e != led and (held := hs[led]):  # (a void may play anything)
                            err = check_follow(lead_units, led, held, cards, order, rs, 1)
                            if err is not None:
                                faults.append(Fault(err.code, k, "follow", err.message))
                        if power[c] > best:
                            best_k, best_card, best = k, c, power[c]
                        h = hs[e]
                        m = h.get(c, 0)
                        if m > 1:
                            h[c] = m - 1
                            continue
                        if m:
                            del h[c]
                            continue
                        missing = [c]
                    else:
                        faults.append(Fault("SJ402", k, "count", n))
                        got, missing = take_counted(hands[seat], cards, eff)
                        pts += got
                    if missing:
                        all_held = False
                        if seat in known:
                            faults.append(Fault("SJ203", k, "not_held", missing))
                plays_range: Iterable[int] = ()   # (done: the general loop below has nothing left)
            else:
                plays_range = range(1, len(plays))
            for k in plays_range:
                p = plays[k]
                cards = tuple(p.cards)
                cards_played.append(cards)
                if p.attempted:
                    faults.append(Fault("SJ407", k, "follower_throw"))
                if len(cards) != n:
                    faults.append(Fault("SJ402", k, "count", n))
                elif uncertain:
                    pass  # the holdings are not certain after a trick without plays
                elif printed:
                    err = check_follow_printed(lead_units, psuit, hands[p.seat], cards, order, n)
                    if err is not None:
                        faults.append(Fault(err.code, k, "follow", err.message))
                elif suit is not None and n and not (n == 1 and eff[cards[0]] == suit) and (
                        held := hands[p.seat][suit]):
                    # (a single card of the led suit always follows a one-card lead; a void may play anything)
                    if n == 1:
                        err = check_follow(lead_units, suit, held, cards, order, rs, n)
                    else:
                        err = check_suited_follow(lead_units, suit, held, cards, order, rs, n)
                    if err is not None:
                        faults.append(Fault(err.code, k, "follow", err.message))
                if n == 1 and len(cards) == 1:  # (remove_by_suit, written out for one card: most plays)
                    c = cards[0]
                    pts += POINTS[c]
                    if single and power[c] > best:
                        best_k, best_card, best = k, c, power[c]
                    h = hands[p.seat][eff[c]]
                    m = h.get(c, 0)
                    if m > 1:
                        h[c] = m - 1
                        continue
                    if m:
                        del h[c]
                        continue
                    missing = [c]
                else:
                    got, missing = take_counted(hands[p.seat], cards, eff)
                    pts += got
                if missing:
                    all_held = False
                    if p.seat in known:
                        faults.append(Fault("SJ203", k, "not_held", missing))
            played += n

            # the winner
            units: tuple[Unit, ...] = ()
            ruffed = False
            if single:
                winner = plays[best_k].seat
                units = (singles[best_card],)
                ruffed = suit != TRUMP and eff[best_card] == TRUMP
            elif suit is not None and n and (not failed or lead_suit(lead_cards, order) == suit):
                # (not failed: the lead is the cards tried, of the one suit ``suit``)
                w = trick_winner(cards_played, order, rs, lead_units)
                winner = plays[w.index].seat
                units, ruffed = w.units, w.ruffed
            else:
                winner = lead_seat
            att = attackers
            to_att = att is not None and winner in att
            n_played += 1
            leader = winner
            out.append(new_recorded(RecordedTrick, (number, plays, cards_played, winner, pts, to_att, penalty,
                                                     is_throw, failed, blockers, units, ruffed, faults)))
        if leader is not None:
            self._leader = self._index[leader]
        self._leader_known = leader is not None
        self._cards_played = played
        # (filed as TrickDone when first asked: most record replays never ask)
        self._pending.append(out)
        self._n_pending += n_played
        if not all_held:
            self._all_held = False
        return out


__all__ = ["RecordState"]
