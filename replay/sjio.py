"""shengji.io's unit rules, as its engine (rbtying/shengji, ``mechanics/src``)
plays them: how a lead is split into units, which unit of a throw another
player beats first, and which follows its walk over fallback shapes allows.

Selected by ``unit_split: shengji_io`` (the split, the throw check and the
forced unit) and ``follow_policy: shengji_io`` (the follow obligation); the
``shengji-io`` presets use both. Written from a reading of that engine (its
behaviour, not its code); each function names the place it follows:

* ``trick.rs`` ``TrickUnit::find_plays`` / ``find_plays_inner`` /
  ``find_tractors_from_start``: every way to read a lead as units, starting
  from its lowest card; ``TrickFormat::from_cards`` keeps the readings whose
  largest unit (cards, then tractor before tuple) is largest and takes the
  *last* of them in that enumeration (:func:`split`);
* ``trick.rs`` ``Trick::play_cards``: the throw check asks the other players in
  turn; the first who can beat a unit stops the throw, and the unit forced is
  the first, in the lead's unit order (fewest cards, then lowest first card),
  that this player beats (:func:`blockers`);
* ``trick.rs`` ``TrickFormat::is_legal_play`` with ``ordered_card.rs``
  ``subsequent_decomposition_ordering``: a follow is checked against the
  lead's shape, then against a list of ever weaker shapes; at each step the
  unit with the most fallback shapes left is broken one step further. The
  first shape the play meets makes it legal; the first the holding meets and
  the play does not makes it illegal (:func:`follow_ok`).

Cards are the project's ints; "adjacent" is the :class:`~replay.order.Order`
ladder (keys differing by one), which with all four ``tractor_links`` is the
engine's successor relation. Where the engine breaks ties between equal
cards (off-suit level cards) it orders them ♠ < ♥ < ♦ < ♣, which is the
order of the card ints: a card's place is ``(key, card)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import permutations, product
from typing import TYPE_CHECKING, NamedTuple

from replay.shapes import Unit, shape_name

if TYPE_CHECKING:
    from replay.order import Order

Shape = tuple[int, ...]            # adjacent tuple sizes: (2,) a pair, (3, 3) a Titanic, (3, 2) a triple + pair
Requirement = tuple[Shape, ...]    # one shape the follow is asked for: several units


# -- the fallback orderings (ordered_card.rs) ------------------------------------------------------

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


# -- the ladder of one order -------------------------------------------------------------------

@lru_cache(maxsize=512)
def successors(order: Order) -> tuple[tuple[int, ...], ...]:
    """``successors(order)[c]``: the cards next above ``c`` on its suit's ladder
    (``Trump::successor``): the trump A has the three off-suit level cards, each
    off-suit level card the trump-suit one, that one the little joker."""
    eff, key = order.eff, order.key
    out = []
    for c in range(len(eff)):
        out.append(tuple(d for d in order.suit_cards[eff[c]] if key[d] == key[c] + 1))
    return tuple(out)


# -- splitting a lead (trick.rs find_plays / from_cards) ------------------------------------------

class _Raw(NamedTuple):
    width: int                 # copies of each member
    members: tuple[int, ...]   # lowest first (one card: a tuple)

    @property
    def size(self) -> int:
        return self.width * len(self.members)


def _tractors_from(card: int, count: int, counts: dict[int, int], succ: Sequence[tuple[int, ...]],
                   min_width: int, min_length: int) -> list[_Raw]:
    """The tractors starting at ``card`` (``find_tractors_from_start``): a walk
    up the ladder, rank by rank, over every card held at least twice; the width
    is the fewest copies met so far *on the whole walk* (all branches share it,
    as the engine's does), a tractor reported at each step that is at least
    ``min_width`` wide and ``min_length`` long."""
    out: list[_Raw] = []
    if count < min_width:
        return out
    width = count
    frontier: list[tuple[int, tuple[int, ...]]] = [(s, (card,)) for s in succ[card]]
    while frontier:
        nxt: list[tuple[int, tuple[int, ...]]] = []
        for c, path in frontier:
            k = counts.get(c, 0)
            if k >= 2:
                width = min(width, k)
                path = path + (c,)
                if width >= min_width and len(path) >= min_length:
                    out.append(_Raw(width, path))
                nxt.extend((s, path) for s in succ[c])
        frontier = nxt
    return out


def _readings(counts: dict[int, int], num: int, floor: tuple[int, int] | None,
              key: Sequence[int], succ: Sequence[tuple[int, ...]]) -> list[list[_Raw]]:
    """Every reading of ``counts`` (``num`` cards) as units (``find_plays_inner``):
    the lowest card not below ``floor`` starts a unit, either one of the
    tractors from it or all its copies as one tuple (not when every tractor
    from it takes every copy of its members); a start that is all the cards
    ends the search at once. Each reading lists its units last-chosen first."""
    if num == 0:
        return []
    start = None
    for c, n in counts.items():
        if n > 0 and (floor is None or (key[c], c) >= floor) and (start is None or (key[c], c) < (key[start], start)):
            start = c
    starts: list[_Raw] = []
    if start is not None:
        trs = _tractors_from(start, counts[start], counts, succ, 2, 2)
        consumed = bool(trs) and all(counts.get(c, 0) == t.width for t in trs for c in t.members)
        starts.extend(trs)
        if not consumed:
            starts.append(_Raw(counts[start], (start,)))
    for s in starts:
        if s.size == num:
            return [[s]]
    out: list[list[_Raw]] = []
    for s in starts:
        for c in s.members:
            counts[c] -= s.width
        first = s.members[0]
        for sub in _readings(counts, num - s.size, (key[first], first), key, succ):
            out.append(sub + [s])
        for c in s.members:
            counts[c] += s.width
    return out


def readings(cards: Iterable[int], order: Order) -> list[list[_Raw]]:
    """Every reading the engine lists for ``cards`` (one effective suit)."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return _readings(counts, sum(counts.values()), None, order.key, successors(order))


def _as_unit(r: _Raw, key: Sequence[int]) -> Unit:
    top = r.members[-1]
    return Unit(r.width, len(r.members), key[top], tuple(c for c in reversed(r.members) for _ in range(r.width)))


def split(cards: Sequence[int], order: Order) -> list[Unit]:
    """The units shengji.io reads a lead of one effective suit as
    (``TrickFormat::from_cards``): of :func:`readings`, those whose largest unit
    ranks highest (most cards, then a tractor before a tuple), and of those the
    last found. ♠999 ♠JJ ♠AA ♥10♥10 (level 10, ♠ trump) is pair + triple +
    tractor, not tractor ♠99JJ + single ♠9 + tractor."""
    best: list[_Raw] | None = None
    best_key = (0, False)
    for units in readings(cards, order):
        k = max((u.size, len(u.members) > 1) for u in units)
        if best is None or k >= best_key:
            best, best_key = units, k
    key = order.key
    return [_as_unit(r, key) for r in best or ()]


def first_card(u: Unit) -> int:
    """A unit's lowest card (the engine's ``first_card``)."""
    return u.cards[-1]


def unit_order(u: Unit, key: Sequence[int]) -> tuple[int, int, int]:
    """The engine's order of a lead's units: fewest cards, then lowest first card."""
    c = u.cards[-1]
    return (u.width * u.length, key[c], c)


# -- the throw check (trick.rs Trick::play_cards) -------------------------------------------------

def beats(same: dict[int, int], unit: Unit, order: Order) -> Unit | None:
    """A unit of ``same`` (one player's cards of the throw's suit) that beats
    ``unit`` as the engine's throw check sees it, else None: for a tuple, as
    many copies of a higher card; for a tractor, a tractor at least as wide and
    long starting at or above the lead tractor's *second* card (in the engine's
    card order), found by :func:`_tractors_from`."""
    key = order.key
    w = unit.width
    if unit.length == 1:
        best = None
        for c, n in same.items():
            if n >= w and key[c] > unit.top and (best is None or key[c] < key[best]):
                best = c
        return None if best is None else Unit(w, 1, key[best], (best,) * w)
    second = unit.cards[-w - 1]
    floor = (key[second], second)
    succ = successors(order)
    for c in sorted(same, key=lambda d: (key[d], d)):
        if (key[c], c) < floor or same[c] <= 0:
            continue
        trs = _tractors_from(c, same[c], same, succ, w, unit.length)
        if trs:
            return _as_unit(_Raw(w, trs[0].members[:unit.length]), key)
    return None


# -- following (trick.rs TrickFormat::is_legal_play, format_match.rs) --------------------------------

def _tuples_fit(sizes: tuple[int, ...], bins: tuple[int, ...], memo: dict[tuple[tuple[int, ...], tuple[int, ...]], bool]) -> bool:
    """Can tuples of ``sizes`` (descending) each be taken from one card's copies ``bins``?"""
    if not sizes:
        return True
    k = (sizes, bins)
    got = memo.get(k)
    if got is not None:
        return got
    s = sizes[0]
    ok = False
    tried: set[int] = set()
    for i, b in enumerate(bins):
        if b >= s and b not in tried:
            tried.add(b)
            nb = tuple(sorted(bins[:i] + (b - s,) + bins[i + 1:], reverse=True))
            if _tuples_fit(sizes[1:], nb, memo):
                ok = True
                break
    memo[k] = ok
    return ok


def _paths(c: int, shape: Shape, i: int, counts: dict[int, int], succ: Sequence[tuple[int, ...]],
           path: list[int]) -> Iterable[tuple[int, ...]]:
    """Every run from ``c`` up the ladder with at least ``shape[j]`` copies of its j-th card."""
    if counts.get(c, 0) < shape[i]:
        return
    path.append(c)
    if i == len(shape) - 1:
        yield tuple(path)
    else:
        for s in succ[c]:
            yield from _paths(s, shape, i + 1, counts, succ, path)
    path.pop()


def _place(i: int, runs: list[Shape], tuples: tuple[int, ...], counts: dict[int, int],
           succ: Sequence[tuple[int, ...]], memo: dict[tuple[tuple[int, ...], tuple[int, ...]], bool]) -> bool:
    if i == len(runs):
        bins = tuple(sorted((n for n in counts.values() if n > 0), reverse=True))
        return _tuples_fit(tuples, bins, memo)
    shape = runs[i]
    for c in list(counts):
        for taken in list(_paths(c, shape, 0, counts, succ, [])):
            for d, w in zip(taken, shape):
                counts[d] -= w
            ok = _place(i + 1, runs, tuples, counts, succ, memo)
            for d, w in zip(taken, shape):
                counts[d] += w
            if ok:
                return True
    return False


def fits(counts: dict[int, int], req: Requirement, order: Order) -> bool:
    """Can ``counts`` (cards of one suit) fill every unit of ``req`` at once
    (``find_format_matches`` finds a match)? A card may fill a narrower tuple
    than its copies (a triple gives a pair), and several tuples when it has
    the copies; a run needs each rank of the ladder in turn."""
    if sum(sum(s) for s in req) > sum(counts.values()):
        return False
    runs = [s for s in req if len(s) > 1]
    tuples = tuple(sorted((s[0] for s in req if len(s) == 1), reverse=True))
    return _place(0, runs, tuples, dict(counts), successors(order), {})


def lead_requirement(lead: Sequence[Unit], order: Order) -> Requirement:
    """The lead's own shape, its units in the engine's order."""
    key = order.key
    return tuple((u.width,) * u.length for u in sorted(lead, key=lambda u: unit_order(u, key)))


def follow_ok(lead: Sequence[Unit], held: dict[int, int], play: Sequence[int],
              order: Order) -> tuple[bool, Requirement | None]:
    """Is ``play`` (cards of the led suit, as many as the lead) a legal follow
    for a player holding ``held`` (their cards of the suit, the play included)?
    Returns the verdict and, when illegal, the shape the holding could meet."""
    pc: dict[int, int] = {}
    for c in play:
        pc[c] = pc.get(c, 0) + 1
    first = lead_requirement(lead, order)
    for req in (first, *fallbacks(first)):
        if fits(pc, req, order):
            return True, None
        if fits(held, req, order):
            return False, req
    return True, None


# -- who wins a trick of several units (trick.rs compute_winner, format_match.rs) -----------------------

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
            for run in list(_paths(c, shape, 0, counts, succ, [])):
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


__all__ = ["tuple_partitions", "adjacent_assignments", "sequential_groupings", "full_ordering", "fallbacks",
           "successors", "readings", "split", "unit_order", "beats", "fits", "follow_ok", "lead_requirement",
           "requirement_text", "first_card"]
