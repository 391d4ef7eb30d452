"""The bots' play-out in the native core (``native/src/bot.rs``) against the Python bot
(:class:`analyzer.play.bot.Bot` through :func:`analyzer.review.mistakes.decisions.play_to_end`),
which is its specification: from positions of hands the bots play, at every trick
number, of every four-seat fixed-partners preset (one deck and more, throws on and
off, the trick options varied), both must make every single play alike, end on the
same points and hook-back, and leave the bot's generator in the same state."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_positions import deal, orders, python_moves, rulesets

from analyzer.play.bot import Bot
from analyzer.review.mistakes.decisions import PlayedOut, native_play_to_end, play_to_end
from replay import native
from replay.ruleset import PRESETS, Ruleset
from replay.seats import SEATS
from replay.state import HandState

FOUR_SEAT = tuple(n for n, v in PRESETS.items() if v.get("partners", "fixed") == "fixed"
                  and v.get("players", 4) == 4)


def both(start: HandState, first: tuple[int, ...] | None, seed: str):
    """(Python's end, the rng state after) and the same of the native play-out, with the same generator."""
    native.set_enabled(False)
    try:
        py_bot = Bot(start.ruleset, random.Random(seed))
        py_end = play_to_end(start, first, py_bot)
    finally:
        native.set_enabled(True)
    nat_bot = Bot(start.ruleset, random.Random(seed))
    nat_end = native_play_to_end(start, first, nat_bot, record=True)
    if nat_end is None:
        nat_end = play_to_end(start, first, nat_bot)
    return py_end, py_bot.rng.getstate(), nat_end, nat_bot.rng.getstate()


@st.composite
def positions(draw, presets: tuple[str, ...] = FOUR_SEAT):
    """A hand dealt in full, the bots' plays up to some point of it (any trick, any seat)."""
    rs: Ruleset = draw(rulesets(fixed_only=True, presets=presets))
    if draw(st.booleans()):   # one deck as well as more (the presets' own or drawn)
        rs = rs.model_copy(update={"decks": 1})
    if draw(st.integers(0, 2)) == 0:
        rs = rs.model_copy(update={"throws": not rs.throws})
    order = draw(orders(rs))
    seed = draw(st.integers(0, 10**6))
    per_seat = draw(st.sampled_from((6, 12, 25 if rs.decks >= 2 else 12, 13 * rs.decks - 2)))
    hands = deal(rs, seed, per_seat, 4)
    dealer = draw(st.sampled_from(SEATS))
    kitty = draw(st.sampled_from((0, 5, 10, 25, 40)))
    state = HandState(rs, order, dict(zip(SEATS, hands, strict=True)), leader=draw(st.sampled_from(SEATS)),
                      dealer=dealer, kitty_points=kitty)
    # the bots play some of the hand (Python): the position of any trick and any seat in it
    steps = draw(st.integers(0, max(0, 4 * min(len(h) for h in hands) - 1)))
    native.set_enabled(False)
    try:
        bot = Bot(rs, random.Random(seed))
        from analyzer.play.views import TrickView
        for _ in range(steps):
            if state.is_over:
                break
            v = TrickView.of(state)
            move = bot.follow(v) if v.plays else bot.lead(v)
            state.push(move, check=False)
    finally:
        native.set_enabled(True)
    # play_to_end's option played first (any legal play: a throw that fails too), or none
    first = None
    if not state.is_over and draw(st.booleans()):
        legal = list(itertools.islice(state.legal_plays(), 40))
        first = tuple(draw(st.sampled_from(legal))) if legal else None
    return state, first, f"{seed}:{steps}"


def check(case) -> None:
    start, first, seed = case
    if start.is_over:
        return
    py_end, py_rng, nat_end, nat_rng = both(start, first, seed)
    if py_end is None:
        assert nat_end is None
        return
    assert isinstance(py_end, HandState)
    if not isinstance(nat_end, PlayedOut):
        # the native core gave the hand to Python (a bot that would raise): the same end
        assert isinstance(nat_end, HandState) and nat_end.final_points == py_end.final_points
        return
    moves = python_moves(start, py_end, first is not None)
    assert list(nat_end.plays) == moves
    assert nat_end.count == len(moves) + (first is not None)
    assert nat_end.final_points == py_end.final_points
    assert nat_end.hooked == py_end.hooked
    assert nat_rng == py_rng


@pytest.fixture(autouse=True)
def _native_on():
    native.set_enabled(True)
    yield
    native.set_enabled(True)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_native_play_out_is_the_python_bots_play_for_play(case):
    check(case)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(presets=tuple(n for n in FOUR_SEAT if PRESETS[n].get("follow_suit") == "printed")
                 or FOUR_SEAT))
def test_printed_follow_suit_plays_alike(case):
    check(case)


@pytest.mark.parametrize("seed", ["", "x", "0:1:2:3:4", "a much longer seed string 12345"])
def test_the_generator_draws_as_cpython(seed):
    """random() and choice() drawn in Rust leave the state CPython's leave: a play-out of
    one-card hands with throws is not needed for this; compare a whole play-out's state."""
    rs = Ruleset(**{"name": "standard", **PRESETS["standard"]})
    rng = random.Random(seed)
    hands = deal(rs, 7, 25, 4)
    from replay.order import Order
    st_ = HandState(rs, Order.for_ruleset(2, 0, rs), dict(zip(SEATS, hands, strict=True)), leader="N", dealer="N")
    case = (st_, None, seed)
    check(case)
    assert rng.random() == random.Random(seed).random()


def test_not_applicable_is_none():
    """Another bot, another generator, or no native core: not the native play-out."""
    rs = Ruleset(**{"name": "standard", **PRESETS["standard"]})
    from replay.order import Order
    st_ = HandState(rs, Order.for_ruleset(2, 0, rs), dict(zip(SEATS, deal(rs, 3, 12, 4), strict=True)),
                    leader="N", dealer="N")
    assert isinstance(play_to_end(st_, None, Bot(rs, random.Random(1))), PlayedOut)
    assert native_play_to_end(st_, None, Bot(rs, random.Random(1))) is not None

    class Other(Bot):
        pass

    assert native_play_to_end(st_, None, Other(rs, random.Random(1))) is None
    assert native_play_to_end(st_, None, Bot(rs, random.SystemRandom())) is None
    # input that may not cross: refused here or by the extension, the hand played in Python
    for bad in (60, -1, 3.0, "S3"):
        hands = {s: list(h) for s, h in zip(SEATS, deal(rs, 3, 12, 4), strict=True)}
        hands["W"][0] = bad
        bad_st = HandState(rs, Order.for_ruleset(2, 0, rs), hands, leader="N", dealer="N")
        assert native_play_to_end(bad_st, None, Bot(rs, random.Random(1))) is None, bad
    assert native_play_to_end(st_, (99,), Bot(rs, random.Random(1))) is None
    native.set_enabled(False)
    assert native_play_to_end(st_, None, Bot(rs, random.Random(1))) is None
    assert isinstance(play_to_end(st_, None, Bot(rs, random.Random(1))), HandState)


def _one_hand(sample: str, number: int, tmp_path) -> str:
    """Hand ``number`` of a sample match as a record of its own (the match's tags kept)."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "samples" / "matches" / sample).read_text(encoding="utf-8")
    head, *hands = text.split("\nhand ")
    mine = next(h for h in hands if h.split("\n", 1)[0].strip() == str(number))
    path = tmp_path / f"{sample}-{number}.sjn"
    path.write_text(head + "\nhand " + mine.rstrip("\n") + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("sample,number", [("one-deck.sjn", 2), ("standard.sjn", 1)])
def test_the_review_is_byte_identical_with_and_without_the_native_bots(tmp_path, sample, number):
    """``report --mistakes -f json`` of one hand (one-deck hand 2 has a failed throw) in one
    process: the same bytes with the native core and in Python."""
    from typer.testing import CliRunner

    from analyzer.cli import app
    path = _one_hand(sample, number, tmp_path)
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


@pytest.mark.parametrize("short", ["N", "W", "S", "E"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_short_of_cards_ends_as_in_python(short, seed):
    """A position the deal could not give (one seat a card short): whatever the Python
    play-out makes of it (no play-out, or an end), the native core's is the same."""
    rs = Ruleset(**{"name": "standard", **PRESETS["standard"]})
    from replay.order import Order
    hands = {s: list(h) for s, h in zip(SEATS, deal(rs, seed, 8, 4), strict=True)}
    hands[short] = hands[short][1:]
    st_ = HandState(rs, Order.for_ruleset(2, 0, rs), hands, leader="N", dealer="N", kitty_points=10)
    py_end, _py_rng, nat_end, _nat_rng = both(st_, None, str(seed))
    if py_end is None:
        assert nat_end is None
    else:
        assert nat_end is not None and nat_end.final_points == py_end.final_points
