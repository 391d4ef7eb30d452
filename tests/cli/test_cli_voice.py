"""One voice across the command line (issue 28): the same data in every
output, help that shows what it means, the same names for the same things,
quiet closed pipes, a word for every request not fully met and every file
written, layouts that fit 80 columns."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import FIXTURES, Run

ROOT = Path(__file__).resolve().parents[2]
MATCHES = ROOT / "samples" / "matches"


def test_players_list_every_mistake_the_review_counts() -> None:
    """A bury (SJ603) is no trick's play: the player's mistakes still list it,
    as many as the review counts for the player."""
    run = Run(MATCHES)
    out = json.loads(run("report", "standard.sjn", "--mistakes", "--format", "json").stdout)
    m = out["matches"][0]
    for seat, player in m["players"].items():
        counted = m["review"]["players"][seat]
        total = counted["inaccuracy"] + counted["mistake"] + counted["blunder"] + counted["notes"]
        assert len(player["mistakes"]) == total, (seat, player["mistakes"], counted)
    assert "SJ603" in [d["code"] for d in m["players"]["W"]["mistakes"]]
    text = run("report", "standard.sjn", "--mistakes").stdout
    assert "SJ603" in text.split("Players")[1]


# -- closed pipes and a closed stdout -----------------------------------------------------------

def _shell(cmd: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb", "PYTHONPATH": str(ROOT)}
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """A file far bigger than a pipe's buffer: 40 copies of a match, and 40 of a record with errors."""
    where = tmp_path_factory.mktemp("pipes")
    match = (FIXTURES / "match.sjn").read_text(encoding="utf-8")
    (where / "big.sjn").write_text("\n".join([match] * 40), encoding="utf-8")
    errors = (FIXTURES / "errors.sjn").read_text(encoding="utf-8")
    (where / "errors.sjn").write_text("\n".join([errors] * 40), encoding="utf-8")
    return where


@pytest.mark.parametrize("args, code", [
    ("report big.sjn", 0), ("replay big.sjn", 0), ("report big.sjn --format md", 0),
    ("report big.sjn --format json", 0), ("fmt big.sjn", 0), ("convert big.sjn --to json", 0),
    ("lint errors.sjn", 1), ("lint big.sjn --format json", 0), ("--help", 0), ("rules", 0),
])
def test_a_closed_pipe_stops_quietly_with_the_commands_status(big: Path, args: str, code: int) -> None:
    py = f"'{sys.executable}' -m analyzer"
    r = _shell(f"{py} {args} | head -1 > /dev/null; exit ${{PIPESTATUS[0]}}", big)
    assert (r.returncode, r.stderr) == (code, ""), (args, r.returncode, r.stderr)


@pytest.mark.parametrize("args, code", [
    ("lint match.sjn", 0), ("lint errors.sjn", 1), ("report match.sjn", 0), ("convert match.sjn --to json", 0),
    ("generate --hands 1", 0), ("fmt clean.sjn", 0), ("replay clean.sjn", 0),
])
def test_a_closed_stdout_is_no_internal_error(args: str, code: int) -> None:
    r = _shell(f"'{sys.executable}' -m analyzer {args} >&-", FIXTURES)
    assert "SJ901" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert r.returncode == code, (args, r.returncode, r.stderr)


# -- help that shows what it means; the same names for the same things -----------------------------

def _commands():
    import typer.main

    from analyzer.cli import app
    group = typer.main.get_group(app)
    return group, group.commands


@pytest.mark.parametrize("command, extra", [("lint", "cluster"), ("export", "cluster"), ("stats", "stats")])
def test_help_keeps_its_brackets(run, command: str, extra: str) -> None:
    text = run(command, "--help").stdout
    assert f"pip install 'shengji[{extra}]'" in " ".join(text.replace("│", " ").split())


def test_usage_lines_show_each_metavar_once(run) -> None:
    for command, usage in (("export", "shengji export [OPTIONS] [FORMAT] ARG..."),
                           ("stats", "shengji stats [OPTIONS] STORE [ANALYSIS]...")):
        lines = [line.strip() for line in run(command, "--help").stdout.splitlines()]
        assert f"Usage: {usage}" in lines


def test_one_name_and_one_metavar_for_each_option_in_every_command() -> None:
    """``-n`` is one option everywhere, ``--rules`` takes a PRESET everywhere…"""
    from typer.core import TyperOption as Option
    _, commands = _commands()
    short: dict[str, list[set[str]]] = {}
    metavar: dict[str, set[str]] = {}
    for name, cmd in commands.items():
        for p in cmd.params:
            if not isinstance(p, Option) or p.is_flag:
                continue
            longest = max(p.opts, key=len)
            longs = {o for o in p.opts if o.startswith("--")}
            for o in p.opts:
                if not o.startswith("--"):
                    short.setdefault(o, []).append(longs)
            if p.metavar is None and not p.type_descriptor.is_choice:
                pytest.fail(f"{name} {longest} shows no metavar (would show {longest[2:].upper()})")
            if p.metavar is not None:
                metavar.setdefault(longest, set()).add(p.metavar)
    for o, names in short.items():  # one long name shared by every command with the short one
        assert set.intersection(*names), (o, names)
    for o, seen in metavar.items():
        if o not in ("--hand", "--trick", "--endgame", "--seed", "--sql"):
            assert len(seen) == 1, (o, seen)


def test_the_readable_format_is_text_in_every_command(run) -> None:
    for command in ("lint", "report", "stats"):
        text = run(command, "--help").stdout
        assert "text|" in text and "term" not in text.split("Options")[1].split("|")[0], command
    assert run("report", "clean.sjn", "--format", "term").stdout == run("report", "clean.sjn").stdout
    assert run("report", "clean.sjn", "--format", "text").stdout == run("report", "clean.sjn").stdout


def test_file_help_names_every_record_format_and_the_top_level_names_gouji(run) -> None:
    for command in ("replay", "report", "convert"):
        assert "SJN, GJN or JSON" in run(command, "--help").stdout, command
    assert "Gouji" in run("--help").stdout


# -- a word where a request was not fully met, and for every file written --------------------------

def test_generate_says_when_the_match_ended_before_the_hands_asked(run_in, work: Path) -> None:
    r = run_in("generate", "--hands", "300", "--seed", "0", "-o", "big.sjn")
    assert "wrote big.sjn" in r.stderr
    assert "note: the match was won after " in r.stderr and " of the 300 hands asked" in r.stderr
    assert "note:" not in run_in("generate", "--hands", "2", "-o", "small.sjn").stderr


def test_generate_refuses_games_for_a_shengji_preset(run) -> None:
    r = run("generate", "--rules", "standard", "--games", "2", code=2)
    assert "--games is for the Gouji presets" in r.stderr and "--hands 2" in r.stderr


def test_html_is_not_dumped_onto_a_terminal(tmp_path: Path) -> None:
    import pty
    primary, secondary = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    try:
        r = subprocess.run([sys.executable, "-m", "analyzer", "report", "clean.sjn", "--format", "html"],
                           cwd=FIXTURES, env=env, stdout=secondary, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(secondary)
        shown = b""
        try:
            while chunk := os.read(primary, 65536):
                shown += chunk
        except OSError:
            pass
        os.close(primary)
    assert r.returncode == 2 and "-o FILE" in r.stderr, r.stderr
    assert b"<html" not in shown.lower()


@pytest.mark.parametrize("args", [
    ("report", "match.sjn", "--format", "md"), ("report", "match.sjn"),
    ("convert", "match.sjn", "--to", "json"), ("import", "fly", "logs/room.jsonl"),
    ("generate", "--hands", "1"),
])
def test_every_file_written_is_confirmed(run_in, args) -> None:
    r = run_in(*args, "-o", "out.txt")
    assert "wrote out.txt" in r.stderr.splitlines(), r.stderr


# -- progress ----------------------------------------------------------------------------------------

def test_plain_progress_lines_come_periodically_and_only_on_long_work() -> None:
    import io

    from analyzer.io.progress import Progress
    now = [0.0]
    out = io.StringIO()
    p = Progress("shengji report: reviewing", "hands", stream=out, clock=lambda: now[0])
    p.start(0)
    p.add_total(10)
    for _ in range(10):
        now[0] += 1.0
        p.advance()
    p.stop()
    lines = out.getvalue().splitlines()
    assert lines == ["shengji report: reviewing: 2/10 hands (20%), 2 s elapsed, about 8 s left"]
    quiet = io.StringIO()
    q = Progress("x", "hands", stream=quiet, clock=lambda: now[0], enabled=False)
    q.start(5)
    now[0] += 100
    q.advance(5)
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("args", [("report", "match.sjn", "--mistakes"), ("annotate", "match.sjn")])
def test_long_commands_show_progress_off_a_terminal(run, monkeypatch, args) -> None:
    from analyzer.io.progress import Progress
    monkeypatch.setattr(Progress, "FIRST", 0.0)
    monkeypatch.setattr(Progress, "EVERY", 0.0)
    said = run(*args).stderr
    assert f"shengji {args[0]}: reviewing: 1/2 hands (50%)" in said, said
    assert "reviewing" not in run(*args, "--no-progress").stderr


def test_every_long_command_can_silence_its_progress(run) -> None:
    for command in ("lint", "report", "annotate", "export"):
        assert "--no-progress" in run(command, "--help").stdout, command


def test_export_progress_has_the_inputs_bytes_as_its_total() -> None:
    from types import SimpleNamespace

    from analyzer.store.export import BytesProgress
    sizes = {p.name: p.stat().st_size for p in FIXTURES.glob("*.sjn")}
    bar = BytesProgress([str(FIXTURES / name) for name in sizes], enabled=False)
    assert bar.size == sum(sizes.values())
    bar.start(bar.size)
    bar.on_chunk(SimpleNamespace(path=str(FIXTURES / "match.sjn"), start=0, end=None))
    bar.on_chunk(SimpleNamespace(path=str(FIXTURES / "clean.sjn"), start=10, end=30))
    assert bar.done == sizes["match.sjn"] + 20
    assert "about" in bar.line(bar._started + 5)


# -- layouts at 80 columns -----------------------------------------------------------------------------

def _at_80(args, cwd: Path) -> list[str]:
    from typer.testing import CliRunner

    from analyzer.cli import app
    old = os.getcwd()
    os.chdir(cwd)
    try:
        r = CliRunner().invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"})
    finally:
        os.chdir(old)
    assert r.exit_code == 0, r.stderr
    return r.stdout.splitlines()


def _check_layout(lines: list[str]) -> None:
    from rich.cells import cell_len
    assert lines
    assert not [line for line in lines if "…" in line], "a word was cut"
    assert max(cell_len(line) for line in lines) <= 80
    assert not [line for line in lines if line != line.rstrip()], "a line ends in spaces"


@pytest.fixture(scope="module")
def eight(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("eight")
    Run(where)("generate", "--rules", "shengji-io-friends", "--players", "8", "--hands", "1", "--seed", "2",
               "-o", "eight.sjn")
    return where


def test_eight_seats_at_80_columns_lay_the_tricks_out_vertically(eight: Path) -> None:
    lines = _at_80(["replay", "eight.sjn"], eight)
    _check_layout(lines)
    header = next(line for line in lines if line.lstrip().startswith("#"))
    assert header.split() == ["#", "seat", "cards", "won", "pts", "att", "note"]
    _check_layout(_at_80(["report", "eight.sjn"], eight))


@pytest.mark.parametrize("sample", sorted(p.name for p in MATCHES.glob("*.[sg]jn")))
def test_every_sample_fits_80_columns(sample: str) -> None:
    _check_layout(_at_80(["replay", sample], MATCHES))
    _check_layout(_at_80(["report", sample], MATCHES))


@pytest.mark.parametrize("preset", ["campus", "standard", "shengji-io-friends"])
def test_rules_fit_80_columns(preset: str) -> None:
    _check_layout(_at_80(["rules", preset], MATCHES))


def test_a_problem_is_on_its_tricks_row(run) -> None:
    lines = run("report", "errors.sjn", code=None).stdout.splitlines()
    row = next(line for line in lines if line.split()[:2] == ["7", "S"])
    assert row.rstrip().endswith("SJ403")


def test_stats_confirms_its_file_and_takes_the_old_format_name(tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    from analyzer.store import parquet as S
    (tmp_path / "a.sjn").write_text((FIXTURES / "match.sjn").read_text(encoding="utf-8"), encoding="utf-8")
    S.export_paths([str(tmp_path / "a.sjn")], str(tmp_path / "store"))
    run = Run(tmp_path)
    r = run("stats", "store", "dealer-hold", "--format", "csv", "-o", "out.csv")
    assert r.stderr.splitlines() == ["wrote out.csv"]
    assert run("stats", "store", "dealer-hold", "--format", "table").stdout == \
        run("stats", "store", "dealer-hold").stdout


# -- the same numbers everywhere -------------------------------------------------------------------

def test_accuracy_is_rounded_as_the_viewer_rounds_it() -> None:
    """JavaScript's Math.round rounds half up; Python's format rounds half to even."""
    import io

    from analyzer.report.console import make_console
    from analyzer.report.markdown import review_markdown
    from analyzer.report.terminal_report import render_review
    from analyzer.report.text import percent
    assert [percent(v) for v in (90.5, 91.5, 90.4, 100.0, None)] == ["91%", "92%", "90%", "100%", ""]
    review = {"players": {s: {"worst": []} for s in "NWSE"},
              "hands": [{"hand": 1, "window": 4, "requested": 4,
                         "players": {s: {"points_lost": 0, "accuracy": 90.5} for s in "NWSE"}}]}
    out = io.StringIO()
    render_review(make_console(file=out, width=120, color=False), {"review": review, "players": {}})
    assert "0/91%" in out.getvalue() and "90%" not in out.getvalue()
    md = "\n".join(review_markdown(review, {"players": {}, "record": 1}))
    assert "0 / 91%" in md


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_no_report_line_ends_in_spaces(run, fmt: str) -> None:
    lines = run("report", "match.sjn", "--mistakes", "--format", fmt).stdout.splitlines()
    assert len(lines) > 20 and not [line for line in lines if line != line.rstrip()]
