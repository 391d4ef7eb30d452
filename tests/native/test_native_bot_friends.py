"""The bots' play-out at finding-friends tables in the native core (``native/src/bot.rs``,
``NativeRules.bot_playout_friends``) against the Python bot through
:func:`analyzer.review.mistakes.decisions.play_to_end` with ``friends=True``, its
specification: tables of 4–8 seats P1…Pn, the friend calls of both ``friend_rule``s
(``played``: the k-th copy played; ``held``: the holder nearest the dealer), positions of
every trick and seat before and after friends are revealed, an option played first or
not. Every play, the final points, the hook-back, the dealer's team at the end and the
generator's state after must be the Python bot's."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from native_positions import deal, orders, python_moves, rulesets

from analyzer.play.bot import Bot
from analyzer.play.views import TrickView
from analyzer.review.mistakes.decisions import PlayedOut, native_play_to_end, play_to_end
from replay import native
from replay.ruleset import PRESETS, Ruleset
from replay.state import HandState
from replay.teams import FriendResult, Teams, assign_holders

FRIENDS = tuple(n for n, v in PRESETS.items() if v.get("partners") == "friends")

pytestmark = pytest.mark.skipif(not native.available(), reason="no native core")


def both(start: HandState, first: tuple[int, ...] | None, seed: str):
    """(Python's end, its rng state after) and the same of the native play-out, one generator seed."""
    native.set_enabled(False)
    try:
        py_bot = Bot(start.ruleset, random.Random(seed))
        py_end = play_to_end(start, first, py_bot, friends=True)
    finally:
        native.set_enabled(True)
    nat_bot = Bot(start.ruleset, random.Random(seed))
    nat_end = native_play_to_end(start, first, nat_bot, record=True, friends=True)
    if nat_end is None:
        nat_end = play_to_end(start, first, nat_bot, friends=True)
    return py_end, py_bot.rng.getstate(), nat_end, nat_bot.rng.getstate()


@st.composite
def positions(draw):
    """A finding-friends hand dealt in full (4–8 seats, calls of either rule), the bots'
    plays up to some point of it (any trick, any seat), an option to play first or none."""
    rs: Ruleset = draw(rulesets(presets=FRIENDS))
    if draw(st.booleans()):
        rs = rs.model_copy(update={"friend_rule": "held"})
    if draw(st.integers(0, 2)) == 0:
        rs = rs.model_copy(update={"throws": not rs.throws})
    if draw(st.booleans()):   # failed throws that cost (the penalty counted for the team at the end)
        rs = rs.model_copy(update={"throw_penalty": draw(st.sampled_from(("per_card", "per_attempt"))),
                                   "throw_check": "strict", "throws": True})
    n = rs.players
    seats = tuple(f"P{i}" for i in range(1, n + 1))
    order = draw(orders(rs))
    seed = draw(st.integers(0, 10**6))
    per_seat = draw(st.sampled_from((5, 10, (54 * rs.decks - 6) // n)))
    hands = deal(rs, seed, per_seat, n)
    di = draw(st.integers(0, n - 1))
    dealer = seats[di]
    # the calls: cards somebody holds (often), sometimes none held, ordinals 1..decks
    pool = sorted({c for h in hands for c in h}) or [0]
    ncalls = draw(st.integers(0, min(3, n - 2)))
    calls = [FriendResult(draw(st.integers(1, rs.decks)),
                          draw(st.sampled_from(pool)) if draw(st.integers(0, 5)) else draw(st.integers(0, 53)),
                          None, None, None) for _ in range(ncalls)]   # type: ignore[arg-type]
    held = rs.friend_rule == "held"
    hold = dict(zip(seats, hands, strict=True))
    if held:
        from collections import Counter
        assign_holders(calls, list(seats[di:] + seats[:di]), {s: Counter(h) for s, h in hold.items()})
    state = HandState(rs, order, hold, leader=seats[draw(st.integers(0, n - 1))], dealer=dealer, seats=seats,
                      kitty_points=draw(st.sampled_from((0, 5, 10, 25, 40))),
                      teams=Teams.forming(dealer, calls, held=held))
    steps = draw(st.integers(0, max(0, n * min(len(h) for h in hands) - 1)))
    native.set_enabled(False)
    try:
        bot = Bot(rs, random.Random(seed))
        for _ in range(steps):
            if state.is_over:
                break
            v = TrickView.of(state, True)
            move = tuple(bot.follow(v)) if v.plays else tuple(state.order.sorted(bot.lead(v)))
            state.push(move, check=False)
    except (ValueError, IndexError, KeyError):
        pass
    finally:
        native.set_enabled(True)
    first = None
    if not state.is_over and draw(st.booleans()):
        legal = list(itertools.islice(state.legal_plays(), 40))
        first = tuple(draw(st.sampled_from(legal))) if legal else None
    return state, first, f"{seed}:{steps}"


def check(case) -> bool:
    """The native play-out equals Python's; True when the native core played it."""
    start, first, seed = case
    if start.is_over:
        return False
    py_end, py_rng, nat_end, nat_rng = both(start, first, seed)
    if py_end is None:
        assert nat_end is None
        return False
    assert isinstance(py_end, HandState)
    if not isinstance(nat_end, PlayedOut):
        assert isinstance(nat_end, HandState) and nat_end.final_points == py_end.final_points
        return False
    moves = python_moves(start, py_end, first is not None)
    assert list(nat_end.plays) == moves
    assert nat_end.count == len(moves) + (first is not None)
    assert nat_end.final_points == py_end.final_points
    assert nat_end.hooked == py_end.hooked
    assert nat_end.team == py_end.team
    assert all(nat_end.defends(s) == py_end.defends(s) for s in start.seats)
    assert nat_rng == py_rng
    return True


@pytest.fixture(autouse=True)
def _native_on():
    native.set_enabled(True)
    yield
    native.set_enabled(True)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_native_friends_play_out_is_the_python_bots_play_for_play(case):
    start = case[0]
    played = check(case)
    event(f"native: {played}")
    if played:
        event(f"revealed before: {len(start.team) > 1}")


def test_no_native_core_or_another_table_is_python():
    """Seats off a P1…Pn table or no native core: not the native play-out."""
    rs = Ruleset(**{"name": "shengji-io-friends", **PRESETS["shengji-io-friends"], "players": 6})
    from replay.order import Order
    seats = tuple(f"P{i}" for i in range(1, 7))
    hands = deal(rs, 3, 10, 6)
    calls = [FriendResult(1, hands[2][0], None, None, None)]   # type: ignore[arg-type]
    st_ = HandState(rs, Order.for_ruleset(2, 0, rs), dict(zip(seats, hands, strict=True)), leader="P1",
                    dealer="P1", seats=seats, teams=Teams.forming("P1", calls))
    assert isinstance(play_to_end(st_, None, Bot(rs, random.Random(1)), friends=True), PlayedOut)
    shuffled = seats[1:] + seats[:1]
    st2 = HandState(rs, Order.for_ruleset(2, 0, rs), dict(zip(shuffled, hands, strict=True)), leader="P1",
                    dealer="P1", seats=shuffled, teams=Teams.forming("P1", calls))
    assert native_play_to_end(st2, None, Bot(rs, random.Random(1)), friends=True) is None
    native.set_enabled(False)
    assert isinstance(play_to_end(st_, None, Bot(rs, random.Random(1)), friends=True), HandState)


@st.composite
def generated_positions(draw):
    """A position of a generated finding-friends match (5–8 players, the decks drawn or the
    table's own): the real deal before any play of any trick, the record's plays pushed
    (friends revealed as the record reveals them), an option played first or none."""
    from analyzer.play.generate import generate_match
    from analyzer.review.mistakes.context import HandContext
    from analyzer.review.mistakes.friends import FriendsHand
    from primitives.cards import points
    from replay.game import replay
    players = draw(st.integers(5, 8))
    decks = draw(st.sampled_from((None, 2, 3, 4)))
    match = replay(generate_match("shengji-io-friends", hands=1, seed=draw(st.integers(0, 10**4)),
                                  players=players, decks=decks))
    h = match.hands[0]
    ctx = HandContext(h, match=match, samples=0)
    fh = FriendsHand(ctx)
    if fh.why_not() is not None or not h.tricks:
        return None, None, ""
    ti = draw(st.integers(0, len(h.tricks) - 1))
    k = draw(st.integers(0, len(h.tricks[ti].plays) - 1))
    start = dict(zip(fh.seats, h.tricks[0].hands_before, strict=True))
    state = fh.replayed(start, points(h.bury or ()), ti, k)
    if state is None:
        return None, None, ""
    first = None
    if draw(st.booleans()):
        legal = list(itertools.islice(state.legal_plays(), 40))
        first = tuple(draw(st.sampled_from(legal))) if legal else None
    return state, first, f"{ti}:{k}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(generated_positions())
def test_generated_friends_matches_play_alike(case):
    if case[0] is None:
        return
    played = check(case)
    event(f"native: {played}")
    event(f"revealed before: {len(case[0].team) > 1}")


def _one_hand(sample: str, number: int, tmp_path) -> str:
    """Hand ``number`` of a sample match as a record of its own (the match's tags kept)."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "samples" / "matches" / sample).read_text(encoding="utf-8")
    head, *hands = text.split("\nhand ")
    mine = next(h for h in hands if h.split("\n", 1)[0].strip() == str(number))
    path = tmp_path / f"{sample}-{number}.sjn"
    path.write_text(head + "\nhand " + mine.rstrip("\n") + "\n", encoding="utf-8")
    return str(path)


def test_the_friends_review_is_byte_identical_with_and_without_the_native_bots(tmp_path):
    """``report --mistakes -f json`` of a finding-friends hand in one process: the same
    bytes with the native core and in Python."""
    from typer.testing import CliRunner

    from analyzer.cli import app
    path = _one_hand("shengji-io-friends.sjn", 1, tmp_path)
    env = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
    args = ["report", "--mistakes", "-f", "json", "--no-progress", "-j", "1", path]
    outs = []
    for on in (True, False):
        native.set_enabled(on)
        r = CliRunner().invoke(app, args, env=env)
        assert r.exit_code == 0, r.stdout[-800:]
        outs.append(r.stdout)
    assert '"alternatives"' in outs[0]
    assert outs[0] == outs[1]
