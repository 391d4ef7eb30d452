"""shengji.io's fallback shapes (``ordered_card.rs``): every shape of a
number of cards, most demanding first, and the ever weaker shapes a follow
is checked against after the lead's own (:func:`fallbacks`), with their
words for messages. Pure functions of shapes (no cards, no order); the rest
of that engine's unit rules is :mod:`replay.sjio`."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from itertools import permutations, product

from replay.shapes import shape_name

Shape = tuple[int, ...]            # adjacent tuple sizes: (2,) a pair, (3, 3) a Titanic, (3, 2) a triple + pair
Requirement = tuple[Shape, ...]    # one shape the follow is asked for: several units


@cache
def tuple_partitions(n: int) -> tuple[tuple[int, ...], ...]:
    """The ways to cut ``n`` cards into tuples, most complex first
    (``find_tuple_partitions``: each way for n−1 with one part grown, or a
    single added; sorted descending, duplicates dropped)."""
    if n <= 1:
        return ((1,),)
    got: set[tuple[int, ...]] = set()
    for g in tuple_partitions(n - 1):
        done: set[int] = set()
        for i, v in enumerate(g):
            if v not in done:
                done.add(v)
                got.add(g[:i] + (v + 1,) + g[i + 1:])
        got.add(g + (1,))
    return tuple(sorted(got, reverse=True))


@cache
def adjacent_assignments(length: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every way to group the indices ``0..length-1`` into runs
    (``compute_adjacent_assignments``): built by adding the last index to each
    group in turn or as a group of its own, then ordered by the longest group
    (longest first), then by the number of groups (fewest first), keeping the
    building order among equals."""
    if length <= 1:
        return (((0,),),)
    last = length - 1
    out: list[tuple[tuple[int, ...], ...]] = []
    for part in adjacent_assignments(length - 1):
        for i in range(len(part)):
            out.append(part[:i] + (part[i] + (last,),) + part[i + 1:])
        out.append(part + ((last,),))
    out.sort(key=lambda a: (-max(len(g) for g in a), len(a)))
    deduped: list[tuple[tuple[int, ...], ...]] = []
    for a in out:
        if not deduped or deduped[-1] != a:
            deduped.append(a)
    return tuple(deduped)


def _unique(items: Iterable[tuple]) -> list[tuple]:  # type: ignore[type-arg]
    seen: set[tuple] = set()  # type: ignore[type-arg]
    out = []
    for x in items:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


@cache
def sequential_groupings(values: tuple[int, ...]) -> tuple[Requirement, ...]:
    """The tuple sizes ``values`` grouped into runs of adjacent ranks in every
    order (``group_into_sequential_tuples``): for each grouping of the indices,
    every distinct order of each run's sizes (a run of equal sizes once)."""
    out: list[Requirement] = []
    for assignment in adjacent_assignments(len(values)):
        runs = [tuple(values[i] for i in g) for g in assignment]
        if all(all(v == r[0] for v in r) for r in runs):
            out.append(tuple(runs))
        else:
            choices = [_unique(permutations(r)) for r in runs]
            out.extend(tuple(c) for c in product(*choices))
    return tuple(_unique(out))


@cache
def full_ordering(n: int) -> tuple[Requirement, ...]:
    """Every shape of ``n`` cards, most demanding first
    (``full_decomposition_ordering``): for each tuple partition, each grouping of
    its tuples of two or more into runs, plus its singles, the units sorted
    descending; duplicates dropped."""
    out: list[Requirement] = []
    for group in tuple_partitions(n):
        wide = tuple(v for v in group if v > 1)
        ones = ((1,),) * (len(group) - len(wide))
        if not wide:
            out.append(ones)
            continue
        for runs in sequential_groupings(wide):
            out.append(tuple(sorted(runs + ones, reverse=True)))
    return tuple(_unique(out))


@lru_cache(maxsize=4096)
def fallbacks(lead: Requirement) -> tuple[Requirement, ...]:
    """The shapes asked of a follow after the lead's own, in the engine's order
    (``subsequent_decomposition_ordering`` with new adjacencies allowed, as
    under the default ``TrickDrawPolicy::NoProtections``): each unit of
    ``lead`` (in the lead's unit order) has the shapes that follow its own in
    :func:`full_ordering`; at each step the unit with the most of them left
    (the earliest on a tie, in the order of the previous step) takes its next,
    and the units' current shapes together, sorted descending, are the next
    requirement. Stops when no unit has a shape left."""
    reqs = [tuple(sorted(u, reverse=True)) for u in lead]
    if any(not r for r in reqs):
        return ()
    left: list[list[Requirement]] = []
    for r in reqs:
        full = full_ordering(sum(r))
        rest: list[Requirement] = []
        for i, v in enumerate(full):
            if len(v) == 1 and v[0] == r:
                rest = list(full[i + 1:])
                break
        left.append(rest[::-1])       # popped from the end: the next shape last
    current: list[Requirement] = [(r,) for r in reqs]
    order = list(range(len(reqs)))
    out: list[Requirement] = []
    while True:
        order.sort(key=lambda i: -len(left[i]))
        i = order[0]
        if not left[i]:
            break
        current[i] = left[i].pop()
        out.append(tuple(sorted((s for j in order for s in current[j]), reverse=True)))
    return tuple(out)


def requirement_text(req: Requirement) -> str:
    """``two pairs + one single``, ``a triple + a pair``: a shape for messages."""
    names: dict[str, int] = {}
    for s in req:
        if len(s) > 1 and len(set(s)) == 1:
            name = shape_name(s[0], len(s))
        elif len(s) > 1:
            name = " then ".join(shape_name(w, 1) for w in s) + " on adjacent ranks"
        else:
            name = shape_name(s[0], 1)
        names[name] = names.get(name, 0) + 1
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    parts = []
    for name, k in names.items():
        parts.append(f"a {name}" if k == 1 else f"{words.get(k, str(k))} {name}s")
    return " + ".join(parts)
