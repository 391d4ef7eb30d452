"""shengji.fly.dev (jerryyyu/shengji) room logs: JSONL, one event per line.

A room file holds several rounds; each ``round_start`` opens a hand and the
rounds of one room make one SJN record (``[Rules "shengji-fly"]``). What is
read (see ``shared/real-logs/jerryyyu-shengji-fly/FORMAT.md``):

* ``round_start``: the 108-card ``deck`` (seat ``i % 4`` draws ``deck[i]``,
  from seat 0 whoever deals: ``first S``; the kitty is ``deck[100:]`` in
  order), ``banker`` (the dealer; ``null`` in the first round), ``levels``
  (team 0 = seats 0+2 = N+S), ``trump_rank``, ``players`` (→ name tags).
* ``declare``: a bid, in bid order. The log does not say when during the deal
  it was made, so ``@k`` is the earliest draw at which the bidder held the
  cards and which keeps the bids in order.
* ``trump``: the trump line (``declared: false`` → ``declare none``: the
  trump was flipped from the kitty). In a first round (``banker: null``) the
  hand says ``dealer ?`` (declaring decides) and the event's ``banker`` is a
  claim checked against the declarations; a ``banker`` given in
  ``round_start`` is written as a known dealer.
* ``bury``; ``play`` (grouped into tricks, ``attempted_cards`` → a failed
  throw ``A -> B``); ``trick`` (its winner and points become claims; its
  ``plays`` repair a trick whose ``play`` lines are missing);
  ``round_end`` (``attacker_points`` → the ``points`` line and a claim).
* ``chat``, ``seat_claimed``, ``bot_timing``, ``evaluation_invalidated``
  are not moves and are skipped; any other event is SJ702.

The whole file may also be one JSON document: a list of events, or an object
with an ``events`` list (the shape of the repository's test data).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from analyzer.io.importers._common import (
    SOURCE_SEATS,
    Claim,
    CompassSeat,
    ImportResult,
    earliest_at,
    seat_of,
    span_at,
    tags_for,
)
from analyzer.io.importers._fly_events import (
    FLY_SUITS,
    FLY_TRUMPS,
    IGNORED,
    MOVES,
    PLAYS_ONLY,
    RULES,
    FlyEvent,
    FlyEvents,
)
from notation.model import Bury, Declaration, Hand, Levels, Play, Record, SeatCards, Trick
from primitives.cards import BJ, LJ, parse_rank
from primitives.diagnostics import Span


def card(code: Any) -> int | None:
    """``'H10'`` → ♥10, ``'SA'``, ``'LJ'``, ``'BJ'``; None for anything else."""
    if not isinstance(code, str):
        return None
    if code == "LJ":
        return LJ
    if code == "BJ":
        return BJ
    if len(code) < 2 or code[0] not in FLY_SUITS or code[1:] == "T":
        return None
    try:
        rank = parse_rank(code[1:])
    except ValueError:
        return None
    if not 2 <= rank <= 14 or not (code[1:].isdigit() or code[1:] in "JQKA"):
        return None
    return FLY_SUITS[code[0]] * 13 + rank - 2


@dataclass
class _Round:
    start: FlyEvent
    deal: dict[str, tuple[int, ...]] | None = None
    kitty: tuple[int, ...] | None = None
    banker: CompassSeat | None = None
    levels: tuple[int, int] | None = None
    trump_rank: int | None = None
    players: dict[str, str] = field(default_factory=dict)
    declares: list[tuple[str, tuple[int, ...], FlyEvent]] = field(default_factory=list)
    trump: tuple[int | None, str | None, bool | None, FlyEvent] | None = None
    bury: tuple[str, tuple[int, ...], FlyEvent] | None = None
    tricks: list[Trick] = field(default_factory=list)
    open: list[tuple[Play, FlyEvent]] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    end: FlyEvent | None = None
    attacker_points: int | None = None


class _Importer(FlyEvents):
    def __init__(self, text: str, source: str) -> None:
        super().__init__(text, source)
        self.has_trick_events = False
        self.plays_only = False

    # -- small readers ---------------------------------------------------------------------
    def cards(self, ev: FlyEvent, key: str, *, want: int | None = None) -> tuple[int, ...] | None:
        """The card list ``ev[key]``; None (and a diagnostic) when it is missing or bad."""
        raw = ev.data.get(key)
        if not isinstance(raw, list):
            self.sink.add("SJ705", ev.span(key) if key in ev.data else ev.span(),
                          f"`{ev.data.get('e')}` needs a list of cards in `{key}`; skipped")
            return None
        out = []
        ok = True
        for i, code in enumerate(raw):
            c = card(code)
            if c is None:
                self.sink.add("SJ703", ev.span(key, i), f"not a card: {code!r} (cards are like `SA`, "
                                                        f"`H10`, `LJ`, `BJ`)")
                ok = False
            else:
                out.append(c)
        if not ok:
            return None
        if want is not None and len(out) != want:
            self.sink.add("SJ705", ev.span(key), f"`{key}` holds {len(out)} cards, not {want}; skipped")
            return None
        return tuple(out)

    def seat(self, ev: FlyEvent, key: str = "seat") -> CompassSeat | None:
        s = seat_of(ev.data.get(key))
        if s is None:
            self.sink.add("SJ705", ev.span(key) if key in ev.data else ev.span(),
                          f"`{ev.data.get('e')}` has no seat 0..3 in `{key}` "
                          f"(found {ev.data.get(key)!r}); skipped")
        return s

    # -- the rounds -----------------------------------------------------------------------------
    def run(self) -> ImportResult:
        events = self.events()
        if not self.plays_only and (events or len(self.sink.items) > 1) \
                and not any(isinstance(ev.data.get("e"), str) for ev in events):
            # not this format (one JSON document that is not an event list, JSON lines
            # without an `e`, HTML): one SJ701, not one diagnostic a line
            self.sink.items.clear()
            self.sink.add("SJ701", (1, 1), "not a shengji.fly.dev log: no event (a JSON object with an `e` "
                                           "kind) in the text; expected JSON lines of events, a list of "
                                           "events or an object with an `events` list")
            events = []
        rooms: dict[str, list[FlyEvent]] = {}
        for ev in events:
            room = ev.data.get("room")
            rooms.setdefault(room if isinstance(room, str) else "", []).append(ev)
        result = ImportResult(diagnostics=self.sink.items, claims=self.claims)
        for room, evs in rooms.items():
            record = self.room(room, evs, len(result.records))
            if record is not None:
                result.records.append(record)
        result.diagnostics.sort(key=lambda d: (d.line, d.column, d.code))
        return result

    def room(self, room: str, events: list[FlyEvent], record_index: int) -> Record | None:
        rounds: list[_Round] = []
        cur: _Round | None = None
        for ev in events:
            kind = ev.data.get("e")
            if not isinstance(kind, str):
                self.sink.add("SJ705", ev.span(), "an event without a kind (`e`); skipped")
                continue
            if kind == "round_start":
                cur = self.round_start(ev)
                rounds.append(cur)
            elif kind in MOVES:
                if cur is None:
                    self.sink.add("SJ705", ev.span("e"), f"`{kind}` before any `round_start`; skipped")
                    continue
                getattr(self, "on_" + kind)(cur, ev, len(rounds))
            elif kind in IGNORED:
                continue
            elif isinstance(kind, str):
                self.sink.add("SJ702", ev.span("e"), f"unknown event `{kind}`; skipped")
            else:
                self.sink.add("SJ705", ev.span(), "an event without a kind (`e`); skipped")
        if not rounds:
            return None
        players: dict[str, str] = {}
        for r in rounds:
            for s, n in r.players.items():
                players.setdefault(s, n)
        first_t = events[0].data.get("t")
        record = Record(tags=tags_for(event=f"shengji.fly.dev room {room}" if room else "shengji.fly.dev",
                                      site="shengji.fly.dev", rules=RULES, players=players,
                                      date=first_t if isinstance(first_t, (int, float)) else None,
                                      source=self.source))
        for i, r in enumerate(rounds, 1):
            record.hands.append(self.hand(r, i, record_index))
        return record

    def round_start(self, ev: FlyEvent) -> _Round:
        r = _Round(start=ev)
        d = ev.data
        deck = self.cards(ev, "deck")
        if deck is not None:
            bad = [c for c, n in Counter(deck).items() if n > 2]
            if len(deck) != 108:
                self.sink.add("SJ705", ev.span("deck"), f"the deck has {len(deck)} cards, not 108: the deal "
                                                        f"cannot be rebuilt; the hand keeps its plays only")
            elif bad:
                self.sink.add("SJ705", ev.span("deck"), "the deck holds a card more than twice: the deal "
                                                        "cannot be rebuilt; the hand keeps its plays only")
            else:
                r.deal = {SOURCE_SEATS[s]: tuple(deck[s:100:4]) for s in range(4)}
                r.kitty = tuple(deck[100:108])
        if d.get("banker") is not None:
            r.banker = self.seat(ev, "banker")
        levels = d.get("levels")
        if levels is not None:
            lv = self.ranks(ev, "levels", levels)
            if lv is not None:
                r.levels = (lv[0], lv[1])  # ranks() checks that `levels` has two
        if d.get("trump_rank") is not None:
            got = self.ranks(ev, "trump_rank", [d.get("trump_rank")])
            r.trump_rank = got[0] if got else None
        players = d.get("players")
        if isinstance(players, list):
            for _i, p in enumerate(players):
                if not isinstance(p, dict):
                    continue
                s = seat_of(p.get("seat"))
                if s and isinstance(p.get("name"), str):
                    name = p["name"] + (" (bot)" if p.get("is_bot") is True else "")
                    r.players[s] = name
        return r

    def ranks(self, ev: FlyEvent, key: str, values: Any) -> tuple[int, ...] | None:
        if not isinstance(values, list) or (key == "levels" and len(values) != 2):
            self.sink.add("SJ705", ev.span(key), f"`{key}` should be [team 0 rank, team 1 rank]; ignored")
            return None
        out = []
        for v in values:
            try:
                r = parse_rank(str(v))
            except ValueError:
                r = 0
            if not 2 <= r <= 14:
                self.sink.add("SJ705", ev.span(key), f"`{key}`: {v!r} is not a rank 2..A; ignored")
                return None
            out.append(r)
        return tuple(out)

    def on_declare(self, r: _Round, ev: FlyEvent, hand: int) -> None:
        seat = self.seat(ev)
        cards = self.cards(ev, "cards")
        if seat is None or cards is None:
            return
        if not 1 <= len(cards) <= 2:
            self.sink.add("SJ705", ev.span("cards"), f"a bid shows 1 or 2 cards, not {len(cards)}; skipped")
            return
        r.declares.append((seat, cards, ev))

    def on_trump(self, r: _Round, ev: FlyEvent, hand: int) -> None:
        d = ev.data
        suit = d.get("suit")
        trump = FLY_TRUMPS.get(suit) if isinstance(suit, str) else None
        if suit is not None and trump is None:
            self.sink.add("SJ705", ev.span("suit"), f"trump suit {suit!r} is not S, H, D, C or NT; ignored")
        banker = seat_of(d.get("banker")) if d.get("banker") is not None else None
        if d.get("banker") is not None and banker is None:
            self.sink.add("SJ705", ev.span("banker"), f"banker {d.get('banker')!r} is not a seat 0..3; ignored")
        declared = d.get("declared") if isinstance(d.get("declared"), bool) else None
        if d.get("rank") is not None:
            got = self.ranks(ev, "rank", [d.get("rank")])
            if got and r.trump_rank is not None and got[0] != r.trump_rank:
                self.sink.add("SJ705", ev.span("rank"), f"trump rank {d.get('rank')} differs from the "
                                                        f"round's trump_rank")
        r.trump = (trump, banker, declared, ev)

    def on_bury(self, r: _Round, ev: FlyEvent, hand: int) -> None:
        seat = self.seat(ev)
        cards = self.cards(ev, "cards")
        if seat is not None and cards is not None:
            r.bury = (seat, cards, ev)

    def on_play(self, r: _Round, ev: FlyEvent, hand: int) -> None:
        seat = self.seat(ev)
        cards = self.cards(ev, "cards")
        if seat is None or cards is None:
            return
        attempted = None
        if "attempted_cards" in ev.data and ev.data["attempted_cards"] is not None:
            attempted = self.cards(ev, "attempted_cards")
        line, col = ev.pos()
        play = Play(seat=seat, cards=cards, attempted=attempted, span=span_at(line, col))
        if ev.data.get("engine_resolution") == "failed_throw_forced" and attempted is None:
            play.comments.append("a failed throw: the log keeps only the forced cards")
        if attempted is not None and r.open:
            self.sink.add("SJ705", ev.span("attempted_cards"), "only a lead can be a failed throw; "
                                                               "the attempt is dropped")
            play.attempted = None
        if len(r.open) >= 4:
            self.close_trick(r, None, hand)   # a trick whose `trick` line is missing
        r.open.append((play, ev))
        if len(r.open) == 4 and not self.has_trick_events:
            self.close_trick(r, None, hand)

    def close_trick(self, r: _Round, trick_ev: FlyEvent | None, hand: int) -> None:
        plays = [p for p, _ in r.open]
        first = r.open[0][1] if r.open else trick_ev
        r.open = []
        if not plays:
            return
        line, col = first.pos() if first else (0, 0)
        end_line = trick_ev.pos()[0] if trick_ev else plays[-1].span.line
        r.tricks.append(Trick(number=len(r.tricks) + 1, plays=plays,
                              span=Span(line, col, end_line, col + 1)))

    def on_trick(self, r: _Round, ev: FlyEvent, hand: int) -> None:
        listed = self.trick_plays(ev)
        if listed is not None:
            have = [(p.seat, Counter(p.cards)) for p, _ in r.open]
            want = [(p.seat, Counter(p.cards)) for p in listed]
            if have != want:
                if len(have) < len(want) and have == want[:len(have)]:
                    self.sink.add("SJ705", ev.span("plays"), f"{len(want) - len(have)} play(s) of this trick "
                                                             f"have no `play` line; taken from `plays`")
                    r.open = r.open + [(p, ev) for p in listed[len(have):]]
                else:
                    self.sink.add("SJ705", ev.span("plays"), "the trick's `plays` differ from its `play` "
                                                             "lines; the `play` lines are kept")
        self.close_trick(r, ev, hand)
        winner = seat_of(ev.data.get("winner"))
        pts = ev.data.get("points")
        pts = pts if isinstance(pts, int) and not isinstance(pts, bool) else None
        if winner is None and "winner" in ev.data:
            self.sink.add("SJ705", ev.span("winner"), f"trick winner {ev.data.get('winner')!r} is not a seat")
        if r.tricks and (winner is not None or pts is not None):
            line, col = ev.pos("winner") if "winner" in ev.data else ev.pos()
            r.claims.append(Claim(line=line, column=col, trick=len(r.tricks), winner=winner, points=pts,
                                  hand=hand, name=f"seat {ev.data.get('winner')}" if winner else None))

    def trick_plays(self, ev: FlyEvent) -> list[Play] | None:
        raw = ev.data.get("plays")
        if not isinstance(raw, list):
            return None
        out = []
        for i, item in enumerate(raw):
            if not isinstance(item, dict):
                return None
            seat = seat_of(item.get("seat"))
            cards = []
            codes = item.get("cards")
            for _j, code in enumerate(codes if isinstance(codes, list) else [None]):
                c = card(code)
                if c is None:
                    return None
                cards.append(c)
            if seat is None:
                return None
            line, col = ev.pos("plays", i)
            out.append(Play(seat=seat, cards=tuple(cards), span=span_at(line, col)))
        return out

    def on_round_end(self, r: _Round, ev: FlyEvent, hand: int) -> None:
        if r.open:
            self.close_trick(r, None, hand)
        r.end = ev
        ap = ev.data.get("attacker_points")
        if isinstance(ap, int) and not isinstance(ap, bool):
            r.attacker_points = ap
            line, col = ev.pos("attacker_points")
            r.claims.append(Claim(line=line, column=col, trick=None, winner=None, points=ap, hand=hand,
                                  kind="total"))
        kitty = ev.data.get("kitty")
        if isinstance(kitty, list) and r.bury is not None:
            got = [card(c) for c in kitty]
            if None not in got and Counter(got) != Counter(r.bury[1]):
                self.sink.add("SJ705", ev.span("kitty"), "round_end's kitty differs from the buried cards")

    # -- building the hand ---------------------------------------------------------------------
    def hand(self, r: _Round, number: int, record_index: int) -> Hand:
        if r.open:
            self.close_trick(r, None, number)
        line, col = r.start.pos()
        hand = Hand(number=number, span=span_at(line, col), first="S")
        if r.levels is not None:
            hand.levels = Levels(ns=r.levels[0], ew=r.levels[1], span=r.start.span("levels"))
        elif number == 1 and r.trump_rank is not None:
            hand.levels = Levels(ns=r.trump_rank, ew=r.trump_rank, span=r.start.span("trump_rank"))
            hand.comments.append("levels: the log gives only the trump rank; both teams are set to it")
        if r.banker is not None:
            # a banker given before the deal: the declarations do not choose the dealer
            hand.dealer, hand.dealer_span = r.banker, r.start.span("banker")
        elif number == 1:
            # the first round: declaring decides; the trump event's banker is checked against it
            hand.dealer = "?"
            if r.trump is not None and r.trump[1] is not None:
                line, col = r.trump[3].pos("banker")
                r.claims.append(Claim(line=line, column=col, trick=None, winner=r.trump[1], points=None,
                                      hand=number, kind="dealer",
                                      name=f"seat {r.trump[3].data.get('banker')}"))
        if r.deal is not None:
            for s in ("N", "W", "S", "E"):
                hand.deal.append(SeatCards(seat=s, cards=r.deal[s], span=r.start.span("deck")))
            hand.kitty = r.kitty
            hand.kitty_span = r.start.span("deck", 100)
        # declarations, with @k when the deal is known
        last = -1
        for seat, cards, ev in r.declares:
            at = None
            if r.deal is not None:
                offset = ("S", "E", "N", "W").index(seat)
                at, t = earliest_at(r.deal[seat], cards, offset, last)
                if at is None:
                    self.sink.add("SJ705", ev.span("cards"), f"seat {ev.data.get('seat')} bids cards it was "
                                                             f"not dealt; written without @k")
                else:
                    last = t
            line, col = ev.pos()
            hand.events.append(Declaration(seat=seat, cards=cards, at=at, span=span_at(line, col)))
        if r.trump is not None:
            trump, _banker, declared, tev = r.trump
            if declared is False:
                if r.declares:
                    self.sink.add("SJ705", tev.span("declared"), "`declared: false` but bids are logged")
                else:
                    line, col = tev.pos()
                    hand.declare_none = span_at(line, col)
            if trump is not None:
                hand.trump = trump
                hand.trump_span = tev.span("suit")
        if r.bury is not None:
            seat, cards, ev = r.bury
            line, col = ev.pos()
            hand.events.append(Bury(seat=seat, cards=cards, span=span_at(line, col)))
        hand.tricks = r.tricks
        if r.attacker_points is not None and r.end is not None:
            hand.points = r.attacker_points
            hand.points_span = r.end.span("attacker_points")
        for c in r.claims:
            self.claims.append(Claim(**{**c.__dict__, "record": record_index}))
        return hand


def import_log(text: str, source: str = "") -> ImportResult:
    """Import a shengji.fly.dev room log (see the module docstring)."""
    imp = _Importer(text, source)
    imp.has_trick_events = re.search(r'"e"\s*:\s*"trick"', text) is not None
    return imp.run()


def looks_like(text: str) -> bool:
    head = text.lstrip()[:4000]
    if PLAYS_ONLY.match(head):
        return True
    return ('"e"' in head and ('"round_start"' in head or '"room"' in head)
            and '"stage"' not in head and "eighty-completed-deal" not in head)


__all__ = ["import_log", "card", "looks_like", "RULES"]  # (RULES: every importer module names its rules, api.RULES)
