"""``report -f html`` streams (issue 35: memory holds two matches, not the
file): :func:`analyzer.report.viewer.stream_html` writes the bytes of
:func:`analyzer.report.viewer.render_html`, for 0, 1, 2 and many matches."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from analyzer.report.reading import build_report
from analyzer.report.viewer import render_html, stream_html

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["samples/matches/standard.sjn", "samples/docs/errors.sjn",
                                  "samples/matches/titanic.sjn"])
@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_the_streamed_page_is_the_page(name, count):
    report = build_report((ROOT / name).read_text(encoding="utf-8"), name)
    matches = (report["matches"] * 5)[:count]
    buf = io.StringIO()
    stream_html(buf, {"schema": report["schema"], "path": report["path"]}, iter(matches))
    assert buf.getvalue() == render_html({**report, "matches": matches})


def test_the_matches_are_consumed_one_at_a_time():
    report = build_report((ROOT / "samples/matches/standard.sjn").read_text(encoding="utf-8"), "s.sjn")
    seen = []

    def matches():
        for k in range(6):
            seen.append(k)
            yield report["matches"][0]

    class Out(io.StringIO):
        def write(self, text):
            writes.append(len(seen))
            return super().write(text)
    writes: list[int] = []
    stream_html(Out(), {"schema": report["schema"], "path": "s.sjn"}, matches())
    assert writes[0] == 2  # the page starts after two matches were read, not six
