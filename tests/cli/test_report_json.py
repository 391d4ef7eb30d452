"""``shengji report --format json`` writes each match from templates
(``analyzer.report.json_text.match_json``: the tricks without their dicts); the text is
exactly the encoded match dict (``dumps_nested(build_match(...), 2)``, i.e.
``json.dumps(indent=2)``, tests/cli/test_jsonout.py) for every sample, for
generated matches of every preset (failed throws, finding friends, one deck,
three decks) and for values the templates do not expect."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from analyzer.io.jsonout import dumps_nested
from analyzer.report.cardtext import card_text
from analyzer.report.hands import _trick_dicts
from analyzer.report.json_text import MatchJSON, _tricks_json, match_json, render_json
from analyzer.report.matches import build_match
from analyzer.report.reading import build_report, iter_matches
from notation.detect import detect_text, read
from primitives.diagnostics import Diagnostic
from replay.game import replay
from replay.ruleset import PRESETS

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").rglob("*.sjn"))


def _pairs(text: str, path: str = "x.sjn"):
    return [(r, d) for r, d in read(text, detect_text(text, path)) if r is not None]


def _generated(preset: str, seed: int, hands: int = 2) -> str:
    from analyzer.play.generate import generate_match
    from notation import write
    return write(generate_match(preset, hands=hands, seed=seed))


def _same(record, diags, **kw) -> None:
    match = replay(record)
    want = dumps_nested(build_match(record, match, parse_diagnostics=diags, **kw), 2)
    assert match_json(record, match, parse_diagnostics=diags, **kw) == want


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_samples(path):
    pairs = _pairs(path.read_text(encoding="utf-8"), str(path))
    for record, diags in pairs:
        _same(record, diags)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_generated_matches_of_every_preset(preset):
    for seed in (1, 2):
        for record, diags in _pairs(_generated(preset, seed)):
            _same(record, diags)


def test_the_templates_write_the_tricks_themselves():
    # not the plain way every time: the tricks' text is the encoded trick dicts
    failed = 0
    for seed in range(12):
        for record, _ in _pairs(_generated("standard", seed, hands=1)):
            for hr in replay(record).hands:
                dicts = _trick_dicts(hr, card_text(hr.order))
                assert _tricks_json(hr) == dumps_nested(dicts, 5)
                failed += sum(1 for t in hr.tricks if t.failed_throw)
    assert failed  # a failed throw's attempt among them


def test_annotations_and_review():
    record, diags = _pairs(_generated("standard", 3))[0]
    notes = [Diagnostic("SJ604", "a note", line=9, column=3, severity="info", hand=1, trick=2)]
    _same(record, diags, annotations=notes, review={"players": {}, "hands": [], "x": 1.5})


def test_what_the_templates_do_not_expect_takes_the_plain_way():
    record, diags = _pairs(_generated("standard", 4))[0]
    match = replay(record)
    match.hands[0].tricks[2].winner = None          # not a string
    match.hands[-1].tricks[0].points = True         # not an int
    want = dumps_nested(build_match(record, match, parse_diagnostics=diags), 2)
    assert match_json(record, match, parse_diagnostics=diags) == want
    assert '"winner": null' in want and '"points": true' in want


def test_strings_that_need_escapes():
    text = _generated("standard", 5).replace('[Event "Generated match"]', '[Event "a \\"quoted\\" é \\\\ name"]')
    for record, diags in _pairs(text):
        assert "quoted" in record.tag("Event")
        _same(record, diags)


def test_the_stream_of_texts_is_the_stream_of_dicts():
    text = _generated("standard", 6) + "\n" + _generated("tractor97", 7) + "\n[Event \"x\"\n"
    path = "two.sjn"
    as_dicts = io.StringIO()
    as_texts = io.StringIO()
    from analyzer.report.formats import WRITERS
    WRITERS["json"](as_dicts, path, iter_matches(read(text, detect_text(text, path))))
    WRITERS["json"](as_texts, path, iter_matches(read(text, detect_text(text, path)), fmt="json"))
    assert as_texts.getvalue() == as_dicts.getvalue()
    assert as_dicts.getvalue() == render_json(build_report(text, path))
    assert all(isinstance(m, MatchJSON)
               for m in iter_matches(read(text, detect_text(text, path)), fmt="json"))


def test_tricks_without_play_rows_use_their_public_plays():
    # _tricks_json reads TrickResult.play_rows() (no PlayResult objects); a trick-like
    # value without it is read through .plays
    from types import SimpleNamespace
    record, _ = _pairs(_generated("standard", 8, hands=1))[0]
    hr = replay(record).hands[0]
    public = ("number", "leader", "plays", "winner", "points", "to_attackers", "penalty", "attacker_points",
              "is_throw", "failed_throw", "ruffed")
    bare = SimpleNamespace(order=hr.order,
                           tricks=[SimpleNamespace(**{k: getattr(t, k) for k in public}) for t in hr.tricks])
    assert _tricks_json(bare) == _tricks_json(hr)
    assert _tricks_json(bare) == dumps_nested(_trick_dicts(hr, card_text(hr.order)), 5)
