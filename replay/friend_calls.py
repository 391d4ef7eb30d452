"""Finding friends' calls, reveals and outcome: the rules of a hand whose teams form in play.

The calls a hand writes (:func:`check_calls`: SJ520–SJ522), who answers each
and when (:func:`reveal`; the rules of an answer are :mod:`replay.teams`'),
the reveals as written (:func:`check_reveals`: SJ523), the score for the
dealer's final team (:func:`score_friends`), and the levels after the hand
(:func:`friends_outcome`, :func:`friends_bonus`). The record replay
(:mod:`replay.friends`), the match flow (:mod:`replay.match`) and the
generator use them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING

from primitives.cards import POINTS, points, rank_name, to_str
from replay.deck import remainder
from replay.order import TRUMP, Order
from replay.ruleset import Ruleset
from replay.scoring import HandOutcome, advancement, last_trick_kitty_multiplier, penalty_delta, raise_level
from replay.teams import FriendResult, Teams, assign_holders, ordinal_text

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Hand
    from replay.results import DiagFn, HandResult, TrickResult


def card_forbidden(card: int, rs: Ruleset, order: Order, level: int) -> str | None:
    """Why the rules forbid calling ``card`` (shengji.io FriendSelectionPolicy), or None."""
    policy = rs.friend_cards
    if policy == "any":
        return None
    if policy != "trumps_included" and order.eff[card] == TRUMP:
        if card >= 52:
            return "a joker may not be called"
        if card % 13 + 2 == level:
            return f"a level card ({rank_name(level)}) may not be called"
        return "a card of the trump suit may not be called"
    rank = card % 13 + 2 if card < 52 else None
    if policy == "highest_not_allowed" and (rank == 14 or (rank == 13 and level == 14)):
        return "the highest card (an A; a K at level A) may not be called"
    if policy == "points_not_allowed" and POINTS[card] and not (level == 14 and rank == 13):
        return "a point card (5, 10, K) may not be called"
    return None


def check_calls(hand: Hand, rs: Ruleset, result: HandResult, holdings: Mapping[str, Counter[int]],
                 buried: tuple[int, ...] | None, diag: DiagFn) -> list[FriendResult]:
    order, dealer, level = result.order, result.dealer, result.level
    assert order is not None
    calls = [FriendResult(c.ordinal, c.card, None, None, c.span) for c in hand.friends]
    want = rs.friend_calls
    if hand.friends and len(calls) != want:
        diag("SJ522", hand.friends[0].span,
             f"{len(calls)} friend call{'s' if len(calls) != 1 else ''} written; the rules call {want} "
             f"at a table of {rs.players}")
    for call in hand.friends:
        why = card_forbidden(call.card, rs, order, level)
        if why:
            diag("SJ520", call.span, f"friend {to_str(call.card, unicode=True)}: {why} "
                                     f"(friend cards: {rs.friend_cards})")
        if call.ordinal is not None and not 1 <= call.ordinal <= rs.decks:
            diag("SJ521", call.span, f"the {ordinal_text(call.ordinal)} {to_str(call.card, unicode=True)} "
                                     f"does not exist: {rs.decks} deck{'s hold' if rs.decks != 1 else ' holds'} "
                                     f"{rs.decks} cop{'ies' if rs.decks != 1 else 'y'}")
        if not rs.friend_self_call and dealer is not None and result.known.get(dealer) is not None:
            others = sum(holdings[s][call.card] for s in holdings if s != dealer)
            everyone_known = all(result.known.values()) or (hand.tricks and _complete(hand, rs))
            if everyone_known and others == 0:
                diag("SJ520", call.span, f"friend {to_str(call.card, unicode=True)}: {dealer} holds every "
                                         f"copy (counting the bury), and the rules forbid calling it "
                                         f"(friend_self_call no)")
    return calls


def _complete(hand: Hand, rs: Ruleset) -> bool:
    return sum(len(t.plays[0].cards) for t in hand.tricks if t.plays) >= rs.hand_size


def calls_teams(calls: list[FriendResult], dealer: str | None, holdings: Mapping[str, Counter[int]],
                seats: tuple[str, ...], rs: Ruleset) -> Teams:
    """The hand's :class:`~replay.teams.Teams`: the dealer alone, joined as the
    ``calls`` are answered while the tricks are played (:meth:`Teams.answer`;
    under the ``held`` rule, seed 001 §4, each call's holder is named first:
    the holder nearest the dealer in play order, from the start ``holdings``).
    No dealer known: nobody answers."""
    if dealer is None or not calls:
        return Teams.forming(dealer)
    held = rs.friend_rule == "held"
    if held:
        i = seats.index(dealer)
        assign_holders(calls, [seats[(i + k) % len(seats)] for k in range(len(seats))], holdings)
    return Teams.forming(dealer, calls, held=held)


def settle_calls(teams: Teams, dealer: str | None, raw: list[TrickResult]) -> None:
    """The ``held`` rule's calls after the tricks: the dealer holding every copy
    plays alone (the call is the dealer's, answered when the dealer first plays
    the card); a holder who never shows the card is not revealed (the hand
    ended, or the record stops, before)."""
    if not teams.held or dealer is None:
        return
    for call in teams.calls:
        if call.seat is None:
            call.seat = dealer
            call.trick = next((t.number for t in raw for p, c in t.play_rows()
                               if p.seat == dealer and call.card in c), None)
        elif call.trick is None:
            call.seat = None


def check_reveals(hand: Hand, calls: list[FriendResult], result: HandResult, diag: DiagFn, complete: bool) -> None:
    for call, res in zip(hand.friends, calls):
        if call.joined is None:
            continue
        what = f"friend {res.text}"
        if call.joined == "none":
            if res.seat is not None:
                diag("SJ523", call.span, f"{what} is written as never answered, but {res.seat} answered it "
                                         f"at trick {res.trick}")
            continue
        if res.seat is None:
            if complete:
                diag("SJ523", call.span, f"{what} is written as answered by {call.joined}, but nobody "
                                         f"plays that copy (write `none`)")
            elif call.at is not None and call.at <= len(hand.tricks):
                diag("SJ523", call.span, f"{what} is written as answered by {call.joined} at trick "
                                         f"{call.at}, but that copy is not played by then")
            continue
        if res.seat != call.joined:
            diag("SJ523", call.span, f"{what} is answered by {res.seat} at trick {res.trick}, "
                                     f"not by {call.joined}")
        elif call.at is not None and call.at != res.trick:
            diag("SJ523", call.span, f"{what} is answered by {res.seat} at trick {res.trick}, "
                                     f"not at trick {call.at}")


def score_friends(hand: Hand, result: HandResult, team: tuple[str, ...], buried: tuple[int, ...] | None,
                  all_played: list[int], diag: DiagFn, complete: bool) -> None:
    """The tricks' sides, signed penalties and running totals for the dealer's
    final ``team`` (:func:`replay.hand_tricks.play_tricks` leaves them to here), the
    kitty and the points (the levels: :class:`replay.match.MatchFlow`)."""
    rs = result.ruleset
    total = 0
    for t in result.tricks:
        to_att = t.winner not in team
        t.to_attackers = to_att
        if to_att:
            result.card_points += t.points
            total += t.points
        if t.penalty:
            # the failed throw's cost, against the thrower's team
            t.penalty = penalty_delta(rs, len(t.source[0].attempted or ()), t.leader in team)
            result.penalties += t.penalty
            total += t.penalty
        t.attacker_points = total
    done = sum(len(t.cards_played[0]) for t in result.tricks)
    result.complete = complete
    if not result.complete:
        diag("SJ503", hand.tricks[-1].span if hand.tricks else hand.span,
             f"hand {hand.number or result.number} is incomplete: {done} of {rs.hand_size} cards played "
             f"by each seat")
        return
    final_kitty = buried if buried is not None else remainder(rs, all_played)
    order, dealer = result.order, result.dealer
    assert order is not None and dealer is not None  # a complete hand has both
    last = result.tricks[-1]
    mult = last_trick_kitty_multiplier(rs, order, last.winning_units, last.cards_played) if last.to_attackers else 0
    if final_kitty is not None and mult:
        result.multiplier = mult
        result.kitty_points = points(final_kitty) * mult
    result.attacker_points = result.card_points + result.penalties + result.kitty_points
    if hand.points is not None and hand.points != result.attacker_points:
        diag("SJ501", hand.points_span,
             f"points written as {hand.points} but the attackers ({result.attackers}) scored "
             f"{result.attacker_points} ({result.points_breakdown()})")


def friends_outcome(rs: Ruleset, levels: dict[str, int], dealer: str, team: tuple[str, ...],
                    seats: tuple[str, ...], attacker_points: int) -> HandOutcome:
    """Each player's level after the hand, the next dealer and the match end
    (shengji.io: the same point table, applied to every player of the winning
    side on their own level; a dealer team smaller than called that wins gets
    one level more; the next dealer is the first player after the dealer, in
    play order, who is on the winning side).

    ``winner`` names the seats of the winning team; ``gained`` includes the
    bonus level (:func:`friends_bonus`)."""
    adv = advancement(rs.advancement, attacker_points, rs.decks)
    gained = adv.levels
    if friends_bonus(rs, team, adv.dealers_keep):
        gained += 1
    new = dict(levels)
    winners = [s for s in seats if (s in team) == adv.dealers_keep]
    top = rs.top_level
    for s in winners:
        # (must_defend, shengji.io play_phase.rs compute_player_level_deltas: a friend on the top
        # level leaves it only when the dealer played at the top level too)
        defended = adv.dealers_keep and not (rs.must_defend and levels[s] == top and levels[dealer] != top)
        new[s] = raise_level(rs, levels[s], gained, defended=defended)
    i = seats.index(dealer)
    nxt = next((seats[(i + k) % len(seats)] for k in range(1, len(seats) + 1)
                if (seats[(i + k) % len(seats)] in team) == adv.dealers_keep), dealer)
    over, winner = False, None
    if rs.match_end == "defend_top":
        if adv.dealers_keep and levels[dealer] >= top:
            over, winner = True, " ".join(s for s in seats if s in team)
    elif rs.match_end == "reach_top":
        reached = [s for s in winners if new[s] >= top > levels[s]]
        if reached:
            over, winner = True, " ".join(reached)
    elif rs.hands_limit is not None:
        pass  # a fixed number of hands has no finding-friends reading: never over
    return HandOutcome(new, nxt, adv.dealers_keep, gained, False, over, winner)


def friends_bonus(rs: Ruleset, team: tuple[str, ...], dealers_won: bool) -> bool:
    """shengji.io BonusLevelForSmallerLandlordTeam: the dealer's team won with
    fewer players than its calls + 1 (a friend never found, or a call the
    dealer answered)."""
    return bool(dealers_won and rs.friend_bonus and len(team) < rs.friend_calls + 1)


def describe_friends(result: HandResult) -> str:
    """``friend 2nd ♥A: P3 at trick 7; friend 1st ♠K: not yet`` for reports."""
    parts = []
    for f in result.friends:
        if f.seat is None:
            parts.append(f"{f.text}: nobody")
        elif f.seat == result.dealer:
            parts.append(f"{f.text}: {f.seat} (the dealer; used up) at trick {f.trick}"
                         if f.trick else f"{f.text}: the dealer holds every copy")
        else:
            parts.append(f"{f.text}: {f.seat} at trick {f.trick}")
    return "; ".join(parts)


__all__ = ["card_forbidden", "check_calls", "calls_teams", "settle_calls", "check_reveals", "score_friends", "friends_outcome",
           "friends_bonus", "describe_friends"]
