"""The view bot (``generate --bot view``): :class:`analyzer.play.strong.StrongBot` with
:class:`analyzer.review.mistakes.rollouts.ViewRollouts` at every trick, each decision
valued from the seat's own view over sampled deals, as the review values it.

Properties: its move is always a legal play of the position; it never reads a hidden
card (moving an unseen card between two other seats, consistently with what the seat
has seen, does not change its move); generated matches replay clean, are the same for a
seed, and say which bots played.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "generate"))

from gen_helpers import check_clean

from analyzer.play.generate import generate_match
from analyzer.play.strong import StrongBot
from analyzer.review.mistakes.rollouts import ALL_TRICKS, ViewRollouts
from replay.deck import deck_cards
from replay.ruleset import preset
from replay.state import HandState


def _position(data: st.DataObject, rules: str) -> HandState:
    """A random position: ``n`` cards a seat from a shuffled deck, a random trump and leader,
    some plays of the first trick made by the plain legal rules."""
    rs = preset(rules)
    deck = list(deck_cards(rs))
    random.Random(data.draw(st.integers(0, 10**6))).shuffle(deck)
    n = data.draw(st.integers(2, 5))
    holdings = {s: sorted(deck[i * n:(i + 1) * n]) for i, s in enumerate("NWSE")}
    state = HandState.new(rs, level=data.draw(st.integers(2, 14)), trump=data.draw(st.integers(0, 4)),
                          holdings=holdings, leader=data.draw(st.sampled_from("NWSE")),
                          dealer=data.draw(st.sampled_from("NWSE")), kitty_points=data.draw(st.sampled_from([0, 10, 25])))
    for _ in range(data.draw(st.integers(0, 3))):
        legal = state.legal_follows(limit=50) if state.plays else state.unit_leads()
        state.push(data.draw(st.sampled_from(list(legal))))
    return state


def _legal(state: HandState) -> list[tuple[int, ...]]:
    return [tuple(sorted(m)) for m in (state.legal_follows(limit=10**6) if state.plays else state.unit_leads())]


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_the_move_is_legal_and_reads_no_hidden_card(data):
    rules = data.draw(st.sampled_from(["one-deck", "standard"]))
    state = _position(data, rules)
    seat = state.turn
    legal = _legal(state)
    proposal = data.draw(st.sampled_from(legal))
    got = ViewRollouts()(state, proposal)
    assert got is not None and tuple(sorted(got)) in legal
    # move one card of a suit between two other seats that both hold that suit (what `seat`
    # has seen is unchanged: the sizes, the plays, the suits shown void)
    others = [s for s in state.seats if s != seat and not any(p == s for p, _ in state.plays)]
    eff = state.order.eff
    for a in others:
        for b in others:
            if a >= b:
                continue
            ha, hb = sorted(state.holding(a).elements()), sorted(state.holding(b).elements())
            pairs = [(x, y) for x in ha for y in hb if eff[x] == eff[y] and x != y]
            if not pairs:
                continue
            x, y = data.draw(st.sampled_from(pairs))
            holdings = {s: sorted(state.holding(s).elements()) for s in state.seats}
            for s, cards in state.plays:
                holdings[s] = sorted(holdings[s] + list(cards))
            holdings[a] = sorted([c for c in holdings[a] if c != x] + [y] + [x] * (holdings[a].count(x) - 1))
            holdings[b] = sorted([c for c in holdings[b] if c != y] + [x] + [y] * (holdings[b].count(y) - 1))
            moved = HandState.new(state.ruleset, level=state.order.level, trump=state.order.trump, holdings=holdings,
                                  leader=state.leader, dealer=state.dealer, kitty_points=state.kitty_points)
            for _, cards in state.plays:
                moved.push(cards)
            assert ViewRollouts()(moved, proposal) == got
            return


def _view_match(rules: str, seed: int, hands: int = 1):
    return generate_match(rules, hands=hands, seed=seed, make_bot=StrongBot.factory(ViewRollouts(), tricks=ALL_TRICKS))


def test_generated_matches_replay_clean_and_are_the_same_for_a_seed():
    for rules in ("one-deck", "standard"):
        a, b = _view_match(rules, 3), _view_match(rules, 3)
        assert a == b
        check_clean(a)
        assert a != generate_match(rules, hands=1, seed=3)   # the view bot changed some play


def test_generate_bot_view_says_so():
    from typer.testing import CliRunner

    from analyzer.cli import app
    r = CliRunner().invoke(app, ["generate", "--rules", "one-deck", "--seed", "4", "--bot", "view"],
                           catch_exceptions=False)
    assert r.exit_code == 0 and '[Seed "4"]\n[Bot "view"]\n' in r.stdout
