"""The strong bot (:class:`analyzer.play.strong.StrongBot`): the plain bot with an exact endgame.

Table cases: positions of the last tricks where the plain bot errs (exactly,
from the real position) and the strong bot plays the exact best; positions
where the plain bot's move is among the best and is kept (fewest changes);
the cases where the plain bot's move stands (out of the window, finding
friends, a cut search). Then generated matches: clean on every preset,
deterministic for a seed, the same with and without the native search, and
the plain path untouched.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "generate"))

from gen_helpers import check_accounting, check_clean

from analyzer.play.bot import Bot
from analyzer.play.generate import generate_match
from analyzer.play.strong import ENDGAME_TRICKS, StrongBot
from analyzer.play.views import TrickView
from analyzer.review.search import Solver
from analyzer.review.search.endgame import ExactEndgame
from replay import native
from replay.ruleset import PRESETS, preset
from replay.state import HandState

#: (rules, level, trump, dealer, leader, kitty points, holdings, plays so far, the plain bot's move, the exact best)
#: cards are ints: suit * 13 + rank - 2 (suits 0..3), 52/53 the jokers
ERRS = [
    # one deck: E (a dealer) leads ♦10 alone and the attackers take 20; the throw ♦8 ♦10 stands: 0
    ("one-deck", 2, 3, "W", "E", 0, {"N": [0, 11], "W": [13, 46], "S": [21, 23], "E": [32, 34]}, [],
     (34,), (32, 34)),
    ("one-deck", 2, 2, "W", "N", 10, {"N": [13, 21], "W": [24, 33], "S": [16, 39], "E": [10, 48]}, [],
     (13,), (21,)),
    # one deck, a follow (N): the plain bot's card loses the last trick and the kitty's 25 × 2
    ("one-deck", 2, 2, "E", "E", 25, {"N": [20, 46], "W": [31, 40], "S": [11, 27], "E": [19, 37]},
     [("E", (37,))], (20,), (46,)),
    # two decks, leads: the throws that stand (80 and 70 points to the attackers without them)
    ("standard", 2, 2, "N", "N", 25, {"N": [44, 50], "W": [1, 27], "S": [21, 23], "E": [9, 24]}, [],
     (50,), (44, 50)),
    ("standard", 10, 3, "N", "N", 25, {"N": [27, 36, 38], "W": [1, 21, 39], "S": [0, 12, 24], "E": [4, 14, 22]}, [],
     (38,), (27, 36, 38)),
    ("standard", 10, 0, "S", "S", 25, {"N": [12, 18, 40], "W": [18, 35, 48], "S": [11, 27, 37], "E": [7, 11, 44]},
     [], (11,), (37,)),
    # two decks, follows
    ("standard", 2, 1, "E", "N", 25, {"N": [35, 41], "W": [29, 38], "S": [25, 46], "E": [23, 40]},
     [("N", (35,)), ("W", (38,))], (25,), (46,)),
    ("standard", 2, 0, "W", "E", 25, {"N": [0, 25, 30], "W": [1, 7, 41], "S": [15, 35, 44], "E": [20, 28, 51]},
     [("E", (51,))], (0,), (30,)),
]

#: positions where the plain bot's move is among the best but not the search's cheapest: it is kept
KEPT = [
    ("one-deck", 2, 2, "W", "W", 0, {"N": [21, 24], "W": [0, 25], "S": [9, 50], "E": [13, 38]}, [], (0,)),
    ("one-deck", 2, 1, "S", "E", 0, {"N": [11, 49], "W": [40, 51], "S": [0, 26], "E": [25, 32]}, [], (25,)),
    ("one-deck", 3, 2, "S", "E", 15, {"N": [27, 40], "W": [43, 48], "S": [31, 32], "E": [49, 51]}, [], (51,)),
]


def _state(rules: str, level: int, trump: int, dealer: str, leader: str, kitty: int,
           holdings: dict[str, list[int]], plays: Sequence[tuple[str, tuple[int, ...]]]) -> HandState:
    state = HandState.new(preset(rules), level=level, trump=trump, holdings=holdings, leader=leader,
                          dealer=dealer, kitty_points=kitty)
    for _, cards in plays:
        state.push(cards)
    return state


def _move(bot: Bot, state: HandState) -> tuple[int, ...]:
    view = TrickView.of(state)
    return tuple(sorted(bot.follow(view) if state.plays else bot.lead(view)))


def _strong(rules: str, seed: int = 0, endgame=None, tricks: int = 4) -> StrongBot:
    return StrongBot(preset(rules), random.Random(seed), endgame=endgame or ExactEndgame(), tricks=tricks)


@pytest.mark.parametrize("case", ERRS, ids=[f"errs{i}" for i in range(len(ERRS))])
def test_the_strong_bot_plays_the_exact_best_where_the_plain_bot_errs(case):
    rules, level, trump, dealer, leader, kitty, holdings, plays, plain, best = case
    state = _state(rules, level, trump, dealer, leader, kitty, holdings, plays)
    solver = Solver.for_state(state)
    target = solver.value(state)
    assert _move(Bot(preset(rules), random.Random(0)), state) == plain
    assert solver.play_value(state, plain) != target          # the plain bot errs, exactly
    bot = _strong(rules)
    got = _move(bot, state)
    assert got == best and solver.play_value(state, got) == target
    assert (bot.asked, bot.changed, bot.kept, bot.cut) == (1, 1, 0, 0)
    assert [(s, tuple(c)) for s, c in state.plays] == [(s, tuple(c)) for s, c in plays]   # the state is left as found


@pytest.mark.parametrize("case", KEPT, ids=[f"kept{i}" for i in range(len(KEPT))])
def test_the_plain_bots_move_is_kept_when_it_is_among_the_best(case):
    rules, level, trump, dealer, leader, kitty, holdings, plays, plain = case
    state = _state(rules, level, trump, dealer, leader, kitty, holdings, plays)
    solver = Solver.for_state(state)
    assert _move(Bot(preset(rules), random.Random(0)), state) == plain
    assert tuple(sorted(solver.cheapest_best(state)[0])) != plain    # the search alone would play another
    bot = _strong(rules)
    assert _move(bot, state) == plain
    assert (bot.asked, bot.changed, bot.kept, bot.cut) == (1, 0, 1, 0)


def test_the_plain_bots_move_stands_out_of_the_window_and_when_the_search_is_cut():
    rules, level, trump, dealer, leader, kitty, holdings, plays, plain, _ = ERRS[0]
    state = _state(rules, level, trump, dealer, leader, kitty, holdings, plays)
    # two cards held: outside a window of one trick
    bot = _strong(rules, tricks=1)
    assert _move(bot, state) == plain and bot.asked == 0
    bot = _strong(rules, tricks=0)
    assert _move(bot, state) == plain and bot.asked == 0
    bot = _strong(rules, tricks=2)                 # two cards held, a window of two tricks: solved
    assert _move(bot, state) != plain and bot.asked == 1
    # a cut search (the endgame answers None) keeps the plain bot's move
    bot = _strong(rules, endgame=lambda state, proposal: None)
    assert _move(bot, state) == plain and (bot.asked, bot.cut) == (1, 1)
    # the real search under a budget it cannot answer in
    bot = _strong(rules, endgame=ExactEndgame(max_nodes=1))
    assert _move(bot, state) == plain and (bot.asked, bot.cut) == (1, 1)


def test_finding_friends_tables_keep_the_plain_bot():
    asked: list[object] = []

    def spy(state, proposal):
        asked.append(state)
        return None

    plain = generate_match("shengji-io-friends", hands=2, seed=4)
    strong = generate_match("shengji-io-friends", hands=2, seed=4,
                            make_bot=StrongBot.factory(spy, tricks=30))
    assert strong == plain and asked == []
    strong4 = generate_match("shengji-io-friends", hands=1, seed=4, players=4,
                             make_bot=StrongBot.factory(spy, tricks=30))
    assert strong4 == generate_match("shengji-io-friends", hands=1, seed=4, players=4) and asked == []


def test_the_endgame_serves_one_hand_with_one_solver():
    rules, level, trump, dealer, leader, kitty, holdings, plays, _, best = ERRS[0]
    state = _state(rules, level, trump, dealer, leader, kitty, holdings, plays)
    eg = ExactEndgame()
    s1 = eg.solver(state)
    assert eg(state, best) == best and eg.solver(state) is s1
    other = _state(rules, level, trump, dealer, leader, kitty, holdings, plays)
    assert eg.solver(other) is not s1          # another hand's state: another solver


# -- generated matches --------------------------------------------------------------------------

@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_every_preset_generates_clean_matches_with_the_strong_bot(rules):
    rec = generate_match(rules, hands=2, seed=11, make_bot=StrongBot.factory(ExactEndgame()))
    check_clean(rec)
    check_accounting(rec)
    assert rec == generate_match(rules, hands=2, seed=11, make_bot=StrongBot.factory(ExactEndgame()))


def test_the_strong_bot_changes_plays_and_only_in_the_window():
    changed = 0
    for seed in range(6):
        made: list[StrongBot] = []

        def make(rs, rng, params=None):
            made.append(StrongBot(rs, rng, params, endgame=ExactEndgame(), tricks=ENDGAME_TRICKS))
            return made[-1]

        plain = generate_match("one-deck", hands=2, seed=seed)
        strong = generate_match("one-deck", hands=2, seed=seed, make_bot=make)
        changed += made[0].changed
        if made[0].changed == 0:
            assert strong == plain
        # the hands agree up to the window: the first hand's deal, declarations and early tricks
        assert strong.hands[0].deal == plain.hands[0].deal
        assert strong.hands[0].events == plain.hands[0].events
        n = len(plain.hands[0].tricks)
        assert strong.hands[0].tricks[:n - ENDGAME_TRICKS] == plain.hands[0].tricks[:n - ENDGAME_TRICKS]
    assert changed > 0


@settings(max_examples=8)
@given(st.integers(0, 10**6), st.sampled_from(["standard", "one-deck", "campus", "shengji-io", "titanic"]))
def test_strong_matches_are_clean_and_deterministic(seed, rules):
    a = generate_match(rules, hands=1, seed=seed, make_bot=StrongBot.factory(ExactEndgame()))
    check_clean(a)
    assert a == generate_match(rules, hands=1, seed=seed, make_bot=StrongBot.factory(ExactEndgame()))


def test_the_plain_path_is_the_plain_bot():
    for rules in ("standard", "one-deck"):
        plain = generate_match(rules, hands=2, seed=5)
        assert generate_match(rules, hands=2, seed=5, make_bot=Bot) == plain
        # a strong bot that never solves plays the plain bot's match, draw for draw
        assert generate_match(rules, hands=2, seed=5, make_bot=StrongBot.factory(ExactEndgame(), tricks=0)) == plain


@pytest.mark.skipif(not native.available(), reason="the native extension is not installed")
def test_the_same_match_with_and_without_the_native_search():
    made = {}
    try:
        for on in (True, False):
            native.set_enabled(on)
            made[on] = [generate_match(r, hands=2, seed=21, make_bot=StrongBot.factory(ExactEndgame(), tricks=6))
                        for r in ("standard", "one-deck")]
    finally:
        native.set_enabled(True)
    assert made[True] == made[False]


# -- the command ---------------------------------------------------------------------------------

def test_generate_bot_strong(tmp_path):
    from typer.testing import CliRunner

    from analyzer.cli import app
    from notation import parse
    from replay.game import replay

    runner = CliRunner()
    texts = {}
    for bot in ("plain", "strong"):
        out = tmp_path / f"{bot}.sjn"
        r = runner.invoke(app, ["generate", "--rules", "one-deck", "--hands", "2", "--seed", "2", "--bot", bot,
                                "-o", str(out)], catch_exceptions=False)
        assert r.exit_code == 0, r.output
        texts[bot] = out.read_text(encoding="utf-8")
        records, diags = parse(texts[bot])
        assert diags == [] and replay(records[0]).diagnostics == []
    assert texts["plain"] != texts["strong"]
    # the record says which bots played it (the seed alone does not replay it); the plain bot's is as ever
    assert '[Seed "2"]\n[Bot "strong"]\n' in texts["strong"] and "[Bot " not in texts["plain"]
    r = runner.invoke(app, ["generate", "--rules", "one-deck", "--hands", "2", "--seed", "2"], catch_exceptions=False)
    assert r.exit_code == 0 and r.stdout == texts["plain"]
    # at a finding-friends table the strong bot plays as the plain one: no tag, and a note says so
    r = runner.invoke(app, ["generate", "--rules", "shengji-io-friends", "--players", "5", "--bot", "strong"],
                      catch_exceptions=False)
    assert r.exit_code == 0 and "[Bot " not in r.stdout and "plays as the plain bot" in r.stderr
    r = runner.invoke(app, ["generate", "--rules", "gouji", "--bot", "strong"], catch_exceptions=False)
    assert r.exit_code == 2 and "--bot strong is for the Shengji presets" in r.output


# -- the endgame from the seat's own view (ViewEndgame) ---------------------------------------------

@settings(max_examples=40)
@given(st.data())
def test_the_view_sampler_deals_every_card_once_and_respects_the_voids(data):
    from analyzer.review.search.endgame import _deal

    pool = sorted(data.draw(st.lists(st.integers(0, 53), min_size=3, max_size=24)))
    n = len(pool)
    cut = sorted(data.draw(st.lists(st.integers(0, n), min_size=2, max_size=2)))
    sizes = {"W": cut[0], "S": cut[1] - cut[0], "E": n - cut[1]}
    eff = [c // 13 if c < 52 else 4 for c in range(54)]
    voids = {s: frozenset(data.draw(st.sets(st.integers(0, 4), max_size=2))) for s in sizes}
    got = _deal(pool, sizes, voids, eff, random.Random(data.draw(st.integers(0, 99))))
    if got is None:
        return
    assert sorted(c for cs in got.values() for c in cs) == pool
    for s, cs in got.items():
        assert len(cs) == sizes[s]
        assert not any(eff[c] in voids[s] for c in cs)


def test_the_view_sampler_finds_the_only_deal_and_says_when_there_is_none():
    from analyzer.review.search.endgame import _deal

    eff = [c // 13 if c < 52 else 4 for c in range(54)]
    # W is out of spades, S out of hearts: the spade goes to S, the heart to W
    got = _deal([0, 13], {"W": 1, "S": 1}, {"W": frozenset({0}), "S": frozenset({1})}, eff, random.Random(1))
    assert got == {"W": [13], "S": [0]}
    assert _deal([0, 1], {"W": 1, "S": 1}, {"W": frozenset({0}), "S": frozenset({0})}, eff, random.Random(1)) is None


@pytest.mark.parametrize("rules", ["standard", "one-deck", "campus", "shengji-io", "titanic", "botzone", "shengji-godot"])
def test_view_endgame_matches_are_clean_and_deterministic(rules):
    from analyzer.review.search.endgame import ViewEndgame

    made: list[StrongBot] = []

    def make(rs, rng, params=None):
        made.append(StrongBot(rs, rng, params, endgame=ViewEndgame(samples=6), tricks=4))
        return made[-1]

    a = generate_match(rules, hands=2, seed=3, make_bot=make)
    check_clean(a)
    check_accounting(a)
    assert made[0].asked > 0 and made[0].cut < made[0].asked
    assert a == generate_match(rules, hands=2, seed=3,
                               make_bot=StrongBot.factory(ViewEndgame(samples=6), tricks=4))


def test_view_endgame_keeps_the_proposal_when_cut_or_alone():
    from analyzer.review.search.endgame import ViewEndgame

    rules, level, trump, dealer, leader, kitty, holdings, plays, plain, _ = ERRS[0]
    state = _state(rules, level, trump, dealer, leader, kitty, holdings, plays)
    assert ViewEndgame(max_nodes=1, samples=4)(state, plain) is None
    got = ViewEndgame(samples=8)(state, plain)
    assert got is not None and got in [tuple(sorted(m)) for m in Solver.for_state(state).moves(state)]
    # the last trick: one legal move each, nothing to weigh
    last = _state("one-deck", 2, 3, "W", "E", 0, {"N": [0], "W": [13], "S": [21], "E": [32]}, [])
    assert ViewEndgame(samples=8)(last, (32,)) == (32,)


def test_view_endgame_plays_the_move_best_in_every_deal_for_its_side():
    """N (the dealer: it knows the kitty, 0 points) plays last to a trick the attackers
    win with 20 points on the table, void in diamonds: the big joker takes the 20 in
    every deal of the hidden cards (three pointless hearts); keeping it for the last
    trick gives the 20 away. The plain-looking discard is not kept."""
    from analyzer.review.search.endgame import ViewEndgame

    holdings = {"N": [53, 14], "W": [37, 17], "S": [27, 18], "E": [34, 19]}
    plays = [("W", (37,)), ("S", (27,)), ("E", (34,))]
    state = _state("one-deck", 2, 3, "N", "W", 0, holdings, plays)
    assert state.turn == "N"
    solver = Solver.for_state(state)
    assert solver.play_value(state, (53,)) == 0 and solver.play_value(state, (14,)) == 20
    assert ViewEndgame(samples=6)(state, (14,)) == (53,)
    assert ViewEndgame(samples=6)(state, (53,)) == (53,)
