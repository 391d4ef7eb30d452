"""`lint` reads a small SJN file whole (`analyzer.lint.check.WHOLE_BYTES`) and
a big one as a stream of lines (flat memory): both must find the same findings
at the same lines, for every sample and for the awkward line ends, BOMs,
`noqa` comments and bad bytes that the two paths cut differently."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from analyzer.lint import check as C
from analyzer.lint.options import LintOptions

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p for d in ("samples", "tests/cli/fixtures") for p in (ROOT / d).rglob("*.sjn"))

GOOD = (ROOT / "samples" / "docs" / "broken.sjn").read_text(encoding="utf-8")
AWKWARD = {
    "crlf": GOOD.replace("\n", "\r\n").encode(),
    "cr only": GOOD.replace("\n", "\r").encode(),
    "mixed ends": "\r".join(GOOD.split("\n")[:20]).encode() + b"\n" + "\n".join(GOOD.split("\n")[20:]).encode(),
    "bom crlf": b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode(),
    "noqa": GOOD.replace("W: H4  S: DK", "W: H4  S: DK ; noqa: SJ403").encode(),
    "noqa cr": GOOD.replace("W: H4  S: DK", "W: H4  S: DK ; noqa").replace("\n", "\r").encode(),
    "bad utf-8": GOOD.encode()[:200] + b"\xff\xfe" + GOOD.encode()[200:],
    "bom only": b"\xef\xbb\xbf",
    "empty": b"",
    "junk": b"[Event \"x\"]\n{ never closed\nhand 1\n",
}
assert GOOD.count("W: H4  S: DK") == 1      # the noqa cases silence the revoke at line 25


def _both(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    opts = LintOptions()
    whole = C.lint_file(path, opts)
    monkeypatch.setattr(C, "WHOLE_BYTES", -1)     # every file streamed
    streamed = C.lint_file(path, opts)
    monkeypatch.undo()
    return whole, streamed


def _view(r: object) -> dict[str, object]:
    d = dataclasses.asdict(r) if dataclasses.is_dataclass(r) else dict(vars(r))
    return {k: v for k, v in d.items() if k != "path"}


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_lints_the_same_whole_and_streamed(path, monkeypatch):
    whole, streamed = _both(path, monkeypatch)
    assert _view(whole) == _view(streamed)


@pytest.mark.parametrize("name", list(AWKWARD))
def test_awkward_files_lint_the_same_whole_and_streamed(name, tmp_path, monkeypatch):
    path = tmp_path / "f.sjn"
    path.write_bytes(AWKWARD[name])
    whole, streamed = _both(path, monkeypatch)
    assert _view(whole) == _view(streamed)


def test_noqa_is_honoured_on_both_paths(tmp_path, monkeypatch):
    path = tmp_path / "f.sjn"
    path.write_bytes(AWKWARD["noqa"])
    for r in _both(path, monkeypatch):
        assert [f.code for f in r.findings] == ["SJ501"]


def test_the_whole_path_is_taken_for_a_small_file(tmp_path, monkeypatch):
    """(so the comparisons above compare two paths, not one path twice)"""
    path = tmp_path / "f.sjn"
    path.write_text(GOOD, encoding="utf-8")
    calls = []
    real = C._lint_whole
    monkeypatch.setattr(C, "_lint_whole", lambda *a, **k: calls.append(1) or real(*a, **k))
    C.lint_file(path, LintOptions())
    assert calls == [1]
    monkeypatch.setattr(C, "WHOLE_BYTES", -1)
    C.lint_file(path, LintOptions())
    assert calls == [1]


# -- byte ranges (a `--jobs` worker's chunk of a big file) ----------------------------------

#: records with findings (the revoke at each copy's line 25, one silenced by `noqa`, the
#: points), a CRLF copy, and a clean one, so the ranges hold findings at many lines
_RANGES_TEXT = (GOOD + "\n" + AWKWARD["noqa"].decode() + "\n" + GOOD.replace("\n", "\r\n") + "\r\n"
                + (ROOT / "samples" / "matches" / "standard.sjn").read_text(encoding="utf-8")) * 3


def _ranges_both(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, object]]:
    from analyzer.lint.split import split_file
    opts = LintOptions()
    ranges = list(split_file(str(path), 2048))
    assert len(ranges) > 4 and any(line > 1 for _, _, line in ranges)
    out = []
    for start, end, line in ranges:
        whole = C.lint_file(path, opts, start=start, end=end, start_line=line, first_record=3)
        monkeypatch.setattr(C, "WHOLE_BYTES", -1)     # streamed
        streamed = C.lint_file(path, opts, start=start, end=end, start_line=line, first_record=3)
        monkeypatch.undo()
        out.append((whole, streamed))
    return out


def test_byte_ranges_lint_the_same_whole_and_streamed(tmp_path, monkeypatch):
    path = tmp_path / "big.sjn"
    path.write_text(_RANGES_TEXT, encoding="utf-8", newline="")
    pairs = _ranges_both(path, monkeypatch)
    for whole, streamed in pairs:
        assert _view(whole) == _view(streamed)
    codes = [f.code for whole, _ in pairs for f in whole.findings]
    assert codes.count("SJ403") == 6 and codes.count("SJ501") == 9     # (the noqa copies' revokes silenced)
    assert all(f.line > 1 for whole, _ in pairs[1:] for f in whole.findings)   # the file's own line numbers


def test_byte_range_whole_path_is_taken(tmp_path, monkeypatch):
    path = tmp_path / "big.sjn"
    path.write_text(_RANGES_TEXT, encoding="utf-8", newline="")
    from analyzer.lint.split import split_file
    start, end, line = list(split_file(str(path), 2048))[1]
    calls = []
    real = C._lint_whole
    monkeypatch.setattr(C, "_lint_whole", lambda *a, **k: calls.append(k) or real(*a, **k))
    C.lint_file(path, LintOptions(), start=start, end=end, start_line=line)
    assert calls == [{"start_line": line, "first_record": 1}]


@pytest.mark.parametrize("cut", ["bom inside", "not at a line start"])
def test_awkward_byte_ranges_are_streamed(cut, tmp_path, monkeypatch):
    """A range the reader would cut otherwise than the stream goes the streamed way."""
    path = tmp_path / "f.sjn"
    text = GOOD.encode()
    at = text.index(b"hand 1")
    if cut == "bom inside":
        path.write_bytes(text[:at] + b"\xef\xbb\xbf" + text[at:])
        start, end = at, None
    else:
        path.write_bytes(text)
        start, end = at, at + 10
    line = text[:at].count(b"\n") + 1
    calls = []
    monkeypatch.setattr(C, "_lint_whole", lambda *a, **k: calls.append(1))
    C.lint_file(path, LintOptions(), start=start, end=end, start_line=line)
    assert calls == []
