"""No input crashes any command (issue 14): arbitrary bytes, arbitrary JSON
(nested thousands deep too) and mangled SJN through every command, in process;
never a traceback, never an internal error (SJ901). And every command sees the
same records at the same lines: what ``report --format json`` shows is what
``lint`` checked."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from cli_helpers import ENV, FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from analyzer.cli import app

EXAMPLES = int(os.environ.get("CLI_FUZZ_EXAMPLES", "15"))
CLEAN_LINES = (FIXTURES / "clean.sjn").read_text(encoding="utf-8").split("\n")
RUNNER = CliRunner()

COMMANDS = [
    ["lint", "{f}"],
    ["lint", "{f}", "--format", "json"],
    ["replay", "{f}"],
    ["replay", "{f}", "--record", "2"],
    ["report", "{f}", "--format", "md"],
    ["report", "{f}", "--format", "json"],
    ["report", "{f}"],
    ["fmt", "{f}"],
    ["fmt", "--check", "{f}"],
    ["convert", "{f}", "--to", "json"],
    ["convert", "{f}", "--to", "sjn"],
    ["annotate", "{f}", "--endgame", "0"],
    ["import", "auto", "{f}"],
]


def run_all(data: bytes, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"input{suffix}"
        path.write_bytes(data)
        for args in COMMANDS:
            argv = [a.replace("{f}", str(path)) for a in args]
            r = RUNNER.invoke(app, argv, env=ENV, catch_exceptions=False)
            out = r.stdout + r.stderr
            assert r.exit_code in (0, 1, 2), (argv, r.exit_code, out[-1500:])
            assert "Traceback" not in out, (argv, out[-1500:])
            assert "SJ901" not in out, (argv, out[-1500:])  # an internal error is a bug
        r = RUNNER.invoke(app, ["lint", "-"], input=data, env=ENV, catch_exceptions=False)
        assert r.exit_code in (0, 1, 2) and "Traceback" not in r.stdout + r.stderr


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["tags", "hands", "name", "value", "tricks", "plays", "seat", "cards", "span", "x"]),
        inner, max_size=4),
    max_leaves=20)


def deep(n: int, kind: str) -> str:
    if kind == "list":
        return "[" * n + "]" * n
    if kind == "dict":
        return '{"hands": ' * n + "1" + "}" * n
    return '[{"tags": ' * n + "[]" + "}]" * n


deep_json = st.builds(deep, st.integers(1, 5000), st.sampled_from(["list", "dict", "mixed"]))

#: lines of a real record, mangled: characters dropped, doubled or replaced, odd line ends
NASTY = ["", "\0", "\r", "\r\n", "\u2028", "\x0c", "{", "}", ";", ":", "[", "]", "\"", "Ｈ３", "->",
         "9999999999", "S" * 3, "\t", "\ufeff", "é"]


@st.composite
def mangled_sjn(draw) -> str:
    lines = list(CLEAN_LINES)
    for _ in range(draw(st.integers(0, 6))):
        k = draw(st.integers(0, len(lines) - 1))
        line = lines[k]
        i = draw(st.integers(0, len(line)))
        j = draw(st.integers(i, min(len(line), i + 3)))
        lines[k] = line[:i] + draw(st.sampled_from(NASTY)) + line[j:]
    if draw(st.booleans()):
        lines = lines + [""] + lines  # two records
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)


SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(st.binary(max_size=400), st.sampled_from([".sjn", ".json", ".gjn", ".txt", ""]))
def test_arbitrary_bytes(data, suffix):
    run_all(data, suffix)


@SETTINGS
@given(st.one_of(json_values.map(json.dumps), deep_json), st.sampled_from([".json", ".sjn", ".txt"]))
def test_arbitrary_json(text, suffix):
    run_all(text.encode("utf-8"), suffix)


@SETTINGS
@given(mangled_sjn())
def test_mangled_sjn(text):
    run_all(text.encode("utf-8"), ".sjn")


@settings(max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mangled_sjn(), st.sampled_from([".sjn", ".txt"]))
def test_report_shows_what_lint_checked(text, suffix):
    """The same records at the same lines: report's diagnostics and record lines
    are lint's findings and records."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"m{suffix}"
        path.write_bytes(text.encode("utf-8"))
        lint = RUNNER.invoke(app, ["lint", str(path), "--format", "json"], env=ENV, catch_exceptions=False)
        rep = RUNNER.invoke(app, ["report", str(path), "--format", "json"], env=ENV, catch_exceptions=False)
        found = sorted((f["code"], f["line"], f["column"], f["message"]) for f in json.loads(lint.stdout))
        if rep.exit_code == 2:  # no record at all: lint found none either
            assert all(f["record"] is None for f in json.loads(lint.stdout))
            return
        matches = json.loads(rep.stdout)["matches"]
        shown = sorted((d["code"], d["line"], d["column"], d["message"])
                       for m in matches for d in m["diagnostics"])
        assert shown == found
        records = [m for m in matches if m["record"] is not None]
        assert [m["record"] for m in records] == list(range(1, len(records) + 1))
        by_record = {f["record"] for f in json.loads(lint.stdout) if f["record"] is not None}
        assert by_record <= {m["record"] for m in records}
        summary = RUNNER.invoke(app, ["lint", str(path)], env=ENV, catch_exceptions=False).stdout
        assert f"({len(records)} record" in summary.splitlines()[-1]
