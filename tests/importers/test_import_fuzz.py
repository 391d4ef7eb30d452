"""Property: no input makes an importer raise (random text, and mutations of real fixtures).

The modules are called directly, without the safety net of ``import_log``, so
a bug shows as a failure here instead of hiding behind an SJ701.
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from importer_testlib import text_samples

from analyzer.io.importers import check_claims, registry
from analyzer.io.importers._json import read

#: every text importer of the registry, by name (game-sav, binary, has its own fuzz test)
MODULES = {name: registry.BY_NAME[name].load() for name in registry.TEXT_NAMES}
SAMPLES = text_samples()
#: smaller inputs keep each example fast (a format not named here uses its whole sample)
SMALL = {
    "fly": "\n".join(SAMPLES["fly"].split("\n")[:24]),
    "botzone": json.dumps({"log": json.loads(SAMPLES["botzone"])["log"][:260],
                           "initdata": json.loads(SAMPLES["botzone"])["initdata"]}),
    "80fen-v2": json.dumps({**json.loads(SAMPLES["80fen-v2"]),
                            "events": json.loads(SAMPLES["80fen-v2"])["events"][:60]}),
}
#: the formats whose logs are JSON (random JSON is tried on them)
JSON_FORMATS = sorted(name for name in MODULES if SAMPLES[name].lstrip().startswith(("{", "[")))
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run_all(fmt, text):
    res = MODULES[fmt].import_log(text)
    for d in res.diagnostics:
        assert d.code.startswith("SJ7") and d.line >= 0 and d.column >= 0
    check_claims(res.records, res.claims)
    return res


@FAST
@given(fmt=st.sampled_from(sorted(MODULES)), text=st.text(max_size=300))
def test_random_text_never_raises(fmt, text):
    run_all(fmt, text)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 120) | st.text(max_size=6),
    lambda kids: st.lists(kids, max_size=5) | st.dictionaries(
        st.sampled_from(["e", "seat", "cards", "deck", "log", "output", "content", "0", "response", "stage",
                         "format", "version", "events", "type", "deal", "hands", "trick", "winner", "points",
                         "history", "global", "banking", "major", "initdata", "allocation"]), kids, max_size=5),
    max_leaves=25)


@FAST
@given(fmt=st.sampled_from(JSON_FORMATS), value=JSONISH)
def test_random_json_never_raises(fmt, value):
    run_all(fmt, json.dumps(value))
    run_all(fmt, json.dumps({"format": "eighty-completed-deal", "version": 2, "events": value}))


@FAST
@given(fmt=st.sampled_from(sorted(MODULES)), data=st.data())
def test_mutated_fixtures_never_raise(fmt, data):
    text = SMALL.get(fmt, SAMPLES[fmt])
    n = len(text)
    for _ in range(data.draw(st.integers(1, 4))):
        kind = data.draw(st.sampled_from(["cut", "delete", "insert", "replace"]))
        i = data.draw(st.integers(0, max(n - 1, 0)))
        if kind == "cut":
            text = text[:i]
        elif kind == "delete":
            text = text[:i] + text[i + data.draw(st.integers(1, 40)):]
        elif kind == "insert":
            text = text[:i] + data.draw(st.text(max_size=12)) + text[i:]
        else:
            text = text[:i] + data.draw(st.sampled_from(["9", "-", "null", "\"x\"", "]", "{", "108", "♠",
                                                            "\U0001F0AC", "GAME: "])) + text[i + 1:]
        n = len(text)
    run_all(fmt, text)


def test_json_formats_found():
    assert {"80fen-v2", "botzone", "fly"} <= set(JSON_FORMATS) and "shengji-io-chat" not in JSON_FORMATS


@FAST
@given(text=st.text(alphabet='[]{}:,"0123456789ntrufalse \n\\', max_size=200))
def test_json_reader_never_raises(text):
    doc = read(text)
    if doc.error is None:
        assert doc.complete and json.loads(text) == doc.value


def test_json_reader_positions_and_depth():
    doc = read('{\n  "a": [1,\n   {"b": "x"}]\n}')
    assert doc.complete and doc.pos("a", 1, "b") == (3, 10) and doc.pos("a", 0) == (2, 9)
    assert doc.pos("missing", 3) == (1, 1)
    deep = read("[" * 5000)
    assert deep.error and "deep" in deep.error[2]
    cut = read('{"a": [1, 2, {"b": 3')
    assert cut.value == {"a": [1, 2, {"b": 3}]} and cut.error[:2] == (1, 21) and not cut.complete
