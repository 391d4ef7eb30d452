"""The exact search's verdict on one play (:class:`Verdict`) and the texts a
finding gives it: the best line (:func:`pv_text`) and a level outcome
(:func:`outcome_text`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from replay.order import Order
from replay.scoring import HandOutcome, other_team
from replay.seats import SEATS as SEAT_ORDER


@dataclass(frozen=True, slots=True)
class Verdict:
    """The exact search's verdict on one play: ``cost`` in points against the
    player's side, the attackers' final total with the best play and after
    the play made (both followed by best play)."""

    cost: int
    best_total: int
    after_total: int


def pv_text(pv: Sequence[tuple[int, Sequence[int]]], order: Order, trick_no: int, k: int) -> str:
    """``then N ♥9, W ♠3 …; trick 12: W ♠A …`` for a principal variation
    (seat index, cards) starting at play ``k`` of trick ``trick_no``."""
    from replay.texts import cards_text
    parts: list[tuple[int, list[str]]] = []
    cur: list[str] = []
    n = trick_no
    for i, (seat, cards) in enumerate(pv):
        cur.append(f"{SEAT_ORDER[seat]} {cards_text(cards, order)}")
        if (k + i + 1) % 4 == 0:
            parts.append((n, cur))
            cur, n = [], n + 1
    if cur:
        parts.append((n, cur))
    return "best line: " + "; ".join(f"trick {no}: " + ", ".join(c) for no, c in parts)


def outcome_text(o: HandOutcome, dealers: str) -> str:
    if o.dealers_keep:
        return f"{dealers} keep the deal +{o.gained}"
    return f"{other_team(dealers)} take the deal" + (f" +{o.gained}" if o.gained else "")
