"""What both forms of a shengji-godot log share (:mod:`analyzer.io.importers.godot`):
its cards, the declared cards of a bid, one round as either form gives it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from analyzer.io.importers._common import Claim
from notation.model import Trick
from primitives.cards import BJ, LJ, parse_rank

RULES = "shengji-godot"
GODOT_SUIT_SYMBOLS = {"♠": 0, "♥": 1, "♦": 2, "♣": 3}
#: the game's Card.Suit numbers (0 ♠, 1 ♥, 2 ♦, 3 ♣) are the project's suit numbers
GODOT_NT = -1
_CARD = re.compile(r"^([♠♥♦♣])(10|[2-9JQKA])$")
PASS_REASONS = {"no_valid_cards": "no valid cards", "ai_pass": "AI pass", "player_choice": "the player's choice",
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
    return GODOT_SUIT_SYMBOLS[m.group(1)] * 13 + parse_rank(m.group(2)) - 2


def colour_joker(suit: int) -> int:
    """The joker that declares a level card of ``suit`` (trump_joker_color_match): red BJ with ♥/♦."""
    return BJ if suit in (1, 2) else LJ


def declared_cards(suit: int, copies: int, level: int, held: tuple[int, ...] | None) -> tuple[int, ...]:
    """The cards a declaration of ``suit`` (-1: 公主, a pair of identical jokers) shows:
    ``copies`` level cards of the suit + the joker of its colour; for 公主 the pair the
    seat holds (``held``; the big jokers when it holds both pairs or is not known)."""
    if suit == GODOT_NT:
        if held is not None and held.count(BJ) < 2 and held.count(LJ) >= 2:
            return (LJ, LJ)
        return (BJ, BJ)
    return (suit * 13 + level - 2,) * copies + (colour_joker(suit),)


@dataclass
class GodotRound:
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


def int_or_none(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def int_text(t: str) -> int | None:
    t = t.strip()
    return int(t) if t.lstrip("-").isdigit() else None


def strip_tags(s: str) -> str:
    return re.sub(r"<[^>]*>", "", s)


def html_seat(text: str) -> int | None:
    m = re.match(r"\s*S([0-3])\b", text)
    return int(m.group(1)) if m else None


def is_html(text: str) -> bool:
    head = text.lstrip()[:2000].lower()
    return head.startswith("<!doctype html") or head.startswith("<html") or 'class="round-section"' in text[:200000]
