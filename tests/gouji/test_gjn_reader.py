"""The GJN reader (GOUJI.md §10): positioned SJ1xx diagnostics that never stop
the file, card spelling, full width, streaming, and the quick path reading
exactly what the grammar reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from gjn_strategies import records
from hypothesis import given, settings

from notation import gjn, gjn_reader
from primitives.gjcards import BJ, LJ, make, parse_cards

FIXTURES = Path(__file__).with_name("fixtures")


# (text, code, line, column) — the one diagnostic each bad line gets
ERRORS = [
    ("game 1\n1. P1: KX\n", "SJ102", 2, 8),                 # bad rank
    ("game 1\nshow P3 SBJ\n", "SJ102", 2, 9),               # a joker takes no suit
    ("game 1\n1. P1: S3H3\n", "SJ102", 2, 8),               # §10: the suit opens the group only
    ("game 1\nP7: KK\n", "SJ106", 2, 1),                    # no seat P7
    ("game 1\n1. p1: KK\n", "SJ106", 2, 4),                 # seats are upper case
    ("game 1\nP1 KK\n", "SJ101", 2, 1),                     # missing colon
    ("game 1\n1. P1 KK\n", "SJ101", 2, 4),
    ("Game 1\n", "SJ104", 1, 1),                            # keywords are lower case
    ("gmae 1\n", "SJ104", 1, 1),
    ("game x\n", "SJ106", 1, 6),
    ("game 1\n1x. P1: KK\n", "SJ106", 2, 1),
    ("game 1\n1. P1: pass burn\n", "SJ101", 2, 13),         # nothing after pass
    ("game 1\n1. P1: KK burn QQ\n", "SJ101", 2, 16),        # marks after the cards
    ("game 1\n1. P1: KK burn burn\n", "SJ101", 2, 16),
    ("game 1\n1. P1: KK =7\n", "SJ106", 2, 11),             # places 1..6
    ("game 1\nresult P1 P2 P3\n", "SJ106", 2, 1),           # six seats
    ("game 1\nresult P1 P2 P3 P4 P5 P5\n", "SJ106", 2, 23),
    ("game 1\nscore odd x even 0\n", "SJ106", 2, 11),
    ("game 1\nscore odd 1 odd 0\n", "SJ106", 2, 13),
    ("game 1\nscore odd 1\n", "SJ101", 2, 12),
    ("game 1\nremove 5\n", "SJ106", 2, 8),
    ("game 1\npoint P1 post\n", "SJ106", 2, 10),
    ("game 1\ntribute P5 P2 LJ\n", "SJ101", 2, 12),         # receiver needs a colon
    ("game 1\nrevolt\n", "SJ101", 2, 7),
    ("game 1\nP1: pass\n", "SJ101", 2, 1),                  # §10: the first action is numbered
    ("game 1\nP1: KK\nP1: QQ\n", "SJ108", 3, 1),
    ("game 1\nposition P1\nposition P2\n", "SJ108", 3, 1),
    ("game 1\nresult P1 P2 P3 P4 P5 P6\nresult P1 P2 P3 P4 P5 P6\n", "SJ108", 3, 1),
    ("[Rules gouji]\ngame 1\n", "SJ105", 1, 1),
    ("game 1\n1. P1: KK { open\n", "SJ103", 2, 11),
    ("game 1\n} P1\n", "SJ101", 2, 1),
]


@pytest.mark.parametrize("text, code, line, column", ERRORS)
def test_bad_line_is_reported_where_it_is(text, code, line, column):
    _, diags = gjn.parse(text)
    assert [(d.code, d.line, d.column) for d in diags] == [(code, line, column)]
    assert diags[0].message


@pytest.mark.parametrize("text, code, line, column", ERRORS)
def test_reading_goes_on_after_a_bad_line(text, code, line, column):
    records, diags = gjn.parse(text + "1. P3: KK\n2. P4: pass\nresult P1 P2 P3 P4 P5 P6\n")
    game = records[-1].games[-1]
    assert game.actions[-1].kind == "pass" and game.result is not None
    assert diags[0].code == code


def test_unterminated_commentary_keeps_the_line():
    records, diags = gjn.parse("game 1\n1. P1: KK { open\n2. P2: pass\n")
    acts = records[0].games[0].actions
    assert acts[0].comments == ["open"] and acts[1].kind == "pass"
    assert [d.code for d in diags] == ["SJ103"]


@pytest.mark.parametrize("written, cards", [  # GOUJI.md §10 "Cards"
    ("大王 小王", (BJ, LJ)),
    ("bj lj kk2", (BJ, LJ, make(13), make(13), make(15))),
    ("10 T t", (make(10),) * 3),
    ("♠33 ♥3 S3 s3", parse_cards("S33 H3 S3 S3")),
])
def test_card_spellings(written, cards):
    records, diags = gjn.parse(f"game 1\n1. P1: {written}\n")
    assert diags == [] and records[0].games[0].actions[0].cards == cards


def test_full_width_reads_as_ascii_outside_comments():
    text = "ｇａｍｅ　１\n１．Ｐ１：ＫＫ　ｂｕｒｎ　＝２　; ｃｏｍｍｅｎｔ\nresult P1 P2 P3 P4 P5 P6 {ＡＢ}\n"
    records, diags = gjn.parse(text)
    assert diags == []
    game = records[0].games[0]
    a = game.actions[0]
    assert (game.number, a.number, a.seat, a.cards, a.burn, a.finish) == (1, 1, "P1", parse_cards("KK"), True, 2)
    assert a.line_comment == "ｃｏｍｍｅｎｔ" and game.result.comments == ["ＡＢ"]
    assert (a.span.line, a.span.column) == (2, 1)


def test_spans_locate_every_node():
    text = "[Rules \"gouji\"]\ngame 3\nP1: KK QQ\ntribute P5 P2: LJ 2\n1. P1: KK burn =1  ; c\n"
    (rec,), _ = gjn.parse(text)
    g = rec.games[0]
    assert rec.tags[0].span == (1, 1, 1, 16)
    assert g.span[:2] == (2, 1) and g.span[2] == 5
    assert g.deal[0].span == (3, 1, 3, 10)
    assert g.preplay[0].span == (4, 1, 4, 20)
    a = g.actions[0]
    assert a.span == (5, 1, 5, 18)
    assert a.cards_span == (5, 8, 5, 10) and a.marks_span == (5, 11, 5, 18)


def test_comments_attach_to_the_element_before():
    text = ("; head\n[Rules \"gouji\"]\n{after tags}\ngame 1\n{on game}\n1. P1: KK\n{on play}\n; more\n"
            "2. P2: pass ; own\nresult P1 P2 P3 P4 P5 P6\n{on result}\n")
    (rec,), diags = gjn.parse(text)
    assert diags == []
    g = rec.games[0]
    assert rec.line_comment == "head" and rec.header_comments == ["after tags"]
    assert g.comments == ["on game"]
    assert g.actions[0].comments == ["on play"] and g.actions[0].line_comment == "more"
    assert g.actions[1].line_comment == "own" and g.result.comments == ["on result"]


def test_late_preplay_line_stays_in_place():  # GJ212 needs to see it
    (rec,), _ = gjn.parse("game 1\n1. P1: KK\nlead P2\n2. P2: pass\n")
    g = rec.games[0]
    assert g.preplay[0].after_actions == 1
    assert gjn.write(rec).splitlines()[2:4] == ["lead P2", "2. P2: pass"]


def test_unnumbered_action_after_the_first():
    (rec,), diags = gjn.parse("game 1\nP1: KK\n1. P1: KK\nP2: pass\n")
    g = rec.games[0]
    assert diags == [] and len(g.deal) == 1 and [a.number for a in g.actions] == [1, None]
    assert "2. P2: pass" in gjn.write(rec)


def test_many_records_stream_from_a_generator():
    def lines():
        for k in range(300):
            yield f'[Event "{k}"]\n'
            yield "game 1\n"
            yield "1. P1: KK\n" if k % 7 else "1. P1: KX\n"
            yield "result P1 P2 P3 P4 P5 P6\n"
            yield "\n"
    count = bad = 0
    for record, diags in gjn.iter_records(lines()):
        assert record.tag("Event") == str(count)
        assert diags == [] or [d.line for d in diags] == [count * 5 + 3]
        bad += bool(diags)
        count += 1
    assert count == 300 and bad == 43


def test_parse_record_warns_about_a_second_record():
    rec, diags = gjn.parse_record((FIXTURES / "two_records.gjn").read_text(encoding="utf-8"))
    assert rec.tag("Event") == "First" and [d.code for d in diags] == ["SJ109"]


def _both_ways(text):
    gjn_reader.QUICK_LINES = True
    try:
        quick = gjn.parse(text)
        again = gjn.parse(text)  # card groups met before: the fastest path
        assert again == quick
    finally:
        gjn_reader.QUICK_LINES = False
    try:
        slow = gjn.parse(text)
    finally:
        gjn_reader.QUICK_LINES = True
    return quick, slow


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.gjn")), ids=lambda p: p.name)
def test_quick_path_reads_what_the_grammar_reads(path):
    quick, slow = _both_ways(path.read_text(encoding="utf-8"))
    assert quick == slow


@pytest.mark.parametrize("text", [t for t, *_ in ERRORS] + [
    "game 1\n1. P1: KK=1\n", "game 1\n1.P1:KK burn\n", "game 1\n1. P1: passx\n", "game 1\n1. P1: let\n",
    "game 1\n1. P1: KK fail =2 ; c\n", "game 1\nP1:\n", "game 1\n1. P1: =1\n", "game 1\n1. P1: burn\n",
    "game 1\n1. P1: KK P2: QQ\n", "game 1 2\n", "game 1 ; c\n", "dian P4 P1: 2\n", "tribute P5 P2:LJ\n",
    "tribute P5: P2: LJ\n", "show P3 S33 =\n", "show P3: S33\n", "score odd 1 even 2 ; c\n",
    "score odd 1 even\n", "lead P1:\n", "lead\n", "remove 3 4 ;x\n", "remove\n", "point P1 pre\n",
    "point P1 pre x\n", "revolt P4 P5\n", "position\n", "position P1 P1\n", "buy P1 P2: 2=\n",
    "buy P1 P2:: 2\n", "buy P1 .P2: 2\n", "redeal now\n", "result\n", "result P1 P2 P3 P4 P5 P6 x\n",
    "game x=1\n", "show P3 BJ\n",
])
def test_quick_path_on_odd_lines(text):
    quick, slow = _both_ways(text)
    assert quick == slow


@settings(max_examples=40, deadline=None)
@given(records())
def test_quick_path_on_random_records(record):
    quick, slow = _both_ways(gjn.write(record))
    assert quick == slow
