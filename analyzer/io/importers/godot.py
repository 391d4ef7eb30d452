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

import re

from analyzer.io.importers._common import (
    SOURCE_SEATS,
    Claim,
    ImportResult,
    comment_text,
    span_at,
    tags_for,
)
from analyzer.io.importers._godot_common import (
    GODOT_NT,
    RULES,
    GodotRound,
    declared_cards,
    is_html,
)
from analyzer.io.importers._godot_html import HtmlReport
from analyzer.io.importers._godot_json import JsonLog
from notation.model import Bury, Declaration, Hand, Levels, Record, SeatCards


class _Importer(JsonLog, HtmlReport):
    def run(self) -> ImportResult:
        result = ImportResult(diagnostics=self.sink.items, claims=self.claims)
        extra: list[tuple[str, str]] = []
        if is_html(self.text):
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

    # -- the SJN hand ------------------------------------------------------------------------------
    def hand(self, r: GodotRound, number: int) -> Hand:
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
            if not with_joker and suit != GODOT_NT:
                cards = cards[:-1]        # bid_requires_joker off: the level card(s) alone
            hand.events.append(Declaration(seat=SOURCE_SEATS[seat], cards=cards,
                                           at=25 if r.in_draw_order and r.deal is not None else None,
                                           span=span_at(*r.bid_at)))
        elif r.no_bid:
            hand.declare_none = span_at(*r.bid_at)
        if r.trump is not None:
            hand.trump = 4 if r.trump == GODOT_NT else r.trump
            hand.trump_span = span_at(*r.trump_at)
        if r.buried is not None and r.dealer is not None:
            hand.events.append(Bury(seat=SOURCE_SEATS[r.dealer], cards=r.buried, span=span_at(*r.buried_at)))
        hand.tricks = r.tricks
        if r.final is not None and r.tricks:
            hand.points, hand.points_span = r.final, span_at(*r.final_at)
        for c in r.claims:
            self.claims.append(Claim(**{**c.__dict__, "hand": number}))
        return hand


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


__all__ = ["import_log", "looks_like", "RULES"]  # (RULES: every importer module names its rules, api.RULES)
