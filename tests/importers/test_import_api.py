"""The importers' library API: formats, detection, never raising."""

import pytest
from importer_testlib import fixture, text_samples

import analyzer.io.importers as imp
from analyzer.io.importers import FORMATS, detect_format, import_log, import_text, registry
from replay.ruleset import PRESETS

#: a clean sample of each text format, found among the fixtures by detection (no list to keep)
SAMPLES = text_samples()

#: the formats of the first importers and their presets (a new importer adds to these: see test_formats)
FIRST = {"fly": "shengji-fly", "botzone": "botzone", "shengji-io-chat": "shengji-io", "80fen-v2": "80fen",
         "game-sav": "tractor97"}


def test_formats():
    """FORMATS and RULES come from the registry (analyzer/io/importers/registry.py):
    the names in its order, each one's preset from its module's RULES."""
    assert FORMATS == tuple(i.name for i in registry.IMPORTERS)
    assert list(FORMATS[:len(FIRST)]) == list(FIRST)
    assert imp.RULES == {i.name: i.load().RULES for i in registry.IMPORTERS}
    assert {k: imp.RULES[k] for k in FIRST} == FIRST
    assert set(imp.RULES.values()) <= set(PRESETS)
    assert imp.SOURCE_SEATS == ("S", "E", "N", "W")


def test_every_text_importer_has_a_detected_sample():
    assert sorted(SAMPLES) == sorted(registry.TEXT_NAMES)


@pytest.mark.parametrize("fmt", registry.TEXT_NAMES)   # game-sav (binary): never detected
def test_detect_each_format(fmt):
    text = SAMPLES[fmt]
    assert detect_format(text) == fmt
    assert detect_format(text[: len(text) // 2]) == fmt          # a truncated file too
    records, diags = import_text(fmt, text)
    assert records and [d for d in diags if d.severity == "error"] == []
    for r in records:
        assert r.tag("Rules") == imp.RULES[fmt]


def test_detect_only_when_unambiguous():
    assert detect_format("") is None
    assert detect_format("just some words") is None
    assert detect_format('{"a": 1}') is None
    both = SAMPLES["shengji-io-chat"] + "\n" + SAMPLES["botzone"]
    assert detect_format(both) is None
    assert detect_format(both, "paste.txt") == "shengji-io-chat"       # the suffix breaks a tie
    assert detect_format(both, "match.json") is None
    assert detect_format(None) is None


def test_aliases_and_unknown_formats():
    assert import_text("80fen", SAMPLES["80fen-v2"])[0]
    assert import_text("shengji-fly", SAMPLES["fly"])[0]
    records, diags = import_text("pbn", "anything")
    assert records == [] and [d.code for d in diags] == ["SJ701"] and "known:" in diags[0].message


def test_bytes_bom_and_non_text():
    records, diags = import_text("fly", SAMPLES["fly"].encode())
    assert records and not diags
    records, diags = import_text("shengji-io-chat", "\ufeff" + SAMPLES["shengji-io-chat"])
    assert records and not diags
    records, diags = import_text("fly", 12345)
    assert records == [] and diags[0].code == "SJ701"


def test_check_can_be_switched_off_and_claims_are_kept():
    wrong = fixture("chat", "paste_wrong_winner.txt")
    assert [d.code for d in import_text("shengji-io-chat", wrong)[1]] == ["SJ704"]
    assert import_text("shengji-io-chat", wrong, check=False)[1] == []
    res = import_log("shengji-io-chat", wrong)
    claim = next(c for c in res.claims if c.line == 47)
    assert (claim.trick, claim.winner, claim.points, claim.name) == (5, "W", 0, "Di")


def test_check_claims_accepts_match_results():
    from replay.game import replay
    res = import_log("shengji-io-chat", fixture("chat", "paste_wrong_winner.txt"))
    m = replay(res.records[0])
    assert [d.code for d in imp.check_claims(res.records, res.claims, m)] == ["SJ704"]
    assert [d.code for d in imp.check_claims(res.records, res.claims, [m])] == ["SJ704"]
    assert imp.check_claims([], res.claims) == []


def test_an_importer_bug_becomes_a_diagnostic(monkeypatch):
    def boom(text, source=""):
        raise RuntimeError("bug")
    monkeypatch.setattr(imp.fly, "import_log", boom)
    records, diags = import_text("fly", SAMPLES["fly"])
    assert records == [] and diags[0].code == "SJ901" and "RuntimeError" in diags[0].message


#: texts that are no importer's format: one JSON document that is not an event
#: list, JSON lines without an `e` kind, HTML (issue 28)
NOT_A_LOG = {
    "document": '{\n  "appVersion": "1.2",\n  "players": [\n    "a",\n    "b"\n  ],\n  "score": 3\n}\n',
    "jsonl-without-e": "".join(f'{{"k": {i}, "v": "x"}}\n' for i in range(12)),
    "html": "<!doctype html>\n<html>\n<head><title>t</title></head>\n<body>\n"
            + "".join(f"<p>line {i}</p>\n" for i in range(20)) + "</body>\n</html>\n",
}


@pytest.mark.parametrize("fmt", ["fly", "shengji-io-chat", "botzone", "80fen-v2"])
@pytest.mark.parametrize("kind", ["document", "html"])
def test_not_this_format_is_one_sj701(fmt, kind):
    """An importer given a text that is not its format says so once (SJ701), not once a line."""
    records, diags = import_text(fmt, NOT_A_LOG[kind])
    assert records == [] and [d.code for d in diags] == ["SJ701"], diags


@pytest.mark.parametrize("fmt", ["fly", "shengji-io-chat"])
def test_json_lines_without_events_are_one_sj701(fmt):
    records, diags = import_text(fmt, NOT_A_LOG["jsonl-without-e"])
    assert records == [] and [d.code for d in diags] == ["SJ701"], diags
    assert "not a" in diags[0].message
