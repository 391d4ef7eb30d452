"""qian-loong/shengji-godot (a Godot 双升 game): its ``GameLogger`` JSON log and its HTML report.

Both forms give one SJN record, one hand per round, ``[Rules "shengji-godot"]``
(see ``shared/real-logs/qian-loong-shengji-godot/FORMAT.md`` and docs/importing.md).

**The JSON log** (``{"version": 1, "rule_config": …, "rounds": […]}``):

* ``team_ranks`` ([NS, EW]) → ``levels``; ``debug.initial_hands`` (each seat's 25
  cards in draw order; the deal always starts at seat 0) → seat lines and
  ``first S``; ``debug.bottom_cards`` → ``kitty``; ``debug.buried_cards`` → the
  dealer's ``bury``;
* ``bid`` (type and suit; the cards are the declarer's level card of that suit
  with the joker of its colour, or its pair of identical jokers for 公主) →
  one ``declare`` line ``@25`` (bidding comes after the whole deal);
  ``bid_history``'s passes → a commentary; ``NO_BID`` → ``declare none``;
  ``trump_suit`` → ``trump``;
* ``tricks[].plays`` (the leader first) → the tricks;
* claims: each trick's ``winner`` and ``trick_points``, ``attack_score_after``
  (the attackers' running total), the round's ``dealer`` (every hand says
  ``dealer ?``: under this engine the declarer deals), and the settlement:
  ``final_score`` (also the ``points`` line), the kitty bonus
  (``bottom_score × bottom_multiplier``) and the level change (the side that
  rises, by how much, its new level, the next dealer, the match's end).

``rule_config`` switches that differ from the preset become ``[Rule.x]`` tags
(``allow_dump`` → ``throws``, ``trump_joker_color_match`` → ``joker_colour``,
``bid_requires_joker`` → ``declare_joker``, ``no_skip_ranks`` → ``must_play``).

**The HTML report** (``replay_latest.html``, ``<section class="round-section">``
per round): the summary (庄家, 本局级, 队伍级, 主花色, 亮主, 底牌奖励, 最终分, 升级方,
新级, 下局期望庄家), 底牌, 埋牌, the initial hands and every trick's header and
``play-row``s. The report shows each hand **sorted**: the draw order is lost,
so the seat lines are the holdings only (no ``first`` line, no ``@k``), as a
commentary on the hand says.

Seats: 0 = 南 S, 1 = 东 E, 2 = 北 N, 3 = 西 W (the importers' usual mapping).
Cards: ``♠10``, ``♥A``, ``RedJoker`` (BJ), ``BlackJoker`` (LJ). Suit numbers are
the game's ``Card.Suit``: 0 ♠, 1 ♥, 2 ♦, 3 ♣ (the logs' symbols say so too).
"""

from __future__ import annotations

import bisect
import html
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from analyzer.io.importers import _json
from analyzer.io.importers._common import (
    SOURCE_SEATS,
    Claim,
    ImportResult,
    LogImporter,
    comment_text,
    seat_of,
    span_at,
    tags_for,
)
from notation.model import Bury, Declaration, Hand, Levels, Play, Record, SeatCards, Trick
from primitives.cards import BJ, LJ, parse_rank, rank_name

RULES = "shengji-godot"
_SUIT_SYMBOLS = {"♠": 0, "♥": 1, "♦": 2, "♣": 3}
#: the game's Card.Suit numbers (0 ♠, 1 ♥, 2 ♦, 3 ♣) are the project's suit numbers
_NT = -1
_CARD = re.compile(r"^([♠♥♦♣])(10|[2-9JQKA])$")
_PASS_REASONS = {"no_valid_cards": "no valid cards", "ai_pass": "AI pass", "player_choice": "the player's choice",
                 "already_bid": "already bid", "bid_rejected": "bid refused"}


def card(text: Any) -> int | None:
    """``'♠10'`` → ♠10, ``'RedJoker'`` → BJ, ``'BlackJoker'`` → LJ; None for anything else."""
    if not isinstance(text, str):
        return None
    t = text.strip()
    if t == "RedJoker":
        return BJ
    if t == "BlackJoker":
        return LJ
    m = _CARD.match(t)
    if not m:
        return None
    return _SUIT_SYMBOLS[m.group(1)] * 13 + parse_rank(m.group(2)) - 2


def colour_joker(suit: int) -> int:
    """The joker that declares a level card of ``suit`` (trump_joker_color_match): red BJ with ♥/♦."""
    return BJ if suit in (1, 2) else LJ


def declared_cards(suit: int, copies: int, level: int, held: tuple[int, ...] | None) -> tuple[int, ...]:
    """The cards a declaration of ``suit`` (-1: 公主, a pair of identical jokers) shows:
    ``copies`` level cards of the suit + the joker of its colour; for 公主 the pair the
    seat holds (``held``; the big jokers when it holds both pairs or is not known)."""
    if suit == _NT:
        if held is not None and held.count(BJ) < 2 and held.count(LJ) >= 2:
            return (LJ, LJ)
        return (BJ, BJ)
    return (suit * 13 + level - 2,) * copies + (colour_joker(suit),)


@dataclass
class _Round:
    """One round, as either form gives it (positions are (line, column) in the log)."""

    at: tuple[int, int]
    number: int
    levels: tuple[int, int] | None = None
    levels_at: tuple[int, int] = (0, 0)
    dealer: int | None = None
    dealer_at: tuple[int, int] = (0, 0)
    deal: list[tuple[int, ...]] | None = None
    deal_at: tuple[int, int] = (0, 0)
    in_draw_order: bool = True
    kitty: tuple[int, ...] | None = None
    kitty_at: tuple[int, int] = (0, 0)
    #: seat, suit (-1 公主), copies of the level card, shown with a joker (bid_requires_joker)
    bid: tuple[int, int, int, bool] | None = None
    bid_at: tuple[int, int] = (0, 0)
    no_bid: bool = False
    passes: list[str] = field(default_factory=list)
    trump: int | None = None                          # -1 NT
    trump_at: tuple[int, int] = (0, 0)
    buried: tuple[int, ...] | None = None
    buried_at: tuple[int, int] = (0, 0)
    tricks: list[Trick] = field(default_factory=list)
    final: int | None = None
    final_at: tuple[int, int] = (0, 0)
    claims: list[Claim] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


class _Importer(LogImporter):
    def run(self) -> ImportResult:
        result = ImportResult(diagnostics=self.sink.items, claims=self.claims)
        extra: list[tuple[str, str]] = []
        if _is_html(self.text):
            rounds, title = self.html_rounds(), "shengji-godot HTML report"
        else:
            rounds, title = self.json_rounds(extra), "shengji-godot game log"
        if rounds:
            record = Record(tags=tags_for(event=title, site="shengji-godot", rules=RULES, source=self.source,
                                          players={"S": "S0", "E": "S1", "N": "S2", "W": "S3"}, extra=extra),
                            header_comments=["shengji-godot seats: S0 南 (the local player) = S, S1 东 = E, "
                                             "S2 北 = N, S3 西 = W; S1-S3 are the game's AI"])
            for i, r in enumerate(rounds, 1):
                record.hands.append(self.hand(r, i))
            result.records.append(record)
        result.diagnostics.sort(key=lambda d: (d.line, d.column, d.code))
        return result

    # -- the JSON log ------------------------------------------------------------------------------
    def json_rounds(self, extra: list[tuple[str, str]]) -> list[_Round]:
        doc = _json.read(self.text)
        value = doc.value
        if not (isinstance(value, dict) and isinstance(value.get("rounds"), list)):
            if doc.error and not doc.found:
                line, col, msg = doc.error
                self.sink.add("SJ701", (line, col), f"not a shengji-godot log: the text is not JSON ({msg})")
            else:
                self.sink.add("SJ701", doc.pos(), "not a shengji-godot log: expected its GameLogger JSON (an "
                                                  "object with a `rounds` list) or its HTML report")
            return []
        if doc.error:
            line, col, msg = doc.error
            self.sink.add("SJ701", (line, col), f"the log is not complete JSON: {msg}; the rounds before "
                                                f"this point are imported")
        if value.get("version") != 1:
            self.sink.add("SJ705", doc.span("version") if "version" in value else doc.span(),
                          f"GameLogger version {value.get('version')!r}: only version 1 is known; read as it")
        cfg = value.get("rule_config")
        if isinstance(cfg, dict):
            self.rule_tags(cfg, doc, extra)
        rounds = []
        for i, raw in enumerate(value["rounds"]):
            if not isinstance(raw, dict):
                self.sink.add("SJ705", doc.span("rounds", i), "a round must be an object; skipped")
                continue
            rounds.append(self.json_round(raw, doc, ("rounds", i)))
        return rounds

    def rule_tags(self, cfg: dict[str, Any], doc: _json.JsonDoc, extra: list[tuple[str, str]]) -> None:
        """``rule_config`` switches where the log's game differs from the preset → ``[Rule.x]``."""
        def flag(key: str, default: bool, option: str, value: str) -> None:
            got = cfg.get(key)
            if isinstance(got, bool) and got != default:
                extra.append((f"Rule.{option}", value))

        flag("allow_dump", False, "throws", "yes")
        flag("trump_joker_color_match", True, "joker_colour", "no")
        flag("bid_requires_joker", True, "declare_joker", "no")
        decks = cfg.get("deck_count")
        if decks == 1:
            extra.append(("Rule.decks", "1"))
        elif decks is not None and decks != 2:
            self.sink.add("SJ705", doc.span("rule_config", "deck_count"), f"deck_count {decks!r}: the game "
                                                                          f"plays 1 or 2 decks; 2 assumed")
        ranks = cfg.get("no_skip_ranks")
        enabled = cfg.get("no_skip_enabled", True)
        gates = [2] + (sorted(r for r in ranks if isinstance(r, int) and 2 <= r <= 14)
                       if isinstance(ranks, list) and enabled else [])
        if gates != [2, 5, 10, 13] and (isinstance(ranks, list) or enabled is False):
            extra.append(("Rule.must_play", ",".join(rank_name(r) for r in sorted(set(gates)))))
        threshold = cfg.get("upgrade_threshold")
        if threshold not in (None, 80 if decks in (None, 2) else 40):
            self.sink.add("SJ705", doc.span("rule_config", "upgrade_threshold"),
                          f"upgrade_threshold {threshold!r}: the preset's table (80 for two decks) is used")

    def cards(self, raw: Any, doc: _json.JsonDoc, path: _json.Path, what: str,
              want: int | None = None) -> tuple[int, ...] | None:
        if not isinstance(raw, list):
            self.sink.add("SJ705", doc.span(*path), f"{what}: expected a list of cards")
            return None
        out, ok = [], True
        for i, t in enumerate(raw):
            c = card(t)
            if c is None:
                self.sink.add("SJ703", doc.span(*path, i), f"{what}: {t!r} is not a card (cards are like "
                                                           f"`♠10`, `♥A`, `RedJoker`, `BlackJoker`)")
                ok = False
            else:
                out.append(c)
        if not ok:
            return None
        if want is not None and len(out) != want:
            self.sink.add("SJ705", doc.span(*path), f"{what}: {len(out)} cards, not {want}; left out")
            return None
        return tuple(out)

    def json_round(self, raw: dict[str, Any], doc: _json.JsonDoc, base: _json.Path) -> _Round:
        def at(*path: Any) -> tuple[int, int]:
            return doc.pos(*base, *path)

        num = raw.get("round_num")
        r = _Round(at=at(), number=num if isinstance(num, int) and not isinstance(num, bool) else 0)
        tr = raw.get("team_ranks")
        if isinstance(tr, list) and len(tr) == 2 and all(isinstance(x, int) and 2 <= x <= 14 for x in tr):
            r.levels, r.levels_at = (tr[0], tr[1]), at("team_ranks")
        else:
            self.sink.add("SJ705", doc.span(*base, "team_ranks") if "team_ranks" in raw else doc.span(*base),
                          f"team_ranks {tr!r} should be [NS rank, EW rank], 2..14")
        if raw.get("dealer") is not None:
            r.dealer = raw["dealer"] if seat_of(raw["dealer"]) else None
            r.dealer_at = at("dealer")
            if r.dealer is None:
                self.sink.add("SJ705", doc.span(*base, "dealer"), f"dealer {raw['dealer']!r} is not a seat 0..3")
        raw_dbg = raw.get("debug")
        dbg: dict[str, Any] = raw_dbg if isinstance(raw_dbg, dict) else {}
        hands = dbg.get("initial_hands")
        if isinstance(hands, list) and len(hands) == 4:
            got = [self.cards(h, doc, base + ("debug", "initial_hands", s), f"seat {s}'s hand")
                   for s, h in enumerate(hands)]
            if all(g is not None for g in got):
                r.deal = [g for g in got if g is not None]
                r.deal_at = at("debug", "initial_hands")
        elif hands is not None:
            self.sink.add("SJ705", doc.span(*base, "debug", "initial_hands"), "initial_hands should be 4 hands")
        else:
            self.sink.add("SJ705", doc.span(*base), "the round has no debug.initial_hands: no deal")
        if "bottom_cards" in dbg:
            r.kitty = self.cards(dbg["bottom_cards"], doc, base + ("debug", "bottom_cards"), "bottom_cards")
            r.kitty_at = at("debug", "bottom_cards")
        if "buried_cards" in dbg:
            r.buried = self.cards(dbg["buried_cards"], doc, base + ("debug", "buried_cards"), "buried_cards")
            r.buried_at = at("debug", "buried_cards")
        self.check_bottom(r, raw, dbg, doc, base)
        # bids
        history = raw.get("bid_history")
        for h in history if isinstance(history, list) else []:
            if isinstance(h, dict) and h.get("action") == "skip" and seat_of(h.get("seat")):
                reason = h.get("reason")
                why = _PASS_REASONS.get(reason, str(reason or "no reason given")) if isinstance(reason, str) \
                    else "no reason given"
                r.passes.append(f"S{h['seat']} ({seat_of(h['seat'])}) passes ({why})")
        bid = raw.get("bid")
        if isinstance(bid, dict):
            self.json_bid(r, bid, doc, base + ("bid",))
        ts = raw.get("trump_suit")
        if isinstance(ts, int) and not isinstance(ts, bool) and -1 <= ts <= 3:
            r.trump, r.trump_at = ts, at("trump_suit")
            sym = raw.get("trump_suit_symbol")
            if isinstance(sym, str) and sym in _SUIT_SYMBOLS and _SUIT_SYMBOLS[sym] != ts:
                self.sink.add("SJ705", doc.span(*base, "trump_suit_symbol"),
                              f"trump_suit {ts} is {'♠♥♦♣'[ts] if ts >= 0 else '公主'} but the symbol says {sym}; "
                              f"the symbol is kept")
                r.trump = _SUIT_SYMBOLS[sym]
        elif ts is not None:
            self.sink.add("SJ705", doc.span(*base, "trump_suit"), f"trump_suit {ts!r} is not -1..3")
        # tricks
        tricks = raw.get("tricks")
        for i, t in enumerate(tricks if isinstance(tricks, list) else []):
            self.json_trick(r, t, doc, base + ("tricks", i))
        st = raw.get("settlement")
        if isinstance(st, dict) and st:
            self.json_settlement(r, st, doc, base + ("settlement",))
        if raw.get("_in_progress") is True:
            r.comments.append("the log marks this round as still in progress")
        return r

    def check_bottom(self, r: _Round, raw: dict[str, Any], dbg: dict[str, Any], doc: _json.JsonDoc,
                     base: _json.Path) -> None:
        """``hand_with_bottom`` is the dealer's hand + the bottom; ``buried_indices`` point at the buried cards."""
        hwb = dbg.get("hand_with_bottom")
        if not (isinstance(hwb, list) and r.deal and r.kitty is not None and r.dealer is not None):
            return
        merged = [card(c) for c in hwb]
        if merged != list(r.deal[r.dealer]) + list(r.kitty):
            self.sink.add("SJ705", doc.span(*base, "debug", "hand_with_bottom"),
                          "hand_with_bottom is not the dealer's initial hand followed by the bottom cards")
            return
        idx = raw.get("buried_indices")
        if isinstance(idx, list) and r.buried is not None:
            if all(isinstance(i, int) and 0 <= i < len(merged) for i in idx):
                if Counter(merged[i] for i in idx) != Counter(r.buried):
                    self.sink.add("SJ705", doc.span(*base, "buried_indices"),
                                  "buried_indices do not point at buried_cards; buried_cards are kept")

    def json_bid(self, r: _Round, bid: dict[str, Any], doc: _json.JsonDoc, path: _json.Path) -> None:
        kind, suit, seat = bid.get("type"), bid.get("suit"), bid.get("seat")
        r.bid_at = doc.pos(*path)
        if kind in (0, "NO_BID", "NONE") or (seat is None and suit is None):
            r.no_bid = True
            return
        if not seat_of(seat):
            self.sink.add("SJ705", doc.span(*path), f"a bid without a seat 0..3 ({seat!r}); no declaration")
            return
        if not (isinstance(suit, int) and not isinstance(suit, bool) and -1 <= suit <= 3):
            self.sink.add("SJ705", doc.span(*path, "suit") if "suit" in bid else doc.span(*path),
                          f"bid suit {suit!r} is not -1..3; no declaration")
            return
        sym = bid.get("suit_symbol")
        if isinstance(sym, str) and sym in _SUIT_SYMBOLS and _SUIT_SYMBOLS[sym] != suit:
            self.sink.add("SJ705", doc.span(*path, "suit_symbol"), f"bid suit {suit} but symbol {sym}; the "
                                                                   f"symbol is kept")
            suit = _SUIT_SYMBOLS[sym]
        # the bid type: 1 single, 2 pair (no joker needed); 3 joker + level card; 4 公主 or, in later
        # versions, joker + level pair (then 5 is 公主)
        copies = 2 if kind in (2,) or (kind == 4 and suit >= 0) else 1
        r.bid = (seat if isinstance(seat, int) else 0, suit, copies, kind not in (1, 2))

    def json_trick(self, r: _Round, t: Any, doc: _json.JsonDoc, path: _json.Path) -> None:
        if not isinstance(t, dict):
            self.sink.add("SJ705", doc.span(*path), "a trick must be an object; skipped")
            return
        plays = t.get("plays")
        if not isinstance(plays, list):
            self.sink.add("SJ705", doc.span(*path), "a trick without `plays`; skipped")
            return
        line, col = doc.pos(*path)
        trick = Trick(number=len(r.tricks) + 1, span=span_at(line, col))
        for i, p in enumerate(plays):
            if not isinstance(p, dict) or not seat_of(p.get("seat")):
                self.sink.add("SJ705", doc.span(*path, "plays", i), "a play without a seat 0..3; skipped")
                continue
            cards = self.cards(p.get("cards"), doc, path + ("plays", i, "cards"), "played cards")
            if cards is None:
                continue
            pl, pc = doc.pos(*path, "plays", i)
            trick.plays.append(Play(seat=SOURCE_SEATS[p["seat"]], cards=cards, span=span_at(pl, pc)))
        if trick.plays and t.get("lead_seat") is not None and seat_of(t.get("lead_seat")) != trick.plays[0].seat:
            self.sink.add("SJ705", doc.span(*path, "lead_seat"), "lead_seat is not the seat of the first play")
        r.tricks.append(trick)
        n = len(r.tricks)
        winner = seat_of(t.get("winner"))
        pts = _int(t.get("trick_points"))
        if winner is not None or pts is not None:
            wl, wc = doc.pos(*path, "winner") if "winner" in t else doc.pos(*path)
            r.claims.append(Claim(line=wl, column=wc, trick=n, winner=winner, points=pts,
                                  name=f"S{t.get('winner')}" if winner else None))
        after = _int(t.get("attack_score_after"))
        if after is not None:
            al, ac = doc.pos(*path, "attack_score_after")
            r.claims.append(Claim(line=al, column=ac, trick=n, winner=None, points=after, kind="running"))

    def json_settlement(self, r: _Round, st: dict[str, Any], doc: _json.JsonDoc, path: _json.Path) -> None:
        final = _int(st.get("final_score"))
        if final is not None:
            r.final, r.final_at = final, doc.pos(*path, "final_score")
            r.claims.append(Claim(line=r.final_at[0], column=r.final_at[1], trick=None, winner=None,
                                  points=final, kind="total"))
        bonus, score, mult = _int(st.get("bottom_bonus")), _int(st.get("bottom_score")), _int(st.get("bottom_multiplier"))
        if bonus is not None:
            bl, bc = doc.pos(*path, "bottom_bonus")
            r.claims.append(Claim(line=bl, column=bc, trick=None, winner=None, points=bonus, kind="kitty",
                                  kitty_points=score, multiplier=mult))
        side, levels = st.get("upgrading_side"), _int(st.get("upgrade_levels"))
        new_rank = _int(st.get("new_rank"))
        nd = st.get("new_dealer")
        next_dealer = seat_of(nd) if isinstance(nd, int) and nd >= 0 else (
            seat_of(r.dealer) if isinstance(nd, int) and r.dealer is not None else None)
        over = st.get("game_over") if isinstance(st.get("game_over"), bool) else None
        if side in (0, 1) and levels is not None:
            sl, sc = doc.pos(*path, "upgrading_side")
            r.claims.append(Claim(line=sl, column=sc, trick=None, winner=next_dealer, points=levels,
                                  kind="outcome", dealers_rise=side == 0,
                                  level=new_rank if levels > 0 else None, over=over))

    # -- the HTML report ---------------------------------------------------------------------------
    def html_rounds(self) -> list[_Round]:
        text = self.text
        starts = [0] + [m.end() for m in re.finditer("\n", text)]

        def where(offset: int) -> tuple[int, int]:
            i = bisect.bisect_right(starts, offset) - 1
            return (i + 1, offset - starts[i] + 1)

        sections = list(re.finditer(r'<section\b[^>]*class="round-section"[^>]*>', text))
        if not sections:
            self.sink.add("SJ701", (1, 1), "not a shengji-godot report: no `<section class=\"round-section\">`")
            return []
        rounds = []
        for k, m in enumerate(sections):
            end = sections[k + 1].start() if k + 1 < len(sections) else len(text)
            rounds.append(self.html_round(text, m.start(), end, k + 1, where))
        return rounds

    def html_round(self, text: str, start: int, end: int, number: int, where: Any) -> _Round:
        body = text[start:end]
        r = _Round(at=where(start), number=number, in_draw_order=False)
        kv: dict[str, tuple[str, int]] = {}
        for m in re.finditer(r"<span>([^<]+)</span><b>(.*?)</b>", body):
            kv.setdefault(html.unescape(m.group(1)).strip(), (html.unescape(_strip_tags(m.group(2))).strip(),
                                                              start + m.start(2)))

        def pos(key: str) -> tuple[int, int]:
            return where(kv[key][1]) if key in kv else r.at

        lv = kv.get("队伍级")
        if lv is not None:
            parts = [p.strip() for p in lv[0].split("/")]
            try:
                ns, ew = (parse_rank(parts[0]), parse_rank(parts[1])) if len(parts) == 2 else (0, 0)
            except ValueError:
                ns = ew = 0
            if 2 <= ns <= 14 and 2 <= ew <= 14:
                r.levels, r.levels_at = (ns, ew), pos("队伍级")
            else:
                self.sink.add("SJ705", pos("队伍级"), f"队伍级 {lv[0]!r} should be two levels NS / EW")
        else:
            self.sink.add("SJ705", r.at, "the round has no 队伍级 (team levels)")
        if "庄家" in kv:
            r.dealer = _html_seat(kv["庄家"][0])
            r.dealer_at = pos("庄家")
        trump = kv.get("主花色")
        if trump is not None:
            t = trump[0]
            r.trump = _NT if t == "公主" else _SUIT_SYMBOLS.get(t)
            r.trump_at = pos("主花色")
            if r.trump is None:
                self.sink.add("SJ705", r.trump_at, f"主花色 {t!r} is not ♠♥♦♣ or 公主")
        bids = kv.get("亮主")
        if bids is not None:
            self.html_bids(r, bids[0], pos("亮主"))
        # bottom and buried cards
        for label, attr in (("底牌", "kitty"), ("埋牌", "buried")):
            found = re.search(rf"<b>{label}：</b>(.*?)</p>", body, re.S)
            if found:
                got = self.html_cards(found.group(1), start + found.start(1), where, label)
                if got is not None:
                    setattr(r, attr, got)
                    setattr(r, attr + "_at", where(start + found.start()))
        # initial hands (sorted for display)
        hands: dict[int, tuple[int, ...]] = {}
        first_at = None
        for m in re.finditer(r'<details class="initial-hand">\s*<summary>(.*?)</summary>\s*'
                             r'<div class="hand-cards">(.*?)</div>', body, re.S):
            seat = _html_seat(html.unescape(m.group(1)))
            got = self.html_cards(m.group(2), start + m.start(2), where, "initial hand")
            if seat is not None and got is not None:
                hands[seat] = got
                first_at = first_at or where(start + m.start())
        if len(hands) == 4:
            r.deal = [hands[s] for s in range(4)]
            r.deal_at = first_at or r.at
        else:
            self.sink.add("SJ705", r.at, f"the report shows {len(hands)} initial hands, not 4: no deal")
        # tricks
        for m in re.finditer(r'<details class="trick-card"[^>]*>\s*<summary[^>]*>\s*<span>[^<]*</span>\s*'
                             r'<span>([^<]*)</span>\s*</summary>(.*?)</details>\s*(?=<details class="trick-card"|'
                             r'</div>\s*</section>|$)', body, re.S):
            self.html_trick(r, html.unescape(m.group(1)), start + m.start(1), m.group(2), start + m.start(2),
                            where)
        # settlement
        if "最终分" in kv:
            final = _int_text(kv["最终分"][0])
            if final is not None:
                r.final, r.final_at = final, pos("最终分")
                r.claims.append(Claim(line=r.final_at[0], column=r.final_at[1], trick=None, winner=None,
                                      points=final, kind="total"))
        if "底牌奖励" in kv:
            m2 = re.match(r"\s*(\d+)\s*[×x*]\s*(\d+)\s*=\s*(\d+)\s*$", kv["底牌奖励"][0])
            if m2:
                bl, bc = pos("底牌奖励")
                r.claims.append(Claim(line=bl, column=bc, trick=None, winner=None, points=int(m2.group(3)),
                                      kind="kitty", kitty_points=int(m2.group(1)), multiplier=int(m2.group(2))))
        if "升级方" in kv:
            side = kv["升级方"][0]
            dealers_rise = True if side.startswith("庄家") else False if side.startswith("攻方") else None
            new = kv.get("新级")
            nxt = _html_seat(kv["下局期望庄家"][0]) if "下局期望庄家" in kv else None
            level = None
            if new is not None:
                try:
                    level = parse_rank(new[0])
                except ValueError:
                    level = None
            if dealers_rise is not None:
                sl, sc = pos("升级方")
                r.claims.append(Claim(line=sl, column=sc, trick=None, winner=seat_of(nxt), points=None,
                                      kind="outcome", dealers_rise=dealers_rise, level=level))
        return r

    def html_cards(self, fragment: str, offset: int, where: Any, what: str) -> tuple[int, ...] | None:
        out, ok = [], True
        for m in re.finditer(r'<span class="card-token[^"]*">([^<]*)</span>', fragment):
            c = card(html.unescape(m.group(1)))
            if c is None:
                self.sink.add("SJ703", where(offset + m.start(1)), f"{what}: {m.group(1)!r} is not a card")
                ok = False
            else:
                out.append(c)
        return tuple(out) if ok else None

    def html_bids(self, r: _Round, text: str, at: tuple[int, int]) -> None:
        r.bid_at = at
        for part in (p.strip() for p in text.split(",")):
            m = re.match(r"S([0-3])\s*跳过\s*(?:\((\w+)\))?", part)
            if m:
                why = _PASS_REASONS.get(m.group(2) or "", m.group(2) or "no reason given")
                r.passes.append(f"S{m.group(1)} ({SOURCE_SEATS[int(m.group(1))]}) passes ({why})")
                continue
            won = re.match(r"S([0-3])\s*亮\s*(公主|[♠♥♦♣])", part)
            if won:
                if r.bid is None:
                    r.bid = (int(won.group(1)), _NT if won.group(2) == "公主" else _SUIT_SYMBOLS[won.group(2)], 1,
                             True)
                continue
            if part:
                self.sink.add("SJ702", at, f"亮主: {part!r} is neither a pass (跳过) nor a bid (亮); skipped")
        if r.bid is None and not r.passes:
            self.sink.add("SJ705", at, "亮主 names no bid and no pass")
        elif r.bid is None:
            r.no_bid = True

    def html_trick(self, r: _Round, header: str, header_at: int, body: str, body_at: int, where: Any) -> None:
        line, col = where(header_at)
        trick = Trick(number=len(r.tricks) + 1, span=span_at(line, col))
        for m in re.finditer(r'<div class="play-row">\s*<b>([^<]*)</b>\s*<span>(.*?)</span>\s*<code>', body, re.S):
            seat = _html_seat(html.unescape(m.group(1)))
            cards = self.html_cards(m.group(2), body_at + m.start(2), where, "played cards")
            pl, pc = where(body_at + m.start())
            if seat is None:
                self.sink.add("SJ705", (pl, pc), f"play row of an unknown seat {m.group(1)!r}; skipped")
                continue
            if cards is not None:
                trick.plays.append(Play(seat=SOURCE_SEATS[seat], cards=cards, span=span_at(pl, pc)))
        r.tricks.append(trick)
        n = len(r.tricks)
        m2 = re.search(r"先手\s*S([0-3]).*?赢家\s*S([0-3]).*?本墩\s*(\d+)\s*分.*?攻方\s*(\d+)\s*→\s*(\d+)", header)
        if not m2:
            self.sink.add("SJ705", (line, col), f"trick header {header!r} not understood: no claims")
            return
        if trick.plays and SOURCE_SEATS[int(m2.group(1))] != trick.plays[0].seat:
            self.sink.add("SJ705", (line, col), "the header's 先手 is not the seat of the first play")
        wl, wc = where(header_at + m2.start(2) - 1)
        r.claims.append(Claim(line=wl, column=wc, trick=n, winner=SOURCE_SEATS[int(m2.group(2))],
                              points=int(m2.group(3)), name=f"S{m2.group(2)}"))
        al, ac = where(header_at + m2.start(5))
        r.claims.append(Claim(line=al, column=ac, trick=n, winner=None, points=int(m2.group(5)), kind="running"))

    # -- the SJN hand ------------------------------------------------------------------------------
    def hand(self, r: _Round, number: int) -> Hand:
        hand = Hand(number=number, span=span_at(*r.at), dealer="?")
        if r.levels is not None:
            hand.levels = Levels(ns=r.levels[0], ew=r.levels[1], span=span_at(*r.levels_at))
        if r.dealer is not None:
            self.claims.append(Claim(line=r.dealer_at[0], column=r.dealer_at[1], trick=None,
                                     winner=SOURCE_SEATS[r.dealer], points=None, hand=number, kind="dealer",
                                     name=f"S{r.dealer}"))
        if r.deal is not None:
            if r.in_draw_order:
                hand.first = "S"
            else:
                hand.comments.append("the report shows each hand sorted: the draw order is lost, so the seat "
                                     "lines hold the cards only (no `first`, no `@k`)")
            for s in ("N", "W", "S", "E"):
                hand.deal.append(SeatCards(seat=s, cards=r.deal[SOURCE_SEATS.index(s)], span=span_at(*r.deal_at)))
        if r.kitty is not None:
            hand.kitty, hand.kitty_span = r.kitty, span_at(*r.kitty_at)
        if r.passes:
            hand.comments.append("bidding: " + comment_text("; ".join(r.passes)))
        hand.comments.extend(comment_text(c) for c in r.comments)
        if r.bid is not None:
            seat, suit, copies, with_joker = r.bid
            team_level = r.levels[seat % 2] if r.levels is not None else 2
            held = r.deal[seat] if r.deal is not None else None
            cards = declared_cards(suit, copies, team_level, held)
            if not with_joker and suit != _NT:
                cards = cards[:-1]        # bid_requires_joker off: the level card(s) alone
            hand.events.append(Declaration(seat=SOURCE_SEATS[seat], cards=cards,
                                           at=25 if r.in_draw_order and r.deal is not None else None,
                                           span=span_at(*r.bid_at)))
        elif r.no_bid:
            hand.declare_none = span_at(*r.bid_at)
        if r.trump is not None:
            hand.trump = 4 if r.trump == _NT else r.trump
            hand.trump_span = span_at(*r.trump_at)
        if r.buried is not None and r.dealer is not None:
            hand.events.append(Bury(seat=SOURCE_SEATS[r.dealer], cards=r.buried, span=span_at(*r.buried_at)))
        hand.tricks = r.tricks
        if r.final is not None and r.tricks:
            hand.points, hand.points_span = r.final, span_at(*r.final_at)
        for c in r.claims:
            self.claims.append(Claim(**{**c.__dict__, "hand": number}))
        return hand


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _int_text(t: str) -> int | None:
    t = t.strip()
    return int(t) if t.lstrip("-").isdigit() else None


def _strip_tags(s: str) -> str:
    return re.sub(r"<[^>]*>", "", s)


def _html_seat(text: str) -> int | None:
    m = re.match(r"\s*S([0-3])\b", text)
    return int(m.group(1)) if m else None


def _is_html(text: str) -> bool:
    head = text.lstrip()[:2000].lower()
    return head.startswith("<!doctype html") or head.startswith("<html") or 'class="round-section"' in text[:200000]


def import_log(text: str, source: str = "") -> ImportResult:
    """Import a shengji-godot GameLogger log or its HTML report (see the module docstring)."""
    return _Importer(text, source).run()


def looks_like(text: str) -> bool:
    head = text.lstrip()[:20000]
    if head.startswith("{"):
        # (keys may come in any order: the repository's sample has them sorted, `rule_config` last)
        body = text[:60000]
        return bool(re.search(r'"rounds"\s*:\s*\[', body)
                    and len(re.findall(r'"(bid_history|trump_suit_symbol|team_ranks|rank_symbol)"\s*:', body)) >= 2)
    if head[:200].lower().startswith(("<!doctype html", "<html")):
        return "双升日志复盘" in head or ('class="round-section"' in text and "card-token" in text)
    return False


__all__ = ["import_log", "card", "looks_like", "declared_cards", "RULES"]
