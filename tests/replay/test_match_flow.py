"""The one match flow (replay.match.MatchFlow) and the teams of a hand (replay.teams.Teams).

RULES.md §7 (score, levels, next dealer, match end) through the flow both the
record replay and the generator drive; the teams as a function of the hand
(fixed partners settled from the start, finding friends as calls are answered).
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from analyzer.play.generate import generate_match
from primitives.diagnostics import NO_SPAN
from replay.friend_calls import friends_outcome
from replay.game import replay
from replay.match import MatchFlow
from replay.ruleset import preset
from replay.scoring import hand_outcome
from replay.teams import FriendResult, Teams

STANDARD = preset("standard")
FRIENDS = preset("shengji-io-friends")


# -- the flow between hands ------------------------------------------------------------------------------

@pytest.mark.parametrize("points, hooked", [(0, False), (40, False), (80, False), (120, True), (200, False)])
def test_fixed_score_is_the_scoring_rule(points, hooked):
    levels = {"NS": 5, "EW": 9}
    flow = MatchFlow(STANDARD, dict(levels), "N")
    flow.begin()
    got = flow.score(levels, "N", points, hooked=hooked)
    assert got == hand_outcome(STANDARD, levels, "N", points, last_trick_rank_hook=hooked, hands_played=1)
    flow.end(got)
    assert (flow.levels, flow.dealer, flow.played) == (got.levels, got.next_dealer, 1)


def test_friends_score_is_the_friends_rule():
    seats = ("P1", "P2", "P3", "P4", "P5")
    levels = dict.fromkeys(seats, 2)
    flow = MatchFlow(FRIENDS, levels, "P2")
    got = flow.score(levels, "P2", 85, team=("P2", "P4"), seats=seats)
    assert got == friends_outcome(FRIENDS, levels, "P2", ("P2", "P4"), seats, 85)


def test_hands_played_count_in_the_score():
    campus = preset("campus")       # match_end hands:17: the 17th hand played ends the match
    flow = MatchFlow(campus, {"NS": 2, "EW": 2})
    for _ in range(16):
        flow.begin()
        flow.end(flow.score({"NS": 2, "EW": 2}, "N", 0))
        assert not flow.over
    flow.begin()
    flow.redeal({"NS": 2, "EW": 2}, "N")         # a redeal is not a hand played
    assert flow.played == 16 and flow.redeals == 1
    flow.begin()
    flow.end(flow.score({"NS": 2, "EW": 2}, "N", 0))
    assert flow.over and flow.winner is not None and flow.phase == "over" and flow.redeals == 0


def test_an_unknown_outcome_leaves_the_next_hand_unknown():
    flow = MatchFlow(STANDARD, {"NS": 2, "EW": 2}, "N")
    flow.begin()
    flow.end(None)
    assert (flow.levels, flow.dealer, flow.played) == (None, None, 1)


@pytest.mark.parametrize("played, number, dealer, first", [
    (0, None, None, True), (0, 1, "?", True), (0, 7, None, False), (0, None, "N", False), (1, None, None, False)])
def test_the_first_hand_of_a_match(played, number, dealer, first):
    flow = MatchFlow(STANDARD)
    flow.played = played
    assert flow.is_first(number, dealer) is first


def test_a_hand_moves_forward_only():
    flow = MatchFlow(STANDARD)
    flow.begin()
    for phase in ("declare", "kitty", "bury", "tricks"):
        flow.step(phase)
    with pytest.raises(ValueError):
        flow.step("declare")


@pytest.mark.parametrize("rules, players", [("standard", None), ("campus", None), ("shengji-io-friends", 6)])
def test_generator_and_record_replay_move_the_match_alike(rules, players):
    # the generator writes each hand's levels and dealer as its flow gives them; the
    # record replay's flow gives the same (no SJ502) and the same outcome for each hand
    record = generate_match(rules, hands=4, seed=3, players=players)
    match = replay(record)
    assert not [d for d in match.diagnostics if d.code in ("SJ502", "SJ524", "SJ501")]
    played = [h for h in match.hands if not h.redeal]
    for h, nxt in pairwise(played):
        assert h.outcome is not None and h.outcome.levels == nxt.levels and h.outcome.next_dealer == nxt.dealer


# -- the teams of a hand ---------------------------------------------------------------------------------

def test_fixed_teams_are_settled_from_the_start():
    t = Teams.fixed("W")
    assert t.team == ("W", "E") and t.settled and t.attackers == frozenset({"N", "S"})
    t.answer(1, [("N", (1,)), ("W", (2,))])
    assert t.team == ("W", "E")
    assert Teams.fixed(None).team == () and Teams.fixed(None).attackers is None


def test_friends_team_forms_as_calls_are_answered():
    calls = [FriendResult(2, 12, None, None, NO_SPAN)]          # the 2nd ♠A
    t = Teams.forming("P1", calls)
    assert t.team == ("P1",) and not t.settled and t.attackers is None
    before = t.snapshot()
    t.answer(1, [("P1", (3,)), ("P2", (12,)), ("P3", (4,))])     # the 1st copy: not yet
    assert t.team == ("P1",) and calls[0].seat is None
    t.answer(2, [("P3", (5,)), ("P4", (12,))])                   # the 2nd: P4 joins
    assert t.team == ("P1", "P4") and (calls[0].seat, calls[0].trick) == ("P4", 2)
    copy = t.copy()
    t.restore(before)
    assert t.team == ("P1",) and calls[0].seat is None and t.skips == [1]
    assert copy.team == ("P1", "P4") and copy.calls[0].seat == "P4"
