"""The Gouji commands stream (issue 35: "every command streams or states its
memory bound"): ``report`` (text, md, json, html), ``convert`` and ``fmt`` take a
GJN file a record at a time, write what rendering the whole report at once
wrote, byte for byte, and hold at most the record after the one being written.
Each record's match carries the diagnostics read with it (before, every
diagnostic of the file went to the first match, and a later record's syntax
errors showed under no game)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.games.gouji import analysis as gouji
from analyzer.games.gouji import render as gouji_render
from analyzer.games.gouji import stream
from analyzer.games.gouji.generate import generate_match
from analyzer.games.gouji.viewer import render_html
from analyzer.io.inputs import Source
from notation import gjn

ENV = {"NO_COLOR": "1", "COLUMNS": "200", "TERM": "dumb"}


def _records(n: int, games: int = 1) -> str:
    presets = ("gouji", "gouji-bie3", "gouji-online")
    return gjn.write([generate_match(presets[k % 3], games=games, seed=40 + k) for k in range(n)]) + "\n"


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("gj") / "three.gjn"
    p.write_text(_records(3), encoding="utf-8")
    return p


def _whole(path: Path) -> dict:
    """The report as the commands built it before they streamed (every record first)."""
    records, diags = gjn.parse(path.read_text(encoding="utf-8"))
    return gouji.build_report([(r, diags if k == 0 else []) for k, r in enumerate(records)], str(path))


@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize("fmt", ["md", "json", "html"])
def test_streamed_report_is_the_whole_report(tmp_path: Path, n: int, fmt: str) -> None:
    path = tmp_path / f"r{n}.gjn"
    path.write_text(_records(n), encoding="utf-8")
    want = render_html(_whole(path)) if fmt == "html" else gouji_render.render(_whole(path), fmt)
    out = tmp_path / f"out.{fmt}"
    res = CliRunner().invoke(app, ["report", str(path), "-f", fmt, "-o", str(out)], env=ENV)
    assert res.exit_code == 0, res.output
    assert out.read_text(encoding="utf-8") == want


@pytest.mark.parametrize("n", [1, 3])
def test_streamed_text_report_is_the_whole_report(tmp_path: Path, n: int) -> None:
    from analyzer.report.console import make_console
    path = tmp_path / f"t{n}.gjn"
    path.write_text(_records(n), encoding="utf-8")
    buf = io.StringIO()
    gouji_render.render_report(make_console(file=buf, color=False, width=200), _whole(path))
    res = CliRunner().invoke(app, ["report", str(path)], env=ENV)
    assert res.exit_code == 0, res.output
    assert res.stdout == buf.getvalue()


@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize("spans", [False, True])
def test_streamed_convert_to_json_is_the_whole_list(tmp_path: Path, n: int, spans: bool) -> None:
    path = tmp_path / f"c{n}.gjn"
    path.write_text(_records(n), encoding="utf-8")
    records, _ = gjn.parse(path.read_text(encoding="utf-8"))
    dumped = [json.loads(gjn.to_json(r, spans=spans)) for r in records]
    want = json.dumps(dumped[0] if n == 1 else dumped, indent=2, ensure_ascii=False) + "\n"
    res = CliRunner().invoke(app, ["convert", str(path), "--to", "json"] + (["--spans"] if spans else []), env=ENV)
    assert res.exit_code == 0, res.output
    assert res.stdout == want
    back = CliRunner().invoke(app, ["convert", str(path), "--to", "gjn"], env=ENV)
    tidy = gjn.write(records)
    assert back.stdout == (tidy if tidy.endswith("\n") else tidy + "\n")


class _Counting:
    """A source whose reader counts the records it has handed out."""

    def __init__(self, path: Path) -> None:
        self.src = Source(str(path))
        self.taken = 0

    def records(self):
        for record, diags in self.src.records():
            if record is not None:
                self.taken += 1
            yield record, diags


class _Watch(io.StringIO):
    def __init__(self, counting: _Counting) -> None:
        super().__init__()
        self.counting = counting
        self.seen: list[int] = []

    def write(self, text: str) -> int:
        self.seen.append(self.counting.taken)
        return super().write(text)


@pytest.mark.parametrize("writer", ["json", "md", "html"])
def test_the_report_is_written_before_the_file_is_read_to_its_end(three: Path, writer: str) -> None:
    counting = _Counting(three)
    out = _Watch(counting)
    matches = stream.matches_of(counting, stream.Reading(), path="x", rules=None)
    head = {"schema": gouji.SCHEMA, "game": "gouji", "path": "x"}
    if writer == "json":
        stream.write_json_report(out, head, matches)
    elif writer == "md":
        stream.write_markdown(out, matches)
    else:
        stream.write_html(out, head, matches)
    # the first match went out while at most one record more had been read
    firsts = [k for k in out.seen if k > 0]
    assert firsts and firsts[0] <= 2
    assert counting.taken == 3


def test_each_match_carries_the_diagnostics_read_with_it(tmp_path: Path) -> None:
    text = _records(3)
    blocks = text.split("\n\n[Rules")
    assert len(blocks) == 3
    # a line no GJN reader accepts, inside the third record's game
    bad = blocks[2].rstrip("\n") + "\n@@ not gjn\n"
    path = tmp_path / "bad.gjn"
    path.write_text("\n\n[Rules".join(blocks[:2] + [bad]), encoding="utf-8")
    res = CliRunner().invoke(app, ["report", str(path), "-f", "json"], env=ENV)
    assert res.exit_code == 1
    rep = json.loads(res.stdout)
    codes = [[d["code"] for d in m["diagnostics"]] for m in rep["matches"]]
    assert not codes[0], codes
    assert any(c.startswith("SJ1") for c in codes[-1]), codes


def test_no_record_shows_the_diagnostics(tmp_path: Path) -> None:
    path = tmp_path / "none.gjn"
    path.write_text("@@ not gjn\nxx\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["report", str(path)], env=ENV)
    assert res.exit_code == 1
    assert "SJ101" in res.output and "SJ104" in res.output
    assert "no record found" in res.output
