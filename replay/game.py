"""Replaying a whole record: hands, deal, declarations, kitty, tricks, score.

``replay(record)`` walks every hand and every trick, checks every rule it can
(with the cards as recorded, never stopping at the first problem) and returns
a :class:`MatchResult` holding the state before and after each trick, the
score, the level changes and all diagnostics.

Hands may be partly known (NOTATION.md "Omissions"): a seat without a seat
line holds the cards it plays. Checks are made only where they are certain:
a card known to be held because it is played later was held all along.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat, starmap
from typing import TYPE_CHECKING, cast

from primitives.cards import NUM_CARDS, points
from primitives.diagnostics import Diagnostic, Span
from replay.deck import remainder
from replay.declare import DeclEvent, resolve_declarations
from replay.friends import needs_friends, replay_friends
from replay.order import NT, Order
from replay.record import Fault, RecordedTrick, RecordState
from replay.ruleset import Ruleset, resolve
from replay.scoring import SEAT_ORDER, TEAMS, HandOutcome, hand_outcome, other_team, team_of
from replay.state import by_suit, hooks_back, last_trick_multiplier, remove_from
from replay.trick import cards_text, unit_text
from replay.units import Blocker, Unit

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Hand, Levels, Play, Record
    from replay.friends import FriendResult

SEAT_INDEX = {s: i for i, s in enumerate(SEAT_ORDER)}

#: ``diag(code, span, message, trick=None)``: report a diagnostic of the hand
DiagFn = Callable[..., None]


@dataclass(slots=True)
class PlayResult:
    seat: str
    cards: tuple[int, ...]                 # as played (a failed throw: the forced unit)
    attempted: tuple[int, ...] | None      # a failed throw's attempt
    span: Span


@dataclass(slots=True)
class TrickResult:
    number: int                            # 1-based
    leader: str
    _source: Sequence[Play] = field(repr=False)      # the record's plays (notation.model.Play)
    _cards: list[tuple[int, ...]] = field(repr=False)  # their cards, as tuples
    winner: str
    points: int                            # point cards in the trick
    to_attackers: bool                     # the attackers won it
    penalty: int                           # signed change to the attackers' total from a failed throw
    attacker_points: int                   # running total after this trick (tricks + penalties)
    is_throw: bool
    failed_throw: bool
    blockers: tuple[Blocker, ...]
    winning_units: tuple[Unit, ...]
    ruffed: bool
    span: Span
    _history: _History | None = field(default=None, repr=False, compare=False)
    _plays: tuple[PlayResult, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def plays(self) -> tuple[PlayResult, ...]:
        """The plays in turn order (built when first asked: linting never needs them)."""
        plays = self._plays
        if plays is None:
            src = self._source
            plays = self._plays = tuple([PlayResult(p.seat, cards, tuple(a) if (a := p.attempted) else None, p.span)
                                         for p, cards in zip(src, self._cards)])
        return plays

    def play_rows(self) -> Iterator[tuple[Play, tuple[int, ...]]]:
        """Each play's record line (seat, attempt, span) with its cards as played,
        in turn order: what :attr:`plays` pairs, without building its objects."""
        return zip(self._source, self._cards)

    @property
    def hands_before(self) -> tuple[tuple[int, ...], ...]:
        """Known holdings before this trick, by the hand's seats (N W S E; or P1…Pn), cards sorted."""
        return self._history.hands_at(self._index) if self._history else ((),) * 4

    @property
    def hands_after(self) -> tuple[tuple[int, ...], ...]:
        return self._history.hands_at(self._index + 1) if self._history else ((),) * 4

    @property
    def _index(self) -> int:
        """This trick's place in its hand's history (tricks without plays are not kept)."""
        return self._history.index_of(self.number) if self._history else 0

    @property
    def lead(self) -> PlayResult:
        return self.plays[0]

    def play_of(self, seat: str) -> PlayResult | None:
        for p in self.plays:
            if p.seat == seat:
                return p
        return None


class _History:
    """The cards of a hand's tricks, for the holdings before and after each one.

    Shared by a :class:`HandResult` and its tricks; it refers to neither, so the
    results form no reference cycle and are freed as soon as they are dropped
    (no work for the cyclic garbage collector when millions of hands are linted).
    """

    __slots__ = ("start_hands", "numbers", "plays", "seats")

    def __init__(self, start_hands: dict[str, tuple[int, ...]], seats: tuple[str, ...] = SEAT_ORDER) -> None:
        self.start_hands = start_hands
        self.seats = seats
        self.numbers: list[int] = []                              # trick numbers, in order
        self.plays: list[tuple[Sequence[Play], list[tuple[int, ...]]]] = []  # (record plays, their cards)

    def index_of(self, number: int) -> int:
        return self.numbers.index(number)

    def hands_at(self, k: int) -> tuple[tuple[int, ...], ...]:
        if k <= 0:  # the start hands (kept sorted, positive counts): nothing to take out
            start = self.start_hands
            return tuple([tuple(sorted(start.get(s, ()))) for s in self.seats])
        hands = {s: Counter(self.start_hands.get(s, ())) for s in self.seats}
        for plays, cards in self.plays[:k]:
            for p, c in zip(plays, cards):
                h = hands.get(p.seat)
                if h is not None:
                    h.subtract(c)
        return tuple(tuple(sorted(c for c, n in hands[s].items() for _ in range(max(n, 0))))
                     for s in self.seats)


@dataclass
class HandResult:
    number: int
    span: Span
    ruleset: Ruleset
    levels: dict[str, int]                 # team → level before the hand
    level: int                             # the hand's level rank
    dealer: str | None
    declarer: str | None
    trump: int | None                      # 0..3 or NT (4)
    order: Order | None
    redeal: bool = False
    dealt: dict[str, tuple[int, ...]] = field(default_factory=dict)   # seat lines as written
    kitty: tuple[int, ...] | None = None   # the kitty before burying
    bury: tuple[int, ...] | None = None    # the final buried cards
    start_hands: dict[str, tuple[int, ...]] = field(default_factory=dict)  # at trick 1 (known part)
    known: dict[str, bool] = field(default_factory=dict)   # start hand fully known
    tricks: list[TrickResult] = field(default_factory=list)
    complete: bool = False
    card_points: int = 0
    penalties: int = 0
    kitty_points: int = 0                  # kitty points × multiplier added to the attackers
    multiplier: int = 0
    #: the kitty multiplier the last trick carries, whoever wins it (0: hand not complete)
    last_trick_multiplier: int = 0
    attacker_points: int = 0
    outcome: HandOutcome | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: tricks written without plays (``5.`` alone, or a trick line the reader could
    #: not read): after one, who leads and what each seat holds are not certain
    unknown_tricks: int = 0
    #: the table's seats in play order (finding friends: P1…Pn, or N W S E)
    seats: tuple[str, ...] = SEAT_ORDER
    #: finding friends: the dealer's team at the end of the hand (dealer first), else None
    team: tuple[str, ...] | None = None
    #: finding friends: each call and who answered it when (:class:`replay.friends.FriendResult`)
    friends: list[FriendResult] = field(default_factory=list)
    #: finding friends: the dealers won with a team smaller than called (+1 level, shengji.io)
    bonus: bool = False
    #: each ``declare`` line's act as :mod:`replay.declare` read it (:data:`replay.declare.ACTS`:
    #: ``declare``, ``override``, ``reinforce``, ``partner``, ``refused``), in record order
    declaration_acts: tuple[str, ...] = ()

    @property
    def attackers(self) -> str | None:
        """The attacking side: a team (``NS``/``EW``), or finding friends the seats
        outside the dealer's final team (``P2 P4 P5``)."""
        if self.team is not None:
            return " ".join(s for s in self.seats if s not in self.team)
        return other_team(team_of(self.dealer)) if self.dealer else None

    def team_at(self, trick: int) -> tuple[str, ...]:
        """Finding friends: the dealer's team as known after trick ``trick`` (0: before play)."""
        if self.dealer is None:
            return ()
        team = [self.dealer]
        for f in self.friends:
            if f.seat is not None and f.trick is not None and f.trick <= trick and f.seat not in team:
                team.append(f.seat)
        return tuple(team)

    def points_breakdown(self) -> str:
        """The attackers' total in words: tricks, throw penalties, kitty × multiplier."""
        parts = [f"{self.card_points} in tricks"]
        if self.penalties:
            parts.append(f"{self.penalties:+d} in throw penalties")
        if self.kitty_points:
            parts.append(f"{self.kitty_points} from the kitty ×{self.multiplier}")
        return ", ".join(parts)

    def hands_at(self, k: int) -> tuple[tuple[int, ...], ...]:
        """Known holdings (sorted cards by SEAT_ORDER) after the first ``k`` tricks."""
        history = _History(self.start_hands, self.seats)
        history.plays = [(t._source, t._cards) for t in self.tricks]
        return history.hands_at(k)


@dataclass
class MatchResult:
    ruleset: Ruleset
    hands: list[HandResult]
    diagnostics: list[Diagnostic]
    winner: str | None = None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


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
    return _replay_fixed(record, ruleset, diags)


def _replay_fixed(record: Record, ruleset: Ruleset, diags: list[Diagnostic]) -> MatchResult:
    """Replay a record at a fixed-partner table (every seat N, W, S or E)."""
    hands: list[HandResult] = []
    levels: dict[str, int] | None = None
    dealer: str | None = None
    over, winner = False, None
    played = 0
    for i, hand in enumerate(record.hands, 1):
        if over:
            diags.append(Diagnostic.at("SJ504", hand.span,
                                       f"hand {i} is recorded after the match was decided ({winner} won)",
                                       hand=i))
        # the match's first hand: nothing played before it, and not numbered as a later hand
        # (a record may hold one hand of a match, e.g. `hand 7` with its levels and dealer)
        # a dealer written as a seat is known: declaring does not choose it (NOTATION: `dealer ?`
        # is "declaring decides")
        first = played == 0 and hand.number in (None, 1) and hand.dealer in (None, "?")
        res = _replay_hand(hand, i, ruleset, levels, dealer, first=first)
        hands.append(res)
        diags.extend(res.diagnostics)
        if res.redeal:
            levels, dealer = res.levels, (res.dealer if played > 0 else None)
            continue
        played += 1
        if res.complete and res.dealer and res.outcome is None:
            res.outcome = hand_outcome(ruleset, res.levels, res.dealer, res.attacker_points,
                                       last_trick_rank_hook=_hooked(res), hands_played=played)
        if res.outcome is not None:
            levels, dealer = res.outcome.levels, res.outcome.next_dealer
            if res.outcome.match_over and not over:
                over, winner = True, res.outcome.winner
        else:
            levels, dealer = None, None  # unknown: the next hand's written values are taken as given
    diags.sort(key=Diagnostic.sort_key)
    return MatchResult(ruleset, hands, diags, winner)


def _hooked(res: HandResult) -> bool:
    """The attackers won the last trick with a card of the level rank (hook back)."""
    if not res.tricks or res.order is None:
        return False
    last = res.tricks[-1]
    if not last.to_attackers:
        return False
    return hooks_back(last.winning_units, res.level)


def _levels_text(levels: dict[str, int]) -> str:
    from primitives.cards import rank_name
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
    deal_ok = _check_copies(hand, rs, diag, None)
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
                diag("SJ303", hand.trump_span, f"trump written as {_trump_text(trump)} but the "
                                               f"declarations make it {_trump_text(res.trump)}")
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
        missing = _remove_from(h, b.cards)
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
        suited[s] = _by_suit(h, eff) if h is not None else _suited_deal(dealt.get(s, ()), eff)
    all_held, done, every_full = _play_tricks(hand, result, suited, known, diag)
    all_played: list[int] | None = None
    if not (all_held and deal_ok and bury_ok and not unknown):
        # no card can be played more often than the decks allow when every seat's
        # start hand comes from a deal without excess copies and played only cards it held
        all_played = list(chain.from_iterable([p.cards for t in hand.tricks for p in t.plays]))
        before = len(diags)
        _check_played_copies(hand, rs.decks, diag, all_played)
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
        last_cards = last._cards  # each play's cards, in turn order (`last.plays` would build them all)
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


def _trump_text(t: int) -> str:
    return "NT" if t == NT else "♠♥♦♣"[t]


def _hand_level(levels: dict[str, int], dealer: str | None, events: Sequence[DeclEvent]) -> int:
    if dealer is not None:
        return levels[team_of(dealer)]
    if levels["NS"] == levels["EW"] or not events:
        return levels["NS"]
    return levels[team_of(events[0].seat)]


def _check_copies(hand: Hand, rs: Ruleset, diag: DiagFn, played: list[int] | None) -> bool:
    """SJ202: no card more often than the decks allow, over deal + kitty, then over
    the plays (``played``; None: not now). True when the deal and kitty have no excess copy."""
    decks = rs.decks
    ok = True
    dealt: list[int] = []
    for sc in hand.deal:
        dealt.extend(sc.cards)
    if hand.kitty is not None:
        dealt.extend(hand.kitty)
    if dealt and _excess(dealt, decks):  # rare: find where the excess copy stands
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
        _check_played_copies(hand, decks, diag, played)
    return ok


def _excess(cards: list[int], decks: int) -> bool:
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


def _check_played_copies(hand: Hand, decks: int, diag: DiagFn, played: list[int]) -> None:
    """SJ202 over the plays: no card played more often than the decks allow."""
    if played and _excess(played, decks):
        seen: dict[int, int] = {}
        for t in hand.tricks:
            for p in t.plays:
                for c in p.cards:
                    seen[c] = seen.get(c, 0) + 1
                    if seen[c] == decks + 1:
                        diag("SJ202", p.span, f"{cards_text([c])} is played more than {decks} time(s)")


def _play_tricks(hand: Hand, result: HandResult, holdings: dict[str, tuple[dict[int, int], ...]],
                 known: dict[str, bool], diag: DiagFn, seats: tuple[str, ...] = SEAT_ORDER,
                 friends: bool = False) -> tuple[bool, int, bool]:
    """Every trick in turn, on one :class:`replay.record.RecordState` (the
    engine's :class:`~replay.state.HandState` in its lenient record mode): who
    leads and the turn order, the throw check, each follow's legality, the
    cards leaving the hands, the winner and the points (into ``result.tricks``).
    The state reports what the record gets wrong as :class:`~replay.record.Fault`
    values; here they become diagnostics (spans and messages).

    ``holdings``: each seat's cards by effective suit (``holdings[seat][suit]``:
    card → copies, positive counts only; see :func:`replay.state.by_suit`),
    taken over by the state and changed in place.

    ``friends`` (a finding-friends table of ``seats``): the teams are known
    only at the end, so each trick's ``to_attackers``, signed ``penalty`` and
    running total are left for :mod:`replay.friends` to set (``penalty`` holds
    the failed throw's unsigned cost meanwhile); plays by seats not at the
    table are left out, and a trick without plays is skipped.

    Returns ``(all_held, done, every_full)``: True when every card played was
    in its seat's holding (and no trick was left unchecked for holding more
    cards than the decks); the cards each seat played in the tricks kept (the
    leads' sizes); True when every trick kept has a play by each seat.
    """
    order = result.order
    assert order is not None
    state = RecordState(result.ruleset, order, dealer=result.dealer, seats=seats, known=known, friends=friends,
                        split=holdings)
    total = 0
    tricks = hand.tricks
    out = result.tricks
    history = _History(result.start_hands, seats)
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
            _say_faults(rt, tn, trick.span, order, result.ruleset, friends, diag)
        if winner is None:  # no plays (or unreadable): not played
            if not friends:
                result.unknown_tricks += 1
            continue
        if to_att:
            result.card_points += pts
            total += pts
        if penalty and not friends:
            result.penalties += penalty
            total += penalty
        # (the record's own plays, as given to the state: notation.model.Play; kept, not copied)
        source: Sequence[Play] = plays  # type: ignore[assignment]
        out.append(TrickResult(
            tn, source[0].seat, source, cards_played, winner, pts, to_att, penalty, total, is_throw, failed,
            blockers, units, ruffed, trick.span, history))
        numbers.append(tn)
        history_plays.append((source, cards_played))
        done += len(cards_played[0])
        if len(cards_played) != n_seats:
            every_full = False
    return state.all_held, done, every_full


def _say_faults(rt: RecordedTrick, tn: int, span: Span, order: Order, rs: Ruleset, friends: bool,
                diag: DiagFn) -> None:
    """The diagnostics of a recorded trick's :class:`replay.record.Fault` values, in the order found."""
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
            _say_play_fault(f, p, plays, tn, order, rs, friends, diag)


def _say_play_fault(f: Fault, p: Play, plays: Sequence[Play], tn: int, order: Order, rs: Ruleset,
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
        tail = "" if friends else (f" (write `{seat}: {_plain(tried, order)} -> "
                                   f"{_plain(forced.cards, order)}`)")
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


def _plain(cards: Iterable[int], order: Order) -> str:
    from primitives.cards import format_cards
    return format_cards(order.sorted(cards))


#: the holding helpers HandState plays by (the lint loop's own names)
_by_suit = by_suit
_remove_from = remove_from
