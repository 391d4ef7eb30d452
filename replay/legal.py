"""Legal plays of a seat in a position: the engine API that bots, the
generator and the endgame search use (they never re-implement a rule).

Holdings are ``Counter``-like maps card → count. Plays are tuples of cards.
Enumeration yields distinct multisets only (two copies of ♠A are one choice).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from .order import Order
from .trick import check_follow, lead_suit
from .units import Unit, _runs, _sub_runs, decompose


def multisets(holding: Mapping[int, int], k: int) -> Iterator[tuple[int, ...]]:
    """Every distinct sub-multiset of ``holding`` with ``k`` cards (cards ascending)."""
    items = sorted((c, n) for c, n in holding.items() if n > 0)
    suffix = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + items[i][1]
    out: list[int] = []

    def rec(i: int, need: int) -> Iterator[tuple[int, ...]]:
        if need == 0:
            yield tuple(out)
            return
        if i == len(items) or suffix[i] < need:
            return
        c, n = items[i]
        for take in range(min(n, need), -1, -1):
            out.extend([c] * take)
            yield from rec(i + 1, need - take)
            if take:
                del out[-take:]

    yield from rec(0, k)


def legal_follows(lead: Sequence[int], holding: Mapping[int, int], order: Order, ruleset,
                  limit: int | None = None) -> list[tuple[int, ...]]:
    """Every legal follow (distinct multisets) to the played ``lead``.

    ``limit`` caps the number returned (the enumeration can be large when a
    player cannot follow and may discard any cards).
    """
    suit = lead_suit(lead, order)
    n = len(lead)
    eff = order.eff
    in_suit = Counter({c: k for c, k in holding.items() if k > 0 and eff[c] == suit})
    others = Counter({c: k for c, k in holding.items() if k > 0 and eff[c] != suit})
    have = sum(in_suit.values())
    out: list[tuple[int, ...]] = []
    if have >= n:
        units = decompose(lead, order)
        for play in multisets(in_suit, n):
            if check_follow(units, suit, in_suit, play, order, ruleset) is None:
                out.append(play)
                if limit is not None and len(out) >= limit:
                    break
        return out
    base = tuple(sorted(in_suit.elements()))
    for fill in multisets(others, n - have):
        out.append(base + fill)
        if limit is not None and len(out) >= limit:
            break
    return out


def is_legal_follow(lead: Sequence[int], holding: Mapping[int, int], play: Sequence[int],
                    order: Order, ruleset) -> bool:
    if len(play) != len(lead) or Counter(play) - Counter(holding):
        return False
    suit = lead_suit(lead, order)
    return check_follow(decompose(lead, order), suit, Counter(holding), play, order, ruleset) is None


def single_unit_leads(holding: Mapping[int, int], order: Order) -> list[Unit]:
    """Every distinct single-unit lead: singles, tuples (w ≤ copies held) and
    tractors of every width and length the holding allows."""
    eff, key = order.eff, order.key
    out: list[Unit] = []
    by_suit: dict[int, dict[int, int]] = {}
    for c, n in holding.items():
        if n > 0:
            by_suit.setdefault(eff[c], {})[c] = n
    for suit_cards in by_suit.values():
        for c, n in suit_cards.items():
            for w in range(1, n + 1):
                out.append(Unit(w, 1, key[c], (c,) * w))
        top = max(suit_cards.values())
        for w in range(2, top + 1):
            longest = 0
            for run in _runs(suit_cards, key, w):
                longest = max(longest, len(run))
            for length in range(2, longest + 1):
                for run in _sub_runs(suit_cards, key, w, length):
                    out.append(Unit(w, length, key[run[-1]],
                                    tuple(c for c in reversed(run) for _ in range(w))))
    return out
