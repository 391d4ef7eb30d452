"""A bug in a reader is internal error SJ901 with a request to report it, never
the user's syntax error SJ101 (issue 15): failures injected with monkeypatch into
the GJN reader and into the record splitter both readers share. A failure to
read or decode the input itself stays SJ101."""

from __future__ import annotations

from pathlib import Path

import pytest

import notation._records as records_mod
import notation.gjn_reader as gjn
from notation import iter_records

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "matches"
SJN = (SAMPLES / "one-deck.sjn").read_text(encoding="utf-8")
GJN = (SAMPLES / "gouji.gjn").read_text(encoding="utf-8")


def boom(*args: object, **kwargs: object) -> None:
    raise RuntimeError("injected bug")


def codes(diags):
    return [d.code for d in diags]


def test_the_samples_read_clean():  # the tests below would pass vacuously otherwise
    assert [d for _, ds in gjn.read_records(GJN) for d in ds if d.code in ("SJ101", "SJ901")] == []
    assert [d for _, ds in iter_records(SJN) for d in ds if d.code in ("SJ101", "SJ901")] == []


def test_a_gjn_reader_bug_is_sj901_not_sj101(monkeypatch):
    monkeypatch.setattr(gjn, "_assemble", boom)
    got = [d for _, ds in gjn.read_records(GJN) for d in ds]
    assert got and set(codes(got)) == {"SJ901"}
    assert "RuntimeError: injected bug" in got[0].message and "please report" in got[0].message


def _split_fails(exc: BaseException):
    real = records_mod._split_records

    def split(source, start_line):
        it = real(source, start_line)
        yield next(it)             # the first record, then the failure
        raise exc
    return split


@pytest.mark.parametrize("read, text", [(iter_records, SJN), (gjn.read_records, GJN)], ids=["sjn", "gjn"])
def test_a_splitter_bug_is_sj901_not_sj101(monkeypatch, read, text):
    monkeypatch.setattr(records_mod, "_split_records", _split_fails(KeyError("injected bug")))
    got = [d for _, ds in read(text) for d in ds]
    assert "SJ901" in codes(got) and "SJ101" not in codes(got)
    bug = next(d for d in got if d.code == "SJ901")
    assert "KeyError" in bug.message and "please report" in bug.message


@pytest.mark.parametrize("exc", [OSError("disk gone"), UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad")])
def test_an_unreadable_input_stays_sj101(monkeypatch, exc):
    monkeypatch.setattr(records_mod, "_split_records", _split_fails(exc))
    got = [d for _, ds in iter_records(SJN) for d in ds]
    assert "SJ101" in codes(got) and "SJ901" not in codes(got)
    assert type(exc).__name__ in next(d for d in got if d.code == "SJ101").message


def test_a_json_reader_bug_is_sj901_not_sj107(monkeypatch):
    import notation.jsonio as jsonio
    from notation import parse_record

    rec, _ = parse_record(SJN)
    assert rec is not None
    text = jsonio.to_json(rec)
    record, diags = jsonio.from_json(text)
    assert record is not None and diags == []          # the sample reads clean
    monkeypatch.setattr(jsonio, "representable_problems", boom)
    record, diags = jsonio.from_json(text)
    assert record is None and codes(diags) == ["SJ901"] and "please report" in diags[0].message
    monkeypatch.undo()
    monkeypatch.setattr(jsonio.Record, "model_validate_json", classmethod(boom))
    record, diags = jsonio.from_json(text)
    assert record is None and codes(diags) == ["SJ901"]
    monkeypatch.undo()
    record, diags = jsonio.from_json('{"tags": 5}')     # the user's fault stays SJ107
    assert codes(diags) and set(codes(diags)) == {"SJ107"}


def test_a_gjn_json_reader_bug_is_sj901_not_sj107(monkeypatch):
    import notation.gjn_jsonio as gjson

    recs = [r for r, _ in gjn.read_records(GJN)]
    text = gjson.to_json(recs[0])
    record, diags = gjson.from_json(text)
    assert record is not None and diags == []
    monkeypatch.setattr(gjson, "representable_problems", boom)
    record, diags = gjson.from_json(text)
    assert record is None and codes(diags) == ["SJ901"] and "please report" in diags[0].message
