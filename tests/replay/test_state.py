"""The engine's position API (replay.state.HandState), the one seat type
(replay.seats.Seat) and the deck helper (replay.deck).

Hand-built positions check single rules (RULES §6 following, throws and
their penalty, winning; §7 kitty multiplier); generated matches check that
HandState, pushed play by play, agrees with the whole-record replay
(replay.game / replay.friends) on every trick's winner and points and on the
hand's total, and that pop() takes every play back.
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.play.generate import generate_match
from primitives.cards import parse_cards as C
from primitives.cards import points
from replay.deck import deck, deck_cards, remainder
from replay.game import replay
from replay.order import Order
from replay.ruleset import preset
from replay.scoring import hooks_back, penalty_delta
from replay.seats import COMPASS, SEATS, Seat, table, table_names
from replay.state import HandState, IllegalPlay

# -- Seat -----------------------------------------------------------------------------------------

SEAT_CASES = [
    # (seat, players, k, next)   counter-clockwise play order N W S E (RULES §2); P1…Pn round the table
    (Seat.N, 4, 1, Seat.W),
    (Seat.E, 4, 1, Seat.N),
    (Seat.S, 4, 3, Seat.W),
    (Seat.P4, 4, 1, Seat.P1),
    (Seat.P4, 6, 1, Seat.P5),
    (Seat.P6, 6, 1, Seat.P1),
    (Seat.P8, 8, 2, Seat.P2),
    (Seat.P1, 5, 5, Seat.P1),
]


@pytest.mark.parametrize(("seat", "players", "k", "want"), SEAT_CASES)
def test_seat_next(seat, players, k, want):
    assert seat.next(players, k) is want


def test_seat_partner_and_team():
    assert [s.partner() for s in COMPASS] == [Seat.S, Seat.E, Seat.N, Seat.W]
    assert [s.team for s in COMPASS] == ["NS", "EW", "NS", "EW"]
    assert Seat.P1.partner() is Seat.P3
    with pytest.raises(ValueError):
        Seat.P5.partner()          # partners exist at a table of four only
    with pytest.raises(ValueError):
        Seat.P7.next(6)            # P7 does not sit at a table of six


def test_seat_names_and_tables():
    assert SEATS == ("N", "W", "S", "E")
    assert str(Seat.P3) == "P3" and Seat["W"] is Seat.W and int(Seat.E) == 3
    assert table() == COMPASS and table_names(4) == SEATS
    assert table_names(6) == ("P1", "P2", "P3", "P4", "P5", "P6")
    assert table(4, numbered=True) == (Seat.P1, Seat.P2, Seat.P3, Seat.P4)


# -- deck -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["standard", "one-deck", "shengji-io-friends"])
def test_deck_is_every_card_times_decks(name):
    rs = preset(name)
    d = deck(rs)
    assert len(d) == 54 and set(d.values()) == {rs.decks}
    assert Counter(deck_cards(rs)) == d


def test_remainder():
    rs = preset("one-deck")
    assert remainder(rs, range(54)) == ()
    assert remainder(rs, range(53)) == (53,)
    assert remainder(rs, [0, 0]) is None      # one deck holds one ♠2


# -- hand-built positions -------------------------------------------------------------------------

STD = preset("standard")            # two decks, level 2; trump ♥ below
ORDER = Order.for_ruleset(2, 1, STD)


def small(holdings, leader="N", dealer="N", rs=STD, order=ORDER, **kw):
    return HandState(rs, order, {s: C(h) for s, h in holdings.items()}, leader=leader, dealer=dealer, **kw)


def test_turn_trick_and_points():
    # RULES §6: the highest card of the led suit wins; points are 5, 10, K
    s = small({"N": "SA S3", "W": "SK C4", "S": "S10 D5", "E": "S5 D6"})
    assert (s.turn, s.leader, s.trick_number, s.team) == ("N", "N", 1, ("N", "S"))
    assert s.push(C("SA")) == C("SA")
    assert s.turn == "W" and s.winner_so_far == "N"
    # W holds a spade: it must follow suit
    assert not s.is_legal(C("C4")) and s.is_legal(C("SK"))
    assert s.legal_follows() == [C("SK")]
    with pytest.raises(IllegalPlay):
        s.push(C("C4"))
    for play in ("SK", "S10", "S5"):
        s.push(C(play))
    t = s.last_trick
    assert (t.winner, t.points, t.number) == ("N", 25, 1)
    assert s.attacker_points == 0 and s.turn == "N" and s.trick_number == 2
    # trick 2: nobody else holds a spade or a trump: N's ♠3 wins
    s.push(C("S3"))
    s.push(C("C4"))
    s.push(C("D5"))
    s.push(C("D6"))
    assert s.is_over and s.last_trick.winner == "N"
    assert s.kitty_multiplier == 0 and s.final_points == 0     # the dealers won the last trick


def test_pop_takes_back_across_tricks():
    s = small({"N": "SA S3", "W": "SK C4", "S": "S10 D5", "E": "S5 D6"})
    start = {k: Counter(v) for k, v in s.holdings.items()}
    for play in ("SA", "SK", "S10", "S5", "S3"):
        s.push(C(play))
    assert s.trick_number == 2 and len(s.plays) == 1
    assert s.pop() == C("S3")
    assert s.trick_number == 2 and s.plays == ()
    assert s.pop() == C("S5")                  # reopens trick 1
    assert s.trick_number == 1 and len(s.plays) == 3 and s.turn == "E"
    while s.plays or s.tricks:
        s.pop()
    assert {k: Counter(v) for k, v in s.holdings.items()} == start and s.turn == "N"
    with pytest.raises(IndexError):
        s.pop()


def test_attackers_win_the_last_trick_and_the_kitty():
    # RULES §7: the attackers (EW) win the last trick with a single: kitty × 2 (by_unit);
    # hook back with a level card (a 2)
    s = small({"N": "S3", "W": "S2", "S": "S4", "E": "S5"}, kitty_points=25)
    for play in ("S3", "S2", "S4", "S5"):
        s.push(C(play))
    assert s.last_trick.winner == "W"          # ♠2 is a level card: trump
    assert s.attacker_points == 5 and s.kitty_multiplier == 2
    assert s.final_points == 5 + 25 * 2 and s.hooked


def test_failed_throw_plays_the_forced_unit_and_costs():
    # RULES §6: a throw that another seat can beat fails; the smallest failing unit is played;
    # campus charges 10 per card attempted, against the thrower's team
    rs = preset("campus")
    order = Order.for_ruleset(2, 1, rs)
    s = small({"W": "SA SQ", "S": "SK S3", "E": "S4 S5", "N": "S6 S7"}, leader="W", rs=rs, order=order)
    assert s.throw_check(C("SA SQ")).blockers          # S's ♠K beats the ♠Q
    assert s.is_legal(C("SA SQ"))                      # a throw is a legal lead (it may fail)
    assert s.push(C("SA SQ")) == C("SQ")
    assert s.attempted == C("SA SQ") and s.lead == C("SQ")
    for play in ("SK", "S4", "S6"):
        s.push(C(play))
    assert s.last_trick.winner == "S" and s.last_trick.attempted == C("SA SQ")
    # W attacks (N deals): the penalty goes against the attackers, S's trick is the dealers'
    assert s.attacker_points == -20 == penalty_delta(rs, 2, thrower_defends=False)
    s.pop()
    s.pop()
    s.pop()
    s.pop()
    assert s.attempted is None and Counter(s.holding("W")) == Counter(C("SA SQ"))


def test_legal_leads_are_every_one_suit_multiset():
    s = small({"N": "SA SA S3 H4", "W": "C2", "S": "C3", "E": "C4"})
    leads = list(s.legal_plays())
    # spades: {A}, {3}, {AA}, {A3}, {AA3}; trumps (♥ and the level ♣2…): {H4}
    assert len(leads) == 6 and len(set(leads)) == 6
    assert all(s.is_legal(p) for p in leads)
    assert not s.is_legal(C("SA H4"))                  # a lead is all one suit
    assert sorted(map(sorted, s.unit_leads())) == sorted(map(sorted, [C("SA"), C("S3"), C("SA SA"), C("H4")]))


def test_hooks_back_reads_the_level_rank():
    order = Order.for_ruleset(5, 0, STD)
    units = order.singles
    assert hooks_back([units[C("H5")[0]]], 5) and not hooks_back([units[C("H6")[0]]], 5)


# -- agreement with the whole-record replay on generated matches -------------------------------

def _state_for(hand_result):
    h = hand_result
    friends = h.team is not None
    team = (h.dealer,) if friends else None
    from replay.teams import FriendResult
    calls = [FriendResult(c.ordinal, c.card, None, None, c.span) for c in h.friends] if friends else None
    if calls and h.ruleset.friend_rule == "held":
        from replay.teams import assign_holders
        i = h.seats.index(h.dealer)
        ring = [h.seats[(i + k) % len(h.seats)] for k in range(len(h.seats))]
        assign_holders(calls, ring, {s: Counter(c) for s, c in h.start_hands.items()})
    return HandState(h.ruleset, h.order, h.start_hands, leader=h.dealer, dealer=h.dealer, seats=h.seats,
                     team=team, calls=calls, kitty_points=points(h.bury or ()))


def _agrees(match):
    checked = 0
    for h in match.hands:
        if h.redeal or not h.complete:
            continue
        s = _state_for(h)
        for t in h.tricks:
            assert s.turn == t.leader
            for p in t.plays:
                played = s.push(p.attempted or p.cards)
                assert played == tuple(p.cards)
            done = s.last_trick
            assert (done.winner, done.points) == (t.winner, t.points)
        assert s.is_over
        assert set(s.team) == set(h.team or s.team) and s.team[0] == h.dealer
        assert s.final_points == h.attacker_points
        # back to the start, play by play
        while s.tricks or s.plays:
            s.pop()
        assert {k: +Counter(v) for k, v in s.holdings.items()} == {
            k: Counter(v) for k, v in h.start_hands.items()}
        checked += 1
    return checked


@pytest.mark.parametrize(("rules", "players"), [("standard", None), ("campus", None), ("botzone", None),
                                                 ("titanic", None), ("shengji-io-friends", 6),
                                                 ("shengji-io-friends", 5)])
def test_state_agrees_with_replay(rules, players):
    match = replay(generate_match(rules, hands=3, seed=11, players=players))
    assert not match.errors
    assert _agrees(match) >= 1


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["standard", "one-deck", "tractor97", "shengji-io"]))
def test_state_agrees_with_replay_property(seed, rules):
    match = replay(generate_match(rules, hands=1, seed=seed))
    _agrees(match)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000))
def test_every_recorded_follow_is_among_the_legal_ones(seed):
    match = replay(generate_match("standard", hands=1, seed=seed))
    for h in match.hands:
        if h.redeal or not h.complete:
            continue
        s = _state_for(h)
        for t in h.tricks[:6]:
            for k, p in enumerate(t.plays):
                if k:
                    legal = s.legal_follows()
                    assert tuple(sorted(p.cards)) in legal and all(s.is_legal(x) for x in legal[:20])
                s.push(p.attempted or p.cards)


def test_docs_engine_example_runs():
    # docs/engine.md's example is code that runs (its asserts are the page's claims)
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "docs/engine.md", "exec"), {})


def test_search_positions_from_a_state_agree_with_it():
    # the endgame search (analyzer.review.search) reads a HandState's position; on the last
    # trick every play is forced, so its value is what the state scores there
    from analyzer.review.search import Solver, position_of
    match = replay(generate_match("standard", hands=2, seed=5))
    for h in match.hands:
        if h.redeal or not h.complete:
            continue
        s = _state_for(h)
        for t in h.tricks[:-1]:
            for p in t.plays:
                s.push(p.attempted or p.cards)
        before = s.attacker_points
        value = Solver.for_state(s).value(position_of(s))
        for p in h.tricks[-1].plays:
            s.push(p.cards)
        assert value == s.final_points - before


def test_mistake_context_states():
    # the mistake rules' context hands out the engine's state at any play of the hand
    from analyzer.review.mistakes.context import HandContext
    match = replay(generate_match("standard", hands=1, seed=9))
    h = next(x for x in match.hands if x.complete)
    ctx = HandContext(h)
    for ti in (0, len(h.tricks) // 2, len(h.tricks) - 1):
        t = h.tricks[ti]
        for k in range(1, 4):
            st = ctx.state(ti, k)
            assert st.turn == t.plays[k].seat and st.trick_number == t.number
            assert tuple(sorted(t.plays[k].cards)) in st.legal_follows()
