"""Botzone "Tractor" (双升) match logs: the judge's JSON, card ids 0–107.

One Botzone match is one hand: one SJN record with one hand,
``[Rules "botzone"]``. What is read (see
``shared/real-logs/botzone-tractor/FORMAT.md``):

* ``initdata``: ``allocation`` (each player's 25 ids in draw order → the seat
  lines), ``publiccard`` (the kitty), ``level``; the first deal request names
  the first drawer (``first``).
* deal requests and their responses: a non-empty response is a bid, and ``@k``
  is exact (the number of cards the bidder had been dealt);
* ``banking.major`` of the judge (``h d s c n``) → the ``trump`` line. The
  judge is trusted: the bid card is checked against it, and when the log was
  written with the other common suit table (``s h c d``) that table is used;
* the banker's ``cover`` response → ``bury``; ``play`` responses, grouped into
  tricks by the judge's ``history`` (a new trick starts when the judge shows
  an empty current trick). When the judge records other cards than the
  player sent (a failed throw, in revisions that check throws) the play is
  written ``attempted -> recorded``;
* ``total_score`` after each trick and the next leader become claims
  (the attackers' running total and the trick's winner).

A log that stops early gives an incomplete hand (the engine's SJ503), not an
import error. A move the judge did not accept (verdict other than ``OK``) ends
the hand there (SJ705).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from analyzer.io.importers import _json
from analyzer.io.importers._common import SOURCE_SEATS, Claim, ImportResult, LogImporter, seat_of, span_at, tags_for
from notation.model import Bury, Declaration, Hand, Levels, Play, Record, SeatCards, Trick
from primitives.cards import BJ, LJ, parse_rank
from primitives.diagnostics import Span

RULES = "botzone"
#: Botzone's rank table: index d // 4 → rank (10 is written ``0``; the Ace comes first)
_SCALE = (14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
#: suit tables (index d % 4 → suit letter): the judge of the published logs, and the one
#: many bots and later ports use
SUIT_TABLES = ("hdsc", "shcd")
_LETTER_SUIT = {"s": 0, "h": 1, "d": 2, "c": 3}
_MAJOR = {"s": 0, "h": 1, "d": 2, "c": 3, "n": 4}


def card(card_id: Any, table: str = "hdsc") -> int | None:
    """Botzone card id → card int (``table``: the suit order, ``hdsc`` by default)."""
    if isinstance(card_id, bool) or not isinstance(card_id, int) or not 0 <= card_id <= 107:
        return None
    d = card_id % 54
    if d == 52:
        return LJ
    if d == 53:
        return BJ
    return _LETTER_SUIT[table[d % 4]] * 13 + _SCALE[d // 4] - 2


class _Importer(LogImporter):
    #: does the next play open a trick (set by each play request)
    new_trick: bool

    def __init__(self, text: str, source: str) -> None:
        super().__init__(text, source)
        self.table = "hdsc"

    def ids(self, value: Any, path: _json.Path, what: str) -> list[int] | None:
        """A list of card ids → cards; None (with diagnostics) when any is bad."""
        if not isinstance(value, list):
            self.sink.add("SJ705", self.doc.span(*path), f"{what}: expected a list of card ids; skipped")
            return None
        out, ok = [], True
        for i, v in enumerate(value):
            c = card(v, self.table)
            if c is None:
                self.sink.add("SJ703", self.doc.span(*path, i), f"{what}: {v!r} is not a card id 0..107")
                ok = False
            else:
                out.append(c)
        return out if ok else None

    def run(self) -> ImportResult:
        result = ImportResult(diagnostics=self.sink.items, claims=self.claims)
        self.doc = doc = _json.read(self.text)
        if doc.error:
            line, col, msg = doc.error
            self.sink.add("SJ701", (line, col), f"the log is not complete JSON: {msg}; what comes before "
                                                f"is imported")
        value = doc.value
        log_path: tuple[str, ...]
        init_path: tuple[str, ...]          # () when there is no initdata (as falsy as None was)
        if isinstance(value, dict) and isinstance(value.get("log"), list):
            log, log_path = value["log"], ("log",)
            init, init_path = value.get("initdata"), ("initdata",)
        elif isinstance(value, list):
            log, log_path, init, init_path = value, (), None, ()
        else:
            if not doc.error or doc.found:
                self.sink.add("SJ701", doc.pos(), "not a Botzone Tractor log: expected an object with a "
                                                  "`log` list (or the list itself)")
            return result
        if isinstance(init, str):        # Botzone sometimes stores initdata as a JSON string
            inner = _json.read(init)
            inner.pinned = doc.pos(*init_path)
            init = inner.value if inner.complete else None
            if init is None:
                self.sink.add("SJ705", doc.span(*init_path), "`initdata` is a string that is not JSON; ignored")
        if init is not None and not isinstance(init, dict):
            self.sink.add("SJ705", doc.span(*init_path), "`initdata` should be an object; ignored")
            init = None
        self.table = self.pick_table(log)
        record = self.hand(log, log_path, init or {}, init_path)
        if record is not None:
            result.records.append(record)
        result.diagnostics.sort(key=lambda d: (d.line, d.column, d.code))
        return result

    # -- the suit table ------------------------------------------------------------------------
    def pick_table(self, log: list[Any]) -> str:
        """``hdsc`` unless the first single bid and the judge's next ``major`` say ``shcd``."""
        bid = None
        for entry in log:
            if not isinstance(entry, dict):
                continue
            if bid is None:
                for key, v in entry.items():
                    if key in ("0", "1", "2", "3") and isinstance(v, dict):
                        r = v.get("response")
                        if isinstance(r, list) and len(r) == 1 and isinstance(r[0], int):
                            bid = r[0]
            else:
                major = b.get("major") if (b := _banking(entry)) else None
                if isinstance(major, str) and major in _MAJOR and major != "n":
                    for table in SUIT_TABLES:
                        c = card(bid, table)
                        if c is not None and c < 52 and c // 13 == _MAJOR[major]:
                            return table
                    return "hdsc"
        return "hdsc"

    # -- the hand --------------------------------------------------------------------------------
    def hand(self, log: list[Any], log_path: _json.Path, init: dict[str, Any], init_path: _json.Path) -> Record | None:
        doc = self.doc
        level = 2
        lv = init.get("level")
        dealt: list[list[int]] = [[], [], [], []]
        first_drawer: int | None = None
        bids: list[tuple[int, list[int], int, _json.Path]] = []   # seat, cards, k, path
        banking: dict[str, Any] = {}
        banking_path: _json.Path = ()
        bury: tuple[int, list[int], _json.Path] | None = None
        tricks: list[list[Play]] = []
        kitty_delivered: list[int] | None = None
        pending: tuple[int, dict[str, Any], _json.Path] | None = None   # (player, request, path)
        finished: tuple[Any, ...] | None = None
        stopped = False
        human = set()
        for i, entry in enumerate(log):
            path = log_path + (i,)
            if not isinstance(entry, dict):
                self.sink.add("SJ705", doc.span(*path), "a log entry must be an object; skipped")
                continue
            if "output" in entry:
                out = entry.get("output")
                if not isinstance(out, dict):
                    self.sink.add("SJ705", doc.span(*path, "output"), "`output` must be an object; skipped")
                    continue
                cmd = out.get("command")
                if cmd == "finish":
                    finished = path + ("output", "content")
                    pending = None
                    continue
                if cmd != "request":
                    self.sink.add("SJ702", doc.span(*path, "output", "command"),
                                  f"unknown judge command {cmd!r}; skipped")
                    continue
                content = out.get("content")
                if not isinstance(content, dict) or len(content) != 1:
                    self.sink.add("SJ705", doc.span(*path, "output", "content"),
                                  "a request goes to one player: `content` should be {player: request}")
                    continue
                (pkey, req), = content.items()
                p = int(pkey) if isinstance(pkey, str) and pkey in ("0", "1", "2", "3") else None
                rpath = path + ("output", "content", pkey)
                if p is None or not isinstance(req, dict):
                    self.sink.add("SJ705", doc.span(*rpath), f"request to an unknown player {pkey!r}; skipped")
                    continue
                g = req.get("global")
                if isinstance(g, dict):
                    if isinstance(g.get("banking"), dict):
                        banking, banking_path = g["banking"], rpath + ("global", "banking")
                    if lv is None and g.get("level") is not None:
                        lv = g.get("level")
                stage = req.get("stage")
                if stage == "deal":
                    got = self.ids(req.get("deliver"), rpath + ("deliver",), "dealt card")
                    if got is not None:
                        if first_drawer is None:
                            first_drawer = p
                        dealt[p].extend(got)
                elif stage == "cover":
                    kitty_delivered = self.ids(req.get("deliver"), rpath + ("deliver",), "kitty")
                elif stage == "play":
                    self.play_request(req, rpath, p, tricks)
                else:
                    self.sink.add("SJ702", doc.span(*rpath, "stage") if "stage" in req else doc.span(*rpath),
                                  f"unknown stage {stage!r}; skipped")
                    continue
                pending = (p, req, rpath)
                continue
            # a player's turn
            keys = [k for k in entry if k in ("0", "1", "2", "3")]
            if len(keys) != 1 or not isinstance(entry[keys[0]], dict):
                self.sink.add("SJ702", doc.span(*path), "a log entry that is neither a judge request nor a "
                                                        "player's response; skipped")
                continue
            p = int(keys[0])
            turn = entry[keys[0]]
            tpath = path + (keys[0],)
            if "time" not in turn and "content" in turn:
                human.add(p)
            if stopped:
                continue
            if pending is None or pending[0] != p:
                self.sink.add("SJ705", doc.span(*tpath), f"player {p} answers, but the judge asked "
                                                         f"{'nobody' if pending is None else f'player {pending[0]}'}; skipped")
                continue
            verdict = turn.get("verdict", "OK")
            if verdict != "OK":
                self.sink.add("SJ705", doc.span(*tpath, "verdict") if "verdict" in turn else doc.span(*tpath),
                              f"player {p}'s move was judged {verdict!r}: the match ends here")
                stopped = True
                continue
            _, req, rpath = pending
            pending = None
            stage = req.get("stage")
            resp = turn.get("response")
            if stage == "deal":
                if resp in ([], None):
                    continue
                got = self.ids(resp, tpath + ("response",), "bid")
                if got is not None:
                    if not 1 <= len(got) <= 2:
                        self.sink.add("SJ705", doc.span(*tpath, "response"),
                                      f"a bid is one or two cards, not {len(got)}; skipped")
                    else:
                        bids.append((p, got, len(dealt[p]), tpath))
            elif stage == "cover":
                got = self.ids(resp, tpath + ("response",), "buried card")
                if got is not None:
                    bury = (p, got, tpath)
            elif stage == "play":
                got = self.ids(resp, tpath + ("response",), "played card")
                if got is not None:
                    if self.new_trick or not tricks:
                        tricks.append([])
                    self.new_trick = False
                    line, col = doc.pos(*tpath, "response")
                    tricks[-1].append(Play(seat=SOURCE_SEATS[p], cards=tuple(got), span=span_at(line, col)))
        # the deal: allocation when given, else the dealt cards
        alloc = init.get("allocation")
        hands: list[list[int]] | None = None
        if alloc is not None:
            if isinstance(alloc, list) and len(alloc) == 4:
                hands = []
                for p in range(4):
                    got = self.ids(alloc[p], init_path + ("allocation", p), "allocation")
                    hands.append(got if got is not None else [])
                if any(len(h) != 25 for h in hands):
                    self.sink.add("SJ705", doc.span(*init_path, "allocation"),
                                  "`allocation` should hold 4 × 25 cards; the deal is left out")
                    hands = None
                elif any(dealt[p] and dealt[p] != hands[p][:len(dealt[p])] for p in range(4)):
                    self.sink.add("SJ705", doc.span(*init_path, "allocation"),
                                  "the cards dealt in the log differ from `allocation`; `allocation` is used")
            else:
                self.sink.add("SJ705", doc.span(*init_path, "allocation"), "`allocation` should be 4 lists")
        if hands is None and all(len(h) == 25 for h in dealt):
            hands = [list(h) for h in dealt]
        kitty = None
        if init.get("publiccard") is not None:
            kitty = self.ids(init.get("publiccard"), init_path + ("publiccard",), "kitty")
        if kitty is None:
            kitty = kitty_delivered
        if kitty is not None and len(kitty) != 8:
            self.sink.add("SJ705", doc.span(*init_path, "publiccard") if "publiccard" in init else doc.span(),
                          f"the kitty has {len(kitty)} cards, not 8; left out")
            kitty = None
        if lv is not None:
            try:
                r = parse_rank("10" if str(lv) == "0" else str(lv))
                level = r if 2 <= r <= 14 else level
            except ValueError:
                self.sink.add("SJ705", doc.span(*init_path, "level") if "level" in init else doc.span(),
                              f"level {lv!r} is not a rank; using 2")
        if first_drawer is None:
            fb = init.get("banker", 0)
            first_drawer = fb if fb in (0, 1, 2, 3) else 0
        line, col = doc.pos(*log_path)
        hand = Hand(number=1, span=span_at(line, col), levels=Levels(ns=level, ew=level),
                    first=seat_of(first_drawer))
        banker = banking.get("banker")
        if bids:
            hand.dealer = "?"               # every accepted bid makes the bidder the banker
            if seat_of(banker):
                line, col = doc.pos(*banking_path, "banker")
                self.claims.append(Claim(line=line, column=col, trick=None, winner=seat_of(banker),
                                         points=None, kind="dealer", name=f"player {banker}"))
        elif isinstance(banker, int) and seat_of(banker):
            hand.dealer = seat_of(banker)
            hand.dealer_span = doc.span(*banking_path, "banker")
        if isinstance(banker, str) and banker:
            self.sink.add("SJ705", doc.span(*banking_path, "banker"),
                          f"the judge wrote {banker!r} as the banker (a known judge bug); ignored")
        if hands is not None:
            for s in ("N", "W", "S", "E"):
                hand.deal.append(SeatCards(seat=s, cards=tuple(hands[("S", "E", "N", "W").index(s)]),
                                           span=doc.span(*init_path, "allocation") if init_path else doc.span()))
        if kitty is not None:
            hand.kitty = tuple(kitty)
            hand.kitty_span = doc.span(*init_path, "publiccard") if init_path and "publiccard" in init else Span()
        for p, cards, k, path in bids:
            # a caller's own pair of the called card reads as the pair (SJN lists all shown cards)
            line, col = doc.pos(*path, "response")
            hand.events.append(Declaration(seat=seat_of(p), cards=tuple(cards), at=k if k else None,
                                           span=span_at(line, col)))
        major = banking.get("major")
        if isinstance(major, str) and major in _MAJOR:
            hand.trump = _MAJOR[major]
            hand.trump_span = doc.span(*banking_path, "major")
            if bids:
                last = bids[-1][1]
                want = 4 if last[0] >= 52 else last[0] // 13
                if want != hand.trump:
                    self.sink.add("SJ705", doc.span(*banking_path, "major"),
                                  f"the judge reports trump {major!r} but the last bid shows "
                                  f"{'jokers' if want == 4 else 'SHDC'[want]}; the judge's letter is kept")
        elif major not in (None, ""):
            self.sink.add("SJ705", doc.span(*banking_path, "major"), f"unknown trump letter {major!r}")
        if bury is not None:
            p, cards, path = bury
            line, col = doc.pos(*path, "response")
            hand.events.append(Bury(seat=seat_of(p), cards=tuple(cards), span=span_at(line, col)))
        for j, plays in enumerate(tricks, 1):
            hand.tricks.append(Trick(number=j, plays=plays, span=plays[0].span))
        if finished is not None:
            content = _get(doc.value, finished)
            if isinstance(content, dict):
                parts = [f"player {k}: {v}" for k, v in sorted(content.items()) if isinstance(k, str)]
                hand.comments.append("Botzone result: " + ", ".join(parts))
        players: dict[str, str] = {SOURCE_SEATS[p]: f"player {p}" + (" (human)" if p in human else "")
                                   for p in range(4)}
        return Record(tags=tags_for(event="Botzone Tractor match", site="botzone", rules=RULES,
                                    players=players, source=self.source), hands=[hand])

    # -- the judge's view of the tricks ---------------------------------------------------------
    def play_request(self, req: dict[str, Any], rpath: _json.Path, p: int, tricks: list[list[Play]]) -> None:
        """A play request: does it open a trick? Check the judge's record of the last one; claims."""
        hist = req.get("history")
        if not (isinstance(hist, list) and len(hist) == 4):
            self.sink.add("SJ705", self.doc.span(*rpath), "a play request without a 4-part `history`; "
                                                          "tricks are grouped by count")
            self.new_trick = not tricks or len(tricks[-1]) >= 4
            return
        last, current, _last_leader, leader = hist
        self.new_trick = isinstance(current, list) and not current
        if not tricks:
            return
        if not self.new_trick:
            if isinstance(current, list):
                self._compare(tricks[-1], current, rpath + ("history", 1))
            return
        if isinstance(last, list):
            self._compare(tricks[-1], last, rpath + ("history", 0))
        raw_global = req.get("global")
        g = raw_global if isinstance(raw_global, dict) else {}
        total = g.get("total_score")
        total = total if isinstance(total, int) and not isinstance(total, bool) else None
        winner = seat_of(leader) or seat_of(p)
        line, col = self.doc.pos(*rpath, "global", "total_score") if total is not None else self.doc.pos(*rpath)
        self.claims.append(Claim(line=line, column=col, trick=len(tricks), winner=winner, points=total,
                                 kind="running", name=f"player {leader if seat_of(leader) else p}"))

    def _compare(self, trick: list[Play], judged: list[Any], path: _json.Path) -> None:
        for i, pl in enumerate(trick):
            if i >= len(judged) or not isinstance(judged[i], list):
                return
            cards = [c for x in judged[i] if (c := card(x, self.table)) is not None]
            if len(cards) != len(judged[i]):
                return
            if Counter(cards) != Counter(pl.cards):
                if i == 0 and not Counter(cards) - Counter(pl.cards):
                    pl.attempted, pl.cards = pl.cards, tuple(cards)
                else:
                    self.sink.add("SJ705", self.doc.span(*path, i), "the judge records other cards for this "
                                                                    "play than the player sent; the player's "
                                                                    "are kept")


def _banking(entry: dict[str, Any]) -> dict[str, Any] | None:
    out = entry.get("output")
    if not isinstance(out, dict) or not isinstance(out.get("content"), dict):
        return None
    for req in out["content"].values():
        if isinstance(req, dict) and isinstance(req.get("global"), dict):
            b = req["global"].get("banking")
            if isinstance(b, dict):
                return b
    return None


def _get(value: Any, path: _json.Path) -> Any:
    for k in path:
        try:
            value = value[k]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def import_log(text: str, source: str = "") -> ImportResult:
    """Import a Botzone Tractor match log (see the module docstring)."""
    imp = _Importer(text, source)
    imp.new_trick = True
    return imp.run()


def looks_like(text: str) -> bool:
    head = text[:20000]
    return bool(re.search(r'"stage"\s*:\s*"(deal|cover|play)"', head) or
                (re.search(r'"initdata"\s*:', head) and re.search(r'"allocation"|"publiccard"', text)))


__all__ = ["import_log", "card", "looks_like", "RULES"]
