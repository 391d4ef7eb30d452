"""Nothing lost, nothing misread (issue 14): atomic writes, no output over an
input, one-line failures (never a traceback), one reader for every command."""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import ENV, FIXTURES

import analyzer.io.atomic as atomic
from analyzer.io.atomic import atomic_write, atomic_writer, same_file

ROOT = Path(__file__).resolve().parents[2]
RAW_CLEAN = (FIXTURES / "clean.sjn").read_text(encoding="utf-8")
#: clean.sjn in canonical form (what fmt writes)
CLEAN = __import__("notation").write(__import__("notation").parse(RAW_CLEAN)[0])
MATCH = (FIXTURES / "match.sjn").read_text(encoding="utf-8")


def no_traceback(result) -> None:
    out = result.stdout + result.stderr
    assert "Traceback" not in out and 'File "' not in out, out[-2000:]


# -- atomic writes ---------------------------------------------------------------------------

class _Failing:
    """A file whose writes fail with ``err`` once ``limit`` characters are written."""

    def __init__(self, f, err: int, limit: int) -> None:
        self._f, self._err, self._left = f, err, limit

    def write(self, text):
        if len(text) > self._left:
            self._f.write(text[: self._left])
            self._left = 0
            raise OSError(self._err, os.strerror(self._err))
        self._left -= len(text)
        return self._f.write(text)

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        self._f.__enter__()
        return self

    def __exit__(self, *exc):
        return self._f.__exit__(*exc)


@pytest.fixture(params=[errno.ENOSPC, errno.EFBIG], ids=["ENOSPC", "EFBIG"])
def failing_disk(request, monkeypatch):
    """Every atomic write fails with ENOSPC / EFBIG after 100 characters."""
    real = os.fdopen

    def fdopen(fd, *args, **kwargs):
        return _Failing(real(fd, *args, **kwargs), request.param, 100)

    monkeypatch.setattr(atomic.os, "fdopen", fdopen)
    return request.param


def test_atomic_writer_keeps_the_old_file_on_failure(tmp_path, failing_disk):
    target = tmp_path / "a.txt"
    target.write_bytes(b"old bytes")
    with pytest.raises(OSError) as info:
        atomic_write(target, "new text " * 100)
    assert info.value.errno == failing_disk
    assert target.read_bytes() == b"old bytes"
    assert os.listdir(tmp_path) == ["a.txt"]  # the temporary file is gone


def test_atomic_writer_replaces_and_keeps_the_mode(tmp_path):
    target = tmp_path / "a.txt"
    target.write_text("old")
    target.chmod(0o640)
    with atomic_writer(target) as f:
        f.write("new\n")
        assert target.read_text() == "old"  # not replaced before the block ends
    assert target.read_text() == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640
    with pytest.raises(RuntimeError):
        with atomic_writer(target) as f:
            f.write("half")
            raise RuntimeError("stop")
    assert target.read_text() == "new\n"
    assert os.listdir(tmp_path) == ["a.txt"]


def _writers(work: Path) -> list[tuple[list[str], Path]]:
    """Every command that writes a file, with the file it overwrites."""
    (work / "log.txt").write_text((FIXTURES / "logs" / "chat.txt").read_text(encoding="utf-8"))
    messy = work / "messy.sjn"
    messy.write_text(CLEAN.replace("1. S:", "1.   S:"))
    return [
        (["fmt", "--write", "messy.sjn"], messy),
        (["convert", "clean.sjn", "--to", "json", "-o", "out.txt", "--force"], work / "out.txt"),
        (["report", "clean.sjn", "--format", "md", "-o", "out.txt", "--force"], work / "out.txt"),
        (["report", "clean.sjn", "-o", "out.txt", "--force"], work / "out.txt"),
        (["annotate", "clean.sjn", "--endgame", "0", "-o", "out.txt", "--force"], work / "out.txt"),
        (["import", "auto", "log.txt", "-o", "out.txt", "--force"], work / "out.txt"),
        (["generate", "--seed", "1", "-o", "out.txt", "--force"], work / "out.txt"),
    ]


def test_every_writer_keeps_the_old_file_when_the_disk_fails(run_in, work, failing_disk):
    for args, target in _writers(work):
        if not target.exists():
            target.write_text("the user's old bytes\n")
        before = target.read_bytes()
        r = run_in(*args, code=2)
        no_traceback(r)
        last = r.stderr.strip().splitlines()[-1]
        assert last == f"shengji: error: cannot write {target.name}: {os.strerror(failing_disk)}", (args, r.stderr)
        assert r.stderr.count("error:") == 1, r.stderr
        assert target.read_bytes() == before, args
        assert not [p for p in os.listdir(work) if p.endswith(atomic.TEMP_SUFFIX)], args


def test_every_writer_writes_when_the_disk_is_fine(run_in, work):
    for args, target in _writers(work):
        if not target.exists():
            target.write_text("old\n")
        before = target.read_bytes()
        r = run_in(*args, code=None)
        assert r.exit_code in (0, 1), (args, r.stderr)
        assert target.read_bytes() != before, args


def test_sigkill_during_fmt_write_leaves_the_file_whole(tmp_path):
    """A process killed while fmt --write writes: the file has its old bytes (or,
    had the rename happened, all of the new ones), never a part."""
    big = tmp_path / "big.sjn"
    text = CLEAN.replace("1. S:", "1.   S:")
    big.write_text("\n".join([text] * 3000), encoding="utf-8")
    before = big.read_bytes()
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "fmt", "--write", str(big)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    seen_temp = False
    while time.monotonic() < deadline and proc.poll() is None:
        if any(p.endswith(atomic.TEMP_SUFFIX) for p in os.listdir(tmp_path)):
            seen_temp = True
            time.sleep(0.05)
            break
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    after = big.read_bytes()
    if after != before:  # the rename was done before the kill: then the text is whole
        assert after.decode("utf-8") == "\n".join([CLEAN] * 3000)
        assert not seen_temp or proc.returncode != -signal.SIGKILL
    else:
        assert seen_temp or proc.returncode != -signal.SIGKILL


# -- outputs that are inputs ------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["report", "match.sjn", "-o", "match.sjn", "--force"],
    ["convert", "match.sjn", "--to", "sjn", "-o", "match.sjn", "--force"],
    ["annotate", "match.sjn", "-o", "match.sjn", "--force"],
    ["import", "auto", "logs/chat.txt", "-o", "logs/chat.txt", "--force"],
    ["report", "match.sjn", "-o", "alias.sjn", "--force"],        # a hard link to the input
    ["report", "match.sjn", "-o", "./sub/../match.sjn", "--force"],
])
def test_an_output_that_is_an_input_is_refused_even_with_force(run_in, work, args):
    (work / "sub").mkdir()
    os.link(work / "match.sjn", work / "alias.sjn")
    before = (work / "match.sjn").read_bytes(), (work / "logs" / "chat.txt").read_bytes()
    r = run_in(*args, code=2)
    assert "refusing to overwrite" in r.stderr and r.stdout == ""
    assert ((work / "match.sjn").read_bytes(), (work / "logs" / "chat.txt").read_bytes()) == before
    assert same_file(work / "alias.sjn", work / "match.sjn")


def test_fmt_write_is_the_one_in_place_writer(run_in, work):
    messy = work / "messy.sjn"
    messy.write_text(CLEAN.replace("1. S:", "1.   S:"))
    r = run_in("fmt", "--write", "messy.sjn")
    assert messy.read_text() == CLEAN and "reformatted messy.sjn" in r.stderr


# -- failures as one line ---------------------------------------------------------------------

def _shell(cmd: str, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    return subprocess.run(["bash", "-c", cmd], cwd=FIXTURES, env=env, capture_output=True, text=True,
                          timeout=120, **kw)


def test_dev_full_is_one_line_and_exit_2_and_a_closed_pipe_is_quiet():
    py = f"'{sys.executable}' -m analyzer"
    for cmd in (f"{py} lint clean.sjn > /dev/full", f"{py} report match.sjn --format md > /dev/full",
                f"{py} rules > /dev/full", f"{py} lint nope.sjn 2> /dev/full > /dev/full"):
        r = _shell(cmd)
        assert r.returncode == 2, (cmd, r.stderr)
        assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
        assert len(r.stderr.splitlines()) <= 1, r.stderr
    big = Path(os.environ.get("TMPDIR", "/tmp")) / f"shengji-pipe-{os.getpid()}.sjn"
    big.write_text("\n".join([MATCH] * 40), encoding="utf-8")
    try:
        r = _shell(f"{py} report '{big}' --format json | head -c 10 > /dev/null; exit ${{PIPESTATUS[0]}}")
    finally:
        big.unlink()
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    # a closed pipe is no failure: the reader had what it wanted (issue 28)
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert r.stderr == ""


@pytest.mark.parametrize("exc, says", [
    (OSError(errno.EIO, "Input/output error"), "Input/output error"),
    (RecursionError("maximum recursion depth exceeded"), "nested too deeply"),
    (MemoryError(), "out of memory"),
    (RuntimeError("a bug"), "SJ901 internal error (RuntimeError: a bug)"),
    (KeyError("x"), "SJ901 internal error"),
])
def test_any_failure_is_one_line_exit_2(run, monkeypatch, exc, says):
    import replay.game

    def boom(*a, **k):
        raise exc

    monkeypatch.setattr(replay.game, "replay", boom)
    for args in (["replay", "clean.sjn"], ["report", "clean.sjn"], ["annotate", "clean.sjn"]):
        r = run(*args, code=2)
        assert says in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
        no_traceback(r)
        if "SJ901" in says:
            assert "please report" in r.stderr


def test_an_engine_bug_in_lint_is_sj901_on_the_record(run, monkeypatch):
    import replay.game
    monkeypatch.setattr(replay.game, "replay", lambda *a, **k: 1 / 0)
    r = run("lint", "clean.sjn", code=1)
    assert r.stdout.startswith("clean.sjn:1:1: SJ901 internal error while checking this record "
                               "(ZeroDivisionError: division by zero)")
    assert "please report" in r.stdout


def test_a_reader_bug_is_sj901_not_a_syntax_code(monkeypatch):
    from notation import parse, reader

    def boom(*a):
        raise ValueError("oops")
    monkeypatch.setattr(reader, "_assemble", boom)
    _, diags = parse(CLEAN)
    assert [d.code for d in diags] == ["SJ901"] and "please report" in diags[0].message


# -- one reader ---------------------------------------------------------------------------------

def test_lint_reads_the_tools_own_json(run_in, work):
    run_in("convert", "match.sjn", "--to", "json", "-o", "m.json")
    for name in ("m.json", "m.txt"):
        (work / name).write_text((work / "m.json").read_text())
        assert run_in("lint", name).stdout == "All checks passed (1 record).\n"
        assert run_in("report", name, "--format", "json").stdout.count('"record": 1') == 1
        assert run_in("replay", name).stdout.startswith("Hand 1")
    r = run_in("lint", "-", input=(work / "m.json").read_text())
    assert r.stdout == "All checks passed (1 record).\n"


def test_json_that_is_not_a_record_fails_lint(run_in, work):
    """JSON that holds no record key is not read as a record (pydantic's words for
    every key): its format cannot be told, as `import auto` says (issue 28)."""
    (work / "foo.json").write_text('{"foo":[1,2,3]}\n')
    r = run_in("lint", "foo.json", code=2)
    assert "foo.json: the format cannot be told" in r.stderr and "Extra inputs" not in r.stdout
    (work / "bar.json").write_text('{"tags": [], "foo": 1}\n')   # a record's key: read as a record
    r = run_in("lint", "bar.json", code=1)
    assert r.stdout.startswith("bar.json:1:1: SJ107 foo: Extra inputs are not permitted")
    (work / "empty.json").write_text("{}")
    assert "holds no record" in run_in("lint", "empty.json", code=1).stdout


def test_json_without_spans_unless_asked(run):
    plain = run("convert", "clean.sjn", "--to", "json").stdout
    assert '"span"' not in plain and "_span" not in plain
    assert '"span"' in run("convert", "clean.sjn", "--to", "json", "--spans").stdout
    two = run("convert", "-", "--to", "json", input=RAW_CLEAN + "\n" + RAW_CLEAN).stdout
    assert json.loads(two)[1] == json.loads(plain)


GOUJI = sorted((ROOT / "samples" / "matches").glob("*.gjn"))


@pytest.mark.skipif(not GOUJI, reason="no Gouji sample")
@pytest.mark.parametrize("name", ["g.gjn", "g.sjn", "g.txt"])
def test_gouji_is_read_as_gouji_by_every_command(run_in, work, name):
    """A `.gjn` file, or any file whose tags say `[Game "gouji"]`, goes to the GJN
    reader in every command (never a pile of SJN syntax errors)."""
    text = GOUJI[0].read_text(encoding="utf-8")
    if not name.endswith(".gjn") and '[Game "gouji"]' not in text:
        text = '[Game "gouji"]\n' + text
    (work / name).write_text(text)
    for args in (["lint", name], ["report", name], ["replay", name], ["convert", name, "--to", "json"],
                 ["fmt", "--check", name]):
        r = run_in(*args, code=None)
        out = r.stdout + r.stderr
        assert r.exit_code in (0, 1), (args, out[-500:])
        assert "SJ101" not in out and "SJ104" not in out and "SJ902" not in out, (args, out[-500:])


def test_the_gjn_reader_plugs_in_at_one_place(monkeypatch):
    from notation import detect
    calls = []

    def gjn(source, *, start_line=1):
        calls.append(start_line)
        yield None, []
    monkeypatch.setitem(detect._READERS, "gjn", gjn)
    assert detect.detect('[Game "gouji"]\n', "x") == "gjn" and detect.detect("", "a.gjn") == "gjn"
    assert list(detect.read("x", "gjn")) == [(None, [])] and calls == [1]


@pytest.mark.parametrize("breaks", ["\r", "\r\n", "\n"])
def test_every_command_cuts_lines_as_the_reader(run_in, work, breaks):
    text = CLEAN.replace("\n", breaks).replace("1. S: H2", "1. S: H3", 1)
    (work / "x.sjn").write_bytes(text.encode())
    lint = run_in("lint", "x.sjn", "--format", "json", code=1).stdout
    found = [(f["code"], f["line"], f["column"]) for f in json.loads(lint)]
    assert found[0] == ("SJ203", 19, 4)
    rep = json.loads(run_in("report", "x.sjn", "--format", "json").stdout)
    assert [(d["code"], d["line"], d["column"]) for d in rep["matches"][0]["diagnostics"]] == found


def test_u2028_and_form_feed_do_not_cut_lines(run_in, work):
    text = CLEAN.replace("trump H", "trump H ; a remark\u2028with a line separator").replace(
        "2. E: C8", "2.\x0c E: C8")
    (work / "x.sjn").write_text(text)
    rep = json.loads(run_in("report", "x.sjn", "--format", "json", code=None).stdout)
    lint = run_in("lint", "x.sjn", "--format", "json", code=None).stdout
    assert [(d["code"], d["line"]) for m in rep["matches"] for d in m["diagnostics"]] == [
        (f["code"], f["line"]) for f in json.loads(lint)]
    assert len(rep["matches"]) == 1


# -- messages -----------------------------------------------------------------------------------

def test_one_typo_mid_hand_is_one_finding(run_in, work):
    (work / "typo.sjn").write_text(CLEAN.replace("5. S: D4", "5. S D4"))
    r = run_in("lint", "typo.sjn", code=1)
    assert r.stdout == ("typo.sjn:23:4: SJ101 a seat that introduces cards is followed by a colon: write `S: D4`\n"
                        "Found 1 error in 1 file (1 record).\n")
    r = run_in("replay", "typo.sjn", code=1)  # what could be read is shown; a reading error: 1, as in lint
    assert "SJ101" in r.stderr
    assert re.search(r"^ ?6 ", r.stdout, re.M) and not re.search(r"^ ?5 ", r.stdout, re.M)  # written numbers


def test_lint_and_fmt_count_unread_files(run_in, work):
    (work / "bad.sjn").write_bytes(b"\xff\xfe[Event]\n")
    r = run_in("lint", "nosuch.sjn", "match.sjn", code=2)
    assert "All checks passed" not in r.stdout and "1 file could not be read" in r.stdout
    messy = work / "messy.sjn"
    messy.write_text(CLEAN.replace("1. S:", "1.   S:"))
    (work / "canon.sjn").write_text(CLEAN)
    r = run_in("fmt", "--check", "bad.sjn", "nosuch.sjn", "messy.sjn", "canon.sjn", code=2)
    assert "would reformat messy.sjn" in r.stderr
    assert r.stderr.splitlines()[-1] == ("1 file would be reformatted, 1 file would be left unchanged, "
                                         "2 files could not be read.")


def test_control_characters_are_escaped_and_blamed(run_in, work):
    (work / "nul.sjn").write_text(CLEAN.replace("levels NS 2 EW 2", "levels NS 2\0 EW 2"))
    r = run_in("lint", "nul.sjn", code=1)
    assert "\0" not in r.stdout
    assert "nul.sjn:10:12: SJ106 a control character (U+0000) is not SJN text: `2\\x00` is not a level" in r.stdout


def test_an_absurd_play_is_counted_not_listed(run_in, work):
    # 30,000 cards: a line under the 65,536-character limit (a longer one is not read: SJ101, tests/cli/test_limits.py)
    (work / "huge.sjn").write_text(CLEAN.replace("1. S: H2", "1. S: " + "SA" * 30_000, 1))
    r = run_in("lint", "huge.sjn", code=1)
    assert "S plays 30,000 cards in one play; the decks hold 54 and a hand 12" in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) < 300


def test_full_width_letters_and_digits_are_ascii(run_in, work):
    (work / "ime.sjn").write_text(CLEAN.replace("1. S: H2", "１. Ｓ: Ｈ２").replace("trump H", "trump Ｈ"))
    assert run_in("lint", "ime.sjn").stdout == "All checks passed (1 record).\n"
    assert run_in("fmt", "ime.sjn").stdout == CLEAN


def test_import_names_what_is_wrong_with_the_format(run_in, work):
    (work / "wrong.json").write_text('{"foo": 1}')
    r = run_in("import", "80fen-v2", "wrong.json", code=1)
    assert "None" not in r.stderr and "no `format` field" in r.stderr


def test_help_shows_plain_metavars(run):
    for cmd in ("lint", "replay", "report", "fmt", "convert", "rules", "generate", "annotate", "import"):
        out = run(cmd, "--help").stdout
        for python_type in ("<bool>", "<str>", "<int", "list[", "[["):
            assert python_type not in out, (cmd, python_type)
        usage = next(line for line in out.splitlines() if "Usage:" in line)
        assert "{" not in usage, usage
    assert re.search(r"--rules +PRESET ", run("lint", "--help").stdout)   # (the column's width follows the options)
