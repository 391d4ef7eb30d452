"""The record mode's suit-split checks (replay.record: a seat's holding kept by effective
suit) give the verdicts, messages and blockers of the public checks they stand in for:
:func:`replay.trick._check_suited_follow` against :func:`check_follow`, and
:func:`replay.trick._check_suited_throw` against :func:`check_throw` (RULES §6
"Following", "Throw check"). Seeded random positions of every preset's decks."""

from __future__ import annotations

import random

import pytest

from replay.order import Order
from replay.ruleset import preset
from replay.trick import _check_suited_follow, _check_suited_throw, check_follow, check_throw
from replay.units import decompose

PRESETS = ("standard", "titanic", "botzone", "tractor97")


def _position(rng: random.Random, order: Order, decks: int, suit: int, lead_size: int) -> tuple[list[int], list[int]]:
    pool = [c for c in order.suit_cards[suit] for _ in range(decks)]
    rng.shuffle(pool)
    return pool[:lead_size], pool[lead_size:]


@pytest.mark.parametrize("name", PRESETS)
def test_suited_follow_is_check_follow(name: str) -> None:
    rs = preset(name)
    rng = random.Random(f"follow-{name}")
    codes = set()
    for _ in range(1500):
        order = Order(rng.randrange(2, 15), rng.randrange(0, 5))
        suit = rng.randrange(0, 5)
        n = rng.randrange(2, 7)
        lead, rest = _position(rng, order, rs.decks, suit, n)
        held: dict[int, int] = {}
        for c in rest[:rng.randrange(0, 14)]:
            held[c] = held.get(c, 0) + 1
        cards = [c for c, k in held.items() for _ in range(k)]
        rng.shuffle(cards)
        take = rng.randrange(0, min(n, len(cards)) + 1)
        play = tuple(cards[:take] + rng.sample([c for c in range(54) if order.eff[c] != suit], n - take))
        units = decompose(lead, order)
        want = check_follow(units, suit, held, play, order, rs, n)
        assert _check_suited_follow(units, suit, held, play, order, rs, n) == want
        codes.add(want and want.code)
    assert codes == {None, "SJ403", "SJ404"}   # every verdict was reached


@pytest.mark.parametrize("name", PRESETS)
def test_suited_throw_is_check_throw(name: str) -> None:
    rs = preset(name)
    rng = random.Random(f"throw-{name}")
    seats = ("N", "W", "S", "E")
    failed = 0
    for _ in range(600):
        order = Order(rng.randrange(2, 15), rng.randrange(0, 5))
        suit = rng.randrange(0, 5)
        lead, rest = _position(rng, order, rs.decks, suit, rng.randrange(2, 7))
        units = decompose(lead, order)
        if len(units) < 2:
            continue
        hands: list[dict[int, int]] = [{}]
        for k in range(1, 4):   # the others' cards of the suit, some void
            h: dict[int, int] = {}
            for c in rest[k * 5:k * 5 + rng.randrange(0, 6)]:
                h[c] = h.get(c, 0) + 1
            hands.append(h)
        want = check_throw(lead, 0, hands, seats, order, rs, units)
        got = _check_suited_throw(units, [(s, h) for s, h in zip(seats[1:], hands[1:]) if h], seats[1:], order, rs)
        assert got == want
        failed += bool(want.blockers)
    assert failed or rs.throw_check == "none"   # some throws fail (where throws are checked)
