"""Units (tuples and tractors): decomposing a lead, covering a structure and
comparing plays (RULES.md §3 and §6). Pure functions over card ints and an
:class:`Order`. The throw check is :mod:`replay.throws`, the follow
obligation :mod:`replay.obligation` (their names are importable from here too,
as the engine's unit API), runs of adjacent ranks :mod:`replay.runs`.

A :class:`Unit` is ``width`` identical cards repeated over ``length`` adjacent
ranks: a single (1, 1), a pair (2, 1), a triple (3, 1), a tractor (2, L≥2),
a Titanic (3, L≥2). ``top`` is the strength key of its highest rank.

All functions here take cards of one effective suit unless they say otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter

from replay.order import Order
from replay.runs import card_counts, sub_runs, tractor_runs
from replay.shapes import Unit
from replay.sjio import split as sjio_split

_new = tuple.__new__


def _unit_order(u: Unit) -> tuple[int, int, int]:
    """Largest first: most cards, then widest, then highest."""
    return (-u.width * u.length, -u.width, -u.top)


#: decompositions already made, by (order, cards as given): a search or a bot asks
#: for the same plays again and again (``trick_winner`` decomposes each lead)
_DECOMPOSED: dict[tuple[Order, tuple[int, ...]], tuple[Unit, ...]] = {}
_DECOMPOSED_MAX = 8192


def decompose(cards: Iterable[int], order: Order) -> list[Unit]:
    """Split cards of one effective suit into units: longest tractors first
    (most cards, then widest, then highest), then the widest tuples (§6).

    A new list each call (the caller may change it); the units are shared."""
    t = cards if type(cards) is tuple else tuple(cards)
    n = len(t)
    if n == 1:  # fast path: a single
        return [order.singles[t[0]]]
    if n:
        c = t[0]
        if t.count(c) == n:  # fast path: one tuple (a pair, a triple)
            return [_new(Unit, (n, 1, order.key[c], t))]  # (Unit(…) without its Python-level __new__)
    memo = (order, t)
    done = _DECOMPOSED.get(memo)
    if done is None:
        if len(_DECOMPOSED) >= _DECOMPOSED_MAX:
            _DECOMPOSED.clear()
        if order.split == "shengji_io" and len({order.eff[c] for c in t}) == 1:
            # ``unit_split: shengji_io``: that engine's reading (replay/sjio.py), largest unit first
            done = tuple(sorted(sjio_split(t, order), key=_unit_order))
        else:
            done = tuple(_decompose(t, order))
        _DECOMPOSED[memo] = done
    return list(done)


#: a unit's top and (length, top), as sort keys (C-level: no Python call per unit)
_TOP = itemgetter(2)
_LENGTH = itemgetter(1)


def _decompose(cards: tuple[int, ...], order: Order) -> list[Unit]:
    """:func:`decompose` itself (of more than one card, not one tuple): the
    common cases written out (all singles; at most pairs, no two pairs of equal
    key), else :func:`_decompose_general` (the same units, in the same order)."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    most = max(counts.values(), default=0)
    units: list[Unit]
    if most == 1:
        # all different cards: singles, highest first (ties keep the cards' order: a stable sort)
        units = list(map(order.singles.__getitem__, counts))
        units.sort(key=_TOP, reverse=True)
        return units
    if most != 2:
        return _decompose_general(counts, order)
    key = order.key
    pair_at: dict[int, int] = {}   # key → the card held twice
    n_pairs = 0
    for c, n in counts.items():
        if n == 2:
            pair_at[key[c]] = c
            n_pairs += 1
    if len(pair_at) != n_pairs:
        return _decompose_general(counts, order)   # two pairs of one key (off-suit level cards)
    # the pairs' maximal runs of adjacent keys, highest first: each run of two or more a
    # tractor (all are taken: they share no card), the others pairs; then the singles
    runs: list[list[int]] = []
    prev = -10
    for k in sorted(pair_at, reverse=True):
        if k == prev - 1:
            runs[-1].append(pair_at[k])
        else:
            runs.append([pair_at[k]])
        prev = k
    tractors: list[Unit] = []
    units = []
    for run in runs:
        c = run[0]
        if len(run) == 1:
            units.append(_new(Unit, (2, 1, key[c], (c, c))))
        else:
            doubled: list[int] = []
            for d in run:
                doubled += (d, d)
            tractors.append(_new(Unit, (2, len(run), key[c], tuple(doubled))))
    if tractors:
        tractors.sort(key=_LENGTH, reverse=True)   # longest first; equal lengths stay highest first
        units = tractors + units
    if n_pairs < len(counts):
        singles = order.singles
        rest = [singles[c] for c, n in counts.items() if n == 1]
        rest.sort(key=_TOP, reverse=True)
        units += rest
    return units


def _decompose_general(counts: dict[int, int], order: Order) -> list[Unit]:
    """:func:`_decompose` of ``counts`` (card → copies; taken apart), any widths."""
    key = order.key
    units: list[Unit] = []
    while counts:
        best: tuple[tuple[int, int, int], int, list[int]] | None = None
        maxc = max(counts.values())
        for w in range(maxc, 1, -1):
            for run in tractor_runs(counts, key, w):
                cand = (len(run) * w, w, key[run[-1]])
                if best is None or cand > best[0]:
                    best = (cand, w, run)
        if best is None:
            break
        _, w, run = best
        for c in run:
            counts[c] -= w
            if not counts[c]:
                del counts[c]
        units.append(Unit(w, len(run), key[run[-1]], tuple(c for c in reversed(run) for _ in range(w))))
    for c, n in counts.items():
        units.append(Unit(n, 1, key[c], (c,) * n))
    units.sort(key=_unit_order)
    return units


def shape_of(units: Sequence[Unit]) -> list[tuple[int, int]]:
    return [u.shape for u in units]


# -- matching a structure -----------------------------------------------------------

def cover(shape: Sequence[tuple[int, int]], cards: Iterable[int], order: Order) -> list[Unit] | None:
    """Units of ``cards`` having exactly the structure ``shape`` (a lead's
    decomposition shapes), choosing high units first; None when impossible.

    ``cards`` must have as many cards as the shape. Used to decide whether a
    follow (or a ruff) matches the lead's structure, and to compare plays.
    """
    counts = card_counts(cards)
    tractors = [s for s in shape if s[1] >= 2]
    tuples = sorted((s[0] for s in shape if s[1] == 1 and s[0] >= 2), reverse=True)
    n_singles = sum(1 for s in shape if s == (1, 1))
    result: list[Unit] = []
    # module-level helpers, not closures: a recursive closure is a reference
    # cycle (function → cell → function) that only the cyclic collector frees
    if not _cover_from(0, tractors, tuples, n_singles, counts, order.key, result):
        return None
    result.sort(key=_unit_order)
    return result


def _cover_from(i: int, tractors: list[tuple[int, int]], tuples: list[int], n_singles: int,
                counts: dict[int, int], key: Sequence[int], result: list[Unit]) -> bool:
    """`cover`'s search: the tractors from the ``i``-th on, then the tuples and
    singles, taken from ``counts`` into ``result`` (both restored on failure)."""
    if i == len(tractors):
        snapshot = dict(counts)
        mark = len(result)
        if _cover_tuples(tuples, n_singles, counts, key, result):
            return True
        counts.clear()
        counts.update(snapshot)
        del result[mark:]
        return False
    w, length = tractors[i]
    for run in sub_runs(counts, key, w, length):
        for c in run:
            counts[c] -= w
        result.append(Unit(w, length, key[run[-1]], tuple(c for c in reversed(run) for _ in range(w))))
        if _cover_from(i + 1, tractors, tuples, n_singles, counts, key, result):
            return True
        result.pop()
        for c in run:
            counts[c] += w
    return False


def _cover_tuples(tuples: list[int], n_singles: int, counts: dict[int, int], key: Sequence[int],
                  result: list[Unit]) -> bool:
    """`cover`'s tuples (widest first) and then its singles, from ``counts``:
    the highest tuples first (a play is compared by them: ♣10♣10♣10♣8♣8 ruffing
    a pair + singles holds the pair of 10s, not 8s), else, when that greedy
    choice leaves no cover (4 decks), keeping bigger stacks for wider needs."""
    snapshot = dict(counts)
    mark = len(result)
    if _tuples_greedy(tuples, n_singles, counts, key, result, True):
        return True
    counts.clear()
    counts.update(snapshot)
    del result[mark:]
    return _tuples_greedy(tuples, n_singles, counts, key, result, False)


def _tuples_greedy(tuples: list[int], n_singles: int, counts: dict[int, int], key: Sequence[int],
                   result: list[Unit], highest: bool) -> bool:
    for w in tuples:
        cands = [c for c, n in counts.items() if n >= w]
        if not cands:
            return False
        if highest:
            c = max(cands, key=key.__getitem__)
        else:  # fewest spare copies, then highest
            c = min(cands, key=lambda c: (counts[c], -key[c]))
        counts[c] -= w
        result.append(Unit(w, 1, key[c], (c,) * w))
    rest = [c for c, n in counts.items() for _ in range(n)]
    if len(rest) != n_singles:
        return False
    result.extend(Unit(1, 1, key[c], (c,)) for c in rest)
    return True


# -- comparing plays (§6 "Winning") ------------------------------------------------------

def compare_covers(new: Sequence[Unit], best: Sequence[Unit], lead: Sequence[Unit],
                   policy: str) -> bool:
    """True when ``new`` beats ``best`` (both match the lead's structure and are
    of the same effective suit). Ties go to the earlier play (``best``)."""
    if len(lead) == 1 or policy == "largest_unit":
        shape = lead[0].shape  # the lead's largest unit: tractor, else widest tuple, else single
        if shape == (1, 1):
            return max(u.top for u in new) > max(u.top for u in best)
        a = max(u.top for u in new if u.shape == shape)
        b = max(u.top for u in best if u.shape == shape)
        return a > b
    if policy == "highest_card":
        return max(u.top for u in new) > max(u.top for u in best)
    # all_units: every unit beats the matching unit of the current best
    shapes: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
    for u in new:
        shapes.setdefault(u.shape, ([], []))[0].append(u.top)
    for u in best:
        shapes.setdefault(u.shape, ([], []))[1].append(u.top)
    for a_tops, b_tops in shapes.values():
        if len(a_tops) != len(b_tops):
            return False
        for a, b in zip(sorted(a_tops, reverse=True), sorted(b_tops, reverse=True)):
            if a <= b:
                return False
    return True


def all_covers(shape: Sequence[tuple[int, int]], cards: Iterable[int], order: Order) -> list[list[Unit]]:
    """Every way ``cards`` has exactly the structure ``shape`` (distinct
    readings only): :func:`cover` gives one, but a follow may be read
    otherwise — ``♣6622`` against pair + two singles is ``66`` + ``2 2`` as
    well as ``22`` + ``6 6``. shengji.io's ``all`` throw evaluation lets a play
    win when *any* reading of it beats every unit of the current best."""
    key = order.key
    tractors = [s for s in shape if s[1] >= 2]
    tuples = sorted((s[0] for s in shape if s[1] == 1 and s[0] >= 2), reverse=True)
    n_singles = sum(1 for s in shape if s == (1, 1))
    out: list[list[Unit]] = []
    seen: set[tuple[tuple[int, int, int], ...]] = set()
    # module-level helpers, not closures (a recursive closure is a reference cycle)
    _all_tractors(0, tractors, tuples, n_singles, card_counts(cards), [], key, out, seen)
    return out


def _all_tractors(i: int, tractors: list[tuple[int, int]], tuples: list[int], n_singles: int,
                  counts: dict[int, int], units: list[Unit], key: Sequence[int], out: list[list[Unit]],
                  seen: set[tuple[tuple[int, int, int], ...]]) -> None:
    """`all_covers`: every way to take the tractors from the ``i``-th on, then the tuples."""
    if i == len(tractors):
        _all_tuples(0, tuples, n_singles, counts, units, 10 ** 6, key, out, seen)
        return
    w, length = tractors[i]
    for run in sub_runs(counts, key, w, length):
        for c in run:
            counts[c] -= w
        units.append(Unit(w, length, key[run[-1]], tuple(c for c in reversed(run) for _ in range(w))))
        _all_tractors(i + 1, tractors, tuples, n_singles, counts, units, key, out, seen)
        units.pop()
        for c in run:
            counts[c] += w


def _all_tuples(i: int, tuples: list[int], n_singles: int, counts: dict[int, int], units: list[Unit],
                floor: int, key: Sequence[int], out: list[list[Unit]],
                seen: set[tuple[tuple[int, int, int], ...]]) -> None:
    """`all_covers`: every way to take the tuples from the ``i``-th on (equal widths
    in falling order, so each set is read once), the rest being singles."""
    if i == len(tuples):
        rest = [c for c, n in counts.items() for _ in range(n)]
        if len(rest) != n_singles:
            return
        found = sorted(units + [Unit(1, 1, key[c], (c,)) for c in rest], key=_unit_order)
        sig = tuple((u.width, u.length, u.top) for u in found)
        if sig not in seen:
            seen.add(sig)
            out.append(found)
        return
    w = tuples[i]
    same_as_before = i > 0 and tuples[i - 1] == w
    for c in sorted(counts, key=key.__getitem__, reverse=True):
        if counts[c] < w or (same_as_before and key[c] > floor):
            continue
        counts[c] -= w
        units.append(Unit(w, 1, key[c], (c,) * w))
        _all_tuples(i + 1, tuples, n_singles, counts, units, key[c], key, out, seen)
        units.pop()
        counts[c] += w
