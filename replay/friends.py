"""Finding friends (找朋友): tables of 4–8 players whose teams form during the hand.

Seed 001 §4 (選對家) has the dealer name a card: its holder is the dealer's
partner (two holders: the one nearest the dealer in play order; the dealer
holding both plays alone). shengji.io's "Finding Friends" generalises it: the
dealer calls friends as "the k-th ♥A played"; whoever plays that copy joins
(the dealer playing it uses the call up), every player has a level of their
own, the attackers' points are those of the tricks won by the players outside
the dealer's team *as it stands at the end*, each player advances on their own,
and a dealer team left smaller than called that wins earns a bonus level.

:func:`replay_friends` replays a record under such rules. It is the same
pure engine as :mod:`replay.game` (every rule of a trick is the one of
:mod:`replay.trick` and :mod:`replay.units`); only the table, the teams, the
scoring and the levels differ. The four-player fixed-partner replay stays in
:mod:`replay.game`, untouched and as fast as before.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING

from primitives.cards import POINTS, SUIT_SYMBOLS, format_cards, points, rank_name, to_str
from primitives.diagnostics import Diagnostic, Span
from replay.deck import remainder
from replay.declare import DeclEvent, resolve_declarations
from replay.order import NT, TRUMP, Order
from replay.ruleset import Ruleset
from replay.scoring import HandOutcome, advancement, raise_level
from replay.seats import NUMBERED_SEATS, SEATS
from replay.state import by_suit, last_trick_multiplier, penalty_delta, remove_from
from replay.trick import cards_text, lead_suit
from replay.units import decompose

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Declaration, Hand, Play, Record
    from replay.declare import DeclResult
    from replay.game import DiagFn, HandResult, MatchResult, TrickResult

#: the table's seat names (the engine's one seat definition, replay.seats)
COMPASS = SEATS
NUMBERED = NUMBERED_SEATS


@dataclass(slots=True)
class FriendResult:
    """One friend call and its answer."""

    ordinal: int | None        # the k-th copy (None: the ``held`` rule, or not written)
    card: int
    seat: str | None           # who answered (the dealer: the call is used up); None: nobody
    trick: int | None          # the trick of the reveal
    span: Span

    @property
    def text(self) -> str:
        ordinal = f"{_ordinal(self.ordinal)} " if self.ordinal else ""
        return f"{ordinal}{to_str(self.card, unicode=True)}"


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def table_seats(record: Record, rs: Ruleset) -> tuple[str, ...]:
    """The seats of the record's table in play order: ``N W S E`` for four
    players written with compass seats, else ``P1``…``Pn``."""
    if rs.players == 4 and not _uses_numbered(record):
        return COMPASS
    return NUMBERED[:rs.players]


def _uses_numbered(record: Record) -> bool:
    for hand in record.hands:
        for sc in hand.deal:
            return sc.seat.startswith("P")
        for t in hand.tricks:
            for p in t.plays:
                return p.seat.startswith("P")
        if hand.dealer and hand.dealer != "?":
            return hand.dealer.startswith("P")
    return False


def _players_levels(lv: object) -> bool:
    """Is a hand's ``levels`` line the players' own levels (``PlayerLevels``, with a
    ``levels`` map) rather than the teams'? A pydantic model answers from its
    fields (``hasattr`` of a missing field costs a raised error, ~1.8 µs a hand)."""
    if lv is None:
        return False
    kind = type(lv)
    got = _PLAYER_LEVELS.get(kind)
    if got is None:  # (a pydantic class's model_fields costs ~1 µs a read: asked once per class)
        fields = getattr(kind, "model_fields", None)
        got = "levels" in fields if isinstance(fields, dict) else hasattr(lv, "levels")
        if isinstance(fields, dict):
            _PLAYER_LEVELS[kind] = got
    return got


_PLAYER_LEVELS: dict[type, bool] = {}


def needs_friends(record: Record) -> bool:
    """Does the record hold finding-friends content (a numbered seat anywhere,
    players' own levels, friend lines)? Such a record is replayed here even
    under fixed-partner rules (with SJ526)."""
    compass = _COMPASS_SET
    for hand in record.hands:
        if hand.friends or _players_levels(hand.levels):
            return True
        if hand.dealer not in compass and hand.dealer not in (None, "?"):
            return True
        if hand.first is not None and hand.first not in compass:
            return True
        # every seat written in the hand, gathered in one pass (the plays are most of them)
        if not compass.issuperset([p.seat for t in hand.tricks for p in t.plays]):
            return True
        if not compass.issuperset([sc.seat for sc in hand.deal]) or not compass.issuperset(
                [ev.seat for ev in hand.events]):
            return True
    return False


_COMPASS_SET = frozenset(COMPASS)


# -- a match --------------------------------------------------------------------------------

def replay_friends(record: Record, rs: Ruleset, diags: list[Diagnostic]) -> MatchResult:
    """Replay every hand of ``record`` under finding-friends rules; a
    :class:`replay.game.MatchResult` (``levels`` and outcomes by seat)."""
    from replay.game import MatchResult
    seats = table_seats(record, rs)
    hands = []
    levels: dict[str, int] | None = None
    dealer: str | None = None
    over, winner = False, None
    played = 0
    for i, hand in enumerate(record.hands, 1):
        if over:
            diags.append(Diagnostic.at("SJ504", hand.span,
                                       f"hand {i} is recorded after the match was decided ({winner} won)",
                                       hand=i))
        first = played == 0 and hand.number in (None, 1) and hand.dealer in (None, "?")
        res = _replay_hand(hand, i, rs, seats, levels, dealer, first)
        hands.append(res)
        diags.extend(res.diagnostics)
        if res.redeal:
            levels, dealer = res.levels, (res.dealer if played > 0 else None)
            continue
        played += 1
        if res.outcome is not None:
            levels, dealer = res.outcome.levels, res.outcome.next_dealer
            if res.outcome.match_over and not over:
                over, winner = True, res.outcome.winner
        else:
            levels, dealer = None, None
    diags.sort(key=Diagnostic.sort_key)
    return MatchResult(rs, hands, diags, winner)


def _levels_text(levels: dict[str, int], seats: Sequence[str]) -> str:
    return " ".join(f"{s} {rank_name(levels[s])}" for s in seats if s in levels)


def _written_levels(hand: Hand, seats: tuple[str, ...], diag: DiagFn) -> dict[str, int] | None:
    lv = hand.levels
    if lv is None:
        return None
    if hasattr(lv, "levels"):
        written = dict(lv.levels)
        strangers = [s for s in written if s not in seats]
        missing = [s for s in seats if s not in written]
        if strangers or missing:
            parts = []
            if strangers:
                parts.append(f"{', '.join(strangers)} {'does' if len(strangers) == 1 else 'do'} not sit here")
            if missing:
                parts.append(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing")
            diag("SJ524", lv.span, f"the levels line does not list the table's players "
                                   f"({' '.join(seats)}): {'; '.join(parts)}")
        return {s: written.get(s, 2) for s in seats}
    if seats == COMPASS:
        return {"N": lv.ns, "S": lv.ns, "W": lv.ew, "E": lv.ew}
    diag("SJ524", lv.span, "team levels (`NS`/`EW`) at a table of numbered seats: write each "
                           "player's level, like `levels P1 2 P2 2 …`")
    return {s: lv.ns for s in seats}


def _replay_hand(hand: Hand, number: int, rs: Ruleset, seats: tuple[str, ...], levels: dict[str, int] | None,
                 dealer: str | None, first: bool) -> HandResult:
    from replay.game import HandResult, _check_copies, _play_tricks, _trump_text
    diags: list[Diagnostic] = []
    n_seats = len(seats)
    seat_set = set(seats)

    def diag(code: str, span: Span | None, msg: str, trick: int | None = None) -> None:
        diags.append(Diagnostic.at(code, span or hand.span, msg, hand=number, trick=trick))

    # -- the table: every seat written must sit at it --------------------------------------
    strangers: dict[str, Span] = {}
    for sc in hand.deal:
        if sc.seat not in seat_set:
            strangers.setdefault(sc.seat, sc.span)
    for ev in hand.events:
        if ev.seat not in seat_set:
            strangers.setdefault(ev.seat, ev.span)
    for t in hand.tricks:
        for p in t.plays:
            if p.seat not in seat_set:
                strangers.setdefault(p.seat, p.span)
    for seat_name in (hand.dealer, hand.first):
        if seat_name not in (None, "?") and seat_name not in seat_set:
            strangers.setdefault(seat_name, hand.dealer_span)
    for name, span in strangers.items():
        diag("SJ525", span, f"{name} does not sit at this table of {rs.players} ({' '.join(seats)}); "
                            f"its lines are left out" + (" (set the table with `[Rule.players \"n\"]`)"
                                                        if name.startswith("P") else ""))

    # -- levels and dealer -------------------------------------------------------------------
    written = _written_levels(hand, seats, diag)
    if levels is None:
        if written is None:
            levels = {s: rs.first_level for s in seats}
            if number == 1:
                diag("SJ502", hand.span, f"hand 1 gives no `levels` line; assuming every player at "
                                         f"{rank_name(rs.first_level)}")
        else:
            levels = written
    elif written is not None and written != levels:
        wrong = [s for s in seats if written.get(s) != levels.get(s)]
        diag("SJ524", hand.levels.span if hand.levels else None,
             "levels written wrong: " + ", ".join(f"{s} {rank_name(written[s])} (the previous hands give "
                                                  f"{rank_name(levels[s])})" for s in wrong))
        levels = written
    written_dealer = hand.dealer if hand.dealer in seat_set else None
    if dealer is not None and written_dealer is not None and written_dealer != dealer and not first:
        diag("SJ502", hand.dealer_span, f"dealer written as {written_dealer} but the previous hand "
                                        f"makes {dealer} the dealer")
    if written_dealer is not None:
        dealer = written_dealer

    # -- deal ------------------------------------------------------------------------------------
    dealt: dict[str, tuple[int, ...]] = {sc.seat: tuple(sc.cards) for sc in hand.deal if sc.seat in seat_set}
    for sc in hand.deal:
        if sc.seat in seat_set and len(sc.cards) != rs.hand_size:
            diag("SJ201", sc.span, f"{sc.seat} is dealt {len(sc.cards)} cards; the rules deal {rs.hand_size}")
    kitty = tuple(hand.kitty) if hand.kitty is not None else None
    if kitty is not None and len(kitty) != rs.kitty:
        diag("SJ201", hand.kitty_span, f"the kitty has {len(kitty)} cards; the rules leave {rs.kitty}")
    plays_all = [p for t in hand.tricks for p in t.plays if p.seat in seat_set]
    all_played = list(chain.from_iterable(p.cards for p in plays_all))
    _check_copies(hand, rs, diag, all_played)
    if kitty is None and len(dealt) == n_seats:
        left = remainder(rs, *dealt.values())
        if left is not None and len(left) == rs.kitty:
            kitty = left

    # -- declarations and trump ------------------------------------------------------------------
    level = levels[dealer] if dealer is not None else None
    declarer = None
    trump = hand.trump
    redeal = False
    decl_events = [ev for ev in hand.events if ev.kind == "declare" and ev.seat in seat_set]
    acts: tuple[str, ...] = ()
    if decl_events or hand.declare_none is not None:
        if level is None:
            level = levels[decl_events[0].seat] if decl_events else levels[seats[0]]
        res = _declarations(rs, hand, decl_events, level, first, dealer, seats)
        for d in res.diagnostics:
            diags.append(Diagnostic(d.code, d.message, d.line, d.column, d.end_line, d.end_column,
                                    d.severity, number, None))
        declarer = res.declarer
        acts = tuple(res.acts)
        if (first or dealer is None) and res.dealer is not None:
            if written_dealer is not None and written_dealer != res.dealer:
                diag("SJ502", hand.dealer_span, f"dealer written as {written_dealer} but the "
                                                f"declarations make {res.dealer} the dealer")
            else:
                dealer = res.dealer
        redeal = res.redeal
        if res.trump is not None:
            if trump is not None and trump != res.trump:
                diag("SJ303", hand.trump_span, f"trump written as {_trump_text(trump)} but the "
                                               f"declarations make it {_trump_text(res.trump)}")
            elif trump is None:
                trump = res.trump
    if dealer is None:
        dealer = plays_all[0].seat if plays_all else None
    level = levels[dealer] if dealer is not None else levels[seats[0]]
    if level == 15:
        trump = NT
    if hand.redeal is not None:
        if not redeal:
            diag("SJ305", hand.redeal, "`redeal` written but " + (
                "declarations stand" if decl_events else "the rules do not redeal"))
        return HandResult(number, hand.span, rs, levels, level, dealer, declarer, trump, None, redeal=True,
                          dealt=dealt, kitty=kitty, diagnostics=diags, seats=seats, team=None,
                          declaration_acts=acts)
    if trump is None:
        diag("SJ304", hand.span, "no declarations and no `trump` line: assuming no trump (NT) to go on")
        trump = NT
    order = Order.for_ruleset(level, trump, rs)
    result = HandResult(number, hand.span, rs, levels, level, dealer, declarer, trump, order,
                        dealt=dealt, kitty=kitty, diagnostics=diags, seats=seats, team=(dealer,) if dealer else (),
                        declaration_acts=acts)

    # -- kitty exchange ----------------------------------------------------------------------------
    holdings: dict[str, Counter[int]] = {s: Counter(dealt.get(s, ())) for s in seats}
    known = {s: s in dealt for s in seats}
    buried = None
    for b_index, b in enumerate(hand.buries):
        if b.seat not in seat_set:
            continue
        if b_index > 0 or b.seat != dealer:
            diag("SJ205", b.span, f"{b.seat} buries, but the one to bury here is "
                                  f"{dealer if b_index == 0 else 'nobody (no further bury is allowed)'}")
            continue
        if len(b.cards) != rs.kitty:
            diag("SJ204", b.span, f"{b.seat} buries {len(b.cards)} card{'s' if len(b.cards) != 1 else ''}; "
                                  f"the kitty has {rs.kitty}")
        h = holdings[b.seat]
        if kitty is not None:
            h.update(kitty)
        else:
            known[b.seat] = False
        missing = remove_from(h, b.cards)
        if missing and known[b.seat]:
            diag("SJ204", b.span, f"{b.seat} buries {cards_text(missing, order)}, which they do not hold")
        buried = tuple(b.cards)
    if buried is None and dealer is not None:
        known[dealer] = False
    result.bury = buried
    for s in seats:
        if not known[s]:
            # a seat without a seat line held every card it plays (and a failed throw's attempt)
            held: Counter[int] = Counter()
            need: Counter[int] = Counter()
            for p in plays_all:
                if p.seat == s:
                    if p.attempted:
                        need |= held + Counter(p.attempted)
                    held.update(p.cards)
            holdings[s] = held | need
    result.start_hands = {s: tuple(sorted(holdings[s].elements())) for s in seats}
    result.known = known

    # -- friend calls ---------------------------------------------------------------------------------
    calls = _check_calls(hand, rs, result, holdings, buried, diag)

    # -- tricks -------------------------------------------------------------------------------------------
    split = {s: by_suit(h, order.eff) for s, h in holdings.items()}
    _, done, every_full = _play_tricks(hand, result, split, known, diag, seats, friends=True)
    raw = result.tricks
    complete = done >= rs.hand_size and every_full

    # -- friends revealed, teams, score ------------------------------------------------------------
    _reveal(calls, raw, result, holdings, seats, rs)
    result.friends = calls
    team = result.team_at(len(hand.tricks) + 1)
    result.team = team
    _check_reveals(hand, calls, result, diag, complete)
    _score(hand, result, team, buried, all_played, diag, complete)
    return result


# -- declarations -------------------------------------------------------------------------------

def _declarations(rs: Ruleset, hand: Hand, events: list[Declaration], level: int, first: bool, dealer: str | None,
                  seats: tuple[str, ...]) -> DeclResult:
    """The declarations of a table of any size, resolved by :func:`replay.declare.resolve_declarations`.

    That resolver knows four seats; only a seat's identity matters to it here
    (no partner reinforcement, no ``@k`` draw order at a table of friends), so
    the declarers stand in for the first four compass seats in order of their
    first declaration and the answer is mapped back."""
    mapping: dict[str, str] = {}
    for ev in events:
        if ev.seat not in mapping and len(mapping) < 4:
            mapping[ev.seat] = COMPASS[len(mapping)]
    back = {v: k for k, v in mapping.items()}
    local = rs.model_copy(update={"partner_reinforce": False, "partners": "fixed", "players": 4})
    decl: list[DeclEvent] = []
    after_bury = False
    included: list[bool] = []        # each declare line of the hand: read by the resolver?
    for e in hand.events:
        if e.kind == "bury":
            after_bury = True
        elif e in events and e.seat in mapping:
            decl.append(DeclEvent(mapping[e.seat], tuple(e.cards), None, e.span, after_bury))
            included.append(True)
        else:
            included.append(False)
    stand_in_dealer = mapping.get(dealer) if dealer is not None else None
    if dealer is not None and stand_in_dealer is None:
        free = [c for c in COMPASS if c not in back]
        if free:
            stand_in_dealer = free[0]
            back[stand_in_dealer] = dealer
    res = resolve_declarations(local, level, decl, first_hand=first, dealer=stand_in_dealer,
                               first_drawer=stand_in_dealer or "N", deal=None, kitty=hand.kitty,
                               declare_none=hand.declare_none is not None)
    seat_word = re.compile(r"\b([NWSE])\b")

    def rename(text: str) -> str:
        return seat_word.sub(lambda m: back.get(m.group(1), m.group(1)), text)

    res.diagnostics[:] = [Diagnostic(d.code, rename(d.message), d.line, d.column, d.end_line, d.end_column,
                                     d.severity) for d in res.diagnostics]
    read = iter(res.acts)
    res.acts = [next(read, "refused") if inc else "refused" for inc in included]
    res.declarer = back.get(res.declarer, res.declarer) if res.declarer else None
    res.dealer = back.get(res.dealer, res.dealer) if res.dealer else None
    return res


# -- friend calls -------------------------------------------------------------------------------

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


def _check_calls(hand: Hand, rs: Ruleset, result: HandResult, holdings: Mapping[str, Counter[int]],
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
            diag("SJ521", call.span, f"the {_ordinal(call.ordinal)} {to_str(call.card, unicode=True)} "
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


def _reveal(calls: list[FriendResult], raw: list[TrickResult], result: HandResult,
            holdings: Mapping[str, Counter[int]], seats: tuple[str, ...], rs: Ruleset) -> None:
    """Who answers each call, and when (in play order within each trick)."""
    dealer = result.dealer
    if dealer is None or not calls:
        return
    if rs.friend_rule == "held":
        # seed 001 §4: the holder nearest the dealer in play order; the dealer holding
        # every copy plays alone. The partner is revealed when they first play the card.
        i = seats.index(dealer)
        ring = [seats[(i + k) % len(seats)] for k in range(1, len(seats))]
        for call in calls:
            holder = next((s for s in ring if holdings[s][call.card] > 0), None)
            if holder is None:
                call.seat = dealer
                call.trick = next((t.number for t in raw for p, c in zip(t._source, t._cards)
                                   if p.seat == dealer and call.card in c), None)
                continue
            call.seat = holder
            call.trick = next((t.number for t in raw for p, c in zip(t._source, t._cards)
                               if p.seat == holder and call.card in c), None)
            if call.trick is None:
                call.seat = None  # never shown: the hand ended (or the record stops) before
        return
    skips = [(c.ordinal or 1) - 1 for c in calls]
    team = [dealer]
    for t in raw:
        answer_calls(calls, skips, team, t.number, [(p.seat, c) for p, c in zip(t._source, t._cards)])


def answer_calls(calls: list[FriendResult], skips: list[int], team: list[str], trick: int,
                 plays: Iterable[tuple[str, Sequence[int]]]) -> None:
    """The ``played`` rule for one trick (shengji.io): each copy of a called card,
    in play order, counts down its call's ordinal; the copy that reaches it answers
    the call. A player already on the team (the dealer, or a friend) uses the call
    up without adding anyone. ``plays``: ``(seat, cards)`` in play order; ``skips``
    and ``team`` (dealer first) are updated in place."""
    for seat, cards in plays:
        for card in cards:
            for k, call in enumerate(calls):
                if call.card != card or call.seat is not None:
                    continue
                if skips[k] > 0:
                    skips[k] -= 1
                    continue
                call.seat, call.trick = seat, trick
                if seat not in team:
                    team.append(seat)


def assign_holders(calls: list[FriendResult], ring: Sequence[str], holdings: Mapping[str, Mapping[int, int]]) -> None:
    """The ``held`` rule before play (seed 001 §4): each call's partner is the
    holder of the card nearest the dealer in play order (``ring``: the dealer
    first); None when the dealer holds every copy."""
    for call in calls:
        call.seat = next((s for s in ring[1:] if holdings[s][call.card]), None)


def answer_held_calls(calls: list[FriendResult], team: list[str], trick: int,
                      plays: Iterable[tuple[str, Sequence[int]]]) -> None:
    """The ``held`` rule for one trick (seed 001 §4): a call whose holder is
    known (:func:`assign_holders`) is revealed when the holder first plays the
    card; the holder joins ``team`` (updated in place)."""
    for call in calls:
        if call.seat is not None and call.trick is None and any(
                s == call.seat and call.card in p for s, p in plays):
            call.trick = trick
            if call.seat not in team:
                team.append(call.seat)


def _check_reveals(hand: Hand, calls: list[FriendResult], result: HandResult, diag: DiagFn, complete: bool) -> None:
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


# -- score and levels ---------------------------------------------------------------------------------

def _score(hand: Hand, result: HandResult, team: tuple[str, ...], buried: tuple[int, ...] | None,
           all_played: list[int], diag: DiagFn, complete: bool) -> None:
    """The tricks' sides, signed penalties and running totals for the dealer's
    final ``team`` (:func:`replay.game._play_tricks` leaves them to here), the
    kitty, the points and the levels."""
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
            t.penalty = penalty_delta(rs, len(t._source[0].attempted or ()), t.leader in team)
            result.penalties += t.penalty
            total += t.penalty
        t.attacker_points = total
    done = sum(len(t._cards[0]) for t in result.tricks)
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
    plays = last.plays
    # a lead that mixes suits wins with itself (no matching units): its own decomposition
    units = last.winning_units or tuple(decompose(plays[0].cards, order))
    if last.to_attackers and final_kitty is not None and units:
        mult = last_trick_multiplier(rs, order, units, len(plays[0].cards), plays[-1].cards)
        result.multiplier = mult
        result.kitty_points = points(final_kitty) * mult
    result.attacker_points = result.card_points + result.penalties + result.kitty_points
    if hand.points is not None and hand.points != result.attacker_points:
        diag("SJ501", hand.points_span,
             f"points written as {hand.points} but the attackers ({result.attackers}) scored "
             f"{result.attacker_points} ({result.points_breakdown()})")
    result.outcome = friends_outcome(rs, result.levels, dealer, team, result.seats,
                                     result.attacker_points)
    result.bonus = friends_bonus(rs, result.team or (), result.outcome.dealers_keep)


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


__all__ = ["FriendResult", "replay_friends", "friends_bonus", "answer_calls", "card_forbidden", "friends_outcome", "table_seats", "needs_friends",
           "describe_friends", "format_cards", "SUIT_SYMBOLS"]


def infer_trump(said: Iterable[tuple[Sequence[Play], str]], level: int) -> int | None:
    """The one trump (0..3, NT = 4) at ``level`` under which every stated trick
    winner could win at all — their play is of the led suit or all trump, with
    the lead's structure (a log that names winners but not the trump); None
    when no trump or several fit. ``said``: ``(plays, winner seat)`` per trick."""
    from replay.units import cover
    fits = []
    for trump in range(5):
        order = Order.for_ruleset(level, trump, _INFER_RULES)
        ok = True
        for plays, winner in said:
            lead = tuple(plays[0].cards)
            win = next((p for p in plays if p.seat == winner), None)
            if win is None or not lead:
                continue
            if win is plays[0]:
                continue
            suit = lead_suit(lead, order)
            got = lead_suit(tuple(win.cards), order)
            if suit is None or got is None or (got != suit and got != TRUMP) or len(win.cards) != len(lead):
                ok = False
                break
            shape = [u.shape for u in decompose(lead, order)]
            if cover(shape, win.cards, order) is None:
                ok = False
                break
        if ok:
            fits.append(trump)
    return fits[0] if len(fits) == 1 else None


from replay.ruleset import preset as _preset  # noqa: E402

_INFER_RULES = _preset("shengji-io-friends")
