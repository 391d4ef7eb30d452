"""Generate complete, legal matches under any preset: the record generator.

:func:`generate_match` shuffles the decks with ``random.Random(seed)``, deals
one card at a time counter-clockwise (N → W → S → E) from the first drawer,
lets the bots (:mod:`analyzer.bot`) declare trump while the cards are drawn
(through :mod:`replay.declare`'s incremental API, so every declaration is one
the engine accepts), gives the kitty to the dealer, buries, plays the tricks
and scores the hand, then moves the levels and the deal on by the rules
(:func:`replay.scoring.hand_outcome`) for the next hand, until ``hands`` hands
are played or the match ends.

The result is a :class:`notation.model.Record` with every line a full record
has: ``levels`` and ``dealer`` on every hand, ``first`` on the first hand,
the seat lines in draw order (the ``@k`` of each declaration counts them),
``kitty`` (in deck order: ``kitty_card`` reads its 3rd card), the
declarations (or ``declare none``), ``trump``, the ``bury`` lines (a campus
反主抄底 adds a second ``declare`` + ``bury`` pair), the tricks (a failed throw
as ``attempted -> forced`` as :func:`replay.trick.check_throw` decides) and the
attackers' ``points`` as the engine counts them. A hand that nobody declares
under ``no_declaration: redeal`` is written with ``declare none`` and
``redeal`` and dealt again; the new deal keeps the hand's number (the
replay treats it as the same hand of the match).

The same ``(rules, hands, seed)`` always gives the same record.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from notation.model import Bury, Declaration, Hand, Levels, Play, Record, SeatCards, Tag, Trick
from replay.cards import JOKER_LEVEL, LJ, deck_list, points
from replay.declare import DeclEvent, DeclState, advance, conclude, start
from replay.diagnostics import NO_SPAN
from replay.order import Order
from replay.ruleset import Ruleset, preset
from replay.scoring import hand_outcome, kitty_multiplier, next_seat, other_team, team_of
from replay.trick import check_throw, throw_penalty, trick_winner
from replay.units import decompose

from .bot import Bot, BotParams, TrickView

SEATS: tuple[str, ...] = ("N", "W", "S", "E")
#: each seat and the three after it, in play order
_ROUND = {s: [s] + [next_seat(s, k) for k in (1, 2, 3)] for s in SEATS}
#: after this many redeals in a row the bots declare whatever they can
_EAGER_AFTER = 3


class GenerationError(RuntimeError):
    """The engine refused a move the bots made (a bug in the bots or the engine)."""


@dataclass
class _Deal:
    first_drawer: str
    seat_cards: dict[str, list[int]]      # in draw order
    kitty: tuple[int, ...]                # in deck order
    state: DeclState                      # the declarations after the deal
    events: list[Declaration]


def generate_match(rules: str = "standard", hands: int = 1, seed: int = 0, *,
                   params: BotParams | None = None, first_drawer: str | None = None,
                   players: int | None = None) -> Record:
    """A complete match of ``hands`` played hands (fewer when the match ends).

    ``rules`` names a preset (``replay.ruleset.PRESETS``). ``first_drawer``
    fixes who draws first on hand 1 (default: a seat chosen by the seed).
    Redealt hands are written too and do not count in ``hands``.
    ``players`` sets the table of a finding-friends preset (4–8; the decks
    follow the player count, as shengji.io deals them).
    """
    rs = preset(rules)
    if players is not None and players != rs.players:
        rs = rs.model_copy(update={"players": players})
        rs = type(rs)(**{**rs.model_dump(), "decks": None} if rs.partners == "friends" else rs.model_dump())
    if rs.partners == "friends":
        return _friends_match(rs, rules, hands, seed, params, players)
    rng = random.Random(seed)
    bot = Bot(rs, rng, params)
    first = first_drawer or rng.choice(SEATS)
    levels = {"NS": rs.first_level, "EW": rs.first_level}
    dealer: str | None = None
    out: list[Hand] = []
    played = 0
    redeals = 0
    while played < hands:
        hand, outcome = _generate_hand(rs, rng, bot, number=played + 1, levels=levels, dealer=dealer,
                                       first_drawer=first if dealer is None else dealer,
                                       eager=redeals >= _EAGER_AFTER)
        out.append(hand)
        if outcome is None:            # redeal: same levels, same dealer (none yet on hand 1)
            redeals += 1
            continue
        redeals = 0
        played += 1
        levels, dealer = outcome.levels, outcome.next_dealer
        if outcome.match_over:
            break
    tags = [Tag(name="Rules", value=rules), Tag(name="Event", value="Generated match"),
            Tag(name="Seed", value=str(seed))]
    return Record(tags=tags, hands=out)


# ---------------------------------------------------------------------------
# one hand
# ---------------------------------------------------------------------------

def _generate_hand(rs: Ruleset, rng: random.Random, bot: Bot, *, number: int, levels: dict[str, int],
                   dealer: str | None, first_drawer: str, eager: bool):
    """One hand → ``(Hand, HandOutcome | None)``; None for a redeal."""
    first_hand = dealer is None
    level = levels[team_of(dealer)] if dealer else levels["NS"]
    deal = _deal(rs, rng, bot, level=level, dealer=dealer, first_drawer=first_drawer,
                 first_hand=first_hand, eager=eager)
    events: list = list(deal.events)
    state = deal.state
    declared = bool(events)
    res = conclude(state, kitty=deal.kitty, declare_none=not declared, recorded=declared)
    hand = Hand(
        number=number, levels=Levels(ns=levels["NS"], ew=levels["EW"]),
        dealer=dealer or "?",
        first=first_drawer if first_hand else None,
        deal=[SeatCards(seat=s, cards=tuple(deal.seat_cards[s])) for s in SEATS],
        kitty=deal.kitty,
    )
    if level == JOKER_LEVEL:
        declared = True                 # nothing to declare: the hand is NT
    elif not declared:
        hand.declare_none = NO_SPAN
    if res.redeal:
        hand.redeal = NO_SPAN
        hand.events = events
        return hand, None
    dealer = res.dealer
    assert dealer is not None and res.trump is not None
    hand.dealer = dealer
    if first_hand and dealer == first_drawer:
        hand.first = None
    trump = res.trump
    order = Order.for_ruleset(level, trump, rs)

    # -- the kitty exchange (and campus 反主抄底) ------------------------------------
    holdings = {s: Counter(deal.seat_cards[s]) for s in SEATS}
    holdings[dealer].update(deal.kitty)
    buried = bot.bury(list(holdings[dealer].elements()), order, rs.kitty)
    holdings[dealer].subtract(buried)
    events.append(Bury(seat=dealer, cards=buried))
    if rs.declaration == "campus" and not first_hand and level != JOKER_LEVEL:
        for s in (next_seat(dealer, k) for k in (1, 2, 3)):
            cards = bot.declaration(state, s, deal.seat_cards[s], after_bury=True)
            if cards is None:
                continue
            state, ok, diags = advance(state, DeclEvent(s, cards, None, after_bury=True))
            if not ok:
                raise GenerationError(f"after-bury declaration refused: {diags}")
            events.append(Declaration(seat=s, cards=cards))
            trump = conclude(state, kitty=deal.kitty, declare_none=False, recorded=True).trump
            order = Order.for_ruleset(level, trump, rs)
            holdings[s].update(buried)
            buried = bot.bury(list(holdings[s].elements()), order, rs.kitty)
            holdings[s].subtract(buried)
            events.append(Bury(seat=s, cards=buried))
            break
    holdings = {s: +h for s, h in holdings.items()}
    hand.events = events
    hand.trump = trump

    # -- the tricks --------------------------------------------------------------------
    attackers = other_team(team_of(dealer))
    total = 0
    leader = dealer
    tricks: list[Trick] = []
    kitty_points = points(buried)
    t_no = 0
    last_winner = None
    while any(holdings[s] for s in SEATS):
        t_no += 1
        seats = _ROUND[leader]
        view = TrickView(leader, order, rs, holdings, [], dealer, t_no, kitty_points)
        # cards are written high to low; a throw is checked in the order it is written
        attempt = tuple(order.sorted(bot.lead(view)))
        played_lead, attempted = attempt, None
        if len(decompose(attempt, order)) > 1:
            chk = check_throw(attempt, 0, [holdings[s] for s in seats], seats, order, rs)
            if chk.blockers:
                played_lead, attempted = tuple(chk.forced.cards), attempt
                cost = throw_penalty(rs, len(attempt))
                total += -cost if team_of(leader) == attackers else cost
        plays = [(leader, played_lead)]
        _remove(holdings[leader], played_lead)
        for s in seats[1:]:
            view = TrickView(s, order, rs, holdings, plays, dealer, t_no, kitty_points)
            cards = tuple(bot.follow(view))
            _remove(holdings[s], cards)
            plays.append((s, cards))
        w = trick_winner([p for _, p in plays], order, rs)
        winner = plays[w.index][0]
        if team_of(winner) == attackers:
            total += sum(points(p) for _, p in plays)
        tricks.append(Trick(number=t_no, plays=[
            Play(seat=s, cards=tuple(order.sorted(p)),
                 attempted=attempted if (attempted and s == leader) else None)
            for s, p in plays]))
        leader, last_winner, last_plays = winner, w, plays
    hook = False
    if team_of(leader) == attackers:
        lead_n = len(last_plays[0][1])
        mult = kitty_multiplier(rs.kitty_multiplier, last_winner.units, play_cards=lead_n,
                                lead_cards=lead_n, last_play=decompose(last_plays[-1][1], order))
        total += kitty_points * mult
        hook = any(c < LJ and c % 13 + 2 == level for u in last_winner.units for c in u.cards)
    hand.tricks = tricks
    hand.points = total
    outcome = hand_outcome(rs, levels, dealer, total, last_trick_rank_hook=hook, hands_played=number)
    return hand, outcome


def _remove(holding: Counter, cards) -> None:
    """Take ``cards`` out of ``holding`` (keeping no zero counts)."""
    for c in cards:
        k = holding[c] - 1
        if k > 0:
            holding[c] = k
        elif k == 0:
            del holding[c]
        else:
            raise GenerationError(f"a bot played a card it does not hold: {c}")


def _draw_order(first: str) -> list[str]:
    i = SEATS.index(first)
    return [SEATS[(i + k) % 4] for k in range(4)]


def _deal(rs: Ruleset, rng: random.Random, bot: Bot, *, level: int, dealer: str | None,
          first_drawer: str, first_hand: bool, eager: bool) -> _Deal:
    """Shuffle, draw one card at a time, and let each seat declare as it draws."""
    deck = deck_list(rs.decks)
    rng.shuffle(deck)
    bot.new_hand()
    hs = rs.hand_size
    order = _draw_order(first_drawer)
    seat_cards = {s: [] for s in SEATS}
    for i in range(4 * hs):
        seat_cards[order[i % 4]].append(deck[i])
    kitty = tuple(deck[4 * hs:])
    full = {s: tuple(cs) for s, cs in seat_cards.items()}
    state = start(rs, level, first_hand=first_hand, dealer=dealer, first_drawer=first_drawer, deal=full)
    events: list[Declaration] = []
    if level == JOKER_LEVEL:
        return _Deal(first_drawer, seat_cards, kitty, state, events)

    def is_decl_card(c: int) -> bool:
        return c >= LJ or c % 13 + 2 == level

    version = 0                       # bumps when a declaration is accepted
    seen = {s: 0 for s in SEATS}      # the version each seat last looked at
    useful = {s: 0 for s in SEATS}    # level cards and jokers drawn so far

    def offer(seat: str, k: int, **kw) -> None:
        nonlocal state, version
        cards = bot.declaration(state, seat, full[seat][:k], **kw)
        seen[seat] = version
        if cards is None:
            return
        at = k
        state, ok, diags = advance(state, DeclEvent(seat, cards, at))
        if not ok:
            raise GenerationError(f"declaration refused: {seat} {cards} @{at}: {diags}")
        events.append(Declaration(seat=seat, cards=cards, at=at))
        version += 1

    for i in range(4 * hs):
        seat = order[i % 4]
        k = i // 4 + 1
        new = is_decl_card(full[seat][k - 1])
        useful[seat] += new
        if new or (useful[seat] and seen[seat] != version):
            offer(seat, k)
    for seat in order:                 # a last chance once every card is drawn
        if useful[seat] and (seen[seat] != version or state.standing is None):
            offer(seat, hs, last_chance=True, eager=eager and state.standing is None)
    return _Deal(first_drawer, seat_cards, kitty, state, events)


# ---------------------------------------------------------------------------
# finding friends (找朋友): tables of 4–8, friends called by a card
# ---------------------------------------------------------------------------

def _friends_match(rs: Ruleset, rules: str, hands: int, seed: int, params: BotParams | None,
                   players: int | None) -> Record:
    """A finding-friends match: each hand dealt from the dealer round the table,
    trump chosen by the dealer (written as ``trump``: no declarations are
    recorded), a bury, the friend calls (cards the engine allows:
    :func:`replay.friends.card_forbidden`), the tricks, and the friends' reveals,
    points, levels and next dealer as the engine gives them."""
    from notation.model import FriendCall, PlayerLevels
    from replay.friends import FriendResult, answer_calls, card_forbidden, friends_outcome

    rng = random.Random(seed)
    bot = Bot(rs, rng, params)
    seats = tuple(f"P{k}" for k in range(1, rs.players + 1)) if rs.players != 4 else SEATS
    levels = {s: rs.first_level for s in seats}
    dealer = rng.choice(seats)
    out: list[Hand] = []
    n = len(seats)
    for number in range(1, hands + 1):
        level = levels[dealer]
        deck = deck_list(rs.decks)
        rng.shuffle(deck)
        bot.new_hand()
        hs = rs.hand_size
        i0 = seats.index(dealer)
        ring = [seats[(i0 + k) % n] for k in range(n)]
        dealt = {s: [] for s in seats}
        for i in range(n * hs):
            dealt[ring[i % n]].append(deck[i])
        kitty = tuple(deck[n * hs:])
        # the dealer's trump: the suit it holds most of (NT at the Joker level)
        mine = dealt[dealer] + list(kitty)
        suits = [sum(1 for c in mine if c < LJ and c // 13 == su and c % 13 + 2 != level) for su in range(4)]
        trump = 4 if level == JOKER_LEVEL else max(range(4), key=lambda su: (suits[su], -su))
        order = Order.for_ruleset(level, trump, rs)
        holdings = {s: Counter(dealt[s]) for s in seats}
        holdings[dealer].update(kitty)
        buried = bot.bury(list(holdings[dealer].elements()), order, rs.kitty)
        holdings[dealer].subtract(buried)
        holdings = {s: +h for s, h in holdings.items()}
        # the calls: high plain cards the rules allow, not all held by the dealer
        calls: list[FriendResult] = []
        candidates = [c for c in range(52) if order.eff[c] != 4 and card_forbidden(c, rs, order, level) is None]
        candidates.sort(key=lambda c: (-order.key[c], c))
        for c in candidates:
            if len(calls) == rs.friend_calls:
                break
            if any(x.card == c for x in calls):
                continue
            own = holdings[dealer][c] + sum(1 for b in buried if b == c)
            if own >= rs.decks:
                continue
            if rs.friend_rule == "held":
                calls.append(FriendResult(None, c, None, None, NO_SPAN))
            else:
                calls.append(FriendResult(rng.randint(own + 1, rs.decks), c, None, None, NO_SPAN))
        skips = [(c.ordinal or 1) - 1 for c in calls]
        team = [dealer]
        if rs.friend_rule == "held":  # seed 001: the holder nearest the dealer
            for call in calls:
                holder = next((s for s in ring[1:] if holdings[s][call.card]), None)
                call.seat = holder
        leader = dealer
        tricks: list[Trick] = []
        won: list[tuple[str, int]] = []          # (winner, points) of each trick
        penalties: list[tuple[str, int]] = []    # (thrower, cost)
        t_no = 0
        last_w = last_plays = None
        kitty_points = points(buried)
        while any(holdings[s] for s in seats):
            t_no += 1
            j = seats.index(leader)
            order_seats = [seats[(j + k) % n] for k in range(n)]
            known = frozenset(team)
            view = TrickView(leader, order, rs, holdings, [], dealer, t_no, kitty_points, seats, known)
            attempt = tuple(order.sorted(bot.lead(view)))
            played_lead, attempted = attempt, None
            if len(decompose(attempt, order)) > 1:
                chk = check_throw(attempt, 0, [holdings[s] for s in order_seats], order_seats, order, rs)
                if chk.blockers:
                    played_lead, attempted = tuple(chk.forced.cards), attempt
                    penalties.append((leader, throw_penalty(rs, len(attempt))))
            plays = [(leader, played_lead)]
            _remove(holdings[leader], played_lead)
            for s in order_seats[1:]:
                view = TrickView(s, order, rs, holdings, plays, dealer, t_no, kitty_points, seats, known)
                cards = tuple(bot.follow(view))
                _remove(holdings[s], cards)
                plays.append((s, cards))
            w = trick_winner([p for _, p in plays], order, rs)
            winner = plays[w.index][0]
            won.append((winner, sum(points(p) for _, p in plays)))
            if rs.friend_rule == "held":
                for call in calls:
                    if call.seat is not None and call.trick is None and any(
                            s == call.seat and call.card in p for s, p in plays):
                        call.trick = t_no
                        if call.seat not in team:
                            team.append(call.seat)
            else:
                answer_calls(calls, skips, team, t_no, plays)
            tricks.append(Trick(number=t_no, plays=[
                Play(seat=s, cards=tuple(order.sorted(p)),
                     attempted=attempted if (attempted and s == leader) else None) for s, p in plays]))
            leader, last_w, last_plays = winner, w, plays
        if rs.friend_rule == "held":
            for call in calls:
                if call.seat is None:
                    call.seat = dealer  # the dealer holds every copy: alone
        final = tuple(team)
        total = sum(p for s, p in won if s not in final)
        total += sum(cost if s in final else -cost for s, cost in penalties)
        if leader not in final:
            lead_n = len(last_plays[0][1])
            mult = kitty_multiplier(rs.kitty_multiplier, last_w.units, play_cards=lead_n, lead_cards=lead_n,
                                    last_play=decompose(last_plays[-1][1], order))
            total += kitty_points * mult
        friend_lines = [FriendCall(ordinal=c.ordinal, card=c.card,
                                   joined=c.seat if c.seat is not None else "none",
                                   at=c.trick if c.seat is not None else None) for c in calls]
        hand = Hand(number=number, levels=PlayerLevels(levels=dict(levels)), dealer=dealer,
                    deal=[SeatCards(seat=s, cards=tuple(dealt[s])) for s in seats], kitty=kitty,
                    events=[Bury(seat=dealer, cards=buried)], trump=trump, tricks=tricks, points=total,
                    friends=friend_lines)
        out.append(hand)
        outcome = friends_outcome(rs, levels, dealer, final, seats, total)
        levels, dealer = outcome.levels, outcome.next_dealer
        if outcome.match_over:
            break
    tags = [Tag(name="Rules", value=rules)]
    if players is not None and players != preset(rules).players:
        tags.append(Tag(name="Rule.players", value=str(players)))
    tags += [Tag(name="Event", value="Generated match"), Tag(name="Seed", value=str(seed))]
    return Record(tags=tags, hands=out)


__all__ = ["generate_match", "GenerationError"]
