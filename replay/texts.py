"""Cards and units as messages and reports write them: high to low in the
hand's order, an absurd number of cards as a count."""

from __future__ import annotations

from collections.abc import Sequence

from primitives.cards import format_cards
from replay.order import Order
from replay.shapes import Unit, shape_name


def cards_text(cards: Sequence[int], order: Order | None = None) -> str:
    """Cards for messages: sorted high to low when an order is known."""
    if len(cards) > _MESSAGE_CARDS:  # an absurd play: say how many, not each card
        return f"{len(cards):,} cards"
    if order is not None:
        cards = order.sorted(cards)
    return format_cards(cards, unicode=True)


#: more cards than this in a message are given as a count
_MESSAGE_CARDS = 60


def unit_text(u: Unit, order: Order | None = None) -> str:
    return f"{shape_name(u.width, u.length)} {cards_text(u.cards, order)}"
