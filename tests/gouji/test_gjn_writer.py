"""The tidy GJN writer (GOUJI.md §10 "Tidy form"): exact output for each
construct, and the records it refuses (representable_problems)."""

from __future__ import annotations

import pytest

from notation import gjn
from notation.gjn_model import Action, Game, GoujiRecord, Lead, Point, Remove, Result, Score, SeatCards, Tag
from primitives.gjcards import parse_cards


def tidy(text: str) -> str:
    records, diags = gjn.parse(text)
    assert diags == []
    return gjn.write(records)


@pytest.mark.parametrize("written, expected", [
    # cards high → low, one group per rank; 3s (any written suit) keep their suits
    ("game 1\nP1: 3 10 BJ S3 2 10 LJ BJ 2 2 10 H3 S3\n", "game 1\nP1: BJBJ LJ 222 101010 3 S33 H3\n"),
    ("game 1\n1. P1: KK2\n", "game 1\n1. P1: 2 KK\n"),
    ("game 1\n1. P1: t T 10\n", "game 1\n1. P1: 101010\n"),
    ("game 1\n1. P1: 大王 小王\n", "game 1\n1. P1: BJ LJ\n"),
    # marks in the order burn fail =k
    ("game 1\n1. P1: KK =2 fail burn\n", "game 1\n1. P1: KK burn fail =2\n"),
    # seat lines in P1…P6 order, actions numbered after the previous number
    ("game\nP3: 5\nP1: 4\n4. P1: 4\nP2: pass\n", "game\nP1: 4\nP3: 5\n4. P1: 4\n5. P2: pass\n"),
    # a pre-play line after an action stays after it
    ("game 1\n1. P1: 4\nlead P2\n2. P2: 5\n", "game 1\n1. P1: 4\nlead P2\n2. P2: 5\n"),
    # `point X pre` before the deal lines; `result` and `score` last
    ("game 2\nscore odd 0 even 4\nresult P2 P1 P4 P3 P6 P5\npoint P3 pre\n",
     "game 2\npoint P3 pre\nresult P2 P1 P4 P3 P6 P5\nscore odd 0 even 4\n"),
    # comments: `{}` after the element, `;` at the end of its line, continued on `;` lines
    ("game 1 {start}\n1. P1: KK ; one\n; two\n{note}\n",
     "game 1 {start}\n1. P1: KK {note}  ; one\n; two\n"),
    ("[Event  \"A \\\"B\\\"\"]   [Rules \"gouji\"]\ngame 1\n",
     "[Event \"A \\\"B\\\"\"]\n[Rules \"gouji\"]\n\ngame 1\n"),
])
def test_tidy_form(written, expected):
    assert tidy(written) == expected
    assert tidy(expected) == expected


def test_unicode_suits():
    (rec,), _ = gjn.parse("game 1\nshow P3 S333 H3\n")
    assert gjn.write(rec, unicode=True) == "game 1\nshow P3 ♠333 ♥3\n"


def test_built_record_is_written():
    rec = GoujiRecord(tags=[Tag(name="Rules", value="gouji-online")], games=[Game(
        number=3, pre_points=[Point(seat="P2", pre=True)],
        deal=[SeatCards(seat="P2", cards=parse_cards("AA 5"))],
        preplay=[Remove(ranks=(3, 4)), Lead(seat="P2")],
        actions=[Action(number=1, seat="P2", cards=parse_cards("AA"), finish=1), Action(seat="P3", kind="let")],
        result=Result(seats=("P2", "P1", "P3", "P4", "P5", "P6")), score=Score(odd=-2, even=2))])
    assert gjn.write(rec) == ('[Rules "gouji-online"]\n\ngame 3\npoint P2 pre\nP2: AA 5\nremove 3 4\nlead P2\n'
                              '1. P2: AA =1\n2. P3: let\nresult P2 P1 P3 P4 P5 P6\nscore odd -2 even 2\n')


@pytest.mark.parametrize("game, problem", [
    (Game(actions=[Action(number=1, seat="P1", kind="play")]), "has no cards"),
    (Game(actions=[Action(number=1, seat="P1", kind="pass", burn=True)]), "with cards or marks"),
    (Game(actions=[Action(number=0, seat="P1", cards=(24,))]), "below 1"),
    (Game(actions=[Action(number=1, seat="P1", cards=(3,))]), "not a Gouji card"),
    (Game(actions=[Action(number=1, seat="P1", cards=(24,), finish=7)]), "place 7"),
    (Game(result=Result(seats=("P1", "P2"))), "six distinct seats"),
    (Game(preplay=[Remove(ranks=(5,))]), "other than 3 and 4"),
    (Game(preplay=[Lead(seat="P1", after_actions=2)]), "placed after 2 actions"),
    (Game(deal=[SeatCards(seat="P1", cards=(24,)), SeatCards(seat="P1", cards=(24,))]), "two seat lines"),
    (Game(pre_points=[Point(seat="P1")]), "without `pre`"),
    (Game(comments=["a } b"]), "holds a brace"),
])
def test_unwritable_records_are_refused(game, problem):
    rec = GoujiRecord(games=[game])
    problems = gjn.representable_problems(rec)
    assert any(problem in p for p in problems), problems
    with pytest.raises(ValueError):
        gjn.write(rec)
    assert gjn.from_json(rec.model_dump_json())[0] is None
