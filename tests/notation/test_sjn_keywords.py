"""Each SJN line, read into the model: a table of (line, what the hand holds)."""

from __future__ import annotations

import pytest

from notation import Bury, Declaration, parse, write
from primitives.cards import BJ, make
from primitives.diagnostics import Span

H2, D2, SK, H5, C3 = make(1, 2), make(2, 2), make(0, 13), make(1, 5), make(3, 3)


def read_hand(line: str):
    (record,), diags = parse(f"hand 1\n{line}\n")
    assert diags == [], diags
    return record.hands[0]


@pytest.mark.parametrize("line, number", [("hand 1", 1), ("hand 12", 12), ("hand", None), ("hand 0", 0)])
def test_hand(line, number):
    (record,), diags = parse(line + "\n")
    assert not diags and record.hands[0].number == number


@pytest.mark.parametrize("line, ns, ew", [
    ("levels NS 2 EW 2", 2, 2),
    ("levels NS 10 EW J", 10, 11),
    ("levels NS T EW Q", 10, 12),
    ("levels NS K EW A", 13, 14),
    ("levels NS Joker EW 9", 15, 9),
    ("levels NS joker EW 3", 15, 3),
    ("levels EW 5 NS 7", 7, 5),      # either order
])
def test_levels(line, ns, ew):
    levels = read_hand(line).levels
    assert (levels.ns, levels.ew) == (ns, ew)


@pytest.mark.parametrize("line, dealer", [("dealer S", "S"), ("dealer N", "N"), ("dealer ?", "?")])
def test_dealer(line, dealer):
    hand = read_hand(line)
    assert hand.dealer == dealer and hand.dealer_span == Span(2, 1, 2, len(line) + 1)


@pytest.mark.parametrize("seat", list("NWSE"))
def test_first(seat):
    hand = read_hand(f"first {seat}")
    assert hand.first == seat and hand.first_span.line == 2


def test_seat_lines():
    hand = read_hand("N: SAKQ10 H9\nW: H2\nS: D2\nE: BJ")
    assert [(sc.seat, sc.cards) for sc in hand.deal] == [
        ("N", (make(0, 14), make(0, 13), make(0, 12), make(0, 10), make(1, 9))),
        ("W", (H2,)), ("S", (D2,)), ("E", (BJ,))]
    assert hand.seat_cards("S").cards == (D2,)


def test_kitty():
    hand = read_hand("kitty C3 D2")
    assert hand.kitty == (C3, D2) and hand.kitty_span == Span(2, 1, 2, 12)


@pytest.mark.parametrize("line, seat, cards, at", [
    ("declare S H2 @7", "S", (H2,), 7),
    ("declare W D2D2 @15", "W", (D2, D2), 15),
    ("declare S H2 H2 @9", "S", (H2, H2), 9),
    ("declare E H2 BJ @7", "E", (H2, BJ), 7),
    ("declare N D2 D2", "N", (D2, D2), None),
    ("declare S H2 @25", "S", (H2,), 25),
])
def test_declare(line, seat, cards, at):
    (event,) = read_hand(line).events
    assert isinstance(event, Declaration)
    assert (event.seat, event.cards, event.at) == (seat, cards, at)


def test_declare_none():
    hand = read_hand("declare none")
    assert hand.declare_none == Span(2, 1, 2, 13) and hand.events == []


@pytest.mark.parametrize("line, trump", [
    ("trump S", 0), ("trump H", 1), ("trump D", 2), ("trump C", 3), ("trump NT", 4),
    ("trump ♠", 0), ("trump ♥", 1), ("trump ♦", 2), ("trump ♣", 3),
    ("trump ♤", 0), ("trump ♡", 1), ("trump ♢", 2), ("trump ♧", 3), ("trump nt", 4), ("trump h", 1),
])
def test_trump(line, trump):
    assert read_hand(line).trump == trump


def test_bury_and_events_keep_their_order():
    hand = read_hand("declare S H2 @3\nbury S: SK H5\ndeclare W D2D2\nbury W: C3 C3")
    kinds = [(type(e).__name__, e.seat) for e in hand.events]
    assert kinds == [("Declaration", "S"), ("Bury", "S"), ("Declaration", "W"), ("Bury", "W")]
    assert isinstance(hand.events[1], Bury) and hand.events[1].cards == (SK, H5)
    assert [b.seat for b in hand.buries] == ["S", "W"]


@pytest.mark.parametrize("line, number, seats", [
    ("1. S: HAA  E: H67  N: H5 H10  W: H34", 1, "SENW"),
    ("12. N: SA  W: S9  S: S5  E: S3", 12, "NWSE"),
    ("S: HA  E: H6", None, "SE"),           # no number: two plays make a trick
    ("7.", 7, ""),                          # a numbered trick with no play yet
    ("3.S:HA E:H6", 3, "SE"),               # blanks are optional around `:`
])
def test_tricks(line, number, seats):
    (trick,) = read_hand(line).tricks
    assert trick.number == number
    assert "".join(p.seat for p in trick.plays) == seats


def test_failed_throw():
    (trick,) = read_hand("3. S: CAKK -> CKK  E: C67  N: C5 C10  W: C34").tricks
    throw = trick.plays[0]
    assert throw.attempted == (make(3, 14), make(3, 13), make(3, 13))
    assert throw.cards == (make(3, 13), make(3, 13))
    assert all(p.attempted is None for p in trick.plays[1:])


def test_points_and_redeal():
    hand = read_hand("points 85\nredeal")
    assert hand.points == 85 and hand.points_span == Span(2, 1, 2, 10)
    assert hand.redeal == Span(3, 1, 3, 7)
    assert read_hand("points -20").points == -20


def test_tags():
    (record,), diags = parse('[Event "Club night"] [Date "2026.11.20"]\n'
                             '[Rule.throw_penalty "per_card"] [Odd "a \\"quoted\\" ] ; {x}"]\n'
                             'hand 1\n')
    assert not diags
    assert record.tag("Event") == "Club night"
    assert record.tag("Odd") == 'a "quoted" ] ; {x}'
    assert record.rules_name == "standard"
    assert record.rule_overrides["throw_penalty"].value == "per_card"
    assert [t.span for t in record.tags[:2]] == [Span(1, 1, 1, 21), Span(1, 22, 1, 41)]


class TestComments:
    def test_line_comment_goes_to_the_element_of_its_line(self):
        (record, second), _ = parse("hand 1 ; first hand\nlevels NS 2 EW 2 ; start\n"
                                    "1. S: HA  E: H6 ; led\n[Next \"record\"] ; its own")
        assert second.tags[0].line_comment == "its own"
        hand = record.hands[0]
        assert hand.line_comment == "first hand"
        assert hand.levels.line_comment == "start"
        assert hand.tricks[0].line_comment == "led"

    def test_comment_lines_continue_the_comment_above(self):
        (record,), _ = parse("levels NS 2 EW 2   ; one\n                   ; two\n")
        assert record.hands[0].levels.line_comment == "one\ntwo"

    def test_comments_of_one_value_lines(self):
        hand = read_hand("dealer ? {nobody yet} ; declaring decides\n{more}\ntrump NT ; no trump")
        assert hand.line_notes["dealer"].comments == ["nobody yet", "more"]
        assert hand.line_notes["dealer"].line_comment == "declaring decides"
        assert hand.line_notes["trump"].line_comment == "no trump"
        assert "first" not in hand.line_notes

    def test_commentary_after_a_play_and_after_a_trick(self):
        hand = read_hand("1. S: CAKK -> CKK {SJ601 blocked by E} E: C67  N: C5 {ouch}\n{E wins}")
        trick = hand.tricks[0]
        assert trick.plays[0].comments == ["SJ601 blocked by E"]
        assert trick.plays[2].comments == ["ouch"]
        assert trick.comments == ["E wins"]

    def test_commentary_may_span_lines(self):
        hand = read_hand("declare S H2 @7 {a long\n  remark}\nfirst N")
        assert hand.events[0].comments == ["a long\n  remark"]
        assert hand.first == "N" and hand.first_span.line == 4

    def test_header_commentary_and_record_comment(self):
        (record,), _ = parse('; file header\n[Event "x"] {the event}\n{about this match}\nhand 1\n')
        assert record.line_comment == "file header"
        assert record.tags[0].comments == ["the event"]
        assert record.header_comments == ["about this match"]

    def test_braces_and_semicolons_inside_each_other(self):
        hand = read_hand("dealer S ; not {a commentary\nfirst N {not ; a comment}")
        assert hand.line_notes["dealer"].line_comment == "not {a commentary"
        assert hand.line_notes["first"].comments == ["not ; a comment"]


def test_omissions_make_a_valid_record():
    """Plays only: a hand without a `hand` line is still read."""
    (record,), diags = parse("1. S: HA  E: H6  N: H5  W: H3\n")
    assert not diags
    hand = record.hands[0]
    assert hand.number is None and hand.levels is None and hand.dealer is None
    assert hand.deal == [] and hand.kitty is None and len(hand.tricks) == 1
    assert write(record).startswith("hand\n1. S: HA")


def test_spans_are_one_based_and_end_exclusive():
    (record,), _ = parse("hand 1\n2. S: HA  E: H6\n")
    trick = record.hands[0].tricks[0]
    assert trick.span == Span(2, 1, 2, 16)
    assert [p.span for p in trick.plays] == [Span(2, 4, 2, 9), Span(2, 11, 2, 16)]
    assert record.hands[0].span == Span(1, 1, 2, 16)
    assert record.span == Span(1, 1, 2, 16)
