"""Replaying a whole record: hands, deal, declarations, kitty, tricks, score.

``replay(record)`` walks every hand and every trick, checks every rule it can
(with the cards as recorded, never stopping at the first problem) and returns
a :class:`MatchResult` holding the state before and after each trick, the
score, the level changes and all diagnostics.

The match flow is :func:`replay.match.replay_match` for either table; a
fixed-partner hand is read here (levels, dealer, deal, declarations, kitty,
bury), a finding-friends hand in :mod:`replay.friends`, and both play their
tricks in :func:`replay.hand_tricks.play_tricks` with the hand's
:class:`replay.teams.Teams`. The results are :mod:`replay.results`'.

Hands may be partly known (NOTATION.md "Omissions"): a seat without a seat
line holds the cards it plays. Checks are made only where they are certain:
a card known to be held because it is played later was held all along.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, repeat, starmap
from typing import TYPE_CHECKING, cast

from primitives.cards import points, rank_name
from primitives.diagnostics import Diagnostic, Span
from replay.deck import remainder
from replay.declare import DeclEvent, resolve_declarations
from replay.friends import needs_friends, replay_friends
from replay.hand_tricks import check_copies, check_played_copies, play_tricks, trump_text
from replay.holdings import by_suit, remove_from
from replay.match import replay_match
from replay.order import NT, Order
from replay.results import DiagFn, HandResult, History, MatchResult, PlayResult, TrickResult
from replay.ruleset import Ruleset, resolve
from replay.scoring import SEAT_ORDER, TEAMS, last_trick_multiplier, other_team, team_of
from replay.teams import Teams
from replay.trick import cards_text

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Hand, Levels, Record

SEAT_INDEX = {s: i for i, s in enumerate(SEAT_ORDER)}

def ruleset_for(record: Record, rules: str | None = None) -> tuple[Ruleset, list[Diagnostic]]:
    """The record's ruleset from its tags (``rules`` overrides ``[Rules]``)."""
    # (`record.tag_node("Rules")` and `record.rule_overrides` in one pass over the tags)
    tag = None
    overrides: dict[str, tuple[str, Span]] = {}
    for t in record.tags:
        tag_name = t.name
        if tag_name == "Rules":
            if tag is None:
                tag = t
        elif tag_name.startswith("Rule."):
            overrides[tag_name[5:]] = (t.value, t.span)
    name = rules or (tag.value if tag else None)
    return resolve(name, overrides, tag.span if tag else None)


def replay(record: Record, *, rules: str | None = None, ruleset: Ruleset | None = None) -> MatchResult:
    """Replay every hand of ``record`` (a :class:`notation.model.Record`)."""
    if ruleset is None:
        ruleset, diags = ruleset_for(record, rules)
    else:
        diags = []
    if ruleset.partners == "friends" or needs_friends(record):
        # finding friends (找朋友): tables of 4–8, teams formed during the hand (replay.friends)
        if ruleset.partners != "friends":
            where = record.hands[0].span if record.hands else record.span
            diags.append(Diagnostic.at("SJ526", where, f"this record has friend lines, players' own levels "
                                                       f"or numbered seats, but the rules ({ruleset.name}) "
                                                       f"have fixed partners: replayed as finding friends "
                                                       f"(use `[Rules \"shengji-io-friends\"]`)"))
            ruleset = ruleset.model_copy(update={"partners": "friends"})
        return replay_friends(record, ruleset, diags)
    return replay_match(record, ruleset, diags, _replay_hand)  # a fixed-partner table (every seat N, W, S or E)


def _levels_text(levels: dict[str, int]) -> str:
    return f"NS {rank_name(levels['NS'])} EW {rank_name(levels['EW'])}"


def _replay_hand(hand: Hand, number: int, rs: Ruleset, levels: dict[str, int] | None, dealer: str | None,
                 first: bool) -> HandResult:
    diags: list[Diagnostic] = []

    def diag(code: str, span: Span | None, msg: str, trick: int | None = None) -> None:
        diags.append(Diagnostic.at(code, span or hand.span, msg, hand=number, trick=trick))

    # -- levels and dealer ------------------------------------------------------------
    # fixed partners: team levels (players' own levels send the record to replay.friends)
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
    written_dealer = hand.dealer if hand.dealer in SEAT_INDEX else None
    scheduled = dealer
    if (rs.attacker_level and not first and dealer is not None and written_dealer is not None
            and TEAMS[written_dealer] != TEAMS[dealer]):
        written_dealer = None  # 正常报主: the declarations may pass the deal; checked below
    if rs.declarer_deals and not first and dealer is not None and written_dealer != dealer:
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
        cards = dealt[sc.seat] = tuple(sc.cards)
        if len(cards) != full:
            sizes_ok = False
    if not sizes_ok or len(dealt) != len(hand.deal):  # rare
        for sc in hand.deal:
            if len(sc.cards) != full:
                diag("SJ201", sc.span, f"{sc.seat} is dealt {len(sc.cards)} cards; the rules deal {full}")
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
    if kitty is None and len(dealt) == 4:
        left = remainder(rs, *dealt.values())
        if left is not None and len(left) == kitty_size:
            kitty = left

    # -- declarations and trump ---------------------------------------------------------
    first_drawer = hand.first or written_dealer or dealer or "N"
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
        for d in res.diagnostics:
            diags.append(Diagnostic(d.code, d.message, d.line, d.column, d.end_line, d.end_column,
                                    d.severity, number, None))
        declarer, rebury = res.declarer, res.rebury
        acts = tuple(res.acts)
        if (first or dealer is None) and res.dealer is not None:
            if written_dealer is not None and written_dealer != res.dealer:
                diag("SJ502", hand.dealer_span, f"dealer written as {written_dealer} but the "
                                                f"declarations make {res.dealer} the dealer")
            else:
                dealer = res.dealer
        elif res.dealer is not None and dealer is None:
            dealer = res.dealer
        elif res.level is not None and res.dealer is not None:
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
            and hand.dealer in SEAT_INDEX and hand.dealer != dealer):
        diag("SJ502", hand.dealer_span, f"dealer written as {hand.dealer} but the previous hand and the "
                                        f"declarations make {dealer} the dealer")
    if level == 15:
        trump = NT
    if hand.redeal is not None:
        if not redeal:
            why = "declarations stand" if events else "the rules do not redeal"
            diag("SJ305", hand.redeal, f"`redeal` written but {why}")
        return HandResult(number, hand.span, rs, levels, level, dealer, declarer, trump, None,
                          redeal=True, dealt=dealt, kitty=kitty, diagnostics=diags, declaration_acts=acts)
    if redeal and hand.tricks:
        diag("SJ305", hand.tricks[0].span, "nobody declared: the rules require a redeal, yet tricks are played")
    if trump is None:
        diag("SJ304", hand.span, "no declarations and no `trump` line: assuming no trump (NT) to go on")
        trump = NT
    if dealer is None:
        dealer = hand.tricks[0].plays[0].seat if hand.tricks and hand.tricks[0].plays else None
        if dealer is not None:
            level = _hand_level(levels, dealer, events)
    order = Order.for_ruleset(level, trump, rs)
    result = HandResult(number, hand.span, rs, levels, level, dealer, declarer, trump, order,
                        dealt=dealt, kitty=kitty, diagnostics=diags, declaration_acts=acts)

    # -- kitty exchange ---------------------------------------------------------------------
    # the holdings as counts, made only for the seats whose start hand is not their seat
    # line (a bury, or a seat reconstructed from its plays); the others go from their
    # seat line to the trick loop's suits directly (`_suited_deal`)
    holdings: dict[str, dict[int, int]] = {}  # card → copies (a Counter for a seat rebuilt from its plays)
    known = {}
    for s in SEAT_ORDER:
        known[s] = s in dealt
    current_kitty = kitty
    allowed = [dealer] + ([rebury] if rebury else [])
    bury_ok = True  # every buried card was held (a rebury takes the bury as written)
    for b_index, b in enumerate(buries):
        expect = allowed[b_index] if b_index < len(allowed) else None
        if b.seat != expect:
            who = f"{expect}" if expect else "nobody (no further bury is allowed)"
            diag("SJ205", b.span, f"{b.seat} buries, but the one to bury here is {who}")
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
    if not buries and dealer is not None:
        known[dealer] = False  # the dealer's exchange is not recorded
    result.bury = current_kitty if buries else None

    # -- reconstruction of unknown hands from the plays -------------------------------------
    unknown = []
    for s in SEAT_ORDER:
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
        total_played = dict.fromkeys(SEAT_ORDER, 0)
        for t in hand.tricks:
            for p in t.plays:
                total_played[p.seat] += len(p.cards)
        if all(total_played[s] >= full for s in SEAT_ORDER):
            for s in unknown:
                known[s] = True  # reconstructed from a complete hand
    # a seat that neither buried nor was reconstructed holds its seat line as written
    touched = set(unknown)
    for b in buries:
        touched.add(b.seat)
    start_hands = result.start_hands
    for s in SEAT_ORDER:
        start_hands[s] = tuple(sorted(dealt[s] if s not in touched else _elements(holdings[s])))
    result.known = known

    # -- tricks -------------------------------------------------------------------------------
    eff = order.eff
    suited = {}
    for s in SEAT_ORDER:
        h = holdings.get(s)
        suited[s] = by_suit(h, eff) if h is not None else _suited_deal(dealt.get(s, ()), eff)
    all_held, done, every_full = play_tricks(hand, result, suited, known, diag, Teams.fixed(dealer))
    all_played: list[int] | None = None
    if not (all_held and deal_ok and bury_ok and not unknown):
        # no card can be played more often than the decks allow when every seat's
        # start hand comes from a deal without excess copies and played only cards it held
        all_played = list(chain.from_iterable([p.cards for t in hand.tricks for p in t.plays]))
        before = len(diags)
        check_played_copies(hand, rs.decks, diag, all_played)
        if len(diags) > before:
            found = diags[before:]
            del diags[before:]
            diags[copies_at:copies_at] = found

    # -- score --------------------------------------------------------------------------------
    result.complete = done >= full and every_full and not result.unknown_tricks
    if result.unknown_tricks:
        pass  # incomplete because a trick is unknown: nothing more to say (no score, no SJ503)
    elif not result.complete:
        diag("SJ503", hand.tricks[-1].span if hand.tricks else hand.span,
             f"hand {hand.number or number} is incomplete: {done} of {full} cards played by each seat")
    else:
        final_kitty = current_kitty if buries else None
        if final_kitty is None:
            if all_played is None:
                all_played = list(chain.from_iterable([p.cards for t in hand.tricks for p in t.plays]))
            final_kitty = remainder(rs, all_played)
        last = result.tricks[-1]
        last_cards = last.cards_played  # each play's cards, in turn order (`last.plays` would build them all)
        mult = 0
        if last.winning_units or last.to_attackers:
            mult = last_trick_multiplier(rs, order, last.winning_units, len(last_cards[0]), last_cards[-1])
        result.last_trick_multiplier = mult
        if last.to_attackers and final_kitty is not None:
            result.multiplier = mult
            result.kitty_points = points(final_kitty) * mult
        result.attacker_points = result.card_points + result.penalties + result.kitty_points
        if hand.points is not None and hand.points != result.attacker_points:
            diag("SJ501", hand.points_span,
                 f"points written as {hand.points} but the attackers scored {result.attacker_points} "
                 f"({result.points_breakdown()})")
    return result


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


__all__ = ["replay", "ruleset_for", "SEAT_INDEX", "DiagFn", "HandResult", "History", "MatchResult", "PlayResult",
           "TrickResult"]
