"""The shengji-godot GameLogger JSON log, round by round (see
:mod:`analyzer.io.importers.godot`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from analyzer.io.importers import _json
from analyzer.io.importers._common import (
    SOURCE_SEATS,
    Claim,
    LogImporter,
    seat_of,
    span_at,
)
from analyzer.io.importers._godot_common import (
    GODOT_SUIT_SYMBOLS,
    PASS_REASONS,
    GodotRound,
    card,
    int_or_none,
)
from notation.model import Play, Trick
from primitives.cards import rank_name


class JsonLog(LogImporter):
    """The JSON log's rounds (with the rule tags of its ``rule_config``)."""

    def json_rounds(self, extra: list[tuple[str, str]]) -> list[GodotRound]:
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

    def json_round(self, raw: dict[str, Any], doc: _json.JsonDoc, base: _json.Path) -> GodotRound:
        def at(*path: Any) -> tuple[int, int]:
            return doc.pos(*base, *path)

        num = raw.get("round_num")
        r = GodotRound(at=at(), number=num if isinstance(num, int) and not isinstance(num, bool) else 0)
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
                why = PASS_REASONS.get(reason, str(reason or "no reason given")) if isinstance(reason, str) \
                    else "no reason given"
                r.passes.append(f"S{h['seat']} ({seat_of(h['seat'])}) passes ({why})")
        bid = raw.get("bid")
        if isinstance(bid, dict):
            self.json_bid(r, bid, doc, base + ("bid",))
        ts = raw.get("trump_suit")
        if isinstance(ts, int) and not isinstance(ts, bool) and -1 <= ts <= 3:
            r.trump, r.trump_at = ts, at("trump_suit")
            sym = raw.get("trump_suit_symbol")
            if isinstance(sym, str) and sym in GODOT_SUIT_SYMBOLS and GODOT_SUIT_SYMBOLS[sym] != ts:
                self.sink.add("SJ705", doc.span(*base, "trump_suit_symbol"),
                              f"trump_suit {ts} is {'♠♥♦♣'[ts] if ts >= 0 else '公主'} but the symbol says {sym}; "
                              f"the symbol is kept")
                r.trump = GODOT_SUIT_SYMBOLS[sym]
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

    def check_bottom(self, r: GodotRound, raw: dict[str, Any], dbg: dict[str, Any], doc: _json.JsonDoc,
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

    def json_bid(self, r: GodotRound, bid: dict[str, Any], doc: _json.JsonDoc, path: _json.Path) -> None:
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
        if isinstance(sym, str) and sym in GODOT_SUIT_SYMBOLS and GODOT_SUIT_SYMBOLS[sym] != suit:
            self.sink.add("SJ705", doc.span(*path, "suit_symbol"), f"bid suit {suit} but symbol {sym}; the "
                                                                   f"symbol is kept")
            suit = GODOT_SUIT_SYMBOLS[sym]
        # the bid type: 1 single, 2 pair (no joker needed); 3 joker + level card; 4 公主 or, in later
        # versions, joker + level pair (then 5 is 公主)
        copies = 2 if kind in (2,) or (kind == 4 and suit >= 0) else 1
        r.bid = (seat if isinstance(seat, int) else 0, suit, copies, kind not in (1, 2))

    def json_trick(self, r: GodotRound, t: Any, doc: _json.JsonDoc, path: _json.Path) -> None:
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
        pts = int_or_none(t.get("trick_points"))
        if winner is not None or pts is not None:
            wl, wc = doc.pos(*path, "winner") if "winner" in t else doc.pos(*path)
            r.claims.append(Claim(line=wl, column=wc, trick=n, winner=winner, points=pts,
                                  name=f"S{t.get('winner')}" if winner else None))
        after = int_or_none(t.get("attack_score_after"))
        if after is not None:
            al, ac = doc.pos(*path, "attack_score_after")
            r.claims.append(Claim(line=al, column=ac, trick=n, winner=None, points=after, kind="running"))

    def json_settlement(self, r: GodotRound, st: dict[str, Any], doc: _json.JsonDoc, path: _json.Path) -> None:
        final = int_or_none(st.get("final_score"))
        if final is not None:
            r.final, r.final_at = final, doc.pos(*path, "final_score")
            r.claims.append(Claim(line=r.final_at[0], column=r.final_at[1], trick=None, winner=None,
                                  points=final, kind="total"))
        bonus, score, mult = int_or_none(st.get("bottom_bonus")), int_or_none(st.get("bottom_score")), int_or_none(st.get("bottom_multiplier"))
        if bonus is not None:
            bl, bc = doc.pos(*path, "bottom_bonus")
            r.claims.append(Claim(line=bl, column=bc, trick=None, winner=None, points=bonus, kind="kitty",
                                  kitty_points=score, multiplier=mult))
        side, levels = st.get("upgrading_side"), int_or_none(st.get("upgrade_levels"))
        new_rank = int_or_none(st.get("new_rank"))
        nd = st.get("new_dealer")
        next_dealer = seat_of(nd) if isinstance(nd, int) and nd >= 0 else (
            seat_of(r.dealer) if isinstance(nd, int) and r.dealer is not None else None)
        over = st.get("game_over") if isinstance(st.get("game_over"), bool) else None
        if side in (0, 1) and levels is not None:
            sl, sc = doc.pos(*path, "upgrading_side")
            r.claims.append(Claim(line=sl, column=sc, trick=None, winner=next_dealer, points=levels,
                                  kind="outcome", dealers_rise=side == 0,
                                  level=new_rank if levels > 0 else None, over=over))
