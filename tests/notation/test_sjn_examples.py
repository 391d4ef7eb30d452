"""Every example of the SJN contract (copied into fixtures/) reads without a
diagnostic, holds what it says, and survives write → read."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation import canonical, content_equal, from_json, parse, to_json, write
from primitives.cards import BJ, LJ, make, parse_cards

FIXTURES = Path(__file__).with_name("fixtures")
EXAMPLES = sorted(FIXTURES.glob("*.sjn"))


def read(name: str):
    return parse((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_reads_cleanly_and_round_trips(path):
    records, diags = parse(path.read_text(encoding="utf-8"))
    assert diags == []
    assert records and all(r.hands for r in records)
    text = write(records)
    again, diags = parse(text)
    assert diags == [] and len(again) == len(records)
    assert all(content_equal(a, canonical(r)) for a, r in zip(again, records))
    assert write(again) == text
    for unicode in (False, True):
        for grouped in (False, True):
            assert [content_equal(a, canonical(r)) for a, r in
                    zip(parse(write(records, unicode=unicode, grouped=grouped))[0], records)] == [True] * len(records)
    for record in records:
        assert from_json(to_json(record)) == (record, [])


def test_complete_small_example():
    (record,), _ = read("notation_complete_example.sjn")
    assert record.tag("Event") == "Club night" and record.tag("Rules") == "one-deck"
    assert [t.name for t in record.tags] == ["Event", "Date", "Rules", "North", "West", "South", "East"]
    (hand,) = record.hands
    assert hand.number == 1 and (hand.levels.ns, hand.levels.ew) == (2, 2)
    assert hand.dealer == "S" and hand.first is None and hand.trump == 1
    assert [sc.seat for sc in hand.deal] == ["S", "E", "N", "W"]   # as written
    assert hand.seat_cards("S").cards == parse_cards("SA SK S5 H2 HK H10 D9 D8 C4 C3 BJ S2")
    assert hand.kitty == parse_cards("D6 D4 CJ C7 C6 C2")
    assert hand.buries[0].seat == "S" and hand.buries[0].cards == parse_cards("D9 D8 C7 C6 C4 C3")
    assert [t.number for t in hand.tricks] == [1, 2]
    assert hand.tricks[0].line_comment == "S wins, no points"
    assert [p.seat for p in hand.tricks[1].plays] == ["S", "E", "N", "W"]
    assert hand.points is None and hand.declarations == []


def test_completed_sketch():
    (record,), _ = read("notation_sketch_completed.sjn")
    (hand,) = record.hands
    assert record.line_comment.startswith("The \"Hand\" sketch")
    assert hand.levels.line_comment == ("levels before the hand; required in hand 1,\n"
                                        "derived (and checked if written) afterwards")
    assert hand.dealer == "?" and hand.first == "S"
    assert all(len(sc.cards) == 25 for sc in hand.deal) and len(hand.kitty) == 8
    decl = hand.declarations
    assert [(d.seat, d.cards, d.at) for d in decl] == [("S", (make(1, 2),), 7), ("W", (make(2, 2),) * 2, 15)]
    assert hand.trump == 2 and len(hand.buries[0].cards) == 8
    assert hand.buries[0].line_comment.endswith("records 反主抄底)")
    throw = hand.tricks[2].plays[0]
    assert throw.attempted == parse_cards("CAKK") and throw.cards == parse_cards("CKK")
    assert hand.tricks[2].line_comment == "a failed throw: attempted -> played"
    assert hand.points == 85


def test_snippets():
    (first, second), _ = read("notation_snippets.sjn")
    assert first.rules_name == "standard" and first.rule_overrides["throw_penalty"].value == "per_card"
    assert first.tag("Annotator") == "kept even though unknown"
    hand = first.hands[0]
    assert hand.seat_cards("S").cards == parse_cards("SA SK SK") * 4
    assert hand.seat_cards("N").cards == parse_cards("H10 H10 H9") * 2
    assert [d.cards for d in hand.declarations][:3] == [
        (make(1, 2),), (make(1, 2),) * 2, (make(1, 2), BJ)]
    assert hand.declarations[3].at == 25 and hand.declarations[4].at is None
    assert [p.cards for p in hand.tricks[1].plays] == [(BJ,), (LJ,), (BJ,), (LJ,)]
    assert hand.tricks[1].plays[3].comments == ["SJ601 a throw that failed"]
    other = second.hands[0]
    assert second.tag("Event") == "nobody declared"
    assert other.levels.ew == 15 and other.dealer == "?"
    assert other.declare_none is not None and other.redeal is not None and other.events == []
