"""Every decision valued from the deciding player's own view.

A *decision* is one play of a seat (a lead, a throw or a follow) with more
than one option. For each decision the review deals the hidden cards again,
``samples`` times, consistently with everything the player had seen
(:func:`analyzer.review.mistakes.pov.sample_deals`: their own holding, the kitty
when they buried it, every card played so far and every void shown), and
values **every option in every sampled deal** (common random numbers: the
options are compared on the same deals):

* exactly (:class:`analyzer.review.search.Solver`) where the search settles the
  deal within ``node_budget`` nodes (``exact_tricks``: only when at most that
  many tricks are left, so the search is not asked about hopeless positions);
* else by playing the hand out with the project's bots
  (:class:`analyzer.play.bot.Bot`, the best policy available), the option first.

An option's value is the attackers' expected final total (points before the
decision + what the rest of the hand gives), with its standard error over the
deals; its *level score* is the hand's level outcome as one number from the
dealers' side (``+levels`` when they keep the deal, ``-(1 + levels)`` when it
passes to the attackers), averaged the same way.

The options are the engine's legal plays, merged where the search merges
them (interchangeable cards: :meth:`analyzer.review.search.Solver.moves`), plus the
play made; options whose values are equal in every sampled deal are one
option (they are equivalent from the player's view). A decision with one
option left is *forced* and is not counted.

The verdict (no best-of-noisy-averages): the sampled deals are split in two
halves; the best option chosen on one half is compared with the play made on
the other half (paired differences), and the two directions are averaged
(cross-fitting). That *expected loss* is unbiased; it is a verdict only when
it is at least :data:`~analyzer.review.mistakes.findings.MIN_COST` points and more than
:data:`Z` standard errors. The level loss is measured the same way.

Sequential sampling (the review's default; ``max_samples``): a decision is first valued
on :data:`SAMPLES` deals. Where it is *unsure* after them (:func:`unsure`: its loss plus
:data:`UNSURE_Z` standard error could reach :data:`~analyzer.review.mistakes.findings.MIN_COST`,
and it is not a verdict beyond the stricter interim critical value
:func:`interim_critical`, 3.54 standard errors at 8 deals: Haybittle–Peto), it is valued
again on ``max_samples − samples`` **new** deals (:data:`MAX_SAMPLES` in all), seeded per
decision and batch, and the first deals are left out of the second valuation: they only
chose the decisions to look at again, so the second estimate, its verdict (at
:func:`critical`) and its cross-fitting are independent of that choice (no selection bias;
a false verdict is hardly likelier than with a fixed number of deals: the first look's
3.54 standard errors add ≈ 0.5 %, one-sided, to the second look's 2.5 %). The deals a
decision's figures rest on are its ``samples``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.findings import MIN_COST
from analyzer.review.mistakes.pov import SEED, sample_deals
from analyzer.review.search import SearchBudgetExceeded, Solver
from primitives.cards import points
from replay import native
from replay.scoring import advancement
from replay.seats import SEATS, Seat
from replay.state import HandState
from replay.texts import cards_text
from replay.trick import throw_penalty

if TYPE_CHECKING:  # pragma: no cover
    from analyzer.play.bot import Bot
    from replay.order import Order
    from replay.ruleset import Ruleset

#: sampled deals per decision (even: two halves): the first batch, and each batch after it
SAMPLES = 8
#: the review's default most deals a decision (sequential sampling: a decision unsure after
#: its first :data:`SAMPLES` deals, :func:`unsure`, is valued again on ``MAX_SAMPLES − SAMPLES``
#: new deals)
MAX_SAMPLES = 16
#: after the first batch a verdict needs this many standard errors to stop there
#: (:func:`interim_critical`; Haybittle–Peto); the last look :func:`critical`
INTERIM_Z = 3.0
#: unsure after the first batch: the loss plus this many standard errors reaches MIN_COST
UNSURE_Z = 1.0
#: nodes one sampled deal's exact search may visit (then the bots play it out)
NODE_BUDGET = 4_000
#: the exact search is tried only when at most this many tricks are left
EXACT_TRICKS = 4
#: at most this many options are valued per decision (the play made always)
MAX_OPTIONS = 8
#: a verdict needs the expected loss above Z standard errors (at least; with few
#: deals the Student t quantile of :func:`critical` is used instead)
Z = 2.0
#: two-sided 95 % Student t quantiles by degrees of freedom (then Z)
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
       12: 2.18, 15: 2.13, 20: 2.09, 30: 2.04}


def critical(n: int) -> float:
    """How many standard errors a loss estimated from ``n`` paired differences must exceed."""
    df = n - 1
    if df < 1:
        return float("inf")
    got = next((T95[k] for k in sorted(T95) if k >= df), Z)
    return max(Z, got)


def interim_critical(n: int) -> float:
    """How many standard errors a loss from ``n`` paired differences must exceed for a verdict
    at the first look of the sequential sampling, where more deals could still be drawn
    (Haybittle–Peto: a strict boundary at an interim look, the last at :func:`critical`):
    :data:`INTERIM_Z`, or the Student t quantile scaled alike when larger (3.54 at 8 deals)."""
    return max(INTERIM_Z, critical(n) * INTERIM_Z / Z)


#: level-loss band thresholds (expected change of the hand's level score, see the module doc)
LEVEL_BANDS = (("blunder", 0.5), ("mistake", 0.2))
#: a verdict's band when it moves the level score less: mistake from this many points
MISTAKE_POINTS = 30


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a decision: the play, the attackers' expected final
    total after it and its standard error, and the expected level score
    (dealers' side)."""

    play: tuple[int, ...]
    expected: float
    stderr: float
    level: float
    #: the same option also stands for these plays (equal in every sampled deal)
    same: tuple[tuple[int, ...], ...] = ()
    #: where the sides follow from each play-out (finding friends, a declaration that
    #: decides who deals): the deciding seat's side's expected points counted from the
    #: line where the deal passes, and its standard error (the options' order); else None
    side: float | None = None
    side_se: float | None = None


@dataclass(slots=True)
class Decision:
    """One play of one seat valued from that seat's own view (see the module doc)."""

    hand: int
    trick: int            # 1-based
    index: int            # 0-based play index in the trick
    seat: str
    kind: str             # lead | throw | follow | bury | declare (bury, declare: trick 0, before trick 1)
    chosen: tuple[int, ...]
    options: list[Option] = field(default_factory=list)   # best first for the seat's side
    forced: bool = False
    judged: bool = False
    #: why the decision was not judged (None when judged or forced)
    reason: str | None = None
    exact: bool = False   # every sampled deal was solved exactly
    samples: int = 0      # the deals the figures rest on
    #: sequential sampling: the deals of the first look, which left the decision unsure and
    #: were set aside (the figures rest on ``samples`` new ones); 0 when valued once
    screened: int = 0
    loss: float = 0.0     # expected points lost (cross-fitted), >= 0
    #: the cross-fitted estimate before clipping at 0 (may be negative; in the JSON, not summed:
    #: docs/diagnostics.md, "Accuracy", says why)
    raw_loss: float = 0.0
    loss_se: float = 0.0
    level_loss: float = 0.0
    level_loss_se: float = 0.0
    stake: float = 0.0    # best − worst option's expected points (the points at stake)
    band: str | None = None
    #: the pattern explanations attached (SJ601–SJ606, SJ611 texts)
    explanations: list[str] = field(default_factory=list)
    #: with all four hands known (the exact search on the real deal): the play made
    #: and the best play's values, the best line (None outside the search's reach)
    actual: dict[str, Any] | None = None
    hindsight: bool = False   # the real deal punished the play, the player's view did not
    capped: int = 0           # legal options left out (over MAX_OPTIONS)
    #: finding friends (:mod:`analyzer.review.mistakes.friends`): how the decision was
    #: valued and in how many deals the seat ended on the dealer's team; None at four seats
    friends: dict[str, Any] | None = None
    #: the bury (:mod:`analyzer.review.mistakes.bury`): which candidate buries were
    #: valued (name -> cards) and that they are not all possible buries; None for plays
    considered: dict[str, Any] | None = None

    def as_dict(self, order: Order | None) -> dict[str, Any]:
        opts = [{"play": cards_text(o.play, order) if o.play or self.kind != "declare" else "pass", "expected": round(o.expected, 1),
                 "stderr": round(o.stderr, 1), "level": round(o.level, 2),
                 **({"side": round(o.side, 1), "side_stderr": round(o.side_se or 0.0, 1)} if o.side is not None else {})}
                for o in self.options]
        return {"hand": self.hand, "seat": self.seat, "trick": self.trick,
                "play_index": None if self.kind in ("bury", "declare") else self.index,
                **({"declaration_index": self.index} if self.kind == "declare" else {}),
                "kind": self.kind, "chosen": cards_text(self.chosen, order), "alternatives": opts,
                "forced": self.forced, "judged": self.judged, "reason": self.reason,
                "loss": round(self.loss, 1), "raw_loss": round(self.raw_loss, 1),
                "loss_stderr": round(self.loss_se, 1),
                "level_loss": round(self.level_loss, 2), "level_loss_stderr": round(self.level_loss_se, 2),
                "stake": round(self.stake, 1), "band": self.band,
                "explanation": list(self.explanations), "exact": self.exact, "samples": self.samples,
                "screen_samples": self.screened,
                "hindsight": self.hindsight, "actual": self.actual,
                **({"friends": dict(self.friends)} if self.friends is not None else {}),
                **({"options_considered": dict(self.considered)} if self.considered is not None else {})}


def outcome_score(o: Any) -> float:
    """A hand outcome (:class:`replay.scoring.HandOutcome` or the friends'
    outcome) as one number from the dealers' side: +levels when they keep the
    deal, −(1 + levels) when it passes."""
    return float(o.gained) if o.dealers_keep else -(1.0 + o.gained)


def deal_line(ruleset: Ruleset) -> int:
    """The attackers' total from which the deal passes to them (the engine's
    :func:`replay.scoring.advancement`: 80 with two decks); a side's points are
    counted from it where the sides differ by play-out."""
    return next((x for x in range(0, 1000, 5)
                 if not advancement(ruleset.advancement, x, ruleset.decks).dealers_keep), 0)


def level_score(ctx: HandContext, total: float, hooked: bool = False) -> float:
    """The hand's level outcome for ``total`` attacker points, one number from
    the dealers' side (:func:`outcome_score`)."""
    o = ctx.outcome(int(total), hooked)
    if o is None:
        return 0.0
    return outcome_score(o)


def _sample_state(ctx: HandContext, ti: int, k: int, hands: Sequence[tuple[int, ...]], kitty_pts: int) -> HandState:
    """The position before play ``k`` of trick ``ti`` in a sampled deal
    (``hands``: the four holdings N W S E at that point)."""
    h, t = ctx.hand, ctx.hand.tricks[ti]
    start = [list(x) for x in hands]
    seats = list(h.seats)
    for p in t.plays[:k]:
        start[seats.index(p.seat)].extend(p.cards)
    assert h.dealer is not None
    st = HandState(ctx.ruleset, ctx.order, dict(zip(seats, start, strict=True)), leader=t.leader,
                   dealer=h.dealer, seats=h.seats, kitty_points=kitty_pts, first_trick=t.number)
    for p in t.plays[:k]:
        st.push(p.cards, check=False)   # a failed throw's forced unit (its penalty is before the decision)
    return st


def _rollout(st: HandState, play: tuple[int, ...], bot_of: Callable[[], object]) -> int | None:
    """Attacker points from ``st`` after ``play`` with the bots playing the
    rest; None when the sampled position cannot be played out."""
    end = play_to_end(st, play, bot_of())
    return None if end is None else end.final_points - st.attacker_points


def _option_rollouts(st: HandState, opts: Sequence[tuple[int, ...]], bot: Any) -> list[int | None]:
    """:func:`_rollout` of each option of one sampled deal (:func:`option_ends`)."""
    return [None if end is None else end.final_points - st.attacker_points for end in option_ends(st, opts, bot)]


def option_ends(st: HandState, opts: Sequence[tuple[int, ...]], bot: Any, *,
                friends: bool = False) -> list[HandState | PlayedOut | None]:
    """:func:`play_to_end` of each option of one sampled deal, every option's bots from the
    same generator state (the state ``bot`` has, as a new ``Bot`` with the deal's seed):
    one bot and one seeding a deal, not one an option; the native core gets the position
    checked and built once for every option, and the generator's state as it is (no copy
    to and from the generator an option)."""
    state = bot.rng.getstate()
    prepared = None if st.is_over else _native_position(st, bot, friends)
    batch = _native_plays(prepared, opts, state) if prepared is not None and len(prepared[1]) == 8 else None
    out: list[HandState | PlayedOut | None] = []
    for i, m in enumerate(opts):
        end: HandState | PlayedOut | None = None
        if batch is not None:
            end = batch[i]
        elif prepared is not None:
            end = _native_play(prepared, st, m, bot, rng_state=state)
        if end is None:
            bot.rng.setstate(state)
            end = play_to_end(st, m, bot, friends=friends)
        out.append(end)
    return out


@dataclass(frozen=True, slots=True)
class PlayedOut:
    """The end of a play-out the native core played (:func:`play_to_end`): what
    the review reads of it, as the Python play-out's final :class:`HandState` says it."""

    #: the attackers' total (:attr:`HandState.final_points`)
    final_points: int
    #: the attackers won the last trick with a level card (:attr:`HandState.hooked`)
    hooked: bool
    #: the plays made from the start to the end (the option played first too)
    count: int
    #: with ``record``: every play the bots made, as they chose it (a failed throw: the attempt)
    plays: tuple[tuple[int, ...], ...] = ()
    #: finding friends: the dealer's team at the end (:attr:`HandState.team`); else empty
    team: tuple[str, ...] = ()

    def defends(self, seat: str) -> bool:
        """Is ``seat`` on the dealer's team at the end (finding friends: :meth:`HandState.defends`)?"""
        return seat in self.team


def play_to_end(st: HandState, play: tuple[int, ...] | None, bot: Any, *,
                friends: bool = False) -> HandState | PlayedOut | None:
    """A copy of ``st`` after ``play`` (None: from ``st`` itself) with the bots playing the rest of the hand
    (a bot that finds no play gives way to the cheapest legal play); None when
    the position cannot be played out. ``friends``: the bots see the team as
    revealed so far (finding friends) and a lead is put in card order. The copy
    is only pushed (:meth:`replay.state.HandState.copy` with ``undo=False``).

    Four seats with fixed partners, or (``friends``) a finding-friends table of 4–8 seats,
    the bot an :class:`analyzer.play.bot.Bot` and a ruleset the native core knows: the
    native core plays the bots (``native/src/bot.rs``, move for move the Python bot's plays,
    its ``rng`` left as the Python play-out leaves it) and the result is a :class:`PlayedOut`
    instead of the final state (with ``friends``: the dealer's team at the end too)."""
    from analyzer.play.views import TrickView
    if not st.is_over:
        done = native_play_to_end(st, play, bot, friends=friends)
        if done is not None:
            return done
    s = st.copy(undo=False)
    v: TrickView | None = None
    try:
        if play is not None:
            s.push(play, check=False)
        while not s.is_over:
            if v is None:
                v = TrickView.of(s, friends)
            else:
                v.refresh(s, friends)   # one view per play-out, not one per play
            try:
                if v.plays:
                    move = tuple(bot.follow(v)) if friends else bot.follow(v)
                else:
                    move = tuple(s.order.sorted(bot.lead(v))) if friends else bot.lead(v)
            except (ValueError, IndexError, KeyError):
                legal = s.unit_leads() if not s.plays else s.legal_follows(limit=1)
                if not legal:
                    return None
                move = legal[0]
            s.push(move, check=False)
    except (ValueError, IndexError, KeyError):
        return None
    return s


def native_play_to_end(st: HandState, play: tuple[int, ...] | None, bot: Any, *,
                       record: bool = False, rng_state: Any = None, friends: bool = False) -> PlayedOut | None:
    """:func:`play_to_end` of ``st`` (not over) after ``play`` by the native core (``st`` is not
    changed), or None where it does not apply (no native core, a ruleset it does not know, not
    four seats with fixed partners, another bot or generator, input that may not cross) or
    where the Python bot would give way to the cheapest legal play (the caller then plays the
    hand in Python, from the same ``rng`` state). ``record``: keep the bots' plays.
    ``rng_state``: the bots' generator state to start from (``random.Random.getstate()``); the
    bot's own ``rng`` is then neither read nor changed. ``friends``: :func:`play_to_end`'s
    ``friends`` (a finding-friends table of 4–8 seats P1…Pn, or N W S E, its team as revealed,
    the calls of either ``friend_rule``; without it only four seats with fixed partners).

    What crosses is checked here (cards 0..53, at most eight copies of one) and again by the
    extension before it plays (four hands, seats 0..3, a generator's state): a refusal there
    is a ``ValueError``, a value of the wrong type a ``TypeError`` or ``OverflowError``, and
    the hand is played in Python."""
    prepared = _native_position(st, bot, friends)
    if prepared is None:
        return None
    return _native_play(prepared, st, play, bot, record=record, rng_state=rng_state)


def _native_position(st: HandState, bot: Any, friends: bool = False) -> tuple[Any, tuple[Any, ...]] | None:
    """What :func:`native_play_to_end` hands the native core of ``st`` whatever the play
    (the rules and the position, checked), or None where the core does not apply."""
    if not native.available():
        return None
    if type(bot) is not _bot_class() or type(bot.rng) is not random.Random or (bot.rs is not st.ruleset and bot.rs != st.ruleset):
        return None
    if type(st) is not HandState:
        return None
    if friends:
        return _native_friends_position(st, bot)
    if st.seats != SEATS or set(st.team) != {st.dealer, _PARTNER[st.dealer]}:
        return None
    rules = native.rules_for(st.order, st.ruleset)
    if rules is None:
        return None
    held = st.holdings
    hands = []
    try:
        for x in SEATS:
            h = held[x]
            if h and (min(h) < 0 or max(h) >= 54 or not 0 < min(h.values()) <= max(h.values()) <= 8):
                return None
            hands.append(list(h.items()))
    except TypeError:   # a card or a count that is not a number
        return None
    penalty = 0 if st.attempted is None else throw_penalty(st.ruleset, len(st.attempted))
    p = bot.p
    return rules, (hands, _INDEX[st.leader], [cards for _, cards in st.plays], penalty, _INDEX[st.dealer],
                   st.kitty_points, st.attacker_points, (p.throw_chance, p.risky_throw_chance, p.ruff_chance, p.endgame))


def _native_friends_position(st: HandState, bot: Any) -> tuple[Any, tuple[Any, ...]] | None:
    """:func:`_native_position` of a finding-friends play-out (``friends=True``): the table
    in play order (P1…Pn as :meth:`replay.seats.Seat.next` goes round it, or N W S E), the
    dealer's team as revealed, the calls (answered seat or holder, skips left, revealed),
    each seat's trick points and led penalties so far, and the display order of a lead."""
    seats = st.seats
    n = len(seats)
    if seats != _NUMBERED.get(n) and seats != SEATS:
        return None
    index = {s: i for i, s in enumerate(seats)}
    teams = st.teams
    try:
        members = [index[s] for s in teams.members]
        dealer = index[st.dealer]
        if not members or len(set(members)) != len(members):
            return None
        calls = []
        for k, c in enumerate(teams.calls):
            card = c.card
            if type(card) is not int or not 0 <= card < 54:
                return None
            seat = -1 if c.seat is None else index[c.seat]
            skips = teams.skips[k] if not teams.held else 0
            calls.append((card, seat, skips, c.trick is not None))
        won, pen = [0] * n, [0] * n
        for t in st.tricks:
            won[index[t.winner]] += t.points
            pen[index[t.plays[0][0]]] += t.penalty
        rules = native.rules_for(st.order, st.ruleset)
        if rules is None:
            return None
        hands = []
        held = st.holdings
        for x in seats:
            h = held[x]
            if h and (min(h) < 0 or max(h) >= 54 or not 0 < min(h.values()) <= max(h.values()) <= 8):
                return None
            hands.append(list(h.items()))
        place = _place(st.order)
    except (KeyError, IndexError, TypeError):   # a seat off the table, a card or a count that is not a number
        return None
    penalty = 0 if st.attempted is None else throw_penalty(st.ruleset, len(st.attempted))
    p = bot.p
    return rules, (hands, index[st.leader], [cards for _, cards in st.plays], penalty, dealer, st.kitty_points,
                   (p.throw_chance, p.risky_throw_chance, p.ruff_chance, p.endgame), members, calls,
                   teams.held, won, pen, place, seats)


def _place(order: Order) -> list[int]:
    """Each card's place in display order (:meth:`replay.order.Order.sorted`'s key)."""
    got = _PLACES.get(order)
    if got is None:
        got = _PLACES[order] = [i for i, _ in sorted(enumerate(order.sorted(range(54))), key=lambda ic: ic[1])]
    return got


def _native_play(prepared: tuple[Any, tuple[Any, ...]], st: HandState, play: tuple[int, ...] | None, bot: Any, *,
                 record: bool = False, rng_state: Any = None) -> PlayedOut | None:
    """:func:`native_play_to_end` from a position :func:`_native_position` prepared."""
    if play is not None and not native.valid_cards(play):
        return None
    if len(prepared[1]) == 14:
        return _native_play_friends(prepared, play, bot, record=record, rng_state=rng_state)
    rules, (hands, leader, plays, penalty, dealer, kitty_points, attacker_points, knobs) = prepared
    version, words, gauss = bot.rng.getstate() if rng_state is None else rng_state
    try:
        got = rules.bot_playout(hands, leader, plays, penalty, dealer, kitty_points, attacker_points, words,
                                knobs, play, record)
    except (ValueError, TypeError, OverflowError):
        return None
    if got is None:
        return None
    final, hooked, moves, after, count = got
    if rng_state is None:
        bot.rng.setstate((version, after, gauss))
    return PlayedOut(final, hooked, count, tuple(tuple(m) for m in moves) if moves is not None else ())


def _native_plays(prepared: tuple[Any, tuple[Any, ...]], opts: Sequence[tuple[int, ...]],
                  rng_state: Any) -> list[PlayedOut | None] | None:
    """:func:`_native_play` of each of ``opts`` from the generator state ``rng_state`` at a
    four-seat table, in one call (``NativeRules.bot_playouts``: the position and the state
    cross once a deal, not once an option); None for an option the core does not play (the
    caller plays it in Python), None for all when the call is refused."""
    rules, (hands, leader, plays, penalty, dealer, kitty_points, attacker_points, knobs) = prepared
    firsts = [list(m) if m and len(m) <= 54 and native.valid_cards(m) else [] for m in opts]
    try:
        got = rules.bot_playouts(hands, leader, plays, penalty, dealer, kitty_points, attacker_points, rng_state[1],
                                 knobs, firsts)
    except (ValueError, TypeError, OverflowError):
        return None
    if len(got) != len(opts):
        return None
    return [None if g is None else PlayedOut(g[0], g[1], g[2]) for g in got]


def _native_play_friends(prepared: tuple[Any, tuple[Any, ...]], play: tuple[int, ...] | None, bot: Any, *,
                         record: bool = False, rng_state: Any = None) -> PlayedOut | None:
    """:func:`_native_play` at a finding-friends table (``bot_playout_friends``)."""
    rules, (hands, leader, plays, penalty, dealer, kitty_points, knobs, members, calls, held, won, pen, place,
            seats) = prepared
    version, words, gauss = bot.rng.getstate() if rng_state is None else rng_state
    try:
        got = rules.bot_playout_friends(hands, leader, plays, penalty, dealer, kitty_points, words, knobs, members,
                                        calls, held, won, pen, place, play, record)
    except (ValueError, TypeError, OverflowError):
        return None
    if got is None:
        return None
    final, hooked, moves, after, count, team = got
    if rng_state is None:
        bot.rng.setstate((version, after, gauss))
    return PlayedOut(final, hooked, count, tuple(tuple(m) for m in moves) if moves is not None else (),
                     tuple(seats[i] for i in team))


def _bot_class() -> Any:
    """:class:`analyzer.play.bot.Bot` (imported once, when a play-out first asks)."""
    global _BOT
    if _BOT is None:
        from analyzer.play.bot import Bot
        _BOT = Bot
    return _BOT


_BOT: Any = None
#: fixed partners: each compass seat's partner and index (N W S E)
_PARTNER = {s: Seat[s].partner().name for s in SEATS}
_INDEX = {s: i for i, s in enumerate(SEATS)}
#: a finding-friends table of n seats in play order (``Seat.next`` goes round it so)
_NUMBERED = {n: tuple(f"P{i}" for i in range(1, n + 1)) for n in range(4, 9)}
#: each order's display places (:func:`_place`)
_PLACES: dict[Any, list[int]] = {}


def options_of(ctx: HandContext, ti: int, k: int, st: HandState | None = None) -> tuple[list[tuple[int, ...]], int]:
    """The options of play ``k`` of trick ``ti`` and how many were left out
    over :data:`MAX_OPTIONS`: the play made and the search's legal plays
    (:meth:`analyzer.review.search.Solver.moves`) in ``st``, a sampled deal of the
    position (the legal plays depend on the player's own cards only; which
    cards the search merges as interchangeable is read from the sampled deal,
    never from the hidden real one). Without ``st``: the real position."""
    t = ctx.hand.tricks[ti]
    p = t.plays[k]
    chosen = tuple(sorted(p.attempted or p.cards))
    return position_options(ctx.node(ti, k) if st is None else st, chosen, ctx.order, ctx.ruleset,
                            ctx.dealer or "N")


def position_options(st: HandState, chosen: tuple[int, ...], order: Order, ruleset: Ruleset,
                     dealer: str = "N") -> tuple[list[tuple[int, ...]], int]:
    """:func:`options_of` of the seat to play in ``st`` (not changed) whose play was
    ``chosen`` (cards ascending): ``chosen`` first, then the search's other moves
    (:meth:`analyzer.review.search.Solver.moves`), past :data:`MAX_OPTIONS` the cheapest
    of them (:meth:`~analyzer.review.search.Solver.cheap_key`, the search's own preference
    among equals); and how many were left out. A follow is listed by the native core where
    it applies (:func:`_native_follow_options`), the same options in the same order."""
    got = _native_follow_options(st, chosen)
    if got is not None:
        rest, total = got
        return [chosen] + rest, max(0, 1 + total - MAX_OPTIONS)
    st = st.copy()
    s = Solver(order, ruleset, dealer, 0)
    try:
        moves = [tuple(sorted(m)) for m in s.moves(st)]
    except Exception:
        moves = [tuple(sorted(m)) for m in st.legal_plays()]
    out = [chosen] + [m for m in dict.fromkeys(moves) if m != chosen]
    capped = max(0, len(out) - MAX_OPTIONS)
    if capped:
        # the cheapest of the others first (the search's own preference among equals)
        rest = sorted(out[1:], key=s.cheap_key)
        out = [chosen] + rest[:MAX_OPTIONS - 1]
    return out, capped


def _native_follow_options(st: HandState, chosen: tuple[int, ...]) -> tuple[list[tuple[int, ...]], int] | None:
    """:func:`options_of`'s options of a follow by the native core (``NativeRules.follow_options``:
    the legal follows but the play made, sorted, or past :data:`MAX_OPTIONS` the cheapest by
    :meth:`~analyzer.review.search.Solver.cheap_key`, and how many there are), or None where it
    does not apply (a lead, no native core, a ruleset it does not know, input that may not cross)."""
    if not st.plays or type(st) is not HandState or not native.available():
        return None
    rules = native.rules_for(st.order, st.ruleset)
    if rules is None:
        return None
    lead = st.plays[0][1]
    held = st.holding(st.turn)
    try:
        if not (native.valid_cards(lead) and native.valid_cards(held) and native.valid_cards(chosen)):
            return None
        got, total = rules.follow_options(list(lead), list(held.items()), list(chosen), MAX_OPTIONS - 1)
    except (ValueError, TypeError, OverflowError):
        return None
    return [tuple(m) for m in got], total


def value_decision(ctx: HandContext, ti: int, k: int, *, samples: int = SAMPLES, max_samples: int | None = None,
                   node_budget: int = NODE_BUDGET, exact_tricks: int = EXACT_TRICKS, seed: int = SEED,
                   chosen: tuple[int, ...] | None = None) -> Decision:
    """The :class:`Decision` of play ``k`` of trick ``ti`` (0-based) from its player's view.

    ``samples`` deals first; with ``max_samples`` above it, a decision unsure after them
    (:func:`unsure`) is valued again on ``max_samples − samples`` new deals, the first
    ones left out (sequential sampling, the module doc; :data:`MAX_SAMPLES` is the review's
    default); None: ``samples`` deals, fixed.
    ``chosen``: value this play in the decision's place instead of the play made (cards
    ascending, one of its legal plays; a test of the review's honesty)."""
    h = ctx.hand
    t = h.tricks[ti]
    p = t.plays[k]
    if chosen is None:
        chosen = tuple(sorted(p.attempted or p.cards))
    kind = "follow" if k else ("throw" if ctx.is_throw(chosen) else "lead")
    d = Decision(h.number, t.number, k, p.seat, kind, chosen)
    if ctx.forced(ti, k):
        d.forced = True
        d.options = []
        return d
    first = max(2, samples - samples % 2)
    deals = sample_deals(ctx, p.seat, ti, k, first, seed)
    if len(deals) < first:
        d.reason = "too few deals consistent with what the player saw"
        return d
    states = [_sample_state(ctx, ti, k, pos.hands, kp) for pos, kp in deals]
    opts, d.capped = options_of(ctx, ti, k, states[0])
    if chosen != opts[0]:
        opts = [chosen] + [m for m in opts if m != chosen]
    if len(opts) == 1:
        d.forced = True
        return d
    base_total = ctx.points_before(ti) + (t.penalty if k else 0)
    left = len(h.tricks) - ti

    def valued(deals: Sequence[tuple[Any, int]], states: Sequence[HandState], start: int, into: Decision) -> Decision:
        """``into`` valued over ``deals`` (the bots' seeds numbered from ``start``)."""
        rows: list[list[float]] = []   # per deal: value per option
        lev: list[list[float]] = []
        exact_all = True
        for j, ((_pos, kp), st) in enumerate(zip(deals, states, strict=True), start=start):
            vals: list[int] | None = None
            if left <= exact_tricks and node_budget > 0:
                s = Solver(ctx.order, ctx.ruleset, ctx.dealer or "N", kp)
                s.node_limit = node_budget
                try:
                    vals = [s.play_value(st, m) for m in opts]
                except SearchBudgetExceeded:
                    vals = None
                except Exception:
                    vals = None
            if vals is None:
                exact_all = False
                got = _option_rollouts(st, opts, _bot(ctx, f"{seed}:{h.number}:{ti}:{k}:{j}"))
                if any(v is None for v in got):
                    continue  # a deal that cannot be played out is dropped for every option
                vals = [v for v in got if v is not None]
            rows.append([float(v) for v in vals])
            lev.append([level_score(ctx, base_total + v) for v in vals])
        into.samples = len(rows)
        into.exact = exact_all
        if len(rows) < 2:
            into.reason = "the sampled deals could not be played out"
            return into
        finish(ctx, into, opts, rows, lev, base_total)
        return into

    valued(deals, states, 0, d)

    def again(n: int) -> Decision | None:
        more = sample_deals(ctx, p.seat, ti, k, n, seed, batch=1)   # seeded per decision and batch
        if len(more) < 2:
            return None
        return valued(more, [_sample_state(ctx, ti, k, pos.hands, kp) for pos, kp in more], first,
                      Decision(h.number, t.number, k, p.seat, kind, chosen, capped=d.capped, screened=d.samples))
    return second_look(d, first, max_samples, again)


def second_look(d: Decision, first: int, max_samples: int | None,
                again: Callable[[int], Decision | None]) -> Decision:
    """Sequential sampling's second look (the module doc), one rule for the plays, the
    finding-friends plays, the bury and the declarations: ``d`` was valued on ``first``
    deals; where ``max_samples`` leaves room for more (None: fixed deals) and ``d`` is
    :func:`unsure`, ``again(n)`` values the decision anew on ``n`` new deals, the first ones
    left out (None: too few could be dealt). The second valuation stands where it judged
    the decision or found its options equal; otherwise the first does."""
    top = first if max_samples is None else max(first, max_samples - max_samples % 2)
    if top <= first or not unsure(d):
        return d
    redone = again(top - first)
    return redone if redone is not None and (redone.judged or redone.forced) else d


def unsure(d: Decision) -> bool:
    """Is a judged decision's verdict still open after its first batch of deals (sequential
    sampling, see the module doc)? Its loss could be :data:`MIN_COST` points or more (the
    cross-fitted estimate, unclipped, plus :data:`UNSURE_Z` standard errors reaches it),
    and it is not a verdict beyond the stricter interim critical value
    (:func:`interim_critical`). Clear, no more deals: a loss clearly below
    :data:`MIN_COST` (also one that is 0 in every deal), or a clear verdict."""
    if not d.judged or d.forced:
        return False
    if d.raw_loss + UNSURE_Z * d.loss_se < MIN_COST:
        return False
    return not (d.loss >= MIN_COST and d.loss > interim_critical(d.samples) * d.loss_se)


def _bot(ctx: HandContext, seed: str) -> Bot:
    from analyzer.play.bot import Bot
    return Bot(ctx.ruleset, random.Random(seed))


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, math.sqrt(var / len(xs))


def finish(ctx: HandContext, d: Decision, opts: list[tuple[int, ...]], rows: list[list[float]],
           lev: list[list[float]], base_total: int,
           signed: tuple[list[list[float]], list[list[float]]] | None = None) -> None:
    """The decision's options, forced flag, stake, cross-fitted loss and band
    from ``rows`` (per deal: each option's attackers' points) and ``lev``
    (each option's level score, dealers' side). ``signed`` (finding friends):
    the same from the deciding seat's side as each deal and option turned out
    (points, level), used for the merge, the order and the loss instead of
    the side :meth:`HandContext.is_attacker` fixes."""
    att = ctx.is_attacker(d.seat)
    sign = 1.0 if att else -1.0          # points for the seat's side
    lsign = -1.0 if att else 1.0         # level score is the dealers' side
    if signed is None:
        prow = [[sign * v for v in r] for r in rows]
        plev = [[lsign * v for v in r] for r in lev]
    else:
        prow, plev = signed
    # merge options equal in every sampled deal (equivalent from the player's view)
    groups: dict[tuple[float, ...], list[int]] = {}
    for i in range(len(opts)):
        groups.setdefault(tuple(r[i] for r in prow), []).append(i)
    reps = [g[0] if 0 not in g else 0 for g in groups.values()]
    same = {(g[0] if 0 not in g else 0): tuple(opts[i] for i in g if i != (g[0] if 0 not in g else 0))
            for g in groups.values()}
    if len(reps) == 1:
        d.forced = True
        d.options = [_option(ctx, opts[0], [r[0] for r in rows], [x[0] for x in lev], base_total, same[0])]
        return
    options = []
    for i in reps:
        o = _option(ctx, opts[i], [r[i] for r in rows], [x[i] for x in lev], base_total, same[i])
        if signed is not None:
            sm, sse = _mean_se([r[i] for r in prow])
            o = Option(o.play, o.expected, o.stderr, o.level, o.same, sm, sse)
        options.append((i, o))
    if signed is None:
        options.sort(key=lambda io: -sign * io[1].expected)
        d.stake = sign * (options[0][1].expected - options[-1][1].expected)
    else:
        side = {i: sum(r[i] for r in prow) / len(prow) for i in reps}
        options.sort(key=lambda io: -side[io[0]])
        d.stake = side[options[0][0]] - side[options[-1][0]]
    d.options = [o for _, o in options]
    # cross-fitted loss: best on one half, judged on the other
    half = len(rows) // 2
    idx = list(range(len(rows)))
    a, b = idx[:half], idx[half:]
    diffs_p: list[float] = []
    diffs_l: list[float] = []
    for pick, judge in ((a, b), (b, a)):
        best = max(reps, key=lambda i: (sum(prow[j][i] for j in pick), i == 0))
        diffs_p.extend(prow[j][best] - prow[j][0] for j in judge)
        diffs_l.extend(plev[j][best] - plev[j][0] for j in judge)
    loss, se = _mean_se(diffs_p)
    lloss, lse = _mean_se(diffs_l)
    d.loss, d.loss_se, d.level_loss, d.level_loss_se = max(0.0, loss), se, max(0.0, lloss), lse
    d.raw_loss = loss
    d.judged = True
    crit = critical(len(diffs_p))
    if d.loss >= MIN_COST and d.loss > crit * se:
        # the level bands only where the level loss is itself beyond noise
        d.band = verdict_band(d.loss, d.level_loss if d.level_loss > crit * lse else 0.0)


def verdict_band(loss: float, level_loss: float) -> str:
    """The band of a significant expected loss: by the expected change of the
    hand's level score (:data:`LEVEL_BANDS`), else mistake from
    :data:`MISTAKE_POINTS` points, else inaccuracy."""
    for name, low in LEVEL_BANDS:
        if level_loss >= low:
            return name
    return "mistake" if loss >= MISTAKE_POINTS else "inaccuracy"


def _option(ctx: HandContext, play: tuple[int, ...], vals: list[float], levels: list[float], base_total: int,
            same: Iterable[tuple[int, ...]]) -> Option:
    m, se = _mean_se(vals)
    return Option(play, base_total + m, se, sum(levels) / len(levels), tuple(same))


def kitty_points_of(cards: Iterable[int] | None) -> int:
    return points(cards or ())


__all__ = ["Decision", "Option", "PlayedOut", "play_to_end", "native_play_to_end", "option_ends", "value_decision", "unsure", "interim_critical", "critical", "finish", "options_of", "position_options", "level_score", "verdict_band", "second_look", "SAMPLES", "MAX_SAMPLES", "INTERIM_Z", "UNSURE_Z",
           "NODE_BUDGET", "EXACT_TRICKS", "MAX_OPTIONS", "Z", "LEVEL_BANDS", "MISTAKE_POINTS"]
