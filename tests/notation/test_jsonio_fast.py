"""The JSON writer of :mod:`notation.jsonio` (pydantic-core with an ``exclude``
tree for the spans) writes, character for character, what the reference
writes: ``json.dumps`` of ``model_dump(mode="json")`` with every ``span`` and
``*_span`` key dropped at any depth — with and without spans, indented or
compact — on random records (hypothesis), on records read back from their
text (real spans), on generated matches of several presets and on the
bundled samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sjn_strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st

from notation import parse, write
from notation.jsonio import drop_spans, span_exclude, to_data, to_json
from notation.model import Record, Tag

ROOT = Path(__file__).resolve().parents[2]


def reference(record: Record, *, indent: int | None, spans: bool) -> str:
    data = record.model_dump(mode="json")
    if not spans:
        data = drop_spans(data)
    return json.dumps(data, indent=indent, ensure_ascii=False,
                      separators=None if indent is not None else (",", ":"))


def check(record: Record) -> None:
    for spans in (True, False):
        data = to_data(record, spans=spans)
        ref = record.model_dump(mode="json") if spans else drop_spans(record.model_dump(mode="json"))
        assert data == ref
        for indent in (None, 2, 4):
            assert to_json(record, indent=indent, spans=spans) == reference(record, indent=indent, spans=spans)


@settings(max_examples=150)
@given(S.records(), st.booleans())
def test_same_text_as_the_reference(record, read_back):
    if read_back:  # the same record with real source spans
        got, _ = parse(write(record))
        if len(got) != 1:
            return
        record = got[0]
    check(record)


@pytest.mark.parametrize("rules,seed", [("standard", 1), ("one-deck", 2), ("shengji-io", 3),
                                        ("shengji-io-friends", 4), ("tractor97", 5)])
def test_generated_matches(rules, seed):
    from analyzer.play.generate import generate_match
    record = generate_match(rules, hands=2, seed=seed)
    check(record)
    got, _ = parse(write(record))
    check(got[0])


def test_the_samples():
    n = 0
    for p in sorted((ROOT / "samples").rglob("*.sjn")):
        records, _ = parse(p.read_text(encoding="utf-8"))
        for r in records:
            check(r)
            n += 1
    assert n > 40


def test_no_span_key_is_left_and_the_flags_stay():
    got, _ = parse('[Rules "standard"]\n\nhand 1\nlevels 2 2\ndealer N\ndeclare none\nredeal\n')
    text = to_json(got[0], spans=False)
    assert '"span"' not in text and '_span"' not in text
    data = json.loads(text)
    assert data["hands"][0]["declare_none"] is not None and data["hands"][0]["redeal"] is not None
    assert '"span"' in to_json(got[0], spans=True)


def test_every_span_field_of_the_model_is_in_the_exclude_tree():
    tree = span_exclude(Record)
    hand = tree["hands"]["__all__"]
    assert tree["span"] is True and hand["span"] is True
    assert {k for k, v in hand.items() if v is True} >= {"dealer_span", "first_span", "kitty_span",
                                                         "trump_span", "points_span"}
    assert hand["tricks"]["__all__"]["plays"]["__all__"] == {"span": True}
    assert "declare_none" not in hand and "redeal" not in hand


def test_text_pydantic_core_refuses_takes_the_json_module_path():
    record = Record(tags=[Tag(name="Event", value="a\udc80b")], header_comments=["\ud800"])
    check(record)
