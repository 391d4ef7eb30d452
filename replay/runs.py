"""Runs of adjacent ranks in a holding (RULES.md §3: the tractor ladder is
the :class:`~replay.order.Order`'s keys, adjacent when they differ by one):
what decomposing, covering, following and the throw check all look for.
Pure functions over card counts and keys."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def card_counts(cards: Iterable[int]) -> dict[int, int]:
    """card → copies (a plain dict: cheaper than Counter for a handful of cards)."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return counts



def tractor_runs(counts: dict[int, int], key: Sequence[int], width: int) -> list[list[int]]:
    """Maximal runs (length ≥ 2) of adjacent keys where some card has ≥ width copies.

    Each run is a list of cards, lowest key first (one card per key).
    """
    avail: dict[int, int] = {}
    for c, n in counts.items():
        if n >= width:
            k = key[c]
            if k not in avail or c < avail[k]:
                avail[k] = c
    if len(avail) < 2:
        return []
    runs: list[list[int]] = []
    cur: list[int] = []
    prev = -10
    for k in sorted(avail):
        if cur and k == prev + 1:
            cur.append(avail[k])
        else:
            if len(cur) >= 2:
                runs.append(cur)
            cur = [avail[k]]
        prev = k
    if len(cur) >= 2:
        runs.append(cur)
    return runs


def sub_runs(counts: dict[int, int], key: Sequence[int], width: int, length: int) -> list[list[int]]:
    """Every run of exactly ``length`` adjacent ranks with ≥ width copies, highest first."""
    out: list[list[int]] = []
    for run in tractor_runs(counts, key, width):
        for i in range(len(run) - length, -1, -1):
            out.append(run[i:i + length])
    out.sort(key=lambda r: -key[r[-1]])
    return out
