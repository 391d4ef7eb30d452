"""Who wins a trick of several units as shengji.io decides it
(``trick.rs`` ``compute_winner``, ``format_match.rs``): every way a play
matches the lead's units (:func:`matches`) and the first play that beats
the best so far in each (:func:`winner`). Selected with the shengji.io
reading of the units (:mod:`replay.sjio`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from replay.shapes import Unit
from replay.sjio import ladder_paths, successors, unit_order
from replay.sjio_fallbacks import Shape

if TYPE_CHECKING:
    from replay.order import Order


Matching = tuple[tuple[int, int], ...]   # (card, copies) along the ladder: one unit of a play


def _multiset_k(mults: Sequence[int], k: int) -> Iterator[list[tuple[int, int]]]:
    """``multiset_k_combination_iter``: the ways to take ``k`` items of kinds with
    ``mults`` copies each, as (kind, count) lists, in the engine's order (the
    lowest kinds filled first, then counted up like digits)."""
    if sum(mults) < k or k <= 0:
        return
    cur = [0] * len(mults)

    def fill(n: int) -> None:
        i = 0
        while True:
            m = mults[i]
            if n <= m:
                cur[i] = n
                return
            cur[i] = m
            n -= m
            i += 1

    fill(k)
    while True:
        yield [(i, n) for i, n in enumerate(cur) if n > 0]
        i = next(j for j, n in enumerate(cur) if n)
        left = cur[i]
        cur[i] = 0
        while True:
            i += 1
            if i >= len(cur):
                return
            if cur[i] == mults[i]:
                left += cur[i]
                cur[i] = 0
            else:
                left -= 1
                cur[i] += 1
                break
        fill(left)


def _frozen(state: dict[Shape, dict[Matching, int]]) -> tuple:  # type: ignore[type-arg]
    return tuple(sorted((shape, tuple(sorted(m.items()))) for shape, m in state.items()))


def matches(cards: Sequence[int], fmt: Sequence[Shape], order: Order) -> Iterator[list[Matching]]:
    """Every way the engine reads ``cards`` (one effective suit) as the units
    ``fmt``, in the order its matcher finds them (``find_format_matches``: a
    queue of partial assignments, each unfilled shape expanded over the cards
    from the highest down — runs by a search up the ladder, tuples by
    combinations — repeated assignments skipped); each as one matching per
    unit of ``fmt``, the highest matching of a shape given to its first unit."""
    from collections import deque
    key, succ = order.key, successors(order)
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    ladder = sorted(counts, key=lambda c: (key[c], c))
    high_first = ladder[::-1]
    need: dict[Shape, int] = {}
    for f in fmt:
        need[f] = need.get(f, 0) + 1
    shapes = sorted(need)

    def rank(m: Matching) -> tuple[tuple[int, int, int], ...]:
        return tuple((key[c], c, n) for c, n in m)

    def runs(r: Shape, used: dict[int, int]) -> list[Matching]:
        out: list[Matching] = []
        for start in high_first:
            if counts[start] < r[0]:
                continue
            stack: list[tuple[int, int, Matching]] = [(start, 0, ())]
            while stack:
                c, i, seq = stack.pop()
                if counts.get(c, 0) - used.get(c, 0) < r[i]:
                    continue
                seq = seq + ((c, r[i]),)
                if i == len(r) - 1:
                    out.append(seq)
                else:
                    for s in succ[c]:
                        stack.append((s, i + 1, seq))
        return out

    queue: deque = deque([("S", {})])   # type: ignore[type-arg]
    visited: set = set()   # type: ignore[type-arg]
    while queue:
        kind, item = queue.popleft()
        if kind == "E":
            it, nxt = item   # (an iterator of states, and its next state: a peekable)
            more = next(it, None)
            if more is not None:
                queue.appendleft(("E", (it, more)))
            if _frozen(nxt) not in visited:
                queue.appendleft(("S", nxt))
            continue
        state: dict[Shape, dict[Matching, int]] = item
        frozen = _frozen(state)
        if frozen in visited:
            continue
        visited.add(frozen)
        used: dict[int, int] = {}
        for ms in state.values():
            for m, k in ms.items():
                for c, n in m:
                    used[c] = used.get(c, 0) + n * k
        remaining = []
        for shape in shapes:
            filled = sum(state.get(shape, {}).values())
            if filled < need[shape]:
                remaining.append((shape, need[shape] - filled))
        if not remaining:
            taken = {shape: dict(ms) for shape, ms in state.items()}
            out = []
            for f in fmt:
                ms = taken[f]
                best = max(ms, key=rank)
                out.append(best)
                if ms[best] == 1:
                    del ms[best]
                else:
                    ms[best] -= 1
            yield out
            continue
        expansion: list[tuple[list[tuple[Matching, int]], int]] = []
        for shape, copies in remaining:
            if len(shape) > 1:
                expansion.append(([(t, 1) for t in runs(shape, used)], 1))
            else:
                w = shape[0]
                opts = [(((c, w),), (counts[c] - used.get(c, 0)) // w) for c in high_first]
                expansion.append(([o for o in opts if o[1] > 0], copies))
        if all(sum(n for _, n in e) >= k for e, k in expansion):
            for e, k in expansion:
                it = _assignments(state, e, k)
                head = next(it, None)
                if head is not None:
                    queue.append(("E", (it, head)))


def _assignments(state: dict[Shape, dict[Matching, int]], e: list[tuple[Matching, int]],
                 k: int) -> Iterator[dict[Shape, dict[Matching, int]]]:
    for combination in _multiset_k([n for _, n in e], k):
        new = {shape: dict(ms) for shape, ms in state.items()}
        for idx, mult in combination:
            m = e[idx][0]
            shape = tuple(n for _, n in m)
            slot = new.setdefault(shape, {})
            slot[m] = slot.get(m, 0) + mult
        yield new


def _greater(a: int, b: int, order: Order) -> bool:
    """``cmp_effective(a, b) == Greater`` for two cards of the lead's suit or trump."""
    if a == b:
        return False
    ta, tb = order.eff[a] == 4, order.eff[b] == 4
    if ta != tb:
        return ta
    return order.key[a] > order.key[b]


def _may_beat(cards: Sequence[int], best: Sequence[Matching], fmt: Sequence[Shape], order: Order) -> bool:
    """A quick necessary condition of :func:`winner`: every card of a unit is at
    least its lowest card, which must be above the lowest card of the same unit
    of ``best``; so for each such bar, the cards above it must fill every unit
    whose bar is as high or higher. False: no reading of ``cards`` can win."""
    eff, key = order.eff, order.key

    def strength(c: int) -> tuple[bool, int]:
        return (eff[c] == 4, key[c])

    bars = sorted(((strength(m[0][0]), sum(f)) for m, f in zip(best, fmt)), reverse=True)
    mine = sorted((strength(c) for c in cards), reverse=True)
    need = 0
    for bar, size in bars:
        need += size
        above = 0
        for x in mine:
            if x > bar:
                above += 1
            else:
                break
        if above < need:
            return False
    return True


def _can_beat(cards: Sequence[int], best: Sequence[Matching], fmt: Sequence[Shape], order: Order) -> bool:
    """Is there any reading of ``cards`` as ``fmt`` whose every unit's lowest
    card is above that of the same unit of ``best``? (A search over the units,
    each placed only on cards above its bar; :func:`winner` then walks the
    matcher's readings only when one exists.)"""
    eff, key, succ = order.eff, order.key, successors(order)

    def strength(c: int) -> tuple[bool, int]:
        return (eff[c] == 4, key[c])

    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    slots = sorted(((f, strength(m[0][0])) for m, f in zip(best, fmt)), key=lambda x: (-len(x[0]), -sum(x[0])))
    distinct = sorted(counts, key=lambda c: (key[c], c))
    failed: set[tuple[int, tuple[int, ...]]] = set()

    def place(i: int) -> bool:
        if i == len(slots):
            return True
        state = (i, tuple(counts[c] for c in distinct))
        if state in failed:
            return False
        shape, bar = slots[i]
        for c in distinct:
            if strength(c) <= bar or counts[c] < shape[0]:
                continue
            for run in list(ladder_paths(c, shape, 0, counts, succ, [])):
                for d, w in zip(run, shape):
                    counts[d] -= w
                ok = place(i + 1)
                for d, w in zip(run, shape):
                    counts[d] += w
                if ok:
                    return True
        failed.add(state)
        return False

    return place(0)


def winner(plays: Sequence[Sequence[int]], lead: Sequence[Unit], order: Order) -> tuple[int, list[Matching]]:
    """The winning play of a trick led with several units (``Trick::compute_winner``
    under ThrowEvaluationPolicy::All): a later play wins when one of its
    readings (:func:`matches`, in the engine's order) has every unit's lowest
    card above that of the same unit of the reading that wins so far (at first
    the lead's own units, in the engine's unit order). Returns the index and
    the winning reading."""
    key = order.key
    units = sorted(lead, key=lambda u: unit_order(u, key))
    fmt = [(u.width,) * u.length for u in units]
    best: list[Matching] = [tuple((c, u.width) for c in reversed(u.cards[::u.width])) for u in units]
    best_i = 0
    eff = order.eff
    suit = eff[plays[0][0]]
    n = sum(u.size for u in units)
    for i in range(1, len(plays)):
        cards = plays[i]
        if len(cards) != n or not cards:
            continue
        e = eff[cards[0]]
        if any(eff[c] != e for c in cards) or (e != suit and e != 4):
            continue
        if not _may_beat(cards, best, fmt, order) or not _can_beat(cards, best, fmt, order):
            continue   # (no reading wins: the matcher's whole list need not be walked)
        for m in matches(cards, fmt, order):
            if all(_greater(x[0][0], y[0][0], order) for x, y in zip(m, best)):
                best_i, best = i, m
                break
    return best_i, best
