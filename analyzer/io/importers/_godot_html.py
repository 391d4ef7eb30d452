"""The shengji-godot HTML report (双升日志复盘), round by round (see
:mod:`analyzer.io.importers.godot`)."""

from __future__ import annotations

import bisect
import html
import re
from typing import Any

from analyzer.io.importers._common import (
    SOURCE_SEATS,
    Claim,
    LogImporter,
    seat_of,
    span_at,
)
from analyzer.io.importers._godot_common import (
    GODOT_NT,
    GODOT_SUIT_SYMBOLS,
    PASS_REASONS,
    GodotRound,
    card,
    html_seat,
    int_text,
    strip_tags,
)
from notation.model import Play, Trick
from primitives.cards import parse_rank


class HtmlReport(LogImporter):
    """The HTML report's rounds."""

    def html_rounds(self) -> list[GodotRound]:
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

    def html_round(self, text: str, start: int, end: int, number: int, where: Any) -> GodotRound:
        body = text[start:end]
        r = GodotRound(at=where(start), number=number, in_draw_order=False)
        kv: dict[str, tuple[str, int]] = {}
        for m in re.finditer(r"<span>([^<]+)</span><b>(.*?)</b>", body):
            kv.setdefault(html.unescape(m.group(1)).strip(), (html.unescape(strip_tags(m.group(2))).strip(),
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
            r.dealer = html_seat(kv["庄家"][0])
            r.dealer_at = pos("庄家")
        trump = kv.get("主花色")
        if trump is not None:
            t = trump[0]
            r.trump = GODOT_NT if t == "公主" else GODOT_SUIT_SYMBOLS.get(t)
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
            seat = html_seat(html.unescape(m.group(1)))
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
            final = int_text(kv["最终分"][0])
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
            nxt = html_seat(kv["下局期望庄家"][0]) if "下局期望庄家" in kv else None
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

    def html_bids(self, r: GodotRound, text: str, at: tuple[int, int]) -> None:
        r.bid_at = at
        for part in (p.strip() for p in text.split(",")):
            m = re.match(r"S([0-3])\s*跳过\s*(?:\((\w+)\))?", part)
            if m:
                why = PASS_REASONS.get(m.group(2) or "", m.group(2) or "no reason given")
                r.passes.append(f"S{m.group(1)} ({SOURCE_SEATS[int(m.group(1))]}) passes ({why})")
                continue
            won = re.match(r"S([0-3])\s*亮\s*(公主|[♠♥♦♣])", part)
            if won:
                if r.bid is None:
                    r.bid = (int(won.group(1)), GODOT_NT if won.group(2) == "公主" else GODOT_SUIT_SYMBOLS[won.group(2)], 1,
                             True)
                continue
            if part:
                self.sink.add("SJ702", at, f"亮主: {part!r} is neither a pass (跳过) nor a bid (亮); skipped")
        if r.bid is None and not r.passes:
            self.sink.add("SJ705", at, "亮主 names no bid and no pass")
        elif r.bid is None:
            r.no_bid = True

    def html_trick(self, r: GodotRound, header: str, header_at: int, body: str, body_at: int, where: Any) -> None:
        line, col = where(header_at)
        trick = Trick(number=len(r.tricks) + 1, span=span_at(line, col))
        for m in re.finditer(r'<div class="play-row">\s*<b>([^<]*)</b>\s*<span>(.*?)</span>\s*<code>', body, re.S):
            seat = html_seat(html.unescape(m.group(1)))
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
