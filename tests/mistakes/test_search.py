"""The endgame search (analyzer.review.search) against brute force.

The brute force is written independently of the solver's move generation: it
tries every sub-multiset of the hand as a lead (one effective suit) and as a
follow, keeps what the engine allows (``is_legal_follow``, ``check_throw``),
plays a failed throw as its forced unit with the penalty, and takes plain
minimax with no pruning, no table and no card equivalences.
"""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mistake_helpers import tiny_deal

from analyzer.review.search import Position, Solver, position, solve
from primitives.cards import POINTS
from primitives.cards import parse_cards as C
from replay.legal import is_legal_follow, multisets
from replay.order import Order
from replay.ruleset import preset
from replay.scoring import SEAT_ORDER, kitty_multiplier, team_of
from replay.trick import check_throw, lead_suit, throw_penalty, trick_winner
from replay.units import decompose


def brute(hands, leader, order, rs, dealer, kitty_points, objective="points"):
    """Plain exhaustive minimax over every play the engine allows."""
    attacker = [team_of(s) != team_of(dealer) for s in SEAT_ORDER]

    def leads(seat, hs):
        out = []
        hand = Counter(hs[seat])
        for k in range(1, len(hs[seat]) + 1):
            for cards in multisets(hand, k):
                if lead_suit(cards, order) is None:
                    continue
                if len(decompose(cards, order)) == 1:
                    out.append((cards, 0))
                    continue
                seats = [SEAT_ORDER[(seat + i) % 4] for i in range(4)]
                holds = [Counter(hs[(seat + i) % 4]) for i in range(4)]
                chk = check_throw(cards, 0, holds, seats, order, rs)
                if not chk.blockers:
                    out.append((cards, 0))
                else:
                    cost = throw_penalty(rs, len(cards)) if objective == "points" else 0
                    out.append((tuple(sorted(chk.forced.cards)), -cost if attacker[seat] else cost))
        return out

    def follows(lead, hand):
        return [p for p in multisets(Counter(hand), len(lead)) if is_legal_follow(lead, Counter(hand), p, order, rs)]

    def rec(hs, leader, plays):
        k = len(plays)
        seat = (leader + k) % 4
        if k == 4:
            w = trick_winner(plays, order, rs)
            wseat = (leader + w.index) % 4
            att = attacker[wseat]
            last = not any(hs)
            if objective == "last_trick":
                return (1 if att else 0) if last else rec(hs, wseat, ())
            pts = sum(POINTS[c] for p in plays for c in p)
            gain = 0
            if att:
                gain = pts
                if last:
                    n = len(plays[0])
                    gain += kitty_points * kitty_multiplier(rs.kitty_multiplier, w.units, play_cards=n, lead_cards=n,
                                                            last_play=decompose(plays[-1], order))
            return gain if last else gain + rec(hs, wseat, ())
        options = leads(seat, hs) if k == 0 else [(p, 0) for p in follows(plays[0], hs[seat])]
        vals = []
        for cards, extra in options:
            h = list(hs[seat])
            for c in cards:
                h.remove(c)
            nh = hs[:seat] + (tuple(h),) + hs[seat + 1:]
            vals.append(extra + rec(nh, leader, plays + (tuple(cards),)))
        return max(vals) if attacker[seat] else min(vals)

    return rec(tuple(tuple(sorted(h)) for h in hands), leader, ())


PRESETS = ["standard", "campus", "shengji-io", "one-deck", "botzone", "titanic", "tractor97"]


@st.composite
def endgames(draw, max_cards=3):
    rs, order, n, cards = tiny_deal(draw, PRESETS, max_cards)
    hands = [tuple(sorted(cards[i * n:(i + 1) * n])) for i in range(4)]
    leader = draw(st.integers(0, 3))
    dealer = draw(st.sampled_from(SEAT_ORDER))
    kitty = draw(st.sampled_from([0, 5, 25]))
    return rs, order, hands, leader, dealer, kitty


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames())
def test_search_matches_brute_force(case):
    rs, order, hands, leader, dealer, kitty = case
    want = brute(hands, leader, order, rs, dealer, kitty)
    solver = Solver(order, rs, dealer, kitty)
    pos = position(hands, leader)
    assert solver.value(pos) == want
    # asking again (warm table), per move, and for the best move agree
    assert solver.value(pos) == want
    vals = solver.move_values(pos)
    best = max(v for _, v in vals) if solver.attacker[leader] else min(v for _, v in vals)
    assert best == want
    move, v = Solver(order, rs, dealer, kitty).best_move(pos)
    assert v == want and move in [m for m, _ in vals]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames())
def test_last_trick_objective_matches_brute_force(case):
    rs, order, hands, leader, dealer, kitty = case
    want = brute(hands, leader, order, rs, dealer, kitty, objective="last_trick")
    assert solve(hands, leader, order, rs, dealer, kitty, objective="last_trick") == want


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames(max_cards=3), st.data())
def test_mid_trick_positions_match_brute_force(case, data):
    """Values after some plays of the first trick equal brute force from there."""
    rs, order, hands, leader, dealer, kitty = case
    solver = Solver(order, rs, dealer, kitty)
    pos = position(hands, leader)
    gain = 0
    for _ in range(data.draw(st.integers(1, 3))):
        moves = solver.moves(pos)
        move = data.draw(st.sampled_from(moves))
        pos, g = solver.after(pos, move)
        gain += g
    # brute force over the rest of the first trick: complete it every way
    def rest(p):
        if not p.plays:
            return brute(p.hands, p.leader, order, rs, dealer, kitty) if any(p.hands) else 0
        vals = []
        for m in solver.moves(p):
            nxt, g = solver.after(p, m)
            vals.append(g + rest(nxt))
        return max(vals) if solver.attacker[p.to_move] else min(vals)
    assert solver.value(pos) == rest(pos)


def test_failed_throw_is_valued_as_forced_unit_plus_penalty():
    # campus: per_card penalty. N (dealer team) throws ♠A ♠Q; E holds ♠K: it fails.
    rs = preset("campus")
    order = Order.for_ruleset(2, 1, rs)
    hands = [C("SA SQ"), C("S3 S4"), C("S5 S6"), C("SK S8")]
    solver = Solver(order, rs, "N", 0)
    pos = position(hands, "N")
    assert C("SA SQ") not in solver.moves(pos)          # not a standing throw
    forced = solver.play_value(pos, C("SQ"))
    assert solver.play_value(pos, C("SQ"), attempted=C("SA SQ")) == forced + 20  # a defender's penalty adds
    assert brute(hands, 0, order, rs, "N", 0) == solver.value(pos)


def test_kitty_multiplier_counts_in_the_last_trick():
    # EW attack; W wins the last trick with a pair: by_unit ×4 on 25 kitty points
    rs = preset("standard")
    order = Order.for_ruleset(2, 1, rs)
    hands = [C("S3 S4"), C("SA SA"), C("S5 S6"), C("S7 S8")]
    assert solve(hands, "W", order, rs, "N", 25) == 5 + 25 * 4
    assert solve(hands, "W", order, rs, "N", 25, objective="last_trick") == 1


def test_position_helpers():
    hands = [C("SA S3"), C("S4 S5"), C("S6 S7"), C("S8 S9")]
    pos = position(hands, "W", [C("S4")])
    assert pos.leader == 1 and pos.to_move == 2 and pos.hands[1] == C("S5")
    assert not pos.terminal and Position(((),) * 4, 0).terminal
    with pytest.raises(ValueError):
        Solver(Order(2, 1), preset("standard"), "N", objective="nope")


def test_table_key_merges_interchangeable_singles_only():
    rs = preset("standard")
    order = Order.for_ruleset(2, 1, rs)
    s = Solver(order, rs, "N", 0)
    others = [C("S8 C3"), C("S4 C4"), C("S10 C5")]
    key = lambda north: s._canon((tuple(sorted(C(north))),) + tuple(others), 0)
    # ♠6 and ♠7 both sit between W's ♠4 and W's ♠8: the same position
    assert key("S6 C9") == key("S7 C9")
    # ♠8 ties W's ♠8 (the first played wins): not the same as ♠7 below it
    assert key("S8 C9") != key("S7 C9")
    # ♠9 is above W's ♠8: different again; points count (♠10 is not ♠9)
    assert key("S9 C9") not in (key("S8 C9"), key("S7 C9"))
    # a pair keeps its identity: ♣9♣9 is not ♣8♣8 (tractors need exact ranks)
    assert key("C9 C9") != key("C8 C8")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames(max_cards=3))
def test_emptied_caches_and_table_change_no_value(case):
    import analyzer.review.search.tree as search  # where the limits are read
    rs, order, hands, leader, dealer, kitty = case
    want = Solver(order, rs, dealer, kitty).value(position(hands, leader))
    old = search.CACHE_LIMIT, search.TABLE_LIMIT, search.TRIM_MASK
    search.CACHE_LIMIT, search.TABLE_LIMIT, search.TRIM_MASK = 1, 1, 0
    try:
        s = Solver(order, rs, dealer, kitty)
        for _ in range(3):
            s._trim()
            assert s.value(position(hands, leader)) == want
    finally:
        search.CACHE_LIMIT, search.TABLE_LIMIT, search.TRIM_MASK = old


def test_no_throws_lists_no_throw_among_the_leads():
    # shengji-godot has ``throws: no`` (docs/rules.md): a lead is one unit, so the
    # standing ♠A ♠K throw of the standard preset is not a move there
    hands = [C("SA SK"), C("S3 S4"), C("S5 S6"), C("S7 S8")]
    for name, throw_listed in (("standard", True), ("shengji-godot", False)):
        rs = preset(name)
        solver = Solver(Order.for_ruleset(2, 1, rs), rs, "N", 0)
        assert (tuple(sorted(C("SA SK"))) in solver.moves(position(hands, "N"))) is throw_listed
