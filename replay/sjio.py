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

The fallback shapes (``ordered_card.rs``) are :mod:`replay.sjio_fallbacks`;
who wins a trick of several units is :mod:`replay.sjio_winner`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from replay.shapes import Unit
from replay.sjio_fallbacks import Requirement, Shape, fallbacks

if TYPE_CHECKING:
    from replay.order import Order

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


def ladder_paths(c: int, shape: Shape, i: int, counts: dict[int, int], succ: Sequence[tuple[int, ...]],
                 path: list[int]) -> Iterable[tuple[int, ...]]:
    """Every run from ``c`` up the ladder with at least ``shape[j]`` copies of its j-th card."""
    if counts.get(c, 0) < shape[i]:
        return
    path.append(c)
    if i == len(shape) - 1:
        yield tuple(path)
    else:
        for s in succ[c]:
            yield from ladder_paths(s, shape, i + 1, counts, succ, path)
    path.pop()


def _place(i: int, runs: list[Shape], tuples: tuple[int, ...], counts: dict[int, int],
           succ: Sequence[tuple[int, ...]], memo: dict[tuple[tuple[int, ...], tuple[int, ...]], bool]) -> bool:
    if i == len(runs):
        bins = tuple(sorted((n for n in counts.values() if n > 0), reverse=True))
        return _tuples_fit(tuples, bins, memo)
    shape = runs[i]
    for c in list(counts):
        for taken in list(ladder_paths(c, shape, 0, counts, succ, [])):
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


__all__ = ["successors", "readings", "split", "unit_order", "beats", "fits", "follow_ok", "lead_requirement",
           "first_card", "ladder_paths"]
