"""``fmt --diff`` in linear time (issue 35): :mod:`analyzer.io.linediff` gives,
byte for byte, what :func:`difflib.unified_diff` gave on what a formatter does
to a file (every SJN and GJN file of the project formatted; lines rewritten,
inserted, removed, here and there), is always a correct diff (applying it gives
the new text), and stays linear on a file of 200,000 lines where difflib was
quadratic."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.io.formatting import keep_ends
from analyzer.io.linediff import unified_diff

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for d in ("samples", "tests") for p in (ROOT / d).rglob("*") if p.suffix in (".sjn", ".gjn"))


def both(a: list[str], b: list[str]) -> tuple[str, str]:
    return ("".join(unified_diff(a, b, "f", "f")), "".join(difflib.unified_diff(a, b, "f", "f")))


def patched(a: list[str], diff: str) -> list[str]:
    """``a`` with the unified ``diff`` applied."""
    out: list[str] = []
    i = 0
    lines = keep_ends(diff)[2:]
    for line in lines:
        if line.startswith("@@"):
            start = int(line.split()[1][1:].split(",")[0])
            length = line.split()[1].split(",")
            start = start - 1 if len(length) == 1 or int(length[1]) else start
            out += a[i:start]
            i = start
        elif line[0] in " -":
            assert a[i] == line[1:], (i, a[i], line)
            i += 1
            if line[0] == " ":
                out.append(line[1:])
        else:
            out.append(line[1:])
    return out + a[i:]


def test_every_project_file_formatted_gives_difflibs_diff():
    """Each SJN and GJN file of the project (samples, fixtures) against its game's
    canonical text, as ``fmt --diff`` compares them."""
    from analyzer.io.inputs import Source
    checked = 0
    for path in FILES:
        try:
            src = Source(str(path))
            records, diags = src.load()
            new = src.game.write(records) if records else ""
        except Exception:  # unreadable on purpose: not a formatter's change
            continue
        if any(d.code.startswith("SJ1") and d.severity == "error" for d in diags) or not new:
            continue
        new += "" if new.endswith("\n") else "\n"
        mine, theirs = both(keep_ends(src.text()), keep_ends(new))
        assert mine == theirs, path
        checked += bool(mine)
    assert checked >= 20, checked


WORDS = st.sampled_from(["", "hand 1", "1. N: S3", "2. E: S4", "trump D", "[Event \"x\"]", "{ note }", "S: S3"])


@st.composite
def edited(draw) -> tuple[list[str], list[str]]:
    a = [w + "\n" for w in draw(st.lists(WORDS, max_size=60))]
    b = list(a)
    for _ in range(draw(st.integers(0, 6))):
        k = draw(st.integers(0, len(b)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        if op == "insert":
            b.insert(k, draw(WORDS) + "\n")
        elif b and k < len(b):
            if op == "delete":
                del b[k]
            else:
                b[k] = draw(WORDS) + " x\n"
    if draw(st.booleans()) and b:
        b[-1] = b[-1].rstrip("\n")
    return a, b


@settings(max_examples=300, deadline=None)
@given(edited())
def test_the_diff_is_always_correct(ab):
    a, b = ab
    mine, _ = both(a, b)
    assert patched(a, mine) == b
    assert (mine == "") == (a == b)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\n", "e\n"]), max_size=40),
       st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\n", "e\n"]), max_size=40))
def test_any_two_texts_give_a_correct_diff(a, b):
    assert patched(a, both(a, b)[0]) == b


@st.composite
def edited_unique(draw) -> tuple[list[str], list[str]]:
    """Different lines (as a record's mostly are), some rewritten, inserted, removed."""
    a = [f"line {k}\n" for k in range(draw(st.integers(0, 80)))]
    b = list(a)
    for _ in range(draw(st.integers(0, 8))):
        k = draw(st.integers(0, len(b)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        if op == "insert":
            b.insert(k, f"new {draw(st.integers())}\n")
        elif k < len(b):
            if op == "delete":
                del b[k]
            else:
                b[k] = b[k].replace("line", "LINE")
    return a, b


@settings(max_examples=300, deadline=None)
@given(edited_unique())
def test_rewrites_of_different_lines_give_difflibs_diff(ab):
    mine, theirs = both(*ab)
    assert mine == theirs


def _formatter_like(n: int) -> tuple[list[str], list[str]]:
    """``n`` different lines, one in 25 rewritten as a formatter would (spacing)."""
    a = [f"{k % 13 + 1}. N: S{k % 9 + 2} H{k % 7 + 2} ; {k}\n" for k in range(n)]
    b = [line.replace(": ", ":  ") if k % 25 == 7 else line for k, line in enumerate(a)]
    return a, b


def test_scattered_rewrites_give_difflibs_diff():
    """(On lines that repeat with a period, difflib's longest match can pair lines a
    period apart and print thousands of lines as inserted; the walk does not.)"""
    a, b = _formatter_like(3000)
    mine, theirs = both(a, b)
    assert mine == theirs and mine


class _Pulled:
    """Lines handed out one at a time, counting how many were read."""

    def __init__(self, lines: list[str]) -> None:
        self.lines, self.read = lines, 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        for line in self.lines:
            self.read += 1
            yield line


def _work(n: int, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int, str]:
    """(lines read, the largest region handed to difflib, the most lines read
    ahead of a hunk when it came out, the diff) for ``n`` lines."""
    import analyzer.io.linediff as L
    regions: list[int] = []
    real = difflib.SequenceMatcher

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, isjunk, a, b, autojunk=True):  # type: ignore[no-untyped-def]
            regions.append(max(len(a), len(b)))
            super().__init__(isjunk, a, b, autojunk=autojunk)

    monkeypatch.setattr(L.difflib, "SequenceMatcher", Recording)
    a, b = _formatter_like(n)
    pa, pb = _Pulled(a), _Pulled(b)
    out: list[str] = []
    ahead = 0
    for piece in unified_diff(pa, pb):
        if piece.startswith("@@"):   # a hunk comes out: how far past its start was the old file read?
            start = int(piece.split()[1][1:].split(",")[0])
            ahead = max(ahead, pa.read - start, pb.read - start)
        out.append(piece)
    monkeypatch.setattr(L.difflib, "SequenceMatcher", real)
    return pa.read + pb.read, max(regions, default=0), ahead, "".join(out)


def test_a_huge_diff_is_linear_and_streams(monkeypatch):
    """The walk reads each line once, difflib never sees a region wider than
    the resynchronising window, and each hunk comes out while the walk holds
    only the window (read ahead) and the hunk: on 200,000 lines no more read
    ahead than on 20,000. (Counted, not timed: a timing test would flake on a
    loaded machine.)"""
    from analyzer.io.linediff import CHUNK, SYNC, WINDOW
    small_reads, small_region, small_ahead, small = _work(20_000, monkeypatch)
    big_reads, big_region, big_ahead, big = _work(200_000, monkeypatch)
    assert big.count("\n@@ ") > small.count("\n@@ ") * 9
    assert (small_reads, big_reads) == (40_000, 400_000)
    assert max(small_region, big_region) <= WINDOW + SYNC
    assert big_ahead <= 2 * (CHUNK + WINDOW + SYNC) and big_ahead <= small_ahead + 10, (small_ahead, big_ahead)


def test_a_file_rewritten_throughout_is_one_hunk_spilled(monkeypatch):
    """Every line changed (``--unicode`` on a file written in letters): one hunk
    as long as the file, kept in a temporary file past ``SPILL`` characters;
    the bytes are difflib's."""
    import analyzer.io.linediff as L
    opened: list[object] = []
    real = L.tempfile.TemporaryFile

    def recording(*args, **kw):  # type: ignore[no-untyped-def]
        opened.append(f := real(*args, **kw))
        return f

    monkeypatch.setattr(L, "SPILL", 1000)
    monkeypatch.setattr(L.tempfile, "TemporaryFile", recording)
    a = [f"{k}. N: S{k % 9 + 2}\n" for k in range(3000)]
    b = [line.replace("S", "\u2660") for line in a]
    mine, theirs = both(a, b)
    assert mine == theirs and mine.count("@@") == 2
    assert len(opened) >= 2   # the hunk's body and its added lines


@settings(max_examples=200, deadline=None)
@given(edited_unique(), st.integers(1, 5), st.integers(0, 4))
def test_small_windows_and_chunks_still_give_difflibs_diff(ab, chunk, context):
    """The walk's buffers at their edges: lines read a few at a time, spilled at once."""
    import analyzer.io.linediff as L
    saved = L.CHUNK, L.SPILL
    L.CHUNK, L.SPILL = chunk, 20
    try:
        a, b = ab
        mine = "".join(unified_diff(iter(a), iter(b), "f", "f", context))
    finally:
        L.CHUNK, L.SPILL = saved
    assert mine == "".join(difflib.unified_diff(a, b, "f", "f", n=context))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab\r\n", max_size=8), max_size=12))
def test_pieces_cut_into_lines_as_the_whole_text(pieces):
    from analyzer.io.formatting import split_pieces
    assert list(split_pieces(pieces)) == keep_ends("".join(pieces))
