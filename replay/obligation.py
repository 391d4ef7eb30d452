"""Follow obligations (RULES.md §6 "Following", step 3): how much of a
lead's structure a holding of the led suit can meet, as a vector; a follow
is legal on shape when its vector equals the whole holding's."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from replay.order import Order
from replay.runs import card_counts, sub_runs, tractor_runs
from replay.shapes import Unit


def _tuple_fill(counts: dict[int, int], demand: dict[int, int], max_width: int) -> list[int]:
    """Fill the lead's tuple demand (width → count) from ``counts``, widest first;
    an unmet w-tuple falls back to a (w-1)-tuple (seed 004: triple → pair + single).
    Returns the number filled at each width, widest first (down to 2)."""
    counts = dict(counts)
    demand = dict(demand)
    filled: list[int] = []
    for w in range(max_width, 1, -1):
        need = demand.get(w, 0)
        got = 0
        if need:
            cands = []
            for c, k in counts.items():
                if k >= w:
                    cands.append(c)
            cands.sort(key=counts.__getitem__)
            for c in cands:
                while got < need and counts[c] >= w:
                    counts[c] -= w
                    got += 1
                if got == need:
                    break
        filled.append(got)
        if need - got and w - 1 >= 2:
            demand[w - 1] = demand.get(w - 1, 0) + need - got
    return filled


def _tractor_match(counts: dict[int, int], key: Sequence[int], tractors: Sequence[tuple[int, int]],
                   strict: bool) -> list[int]:
    """For each lead tractor (w, L), longest first: L if the cards hold such a
    tractor (taken out before the next), else 0 — or, ``strict``, the length of
    the longest tractor of width w up to L that they hold (0 if none)."""
    counts = dict(counts)
    out: list[int] = []
    for w, length in tractors:
        best_len = 0
        best_run: list[int] | None = None
        for run in tractor_runs(counts, key, w):
            got = min(len(run), length)
            if got > best_len:
                best_len, best_run = got, run[-got:]
        if best_run is None or (not strict and best_len < length):
            out.append(0)
            continue
        out.append(best_len)
        for c in best_run:
            counts[c] -= w
    return out


def obligation(lead: Sequence[Unit], cards: Iterable[int], order: Order, policy: str = "pairs",
               decks: int = 2) -> tuple[int, ...]:
    """How much of the lead's structure ``cards`` (of the led suit) can meet,
    as a vector compared lexicographically; a follow is legal on shape when its
    vector equals the vector of the whole holding in that suit.

    ``pairs``: each lead tractor matched in full (or not), then tuples of the
    lead's widths (a tractor of length L counts L), widest first, unmet wider
    tuples falling back to narrower ones. ``strict`` (shengji.io): an unmatched
    lead tractor still obliges the longest shorter tractor of that width.
    With triples (seed 004's Titanic fallback order), all of a Titanic's triples
    rank above a pair-tractor, which ranks above fewer triples.
    """
    counts = card_counts(cards)
    key = order.key
    # pure_tractor (shengji.fly.dev): only a lead that is one tractor obliges a tractor
    with_tractors = policy != "pure_tractor" or len(lead) == 1
    tractors: list[tuple[int, int]] = []
    demand: dict[int, int] = {}
    for u in lead:   # (one loop, no comprehension: a lead has a handful of units)
        w = u.width
        if w >= 2:
            demand[w] = demand.get(w, 0) + u.length
        if u.length >= 2 and with_tractors:
            tractors.append((w, u.length))
    max_width = max(demand, default=1)
    if max_width == 2 and not tractors:
        # pairs only, no tractor to match: the pairs held, up to the lead's (what
        # _tuple_fill counts: a card of k copies holds k // 2 pairs)
        need = demand[2]
        have = 0
        for n in counts.values():
            have += n >> 1
        return (need if have >= need else have,)
    vec = _tractor_match(counts, key, tractors, policy == "strict") if tractors else []
    wide = [(i, w, L) for i, (w, L) in enumerate(tractors) if w >= 3 and vec[i] < L] if tractors else None
    if not wide:
        return tuple(vec + _tuple_fill(counts, demand, max_width))
    # seed 004 (a lead with triples): an unmatched Titanic is met first by all its
    # triples, else by a tractor one narrower, and only then by fewer triples / pairs.
    # Each option met takes its cards and that part of the demand.
    rest = dict(counts)
    for _, w, length in wide:
        stacks = [c for c, n in rest.items() if n >= w]
        full = len(stacks) >= length
        if full:
            for c in sorted(stacks, key=lambda c: rest[c])[:length]:
                rest[c] -= w
            demand[w] -= length
            vec += [1, 0]
            continue
        got = _tractor_match(rest, key, [(w - 1, length)], False)[0]
        if got:
            runs = [r for r in sub_runs(rest, key, w - 1, length)]
            for c in runs[-1]:
                rest[c] -= w - 1
            demand[w] -= length
            vec += [0, 1]
        else:
            vec += [0, 0]
    return tuple(vec + _tuple_fill(rest, demand, max_width))
