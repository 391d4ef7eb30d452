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
from dataclasses import dataclass, field
from typing import cast

from analyzer.io.importers._common import (
    SOURCE_SEATS,
    Claim,
    ImportResult,
    LogImporter,
    comment_text,
    span_at,
    tags_for,
)
from notation.model import Bury, Declaration, Hand, Levels, Note, Play, PlayerLevels, Record, Seat, Tag, Trick
from primitives.cards import BJ, LJ, SUIT_SYMBOLS, SUIT_SYMBOLS_ALT, parse_rank
from primitives.diagnostics import Span

RULES = "shengji-io"
FRIENDS_RULES = "shengji-io-friends"
_SUIT_CHARS = {ch: i for i, ch in enumerate(SUIT_SYMBOLS)}
_SUIT_CHARS.update({ch: i for i, ch in enumerate(SUIT_SYMBOLS_ALT)})
_CARD_RE = re.compile(r"(10|[2-9JQKAT])([♠♥♦♣♤♡♢♧])")
_UNICODE_RANKS = {1: 14, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 11, 13: 12, 14: 13}
_UNICODE_SUITS = {0xA: 0, 0xB: 1, 0xC: 2, 0xD: 3}

_GAME = re.compile(r"^\s*GAME:\s?")
_ANNOTATION = re.compile(r"\s+#.*$")
_T = {
    "played": re.compile(r"^(?P<n>.+?) played (?P<c>\S+)$"),
    "throw": re.compile(r"^(?P<n>.+?) tried to throw (?P<c>\S+), but (?P<b>.+?) can beat it$"),
    "bid": re.compile(r"^(?P<n>.+?) bid (?:(?P<k>[0-9]+) )?(?P<c>\S+)$"),
    "won": re.compile(r"^(?P<n>.+?) wins the trick and gets (?P<p>[0-9]+) points?$"),
    "won0": re.compile(r"^(?P<n>.+?) wins the trick, but gets no points :\($"),
    "kitty": re.compile(r"^(?P<p>[0-9]+) points were buried and are attached to the last trick, "
                        r"with a multiplier of (?P<m>[0-9]+)$"),
    "summary": re.compile(r"^Landlord team (?P<w>won|lost), opposing team (?:only )?collected "
                          r"(?P<p>[0-9]+) points$"),
    "reveal": re.compile(r"^(?P<c>\S+) in kitty$"),
    "takeplay": re.compile(r"^(?P<n>.+?) took back their last play$"),
    "takebid": re.compile(r"^(?P<n>.+?) took back their last bid$"),
    "start": re.compile(r"^(?P<n>.+?) started the game$"),
    "advanced": re.compile(r"^(?P<n>.+?) (?:has advanced to|must defend on) rank (?P<r>\S+)$"),
    "setrank": re.compile(r"^(?P<n>.+?) set their rank to (?P<r>\S+)$"),
    "decks": re.compile(r"^(?P<n>.+?) set the number of decks to (?P<v>[0-9]+|default)$"),
    "kittysize": re.compile(r"^(?P<n>.+?) set the number of cards in the bottom to (?P<v>[0-9]+|default)$"),
    "penalty": re.compile(r"^(?P<n>.+?) (?:set the throw penalty to 10 points per throw|"
                          r"removed the throw penalty)$"),
    "mode": re.compile(r"^(?P<n>.+?) set the game mode to (?P<v>.+)$"),
    "next": re.compile(r"^(?P<n>.+?) will start the next game$"),
}
#: known lines that carry nothing a record needs
_SKIP = re.compile(
    r"^(?:.+ has joined the game(?: again, prior connection removed)?|.+ is being shadowed|"
    r".+ has left the game|.+ has joined the team|.+ tried to join the team, but was already a member|"
    r".+ picked up the bottom cards|.+ put down the bottom cards|"
    r".+ revealed a card from the bottom of the deck|The game has finished|.+ ended the game early|"
    r"Landlord team earned a bonus level for defending with a smaller team|.+ reset the game|"
    r".+ (?:set|removed|allowed|required|disallowed|prevented|enabled|disabled|made|hid|protected|changed)"
    r" .+)$")


def parse_cards(text: str) -> tuple[tuple[int, ...], int | None]:
    """Chat card text → cards; the second item is the offset of the first bad character."""
    out: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\ufe0f\u200b\u200d":          # emoji variation selectors, zero-width marks
            i += 1
            continue
        if text.startswith(("HJ", "BJ"), i):
            out.append(BJ)
            i += 2
            continue
        if text.startswith("LJ", i):
            out.append(LJ)
            i += 2
            continue
        cp = ord(ch)
        if 0x1F0A1 <= cp <= 0x1F0DF:
            suit, rank = (cp >> 4) & 0xF, cp & 0xF
            if cp in (0x1F0CF, 0x1F0BF):
                out.append(BJ)
            elif cp == 0x1F0DF:
                out.append(LJ)
            elif suit in _UNICODE_SUITS and rank in _UNICODE_RANKS:
                out.append(_UNICODE_SUITS[suit] * 13 + _UNICODE_RANKS[rank] - 2)
            else:
                return tuple(out), i
            i += 1
            continue
        m = _CARD_RE.match(text, i)
        if m is None:
            return tuple(out), i
        out.append(_SUIT_CHARS[m.group(2)] * 13 + parse_rank(m.group(1)) - 2)
        i = m.end()
    if not out:
        return (), 0
    return tuple(out), None


@dataclass
class _Play:
    name: str
    cards: tuple[int, ...]
    line: int
    col: int
    attempted: tuple[int, ...] | None = None
    note: str | None = None


@dataclass
class _Trick:
    plays: list[_Play] = field(default_factory=list)
    winner: str | None = None
    points: int | None = None
    kitty: int | None = None
    line: int = 0
    col: int = 0
    note: str | None = None
    result_line: int = 0
    result_col: int = 0


@dataclass
class _Hand:
    line: int
    bids: list[_Play] = field(default_factory=list)
    tricks: list[_Trick] = field(default_factory=list)
    open: _Trick | None = None
    throws: dict[str, tuple[tuple[int, ...], int]] = field(default_factory=dict)
    kitty_pending: int | None = None
    summary: tuple[int, int, int] | None = None     # points, line, col
    reveal: tuple[tuple[int, ...], int] | None = None
    ranks: dict[str, int] = field(default_factory=dict)  # name → rank stated during the hand (set their rank)
    ended: bool = False

    @property
    def empty(self) -> bool:
        return not self.bids and not self.tricks and self.open is None


class _Importer(LogImporter):
    def __init__(self, text: str, source: str) -> None:
        super().__init__(text, source)
        self.rules: dict[str, str] = {}
        self.friends_mode = False
        self.table = 4                 # players at the table (more than four: finding friends)
        self.after_ranks: list[tuple[int, dict[str, int]]] = []   # (hand index, name → rank for the next hand)

    def lines(self) -> list[tuple[int, int, str, str | None, bool]]:
        """(line number, column of the body, body, annotation, had GAME:) for non-blank lines."""
        out = []
        for no, raw in enumerate(self.text.split("\n"), 1):
            raw = raw.rstrip("\r")
            if not raw.strip():
                continue
            m = _GAME.match(raw)
            body = raw[m.end():] if m else raw.lstrip()
            col = (m.end() if m else len(raw) - len(raw.lstrip())) + 1
            note = None
            a = _ANNOTATION.search(body)
            if a and not self._match(body):
                note = body[a.start():].strip().lstrip("#").strip()
                body = body[:a.start()]
            out.append((no, col, body.rstrip(), note, m is not None))
        return out

    @staticmethod
    def _match(body: str) -> tuple[str, re.Match[str]] | None:
        for kind, rx in _T.items():
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
        hands: list[_Hand] = []
        cur = _Hand(line=lines[0][0] if lines else 1)
        hands.append(cur)

        def new_hand(line: int) -> _Hand:
            nonlocal cur
            self.finish(cur)
            cur = _Hand(line=line)
            hands.append(cur)
            return cur

        for no, col, body, note, game in lines:
            hit = self._match(body)
            if hit is None:
                if _SKIP.match(body) and game:
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
                cur.bids.append(_Play(m.group("n"), cards, no, ncol))
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
                    cur.open = _Trick(line=no, col=ncol)
                play = _Play(name, cards, no, ncol, note=note)
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

    def finish(self, hand: _Hand) -> None:
        if hand.open is not None and hand.open.plays:
            hand.tricks.append(hand.open)         # a trick still in progress: kept, no result
        hand.open = None

    # -- seats --------------------------------------------------------------------------------------
    def seat_players(self, hands: list[_Hand]) -> dict[str, int]:
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

    # -- the record ------------------------------------------------------------------------------------
    def record(self, hands: list[_Hand], seats: dict[str, int]) -> Record:
        players: dict[str, str] = {SOURCE_SEATS[i]: n for n, i in seats.items()}
        extra = [(f"Rule.{k}", v) for k, v in self.rules.items()]
        record = Record(tags=tags_for(event="shengji.io game (chat log)", site="shengji.io", rules=RULES,
                                      players=players, source=self.source, extra=extra))
        team_levels: dict[int, int] = {}          # team (0: source seats 0+2, 1: 1+3) → level
        prev_complete = False
        for hi, h in enumerate(hands):
            number = hi + 1
            hand = Hand(number=number, span=span_at(h.line, 1))
            for name, r in h.ranks.items():
                if name in seats:
                    team_levels[seats[name] % 2] = r
            # declarations
            for b in h.bids:
                if b.name not in seats:
                    self.sink.add("SJ705", span_at(b.line, b.col), f"cannot seat {b.name}, who bids but never "
                                                                    f"plays; the bid is dropped")
                    continue
                hand.events.append(Declaration(seat=SOURCE_SEATS[seats[b.name]], cards=b.cards,
                                               span=span_at(b.line, b.col)))
            decls = hand.declarations
            standing = decls[-1] if decls else None
            if standing is not None:
                c = standing.cards[0]
                hand.trump = 4 if c >= 52 else c // 13
                hand.trump_span = standing.span
            # dealer: the leader of the first trick (the landlord leads a hand's first trick)
            leader = h.tricks[0].plays[0].name if h.tricks else None
            if leader in seats:
                hand.dealer = SOURCE_SEATS[seats[leader]]
                hand.dealer_span = span_at(h.tricks[0].plays[0].line, h.tricks[0].plays[0].col)
            elif standing is not None:
                hand.dealer = standing.seat
            elif number == 1:
                hand.dealer = "?"
            # levels: the standing bid's rank is the dealer team's level
            guessed = False
            if standing is not None and standing.cards[0] < 52 and hand.dealer in SOURCE_SEATS:
                team_levels[SOURCE_SEATS.index(hand.dealer) % 2] = standing.cards[0] % 13 + 2
            lv = dict(team_levels)
            if len(lv) < 2:
                guessed = True
                fill = next(iter(lv.values()), 2)
                lv = {0: lv.get(0, fill), 1: lv.get(1, fill)}
            if number == 1 or not prev_complete or not guessed:
                hand.levels = Levels(ns=lv[0], ew=lv[1], span=span_at(h.line, 1))
                if guessed:
                    hand.comments.append("levels: the chat names only one team's rank (or none); "
                                         "the other team's is set equal")
            # tricks
            for _j, t in enumerate(h.tricks, 1):
                plays = []
                dropped = False
                for p in t.plays:
                    if p.name not in seats:
                        dropped = True
                        continue
                    pl = Play(seat=SOURCE_SEATS[seats[p.name]], cards=p.cards, attempted=p.attempted,
                              span=span_at(p.line, p.col))
                    if p.note:
                        pl.comments.append(comment_text(p.note))
                    plays.append(pl)
                if not plays:
                    continue
                trick = Trick(number=len(hand.tricks) + 1, plays=plays,
                              span=Span(t.line, t.col, t.result_line or t.plays[-1].line, 1))
                if t.note:
                    trick.comments.append(comment_text(t.note))
                hand.tricks.append(trick)
                if dropped:
                    trick.comments.append("plays of unseated players are left out; the trick's stated "
                                          "result is not checked")
                if t.winner is not None and not dropped:
                    rl, rc = t.result_line, t.result_col
                    self.claims.append(Claim(line=rl, column=rc, trick=len(hand.tricks),
                                             winner=SOURCE_SEATS[seats[t.winner]] if t.winner in seats else None,
                                             points=t.points, hand=number, name=t.winner,
                                             kitty_points=t.kitty))
            if h.reveal is not None and hand.dealer in SOURCE_SEATS:
                hand.events.append(Bury(seat=hand.dealer, cards=h.reveal[0], span=span_at(h.reveal[1], 1)))
            if h.summary is not None:
                pts, line, col = h.summary
                hand.points = pts
                hand.points_span = span_at(line, col)
                self.claims.append(Claim(line=line, column=col, trick=None, winner=None, points=pts,
                                         hand=number, kind="total"))
            record.hands.append(hand)
            prev_complete = h.summary is not None
            for idx, ranks in self.after_ranks:
                if idx == hi:
                    for name, r in ranks.items():
                        if name in seats:
                            team_levels[seats[name] % 2] = r
        return record


    # -- finding friends: a table of 4–8 -----------------------------------------------------------
    def friends_record(self, hands: list[_Hand], seats: dict[str, int]) -> Record:
        """A Finding Friends paste: seats ``P1``…``Pn`` in the order of play (``P1`` leads the
        first trick), ``[Rules "shengji-io-friends"]`` with the table size, the player
        names in ``[P1 "name"]`` tags, each player's own level."""
        from replay.friends import infer_trump

        n = self.table
        # seat numbers are below self.table <= 8: the names are P1..P8
        seat: dict[str, Seat] = {name: cast(Seat, f"P{i + 1}") for name, i in seats.items()}
        extra = [(f"Rule.{k}", v) for k, v in self.rules.items()]
        if n != 5:
            extra.insert(0, ("Rule.players", str(n)))
        record = Record(tags=tags_for(event="shengji.io game (chat log)", site="shengji.io", rules=FRIENDS_RULES,
                                      source=self.source, extra=extra))
        names = sorted(seats, key=seats.__getitem__)
        at = next((k for k, t in enumerate(record.tags) if t.name == "Source"), len(record.tags))
        record.tags[at:at] = [Tag(name=seat[name], value=name) for name in names]
        ranks: dict[str, int] = {}
        for hi, h in enumerate(hands):
            number = hi + 1
            hand = Hand(number=number, span=span_at(h.line, 1))
            ranks.update({name: r for name, r in h.ranks.items() if name in seats})
            for b in h.bids:
                if b.name not in seats:
                    self.sink.add("SJ705", span_at(b.line, b.col), f"cannot seat {b.name}, who bids but never "
                                                                    f"plays; the bid is dropped")
                    continue
                hand.events.append(Declaration(seat=seat[b.name], cards=b.cards, span=span_at(b.line, b.col)))
            decls = hand.declarations
            standing = decls[-1] if decls else None
            leader = h.tricks[0].plays[0].name if h.tricks else None
            if leader in seats:
                hand.dealer = seat[leader]
                hand.dealer_span = span_at(h.tricks[0].plays[0].line, h.tricks[0].plays[0].col)
            elif standing is not None:
                hand.dealer = standing.seat
            elif number == 1:
                hand.dealer = "?"
            if standing is not None:
                c = standing.cards[0]
                hand.trump = 4 if c >= 52 else c // 13
                hand.trump_span = standing.span
                if c < 52 and hand.dealer in seat.values():
                    dealer_name = next(k for k, v in seat.items() if v == hand.dealer)
                    ranks[dealer_name] = c % 13 + 2
            known = dict(ranks)
            levels: dict[str, int] = {seat[name]: known.get(name, 2) for name in names}
            hand.levels = PlayerLevels(levels=levels, span=span_at(h.line, 1))
            if len(known) < len(names) and number == 1:
                hand.comments.append("levels: the chat does not give every player's rank; the others are "
                                     "taken as 2")
            for t in h.tricks:
                plays = [Play(seat=seat[p.name], cards=p.cards, attempted=p.attempted, span=span_at(p.line, p.col),
                              comments=[comment_text(p.note)] if p.note else [])
                         for p in t.plays if p.name in seats]
                if not plays:
                    continue
                trick = Trick(number=len(hand.tricks) + 1, plays=plays,
                              span=Span(t.line, t.col, t.result_line or t.plays[-1].line, 1))
                if t.note:
                    trick.comments.append(comment_text(t.note))
                hand.tricks.append(trick)
                if t.winner is not None and len(plays) == len(t.plays):
                    self.claims.append(Claim(line=t.result_line, column=t.result_col, trick=len(hand.tricks),
                                             winner=seat.get(t.winner), points=t.points, hand=number,
                                             name=t.winner, kitty_points=t.kitty))
            if hand.trump is None and hand.tricks:
                # no bid in the paste: the trump under which every stated winner could win at all
                # (a winner who is not seated names no play: infer_trump would skip the trick anyway)
                said = [(tr.plays, w) for tr, t in zip(hand.tricks, h.tricks)
                        if t.winner and (w := seat.get(t.winner)) is not None]
                level = levels.get(hand.dealer, 2) if hand.dealer else 2
                trump = infer_trump(said, level)
                if trump is not None:
                    hand.trump = trump
                    symbol = "NT" if trump == 4 else "♠♥♦♣"[trump]
                    hand.line_notes["trump"] = _note(f"not in the paste: {symbol} is the only trump under which "
                                                     f"every stated winner's play can win (level {level})")
            if h.reveal is not None and hand.dealer in seat.values():
                hand.events.append(Bury(seat=hand.dealer, cards=h.reveal[0], span=span_at(h.reveal[1], 1)))
            if h.summary is not None:
                pts, line, col = h.summary
                hand.points = pts
                hand.points_span = span_at(line, col)
                self.claims.append(Claim(line=line, column=col, trick=None, winner=None, points=pts,
                                         hand=number, kind="total"))
            record.hands.append(hand)
            for idx, after in self.after_ranks:
                if idx == hi:
                    ranks.update({name: r for name, r in after.items() if name in seats})
        return record


def _note(text: str) -> Note:
    return Note(comments=[comment_text(text)])


def import_log(text: str, source: str = "") -> ImportResult:
    """Import a pasted shengji.io chat log (see the module docstring)."""
    return _Importer(text, source).run()


def looks_like(text: str) -> bool:
    return bool(re.search(r"^\s*GAME: .+ (played|bid|wins the trick|started the game)", text[:20000], re.M))


__all__ = ["import_log", "parse_cards", "looks_like", "RULES"]
