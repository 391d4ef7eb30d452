"""shengji.io (rbtying/shengji) chat pastes: the ``GAME: …`` lines players copy into bug reports.

shengji.io has no record format; its chat pane is all a player has. The paste
gives no deal, kitty or bury, so the record is **plays only** (no seat lines),
``[Rules "shengji-io"]``. What is read (see
``shared/real-logs/shengji-io-chat/FORMAT.md``):

* ``N played CARDS``: a play. Cards as the browser shows them (``10♠``,
  ``J♣J♣``, ``HJ``/``LJ``, outline suits ``♤♡♢♧`` too) or as the server
  writes them (Unicode playing cards ``🂡``; ``🃏`` big joker, ``🃟`` little).
* ``N tried to throw CARDS, but X can beat it``: the next play of N is the
  forced part of a failed throw (``attempted -> played``).
* ``N took back their last play`` / ``… bid``: the earlier line is undone.
* ``N bid CARDS`` (browser) or ``N bid COUNT CARD`` (server): a ``declare``
  line (no ``@k``: the deal is unknown); the last bid that stands gives
  ``trump``.
* ``X wins the trick and gets P points`` / ``…, but gets no points :(`` close
  a trick; the stated winner and points become **claims** (SJ704 when the
  rules disagree). ``P points were buried … multiplier of M`` is the kitty
  part of the last trick's points. ``Landlord team won/lost, opposing team
  (only) collected P points`` → ``points`` and a claim.
* ``CARDS in kitty`` (end-of-game reveal) → the dealer's ``bury``.
* ``X has advanced to rank R``, ``X must defend on rank R``, ``N set their
  rank to R``: team levels; ``N started the game`` (or a bid after plays)
  opens a new hand. Rule settings that SJN can say become ``[Rule.x]`` tags
  (decks, kitty size, throw penalty).

**Seats.** Players are placed by the order of play: the player who leads the
first trick in the paste is South (source seat 0), the next to play East,
then North, then West (the general mapping of source seats 0,1,2,3 → S, E, N,
W), so partners sit opposite. Names go into the ``[South]`` … tags. The
first trick's leader is written as the (known) dealer: the landlord leads the
first trick of a hand, and a paste may start at any game of a match, where the
bids only choose the trump.

Other ``GAME:`` lines (joins, reconnects, most settings, kitty pick-up) are
known and skipped; chat lines of known players (``Name: text``) are skipped;
anything else is SJ702.
"""

from __future__ import annotations

import re

from analyzer.io.importers._chat_common import (
    ANNOTATION,
    GAME_PREFIX,
    LINE_PATTERNS,
    RULES,
    SKIP,
    ChatHand,
    ChatPlay,
    ChatTrick,
    parse_cards,
)
from analyzer.io.importers._chat_records import ChatRecords
from analyzer.io.importers._common import (
    ImportResult,
    span_at,
)
from notation.limits import long_lines
from primitives.cards import parse_rank


class _Importer(ChatRecords):
    def __init__(self, text: str, source: str) -> None:
        super().__init__(text, source)
        self.rules: dict[str, str] = {}
        self.friends_mode = False
        self.table = 4                 # players at the table (more than four: finding friends)
        self.after_ranks: list[tuple[int, dict[str, int]]] = []   # (hand index, name → rank for the next hand)

    def lines(self) -> list[tuple[int, int, str, str | None, bool]]:
        """(line number, column of the body, body, annotation, had GAME:) for non-blank lines."""
        out = []
        # a line holding a number past notation.limits.MAX_DIGITS is not read (SJ705 at the
        # digit past the limit), as an SJN line is not: Python's int() refuses one of 4,300
        raws, long = long_lines(self.text.split("\n"), 1, "SJ705")
        self.sink.items.extend(long)   # (lines() is read once, by import_text)
        for no, raw in enumerate(raws, 1):
            raw = raw.rstrip("\r")
            if not raw.strip():
                continue
            m = GAME_PREFIX.match(raw)
            body = raw[m.end():] if m else raw.lstrip()
            col = (m.end() if m else len(raw) - len(raw.lstrip())) + 1
            note = None
            a = ANNOTATION.search(body)
            if a and not self._match(body):
                note = body[a.start():].strip().lstrip("#").strip()
                body = body[:a.start()]
            out.append((no, col, body.rstrip(), note, m is not None))
        return out

    @staticmethod
    def _match(body: str) -> tuple[str, re.Match[str]] | None:
        for kind, rx in LINE_PATTERNS.items():
            m = rx.match(body)
            if m:
                return kind, m
        return None

    def run(self) -> ImportResult:
        result = ImportResult(diagnostics=self.sink.items, claims=self.claims)
        lines = self.lines()
        names: set[str] = set()
        for _no, _col, body, _note, _game in lines:
            hit = self._match(body)
            if hit and "n" in hit[1].groupdict() and hit[0] in ("played", "bid", "throw", "won", "won0",
                                                                 "takeplay", "takebid", "start"):
                names.add(hit[1].group("n"))
        if not any(game or self._match(body) for _no, _col, body, _note, game in lines):
            # not this format (HTML, another program's log): one SJ701, not an SJ702 a line
            self.sink.add("SJ701", (1, 1), "not a pasted shengji.io chat: no shengji.io game lines "
                                           "(`GAME: … played …`) in the text")
            return result
        hands: list[ChatHand] = []
        cur = ChatHand(line=lines[0][0] if lines else 1)
        hands.append(cur)

        def new_hand(line: int) -> ChatHand:
            nonlocal cur
            self.finish(cur)
            cur = ChatHand(line=line)
            hands.append(cur)
            return cur

        for no, col, body, note, game in lines:
            hit = self._match(body)
            if hit is None:
                if SKIP.match(body) and game:
                    continue
                speaker = body.split(":", 1)[0] if ":" in body else None
                if not game and speaker is not None and speaker.strip() in names:
                    continue                       # a player's chat message
                what = "a `GAME:` line" if game else "a line"
                self.sink.add("SJ702", span_at(no, col, col + len(body)),
                              f"{what} the shengji.io importer does not know (another language or "
                              f"another version?): {body[:60]!r}; skipped")
                continue
            kind, m = hit
            ncol = col + m.start("n") if "n" in m.groupdict() and m.group("n") is not None else col
            if kind == "start":
                if not cur.empty:
                    new_hand(no)
                else:
                    cur.line = no
            elif kind == "bid":
                if cur.tricks or cur.open is not None or cur.ended:
                    new_hand(no)
                cards = self.cards(m.group("c"), no, col + m.start("c"))
                if cards is None:
                    continue
                count = m.group("k")
                if count is not None:
                    if len(cards) != 1 or not 1 <= int(count) <= 8:
                        self.sink.add("SJ703", span_at(no, col + m.start("k")),
                                      "a server bid line is `N bid COUNT CARD`; skipped")
                        continue
                    cards = cards * int(count)
                cur.bids.append(ChatPlay(m.group("n"), cards, no, ncol))
            elif kind == "takebid":
                name = m.group("n")
                for i in range(len(cur.bids) - 1, -1, -1):
                    if cur.bids[i].name == name:
                        del cur.bids[i]
                        break
                else:
                    self.sink.add("SJ705", span_at(no, ncol), f"{name} takes back a bid they did not make; ignored")
            elif kind == "throw":
                cards = self.cards(m.group("c"), no, col + m.start("c"))
                if cards is not None:
                    cur.throws[m.group("n")] = (cards, no)
            elif kind == "played":
                if cur.ended:
                    new_hand(no)
                cards = self.cards(m.group("c"), no, col + m.start("c"))
                if cards is None:
                    continue
                name = m.group("n")
                if cur.open is None:
                    cur.open = ChatTrick(line=no, col=ncol)
                play = ChatPlay(name, cards, no, ncol, note=note)
                if name in cur.throws:
                    attempted, tline = cur.throws.pop(name)
                    if cur.open.plays:
                        self.sink.add("SJ705", span_at(tline, col), "a failed throw that is not a lead; "
                                                                    "the attempt is dropped")
                    elif not set(cards) <= set(attempted):
                        self.sink.add("SJ705", span_at(no, col + m.start("c")),
                                      "the cards played after a failed throw are not part of the attempt; "
                                      "the attempt is dropped")
                    else:
                        play.attempted = attempted
                cur.open.plays.append(play)
            elif kind == "takeplay":
                name = m.group("n")
                t = cur.open
                idx = next((i for i in range(len(t.plays) - 1, -1, -1) if t.plays[i].name == name), None) \
                    if t is not None else None
                if t is None or idx is None:
                    self.sink.add("SJ705", span_at(no, ncol), f"{name} takes back a play that is not in the "
                                                              f"current trick; ignored")
                else:
                    del t.plays[idx]
                    if not t.plays:
                        cur.open = None
            elif kind in ("won", "won0"):
                pts = int(m.group("p")) if kind == "won" else 0
                if cur.open is None or not cur.open.plays:
                    self.sink.add("SJ705", span_at(no, ncol), "a trick result with no plays before it; ignored")
                    continue
                t = cur.open
                t.winner, t.points, t.note = m.group("n"), pts, note
                t.kitty, cur.kitty_pending = cur.kitty_pending, None
                t.result_line, t.result_col = no, ncol
                cur.tricks.append(t)
                cur.open = None
            elif kind == "kitty":
                cur.kitty_pending = int(m.group("p")) * int(m.group("m"))
            elif kind == "summary":
                cur.summary = (int(m.group("p")), no, col + m.start("p"))
                cur.ended = True
            elif kind == "reveal":
                cards = self.cards(m.group("c"), no, col)
                if cards is not None:
                    cur.reveal = (cards, no)
            elif kind in ("advanced", "setrank"):
                try:
                    r = parse_rank(m.group("r"))
                except ValueError:
                    self.sink.add("SJ705", span_at(no, col + m.start("r")), f"not a rank: {m.group('r')!r}")
                    continue
                if not 2 <= r <= 14:
                    continue
                if kind == "advanced":
                    self.after_ranks.append((len(hands) - 1, {m.group("n"): r}))
                else:
                    cur.ranks[m.group("n")] = r
            elif kind == "decks":
                v = m.group("v")
                if v == "default":
                    self.rules.pop("decks", None)
                elif v in ("1", "2", "3", "4"):
                    self.rules["decks"] = v
                else:
                    self.sink.add("SJ705", span_at(no, col), f"{v} decks: SJN records 1 to 4 decks; ignored")
            elif kind == "kittysize":
                v = m.group("v")
                if v == "default":
                    self.rules.pop("kitty_size", None)
                else:
                    self.rules["kitty_size"] = v
            elif kind == "penalty":
                self.rules["throw_penalty"] = "none" if "removed" in body else "per_attempt"
            elif kind == "mode":
                v = m.group("v")
                if v.startswith("Finding Friends"):
                    self.friends_mode = True
                    k = re.search(r"with ([0-9]+) friends?", v)
                    if k:
                        self.rules["friends"] = k.group(1)
                else:
                    self.friends_mode = False
                    self.rules.pop("friends", None)
            elif kind == "next":
                continue
        self.finish(cur)
        hands = [h for h in hands if not h.empty]
        players = {p.name for h in hands for t in h.tricks for p in t.plays}
        widest = max((len({p.name for p in t.plays}) for h in hands for t in h.tricks), default=0)
        if self.friends_mode or widest > 4:
            # finding friends (shengji.io): as many seats as players seen, P1 the first leader
            self.friends_mode = True
            self.table = max(4, min(8, max(widest, len(players))))
        seats = self.seat_players(hands)
        if hands:
            record = self.friends_record(hands, seats) if self.friends_mode else self.record(hands, seats)
            result.records.append(record)
        elif not self.sink.items:
            self.sink.add("SJ701", (1, 1), "no shengji.io game lines (`GAME: … played …`) in the text")
        result.diagnostics.sort(key=lambda d: (d.line, d.column, d.code))
        return result

    def cards(self, text: str, line: int, col: int) -> tuple[int, ...] | None:
        cards, bad = parse_cards(text)
        if bad is not None:
            self.sink.add("SJ703", span_at(line, col + bad),
                          f"not a card: {text[bad:bad + 4]!r} in {text!r} (cards are like `10♠`, `HJ`, `🂡`); "
                          f"the line is skipped")
            return None
        return cards

    def finish(self, hand: ChatHand) -> None:
        if hand.open is not None and hand.open.plays:
            hand.tricks.append(hand.open)         # a trick still in progress: kept, no result
        hand.open = None

    # -- seats --------------------------------------------------------------------------------------
    def seat_players(self, hands: list[ChatHand]) -> dict[str, int]:
        seats: dict[str, int] = {}
        tricks = [t for h in hands for t in h.tricks]
        if not tricks:
            for h in hands:
                for b in h.bids:
                    if b.name not in seats and len(seats) < self.table:
                        seats[b.name] = len(seats)
            return seats
        seats[tricks[0].plays[0].name] = 0
        warned: set[int] = set()
        changed = True
        while changed:
            changed = False
            for t in tricks:
                known = next(((i, p) for i, p in enumerate(t.plays) if p.name in seats), None)
                if known is None:
                    continue
                ki, kp = known
                for i, p in enumerate(t.plays):
                    want = (seats[kp.name] + i - ki) % self.table
                    if p.name not in seats:
                        if want in seats.values() or len(seats) >= self.table:
                            if id(p) not in warned:
                                warned.add(id(p))
                                self.sink.add("SJ705", span_at(p.line, p.col),
                                              f"{p.name} does not fit a {self.table}-player table in this "
                                              f"order of play (more than eight players, or a line is missing)")
                            continue
                        seats[p.name] = want
                        changed = True
                    elif seats[p.name] != want and id(p) not in warned:
                        warned.add(id(p))
                        self.sink.add("SJ705", span_at(p.line, p.col),
                                      f"{p.name} plays out of the table order seen so far (a line missing "
                                      f"or a take-back not shown?)")
        for h in hands:
            for b in h.bids:
                if b.name not in seats:
                    free = [s for s in range(self.table) if s not in seats.values()]
                    if len(free) == 1 and len({n for hh in hands for n in
                                               [x.name for x in hh.bids] if n not in seats}) == 1:
                        seats[b.name] = free[0]
        return seats


def import_log(text: str, source: str = "") -> ImportResult:
    """Import a pasted shengji.io chat log (see the module docstring)."""
    return _Importer(text, source).run()


def looks_like(text: str) -> bool:
    return bool(re.search(r"^\s*GAME: .+ (played|bid|wins the trick|started the game)", text[:20000], re.M))


__all__ = ["import_log", "looks_like", "RULES"]  # (RULES: every importer module names its rules, api.RULES)
