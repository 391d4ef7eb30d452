"""Properties of the GJN reader and writer (GOUJI.md §10): tidy text reads back
to the same record, writing what was read is stable, JSON round-trips, and no
text makes the reader raise."""

from __future__ import annotations

import os

from gjn_strategies import records
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation import gjn
from notation.gjn_model import content_equal

EXAMPLES = int(os.environ.get("GJN_EXAMPLES", "60"))
FAST = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FAST
@given(records())
def test_parse_write_gives_the_record_back(record):
    text = gjn.write(record)
    back, diags = gjn.parse_record(text)
    assert diags == [], (text, diags)
    assert content_equal(back, record), text


@FAST
@given(records(), st.booleans())
def test_writing_what_was_read_is_stable(record, unicode):
    text = gjn.write(record, unicode=unicode)
    back, _ = gjn.parse_record(text)
    assert gjn.write(back, unicode=unicode) == text
    assert content_equal(back, record)


@FAST
@given(records(), st.booleans())
def test_json_round_trip(record, spans):
    back, diags = gjn.from_json(gjn.to_json(record, spans=spans))
    assert diags == []
    assert back == (record if spans else gjn.strip_spans(record))


@settings(max_examples=EXAMPLES * 3, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_random_text_never_raises(text):
    _recs, diags = gjn.parse(text)
    for d in diags:
        assert d.code.startswith("SJ1") and d.line >= 1


_PIECES = st.sampled_from([
    "game 1", "game", "P1: BJ LJ 22 AA", "1. P1: KK", "2. P2: pass", "3. P3: let", "4. P4: AA burn =1",
    "result P1 P2 P3 P4 P5 P6", "score odd 4 even 0", "lead P5", "tribute P5 P2: LJ 2", "remove 3 4",
    "{ note", "}", "{ a }", "; c", "[Rules \"gouji\"]", "[Bad", "position P1", "point P2 pre",
    "P7: KK", "5. P1: XX", "6 P1: KK", "Game 2", "show P3 S33", "=", "burn", ":", "P1:", "１．Ｐ１：ＫＫ",
])


@settings(max_examples=EXAMPLES * 3, deadline=None)
@given(st.lists(_PIECES, max_size=30), st.lists(st.sampled_from(["\n", " ", "\n\n", "\t"]), max_size=30))
def test_mutated_text_never_raises_and_rewrites_stably(pieces, seps):
    text = "".join(p + (seps[i] if i < len(seps) else "\n") for i, p in enumerate(pieces))
    recs, _diags = gjn.parse(text)
    for rec in recs:  # (a game-less record after another one only reads back on its own)
        out = gjn.write(rec)
        if not out:  # nothing left worth writing
            continue
        again, diags2 = gjn.parse_record(out)
        assert diags2 == [], out
        assert gjn.write(again) == out


@FAST
@given(records())
def test_from_data_is_from_json(record):
    import json
    text = gjn.to_json(record)
    assert gjn.from_data(json.loads(text)) == gjn.from_json(text)


def test_bad_json_is_a_diagnostic():
    rec, diags = gjn.from_json('{"games": [{"actions": [{"seat": "P9"}]}]}')
    assert rec is None and diags and all(d.code == "SJ107" for d in diags)
    rec, diags = gjn.from_json("{not json")
    assert rec is None and diags[0].code == "SJ107" and diags[0].line == 1
    rec, diags = gjn.from_json('{"games": [{"actions": [{"seat": "P1", "kind": "play"}]}]}')
    assert rec is None and "cannot be written as GJN" in diags[0].message  # a play with no cards
