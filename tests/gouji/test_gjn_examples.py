"""Every GJN example of GOUJI.md §11 (copied as fixtures) and the project's
own fixtures read without a diagnostic, into the content the text says, and
the tidy writer is stable on them (GOUJI.md §10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation import gjn
from primitives.gjcards import BJ, HEARTS, LJ, SPADES, make, parse_cards

FIXTURES = Path(__file__).with_name("fixtures")
ALL = sorted(FIXTURES.glob("*.gjn"))


def read(name: str):
    records, diags = gjn.parse((FIXTURES / name).read_text(encoding="utf-8"))
    assert diags == []
    return records


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_fixture_reads_clean_and_rewrites_stably(path):
    text = path.read_text(encoding="utf-8")
    records, diags = gjn.parse(text)
    assert diags == [] and records
    tidy = gjn.write(records)
    again, diags = gjn.parse(tidy)
    assert diags == []
    assert gjn.write(again) == tidy
    for a, b in zip(records, again):
        assert gjn.content_equal(gjn.canonical(a), b)


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_fixture_streams_like_it_parses(path):
    with path.open("rb") as f:
        streamed = [r for r, _ in gjn.iter_records(f)]
    assert streamed == gjn.parse(path.read_text(encoding="utf-8"))[0]


def test_endgame_example():  # GOUJI.md §11 "Endgame"
    (rec,) = read("example_endgame.gjn")
    assert rec.rules_name == "gouji"
    (game,) = rec.games
    assert game.number == 1 and game.position.finished == ("P1", "P4")
    assert [sc.seat for sc in game.deal] == ["P2", "P3", "P5", "P6"]
    assert game.seat_cards("P5").cards == parse_cards("AA 5")
    assert game.lead.seat == "P5"
    assert [a.number for a in game.actions] == list(range(1, 9))
    assert [a.kind for a in game.actions] == ["play", "pass", "play", "play", "pass", "pass", "pass", "play"]
    assert game.actions[3].finish == 3 and game.actions[7].finish == 4
    assert game.actions[6].line_comment == "P3, P4 out: P5 leads (接风)"
    assert game.result.seats == ("P1", "P4", "P3", "P5", "P2", "P6")
    assert (game.score.odd, game.score.even) == (4, 0)
    assert game.actions[0].span.line == 9 and game.actions[0].span.column == 1


def test_burn_example():  # GOUJI.md §11 "够级, burn, 解烧, 串三户"
    (rec,) = read("example_burn_sweep.gjn")
    game = rec.games[0]
    assert game.position.finished == ("P3",)
    burn = game.actions[2]
    assert (burn.seat, burn.cards, burn.burn) == ("P2", parse_cards("KKK"), True)
    assert burn.marks_span.column == burn.cards_span.end_column + 1
    assert game.actions[7].cards == (LJ, make(8), make(8))
    assert game.actions[11].cards == (BJ, make(9), make(9))
    assert [a.finish for a in game.actions if a.finish] == [2, 3]
    assert (game.score.odd, game.score.even) == (12, 0)


def test_tribute_revolution_example():  # GOUJI.md §11 "Tribute and revolution"
    (rec,) = read("example_tribute_revolution.gjn")
    assert rec.rule_overrides["tribute"].value == "on"
    first, second = rec.games
    assert first.is_scoresheet and not second.is_scoresheet
    assert len(second.deal) == 6 and all(len(sc.cards) == 36 for sc in second.deal)
    kinds = [p.kind for p in second.preplay]
    assert kinds == ["tribute", "tribute", "return", "return", "revolt", "lead"]
    t = second.preplay[0]
    assert (t.payer, t.receiver, t.cards) == ("P5", "P2", (LJ, make(15)))
    r = second.preplay[2]
    assert (r.payer, r.receiver, r.cards) == ("P2", "P5", parse_cards("44"))
    assert second.result is None and len(second.actions) == 6


def test_every_line_kind():
    (rec,) = read("syntax_every_line.gjn")
    assert rec.line_comment.startswith("every GJN line kind")
    assert rec.header_comments == ["a commentary after the tags"]
    assert rec.players == {"P1": "Wang", "P2": "Li", "P3": "Zhang", "P4": "Zhao", "P5": "Sun", "P6": "Zhou"}
    g = rec.games[1]
    assert [(p.seat, p.pre) for p in g.pre_points] == [("P3", True)]
    p1 = g.seat_cards("P1").cards
    assert p1[:2] == (BJ, LJ) and p1.count(make(14)) == 3  # 大王 小王 and lower-case aaa
    assert p1[-3:] == (make(3, SPADES), make(3, SPADES), make(3, HEARTS))
    assert g.seat_cards("P2").cards.count(make(10)) == 3  # TTT
    assert [p.kind for p in g.preplay] == ["show", "dian", "tribute", "return", "buy", "revolt",
                                           "remove", "point", "lead"]
    assert g.preplay[0].comments == ["亮3"]
    assert g.preplay[6].ranks == (3, 4)
    a = g.actions
    assert a[2].kind == "let" and a[2].comments == ["让牌"]
    assert a[3].burn and not a[3].fail and a[4].fail and a[5].finish == 1
    assert rec.games[2].position.finished == ("P1", "P4")
    assert rec.games[3].redeal is not None and [p.kind for p in rec.games[3].preplay] == ["revolt", "revolt", "redeal"]


def test_two_records_stream_one_by_one():
    records = read("two_records.gjn")
    assert [r.tag("Event") for r in records] == ["First", "Second"]
    assert [r.rules_name for r in records] == ["gouji", "gouji-online"]


DOC = Path(__file__).resolve().parents[2] / "docs" / "gouji.md"


def _doc_records():
    import re
    blocks = re.findall(r"```\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return [b for b in blocks if b.lstrip().startswith(("[", "game", "1.", "3."))]


def test_the_guide_has_examples():
    assert len(_doc_records()) >= 5


@pytest.mark.parametrize("text", _doc_records())
def test_every_example_of_the_guide_reads_clean(text):
    if text.lstrip()[0].isdigit():  # a fragment of actions: put it in a game
        text = "game 1\n" + text
    records, diags = gjn.parse(text)
    assert diags == [] and records


def test_the_guide_examples_are_the_fixtures():
    docs = _doc_records()
    for name in ("example_endgame.gjn", "example_burn_sweep.gjn", "example_tribute_revolution.gjn"):
        assert (FIXTURES / name).read_text(encoding="utf-8") in docs, name


@pytest.mark.parametrize("name, expected", [
    # GOUJI.md §11: the first two examples are clean; the third stops before
    # a side is out: one GJ503 warning, on game 2's `game` line (line 6)
    ("example_endgame.gjn", []),
    ("example_burn_sweep.gjn", []),
    ("example_tribute_revolution.gjn", [("GJ503", 6, "warning")]),
    ("scoresheet.gjn", []),
    ("two_records.gjn", []),
])
def test_examples_lint_as_the_contract_says(name, expected):
    from analyzer.games.gouji import analysis as gouji
    from analyzer.lint import LintOptions, lint_file
    if not gouji.engine_available():
        pytest.skip("the Gouji engine (replay.gouji) is not installed")
    result = lint_file(FIXTURES / name, LintOptions())
    assert [(f.code, f.line, f.severity) for f in result.findings] == expected
