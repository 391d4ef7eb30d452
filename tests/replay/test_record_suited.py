"""The record mode's suit-split checks (replay.record: a seat's holding kept by effective
suit) give the verdicts, messages and blockers of the public checks they stand in for:
:func:`replay.follow.check_suited_follow` against :func:`check_follow`, and
:func:`replay.trick.check_suited_throw` against :func:`check_throw` (RULES §6
"Following", "Throw check"). Seeded random positions of every preset's decks."""

from __future__ import annotations

import random

import pytest

from replay.follow import check_follow, check_suited_follow
from replay.order import Order
from replay.record import RecordState
from replay.recorded import Recorded
from replay.ruleset import preset
from replay.trick import check_suited_throw, check_throw
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
        assert check_suited_follow(units, suit, held, play, order, rs, n) == want
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
        got = check_suited_throw(units, [(s, h) for s, h in zip(seats[1:], hands[1:]) if h], seats[1:], order, rs)
        assert got == want
        failed += bool(want.blockers)
    assert failed or rs.throw_check == "none"   # some throws fail (where throws are checked)


@pytest.mark.parametrize("name", [p for p in PRESETS if preset(p).follow_suit != "printed"])
def test_record_mode_follow_to_one_tuple_is_check_follow(name: str) -> None:
    # record_tricks decides a follow to one tuple led (a pair, a triple) partly itself, without
    # check_suited_follow: its follow faults are check_follow's verdicts and messages
    rs = preset(name)
    rng = random.Random(f"tuple-follow-{name}")
    codes = set()
    for _ in range(800):
        order = Order(rng.randrange(2, 15), rng.randrange(0, 5))
        suit = rng.randrange(0, 5)
        n = rng.randrange(2, rs.decks + 1)
        pool = [c for c in order.suit_cards[suit] for _ in range(rs.decks)]
        if not pool:
            continue   # (a plain suit that is the trump suit)
        rng.shuffle(pool)
        top = pool.pop()
        for _ in range(n - 1):
            pool.remove(top)
        held: dict[int, int] = {}
        for c in pool[:rng.randrange(1, 14)]:
            held[c] = held.get(c, 0) + 1
        cards = [c for c, k in held.items() for _ in range(k)]
        rng.shuffle(cards)
        take = rng.randrange(0, min(n, len(cards)) + 1)
        others = [c for c in range(54) if order.eff[c] != suit]
        off = rng.sample(others, 3 * n - take)
        play = tuple(cards[:take] + off[:n - take])
        w_hand = cards + off[:n - take]
        state = RecordState(rs, order, {"N": [top] * n, "W": w_hand, "S": off[n - take:2 * n - take],
                                        "E": off[2 * n - take:]}, dealer="N")
        held = dict(state.holding_by_suit("W")[suit])   # (its order: the messages list the pairs held in it)
        rt = state.record_trick([Recorded("N", (top,) * n), Recorded("W", play),
                                 Recorded("S", tuple(off[n - take:2 * n - take])), Recorded("E", tuple(off[2 * n - take:]))])
        got = [(f.code, f.value) for f in rt.faults if f.what == "follow"]
        want = check_follow(decompose((top,) * n, order), suit, held, play, order, rs, n)
        assert got == ([(want.code, want.message)] if want else [])
        assert not [f for f in rt.faults if f.what != "follow"]
        codes.add(want and want.code)
    assert codes == {None, "SJ403", "SJ404"}   # every verdict was reached
