"""A seat's holding as the trick loops keep it: card → copies, split by effective suit.

The engine's position (:class:`replay.state.HandState`), its record mode
(:class:`replay.record.RecordState`) and the record replay share these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

#: a play's cards (cards are ints: primitives.cards)
Cards = tuple[int, ...]


def by_suit(holding: Mapping[int, int], eff: Sequence[int]) -> tuple[dict[int, int], ...]:
    """A holding split by effective suit (index 0..3, TRUMP): card → copies, positive only."""
    out: tuple[dict[int, int], ...] = ({}, {}, {}, {}, {})
    for c, k in holding.items():
        if k > 0:
            out[eff[c]][c] = k
    return out


def remove_from(h: dict[int, int], cards: Iterable[int]) -> list[int]:
    """Take ``cards`` out of the holding ``h`` (card → copies, no zero counts kept); the cards it lacked."""
    missing = []
    for c in cards:
        k = h.get(c, 0)
        if k > 1:
            h[c] = k - 1
        elif k:
            del h[c]
        else:
            missing.append(c)
    return missing


def remove_by_suit(hs: tuple[dict[int, int], ...], cards: Iterable[int], eff: Sequence[int]) -> list[int] | None:
    """Take ``cards`` out of a holding split by suit (:func:`by_suit`); the
    cards it lacked, or None when it held them all."""
    missing: list[int] | None = None
    for c in cards:
        h = hs[eff[c]]
        k = h.get(c, 0)
        if k > 1:
            h[c] = k - 1
        elif k:
            del h[c]
        elif missing is None:
            missing = [c]
        else:
            missing.append(c)
    return missing


__all__ = ["Cards", "by_suit", "remove_from", "remove_by_suit"]
