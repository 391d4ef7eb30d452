"""The throw check (RULES.md §6 "Throw check"): which units of a throw
another player beats (:func:`throw_blockers`), and which unit a failed throw
must play (:func:`forced_units`, ``throw_forced``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from replay.order import Order
from replay.runs import sub_runs
from replay.shapes import Unit

_new = tuple.__new__


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
    for run in sorted(sub_runs(same, key, unit.width, unit.length), key=lambda r: key[r[-1]]):
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
    return suit_blockers(lead, suited, key)


def suit_blockers(lead: Sequence[Unit], suited: Sequence[tuple[str, dict[int, int]]],
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
