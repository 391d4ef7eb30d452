"""Units (tuples and tractors), throws, follow obligations and comparisons
(RULES.md §3 and §6). Pure functions over card ints and an :class:`Order`.

A :class:`Unit` is ``width`` identical cards repeated over ``length`` adjacent
ranks: a single (1, 1), a pair (2, 1), a triple (3, 1), a tractor (2, L≥2),
a Titanic (3, L≥2). ``top`` is the strength key of its highest rank.

All functions here take cards of one effective suit unless they say otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import NamedTuple

from replay.order import Order
from replay.shapes import Unit as Unit
from replay.shapes import shape_name as shape_name
from replay.sjio import split as sjio_split

_new = tuple.__new__


def _count(cards: Iterable[int]) -> dict[int, int]:
    """card → copies (a plain dict: cheaper than Counter for a handful of cards)."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return counts


def _unit_order(u: Unit) -> tuple[int, int, int]:
    """Largest first: most cards, then widest, then highest."""
    return (-u.width * u.length, -u.width, -u.top)


def _runs(counts: dict[int, int], key: Sequence[int], width: int) -> list[list[int]]:
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
            for run in _runs(counts, key, w):
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

def _sub_runs(counts: dict[int, int], key: Sequence[int], width: int, length: int) -> list[list[int]]:
    """Every run of exactly ``length`` adjacent ranks with ≥ width copies, highest first."""
    out: list[list[int]] = []
    for run in _runs(counts, key, width):
        for i in range(len(run) - length, -1, -1):
            out.append(run[i:i + length])
    out.sort(key=lambda r: -key[r[-1]])
    return out


def cover(shape: Sequence[tuple[int, int]], cards: Iterable[int], order: Order) -> list[Unit] | None:
    """Units of ``cards`` having exactly the structure ``shape`` (a lead's
    decomposition shapes), choosing high units first; None when impossible.

    ``cards`` must have as many cards as the shape. Used to decide whether a
    follow (or a ruff) matches the lead's structure, and to compare plays.
    """
    counts = _count(cards)
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
    for run in _sub_runs(counts, key, w, length):
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


# -- follow obligations (§6 "Following", step 3) ------------------------------------

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
        for run in _runs(counts, key, w):
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
    counts = _count(cards)
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
            runs = [r for r in _sub_runs(rest, key, w - 1, length)]
            for c in runs[-1]:
                rest[c] -= w - 1
            demand[w] -= length
            vec += [0, 1]
        else:
            vec += [0, 0]
    return tuple(vec + _tuple_fill(rest, demand, max_width))


# -- throws (§6 "Throw check") ----------------------------------------------------------

def beats_unit(holding: dict[int, int], unit: Unit, order: Order) -> Unit | None:
    """A unit of ``holding`` (card → count, any suits) of the same shape as
    ``unit``, in its effective suit, that beats it; the lowest such, else None."""
    eff = order.eff
    suit = eff[unit.cards[0]]
    return _beats({c: n for c, n in holding.items() if n > 0 and eff[c] == suit}, unit, order.key)


def _beats(same: dict[int, int], unit: Unit, key: Sequence[int]) -> Unit | None:
    """:func:`beats_unit` for a holding of the unit's effective suit only."""
    w, top = unit.width, unit.top
    if unit.length == 1:
        best = -1
        best_key = 1 << 30
        for c, n in same.items():
            if n >= w:
                k = key[c]
                if top < k < best_key:
                    best, best_key = c, k
        return None if best < 0 else _new(Unit, (w, 1, best_key, (best,) * w))   # (Unit(...) without its Python __new__)
    for run in sorted(_sub_runs(same, key, unit.width, unit.length), key=lambda r: key[r[-1]]):
        if key[run[-1]] > unit.top:
            return Unit(unit.width, unit.length, key[run[-1]],
                        tuple(c for c in reversed(run) for _ in range(unit.width)))
    return None


class Blocker(NamedTuple):
    unit: Unit        # the unit of the throw that fails
    seat: str         # who blocks it
    by: Unit          # the unit that beats it


def throw_blockers(lead: Sequence[Unit], others: Sequence[tuple[str, dict[int, int]]],
                   order: Order) -> list[Blocker]:
    """Every (unit, seat, beating unit) that makes the throw fail; ``others``
    in turn order after the thrower. Trumping by void players does not count."""
    out: list[Blocker] = []
    if len(lead) < 2:
        return out
    eff, key = order.eff, order.key
    suits = {eff[u.cards[0]] for u in lead}
    if len(suits) > 1:  # not a throw (a lead is one suit): each unit on its own
        return [Blocker(u, seat, b) for u in lead for seat, holding in others
                if (b := beats_unit(holding, u, order)) is not None]
    suit = suits.pop()
    # each holding's cards of the throw's suit, filtered once for all the units
    suited = []
    for seat, holding in others:
        same = {c: n for c, n in holding.items() if n > 0 and eff[c] == suit}
        if same:
            suited.append((seat, same))
    return _suit_blockers(lead, suited, key)


def _suit_blockers(lead: Sequence[Unit], suited: Sequence[tuple[str, dict[int, int]]],
                   key: Sequence[int]) -> list[Blocker]:
    """:func:`throw_blockers` for a throw of one effective suit, ``suited``: each
    other seat's cards of that suit (positive counts; seats holding none may be left out)."""
    out: list[Blocker] = []
    # each holding's highest key: only a holding with a card above a unit's top can beat the unit
    kget = key.__getitem__
    seen = []
    for seat, same in suited:   # (a loop: cheaper than a comprehension for a few seats)
        if same:
            seen.append((seat, same, max(map(kget, same))))
    for u in lead:
        top = u.top
        for seat, same, high in seen:
            if high > top:
                b = _beats(same, u, key)
                if b is not None:
                    out.append(_new(Blocker, (u, seat, b)))
    return out


def _by_size(u: Unit) -> tuple[int, int, int]:
    """The forced unit's order under ``smallest`` and ``first_blocker``: fewest cards, then lowest."""
    return (u.width * u.length, u.top, u.width)


def _by_top(u: Unit) -> tuple[int, int, int]:
    """The forced unit's order under ``lowest`` (80fen): the lowest top."""
    return (u.top, u.width * u.length, u.width)


def forced_units(blockers: Sequence[Blocker], policy: str = "smallest",
                 seats: Sequence[str] | None = None) -> list[Unit]:
    """Every unit a failed throw may be forced to play (§6 ``throw_forced``):
    the smallest failing unit (fewest cards, then lowest), with
    ``first_blocker`` the smallest the first blocking player can beat (the
    first in ``seats``, the play order after the thrower, who blocks any unit;
    RULES §6), with ``lowest`` (80fen) the failing unit with the lowest top.
    Several when they tie (e.g. ♠2 and ♥2 as equal off-suit level cards); the
    first is the canonical choice."""
    if policy == "first_blocker":
        blocking = {b.seat for b in blockers}
        first = next((s for s in seats or () if s in blocking), blockers[0].seat)
        pool = [b.unit for b in blockers if b.seat == first]
    else:
        pool = [b.unit for b in blockers]
    rank_of = _by_top if policy == "lowest" else _by_size
    ranks = list(map(rank_of, pool))   # (each unit's rank once)
    rank = min(ranks)
    out: list[Unit] = []
    for u, r in zip(pool, ranks):
        if r == rank and u not in out:
            out.append(u)
    return out


def forced_unit(blockers: Sequence[Blocker], policy: str = "smallest",
                seats: Sequence[str] | None = None) -> Unit:
    """The unit a failed throw must play (the first of :func:`forced_units`)."""
    return forced_units(blockers, policy, seats)[0]


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
    _all_tractors(0, tractors, tuples, n_singles, _count(cards), [], key, out, seen)
    return out


def _all_tractors(i: int, tractors: list[tuple[int, int]], tuples: list[int], n_singles: int,
                  counts: dict[int, int], units: list[Unit], key: Sequence[int], out: list[list[Unit]],
                  seen: set[tuple[tuple[int, int, int], ...]]) -> None:
    """`all_covers`: every way to take the tractors from the ``i``-th on, then the tuples."""
    if i == len(tractors):
        _all_tuples(0, tuples, n_singles, counts, units, 10 ** 6, key, out, seen)
        return
    w, length = tractors[i]
    for run in _sub_runs(counts, key, w, length):
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
