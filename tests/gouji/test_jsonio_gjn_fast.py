"""GJN JSON without spans (:func:`notation.gjn_jsonio.to_json`, an ``exclude``
tree instead of a copy) is, character for character, ``json.dumps`` of the
model's data with ``span``, ``cards_span`` and ``marks_span`` dropped at any
depth, indented or not; with spans it is the model's own JSON."""

from __future__ import annotations

import json
from pathlib import Path

from gjn_strategies import records
from hypothesis import given, settings

from notation import gjn
from notation.gjn_jsonio import _without_spans, to_json

ROOT = Path(__file__).resolve().parents[2]


def check(record) -> None:
    data = record.model_dump(mode="json")
    for indent in (None, 2):
        assert to_json(record, indent=indent, spans=False) == json.dumps(_without_spans(data), indent=indent,
                                                                         ensure_ascii=False)
        assert to_json(record, indent=indent, spans=True) == record.model_dump_json(indent=indent)
    assert '"cards_span"' not in to_json(record, indent=2)


@settings(max_examples=60)
@given(records())
def test_same_text_as_the_reference(record):
    check(record)
    got, _ = gjn.parse(gjn.write([record]))
    for r in got:
        check(r)


def test_the_samples():
    n = 0
    for p in sorted((ROOT / "samples").rglob("*.gjn")):
        got, _ = gjn.parse(p.read_text(encoding="utf-8"))
        for r in got:
            check(r)
            n += 1
    assert n > 20
