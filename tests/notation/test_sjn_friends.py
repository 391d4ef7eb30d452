"""SJN for finding friends (docs/notation.md "Finding friends"): numbered seats
P1…P8, players' own levels, `friend` lines; both reading paths, the tidy form,
JSON, and the messages for lines written wrong."""

from __future__ import annotations

import json

import pytest
from test_sjn_quick import assert_same_both_ways, uses_shortcut

import notation
from notation.model import FriendCall, Hand, PlayerLevels, Record
from primitives.cards import parse_cards as C

TEXT = """[Rules "shengji-io-friends"] [Rule.players "6"]
[P1 "Li"] [P6 "Zhou"]

hand 1
levels P1 2 P2 5 P3 2 P4 3 P5 2 P6 J  ; each their own
dealer P4
trump H
friend 2nd CA P6 @7 {the second club ace}
friend 1st DK
friend 3 SQ none
friend HA P4
1. P4: HAA  P5: H67  P6: H5 H10  P1: H34  P2: H99  P3: H23
P6: SAKQ
"""


def read(text: str):
    records, diags = notation.parse(text)
    return records, diags


def test_seats_levels_and_friend_lines():
    [rec], diags = read(TEXT)
    assert diags == []
    h = rec.hands[0]
    assert isinstance(h.levels, PlayerLevels)
    assert h.levels.levels == {"P1": 2, "P2": 5, "P3": 2, "P4": 3, "P5": 2, "P6": 11}
    assert h.levels.line_comment == "each their own"
    assert h.dealer == "P4"
    assert [(f.ordinal, f.card, f.joined, f.at) for f in h.friends] == [
        (2, C("CA")[0], "P6", 7), (1, C("DK")[0], None, None), (3, C("SQ")[0], "none", None),
        (None, C("HA")[0], "P4", None)]
    assert h.friends[0].comments == ["the second club ace"]
    assert [p.seat for p in h.tricks[0].plays] == ["P4", "P5", "P6", "P1", "P2", "P3"]
    assert [(sc.seat, sc.cards) for sc in h.deal] == [("P6", C("SA SK SQ"))]   # `P6:` is a seat, not cards


def test_both_reading_paths_agree_and_take_the_shortcut():
    assert uses_shortcut(TEXT)
    assert_same_both_ways(TEXT)


def test_tidy_form_and_json_round_trip():
    [rec], _ = read(TEXT)
    text = notation.write(rec)
    assert "friend 2nd CA P6 @7 {the second club ace}" in text and "friend 3rd SQ none" in text
    assert "levels P1 2 P2 5 P3 2 P4 3 P5 2 P6 J  ; each their own" in text
    [again], diags = read(text)
    assert diags == [] and notation.write(again) == text
    assert notation.content_equal(again, notation.canonical(rec))
    back, diags = notation.from_json(notation.to_json(rec))
    assert diags == [] and notation.content_equal(back, rec)


def test_json_of_a_hand_without_friends_is_unchanged():
    # the `friends` field is left out when empty: four-player JSON is as before
    data = json.loads(notation.to_json(Record(hands=[Hand(number=1)])))
    assert "friends" not in data["hands"][0]
    data = json.loads(notation.to_json(Record(hands=[Hand(friends=[FriendCall(card=3)])])))
    assert data["hands"][0]["friends"][0]["card"] == 3


@pytest.mark.parametrize("line, code, fragment", [
    ("friend 2nd", "SJ101", "the called card is missing"),
    ("friend 2nd HA P9", "SJ106", "not a seat or `none`"),
    ("friend 2nd HA none @3", "SJ106", "not the trick of a reveal"),
    ("friend 2nd HAK", "SJ106", "called by one card"),
    ("friend 0th HA", "SJ106", "not an ordinal"),
    ("friend 1st HA P2 @3 x", "SJ106", "unexpected `x`"),
    ("levels P1 2 P2 3 P3", "SJ106", "a seat without its level"),
    ("levels P1 2 P9 3", "SJ106", "not a seat here"),
    ("levels P1 2 P2 X", "SJ106", "not a level"),
])
def test_lines_written_wrong(line, code, fragment):
    records, diags = read(f"hand 1\n{line}\n1. P1: HA  P2: H3  P3: H4  P4: H5  P5: H6\n")
    assert [d.code for d in diags] == [code], diags
    assert fragment in diags[0].message
    assert diags[0].line == 2
    assert len(records[0].hands[0].tricks) == 1        # the rest of the hand is still read


def test_p_is_never_a_suit():
    _records, diags = read("hand 1\n1. P1: P2  P2: H3\n")
    assert diags and diags[0].code in ("SJ101", "SJ102")
