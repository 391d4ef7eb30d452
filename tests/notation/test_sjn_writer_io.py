"""The canonical writer's style, streaming reads, JSON, and the two Lark backends."""

from __future__ import annotations

import io

import pytest

from notation import (
    Bury,
    Declaration,
    Hand,
    Levels,
    Note,
    Play,
    Record,
    SeatCards,
    Tag,
    Trick,
    from_json,
    iter_records,
    parse,
    parse_record,
    reader,
    to_json,
    write,
)
from primitives.cards import parse_cards
from primitives.diagnostics import NO_SPAN

C = parse_cards


def sample() -> Record:
    return Record(
        tags=[Tag(name="Event", value='Club "night"'), Tag(name="Rule.x", value="a\\b", comments=["why"])],
        header_comments=["first match"],
        hands=[Hand(
            number=3, levels=Levels(ns=11, ew=15), dealer="?", first="W",
            deal=[SeatCards(seat="E", cards=C("SA SK S5")), SeatCards(seat="N", cards=C("H10 H10 H9 BJ LJ"))],
            kitty=C("C3 D7"),
            events=[Declaration(seat="S", cards=C("H2"), at=5), Bury(seat="S", cards=C("C3 D7"), comments=["risky"]),
                    Declaration(seat="W", cards=C("D2 D2"))],
            declare_none=NO_SPAN, trump=2,
            tricks=[Trick(plays=[Play(seat="N", cards=C("HA HA")), Play(seat="W", cards=C("C3 C4"), attempted=C("CAKK"))],
                          line_comment="led", comments=["note"]),
                    Trick(number=9, plays=[Play(seat="S", cards=C("SA"), comments=["SJ601 x"])])],
            points=85, redeal=NO_SPAN,
            line_notes={"dealer": Note(line_comment="undecided"), "points": Note(comments=["counted"])},
            line_comment="third hand",
        )],
    )


EXPECTED = """\
[Event "Club \\"night\\""]
[Rule.x "a\\\\b"] {why}
{first match}

hand 3  ; third hand
levels NS J EW Joker
dealer ?  ; undecided
first W
N: H10109 BJ LJ
E: SAK5
kitty C3 D7
declare none
declare S H2 @5
trump D
bury S: C3 D7 {risky}
declare W D22
1. N: HAA  W: CAKK -> C34  ; led
{note}
9. S: SA {SJ601 x}
points 85 {counted}
redeal
"""


def test_canonical_style():
    assert write(sample()) == EXPECTED


def test_unicode_and_ungrouped():
    text = write(sample(), unicode=True, grouped=False)
    assert "N: ♥10 ♥10 ♥9 BJ LJ" in text and "trump ♦" in text and "1. N: ♥A ♥A  W: ♣A ♣K ♣K -> ♣3 ♣4" in text
    assert write(parse(text)[0]) == EXPECTED


def test_trump_goes_after_the_declarations_when_nothing_is_buried():
    hand = Hand(events=[Declaration(seat="S", cards=C("H2"))], trump=4, points=0)
    assert write(Record(hands=[hand])) == "hand\ndeclare S H2\ntrump NT\npoints 0\n"


def test_records_are_separated_by_a_blank_line():
    one = Record(tags=[Tag(name="A", value="1")], hands=[Hand(number=1)])
    two = Record(tags=[Tag(name="A", value="2")], hands=[Hand(number=1)])
    text = write([one, two])
    assert text == '[A "1"]\n\nhand 1\n\n[A "2"]\n\nhand 1\n'
    assert [r.tag("A") for r in parse(text)[0]] == ["1", "2"]


def test_unrepresentable_records_are_refused():
    with pytest.raises(ValueError, match="no cards"):
        write(Record(hands=[Hand(kitty=())]))
    with pytest.raises(ValueError, match="brace"):
        write(Record(header_comments=["a } b"]))


class TestStreaming:
    TEXT = '[A "1"]\nhand 1\n1. S: HA  E: H6\n\n; for the next one\n[A "2"]\nhand 1\ndealr S\n'

    def test_records_come_one_at_a_time_with_absolute_lines(self):
        got = list(iter_records(io.StringIO(self.TEXT)))
        assert [r.tag("A") for r, _ in got] == ["1", "2"]
        assert got[0][1] == []
        (diag,) = got[1][1]
        assert (diag.code, diag.line, diag.column) == ("SJ104", 8, 1)
        assert got[1][0].line_comment == "for the next one"   # after a blank line: the next record's
        assert got[1][0].tags[0].span.line == 6

    def test_start_line(self):
        (_, _), (_, diags) = iter_records(self.TEXT.splitlines(), start_line=101)
        assert diags[0].line == 108

    def test_binary_file_and_crlf(self):
        data = self.TEXT.replace("\n", "\r\n").encode("utf-8")
        got = list(iter_records(io.BytesIO(data)))
        assert [r.tag("A") for r, _ in got] == ["1", "2"]
        assert got[1][1][0].line == 8

    def test_lazy(self):
        """The first record is yielded before the input is read to the end."""
        def lines():
            yield '[A "1"]\n'
            yield "hand 1\n"
            yield '[A "2"]\n'
            raise AssertionError("read too far")
        it = iter_records(lines())
        first, _ = next(it)
        assert first.tag("A") == "1"

    def test_input_error_becomes_a_diagnostic(self):
        def lines():
            yield "hand 1\n"
            raise OSError("disk gone")
        (record, diags), (last, last_diags) = list(iter_records(lines()))
        assert record.hands and diags == []     # what was read is kept
        assert last.hands == [] and last_diags[0].code == "SJ101" and "disk gone" in last_diags[0].message

    def test_a_tag_inside_a_long_commentary_still_cuts_the_record(self):
        text = 'hand 1\ndealer S {a note\n[B "x"]\nhand 2\n'
        (_one, d1), (two, _d2) = iter_records(text)
        assert [d.code for d in d1] == ["SJ103"] and two.tag("B") == "x"

    def test_a_stray_brace_in_the_tags_does_not_swallow_the_file(self):
        """Chunks stay one or two records long: a `[` line always ends a commentary."""
        text = '[Event "x"] {oops\nhand 1\n' + '[Event "n"]\nhand 1\n1. S: HA  E: H6\n' * 50
        chunks = list(reader.split_records(text))
        assert max(len(lines) for _, lines in chunks) <= 6
        records, diags = parse(text)
        assert len(records) == 51 and [d.code for d in diags] == ["SJ103"]

    def test_parse_record(self):
        record, diags = parse_record(self.TEXT)
        assert record.tag("A") == "1" and [d.code for d in diags] == ["SJ109"]
        assert parse_record("") == (None, [])

    def test_hand_less_text_joins_the_next_record(self):
        records, diags = parse('[A "1"]\nbad line\n[B "2"]\nhand 1\n')
        assert len(records) == 1 and [t.name for t in records[0].tags] == ["A", "B"]
        assert [d.code for d in diags] == ["SJ104"]


class TestJson:
    def test_round_trip_with_spans(self):
        (record,), _ = parse(write(sample()))
        assert from_json(to_json(record)) == (record, [])
        assert '"span":[' in to_json(record)

    @pytest.mark.parametrize("text, words", [
        ("{", "EOF"),
        ("[]", "should be an object"),
        ('{"hands": [{"tricks": [{"plays": [{"seat": "X", "cards": [1]}]}]}]}', "hands[0].tricks[0].plays[0].seat"),
        ('{"hands": [{"kitty": [99]}]}', "outside 0..53"),
        ('{"tags": [], "surprise": 1}', "surprise"),
    ])
    def test_errors_are_sj107(self, text, words):
        record, diags = from_json(text)
        assert record is None and diags and all(d.code == "SJ107" for d in diags)
        assert any(words in d.message for d in diags), diags


BACKENDS = ["lark", "lark-cython"]


def test_both_lark_backends_read_the_same():
    texts = [write(sample()), TestStreaming.TEXT, "hand\n1. S HA\nx. \n[Event x]\nlevels NS 2 EW {\n"]
    results = {}
    try:
        for backend in BACKENDS:
            if reader.use_backend(backend) != backend:
                pytest.skip(f"{backend} is not installed")
            results[backend] = [parse(t) for t in texts]
    finally:
        reader.use_backend("lark-cython")
    assert results["lark"] == results["lark-cython"]
