"""One recorded hand replayed, at any table: :func:`replay_hand`.

A hand is read in one path whatever the table: the levels and the dealer,
the deal, the declarations and trump, the kitty and the bury, the start hands
(reconstructed from the plays where a seat line is missing), the tricks (the
one trick loop, :func:`replay.hand_tricks.play_tricks`), the copies of each
card, the score. The teams are a function of the hand
(:class:`replay.teams.Teams`): at a fixed-partner :class:`Table` they are
known from the start (``Teams.fixed``); at a table of finding friends (找朋友)
the dealer starts alone and the team forms as the friend calls are answered
(``Teams.forming``, :mod:`replay.friend_calls`). The steps that really differ
are their own functions: the levels (the teams' here, each player's in
:func:`replay.friends.player_levels`), the declarations (a table of friends
resolves them with stand-ins, :func:`replay.friends.declare_at_table`), the
calls and the score.

Hands may be partly known (NOTATION.md "Omissions"): a seat without a seat
line holds the cards it plays. Checks are made only where they are certain:
a card known to be held because it is played later was held all along.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, repeat, starmap
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from primitives.cards import points, rank_name
from primitives.diagnostics import Diagnostic, Span
from replay.deck import remainder
from replay.declare import resolve_declarations
from replay.declare_state import Declared, DeclEvent, take_declarations
from replay.friend_calls import calls_teams, check_calls, check_reveals, score_friends, settle_calls
from replay.friends import declare_at_table, player_levels
from replay.hand_tricks import check_copies, check_played_copies, play_tricks, trump_text
from replay.holdings import by_suit, remove_from
from replay.order import NT, Order
from replay.results import DiagFn, HandResult
from replay.ruleset import Ruleset
from replay.scoring import SEAT_ORDER, TEAMS, last_trick_kitty_multiplier, other_team, team_of
from replay.teams import Teams
from replay.texts import cards_text

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Hand, Levels


class Table(NamedTuple):
    """Who sits at the table: ``seats`` in play order, ``seat_set`` the same as
    a set; ``friends``: the teams form during the hand (finding friends), else
    the partners are fixed (N–S against W–E)."""

    seats: tuple[str, ...]
    seat_set: frozenset[str]
    friends: bool

    @classmethod
    def of(cls, seats: tuple[str, ...], friends: bool) -> Table:
        return cls(seats, frozenset(seats), friends)


#: the fixed-partner table (every seat N, W, S or E)
FIXED = Table.of(SEAT_ORDER, False)

#: tuple.__new__ typed: a :class:`Declared` built without its Python-level ``__new__``
_new_declared = cast("Callable[[type[Declared], tuple[Any, ...]], Declared]", tuple.__new__)


def replay_hand(hand: Hand, number: int, rs: Ruleset, table: Table, levels: dict[str, int] | None,
                dealer: str | None, first: bool) -> HandResult:
    """Replay one recorded hand at ``table`` from the ``levels`` and ``dealer``
    the previous hands leave (None: not known; ``first``: the match's first hand)."""
    diags: list[Diagnostic] = []
    seats, seat_set, friends = table

    def diag(code: str, span: Span | None, msg: str, trick: int | None = None) -> None:
        diags.append(Diagnostic.at(code, span or hand.span, msg, hand=number, trick=trick))

    # -- the table: every seat written must sit at it (a table of friends) -------------------
    if friends:
        _strangers(hand, rs, seats, seat_set, diag)

    # -- levels and dealer ------------------------------------------------------------
    if friends:
        levels = player_levels(hand, number, rs, seats, levels, diag)
    else:
        levels = _team_levels(hand, number, rs, levels, diag)
    written_dealer = hand.dealer if hand.dealer in seat_set else None
    scheduled = dealer
    if not friends and not first and dealer is not None and written_dealer is not None:
        if rs.attacker_level and TEAMS[written_dealer] != TEAMS[dealer]:
            written_dealer = None  # 正常报主: the declarations may pass the deal; checked below
        if rs.declarer_deals and written_dealer != dealer:
            written_dealer = None  # the declarer deals: checked against the declarations below
    if dealer is not None and written_dealer is not None and written_dealer != dealer and not first:
        diag("SJ502", hand.dealer_span, f"dealer written as {written_dealer} but the previous hand "
                                        f"makes {dealer} the dealer")
    if written_dealer is not None:
        dealer = written_dealer

    # -- deal ------------------------------------------------------------------------------
    # (hand_size and kitty are computed properties of the ruleset: read once)
    full, kitty_size = rs.hand_size, rs.kitty
    # (plain loops here and below: a comprehension costs a function object and a
    # frame per evaluation, more than the loop itself over 4 seats)
    dealt: dict[str, tuple[int, ...]] = {}
    sizes_ok = True
    for sc in hand.deal:
        if sc.seat in seat_set:
            cards = dealt[sc.seat] = tuple(sc.cards)
            if len(cards) != full:
                sizes_ok = False
    if not sizes_ok or len(dealt) != len(hand.deal):  # rare
        for sc in hand.deal:
            if sc.seat in seat_set and len(sc.cards) != full:
                diag("SJ201", sc.span, f"{sc.seat} is dealt {len(sc.cards)} cards; the rules deal {full}")
        if not friends:
            seen = set()
            for sc in hand.deal:
                if sc.seat in seen:
                    diag("SJ201", sc.span, f"{sc.seat} has two seat lines")
                seen.add(sc.seat)
    kitty = tuple(hand.kitty) if hand.kitty is not None else None
    if kitty is not None and len(kitty) != kitty_size:
        diag("SJ201", hand.kitty_span, f"the kitty has {len(kitty)} cards; the rules leave {kitty_size}")
    deal_ok = check_copies(hand, rs, diag, None)
    copies_at = len(diags)  # where the plays' SJ202 go (checked after the tricks, only when they can fire)
    if kitty is None and len(dealt) == len(seats):
        left = remainder(rs, *dealt.values())
        if left is not None and len(left) == kitty_size:
            kitty = left

    # -- declarations and trump ---------------------------------------------------------
    first_drawer: str | None = None   # fixed partners: the draw's first seat and the dealer
    declared_from: str | None = None  # the declarations were read from (HandResult's fields)
    if friends:
        declared = declare_at_table(hand, number, rs, seats, levels, dealer, written_dealer, first, diags, diag)
    else:
        first_drawer = hand.first or written_dealer or dealer or "N"
        declared_from = dealer
        declared = _declare(hand, number, rs, levels, dealer, written_dealer, scheduled, first, first_drawer,
                            dealt, diags, diag)
    level, dealer, declarer, trump, redeal, rebury, acts, buries, any_declared = declared
    if level == 15:
        trump = NT
    if hand.redeal is not None:
        if not redeal:
            why = "declarations stand" if any_declared else "the rules do not redeal"
            diag("SJ305", hand.redeal, f"`redeal` written but {why}")
        return HandResult(number, hand.span, rs, levels, level, dealer, declarer, trump, None,
                          redeal=True, dealt=dealt, kitty=kitty, diagnostics=diags, seats=seats,
                          declaration_acts=acts, declared_from=declared_from, first_drawer=first_drawer)
    if redeal and hand.tricks and not friends:
        diag("SJ305", hand.tricks[0].span, "nobody declared: the rules require a redeal, yet tricks are played")
    if trump is None:
        diag("SJ304", hand.span, "no declarations and no `trump` line: assuming no trump (NT) to go on")
        trump = NT
    if dealer is None and not friends:
        dealer = hand.tricks[0].plays[0].seat if hand.tricks and hand.tricks[0].plays else None
        if dealer is not None:
            level = levels[team_of(dealer)]
    order = Order.for_ruleset(level, trump, rs)
    result = HandResult(number, hand.span, rs, levels, level, dealer, declarer, trump, order,
                        dealt=dealt, kitty=kitty, diagnostics=diags, seats=seats,
                        team=((dealer,) if dealer else ()) if friends else None, declaration_acts=acts,
                        declared_from=declared_from, first_drawer=first_drawer)

    # -- kitty exchange ---------------------------------------------------------------------
    # the holdings as counts, made only for the seats whose start hand is not their seat
    # line (a bury, or a seat reconstructed from its plays); the others go from their
    # seat line to the trick loop's suits directly (`_suited_deal`)
    holdings: dict[str, dict[int, int]] = {}  # card → copies (a Counter for a seat rebuilt from its plays)
    known = {}
    for s in seats:
        known[s] = s in dealt
    current_kitty = kitty
    buried = False  # a bury was taken (a table of friends leaves out a bury by the wrong seat)
    allowed = [dealer] + ([rebury] if rebury else [])
    bury_ok = True  # every buried card was held (a rebury takes the bury as written)
    for b_index, b in enumerate(buries):
        if friends and b.seat not in seat_set:
            continue
        expect = allowed[b_index] if b_index < len(allowed) else None
        if b.seat != expect:
            who = f"{expect}" if expect or (friends and b_index == 0) else "nobody (no further bury is allowed)"
            diag("SJ205", b.span, f"{b.seat} buries, but the one to bury here is {who}")
            if friends:
                continue
        if len(b.cards) != kitty_size:
            diag("SJ204", b.span, f"{b.seat} buries {len(b.cards)} card{'s' if len(b.cards) != 1 else ''}; "
                                  f"the kitty has {kitty_size}")
        h = holdings.get(b.seat)
        taken = current_kitty if current_kitty is not None else ()
        if current_kitty is None:
            known[b.seat] = False
        if h is None:
            # the seat line and the kitty counted at once, into a plain dict (a Counter
            # takes a card out with a `del` written in Python)
            h = holdings[b.seat] = dict(Counter(dealt.get(b.seat, ()) + taken))
        else:
            for c in taken:
                h[c] = h.get(c, 0) + 1
        missing = remove_from(h, b.cards)
        if missing:
            bury_ok = False
        if missing and known[b.seat]:
            diag("SJ204", b.span, f"{b.seat} buries {cards_text(missing, order)}, which they do not hold")
        current_kitty = tuple(b.cards)
        buried = True
    if not buried and dealer is not None:
        known[dealer] = False  # the dealer's exchange is not recorded
    bury = current_kitty if buried else None
    result.bury = bury

    # -- reconstruction of unknown hands from the plays -------------------------------------
    unknown = []
    for s in seats:
        if not known[s]:
            unknown.append(s)
    if unknown:
        # a seat held every card it plays; at a failed throw it also held the whole
        # attempt (besides what it had played before): the start hand is the larger
        played_so_far: dict[str, Counter[int]] = {s: Counter() for s in unknown}
        must_hold: dict[str, Counter[int]] = {s: Counter() for s in unknown}
        for t in hand.tricks:
            for p in t.plays:
                played = played_so_far.get(p.seat)
                if played is None:
                    continue
                if p.attempted:
                    must_hold[p.seat] |= played + Counter(p.attempted)
                played.update(p.cards)
        for s in unknown:
            holdings[s] = played_so_far[s] | must_hold[s]
        if not friends:
            total_played = dict.fromkeys(seats, 0)
            for t in hand.tricks:
                for p in t.plays:
                    total_played[p.seat] += len(p.cards)
            if all(total_played[s] >= full for s in seats):
                for s in unknown:
                    known[s] = True  # reconstructed from a complete hand
    # a seat that neither buried nor was reconstructed holds its seat line as written
    start_hands = result.start_hands
    for s in seats:
        h = holdings.get(s)
        start_hands[s] = tuple(sorted(dealt[s] if h is None else _elements(h)))
    result.known = known

    # -- the teams: known from the start, or formed as the friend calls are answered ----------
    if friends:
        counts = {s: Counter(holdings[s] if s in holdings else dealt.get(s, ())) for s in seats}
        calls = check_calls(hand, rs, result, counts, bury, diag)
        teams = calls_teams(calls, dealer, counts, seats, rs)
    else:
        calls = []
        teams = Teams.fixed(dealer)

    # -- tricks -------------------------------------------------------------------------------
    eff = order.eff
    suited = {}
    for s in seats:
        h = holdings.get(s)
        suited[s] = by_suit(h, eff) if h is not None else _suited_deal(dealt.get(s, ()), eff)
    all_held, done, every_full = play_tricks(hand, result, suited, known, diag, teams, seats, friends)
    all_played: list[int] | None = None
    if friends or not (all_held and deal_ok and bury_ok and not unknown):
        # no card can be played more often than the decks allow when every seat's
        # start hand comes from a deal without excess copies and played only cards it held
        all_played = _played(hand, seat_set if friends else None)
        before = len(diags)
        check_played_copies(hand, rs.decks, diag, all_played)
        if len(diags) > before:
            found = diags[before:]
            del diags[before:]
            diags[copies_at:copies_at] = found

    # -- score --------------------------------------------------------------------------------
    if friends:
        assert all_played is not None
        complete = done >= full and every_full
        settle_calls(teams, dealer, result.tricks)
        result.friends = calls
        team = result.team = result.team_at(len(hand.tricks) + 1)
        check_reveals(hand, calls, result, diag, complete)
        score_friends(hand, result, team, bury, all_played, diag, complete)
    else:
        _score(hand, number, result, done, every_full, bury, all_played, diag)
    return result


def _strangers(hand: Hand, rs: Ruleset, seats: tuple[str, ...], seat_set: frozenset[str], diag: DiagFn) -> None:
    """SJ525: every seat written in the hand that does not sit at the table (its lines are left out)."""
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


def _levels_text(levels: dict[str, int]) -> str:
    return f"NS {rank_name(levels['NS'])} EW {rank_name(levels['EW'])}"


def _team_levels(hand: Hand, number: int, rs: Ruleset, levels: dict[str, int] | None,
                 diag: DiagFn) -> dict[str, int]:
    """The teams' levels the hand is played at (fixed partners): as the previous
    hands leave them, else as written (SJ502 where the two disagree)."""
    lv = cast("Levels | None", hand.levels)
    written_levels = {"NS": lv.ns, "EW": lv.ew} if lv else None
    if levels is None:
        if written_levels is None:
            levels = {"NS": rs.first_level, "EW": rs.first_level}
            if number == 1:
                diag("SJ502", hand.span, f"hand 1 gives no `levels` line; assuming {_levels_text(levels)}")
        else:
            levels = written_levels
    elif lv and written_levels is not None and written_levels != levels:
        diag("SJ502", lv.span, f"levels written as {_levels_text(written_levels)} but the "
                                        f"previous hands give {_levels_text(levels)}")
        levels = written_levels
    return levels


def _declare(hand: Hand, number: int, rs: Ruleset, levels: dict[str, int], dealer: str | None,
             written_dealer: str | None, scheduled: str | None, first: bool, first_drawer: str,
             dealt: dict[str, tuple[int, ...]], diags: list[Diagnostic], diag: DiagFn) -> Declared:
    """The declarations at a fixed-partner table (:func:`replay.declare.resolve_declarations`,
    with the draw order from ``first_drawer`` when the declarations are timed) and the dealer they make."""
    events, after_bury = [], False
    buries = []  # `hand.buries`, read once here (the property builds its list at each call)
    timed = False  # a declaration is written with its draw (`@k`)
    for ev in hand.events:
        if ev.kind == "bury":
            after_bury = True
            buries.append(ev)
        else:
            at = ev.at
            if at:
                timed = True
            events.append(DeclEvent(ev.seat, tuple(ev.cards), at, ev.span, after_bury))
    level = _hand_level(levels, dealer, events)
    declarer = None
    trump = hand.trump
    redeal = False
    rebury = None
    acts: tuple[str, ...] = ()
    if events or hand.declare_none is not None:
        draw_order = dealt if len(dealt) == 4 and timed else None
        res = resolve_declarations(rs, level, events, first_hand=first, dealer=dealer,
                                   first_drawer=first_drawer, deal=draw_order, kitty=hand.kitty,
                                   declare_none=hand.declare_none is not None,
                                   attacker_level=(levels[other_team(team_of(dealer))]
                                                   if rs.attacker_level and dealer is not None else None),
                                   team_levels=levels if rs.declarer_deals else None)
        declarer, rebury = res.declarer, res.rebury
        acts = tuple(res.acts)
        took = (first or dealer is None) and res.dealer is not None
        dealer = take_declarations(res, number, diags, diag, hand.dealer_span, first, dealer, written_dealer)
        if not took and res.level is not None and res.dealer is not None:
            dealer = res.dealer  # attacker_level (正常报主): an attacker's own level took the deal
        level = _hand_level(levels, dealer, events)
        if res.redeal:
            redeal = True
        if res.trump is not None:
            if trump is not None and trump != res.trump and not (level == 15 and trump == NT):
                diag("SJ303", hand.trump_span, f"trump written as {trump_text(trump)} but the "
                                               f"declarations make it {trump_text(res.trump)}")
            elif trump is None:
                trump = res.trump
    if (((rs.attacker_level and scheduled is not None) or rs.declarer_deals) and not first
            and hand.dealer in TEAMS and hand.dealer != dealer):
        diag("SJ502", hand.dealer_span, f"dealer written as {hand.dealer} but the previous hand and the "
                                        f"declarations make {dealer} the dealer")
    # (built without Declared's Python-level __new__: once a hand, on lint's path)
    return _new_declared(Declared, (level, dealer, declarer, trump, redeal, rebury, acts, buries, bool(events)))


def _score(hand: Hand, number: int, result: HandResult, done: int, every_full: bool,
           bury: tuple[int, ...] | None, all_played: list[int] | None, diag: DiagFn) -> None:
    """The attackers' points at a fixed-partner table (the tricks were given to
    their side as they were played): the kitty × the last trick's multiplier."""
    rs = result.ruleset
    full = rs.hand_size
    result.complete = done >= full and every_full and not result.unknown_tricks
    if result.unknown_tricks:
        return  # incomplete because a trick is unknown: nothing more to say (no score, no SJ503)
    if not result.complete:
        diag("SJ503", hand.tricks[-1].span if hand.tricks else hand.span,
             f"hand {hand.number or number} is incomplete: {done} of {full} cards played by each seat")
        return
    order = result.order
    assert order is not None
    final_kitty = bury
    if final_kitty is None:
        if all_played is None:
            all_played = _played(hand, None)
        final_kitty = remainder(rs, all_played)
    last = result.tricks[-1]
    last_cards = last.cards_played  # each play's cards, in turn order (`last.plays` would build them all)
    mult = 0
    if last.winning_units or last.to_attackers:
        mult = last_trick_kitty_multiplier(rs, order, last.winning_units, last_cards)
    result.last_trick_multiplier = mult
    if last.to_attackers and final_kitty is not None:
        result.multiplier = mult
        result.kitty_points = points(final_kitty) * mult
    result.attacker_points = result.card_points + result.penalties + result.kitty_points
    if hand.points is not None and hand.points != result.attacker_points:
        diag("SJ501", hand.points_span,
             f"points written as {hand.points} but the attackers scored {result.attacker_points} "
             f"({result.points_breakdown()})")


def _played(hand: Hand, seat_set: frozenset[str] | None) -> list[int]:
    """Every card played in the hand, in play order (``seat_set``: by the seats at the table only)."""
    if seat_set is None:
        return list(chain.from_iterable([p.cards for t in hand.tricks for p in t.plays]))
    return list(chain.from_iterable([p.cards for t in hand.tricks for p in t.plays if p.seat in seat_set]))


def _elements(holding: dict[int, int]) -> Iterator[int]:
    """Each card of ``holding`` (card → copies) as often as it is held (``Counter.elements``)."""
    return chain.from_iterable(starmap(repeat, holding.items()))


def _suited_deal(cards: Iterable[int], eff: Sequence[int]) -> tuple[dict[int, int], ...]:
    """``by_suit(Counter(cards), eff)`` without the Counter: a seat line's cards
    by effective suit (card → copies, in first-seen order, as the Counter's)."""
    out: tuple[dict[int, int], ...] = ({}, {}, {}, {}, {})
    for c in cards:
        d = out[eff[c]]
        d[c] = d.get(c, 0) + 1
    return out


def _hand_level(levels: dict[str, int], dealer: str | None, events: Sequence[DeclEvent]) -> int:
    if dealer is not None:
        return levels[team_of(dealer)]
    if levels["NS"] == levels["EW"] or not events:
        return levels["NS"]
    return levels[team_of(events[0].seat)]


__all__ = ["replay_hand", "Table", "FIXED"]
