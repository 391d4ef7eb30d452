"""tonyyunyang/80-fen-shengji completed-deal replays, JSON version 2 (``80fen-v2``).

One v2 object is one deal: an SJN hand, ``[Rules "80fen"]``. Consecutive
deals of one ``gameId`` (a JSON list of v2 objects) make one record. The
object may come bare, inside its storage envelope
(``{"encoding": "gzip+base64", "data": …}``) or as a database row whose
``replay_json`` holds either. What is read (see
``shared/real-logs/80fen-replay-v2/FORMAT.md``):

* ``levelsBefore`` → ``levels`` (team 0 = seats 0+2 = N+S); ``dealer``;
  ``trump`` (``suit: null`` → NT); ``deal.first`` → ``first``;
  ``deal.hands`` (draw order) → seat lines; ``deal.kitty``; ``buried`` → ``bury``.
* ``declaration`` events → ``declare`` lines; ``@k`` is exact: the draws
  (``deal.draws``, each with its ``seq``) of that seat made before the event.
* ``play`` events grouped by their ``trick`` index; a ``throw_failed`` event
  makes the seat's next play ``proposed -> forced``.
* ``trick`` events (winner, points) and ``round_scored`` (the total) become
  claims; the total is also the ``points`` line.
* ``deal_started``, ``cut``, ``pass``, ``dealing_complete``, ``trump_set``,
  ``rebel_choice``, ``decision_applied`` are known and carry nothing more;
  other events are SJ702. Version 1 replays (bare event lists, no hands) are
  not replayable: SJ701.

Card ids: ``id % 54`` is exactly the project's card int (suits S H D C, rank
``face % 13 + 2``, 52 = LJ, 53 = BJ). Seats 0..3 are S, E, N, W, as in the
source.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from collections import Counter
from typing import Any

from analyzer.io.importers import _json
from analyzer.io.importers._common import SOURCE_SEATS, Claim, ImportResult, LogImporter, seat_of, span_at, tags_for
from notation.limits import MAX_DECOMPRESSED
from notation.model import Bury, Declaration, Hand, Levels, Play, Record, SeatCards, Trick
from primitives.cards import rank_name
from primitives.diagnostics import Span

RULES = "80fen"
FORMAT = "eighty-completed-deal"
_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3}
_KNOWN = {"deal_started", "cut", "pass", "dealing_complete", "trump_set", "rebel_choice", "decision_applied"}


def card(value: Any) -> int | None:
    """A card id (0..107) or card object ``{id, suit, rank}`` → card int."""
    if isinstance(value, dict):
        value = value.get("id")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 107:
        return None
    return value % 54



class _TooBig(Exception):
    """A compressed block expands past :data:`notation.limits.MAX_DECOMPRESSED`."""


def _gunzip(data: bytes) -> bytes:
    """``gzip.decompress(data)``, but never more than ``MAX_DECOMPRESSED`` bytes
    (a gzip bomb: 1 MB that expands to gigabytes). Raises :class:`_TooBig`."""
    out = bytearray()
    while data:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)  # one gzip member
        out += d.decompress(data, MAX_DECOMPRESSED + 1 - len(out))
        if len(out) > MAX_DECOMPRESSED or d.unconsumed_tail:
            raise _TooBig
        if not d.eof:
            raise EOFError("compressed file ended before the end-of-stream marker was reached")
        data = d.unused_data.lstrip(b"\0")
    return bytes(out)

class _Importer(LogImporter):
    def run(self) -> ImportResult:
        result = ImportResult(diagnostics=self.sink.items, claims=self.claims)
        doc = _json.read(self.text)
        if doc.error:
            line, col, msg = doc.error
            self.sink.add("SJ701", (line, col), f"the replay is not complete JSON: {msg}"
                                                + ("; what comes before is imported" if doc.found else ""))
        deals: list[tuple[dict[str, Any], _json.JsonDoc, _json.Path]] = []
        value = doc.value
        if isinstance(value, list) and value and all(isinstance(v, dict) and "type" in v for v in value[:3]):
            self.sink.add("SJ701", doc.pos(), "a version 1 replay (a bare list of public events) has no hands "
                                              "and cannot be replayed")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.unwrap(item, doc, (i,), deals)
        elif value is not None:
            self.unwrap(value, doc, (), deals)
        elif not doc.error:
            self.sink.add("SJ701", doc.pos(), "not an 80fen completed-deal replay")
        records: list[Record] = []
        last_game = object()
        for obj, d, base in deals:
            game = obj.get("gameId")
            if not records or game != last_game:
                gid = game if isinstance(game, (str, int)) and not isinstance(game, bool) else ""
                extra = []
                gates = (obj.get("rules") or {}).get("gates") if isinstance(obj.get("rules"), dict) else None
                if isinstance(gates, list) and gates and all(isinstance(g, int) and 2 <= g <= 14 for g in gates) \
                        and sorted(gates) != [2, 5, 10, 13]:
                    extra.append(("Rule.must_play", ",".join(rank_name(g) for g in sorted(set(gates)))))
                if isinstance(obj.get("ruleset"), str):
                    extra.append(("Variant", obj["ruleset"]))
                records.append(Record(tags=tags_for(event=f"80 fen game {gid}".strip(), site="80fen",
                                                    rules=RULES, source=self.source, extra=extra)))
                last_game = game
            hand = self.hand(obj, d, base, len(records[-1].hands) + 1, len(records) - 1)
            records[-1].hands.append(hand)
        result.records.extend(rec for rec in records if rec.hands)
        result.diagnostics.sort(key=lambda x: (x.line, x.column, x.code))
        return result

    # -- envelopes ----------------------------------------------------------------------------
    def unwrap(self, obj: Any, doc: _json.JsonDoc, base: _json.Path,
               out: list[tuple[dict[str, Any], _json.JsonDoc, _json.Path]]) -> None:
        if not isinstance(obj, dict):
            self.sink.add("SJ701", doc.pos(*base), "expected a replay object")
            return
        if "replay_json" in obj:                              # a database row
            inner = obj["replay_json"]
            if isinstance(inner, str):
                sub = _json.read(inner)
                sub.pinned = doc.pos(*base, "replay_json")
                if not sub.complete:
                    self.sink.add("SJ701", doc.pos(*base, "replay_json"), "`replay_json` is not complete JSON")
                    if not sub.found:
                        return
                self.unwrap(sub.value, sub, (), out)
            else:
                self.unwrap(inner, doc, base + ("replay_json",), out)
            return
        if obj.get("encoding") is not None or ("data" in obj and "format" not in obj):
            if obj.get("encoding") != "gzip+base64" or not isinstance(obj.get("data"), str):
                self.sink.add("SJ701", doc.pos(*base), f"unknown replay encoding {obj.get('encoding')!r}")
                return
            try:
                raw = _gunzip(base64.b64decode(obj["data"], validate=False)).decode("utf-8")
            except _TooBig:
                self.sink.add("SJ701", doc.pos(*base, "data"), "the replay data expands past "
                              f"{MAX_DECOMPRESSED >> 20} MiB (the limit of a compressed log); not read")
                return
            except (binascii.Error, OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError) as exc:
                self.sink.add("SJ701", doc.pos(*base, "data"), f"the replay data cannot be decoded ({exc})")
                return
            sub = _json.read(raw)
            sub.pinned = doc.pos(*base, "data")
            if not sub.complete:
                self.sink.add("SJ701", doc.pos(*base, "data"), "the decoded replay is not complete JSON")
                if not sub.found:
                    return
            self.unwrap(sub.value, sub, (), out)
            return
        fmt, version = obj.get("format"), obj.get("version")
        if fmt != FORMAT:
            self.sink.add("SJ701", doc.pos(*base, "format") if "format" in obj else doc.pos(*base),
                          f"not an 80fen completed-deal replay: its `format` is {fmt!r}, not {FORMAT!r}"
                          if "format" in obj else
                          f"not an 80fen completed-deal replay: no `format` field (expected {FORMAT!r})")
            return
        if version != 2:
            self.sink.add("SJ701", doc.pos(*base, "version") if "version" in obj else doc.pos(*base),
                          f"replay version {version!r}: only version 2 holds the hands" if "version" in obj
                          else "the replay has no `version` field: only version 2 holds the hands")
            return
        out.append((obj, doc, base))

    # -- one deal ---------------------------------------------------------------------------------
    def ids(self, value: Any, doc: _json.JsonDoc, path: _json.Path, what: str) -> list[int] | None:
        if not isinstance(value, list):
            self.sink.add("SJ705", doc.span(*path), f"{what}: expected a list of cards")
            return None
        out, ok = [], True
        for i, v in enumerate(value):
            c = card(v)
            if c is None:
                shown = v.get("id") if isinstance(v, dict) else v
                where = doc.span(*path, i, "id") if isinstance(v, dict) and "id" in v else doc.span(*path, i)
                self.sink.add("SJ703", where, f"{what}: {shown!r} is not a card id 0..107")
                ok = False
            else:
                out.append(c)
        return out if ok else None

    def hand(self, obj: dict[str, Any], doc: _json.JsonDoc, base: _json.Path, number: int, record_index: int) -> Hand:
        def at(*path: Any) -> Span:
            return doc.span(*base, *path)

        line, col = doc.pos(*base)
        hand = Hand(number=number, span=span_at(line, col))
        lb = obj.get("levelsBefore")
        if isinstance(lb, list) and len(lb) == 2 and all(isinstance(x, int) and 2 <= x <= 14 for x in lb):
            hand.levels = Levels(ns=lb[0], ew=lb[1], span=at("levelsBefore"))
        elif lb is not None:
            self.sink.add("SJ705", at("levelsBefore"), f"levelsBefore {lb!r} should be two ranks 2..14; ignored")
        dealer = seat_of(obj.get("dealer"))
        if dealer is not None:
            hand.dealer, hand.dealer_span = dealer, at("dealer")
        elif "dealer" in obj:
            self.sink.add("SJ705", at("dealer"), f"dealer {obj.get('dealer')!r} is not a seat 0..3")
        trump = obj.get("trump")
        if isinstance(trump, dict):
            suit = trump.get("suit")
            if suit is None:
                hand.trump = 4
            elif isinstance(suit, str) and suit in _SUITS:  # a list or an object: SJ705, not a crash
                hand.trump = _SUITS[suit]
            else:
                self.sink.add("SJ705", at("trump", "suit"), f"trump suit {suit!r} is not S, H, D, C or null")
            if hand.trump is not None:
                hand.trump_span = at("trump")
            rank = trump.get("rank")
            if isinstance(hand.levels, Levels) and dealer is not None and isinstance(rank, int):
                want = hand.levels.ns if dealer in ("N", "S") else hand.levels.ew
                if rank != want:
                    self.sink.add("SJ705", at("trump", "rank"), f"trump rank {rank} is not the dealer team's "
                                                                f"level {want}")
        raw_deal = obj.get("deal")
        deal = raw_deal if isinstance(raw_deal, dict) else {}
        first = seat_of(deal.get("first"))
        if first is not None:
            hand.first = first
        hands = deal.get("hands")
        dealt: dict[str, list[int]] = {}
        if isinstance(hands, list) and len(hands) == 4:
            for p in range(4):
                got = self.ids(hands[p], doc, base + ("deal", "hands", p), "hand")
                if got is not None:
                    dealt[SOURCE_SEATS[p]] = got
            if len(dealt) == 4:
                for s in ("N", "W", "S", "E"):
                    hand.deal.append(SeatCards(seat=s, cards=tuple(dealt[s]), span=at("deal", "hands")))
        elif hands is not None:
            self.sink.add("SJ705", at("deal", "hands"), "deal.hands should be 4 lists; the deal is left out")
        kitty = deal.get("kitty")
        if kitty is not None:
            got = self.ids(kitty, doc, base + ("deal", "kitty"), "kitty")
            if got is not None:
                hand.kitty, hand.kitty_span = tuple(got), at("deal", "kitty")
        # draws: seq of each seat's draws, for @k
        draw_seqs: dict[int, list[int]] = {0: [], 1: [], 2: [], 3: []}
        draws = deal.get("draws")
        if isinstance(draws, list):
            for i, dr in enumerate(draws):
                if isinstance(dr, dict) and seat_of(dr.get("seat")) and isinstance(dr.get("seq"), int):
                    draw_seqs[dr["seat"]].append(dr["seq"])
                    if first is not None and seat_of(dr["seat"]) != seat_of((deal["first"] + i) % 4):
                        self.sink.add("SJ705", doc.span(*base, "deal", "draws", i),
                                      "draws do not go round the table from `first`")
                        break
        events = obj.get("events")
        self._has_cut = False
        shown: dict[str, tuple[int, ...]] = {}
        pending: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        cur_index: Any = object()
        if not isinstance(events, list):
            self.sink.add("SJ705", at("events") if "events" in obj else at(), "no `events` list: no plays")
            events = []
        for i, ev in enumerate(events):
            path = ("events", i)
            if not isinstance(ev, dict):
                self.sink.add("SJ705", at(*path), "an event must be an object; skipped")
                continue
            kind = ev.get("type")
            if not isinstance(kind, str):
                self.sink.add("SJ705", at(*path), "an event without a `type`; skipped")
                continue
            if kind == "declaration":
                seat = seat_of(ev.get("seat"))
                cards = self.ids(ev.get("cards"), doc, base + path + ("cards",), "declared card")
                if seat is None or not cards:
                    if seat is None:
                        self.sink.add("SJ705", at(*path), "a declaration without a seat 0..3; skipped")
                    continue
                strength = ev.get("strength")
                prev = shown.get(seat, ())
                if len(cards) == 1 and isinstance(strength, int) and strength >= 2 and cards[0] in prev:
                    cards = list(prev) + cards           # a reinforcement shown as the added card only
                k = None
                if isinstance(ev.get("seq"), int) and draw_seqs[ev["seat"]]:
                    k = sum(1 for q in draw_seqs[ev["seat"]] if q < ev["seq"]) or None
                shown[seat] = tuple(cards)
                line, col = doc.pos(*base, *path)
                hand.events.append(Declaration(seat=seat, cards=tuple(cards), at=k, span=span_at(line, col)))
            elif kind == "throw_failed":
                seat = seat_of(ev.get("seat"))
                proposed = self.ids(ev.get("proposed"), doc, base + path + ("proposed",), "thrown card")
                forced = self.ids(ev.get("forced"), doc, base + path + ("forced",), "forced card")
                if seat is not None and proposed and forced is not None:
                    pending[seat] = (tuple(proposed), tuple(forced))
            elif kind == "play":
                seat = seat_of(ev.get("seat"))
                cards = self.ids(ev.get("cards"), doc, base + path + ("cards",), "played card")
                if seat is None or cards is None:
                    if seat is None:
                        self.sink.add("SJ705", at(*path), "a play without a seat 0..3; skipped")
                    continue
                idx = ev.get("trick")
                if not hand.tricks or idx != cur_index or len(hand.tricks[-1].plays) >= 4:
                    line, col = doc.pos(*base, *path)
                    hand.tricks.append(Trick(number=len(hand.tricks) + 1, span=span_at(line, col)))
                    cur_index = idx
                line, col = doc.pos(*base, *path)
                play = Play(seat=seat, cards=tuple(cards), span=span_at(line, col))
                if seat in pending:
                    thrown, forced_cards = pending.pop(seat)
                    if hand.tricks[-1].plays:
                        self.sink.add("SJ705", play.span, "a failed throw that is not a lead; attempt dropped")
                    elif Counter(forced_cards) != Counter(cards):
                        self.sink.add("SJ705", play.span, "the play differs from the failed throw's forced "
                                                          "cards; the play is kept, the attempt dropped")
                    else:
                        play.attempted = thrown
                hand.tricks[-1].plays.append(play)
            elif kind == "trick":
                winner = seat_of(ev.get("winner"))
                pts = ev.get("points")
                pts = pts if isinstance(pts, int) and not isinstance(pts, bool) else None
                if hand.tricks:
                    line, col = doc.pos(*base, *path, "winner") if "winner" in ev else doc.pos(*base, *path)
                    self.claims.append(Claim(line=line, column=col, trick=len(hand.tricks), winner=winner,
                                             points=pts, hand=number, record=record_index,
                                             name=f"seat {ev.get('winner')}"))
                    idx = ev.get("index")
                    if idx is not None and idx != cur_index:
                        self.sink.add("SJ705", at(*path, "index"), f"trick {idx!r} closes trick "
                                                                   f"{cur_index!r} of the plays")
            elif kind == "round_scored":
                raw_score = ev.get("score")
                score = raw_score if isinstance(raw_score, dict) else {}
                total = score.get("total")
                if isinstance(total, int) and not isinstance(total, bool):
                    hand.points, hand.points_span = total, at(*path, "score", "total")
                    line, col = doc.pos(*base, *path, "score", "total")
                    self.claims.append(Claim(line=line, column=col, trick=None, winner=None, points=total,
                                             hand=number, record=record_index, kind="total"))
            elif kind == "trump_set":
                t = ev.get("trump")
                if isinstance(t, dict) and hand.trump is not None:
                    suit_code = t.get("suit")
                    set_trump = 4 if suit_code is None else _SUITS.get(suit_code) if isinstance(suit_code, str) else -1
                    if set_trump != hand.trump:
                        self.sink.add("SJ705", at(*path, "trump"), "trump_set differs from the replay's trump")
            elif kind == "cut":
                self._has_cut = True
            elif kind in _KNOWN:
                continue
            elif isinstance(kind, str):
                self.sink.add("SJ702", at(*path, "type"), f"unknown event {kind!r}; skipped")
            else:
                self.sink.add("SJ705", at(*path), "an event without a `type`; skipped")
        if self._has_cut and hand.dealer in ("N", "W", "S", "E"):
            # no dealer was known before this deal (the first taker was cut for): declaring decides,
            # and the replay's dealer is checked against the declarations
            line, col = doc.pos(*base, "dealer")
            self.claims.append(Claim(line=line, column=col, trick=None, winner=hand.dealer, points=None,
                                     hand=number, record=record_index, kind="dealer",
                                     name=f"seat {obj.get('dealer')}"))
            hand.dealer = "?"
        buried = obj.get("buried")
        if buried is not None and dealer is not None:
            got = self.ids(buried, doc, base + ("buried",), "buried card")
            if got is not None:
                line, col = doc.pos(*base, "buried")
                # after the declarations, before the plays
                hand.events.append(Bury(seat=dealer, cards=tuple(got), span=span_at(line, col)))
        return hand


def import_log(text: str, source: str = "") -> ImportResult:
    """Import an 80fen completed-deal replay, version 2 (see the module docstring)."""
    return _Importer(text, source).run()


def looks_like(text: str) -> bool:
    head = text[:20000]
    return bool(re.search(r'"format"\s*:\s*"eighty-completed-deal"', head) or
                re.search(r'"encoding"\s*:\s*"gzip\+base64"', head) or
                re.search(r'"replay_json"\s*:', head))


__all__ = ["import_log", "card", "looks_like", "RULES"]
