"""Everything a record carries is inert text in every output (issue 35,
docs/security.md): a player's name that is Rich markup (``[/b]``, a
``[link=…]``) or carries ESC/OSC sequences, C1 controls or bidirectional
overrides never styles, retitles or hyperlinks a terminal, and never is an
internal error (SJ901)."""

from __future__ import annotations

import pytest
from cli_helpers import FIXTURES

from analyzer.io import outputs, safetext
from notation.reader import escape_controls

CLEAN = (FIXTURES / "clean.sjn").read_text(encoding="utf-8")
GOUJI = (FIXTURES.parents[2] / "samples" / "matches" / "gouji.gjn").read_text(encoding="utf-8")

#: (tag, value): markup, a hyperlink, an OSC retitle + CSI colour, C1 CSI, a bidi override
HOSTILE = {
    "North": "[/b]",
    "South": "[link=https://evil.example]click[/link]",
    "East": "\x1b]0;PWNED\x07\x1b[31mred",
    "West": "\x9b31mc1 \u202eevil\u202c",
    "Event": "[bold]ev\x1b[2Jent",
}
RAW = ("\x1b", "\x9b", "\u202e", "\x07")


def hostile_sjn() -> str:
    head, rest = CLEAN.split("\n", 1)
    tags = "".join(f'[{k} "{v}"]\n' for k, v in HOSTILE.items())
    return head + "\n" + tags + rest


@pytest.fixture
def hostile(tmp_path):
    p = tmp_path / "hostile.sjn"
    p.write_text(hostile_sjn(), encoding="utf-8")
    return p


def _check(result) -> None:
    out = result.stdout + result.stderr
    assert "SJ901" not in out, out[-2000:]
    assert "Traceback" not in out
    for ch in RAW:
        assert ch not in out, (repr(ch), out[-2000:])


@pytest.mark.parametrize("args", [
    ["replay", "{f}"], ["replay", "{f}", "--hand", "1"], ["report", "{f}"],
    ["lint", "{f}"],
])
def test_terminal_outputs_show_a_records_text_inert(run, hostile, args):
    r = run(*[a.replace("{f}", str(hostile)) for a in args], code=None)
    assert r.exit_code in (0, 1), r.stderr
    _check(r)
    if args[0] in ("replay", "report") and "--format" not in args:
        assert "\\x1b]0;PWNED\\x07" in r.stdout  # escaped visibly, not dropped
    if args[0] == "replay":
        assert "[/b]" in r.stdout and "[link=https://evil.example]click[/link]" in r.stdout  # shown, literally


@pytest.mark.parametrize("args", [
    ["fmt", "{f}"], ["annotate", "{f}", "--endgame", "0"], ["convert", "{f}", "--to", "json"],
    ["convert", "{f}", "--to", "sjn"], ["report", "{f}", "--format", "md"], ["report", "{f}", "--format", "json"],
])
def test_sjn_and_json_shown_on_a_terminal_are_escaped(run, hostile, args, monkeypatch):
    monkeypatch.setattr(safetext, "is_terminal", lambda stream: True)
    monkeypatch.setattr(outputs, "_is_terminal", lambda stream: True)   # (outputs asks before importing safetext)
    r = run(*[a.replace("{f}", str(hostile)) for a in args], code=None)
    assert r.exit_code in (0, 1), r.stderr
    _check(r)


def test_sjn_written_to_a_file_keeps_the_records_text(run, hostile, tmp_path):
    out = tmp_path / "out.sjn"
    run("fmt", str(hostile), code=None)
    run("convert", str(hostile), "--to", "sjn", "-o", str(out))
    assert "\x1b]0;PWNED\x07" in out.read_text(encoding="utf-8")  # the data is not changed


def test_a_gouji_player_name_is_inert_in_replay_and_report(run, tmp_path):
    text = (FIXTURES.parent.parent.parent / "samples" / "matches" / "gouji.gjn").read_text(encoding="utf-8")
    head, rest = text.split("\n", 1)
    p = tmp_path / "hostile.gjn"
    p.write_text(head + '\n[P1 "[/b]\x1b]0;PWNED\x07"]\n[Event "[bold]x\u202e"]\n' + rest, encoding="utf-8")
    for args in (["replay", str(p)], ["report", str(p)]):
        r = run(*args, code=None)
        assert r.exit_code in (0, 1), r.stderr
        _check(r)


@pytest.mark.parametrize("raw, shown", [
    ("\x1b[31m", "\\x1b[31m"), ("\x9b", "\\x9b"), ("a\u202eb", "a\\u202eb"), ("\u2066x\u2069", "\\u2066x\\u2069"),
    ("\x00\x7f", "\\x00\\x7f"), ("tab\tand\nline", "tab\tand\nline"), ("\u2028", "\\u2028"), ("中文 ♠", "中文 ♠"),
])
def test_escape_controls_is_the_one_function(raw, shown):
    assert escape_controls(raw) == shown
    assert safetext.inert(raw) == shown
    assert escape_controls(shown) == shown  # idempotent



@pytest.mark.parametrize("token", ["\x1b]0;PWNED\x07", "\x1b[31mred", "\x9b31m", "\u202eevil"])
@pytest.mark.parametrize("fmt", ["github", "text"])
@pytest.mark.parametrize("suffix", [".sjn", ".gjn"])
def test_lint_quotes_a_bad_line_inert_in_every_terminal_format(run, tmp_path, token, fmt, suffix):
    # found by bench/hostile_sweep.py (twelfth session): `-f github` wrote the quoted line raw
    # (a GJN line starting with ESC; a bidi override in either), and an Actions log renders them
    p = tmp_path / f"bad{suffix}"
    p.write_text((CLEAN if suffix == ".sjn" else GOUJI) + f"\n{token} junk\n", encoding="utf-8")
    r = run("lint", "--no-cache", "-f", fmt, str(p), code=1)
    _check(r)
    assert escape_controls(token)[:4] in r.stdout, r.stdout


@pytest.mark.parametrize(("args", "stdout_too"), [
    (["replay", "{f}"], True), (["report", "{f}"], True), (["report", "-f", "json", "{f}"], False),
    (["convert", "{f}", "--to", "json"], False), (["annotate", "{f}", "--endgame", "0"], False),
    (["lint", "{f}"], True), (["replay", "{g}"], True), (["report", "{g}"], True),
])
def test_a_file_name_is_shown_inert(run, tmp_path, args, stdout_too):
    # found by bench/hostile_sweep.py (twelfth session): a file named with ESC/OSC (a directory of
    # uploads) reached the terminal raw in replay's record titles and in "shengji: error: FILE: …"
    name = "x\x1b]0;PWNED\x07\x9b31m\u202e"
    sjn = tmp_path / f"{name}.sjn"
    sjn.write_text((FIXTURES / "errors.sjn").read_text(encoding="utf-8"), encoding="utf-8")
    gjn = tmp_path / f"{name}.gjn"
    gjn.write_text(GOUJI + "junk\n", encoding="utf-8")
    r = run(*[a.replace("{f}", str(sjn)).replace("{g}", str(gjn)) for a in args], code=None)
    assert r.exit_code in (1, 2), r.stderr
    out = (r.stdout if stdout_too else "") + r.stderr
    assert "SJ901" not in out and "Traceback" not in out
    for ch in RAW:
        assert ch not in out, (repr(ch), out[-2000:])
    assert "x\\x1b]0;PWNED\\x07" in out, out[-2000:]
