"""``analyzer.io.jsonout.dumps`` writes exactly what ``json.dumps(data, indent=2,
ensure_ascii=False) + "\\n"`` writes (the report's and lint's JSON output), by
whichever encoder."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.io.jsonout import dumps

_scalars = (st.none() | st.booleans() | st.integers() | st.text()
            | st.floats(allow_nan=False, allow_infinity=False)
            | st.sampled_from([1e-7, 1e-5, 1.5e-4, 1e16, 1e300, -0.0, 5e-324, 0.1, 2 ** 70]))
_keys = st.text() | st.sampled_from(["None", "null", "é", "a\u2028b"])
_data = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(_keys, inner, max_size=4), max_leaves=25)


def reference(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@settings(max_examples=400, deadline=None)
@given(_data)
def test_same_text_as_json_dumps(data):
    assert dumps(data) == reference(data)


def test_the_cases_the_fast_encoder_writes_otherwise():
    # each of these is written differently by pydantic-core; the output must not be
    for data in ([1e-7], {"x": 1e-05}, {None: 1}, {"k": float("nan")}, [float("-inf")],
                 {"nested": [{"tuple": (1, 2)}, [], {}]}, ["\ud800"]):
        assert dumps(data) == reference(data)


def test_a_report_of_real_records(tmp_path):
    from analyzer.play.generate import generate_match
    from analyzer.report.json_text import render_json
    from analyzer.report.reading import build_report
    from notation import write
    text = write(generate_match("standard", hands=2, seed=5))
    rep = build_report(text, "x.sjn")
    assert render_json(rep) == reference(rep)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from('0123456789eE-."None:x ٣²'), max_size=30))
def test_the_quick_check_finds_what_the_expression_finds(text):
    from analyzer.io.jsonout import _UNSURE, _unsure
    found = _UNSURE.search(text) is not None
    assert _unsure(text) >= found  # never misses one (a few more non-ASCII digits take the slow path)
    if text.isascii():
        assert _unsure(text) == found


@settings(max_examples=300, deadline=None)
@given(_data, st.integers(0, 3))
def test_nested_text_is_the_reindented_text(data, level):
    from analyzer.io.jsonout import dumps_nested
    assert dumps_nested(data, level) == reference(data).rstrip("\n").replace("\n", "\n" + "  " * level)
