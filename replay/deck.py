"""The cards a ruleset plays with: the one deck helper of the engine."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from primitives.cards import NUM_CARDS
from replay.ruleset import Ruleset


def deck(ruleset: Ruleset) -> Counter[int]:
    """The full deck multiset of ``ruleset``: card → copies (``ruleset.decks`` of each of the 54 cards)."""
    return Counter({c: ruleset.decks for c in range(NUM_CARDS)})


def deck_cards(ruleset: Ruleset) -> list[int]:
    """The full deck as a list, in card order (``deck(ruleset)``'s elements)."""
    return [c for c in range(NUM_CARDS) for _ in range(ruleset.decks)]


def remainder(ruleset: Ruleset, *taken: Iterable[int]) -> tuple[int, ...] | None:
    """What the deck leaves after the cards of ``taken`` (sorted), or None
    when they hold a card more often than the decks do."""
    left = deck(ruleset)
    for cards in taken:
        left.subtract(cards)
    if any(v < 0 for v in left.values()):
        return None
    return tuple(sorted(left.elements()))


__all__ = ["deck", "deck_cards", "remainder"]
