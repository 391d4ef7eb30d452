"""Generate complete, legal matches under any preset: the record generator.

:func:`generate_match` shuffles the decks with ``random.Random(seed)``, deals
one card at a time counter-clockwise (N → W → S → E) from the first drawer,
lets the bots (:mod:`analyzer.play.bot`) declare trump while the cards are drawn
(through :mod:`replay.declare`'s incremental API, so every declaration is one
the engine accepts), gives the kitty to the dealer, buries, plays the tricks
and scores the hand; the match moves from hand to hand by the engine's one
match flow (:class:`replay.match.MatchFlow`: the score, the levels and the
next dealer, as the record replay moves them), until ``hands`` hands are
played or the match ends.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from analyzer.play.bot import Bot
from analyzer.play.views import BotParams, TrickView
from notation.model import Bury, Declaration, Hand, Levels, Play, Record, SeatCards, Tag, Trick
from notation.model import Seat as SeatName
from primitives.cards import JOKER_LEVEL, LJ, points
from primitives.diagnostics import NO_SPAN
from replay.deck import deck_cards
from replay.declare import advance, conclude
from replay.declare_state import DeclEvent, DeclState, start
from replay.friend_calls import card_forbidden
from replay.match import MatchFlow
from replay.order import Order
from replay.ruleset import Ruleset, preset
from replay.scoring import HandOutcome, other_team, team_of
from replay.seats import SEATS, Seat, table_names
from replay.state import HandState, IllegalPlay
from replay.teams import FriendResult, Teams, assign_holders


def _name(seat: str) -> SeatName:
    """An engine seat name (``N W S E``, ``P1``…``P8``: :mod:`replay.seats`) as the notation's seat type
    (replay keeps names as plain ``str``; the records' ``Play``/``SeatCards`` take the Literal)."""
    return cast(SeatName, seat)


#: what builds the bot of a match: ``(ruleset, rng, params) -> Bot`` (the class :class:`Bot` itself by default)
MakeBot = Callable[[Ruleset, random.Random, BotParams | None], Bot]

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
                   players: int | None = None, decks: int | None = None,
                   start_levels: Sequence[int] | None = None, make_bot: MakeBot | None = None) -> Record:
    """A complete match of ``hands`` played hands (fewer when the match ends).

    ``rules`` names a preset (``replay.ruleset.PRESETS``). ``first_drawer``
    fixes who draws first on hand 1 (default: a seat chosen by the seed).
    Redealt hands are written too and do not count in ``hands``.
    ``players`` sets the table of a finding-friends preset (4–8; the decks
    follow the player count, as shengji.io deals them, unless ``decks`` is
    given: written as ``[Rule.decks]``). ``start_levels`` (finding friends):
    each player's first level is drawn from it (a match from the middle, e.g.
    near the top rank); by default every player starts at the first level.
    ``make_bot`` builds the bot that plays every seat (default: :class:`Bot`;
    :meth:`analyzer.play.strong.StrongBot.factory`: the bot with an exact endgame).
    """
    make_bot = make_bot or Bot
    rs = preset(rules)
    if players is not None and players != rs.players:
        rs = rs.model_copy(update={"players": players})
        rs = type(rs)(**{**rs.model_dump(), "decks": None} if rs.partners == "friends" else rs.model_dump())
    if decks is not None and rs.partners == "friends":
        rs = type(rs)(**{**rs.model_dump(), "decks": decks})
    if rs.partners == "friends":
        return _friends_match(rs, rules, hands, seed, params, players, start_levels, make_bot)
    rng = random.Random(seed)
    bot = make_bot(rs, rng, params)
    first = first_drawer or rng.choice(SEATS)
    flow = MatchFlow(rs, {"NS": rs.first_level, "EW": rs.first_level})
    out: list[Hand] = []
    while flow.played < hands and not flow.over:
        number, levels, dealer, _ = flow.begin()
        assert levels is not None      # (the generator always knows them)
        hand, outcome = _generate_hand(rs, rng, bot, flow, number=number, levels=levels, dealer=dealer,
                                       first_drawer=first if dealer is None else dealer,
                                       eager=flow.redeals >= _EAGER_AFTER)
        out.append(hand)
        if outcome is None:            # redeal: same levels, same dealer (none yet on hand 1)
            flow.redeal(levels, dealer)
            continue
        flow.end(outcome)
    tags = [Tag(name="Rules", value=rules), Tag(name="Event", value="Generated match"),
            Tag(name="Seed", value=str(seed))]
    return Record(tags=tags, hands=out)


# ---------------------------------------------------------------------------
# one hand
# ---------------------------------------------------------------------------

def _generate_hand(rs: Ruleset, rng: random.Random, bot: Bot, flow: MatchFlow, *, number: int,
                   levels: dict[str, int], dealer: str | None, first_drawer: str,
                   eager: bool) -> tuple[Hand, HandOutcome | None]:
    """One hand → ``(Hand, HandOutcome | None)``; None for a redeal."""
    first_hand = dealer is None
    level = levels[team_of(dealer)] if dealer else levels["NS"]
    deal = _deal(rs, rng, bot, level=level, dealer=dealer, first_drawer=first_drawer,
                 first_hand=first_hand, eager=eager, team_levels=levels if rs.declarer_deals else None,
                 attacker_level=levels[other_team(team_of(dealer))] if rs.attacker_level and dealer else None)
    flow.step("declare")
    events: list[Declaration | Bury] = list(deal.events)
    state = deal.state
    declared = bool(events)
    res = conclude(state, kitty=deal.kitty, declare_none=not declared, recorded=declared)
    hand = Hand(
        number=number, levels=Levels(ns=levels["NS"], ew=levels["EW"]),
        dealer=dealer or "?",
        first=first_drawer if first_hand else None,
        deal=[SeatCards(seat=_name(s), cards=tuple(deal.seat_cards[s])) for s in SEATS],
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
    if res.level is not None:
        level = res.level               # declarer_deals: the declarer deals, at its own team's level;
        #                                 attacker_level: an attacker's own-level declaration took the deal
    hand.dealer = Seat[dealer].name  # type: ignore[assignment]  # a compass seat's name: one of the model's Literal seats
    if first_hand and dealer == first_drawer:
        hand.first = None

    # -- the kitty exchange, the bury (and campus 反主抄底), the play's start ------------
    flow.step("kitty")
    flow.step("bury")
    begun = start_play(rs, bot, state, deal.seat_cards, deal.kitty, dealer=dealer, level=level, trump=res.trump,
                       first_hand=first_hand)
    events += begun.events
    hand.events = events
    hand.trump = begun.trump

    # -- the tricks (the engine's HandState applies every rule), the score -------------
    flow.step("tricks")
    play = begun.state
    hand.tricks = []
    bot.begin_play(hand)   # the hand as written so far; its tricks filled in as each finishes
    tricks = _play(play, bot, out=hand.tricks)
    total = play.final_points
    hand.tricks = tricks
    hand.points = total
    return hand, flow.score(levels, dealer, total, hooked=play.hooked)


@dataclass
class PlayStart:
    """How the play of a fixed-partner hand begins (:func:`start_play`)."""
    events: list[Declaration | Bury]   # the bury; after a campus 反主抄底 also its declaration and re-bury
    trump: int                         # the trump the play is under (a 反主抄底 changes it)
    order: Order
    buried: tuple[int, ...]            # the kitty as last buried (its points are at stake on the last trick)
    state: HandState                   # trick 1 about to be led by the dealer


def start_play(rs: Ruleset, bot: Bot, decl: DeclState, seat_cards: Mapping[str, Sequence[int]],
               kitty: Sequence[int], *, dealer: str, level: int, trump: int, first_hand: bool) -> PlayStart:
    """From the concluded declarations to trick 1 at a fixed-partner table: the
    dealer takes the kitty and the bot buries; under campus rules (not on the
    match's first hand nor at the joker level) the other seats, counter-clockwise
    from the dealer, are each offered a declaration over the kitty (反主抄底,
    through :mod:`replay.declare`, ``after_bury``): the first accepted one sets
    the trump and its declarer takes the buried cards and buries again. The
    play begins with the dealer leading (:class:`replay.state.HandState`, the
    bury's points at stake, ``Teams.fixed(dealer)``).

    ``decl``: the declarations' state after the draw; ``seat_cards``: each
    seat's cards in draw order; ``trump``: the trump the declarations concluded.
    The generator and the declarations' review
    (:func:`analyzer.review.mistakes.declarations.play_option`) both begin
    their hands here. Raises :class:`GenerationError` when the engine refuses
    an after-bury declaration the bot made."""
    order = Order.for_ruleset(level, trump, rs)
    holdings = {s: Counter(seat_cards[s]) for s in SEATS}
    holdings[dealer].update(kitty)
    buried = bot.bury(list(holdings[dealer].elements()), order, rs.kitty)
    holdings[dealer].subtract(buried)
    # (the review begins thousands of hands here: the events are built from the engine's values, unvalidated,
    # so that no pydantic schema is built for them: ≈ 50 ms of a command's start)
    events: list[Declaration | Bury] = [Bury.model_construct(seat=_name(dealer), cards=tuple(buried))]
    if rs.declaration == "campus" and not first_hand and level != JOKER_LEVEL:
        for s in (Seat[dealer].next(4, k).name for k in (1, 2, 3)):
            cards = bot.declaration(decl, s, seat_cards[s], after_bury=True)
            if cards is None:
                continue
            decl, ok, diags = advance(decl, DeclEvent(s, cards, None, after_bury=True))
            if not ok:
                raise GenerationError(f"after-bury declaration refused: {diags}")
            events.append(Declaration.model_construct(seat=_name(s), cards=tuple(cards)))
            standing = conclude(decl, kitty=tuple(kitty), declare_none=False, recorded=True).trump
            assert standing is not None  # an accepted declaration stands
            trump = standing
            order = Order.for_ruleset(level, trump, rs)
            holdings[s].update(buried)
            buried = bot.bury(list(holdings[s].elements()), order, rs.kitty)
            holdings[s].subtract(buried)
            events.append(Bury.model_construct(seat=_name(s), cards=tuple(buried)))
            break
    state = HandState(rs, order, {s: +h for s, h in holdings.items()}, leader=dealer, dealer=dealer,
                      kitty_points=points(buried), teams=Teams.fixed(dealer))
    return PlayStart(events, trump, order, buried, state)


def _play(state: HandState, bot: Bot, friends: bool = False, out: list[Trick] | None = None) -> list[Trick]:
    """The bots play every trick of ``state`` to the end; the tricks as written
    (cards high to low; a failed throw as ``attempted -> forced``, as the engine
    decides it). ``friends``: the bots see the dealer's team as revealed so far.
    ``out``: the list the tricks are appended to as each finishes (the record hand's,
    which :meth:`Bot.begin_play` was given); a new one by default."""
    order = state.order
    tricks: list[Trick] = [] if out is None else out
    while not state.is_over:
        t_no = state.trick_number
        leader = state.turn
        # cards are written high to low; a throw is checked in the order it is written
        attempt = tuple(order.sorted(bot.lead(TrickView.of(state, friends))))
        try:
            state.push(attempt)
            attempted = state.attempted
            while state.trick_number == t_no:
                state.push(tuple(bot.follow(TrickView.of(state, friends))))
        except IllegalPlay as e:
            raise GenerationError(f"the engine refused a bot's play: {e}") from None
        done = state.tricks[-1]
        tricks.append(Trick(number=t_no, plays=[
            Play(seat=_name(s), cards=tuple(order.sorted(p)),
                 attempted=attempted if (attempted and s == leader) else None)
            for s, p in done.plays]))
    return tricks


def draw_order(first: str) -> list[str]:
    """The seats in draw order, one card at a time counter-clockwise from ``first``."""
    return [Seat[first].next(4, k).name for k in range(4)]


class DrawLoop:
    """The draw of one hand at a fixed-partner table, one card at a time
    counter-clockwise from the first drawer, each seat offered a declaration
    by the bot as it draws (through :mod:`replay.declare`'s incremental API,
    so every declaration is one the engine accepts). The generator runs it
    whole; the review (:mod:`analyzer.review.mistakes.declarations`) replays
    a record's declarations up to a decision, puts an option in its place and
    lets the bots draw on.

    ``team_levels`` (``declarer_deals``: each seat declares its own team's
    level) and ``attacker_level`` (the attackers' own level, ``attacker_level``
    rules on a later hand) are :func:`replay.declare.resolve_declarations`'s."""

    def __init__(self, rs: Ruleset, bot: Bot, full: dict[str, tuple[int, ...]], *, level: int,
                 dealer: str | None, first_drawer: str, first_hand: bool,
                 team_levels: dict[str, int] | None = None, attacker_level: int | None = None) -> None:
        self.bot = bot
        self.full = full
        self.level = level
        self.team_levels = team_levels
        self.hs = rs.hand_size
        self.order = draw_order(first_drawer)
        self.state = start(rs, level, first_hand=first_hand, dealer=dealer, first_drawer=first_drawer, deal=full,
                           team_levels=team_levels, attacker_level=attacker_level)
        self.events: list[Declaration] = []
        self.version = 0                       # bumps when a declaration is accepted
        self.seen = {s: 0 for s in SEATS}      # the version each seat last looked at
        self.useful = {s: 0 for s in SEATS}    # level cards and jokers drawn so far

    def is_decl_card(self, c: int, seat: str) -> bool:
        if self.team_levels is not None:    # declarer_deals: each seat declares its own team's level
            return c >= LJ or c % 13 + 2 == self.team_levels[team_of(seat)]
        return c >= LJ or c % 13 + 2 == self.level

    def position(self, i: int) -> tuple[str, int]:
        """The seat that draws the ``i``-th card (0-based) and its count of cards then."""
        return self.order[i % 4], i // 4 + 1

    def declare(self, seat: str, k: int, cards: tuple[int, ...] | None) -> None:
        """``seat``, holding its first ``k`` cards, writes ``cards`` (None: it passes)."""
        self.seen[seat] = self.version
        if cards is None:
            return
        self.state, ok, diags = advance(self.state, DeclEvent(seat, cards, k))
        if not ok:
            raise GenerationError(f"declaration refused: {seat} {cards} @{k}: {diags}")
        self.events.append(Declaration.model_construct(seat=_name(seat), cards=tuple(cards), at=k))   # (see start_play)
        self.version += 1

    def offer(self, seat: str, k: int, **kw: Any) -> None:
        """The bot decides for ``seat`` holding its first ``k`` cards."""
        self.declare(seat, k, self.bot.declaration(self.state, seat, self.full[seat][:k], **kw))

    def draw(self, i: int) -> tuple[str, int, bool]:
        """The ``i``-th card is drawn: (seat, its count, whether the card can be declared)."""
        seat, k = self.position(i)
        new = self.is_decl_card(self.full[seat][k - 1], seat)
        self.useful[seat] += new
        return seat, k, new

    def run(self, begin: int = 0) -> None:
        """The bots draw from card ``begin`` (0-based) to the end of the deal."""
        for i in range(begin, 4 * self.hs):
            seat, k, new = self.draw(i)
            if new or (self.useful[seat] and self.seen[seat] != self.version):
                self.offer(seat, k)

    def last_chance(self, eager: bool = False) -> None:
        """A last chance for each seat once every card is drawn."""
        for seat in self.order:
            if self.useful[seat] and (self.seen[seat] != self.version or self.state.standing is None):
                self.offer(seat, self.hs, last_chance=True, eager=eager and self.state.standing is None)


def _deal(rs: Ruleset, rng: random.Random, bot: Bot, *, level: int, dealer: str | None,
          first_drawer: str, first_hand: bool, eager: bool,
          team_levels: dict[str, int] | None = None, attacker_level: int | None = None) -> _Deal:
    """Shuffle, draw one card at a time, and let each seat declare as it draws."""
    deck = deck_cards(rs)
    rng.shuffle(deck)
    bot.new_hand()
    hs = rs.hand_size
    order = draw_order(first_drawer)
    seat_cards: dict[str, list[int]] = {s: [] for s in SEATS}
    for i in range(4 * hs):
        seat_cards[order[i % 4]].append(deck[i])
    kitty = tuple(deck[4 * hs:])
    full = {s: tuple(cs) for s, cs in seat_cards.items()}
    loop = DrawLoop(rs, bot, full, level=level, dealer=dealer, first_drawer=first_drawer, first_hand=first_hand,
                    team_levels=team_levels, attacker_level=attacker_level)
    if level != JOKER_LEVEL:
        loop.run()
        loop.last_chance(eager)
    return _Deal(first_drawer, seat_cards, kitty, loop.state, loop.events)


# ---------------------------------------------------------------------------
# finding friends (找朋友): tables of 4–8, friends called by a card
# ---------------------------------------------------------------------------

def call_friends(rs: Ruleset, rng: random.Random, order: Order, level: int, dealer_holding: Mapping[int, int],
                 buried: Sequence[int]) -> list[FriendResult]:
    """The dealer's friend calls, the bots' policy: the highest plain cards the
    rules allow (:func:`replay.friend_calls.card_forbidden`) of which the
    dealer (``dealer_holding`` after the bury, and ``buried``) does not hold
    every copy; under ``played`` the ordinal is drawn from ``rng`` past the
    dealer's own copies. Unanswered (the tricks answer them). The generator
    and the declarations' review
    (:mod:`analyzer.review.mistakes.friends_declarations`) both call here."""
    calls: list[FriendResult] = []
    candidates = [c for c in range(52) if order.eff[c] != 4 and card_forbidden(c, rs, order, level) is None]
    candidates.sort(key=lambda c: (-order.key[c], c))
    for c in candidates:
        if len(calls) == rs.friend_calls:
            break
        if any(x.card == c for x in calls):
            continue
        own = dealer_holding.get(c, 0) + sum(1 for b in buried if b == c)
        if own >= rs.decks:
            continue
        if rs.friend_rule == "held":
            calls.append(FriendResult(None, c, None, None, NO_SPAN))
        else:
            calls.append(FriendResult(rng.randint(own + 1, rs.decks), c, None, None, NO_SPAN))
    return calls


def _friends_match(rs: Ruleset, rules: str, hands: int, seed: int, params: BotParams | None,
                   players: int | None, start_levels: Sequence[int] | None = None,
                   make_bot: MakeBot = Bot) -> Record:
    """A finding-friends match: each hand dealt from the dealer round the table,
    trump chosen by the dealer (written as ``trump``: no declarations are
    recorded), a bury, the friend calls (cards the engine allows:
    :func:`replay.friend_calls.card_forbidden`), the tricks, and the friends' reveals,
    points, levels and next dealer as the engine gives them."""
    from notation.model import FriendCall, PlayerLevels

    rng = random.Random(seed)
    bot = make_bot(rs, rng, params)
    seats = table_names(rs.players)
    first_levels = {s: rs.first_level for s in seats}
    first_dealer = rng.choice(seats)
    if start_levels:
        first_levels = {s: rng.choice(list(start_levels)) for s in seats}
    flow = MatchFlow(rs, first_levels, first_dealer)
    out: list[Hand] = []
    n = len(seats)
    while flow.played < hands and not flow.over:
        number, levels, dealer, _ = flow.begin()
        assert levels is not None and dealer is not None   # (the generator always knows them)
        level = levels[dealer]
        deck = deck_cards(rs)
        rng.shuffle(deck)
        bot.new_hand()
        hs = rs.hand_size
        i0 = seats.index(dealer)
        ring = [seats[(i0 + k) % n] for k in range(n)]
        dealt: dict[str, list[int]] = {s: [] for s in seats}
        for i in range(n * hs):
            dealt[ring[i % n]].append(deck[i])
        kitty = tuple(deck[n * hs:])
        # the dealer's trump: the suit it holds most of (NT at the Joker level)
        mine = dealt[dealer] + list(kitty)
        suits = [sum(1 for c in mine if c < LJ and c // 13 == su and c % 13 + 2 != level) for su in range(4)]
        trump = 4 if level == JOKER_LEVEL else max(range(4), key=lambda su: (suits[su], -su))
        order = Order.for_ruleset(level, trump, rs)
        flow.step("kitty")
        holdings = {s: Counter(dealt[s]) for s in seats}
        holdings[dealer].update(kitty)
        flow.step("bury")
        buried = bot.bury(list(holdings[dealer].elements()), order, rs.kitty)
        holdings[dealer].subtract(buried)
        holdings = {s: +h for s, h in holdings.items()}
        calls = call_friends(rs, rng, order, level, holdings[dealer], buried)
        held = rs.friend_rule == "held"
        if held:  # seed 001: the holder nearest the dealer
            assign_holders(calls, ring, holdings)
        flow.step("tricks")
        state = HandState(rs, order, holdings, leader=dealer, dealer=dealer, seats=seats,
                          kitty_points=points(buried), teams=Teams.forming(dealer, calls, held=held))
        tricks = _play(state, bot, friends=True)
        if rs.friend_rule == "held":
            for call in calls:
                if call.seat is None:
                    call.seat = dealer  # the dealer holds every copy: alone
        final = state.team
        total = state.final_points
        friend_lines = [FriendCall(ordinal=c.ordinal, card=c.card,
                                   joined=c.seat if c.seat is not None else "none",
                                   at=c.trick if c.seat is not None else None) for c in calls]
        hand = Hand(number=number, levels=PlayerLevels(levels=dict(levels)), dealer=dealer,
                    deal=[SeatCards(seat=_name(s), cards=tuple(dealt[s])) for s in seats], kitty=kitty,
                    events=[Bury(seat=_name(dealer), cards=buried)], trump=trump, tricks=tricks, points=total,
                    friends=friend_lines)
        out.append(hand)
        flow.end(flow.score(levels, dealer, total, team=final, seats=seats))
    tags = [Tag(name="Rules", value=rules)]
    if players is not None and players != preset(rules).players:
        tags.append(Tag(name="Rule.players", value=str(players)))
    if rs.decks != Ruleset(**{**rs.model_dump(), "decks": None}).decks:
        tags.append(Tag(name="Rule.decks", value=str(rs.decks)))
    tags += [Tag(name="Event", value="Generated match"), Tag(name="Seed", value=str(seed))]
    return Record(tags=tags, hands=out)


__all__ = ["generate_match", "GenerationError", "MakeBot", "start_play", "PlayStart", "call_friends"]
