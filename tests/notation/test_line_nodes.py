"""The per-line nodes (Play, Trick, SeatCards) are slotted dataclasses, not
pydantic models (issue 22: plain values on the reader's hot path): the record
API, JSON in/out and its error messages read as they did when they were models."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import pytest

from notation import parse
from notation.jsonio import from_data, from_json, to_json
from notation.model import Hand, LineNode, Play, Record, SeatCards, Trick, content_equal, strip_spans
from primitives.diagnostics import NO_SPAN, Span

TEXT = """[Event "t"]

hand 1
N: SA
W: SK
S: SQ
E: SJ
1. S: SA W: SK ; a comment
{ after }
"""


def record() -> Record:
    records, diags = parse(TEXT)
    assert records and not [d for d in diags if d.severity == "error"]
    return records[0]


@pytest.mark.parametrize("cls", [Play, Trick, SeatCards])
def test_slotted_values(cls: type[LineNode]) -> None:
    assert not hasattr(cls(seat="N", cards=()) if cls is not Trick else cls(), "__dict__")


def test_read_nodes_are_the_dataclasses() -> None:
    hand = record().hands[0]
    assert [type(sc) for sc in hand.deal] == [SeatCards] * 4
    trick = hand.tricks[0]
    assert type(trick) is Trick and [type(p) for p in trick.plays] == [Play, Play]
    assert trick.line_comment == "a comment" and trick.comments == ["after"]
    assert trick.plays[0].seat == "S" and trick.plays[0].span == Span(8, 4, 8, 9)


def test_json_round_trip_and_copies() -> None:
    rec = record()
    back, diags = from_json(to_json(rec))
    assert diags == [] and back == rec
    assert type(back.hands[0].tricks[0].plays[0]) is Play
    assert copy.deepcopy(rec) == rec and pickle.loads(pickle.dumps(rec)) == rec
    data = json.loads(to_json(rec, spans=False))
    assert "span" not in data["hands"][0]["tricks"][0]["plays"][0]
    assert list(data["hands"][0]["tricks"][0]) == ["comments", "line_comment", "number", "plays"]


def test_strip_spans_and_replace() -> None:
    rec = record()
    stripped = strip_spans(rec)
    play = stripped.hands[0].tricks[0].plays[0]
    assert play.span == NO_SPAN and play.cards == rec.hands[0].tricks[0].plays[0].cards
    assert content_equal(rec, stripped) and stripped != rec
    assert strip_spans(rec.hands[0].tricks[0]) == stripped.hands[0].tricks[0]
    renumbered = dataclasses.replace(rec.hands[0].tricks[0], number=7)
    assert renumbered.number == 7 and renumbered.plays is rec.hands[0].tricks[0].plays
    assert Hand(tricks=[renumbered]).tricks[0] is renumbered  # instances are taken as they are


BAD = {"hands": [{"tricks": [{"aa": 1, "number": "x", "plays": [{"seat": "S", "cards": [1], "q": 2}, 5]}],
                  "cc": 2}]}


def test_errors_read_as_a_models() -> None:
    """The messages are those the pydantic models gave; their order is the
    tool's own (by place in the record), the same from JSON text and from data,
    whatever order the installed pydantic reports them in (it changed in 2.14)."""
    where = "hands[0].tricks[0]"
    extra, bad_int = "Extra inputs are not permitted", "Input should be a valid integer, unable to parse string as an integer"
    _, diags = from_json(json.dumps(BAD))
    assert [d.message for d in diags] == [
        f"hands[0].cc: {extra}", f"{where}.aa: {extra}", f"{where}.number: {bad_int}",
        f"{where}.plays[0].q: {extra}", f"{where}.plays[1]: Input should be an object"]
    _, diags = from_data(BAD)
    assert [d.message for d in diags] == [
        f"hands[0].cc: {extra}", f"{where}.aa: {extra}", f"{where}.number: {bad_int}",
        f"{where}.plays[0].q: {extra}", f"{where}.plays[1]: Input should be a valid dictionary or instance of Play"]


def test_error_order_is_not_pydantics() -> None:
    """Whatever order pydantic gives its errors in, the diagnostics come in the record's order."""
    from pydantic import ValidationError

    from notation.jsonio import validation_diagnostics
    try:
        Record.model_validate(BAD)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    expected = [d.message for d in from_data(BAD)[1]]
    for order in (errors, errors[::-1], errors[2:] + errors[:2]):
        other = type("OtherOrder", (), {"errors": lambda self, include_url=False, order=order: order})()
        assert [d.message for d in validation_diagnostics(other)] == expected
