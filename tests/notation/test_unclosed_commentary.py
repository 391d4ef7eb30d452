"""An unterminated ``{`` commentary followed by garbage (issue 35): one SJ103 at
the ``{`` (the commentary is taken to end with its line), then one diagnostic a
garbage line at its own position, never one diagnostic that swallows the rest
of the file and never an internal error (SJ901). The SJN and GJN readers agree,
read whole (``replay``, ``report``) and streamed line by line (``lint``).
NOTATION.md "Comments and commentaries": a ``}`` must come before any other
``{`` and before a line starting with ``[``."""

from __future__ import annotations

import pytest

from notation.detect import read

#: a Shengji and a Gouji head, each ending just before the first play line
HEADS = {
    "sjn": ('[Event "x"]\n\nhand 1\nN: S3\nE: S4\nS: S5\nW: S6\n1. N: S3\n', "2. E: S4"),
    "gjn": ('[Rules "gouji"]\n\ngame 1\nP1: S3\nP2: S4\nP3: S5\nP4: S6\nP5: S7\nP6: S8\n1. P1: S3\n', "2. P2: S4"),
}
GARBAGE = ["@@@ one", "%%% two ; a comment", "!!", "\x00\x01 control"]

#: (name, the lines after the head ({play} is the game's next play), the diagnostics
#: as (code, line offset from the first added line, column; None: the play's column))
CASES = [
    ("at-a-line-start", ["{ never closed", *GARBAGE],
     [("SJ103", 0, 1), ("SJ101", 1, 1), ("SJ101", 2, 1), ("SJ101", 3, 1), ("SJ101", 4, 1)]),
    ("after-a-play", ["{play} { never closed", *GARBAGE],
     [("SJ103", 0, None), ("SJ101", 1, 1), ("SJ101", 2, 1), ("SJ101", 3, 1), ("SJ101", 4, 1)]),
    ("a-second-brace-on-its-line", ["{ a { b", *GARBAGE],
     [("SJ103", 0, 1), ("SJ101", 1, 1), ("SJ101", 2, 1), ("SJ101", 3, 1), ("SJ101", 4, 1)]),
    ("on-the-last-line", ["{ never closed"], [("SJ103", 0, 1)]),
    ("without-a-line-end", ["{ never closed\n@@@ one"], [("SJ103", 0, 1), ("SJ101", 1, 1)]),
    ("a-tag-line-ends-it", ["{ open", "@@@ one", '[Event "y"]'], [("SJ103", 0, 1), ("SJ101", 1, 1)]),
    ("closed-later-is-one-commentary", ["{ open", *GARBAGE, "still } x"], [("SJ101", 5, 9)]),
]


def _diagnostics(kind: str, lines: list[str], streamed: bool) -> list[tuple[str, int, int]]:
    head, play = HEADS[kind]
    text = head + "\n".join(lines).replace("{play}", play)
    if not lines[-1].endswith("@@@ one"):
        text += "\n"
    source = text.splitlines(keepends=True) if streamed else text
    found = [d for _, diags in read(source, kind) for d in diags]
    return [(d.code, d.span.line, d.span.column) for d in found]


@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("kind", sorted(HEADS))
@pytest.mark.parametrize("name, lines, expected", CASES, ids=[c[0] for c in CASES])
def test_an_unclosed_commentary_then_garbage_is_one_diagnostic_a_line(kind, streamed, name, lines, expected):
    head, play = HEADS[kind]
    first = head.count("\n") + 1
    brace = len(play) + 2  # `{` after "PLAY "
    want = [(code, first + dl, brace if col is None else col) for code, dl, col in expected]
    got = _diagnostics(kind, lines, streamed)
    assert "SJ901" not in [c for c, _, _ in got]
    assert got == want


@pytest.mark.parametrize("kind", sorted(HEADS))
def test_many_garbage_lines_after_an_unclosed_commentary_each_get_their_own(kind):
    got = _diagnostics(kind, ["{ never closed", *(f"@@@ {i}" for i in range(500))], streamed=True)
    first = HEADS[kind][0].count("\n") + 1
    assert got[0] == ("SJ103", first, 1)
    assert got[1:] == [("SJ101", first + 1 + i, 1) for i in range(500)]
