"""The review-policy bot (``bench_review_random.py --bots review``):
:class:`analyzer.play.review_bot.ReviewBot` with
:class:`analyzer.review.mistakes.policy.ReviewChoice`, every lead and follow the option the
review itself values best from the seat's own view.

Properties: the hand as the bot hands it to the review (:func:`hand_so_far`) is the record's
hand up to the decision, the move written as the generator writes it (a failed throw as
``attempted -> forced``); the plain bot's records do not change (the generator's new hook
is a no-op for it); a match the review bots play replays clean, is the same for a seed,
and their moves differ from the plain bots'.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "generate"))

from gen_helpers import check_clean, played_hands

from analyzer.play.generate import generate_match
from analyzer.play.review_bot import ReviewBot
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.policy import ReviewChoice, hand_so_far
from notation.writer import write_record
from replay.game import replay


def _plays(trick):
    return [(p.seat, tuple(p.cards), None if p.attempted is None else tuple(p.attempted)) for p in trick.plays]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["one-deck", "standard", "tractor97"]), st.integers(0, 300), st.data())
def test_the_hand_so_far_is_the_record_up_to_the_decision(rules, seed, data):
    record = generate_match(rules, hands=1, seed=seed)
    match = replay(record)
    # the played hand (a redealt hand before it has no tricks)
    h = next(r for r in match.hands if not r.redeal)
    node = next(x for x in played_hands(record))
    ti = data.draw(st.integers(0, len(node.tricks) - 1))
    # a failed throw, when the hand has one, half the time
    throws = [i for i, t in enumerate(node.tricks) if t.plays[0].attempted is not None]
    if throws and data.draw(st.booleans()):
        ti = data.draw(st.sampled_from(throws))
    k = data.draw(st.integers(0, len(node.tricks[ti].plays) - 1))
    ctx = HandContext(h, record_hand=node, match=match, samples=0)
    state = ctx.state(ti, k).copy()
    so_far = copy.copy(node)
    so_far.tricks = node.tricks[:ti]
    p = node.tricks[ti].plays[k]
    written, got_ti, got_k = hand_so_far(so_far, state, tuple(p.attempted or p.cards))
    assert (got_ti, got_k) == (ti, k) and len(written.tricks) == ti + 1
    assert written.tricks[:ti] == node.tricks[:ti] and written.points is None
    assert _plays(written.tricks[-1]) == _plays(node.tricks[ti])[:k + 1]
    assert node.tricks == played_hands(record)[0].tricks and node.points is not None   # not changed


def test_the_plain_bots_records_are_unchanged_by_the_hook():
    # the generator hands every bot the hand being written (Bot.begin_play): a no-op for the plain bot
    calls = []

    class Seen(ReviewBot):
        def begin_play(self, hand):
            calls.append(hand.number)

    plain = write_record(generate_match("standard", hands=2, seed=5))
    seen = write_record(generate_match("standard", hands=2, seed=5, make_bot=Seen.factory(lambda *a: None)))
    assert plain == seen and calls == [1, 2]


def test_a_match_of_review_bots_replays_clean_and_is_the_same_for_a_seed():
    built: list[ReviewBot] = []
    choice = ReviewChoice(deals=4)

    def make(rs, rng, params=None):
        built.append(ReviewBot(rs, rng, params, choice=choice))
        return built[-1]

    record = generate_match("one-deck", hands=1, seed=2, make_bot=make)
    check_clean(record)
    again = generate_match("one-deck", hands=1, seed=2, make_bot=ReviewBot.factory(ReviewChoice(deals=4)))
    assert write_record(record) == write_record(again)
    b = built[0]
    assert b.asked > 0 and b.changed > 0
    assert write_record(record) != write_record(generate_match("one-deck", hands=1, seed=2))


def test_generate_bot_review_writes_a_clean_record_with_its_tag(tmp_path):
    """`shengji generate --bot review`: every play the review's best from the bot's view; the record
    replays clean and says which bots played it (docs/cli.md, generate)."""
    from typer.testing import CliRunner

    from analyzer.cli import app
    from notation import parse
    from replay.game import replay

    out = tmp_path / "review.sjn"
    r = CliRunner().invoke(app, ["generate", "--rules", "one-deck", "--hands", "1", "--seed", "3", "--bot", "review",
                                 "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    records, diags = parse(text)
    assert diags == [] and replay(records[0]).diagnostics == []
    assert '[Seed "3"]\n[Bot "review"]\n' in text
    plain = CliRunner().invoke(app, ["generate", "--rules", "one-deck", "--hands", "1", "--seed", "3"],
                               catch_exceptions=False).stdout
    assert plain != text.replace('[Bot "review"]\n', "")   # the review bot played differently
