"""The finding-friends review (找朋友, tables of 4–8 players ``P1``…``Pn``):
every decision valued from the deciding player's own view, as the four-seat
review does (:mod:`analyzer.review.mistakes.decisions`), with the sides
unknown until the friends are revealed.

* **What the player knows.** Their own holding, every card played so far,
  the voids shown (:meth:`replay.state.HandState.shown_voids`), the hand
  sizes, the kitty when they buried it, and the friends revealed so far (the
  calls the tricks have answered). A friend not yet revealed is unknown; the
  player knows only whether they hold a called card themselves (their own
  holding is kept in every deal).
* **Sampling** (:func:`sample_states`). The hidden cards (the other players'
  holdings and, unless the player buried it, the kitty) are dealt again at
  random, as a sorted set, so nothing of who really holds what enters the
  deal; each deal is the record's plays on the engine's
  :class:`~replay.state.HandState` with the hand's friend calls (the
  engine's :class:`~replay.teams.Teams` answers them: who is a friend in a
  deal follows from the deal, never from the real hand). A deal in which the
  record's plays so far would not come out the same (a failed throw standing,
  a different forced unit, a ``held`` call's holder revealed otherwise) is
  inconsistent with what the player saw and is dealt again. The record is
  replayed once a decision and each deal built from it (:class:`DealReplay`:
  only the throws and the ``held`` calls depend on the deal, and the engine
  judges them in each), the same states as replaying each deal from trick 1
  (:meth:`FriendsHand.replayed`).
* **Valuing.** The exact solver is four-seat only: every option is valued in
  every deal by the bots' play-out (:class:`analyzer.play.bot.Bot`, seeing the
  team as revealed so far) to the end of the hand, the option first; common
  random numbers (the same deals and bot seeds for every option). The value
  is the attackers' final total **with the deal's final teams**, and the
  deciding player's side is the one the play-out makes them (the dealer's
  team or the attackers): a player who turns out a friend in one deal (or
  after one option) and an attacker in another is judged on each from that
  side. So that the two sides' points compare, a side's points are counted
  from the line where the deal passes (:attr:`FriendsHand.line`, the engine's
  :func:`replay.scoring.advancement`: 80 with two decks): ``total − line``
  for the attackers, ``line − total`` for the dealer's team (the level score
  is signed the same way). Decisions are
  never ``exact`` (no window); each says so (``friends.valued``).
* **Options.** A follow's legal plays (:meth:`~replay.state.HandState.legal_follows`),
  a lead's single units (:meth:`~replay.state.HandState.unit_leads`) and the
  play made (a throw, checked by the engine in each deal), at most
  :data:`~analyzer.review.mistakes.decisions.MAX_OPTIONS`: the play made,
  then the others by cost (point cards given, then strength), spread evenly
  over that ranking so the cheapest and the strongest are both kept.
* Cross-fitted expected loss, standard error, bands and accuracy are the
  four-seat review's (:func:`analyzer.review.mistakes.decisions.finish`, with
  the side per deal).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.decisions import (
    MAX_OPTIONS,
    SAMPLES,
    Decision,
    PlayedOut,
    deal_line,
    finish,
    outcome_score,
)
from analyzer.review.mistakes.pov import SEED, Dealer, pinned
from primitives.cards import POINTS, points
from primitives.diagnostics import ERROR
from replay.friend_calls import friends_outcome
from replay.shapes import Unit
from replay.state import HandState, TrickDone
from replay.teams import FriendResult, Teams, assign_holders
from replay.trick import check_suited_throw, check_throw
from replay.units import decompose

if TYPE_CHECKING:  # pragma: no cover
    from analyzer.play.bot import Bot
    from notation.model import Hand as RecordHand
    from replay.results import HandResult, MatchResult

#: a deal is dealt again at most this many times per deal wanted (inconsistent with the record)
RETRIES = 4
#: what each friends decision says about how it was valued
VALUED = "by the bots' play-outs (finding friends: the exact search is four-seat only, no exact window)"


class FriendsHand:
    """One finding-friends hand as the review replays it: the start holdings
    (after the bury), the calls, and the engine's state at any play."""

    def __init__(self, ctx: HandContext) -> None:
        self.ctx = ctx
        h = ctx.hand
        self.hand = h
        self.seats: tuple[str, ...] = tuple(h.seats)
        self.held = ctx.ruleset.friend_rule == "held"
        assert h.dealer is not None or not ctx.playable
        self.dealer = h.dealer or self.seats[0]
        i = self.seats.index(self.dealer) if self.dealer in self.seats else 0
        self.ring = self.seats[i:] + self.seats[:i]
        #: the attackers' total from which the deal passes to them (the engine's
        #: :func:`replay.scoring.advancement`): a side's points are measured from it
        self.line = deal_line(ctx.ruleset)
        #: :func:`level_of` by (final team, attackers' total)
        self.levels: dict[tuple[tuple[str, ...], int], float] = {}

    def why_not(self) -> str | None:
        """Why this hand cannot be reviewed (None: it can)."""
        ctx, h = self.ctx, self.hand
        if not ctx.playable:
            return "the hand was not played (redealt, or no dealer or trump)"
        if any(d.severity == ERROR for d in h.diagnostics):
            return "the hand has rule errors: its holdings cannot be trusted"
        if not h.complete:
            return "the hand is incomplete"
        sizes = {len(x) for x in h.tricks[0].hands_before}
        if len(sizes) != 1 or any(h.tricks[-1].hands_after):
            return "the holdings do not add up (a throw or a trick recorded wrongly)"
        # a complete hand's holdings are its plays (the replay marks them known only
        # at four seats): each player played a whole hand
        if sizes != {ctx.ruleset.hand_size} and not all(h.known.get(s, False) for s in self.seats):
            return "not every player's hand is known"
        return None

    # -- the engine's state ------------------------------------------------------------------------

    def calls(self) -> list[FriendResult]:
        """The hand's calls, unanswered (the tricks answer them)."""
        return [FriendResult(c.ordinal, c.card, None, None, c.span) for c in self.hand.friends]

    def start_state(self, start: Mapping[str, Sequence[int]], kitty_points: int) -> HandState:
        """The state before trick 1 from ``start`` (each seat's holding after the bury)."""
        ctx = self.ctx
        holdings = {s: Counter(start[s]) for s in self.seats}
        calls = self.calls()
        if self.held:   # seed 001: the holder nearest the dealer, as the deal says
            assign_holders(calls, self.ring, holdings)
        return HandState(ctx.ruleset, ctx.order, holdings, leader=self.hand.tricks[0].leader, dealer=self.dealer,
                         seats=self.seats, kitty_points=kitty_points,
                         teams=Teams.forming(self.dealer, calls, held=self.held))

    def plays(self, ti: int, k: int) -> Iterator[tuple[int, int]]:
        """(trick index, play index) of every play before play ``k`` of trick ``ti``."""
        for i in range(ti + 1):
            for j in range(k if i == ti else len(self.hand.tricks[i].plays)):
                yield i, j

    def push(self, st: HandState, i: int, j: int) -> bool:
        """Push the record's play ``j`` of trick ``i`` on ``st``; False when the
        engine makes it come out otherwise (a throw standing, another forced unit)."""
        p = self.hand.tricks[i].plays[j]
        try:
            got = st.push(p.attempted or p.cards if j == 0 else p.cards, check=False)
        except ValueError:
            return False
        return sorted(got) == sorted(p.cards)

    def replayed(self, start: Mapping[str, Sequence[int]], kitty_points: int, ti: int, k: int) -> HandState | None:
        """The state before play ``k`` of trick ``ti`` in the deal ``start``
        (None when the record's plays do not come out the same in it)."""
        st = self.start_state(start, kitty_points)
        for i, j in self.plays(ti, k):
            if not self.push(st, i, j):
                return None
        return st

    def replay_once(self, real: HandState, ti: int, k: int) -> DealReplay | None:
        """The record's plays before play ``k`` of trick ``ti`` replayed once for every deal
        of one decision (:class:`DealReplay`), or None where ``real`` (the real state
        there) is not the record's plays as the engine replayed them (each deal is then
        replayed whole: :meth:`replayed`)."""
        return DealReplay.of(self, real, ti, k)

    def played_before(self, ti: int, k: int) -> dict[str, list[int]]:
        """The cards each seat played before play ``k`` of trick ``ti`` (as played: a failed throw's forced unit)."""
        out: dict[str, list[int]] = {s: [] for s in self.seats}
        for i, j in self.plays(ti, k):
            p = self.hand.tricks[i].plays[j]
            out[p.seat].extend(p.cards)
        return out


class DealReplay:
    """:meth:`FriendsHand.replayed` for every deal of one decision, the record replayed once.

    What the engine makes of the record's plays before the decision depends on
    the deal in two places only: a lead of several units (the throw check asks
    the others' holdings at that lead whether it stands, and which unit a failed
    one forces) and, under the ``held`` rule, who holds each called card at the
    start (:func:`replay.teams.assign_holders`), so the calls' answers. The rest
    (each trick's plays as played, winner, points, penalty and units, the calls'
    answers under ``played``) is the record's in every deal that agrees with it.
    So ``real`` (the real state there, the record's plays as the engine replayed
    them) is copied for each deal with that deal's holdings and kitty points;
    each throw is checked in the deal by the engine
    (:func:`replay.trick.check_throw`, as :meth:`HandState.throw_check` asks it)
    and, under ``held``, the calls are assigned in the deal and answered trick by
    trick by the engine's :class:`~replay.teams.Teams`. A deal in which a throw
    would not come out as recorded is not consistent (None), as in
    :meth:`FriendsHand.replayed`; the reveals are compared by the caller as before.

    The state is the one :meth:`FriendsHand.replayed` gives, slot for slot (the
    holdings in the same key order too), but for the undo log: a sampled state
    is only played out (:func:`~analyzer.review.mistakes.decisions.play_to_end`
    copies it with ``undo=False``), so it has none (``tests/mistakes/test_friends_replay.py``
    compares the two). Where a deal's throw would force a unit written in
    another card order than the real one (not seen), that deal is replayed whole.
    """

    __slots__ = ("fh", "real", "ti", "k", "keys", "played", "throws", "units", "base", "teams", "done",
                 "start_counts")

    def __init__(self, fh: FriendsHand, real: HandState, ti: int, k: int) -> None:
        self.fh, self.real, self.ti, self.k = fh, real, ti, k
        self.played = fh.played_before(ti, k)
        #: each seat's cards played before, each once, in the order first played (the holdings' key order)
        self.keys = {s: tuple(dict.fromkeys(c)) for s, c in self.played.items()}
        self.start_counts = {s: Counter(c) for s, c in self.played.items()} if fh.held else {}
        #: each lead of several units before the decision: (its cards, its effective suit or None,
        #: the seats from the leader, the cards each of them played from that lead on (of the suit
        #: only for a throw of one suit), the cards played as in ``real``)
        self.throws: list[tuple[tuple[int, ...], int | None, list[str], list[Counter[int]], tuple[int, ...]]] = []
        #: each throw's units, as ``throws``
        self.units: list[list[Unit]] = []
        tricks = fh.hand.tricks
        order = fh.ctx.order
        eff = order.eff
        done = real.tricks
        since: dict[str, Counter[int]] = {s: Counter() for s in fh.seats}
        for i in range(ti, -1, -1):   # from the decision back: the cards played since each lead
            plays = tricks[i].plays[:k] if i == ti else tricks[i].plays
            for q in plays:
                since[q.seat].update(q.cards)
            if not plays:
                continue
            p = plays[0]
            cards = tuple(p.attempted or p.cards)
            units = decompose(cards, order) if len(cards) > 1 else []
            if len(units) > 1:
                first = fh.seats.index(p.seat)
                ring = list(fh.seats[first:] + fh.seats[:first])
                got = done[i].plays[0][1] if i < ti else real.plays[0][1]
                suits = {eff[c] for c in cards}
                # a throw of one effective suit is checked against the others' cards of that suit only
                # (check_throw looks at no other): the deal's cards of it, and those played since
                suit = suits.pop() if len(suits) == 1 else None
                then = [Counter(since[s]) if suit is None else Counter({c: m for c, m in since[s].items() if eff[c] == suit})
                        for s in ring]
                self.throws.append((cards, suit, ring, then, got))
                self.units.append(units)
        self.throws.reverse()   # in play order: the first that disagrees decides, as in the replay
        self.units.reverse()
        #: ``real`` without its holdings: what each deal's state is copied from
        self.base = real.copy(undo=False)
        self.base._hands = {}   # (nothing to copy: each deal sets its own)
        self.teams: Teams | None = None
        self.done: list[TrickDone] = list(done)
        if not fh.held:   # the calls' answers follow from the plays alone: once for every deal
            self.teams, self.done = self._answered(None)

    @classmethod
    def of(cls, fh: FriendsHand, real: HandState, ti: int, k: int) -> DealReplay | None:
        """The replay of one decision (see :meth:`FriendsHand.replay_once`)."""
        tricks = fh.hand.tricks
        if (type(real) is not HandState or real.seats != fh.seats or real.dealer != fh.dealer
                or real.trick_number != ti + 1 or len(real.tricks) != ti or len(real.plays) != k):
            return None
        done = real.tricks
        for i in range(ti + 1):
            rec = tricks[i].plays[:k] if i == ti else tricks[i].plays
            got = real.plays if i == ti else done[i].plays
            attempted = real.attempted if i == ti else done[i].attempted
            # each play as the replay pushes it (a failed throw: the forced unit, as the engine writes it)
            if len(got) != len(rec) or any(seat != p.seat or (c != tuple(p.cards) if j or not p.attempted
                                                              else sorted(c) != sorted(p.cards))
                                           for j, ((seat, c), p) in enumerate(zip(got, rec, strict=True))):
                return None
            if rec and attempted != (tuple(rec[0].attempted) if rec[0].attempted else None):
                return None
        return cls(fh, real, ti, k)

    def _answered(self, holdings: Mapping[str, Mapping[int, int]] | None) -> tuple[Teams, list[TrickDone]]:
        """The hand's calls answered by the tricks before the decision, the calls assigned
        from ``holdings`` (each seat's cards at the start) under ``held``; the finished
        tricks with the teams before each."""
        fh = self.fh
        calls = fh.calls()
        if holdings is not None:   # held: the holder nearest the dealer, as this deal says
            assign_holders(calls, fh.ring, holdings)
        teams = Teams.forming(fh.dealer, calls, held=fh.held)
        done = []
        for t in self.real.tricks:
            before = teams.snapshot()
            teams.answer(t.number, t.plays)
            done.append(t if before == t.teams_before else
                        t._replace(friends_before=before[0], skips_before=before[1], team_before=before[2]))
        return teams, done

    def state(self, hands: Mapping[str, Sequence[int]], kitty_points: int) -> HandState | None:
        """The state before the decision in the deal where each seat holds ``hands`` now
        (None: the record's plays would not come out the same in it)."""
        fh = self.fh
        now = {s: Counter(hands[s]) for s in fh.seats}
        ctx = fh.ctx
        order, rs = ctx.order, ctx.ruleset
        eff = order.eff
        of_suit: dict[tuple[str, int], dict[int, int]] = {}   # (seat, suit) → its cards of the suit now
        for (cards, suit, ring, since, got), units in zip(self.throws, self.units, strict=True):
            if suit is None:
                held_then = [now[s] + more for s, more in zip(ring, since, strict=True)]
                chk = check_throw(cards, 0, held_then, ring, order, rs, units)
            else:
                # a throw of one suit: the others' cards of it then (all check_throw reads of the
                # holdings), checked as the engine does (check_suited_throw, as pov._throws_agree)
                suited = []
                for s, more in zip(ring[1:], since[1:], strict=True):
                    mine = of_suit.get((s, suit))
                    if mine is None:
                        mine = of_suit[s, suit] = {c: m for c, m in now[s].items() if eff[c] == suit}
                    if more:
                        same = dict(mine)
                        for c, m in more.items():
                            same[c] = same.get(c, 0) + m
                    else:
                        same = mine   # (check_suited_throw only reads it)
                    suited.append((s, same))
                chk = check_suited_throw(units, suited, ring[1:], order, rs)
            played = tuple(chk.forced.cards) if chk.blockers and chk.forced is not None else cards
            if played != got:
                if sorted(played) == sorted(got):   # the same unit in another order: replay it whole
                    start = {s: self.played[s] + list(hands[s]) for s in fh.seats}
                    return fh.replayed(start, kitty_points, self.ti, self.k)
                return None
        st = self.base.copy(undo=False)
        st.kitty_points = kitty_points
        # each holding as the replay leaves it: the start's keys in the order first seen, less the cards played
        held: dict[str, Counter[int]] = {}
        keys = self.keys
        for s in fh.seats:
            hc = now[s]
            h: Counter[int] = Counter()
            for card in keys[s]:   # the cards played before and held still, in the order first played
                copies = hc.get(card)
                if copies:
                    h[card] = copies
            if not h:   # no card of it played before: the hand's own order
                held[s] = hc
                continue
            dict.update(h, hc)   # then the others in the hand's order (the counts set, not added)
            held[s] = h
        st._hands = held
        if self.teams is not None:
            st._teams, st._done = self.teams.copy(), list(self.done)
        else:
            st._teams, st._done = self._answered({s: self.start_counts[s] + now[s] for s in fh.seats})
        return st


class FriendsContext(HandContext):
    """The per-hand context the pattern rules (SJ601, SJ603–SJ606) get on a
    finding-friends hand: every holding is known (a complete hand's plays),
    the engine's state at each play carries the hand's calls as the real
    tricks answered them (:meth:`FriendsHand.start_state`, then the record's
    plays), so a rule asks who is revealed as of that play
    (:func:`analyzer.review.mistakes.rules._shared.known_sides`, by
    ``reveals``). No exact search (four-seat only: SJ602, SJ610, SJ611 do
    not run) and no level outcome (it depends on the final teams): a
    pattern is only the explanation of a valued decision."""

    #: the states carry the calls: the rules may ask what is revealed (rules/_shared.known_sides)
    reveals = True

    def __init__(self, hand: HandResult, *, record_hand: RecordHand | None = None,
                 match: MatchResult | None = None) -> None:
        super().__init__(hand, record_hand=record_hand, endgame_tricks=0, search_budget=None, match=match,
                         samples=0)
        self.fh = FriendsHand(self)

    @cached_property
    def all_known(self) -> bool:
        return self.fh.why_not() is None

    @cached_property
    def searchable(self) -> bool:
        return False

    def level_change(self, actual_total: int, better_total: int, *, actual_hooked: bool | None = None,
                     better_hooked: bool | None = None, actual_label: str = "in the hand",
                     better_label: str = "with the better play") -> str | None:
        return None

    def _new_state(self, t_index: int) -> HandState:
        if t_index == 0:
            start = dict(zip(self.fh.seats, self.hands_before(0), strict=True))
            return self.fh.start_state(start, points(self.kitty_cards or ()))
        for i in range(1, t_index):   # built trick by trick (no deep recursion)
            self.state(i, 0)
        last = len(self.hand.tricks[t_index - 1].plays) - 1
        st = self.state(t_index - 1, last).copy()
        self.fh.push(st, t_index - 1, last)
        return st


def sample_states(fh: FriendsHand, real: HandState, seat: str, ti: int, k: int, n: int,
                  seed: int = SEED, *, replay_once: bool = True, batch: int = 0) -> list[HandState]:
    """Up to ``n`` states before play ``k`` of trick ``ti``, each a deal of the
    hidden cards consistent with what ``seat`` has seen (see the module doc).
    ``real``: the real state there (only its public facts are read: the hand
    sizes, the voids shown, the cards hidden from ``seat`` as one sorted set).
    ``batch``: the sequential sampling's batch (0: the first; each batch its own seed)."""
    ctx = fh.ctx
    seats = fh.seats
    me = seats.index(seat)
    kitty = tuple(ctx.kitty_cards or ())
    slots = [i for i in range(len(seats)) if i != me]
    sizes = {i: sum(real.holding(seats[i]).values()) for i in slots}
    pool = [c for i in slots for c in real.holding(seats[i]).elements()]
    knows_kitty = ctx.burier == seat
    kslot = len(seats)
    if not knows_kitty:
        sizes[kslot] = len(kitty)
        pool += list(kitty)
    pool.sort()   # a set the player can know, never in who-holds-what order
    void_of: dict[int, set[int]] = {i: set(real.shown_voids(seats[i])) for i in slots}
    void_of[kslot] = set()
    played = fh.played_before(ti, k)
    mine = list(real.holding(seat).elements())
    snap = _revealed(real)
    pins = pinned(ctx, seat, ti, k, {seats[i]: i for i in slots}, None if knows_kitty else kslot,
                  pool, sizes, void_of)
    if pins:   # the declarations' cards (pov.pinned), dealt to their holders first
        pool = sorted((Counter(pool) - Counter(c for c, _ in pins)).elements())
    rng = random.Random(f"{seed}:{ctx.hand.number}:{ti}:{k}:{seat}:friends" + (f":{batch}" if batch else ""))
    fast = fh.replay_once(real, ti, k) if replay_once else None
    out: list[HandState] = []
    dealer = Dealer(pool, sizes, void_of, ctx.order.eff, rng, pins=pins)   # = _deal(..., rng, pins=pins) a deal
    for _ in range(n * RETRIES):
        if len(out) == n:
            break
        deal = dealer(n - len(out))
        if deal is None:
            continue
        kp = points(deal[kslot]) if kslot in deal else points(kitty)
        if fast is not None:
            st = fast.state({s: mine if i == me else deal[i] for i, s in enumerate(seats)}, kp)
        else:
            st = fh.replayed({s: played[s] + (mine if i == me else deal[i]) for i, s in enumerate(seats)}, kp, ti, k)
        if st is None or _revealed(st) != snap or st.team != real.team:
            continue   # the record's plays or reveals would not come out the same: not this deal
        out.append(st)
    return out


def _revealed(st: HandState) -> tuple[tuple[str | None, int | None], ...]:
    """Each call's answer as far as it is revealed (seat and trick once answered,
    else nothing: under the ``held`` rule a holder assigned before play is not
    known to the other players until the card is played)."""
    return tuple((seat, trick) if trick is not None else (None, None) for seat, trick in st.teams.snapshot()[0])


def options(ctx: HandContext, st: HandState, chosen: tuple[int, ...]) -> tuple[list[tuple[int, ...]], int]:
    """The options of the seat to play in ``st`` (see the module doc) and how many were left out."""
    if st.plays:
        moves = [tuple(sorted(m)) for m in st.legal_follows()]
    else:
        moves = [tuple(sorted(m)) for m in st.unit_leads()]
    rest = [m for m in dict.fromkeys(moves) if m != chosen]
    keep = MAX_OPTIONS - 1
    capped = max(0, len(rest) - keep)
    if capped:
        key = ctx.order.key
        rest.sort(key=lambda m: (sum(POINTS[c] for c in m), sum(key[c] for c in m), m))
        step = (len(rest) - 1) / (keep - 1)
        rest = [rest[round(i * step)] for i in range(keep)]
    return [chosen] + rest, capped


def playout(st: HandState, play: tuple[int, ...], bot: Bot) -> HandState | PlayedOut | None:
    """``st`` after ``play`` with the bots playing the rest of the hand (seeing
    the team as revealed so far; the native core's :class:`PlayedOut` where it plays it);
    None when it cannot be played out."""
    from analyzer.review.mistakes.decisions import play_to_end
    return play_to_end(st, play, bot, friends=True)


def level_of(fh: FriendsHand, end: HandState | PlayedOut) -> float:
    """The hand's level outcome in a played-out deal, from the dealers' side
    (+levels when they keep the deal, −(1 + levels) when it passes):
    :func:`replay.friend_calls.friends_outcome` with the deal's final team."""
    h = fh.hand
    if h.outcome is None or not h.levels:
        return 0.0
    team = tuple(end.team)
    key = (team, end.final_points)
    got = fh.levels.get(key)   # (a function of the final team and total: once a hand each)
    if got is None:
        try:
            o = friends_outcome(fh.ctx.ruleset, h.levels, fh.dealer, team, fh.seats, end.final_points)
        except (KeyError, ValueError):
            got = 0.0
        else:
            got = outcome_score(o)
        fh.levels[key] = got
    return got


class SignedRows:
    """The per-deal rows of finding-friends play-outs, gathered for
    :func:`~analyzer.review.mistakes.decisions.finish`: per deal and option
    the attackers' final total and the dealers' level score, and the same
    signed from ``seat``'s side as each play-out's teams turned out (who the
    friends are follows from each deal, so the side can differ by deal)."""

    def __init__(self, fh: FriendsHand, seat: str) -> None:
        self.fh, self.seat = fh, seat
        self.rows: list[list[float]] = []    # per deal, per option: the attackers' final total
        self.lev: list[list[float]] = []     # the level score, dealers' side
        self.srows: list[list[float]] = []   # the same from the seat's side as each play-out turned out
        self.slev: list[list[float]] = []
        self.on_team = 0                     # deals where the seat was on the dealer's team

    def add(self, ends: Sequence[HandState | PlayedOut]) -> None:
        """One deal's play-out ends, one per option."""
        totals = [float(e.final_points) for e in ends]
        levels = [level_of(self.fh, e) for e in ends]
        mine = [e.defends(self.seat) for e in ends]
        self.rows.append(totals)
        self.lev.append(levels)
        self.srows.append([(self.fh.line - v) if m else (v - self.fh.line) for v, m in zip(totals, mine, strict=True)])
        self.slev.append([v if m else -v for v, m in zip(levels, mine, strict=True)])
        self.on_team += mine[0]

    def finish(self, ctx: HandContext, d: Decision, opts: Sequence[tuple[int, ...]]) -> None:
        """Value ``d`` over the deals gathered, or say why it cannot be."""
        d.samples = len(self.rows)
        if len(self.rows) < 2:
            d.reason = "the sampled deals could not be played out"
            return
        assert d.friends is not None
        d.friends["dealer_team_deals"] = self.on_team
        finish(ctx, d, list(opts), self.rows, self.lev, 0, signed=(self.srows, self.slev))


def value_friends_decision(fh: FriendsHand, real: HandState, ti: int, k: int, *, samples: int = SAMPLES,
                           max_samples: int | None = None, seed: int = SEED) -> Decision:
    """The :class:`Decision` of play ``k`` of trick ``ti`` (0-based) from its
    player's view; ``real``: the real state before it. ``samples`` deals first; where
    the decision is unsure, valued again on ``max_samples − samples`` new deals
    (:func:`analyzer.review.mistakes.decisions.value_decision`'s sequential sampling;
    None: ``samples`` deals, fixed)."""
    from analyzer.play.bot import Bot
    from analyzer.review.mistakes.decisions import option_ends, second_look
    ctx, h = fh.ctx, fh.hand
    t = h.tricks[ti]
    p = t.plays[k]
    chosen = tuple(sorted(p.attempted or p.cards))
    kind = "follow" if k else ("throw" if ctx.is_throw(chosen) else "lead")
    d = Decision(h.number, t.number, k, p.seat, kind, chosen, friends={"valued": VALUED})
    if (len(real.legal_follows(limit=2)) <= 1 if k else (len(real.unit_leads()) <= 1 and kind != "throw")):
        d.forced = True   # one legal option: no decision
        return d
    opts, d.capped = options(ctx, real, chosen)
    if len(opts) == 1:
        d.forced = True
        return d
    n = max(2, samples - samples % 2)
    states = sample_states(fh, real, p.seat, ti, k, n, seed)
    if len(states) < n:
        d.reason = "too few deals consistent with what the player saw"
        return d

    def valued(states: Sequence[HandState], start: int, into: Decision) -> Decision:
        """``into`` valued over ``states`` (the bots' seeds numbered from ``start``)."""
        acc = SignedRows(fh, p.seat)
        for j, st in enumerate(states, start=start):
            rng_seed = f"{seed}:{h.number}:{ti}:{k}:{j}:friends"
            ends = option_ends(st, opts, Bot(ctx.ruleset, random.Random(rng_seed)), friends=True)   # = playout a fresh bot an option
            done = [e for e in ends if e is not None]
            if len(done) < len(ends):
                continue   # a deal that cannot be played out is dropped for every option
            acc.add(done)
        acc.finish(ctx, into, opts)
        return into

    valued(states, 0, d)

    def again(more: int) -> Decision | None:
        states = sample_states(fh, real, p.seat, ti, k, more, seed, batch=1)
        if len(states) < 2:
            return None
        return valued(states, n, Decision(h.number, t.number, k, p.seat, kind, chosen, friends={"valued": VALUED},
                                          capped=d.capped, screened=d.samples))
    return second_look(d, n, max_samples, again)


def review_friends_hand(ctx: HandContext, *, samples: int = SAMPLES, max_samples: int | None = None,
                        seed: int = SEED) -> list[Decision]:
    """Every play of a finding-friends hand valued from its player's view (the
    hand must be reviewable: :meth:`FriendsHand.why_not` is None)."""
    fh = FriendsHand(ctx)
    h = ctx.hand
    real = fh.start_state(dict(zip(fh.seats, h.tricks[0].hands_before, strict=True)), points(ctx.kitty_cards or ()))
    out: list[Decision] = []
    for ti, t in enumerate(h.tricks):
        for k in range(len(t.plays)):
            out.append(value_friends_decision(fh, real, ti, k, samples=samples, max_samples=max_samples, seed=seed))
            fh.push(real, ti, k)
    return out


__all__ = ["FriendsHand", "FriendsContext", "sample_states", "options", "playout", "level_of", "value_friends_decision",
           "review_friends_hand", "VALUED", "RETRIES"]
