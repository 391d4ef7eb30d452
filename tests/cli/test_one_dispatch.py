"""Every command that reads records tells what an input is the same way (one
dispatch: ``analyzer.lint.input_kind``) and reads it once, through one reader
per game (issues 28 and 35).

Two directories are built from generated matches: a *mixed* one (Shengji and
Gouji records in SJN, GJN and JSON, with and without their suffixes, another
program's log, an HTML page) and a *hostile* one (a doubled byte-order mark, a
bad UTF-8 byte, truncated JSON, a U+2028 inside a tag value). Every command is
run over every file, and what they say is compared: the game, the number of
records, the exit status, the place of the first problem.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.cli import app

ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
ROOT = Path(__file__).resolve().parents[2]
FLY_LOG = ROOT / "tests" / "importers" / "fixtures" / "fly" / "room_QZXW.jsonl"


def shengji(cwd: Path, *args: str, input: str | None = None) -> tuple[int, str]:
    """Exit status and everything printed (stdout, then stderr)."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), input=input, env=ENV, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout + result.stderr


def generated(tmp: Path, rules: str, seed: int, name: str) -> str:
    code, out = shengji(tmp, "generate", "--rules", rules, "--seed", str(seed), "-o", name)
    assert code == 0, out
    return (tmp / name).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def texts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Two Shengji records (SJN and JSON) and two Gouji records (GJN and JSON)."""
    tmp = tmp_path_factory.mktemp("made")
    sjn = generated(tmp, "standard", 3, "a.sjn") + "\n" + generated(tmp, "standard", 4, "b.sjn")
    gjn = generated(tmp, "gouji", 1, "a.gjn") + "\n" + generated(tmp, "gouji", 2, "b.gjn")
    (tmp / "two.sjn").write_text(sjn, encoding="utf-8")
    (tmp / "two.gjn").write_text(gjn, encoding="utf-8")
    out = {"sjn": sjn, "gjn": gjn}
    for kind in ("sjn", "gjn"):
        code, printed = shengji(tmp, "convert", f"two.{kind}", "--to", "json", "-o", f"two-{kind}.json")
        assert code == 0, printed
        out[f"{kind}-json"] = (tmp / f"two-{kind}.json").read_text(encoding="utf-8")
    return out


#: file name → (game, records) every command must see
MIXED = {
    "shengji.sjn": ("shengji", 2), "shengji-no-suffix": ("shengji", 2), "shengji.json": ("shengji", 2),
    "shengji-json-no-suffix": ("shengji", 2), "gouji.gjn": ("gouji", 2), "gouji-no-suffix": ("gouji", 2),
    "gouji.json": ("gouji", 2), "gouji-json-no-suffix": ("gouji", 2), "gouji-tagged.sjn": ("gouji", 2),
    "room.jsonl": ("shengji", 1), "page.html": ("unknown", 0),
}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory, texts: dict[str, str]) -> Path:
    d = tmp_path_factory.mktemp("mixed")
    content = {"shengji.sjn": texts["sjn"], "shengji-no-suffix": texts["sjn"], "shengji.json": texts["sjn-json"],
               "shengji-json-no-suffix": texts["sjn-json"], "gouji.gjn": texts["gjn"],
               "gouji-no-suffix": texts["gjn"], "gouji.json": texts["gjn-json"],
               "gouji-json-no-suffix": texts["gjn-json"], "gouji-tagged.sjn": texts["gjn"],
               "room.jsonl": FLY_LOG.read_text(encoding="utf-8"),
               "page.html": "<!doctype html>\n<html><body>\n" + "<p>a game</p>\n" * 50 + "</body></html>\n"}
    for name, text in content.items():
        (d / name).write_text(text, encoding="utf-8")
    return d


def _count(pattern: str, out: str) -> int | None:
    m = re.search(pattern, out)
    return int(m.group(1)) if m else None


def seen_by(command: str, d: Path, name: str) -> tuple[str, int]:
    """(game, records) as ``command`` sees file ``name``: "unknown" when it says
    the format cannot be told."""
    if command == "lint":
        code, out = shengji(d, "lint", name)
        if "format cannot be told" in out:
            return "unknown", 0
        n = _count(r"\((\d+) records?\)", out)
        assert n is not None, out
        # lint does not name the game: a record read by the other game's reader is not clean
        return (MIXED[name][0] if code == 0 else f"misread ({out[:300]})"), n
    if command == "replay":
        code, out = shengji(d, "replay", name, "--record", "99")
        if "format cannot be told" in out:
            return "unknown", 0
        n = _count(r"has (\d+) record", out)
        assert code == 2 and n is not None, out
        code, out = shengji(d, "replay", name, "--record", "1")
        assert code == 0, out
        game = "gouji" if re.search(r"^Game 1\b", out, re.M) else "shengji" if re.search(r"^Hand 1\b", out, re.M) \
            else out[:200]
        return game, n
    if command == "convert":
        code, out = shengji(d, "convert", name, "--to", "json")
        if "format cannot be told" in out:
            return "unknown", 0
        assert code == 0, out
        data = json.loads(out)
        items = data if isinstance(data, list) else [data]
        return ("gouji" if all(i.get("game_type") == "gouji" for i in items) else "shengji"), len(items)
    if command == "report":
        code, out = shengji(d, "report", name, "-f", "json")
        if "format cannot be told" in out:
            return "unknown", 0
        assert code == 0, out
        data = json.loads(out)
        if data.get("game") == "gouji":
            return "gouji", len(data["matches"])
        return "shengji", sum(1 for m in data["matches"] if m.get("record") is not None)
    if command == "fmt":
        code, out = shengji(d, "fmt", name)
        if "format cannot be told" in out:
            return "unknown", 0
        if code != 0:  # fmt formats SJN and GJN only: it says what the file is instead
            assert "not formatted" in out, out
            if "Gouji" in out:
                return "gouji", MIXED[name][1]
            return "shengji", MIXED[name][1]
        from notation.detect import detect_text, read
        kind = detect_text(out)
        return ("gouji" if kind == "gjn" else "shengji"), sum(1 for r, _ in read(out, kind) if r is not None)
    if command == "annotate":
        code, out = shengji(d, "annotate", name, "--endgame", "0")
        if "format cannot be told" in out:
            return "unknown", 0
        if "Gouji" in out:
            assert code == 2, out
            return "gouji", MIXED[name][1]
        assert code == 0, out
        return "shengji", _count(r"in (\d+) records?", out) or 0
    if command == "export":
        pytest.importorskip("pyarrow")
        code, out = shengji(d, "export", "--to", "parquet", str(d.parent / f"store-{name}"), name)
        if "format cannot be told" in out:
            return "unknown", 0
        assert code == 0, out
        gouji = _count(r"(\d+) gouji_match(?:es)?\b", out)
        if gouji:           # read by Gouji's reader into Gouji's tables
            return "gouji", gouji
        return "shengji", _count(r"(\d+) records? from", out) or 0
    raise AssertionError(command)


COMMANDS = ("lint", "replay", "report", "fmt", "convert", "annotate", "export")


@pytest.mark.parametrize("name", sorted(MIXED))
def test_every_command_sees_the_same_thing(mixed: Path, name: str) -> None:
    seen = {command: seen_by(command, mixed, name) for command in COMMANDS}
    assert set(seen.values()) == {MIXED[name]}, seen


def test_the_one_rule(mixed: Path) -> None:
    """``input_kind`` is what every command asks; ``page.html`` is none of the notations."""
    from analyzer.lint import LintOptions, input_kind
    options = LintOptions().validate()
    got = {name: input_kind(str(mixed / name), options) for name in MIXED}
    assert got["gouji.json"] == got["gouji-json-no-suffix"] == ("gjn-json", None)
    assert got["shengji-no-suffix"] == ("sjn", None) and got["room.jsonl"] == ("log", "fly")
    assert got["page.html"] == ("unknown", None)


def test_lint_says_when_the_format_cannot_be_told(mixed: Path) -> None:
    """Not a flood of SJ101 (HTML read as SJN) nor pydantic's words (a JSON log read as a record)."""
    (mixed / "other.json").write_text(json.dumps({"appVersion": "3.1", "players": ["a", "b"]}, indent=2))
    for name in ("page.html", "other.json"):
        code, out = shengji(mixed, "lint", name)
        assert code == 2 and "the format cannot be told" in out and "SJ101" not in out, out
        assert "Extra inputs" not in out, out
    code, out = shengji(mixed, "import", "auto", "page.html")
    assert code == 2 and "cannot be told" in out


def test_the_project_s_own_gouji_json_lints_clean(mixed: Path) -> None:
    code, out = shengji(mixed, "lint", "gouji.json", "gouji-json-no-suffix")
    assert code == 0 and "All checks passed (4 records)" in out, out


# -- hostile inputs ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory, texts: dict[str, str]) -> Path:
    d = tmp_path_factory.mktemp("hostile")
    sjn, gjn, sjson = texts["sjn"], texts["gjn"], texts["sjn-json"]
    for name, text in {"bom2.sjn": sjn, "bom2.gjn": gjn, "bom2.json": sjson}.items():
        (d / name).write_bytes(b"\xef\xbb\xbf\xef\xbb\xbf" + text.encode())
    raw = sjn.encode()
    at = raw.index(b"\n", len(raw) // 3) + 4
    (d / "badbyte.sjn").write_bytes(raw[:at] + b"\xff" + raw[at:])
    raw = gjn.encode()
    at = raw.index(b"\n", len(raw) // 3) + 3
    (d / "badbyte.gjn").write_bytes(raw[:at] + b"\xfe" + raw[at:])
    cut = sjson.index("\n", len(sjson) // 2)
    (d / "trunc.json").write_text(sjson[:cut] + "\n", encoding="utf-8")
    gj = texts["gjn-json"]
    (d / "trunc-gouji.json").write_text(gj[:gj.index("\n", len(gj) // 2)] + "\n", encoding="utf-8")
    u2028 = '[Event "club\u2028night"]\n' + gjn
    for name in ("u2028.gjn", "u2028.sjn", "u2028-no-suffix"):
        (d / name).write_text(u2028, encoding="utf-8")
    return d


#: the commands compared on hostile files (export and annotate: their own tests; fmt refuses JSON)
HOSTILE_COMMANDS = (("lint",), ("replay",), ("report", "-f", "json"), ("convert", "--to", "json"))
_PLACE = re.compile(r":(\d+):(\d+): SJ\d|line (\d+), column (\d+)")


def _report_places(x: object) -> list[tuple[int, int]]:
    """The places of the diagnostics in ``report -f json``'s output."""
    if isinstance(x, dict):
        found = [(x["line"], x["column"])] if "code" in x and x.get("line") else []
        return found + [p for v in x.values() for p in _report_places(v)]
    if isinstance(x, list):
        return [p for v in x for p in _report_places(v)]
    return []


def _first_place(out: str) -> tuple[int, int] | None:
    if out.startswith("{"):  # report -f json (then its own line on stderr)
        try:
            places = _report_places(json.JSONDecoder().raw_decode(out)[0])
        except ValueError:
            places = []
        if places:
            return min(places)
    m = _PLACE.search(out)
    if m is None:
        return None
    line, col = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return int(line), int(col)


HOSTILE = {  # name → (exit status, (line, column) of the first problem or None) for every command
    "bom2.sjn": (0, None), "bom2.gjn": (0, None), "bom2.json": (0, None),
    "badbyte.sjn": (2, "bad byte"), "badbyte.gjn": (2, "bad byte"),
    "trunc.json": (1, "json"), "trunc-gouji.json": (1, "json"),
    "u2028.gjn": (0, None), "u2028.sjn": (0, None), "u2028-no-suffix": (0, None),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_command_reads_a_hostile_file_alike(hostile: Path, name: str) -> None:
    results = {args[0]: shengji(hostile, *args, name) for args in HOSTILE_COMMANDS}
    codes = {c: r[0] for c, r in results.items()}
    places = {c: _first_place(r[1]) for c, r in results.items()}
    code, place = HOSTILE[name]
    assert set(codes.values()) == {code}, (codes, results)
    assert len(set(places.values())) == 1, (places, results)
    if place is None:
        assert set(places.values()) == {None}
    else:
        assert None not in places.values(), results
    if place == "bad byte":
        raw = (hostile / name).read_bytes()
        bad = next(i for i, b in enumerate(raw) if b >= 0xF5 or b in (0xC0, 0xC1) or b == 0xFE)
        line = raw[:bad].count(b"\n") + 1
        column = bad - (raw.rfind(b"\n", 0, bad) + 1) + 1 if raw[raw.rfind(b"\n", 0, bad) + 1:bad].isascii() \
            else None
        assert places["lint"][0] == line and (column is None or places["lint"][1] == column), results["lint"]
        assert f"(byte {bad})" in results["lint"][1], results["lint"]


# -- read once ----------------------------------------------------------------------------------------

ERRORS = """[Event "e"]
[Rules "standard"]

hand 1
levels NS 2 EW 2
dealer N
N: SA SA
1. N: SA E: SK S: SQ W: SJ
"""


def _cli(*args: str, stdin: bytes | None = None, cwd: Path | None = None,
         pass_fds: tuple[int, ...] = ()) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, **ENV, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "analyzer", *args], input=stdin, capture_output=True,
                          env=env, cwd=cwd, timeout=120, pass_fds=pass_fds)


@pytest.mark.parametrize("args", [("lint",), ("replay",), ("report", "-f", "json"), ("convert", "--to", "json"),
                                  ("fmt",)])
def test_dev_stdin_and_a_process_substitution_are_read_once(tmp_path: Path, args: tuple[str, ...]) -> None:
    """``cat errors.sjn | shengji lint /dev/stdin`` and ``shengji lint <(cat errors.sjn)``
    see the record (3 errors), not an empty input left by a first read for detection."""
    (tmp_path / "errors.sjn").write_text(ERRORS)
    direct = _cli(*args, "errors.sjn", cwd=tmp_path)
    piped = _cli(*args, "/dev/stdin", stdin=ERRORS.encode(), cwd=tmp_path)
    dash = _cli(*args, "-", stdin=ERRORS.encode(), cwd=tmp_path)
    r, w = os.pipe()
    writer = threading.Thread(target=lambda: (os.write(w, ERRORS.encode()), os.close(w)))
    writer.start()
    try:
        substituted = _cli(*args, f"/dev/fd/{r}", cwd=tmp_path, pass_fds=(r,))
    finally:
        writer.join()
        os.close(r)
    for got in (piped, dash, substituted):
        assert got.returncode == direct.returncode, (got, direct)
        assert got.stdout.replace(b"/dev/stdin", b"X").replace(b"<stdin>", b"X").replace(b"-:", b"X:") \
            .count(b"SJ4") == direct.stdout.count(b"SJ4"), (got, direct)
    if args == ("lint",):
        assert b"(1 record)" in piped.stdout and direct.returncode == 1, piped


def test_a_fifo_is_read_once(tmp_path: Path) -> None:
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "w") as f:
            f.write(ERRORS)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        got = _cli("lint", str(fifo), cwd=tmp_path)
    finally:
        writer.join(timeout=10)
    assert got.returncode == 1 and b"(1 record)" in got.stdout, got


def test_a_file_that_changes_while_it_is_linted_is_reported(tmp_path: Path) -> None:
    """``lint -j2`` on a file cut short during the run: the file's error, never "All checks passed"."""
    from analyzer.lint import LintOptions, lint_paths
    path = tmp_path / "big.sjn"
    text = (ROOT / "samples" / "matches" / "standard.sjn").read_text(encoding="utf-8")
    path.write_text((text + "\n") * 4, encoding="utf-8")

    class Truncating:
        def start(self, total: int) -> None:
            with open(path, "r+b") as f:
                f.truncate(total // 2)

        def advance(self, n: int) -> None:
            pass

        def stop(self) -> None:
            pass

    report = lint_paths([str(path)], LintOptions(), jobs=2, progress=Truncating(), min_parallel_bytes=0,
                        split_bytes=1, chunk_bytes=4096)
    assert report.exit_code == 2, report.summary()
    assert "changed while it was read" in report.errors[0], report.errors


def test_a_source_that_changes_while_it_is_read_is_reported(tmp_path: Path) -> None:
    from analyzer.io.errors import UserError
    from analyzer.io.inputs import Source
    path = tmp_path / "m.sjn"
    path.write_text(ERRORS, encoding="utf-8")
    src = Source(str(path))
    assert [r for r, _ in src.records() if r is not None]
    path.write_text(ERRORS + "\n" + ERRORS, encoding="utf-8")
    with pytest.raises(UserError, match="changed while it was read"):
        src.check()
