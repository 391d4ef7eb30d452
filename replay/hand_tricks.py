"""The record replay's tricks: one trick loop for every table, and what a hand's cards must obey.

:func:`play_tricks` replays a hand's tricks on one :class:`replay.record.RecordState`
(fixed partners and finding friends alike: the hand's :class:`replay.teams.Teams`
says who is on which side) and words the :class:`replay.recorded.Fault` values it
reports as diagnostics (:func:`say_faults`). :func:`check_copies` checks that no
card stands more often than the decks allow (SJ202).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from primitives.cards import NUM_CARDS, format_cards
from primitives.diagnostics import Span
from replay.order import NT, Order
from replay.record import RecordState
from replay.recorded import Fault, RecordedTrick
from replay.results import DiagFn, HandResult, History, TrickResult
from replay.ruleset import Ruleset
from replay.scoring import SEAT_ORDER
from replay.teams import Teams
from replay.texts import cards_text, unit_text

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Hand, Play

def check_copies(hand: Hand, rs: Ruleset, diag: DiagFn, played: list[int] | None) -> bool:
    """SJ202: no card more often than the decks allow, over deal + kitty, then over
    the plays (``played``; None: not now). True when the deal and kitty have no excess copy."""
    decks = rs.decks
    ok = True
    dealt: list[int] = []
    for sc in hand.deal:
        dealt.extend(sc.cards)
    if hand.kitty is not None:
        dealt.extend(hand.kitty)
    if dealt and excess_copies(dealt, decks):  # rare: find where the excess copy stands
        ok = False
        seen: dict[int, int] = {}
        for sc in hand.deal:
            for c in sc.cards:
                seen[c] = seen.get(c, 0) + 1
                if seen[c] == decks + 1:
                    diag("SJ202", sc.span, f"{cards_text([c])} appears more than {decks} time(s) in the deal")
        for c in hand.kitty or ():
            seen[c] = seen.get(c, 0) + 1
            if seen[c] == decks + 1:
                diag("SJ202", hand.kitty_span, f"{cards_text([c])} appears more than {decks} time(s) "
                                               f"counting the kitty")
    if played is not None:
        check_played_copies(hand, decks, diag, played)
    return ok


def excess_copies(cards: list[int], decks: int) -> bool:
    """Does a card stand more than ``decks`` times in ``cards``?"""
    full = _DECKS.get(decks)
    if full is None:
        full = _DECKS[decks] = sorted(list(range(NUM_CARDS)) * decks)
    if len(cards) == len(full):
        # as many cards as the decks hold (a whole deal with its kitty, or every play of a
        # hand): no excess copy is the same as every card `decks` times; sorting and
        # comparing costs half of counting them
        if sorted(cards) == full:
            return False
    return max(Counter(cards).values()) > decks


#: number of decks → each card of the decks, sorted
_DECKS: dict[int, list[int]] = {}


def check_played_copies(hand: Hand, decks: int, diag: DiagFn, played: list[int]) -> None:
    """SJ202 over the plays: no card played more often than the decks allow."""
    if played and excess_copies(played, decks):
        seen: dict[int, int] = {}
        for t in hand.tricks:
            for p in t.plays:
                for c in p.cards:
                    seen[c] = seen.get(c, 0) + 1
                    if seen[c] == decks + 1:
                        diag("SJ202", p.span, f"{cards_text([c])} is played more than {decks} time(s)")


def play_tricks(hand: Hand, result: HandResult, holdings: dict[str, tuple[dict[int, int], ...]],
                known: dict[str, bool], diag: DiagFn, teams: Teams, seats: tuple[str, ...] = SEAT_ORDER,
                friends: bool = False) -> tuple[bool, int, bool]:
    """Every trick in turn, on one :class:`replay.record.RecordState` (the
    engine's :class:`~replay.state.HandState` in its lenient record mode): who
    leads and the turn order, the throw check, each follow's legality, the
    cards leaving the hands, the winner and the points (into ``result.tricks``).
    The state reports what the record gets wrong as :class:`~replay.recorded.Fault`
    values; here they become diagnostics (spans and messages).

    ``holdings``: each seat's cards by effective suit (``holdings[seat][suit]``:
    card → copies, positive counts only; see :func:`replay.holdings.by_suit`),
    taken over by the state and changed in place.

    ``teams``: the hand's :class:`~replay.teams.Teams`. Settled from the start
    (fixed partners), each trick is given to its side as it is played; else
    (finding friends: the team grows as the calls are answered, trick by trick,
    and the points count for the team as it stands at the end) each trick's
    ``to_attackers``, signed ``penalty`` and running total are left for
    :func:`replay.friend_calls.score_friends` to set (``penalty`` holds the
    failed throw's unsigned cost meanwhile). ``friends``: a finding-friends
    table of ``seats``: plays by seats not at the table are left out, and a
    trick without plays is skipped.

    Returns ``(all_held, done, every_full)``: True when every card played was
    in its seat's holding (and no trick was left unchecked for holding more
    cards than the decks); the cards each seat played in the tricks kept (the
    leads' sizes); True when every trick kept has a play by each seat.
    """
    order = result.order
    assert order is not None
    state = RecordState(result.ruleset, order, dealer=result.dealer, seats=seats, known=known, friends=friends,
                        split=holdings, teams=teams)
    settled = teams.settled
    answering = bool(teams.calls)
    total = 0
    tricks = hand.tricks
    out = result.tricks
    history = History(result.start_hands, seats)
    numbers, history_plays = history.numbers, history.plays
    n_seats = len(seats)
    tn = done = 0
    every_full = True
    plays_of = []
    for t in tricks:
        plays_of.append(t.plays)
    for trick, rt in zip(tricks, state.record_tricks(plays_of)):
        tn += 1
        written = trick.number
        if written is not None and written != tn:
            diag("SJ408", trick.span, f"trick numbered {written} is trick {tn} of the hand", tn)
        _, plays, cards_played, winner, pts, to_att, penalty, is_throw, failed, blockers, units, ruffed, faults = rt
        if faults:
            say_faults(rt, tn, trick.span, order, result.ruleset, friends, diag)
        if winner is None:  # no plays (or unreadable): not played
            if not friends:
                result.unknown_tricks += 1
            continue
        if to_att:
            result.card_points += pts
            total += pts
        if penalty and settled:
            result.penalties += penalty
            total += penalty
        # (the record's own plays, as given to the state: notation.model.Play; kept, not copied)
        source: Sequence[Play] = plays  # type: ignore[assignment]
        out.append(TrickResult(
            tn, source[0].seat, source, cards_played, winner, pts, to_att, penalty, total, is_throw, failed,
            blockers, units, ruffed, trick.span, history))
        numbers.append(tn)
        history_plays.append((source, cards_played))
        if answering:  # finding friends: the calls this trick answers
            teams.answer(tn, [(p.seat, c) for p, c in zip(source, cards_played)])
        done += len(cards_played[0])
        if len(cards_played) != n_seats:
            every_full = False
    return state.all_held, done, every_full


def say_faults(rt: RecordedTrick, tn: int, span: Span, order: Order, rs: Ruleset, friends: bool,
                diag: DiagFn) -> None:
    """The diagnostics of a recorded trick's :class:`replay.recorded.Fault` values, in the order found."""
    plays = cast("Sequence[Play]", rt.plays)  # the record's own plays, as given to the state
    for f in rt.faults:
        what, k, v = f.what, f.play, f.value
        p = plays[k] if k >= 0 else None
        if what == "follow":
            assert p is not None
            diag(f.code, p.span, f"{p.seat} {v}", tn)
        elif what == "not_held":
            assert p is not None
            diag("SJ203", p.span, f"{p.seat} plays {cards_text(v, order)}, which they do not hold", tn)
        elif what == "stranger":
            continue  # reported where the table is read (replay.friends: SJ525)
        elif what == "after_end":
            diag("SJ409", span, f"trick {tn} comes after every card has been played", tn)
        elif what == "absurd":
            assert p is not None
            deck = rs.decks * NUM_CARDS
            diag("SJ402", p.span, f"{p.seat} plays {v:,} cards in one play; the decks hold {deck} "
                                  f"and a hand {rs.hand_size}", tn)
        elif what == "missing_seats":
            diag("SJ401", span, f"trick {tn} has {len(plays)} plays; {', '.join(v)} did not play", tn)
        else:
            assert p is not None
            say_play_fault(f, p, plays, tn, order, rs, friends, diag)


def say_play_fault(f: Fault, p: Play, plays: Sequence[Play], tn: int, order: Order, rs: Ruleset,
                    friends: bool, diag: DiagFn) -> None:
    what, v = f.what, f.value
    lead = plays[0]
    seat = lead.seat
    if what == "leader":
        why = "the dealer" if tn == 1 else f"the winner of trick {tn - 1}"
        diag("SJ401", p.span, f"trick {tn} should be led by {v} ({why}), not {seat}", tn)
    elif what == "twice":
        diag("SJ401", p.span, f"{p.seat} plays twice in trick {tn}", tn)
    elif what == "out_of_turn":
        diag("SJ401", p.span, f"{p.seat} plays out of turn: {v} plays after {plays[f.play - 1].seat}", tn)
    elif what == "count":
        diag("SJ402", p.span, f"{p.seat} plays {len(p.cards)} card(s) to a lead of {v}", tn)
    elif what == "follower_throw":
        diag("SJ407", p.span, "only the leader can throw: `->` is for the lead", tn)
    elif what == "mixed":
        diag("SJ405", p.span, f"the lead {cards_text(v, order)} mixes suits: a lead is all one suit "
                              f"(trumps count as one suit)", tn)
    elif what == "no_throw":
        shown = ", ".join(unit_text(u, order) for u in v)
        diag("SJ410", p.span, f"{seat} leads {len(v)} units at once ({shown}): the {rs.name} rules "
                              f"allow no throws (a lead is one single, pair or tractor)", tn)
    elif what == "should_fail":
        tried = tuple(lead.cards)
        b = v.blockers[0]
        forced = v.forced
        tail = "" if friends else (f" (write `{seat}: {plain_cards(tried, order)} -> "
                                   f"{plain_cards(forced.cards, order)}`)")
        diag("SJ406", p.span,
             f"this throw should have failed: {b.seat} holds {unit_text(b.by, order)}, which beats "
             f"the {unit_text(b.unit, order)}; {seat} must play "
             f"{cards_text(forced.cards, order)}{tail}", tn)
    elif what == "stands":
        why = ("the rules check no throw" if rs.throw_check == "none" and not friends
               else "nobody holds a unit that beats any part of it")
        diag("SJ407", p.span, f"this throw is recorded as failed but it stands: {why}", tn)
    elif what == "wrong_forced":
        lead_cards = tuple(lead.cards)
        if friends:
            diag("SJ407", p.span, f"the failed throw must play {cards_text(v.forced.cards, order)}, "
                                  f"not {cards_text(lead_cards, order)}", tn)
        else:
            b = next(x for x in v.blockers if x.unit == v.forced) if any(
                x.unit == v.forced for x in v.blockers) else v.blockers[0]
            diag("SJ407", p.span,
                 f"the failed throw must play {cards_text(v.forced.cards, order)} (the "
                 f"{'first blocked' if rs.throw_forced == 'first_blocker' else 'smallest failing'} unit, "
                 f"beaten by {b.seat}'s {cards_text(b.by.cards, order)}), not "
                 f"{cards_text(lead_cards, order)}", tn)
    elif what == "not_a_throw":
        diag("SJ407", p.span, "a failed throw is recorded, but the attempt is a single unit, not a throw", tn)
    elif what == "not_from_attempt":
        diag("SJ407", p.span, "the cards played after a failed throw must come from the attempted cards", tn)
    else:  # pragma: no cover - every Fault the state makes is worded above
        diag(f.code, p.span, f"{p.seat}: {what}", tn)


def plain_cards(cards: Iterable[int], order: Order) -> str:
    return format_cards(order.sorted(cards))


def trump_text(t: int) -> str:
    """A trump as the messages name it: a suit symbol, or ``NT``."""
    return "NT" if t == NT else "♠♥♦♣"[t]


__all__ = ["check_copies", "check_played_copies", "excess_copies", "play_tricks", "say_faults", "say_play_fault",
           "plain_cards", "trump_text"]
