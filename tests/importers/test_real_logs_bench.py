"""bench/real_logs.py: imports and lints every log under a directory; never stops at a file."""

import importlib.util
from pathlib import Path

from importer_testlib import FIXTURES

ROOT = Path(__file__).resolve().parents[2]


def load():
    spec = importlib.util.spec_from_file_location("real_logs", ROOT / "bench" / "real_logs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_table_over_own_fixtures_and_junk(tmp_path, capsys):
    (tmp_path / "bz").mkdir()
    (tmp_path / "bz" / "match.json").write_text((FIXTURES / "botzone" / "match_complete.json").read_text("utf-8"))
    (tmp_path / "chat.txt").write_text((FIXTURES / "chat" / "paste_ok.txt").read_text("utf-8"))
    (tmp_path / "five.txt").write_text("GAME: A played 3♠\nGAME: B played 4♠\nGAME: C played 5♠\n"
                                       "GAME: D played 6♠\nGAME: E played 7♠\nGAME: E wins the trick and gets 5 points\n")
    (tmp_path / "binary.bin").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "cut.json").write_text('{"log": [{"output": {"command": "request", "content": {"0": {"stage": "de')
    (tmp_path / "FORMAT.md").write_text("# not a log\n")
    assert load().main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in out.splitlines() if line.startswith("| ") and not line.startswith("| file")}
    assert rows["bz/match.json"][:2] == ["botzone", "1"] and int(rows["bz/match.json"][2]) >= 4 * 17
    assert rows["bz/match.json"][3:] == ["0", "0"]
    assert rows["chat.txt"][0] == "shengji-io-chat" and rows["chat.txt"][3] == "0"
    # a five-player table: a Finding Friends hand (one trick of five plays), incomplete (SJ503);
    # no bid and a winner any trump allows: the trump is unknown (SJ304)
    assert rows["five.txt"] == ["shengji-io-chat", "1", "5", "1", "1"]
    assert rows["binary.bin"][0] == "-" and rows["empty.json"][0] == "-"
    assert "FORMAT.md" not in rows and "1 documentation files skipped" in out


def test_not_a_directory(tmp_path, capsys):
    assert load().main([str(tmp_path / "nope")]) == 2
