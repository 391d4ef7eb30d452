"""Finding friends (找朋友): tables of 4–8 players whose teams form during the hand.

Seed 001 §4 (選對家) has the dealer name a card: its holder is the dealer's
partner (two holders: the one nearest the dealer in play order; the dealer
holding both plays alone). shengji.io's "Finding Friends" generalises it: the
dealer calls friends as "the k-th ♥A played"; whoever plays that copy joins
(the dealer playing it uses the call up), every player has a level of their
own, the attackers' points are those of the tricks won by the players outside
the dealer's team *as it stands at the end*, each player advances on their own,
and a dealer team left smaller than called that wins earns a bonus level.

:func:`replay_friends` replays a record under such rules: the table, the
players' levels, the declarations and the bury of each hand are read here;
the match flow (:func:`replay.match.replay_match`), the trick loop
(:func:`replay.hand_tricks.play_tricks`) and every rule of a trick are the
ones of every table, the teams a :class:`replay.teams.Teams` that forms as
the calls are answered (:mod:`replay.friend_calls`: the calls, reveals and
score).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import TYPE_CHECKING

from primitives.cards import SUIT_SYMBOLS, format_cards, rank_name
from primitives.diagnostics import Diagnostic, Span
from replay.deck import remainder
from replay.declare import DeclEvent, resolve_declarations
from replay.friend_calls import (
    calls_teams,
    card_forbidden,
    check_calls,
    check_reveals,
    describe_friends,
    friends_bonus,
    friends_outcome,
    score_friends,
    settle_calls,
)
from replay.hand_tricks import check_copies, play_tricks, trump_text
from replay.holdings import by_suit, remove_from
from replay.match import replay_match
from replay.order import NT, TRUMP, Order
from replay.results import DiagFn, HandResult, MatchResult
from replay.ruleset import Ruleset
from replay.seats import NUMBERED_SEATS, SEATS
from replay.teams import FriendResult, answer_calls, assign_holders
from replay.trick import cards_text, lead_suit
from replay.units import decompose

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Declaration, Hand, Play, Record
    from replay.declare import DeclResult

#: the table's seat names (the engine's one seat definition, replay.seats)
COMPASS = SEATS
NUMBERED = NUMBERED_SEATS


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
    :class:`replay.results.MatchResult` (``levels`` and outcomes by seat).
    The match flow is the one of every table (:func:`replay.match.replay_match`)."""
    seats = table_seats(record, rs)

    def replay_hand(hand: Hand, number: int, rs: Ruleset, levels: dict[str, int] | None, dealer: str | None,
                    first: bool) -> HandResult:
        return _replay_hand(hand, number, rs, seats, levels, dealer, first)

    return replay_match(record, rs, diags, replay_hand)


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
    check_copies(hand, rs, diag, all_played)
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
                diag("SJ303", hand.trump_span, f"trump written as {trump_text(trump)} but the "
                                               f"declarations make it {trump_text(res.trump)}")
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
    calls = check_calls(hand, rs, result, holdings, buried, diag)

    # -- tricks: the team forms as the calls are answered -----------------------------------------------
    teams = calls_teams(calls, dealer, holdings, seats, rs)
    split = {s: by_suit(h, order.eff) for s, h in holdings.items()}
    _, done, every_full = play_tricks(hand, result, split, known, diag, teams, seats, friends=True)
    raw = result.tricks
    complete = done >= rs.hand_size and every_full

    # -- friends revealed, teams, score ------------------------------------------------------------
    settle_calls(teams, dealer, raw)
    result.friends = calls
    team = result.team_at(len(hand.tricks) + 1)
    result.team = team
    check_reveals(hand, calls, result, diag, complete)
    score_friends(hand, result, team, buried, all_played, diag, complete)
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

# -- score and levels ---------------------------------------------------------------------------------

__all__ = ["replay_friends", "table_seats", "needs_friends", "infer_trump", "COMPASS", "NUMBERED",
           # (their own modules: replay.teams, replay.friend_calls; named here too for the callers of before)
           "FriendResult", "answer_calls", "assign_holders", "card_forbidden", "friends_bonus", "friends_outcome",
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
