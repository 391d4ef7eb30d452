"""Inputs that were internal errors (SJ901) become positioned diagnostics
(issue 35): one row per input found by hand or by the fuzzers
(tests/fuzz/test_readers_fuzz.py), run through every command that met it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import ENV
from typer.testing import CliRunner

from analyzer.cli import app

ROOT = Path(__file__).resolve().parents[2]
IMPORTS = ROOT / "tests" / "importers" / "fixtures"
RUNNER = CliRunner()


def sur_json() -> str:
    text = RUNNER.invoke(app, ["convert", str(ROOT / "samples" / "matches" / "standard.sjn"), "--to", "json"],
                         env=ENV).stdout
    return text.replace('"Generated match"', '"a \\ud800 b"', 1)


def fen80_cut_in_cards() -> str:
    text = (IMPORTS / "80fen" / "deal_v2.json").read_text(encoding="utf-8")
    at = [i for i in range(len(text)) if text.startswith('"cards"', i)][40]
    return text[:at + 12]


def fen80_play_without_cards() -> str:
    data = json.loads((IMPORTS / "80fen" / "deal_v2.json").read_text(encoding="utf-8"))
    next(e for e in data["events"] if e.get("type") == "play")["cards"] = []
    return json.dumps(data, indent=1)


def fly_play_without_cards() -> str:
    lines = (IMPORTS / "fly" / "room_QZXW.jsonl").read_text(encoding="utf-8").split("\n")
    k = next(i for i, line in enumerate(lines) if '"e": "play"' in line)
    lines[k] = lines[k].replace('"cards": ["LJ"]', '"cards": []')
    return "\n".join(lines)


def fen80_trump_suit_a_list() -> str:
    data = json.loads((IMPORTS / "80fen" / "deal_v2.json").read_text(encoding="utf-8"))
    data["trump"]["suit"] = []
    return json.dumps(data, indent=1)


def fen80_trump_set_suit_a_list() -> str:
    data = json.loads((IMPORTS / "80fen" / "deal_v2.json").read_text(encoding="utf-8"))
    next(e for e in data["events"] if e.get("type") == "trump_set")["trump"]["suit"] = []
    return json.dumps(data, indent=1)


def gjn_opening_with_a_brace() -> str:
    return "{" + (ROOT / "samples" / "matches" / "gouji.gjn").read_text(encoding="utf-8")


def gjn_json_with_a_lone_surrogate() -> str:
    text = RUNNER.invoke(app, ["convert", str(ROOT / "samples" / "matches" / "gouji.gjn"), "--to", "json"],
                         env=ENV).stdout
    return text.replace('"gouji"', '"gouji \\udc00"', 2)


def long_number(path: Path, before: str):
    """``path``'s text with 4,500 nines put before the first digit of the first ``before``."""
    def make() -> str:
        text = path.read_text(encoding="utf-8")
        at = text.index(before) + next(i for i, c in enumerate(before) if c.isdigit())
        return text[:at] + "9" * 4_500 + text[at:]
    return make


LOGS = ROOT / "tests" / "cli" / "fixtures" / "logs"
#: found by bench/hostile_sweep.py (thirteenth session, chat.txt; then every importer): a
#: number past Python's 4,300 digits for int() in a log
LONG_NUMBERS = [
    ("chat-long-number", "chat.txt", long_number(LOGS / "chat.txt", "20 points"),
     "SJ705 a number of 4,502 digits; a line holding a number longer than 4,000 digits is not read",
     "shengji-io-chat"),
    ("fly-long-number", "room.jsonl", long_number(LOGS / "room.jsonl", '1, "'), "more than 4,000 digits", "fly"),
    ("botzone-long-number", "b.json", long_number(LOGS / "botzone.json", "1"), "more than 4,000 digits", "botzone"),
    ("80fen-long-number", "d.json", long_number(IMPORTS / "80fen" / "deal_v2.json", "2"), "more than 4,000 digits",
     "80fen-v2"),
    ("godot-long-number", "game_log.json", long_number(IMPORTS / "godot" / "game_log.json", '": 3'),
     "more than 4,000 digits", "shengji-godot"),
]

def sjn_tag_value_then_u001d() -> str:
    """A tag whose value is followed by U+001D (a character ``str.split`` splits at), unclosed."""
    text = (ROOT / "samples" / "docs" / "clean.sjn").read_text(encoding="utf-8")
    return '[Seed "12"\x1d\n' + text


#: (name, file name, text, the diagnostic expected on stderr (a substring), commands)
CASES = [
    # found by bench/fuzz_atheris.py sjn-review (thirteenth session): IndexError in the tag's message
    ("sjn-tag-value-then-u001d", "t.sjn", sjn_tag_value_then_u001d,
     "SJ105 unexpected `\\x1d` after the value of tag `Seed`",
     [["lint", "{f}"], ["replay", "{f}"], ["report", "{f}"], ["fmt", "--check", "{f}"]]),
    # found by tests/fuzz (gjn): a .gjn file whose text looks like JSON went to json.loads
    ("gjn-opening-with-a-brace", "g.gjn", gjn_opening_with_a_brace, "g.gjn:1:1: SJ103 `{` opens a commentary",
     [["replay", "{f}"], ["report", "{f}"], ["lint", "{f}"]]),
    ("gjn-json-lone-surrogate", "g.json", gjn_json_with_a_lone_surrogate, "SJ107",
     [["replay", "{f}"], ["report", "{f}"], ["lint", "{f}"], ["convert", "{f}", "--to", "gjn"]]),
    ("lone-surrogate-json", "sur.json", sur_json, "SJ107 not valid JSON text: `\\ud800`",
     [["report", "{f}"], ["convert", "{f}", "--to", "sjn"], ["annotate", "{f}", "--endgame", "0"],
      ["lint", "{f}"], ["replay", "{f}"]]),
    ("80fen-cut-inside-a-plays-cards", "cut.json", fen80_cut_in_cards, "SJ705 a play with no cards",
     [["import", "auto", "{f}"], ["annotate", "{f}", "--endgame", "0"]]),
    ("80fen-play-without-cards", "p.json", fen80_play_without_cards, "SJ705 a play with no cards",
     [["import", "auto", "{f}"], ["annotate", "{f}", "--endgame", "0"], ["lint", "{f}"]]),
    # found by tests/fuzz (log:80fen-v2, a JSON value put anywhere): a list where a suit goes
    ("80fen-trump-suit-a-list", "t.json", fen80_trump_suit_a_list, "SJ705 trump suit [] is not S, H, D, C",
     [["import", "auto", "{f}"], ["annotate", "{f}", "--endgame", "0"], ["lint", "{f}"]]),
    ("80fen-trump-set-suit-a-list", "t.json", fen80_trump_set_suit_a_list,
     "SJ705 trump_set differs from the replay's trump", [["import", "auto", "{f}"], ["lint", "{f}"]]),
    ("fly-play-without-cards", "room.jsonl", fly_play_without_cards, "SJ705 a play with no cards",
     [["import", "auto", "{f}"], ["annotate", "{f}", "--endgame", "0"], ["lint", "{f}"]]),
] + [(name, fname, make, expected, [["import", fmt, "{f}"], ["report", "{f}"], ["lint", "{f}"]])
     for name, fname, make, expected, fmt in LONG_NUMBERS]


@pytest.mark.parametrize("name, filename, make, expected, commands", CASES, ids=[c[0] for c in CASES])
def test_was_sj901_now_a_positioned_diagnostic(tmp_path, name, filename, make, expected, commands):
    path = tmp_path / filename
    path.write_text(make(), encoding="utf-8")
    seen = False
    for args in commands:
        r = RUNNER.invoke(app, [a.replace("{f}", str(path)) for a in args], env=ENV, catch_exceptions=False)
        out = r.stdout + r.stderr
        assert "SJ901" not in out and "Traceback" not in out, (args, out[-1500:])
        assert r.exit_code in (0, 1, 2), (args, r.exit_code)
        seen = seen or expected in out
    assert seen, f"{expected!r} in no command's output"


def test_a_lone_surrogate_is_located_and_a_pair_is_text():
    from notation.detect import lone_surrogate
    assert lone_surrogate('{"a": "\\ud800"}') == 7
    assert lone_surrogate('{"a": "\\udc00x"}') == 7
    assert lone_surrogate('{"a": "\\ud83d\\ude00"}') is None  # a pair: one character
    assert lone_surrogate('{"a": "\\\\ud800"}') is None  # an escaped backslash, then text
    assert lone_surrogate('{"a": "\\ud83d\\\\ude00"}') == 7


@pytest.mark.parametrize("args", [["lint", "{f}"], ["lint", "{f}", "--format", "json"], ["report", "{f}"],
                                  ["replay", "{f}"], ["fmt", "{f}"]])
def test_out_of_memory_while_reading_is_exit_2_not_sj901(tmp_path, monkeypatch, args):
    """MemoryError anywhere in the reader is the documented out-of-memory exit 2."""
    import notation._records as records
    path = tmp_path / "m.sjn"
    path.write_text((ROOT / "samples" / "matches" / "standard.sjn").read_text(encoding="utf-8"), encoding="utf-8")

    def boom(*a, **k):
        raise MemoryError
        yield  # a generator, like the one it replaces

    monkeypatch.setattr(records, "_split_records", boom)
    r = RUNNER.invoke(app, [a.replace("{f}", str(path)) for a in args], env=ENV, catch_exceptions=False)
    out = r.stdout + r.stderr
    assert "SJ901" not in out, out[-1500:]
    assert "out of memory" in out and r.exit_code == 2, (r.exit_code, out[-500:])


def test_bytes_not_utf8_just_after_a_cut_of_a_split_file(tmp_path):
    """Found by tests/store/test_unreadable_inputs.py (fourteenth session): a file big enough
    to be cut into chunks (``lint -j``, ``export``) whose record after a cut point has bytes
    that are not UTF-8 on its second line: the splitter got the record it held back and
    indexed past its offsets (IndexError: SJ901). Now no cut is made there, and the file is
    reported as not UTF-8, as a small one is."""
    pytest.importorskip("pyarrow")
    one = (ROOT / "samples" / "matches" / "standard.sjn").read_bytes().rstrip(b"\n") + b"\n\n"
    bad = one.replace(b"[Event", b'[Event "\xff"]\n[Event', 1)
    assert bad != one
    path = tmp_path / "big.sjn"
    n = (1024 * 1024) // len(one) + 1
    path.write_bytes(one * n + bad * n)                   # each range's first record after a cut is bad
    for args in (["lint", "--no-cache", "-j", "2", "--no-progress", "{f}"],
                 ["export", "--to", "parquet", str(tmp_path / "st"), "-j", "2", "--no-progress", "{f}"]):
        r = RUNNER.invoke(app, [a.replace("{f}", str(path)) for a in args], env=ENV, catch_exceptions=False)
        out = r.stdout + r.stderr
        assert "SJ901" not in out and "Traceback" not in out, (args, out[-1500:])
        assert r.exit_code == 2 and "not UTF-8 text" in out, (args, r.exit_code, out[-1500:])
