"""Issue 32: the fast pass (``lint --mistakes``) on finding-friends hands says
what it could not judge (SJ691, one note per hand), and the per-hand table
says why a friends hand has no exact window."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.report.text import summary_lines, window_text
from analyzer.review.mistakes import find_mistakes, review_match
from notation import parse
from replay.game import replay

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "matches"


def _match(name: str):  # type: ignore[no-untyped-def]
    records, _diags = parse((SAMPLES / name).read_text(encoding="utf-8"))
    return records[0], replay(records[0])


def test_every_friends_hand_gets_one_sj691_note():
    record, match = _match("shengji-io-friends.sjn")
    found = find_mistakes(record, match)
    notes = [f for f in found if f.code == "SJ691"]
    played = [h for h in match.hands if h.team is not None and h.tricks]
    assert played and [f.hand for f in notes] == [h.number for h in played]
    for f, h in zip(notes, played):
        assert f.severity == "info" and f.cost == 0 and f.band == "note" and f.target == "hand"
        assert (f.line, f.column) == (h.span.line, h.span.column)
        assert "no exact window" in f.message and "report --mistakes" in f.message
    # the summary has the hands, none judged, each saying why
    rows = found.summary["hands"]
    assert [r["no_window"] for r in rows] == ["finding friends"] * len(played)
    assert all(sum(r["judged"].values()) == 0 for r in rows)


def test_sj691_can_be_deselected():
    record, match = _match("shengji-io-friends.sjn")
    assert not [f for f in review_match(match, record=record, samples=0, select=["SJ60"]).findings
                if f.code == "SJ691"]


def test_four_seat_hands_get_no_sj691():
    record, match = _match("80fen.sjn")
    found = find_mistakes(record, match)
    assert not [f for f in found if f.code == "SJ691"]
    assert all("no_window" not in r for r in found.summary["hands"])


@pytest.mark.parametrize(("hand", "text"), [
    ({"window": None, "no_window": "finding friends"}, "no exact window (finding friends)"),
    ({"window": None}, "not searched"),
    ({"window": 4, "requested": 4}, "last 4 of 4 tricks asked"),
    ({"window": 3, "requested": 4, "budget_cut": True}, "last 3 of 4 tricks asked (node budget)"),
    ({"skipped": "finding friends: the hand is incomplete"}, "not reviewed: finding friends: the hand is incomplete"),
])
def test_the_window_column(hand, text):  # type: ignore[no-untyped-def]
    assert window_text(hand) == text


@pytest.mark.parametrize(("hand", "line"), [
    ({"hand": 1, "window": None, "no_window": "finding friends"},
     "  hand 1 (finding friends: no exact window): points lost P1 3"),
    ({"hand": 2, "window": 4, "requested": 4}, "  hand 2 (last 4 of 4 tricks asked): points lost P1 3"),
])
def test_the_summary_line_of_a_hand(hand, line):  # type: ignore[no-untyped-def]
    """annotate's summary: one pair of parentheses ("hand 1 (no exact window
    (finding friends))" read badly)."""
    review = {"players": {"P1": {}}, "hands": [{**hand, "players": {"P1": {"points_lost": 3}}}]}
    assert summary_lines(review)[-1] == line
