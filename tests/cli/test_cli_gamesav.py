"""`shengji import game-sav` and `shengji export game-sav`: the 1997 Tractor game's
save file (seed 001: bytes 0–2 = NS level, EW level, dealer). The saves are built
byte by byte here; ``continued97.sjn`` is a generated tractor97 match (seed 4)
whose hands 2–3 start from ``levels NS 2 EW 4`` / ``dealer W``."""

import os

from notation import parse
from replay.game import replay

TAIL = bytes(range(256)) * 3                     # the rest of a save: kept byte for byte
START = bytes([0x02, 0x04, 0x04])                # NS 2, EW 4, dealer W: where continued97.sjn starts


def end_state(path):
    (record,), _ = parse(path.read_text(encoding="utf-8"))
    out = replay(record).hands[-1].outcome              # the engine's answer, not the test's
    return out.levels, out.next_dealer


# -- import ------------------------------------------------------------------------------------

def test_import_prints_the_start_of_a_record(run_in, work):
    (work / "GAME.SAV").write_bytes(bytes([0x0B, 0x12, 0x03]) + TAIL)
    r = run_in("import", "game-sav", "GAME.SAV")
    (record,), diags = parse(r.stdout)
    assert not diags and r.stderr == ""
    assert record.tag("Rules") == "tractor97" and "GAME.SAV" in record.header_comments[0]
    assert "levels NS J EW Joker\ndealer N\n" in r.stdout


def test_import_to_a_file_never_overwrites(run_in, work):
    (work / "GAME.SAV").write_bytes(START + TAIL)
    run_in("import", "game-sav", "GAME.SAV", "-o", "start.sjn")
    assert "levels NS 2 EW 4\ndealer W" in (work / "start.sjn").read_text(encoding="utf-8")
    assert run_in("import", "game-sav", "GAME.SAV", "-o", "start.sjn", code=2).stderr.count("exists") == 1
    run_in("import", "game-sav", "GAME.SAV", "-o", "start.sjn", "--force")
    assert [p.name for p in work.iterdir() if p.name.startswith(".start.sjn")] == []   # no temp file left


def test_import_bad_bytes_are_positioned_findings(run_in, work):
    (work / "BAD.SAV").write_bytes(bytes([0x0E, 0x05, 0x09]) + TAIL)
    r = run_in("import", "game-sav", "BAD.SAV", code=1)
    lines = r.stderr.splitlines()
    assert lines[0].startswith("BAD.SAV:1:1: SJ711 offset 0 (North–South's level) holds 0E; expected 01 (A)")
    assert lines[1].startswith("BAD.SAV:1:3: SJ712 offset 2 (the dealer) holds 09; expected 01 (South)")
    assert "Traceback" not in r.stderr
    (record,), _ = parse(r.stdout)
    assert record.hands[0].levels is None and record.hands[0].dealer is None


def test_import_short_file(run_in, work):
    (work / "SHORT.SAV").write_bytes(b"\x05")
    r = run_in("import", "game-sav", "SHORT.SAV", code=1)
    assert "SHORT.SAV:1:2: SJ710 the save file is 1 byte long" in r.stderr


def test_lint_from_game_sav_reads_bytes(run_in, work):
    (work / "BAD.SAV").write_bytes(bytes([0x02, 0x05, 0x00]) + b"\xff\xfe")      # not UTF-8
    r = run_in("lint", "--from", "game-sav", "BAD.SAV", code=1)
    assert "BAD.SAV:1:3: SJ712" in r.stdout


# -- export --------------------------------------------------------------------------------

def test_export_dry_run_shows_the_bytes_and_writes_nothing(run_in, work, golden):
    (work / "GAME.SAV").write_bytes(START + TAIL)
    before = (work / "GAME.SAV").stat()
    r = run_in("export", "game-sav", "continued97.sjn", "--into", "GAME.SAV", "--dry-run")
    golden("export_gamesav_dry_run", r.stdout)
    assert (work / "GAME.SAV").read_bytes() == START + TAIL
    assert (work / "GAME.SAV").stat().st_mtime_ns == before.st_mtime_ns


def test_export_writes_only_the_three_bytes_atomically(run_in, work):
    save = work / "GAME.SAV"
    save.write_bytes(START + TAIL)
    os.chmod(save, 0o640)
    inode = save.stat().st_ino
    r = run_in("export", "game-sav", "continued97.sjn", "--into", "GAME.SAV")
    levels, dealer = end_state(work / "continued97.sjn")
    assert (levels, dealer) == ({"NS": 2, "EW": 7}, "W")
    new = save.read_bytes()
    assert new == bytes([0x02, 0x07, 0x04]) + TAIL
    assert save.stat().st_ino != inode                         # a new file renamed over the old one
    assert save.stat().st_mode & 0o777 == 0o640                 # with the old one's permissions
    assert [p.name for p in work.iterdir() if p.name.startswith(".GAME.SAV")] == []
    assert "wrote GAME.SAV" in r.stderr
    # again: the save already holds the state after the record
    r = run_in("export", "game-sav", "continued97.sjn", "--into", "GAME.SAV")
    assert "already holds" in r.stdout and save.read_bytes() == new


def test_export_with_the_format_as_an_option(run_in, work):
    (work / "GAME.SAV").write_bytes(START)
    run_in("export", "--to", "game-sav", "continued97.sjn", "--into", "GAME.SAV")
    assert (work / "GAME.SAV").read_bytes() == bytes([0x02, 0x07, 0x04])


def test_export_refuses_a_save_elsewhere_without_force(run_in, work):
    save = work / "GAME.SAV"
    save.write_bytes(bytes([0x05, 0x04, 0x04]) + TAIL)
    r = run_in("export", "game-sav", "continued97.sjn", "--into", "GAME.SAV", code=1)
    assert "not written" in r.stderr and "NS 5 EW 4" in r.stderr and "--force" in r.stderr
    assert save.read_bytes() == bytes([0x05, 0x04, 0x04]) + TAIL
    run_in("export", "game-sav", "continued97.sjn", "--into", "GAME.SAV", "--dry-run", code=1)
    r = run_in("export", "game-sav", "continued97.sjn", "--into", "GAME.SAV", "--force")
    assert "written anyway" in r.stderr
    assert save.read_bytes() == bytes([0x02, 0x07, 0x04]) + TAIL


def test_export_refuses_an_unreadable_or_short_save(run_in, work):
    (work / "BAD.SAV").write_bytes(bytes([0x02, 0x44, 0x04]))
    r = run_in("export", "game-sav", "continued97.sjn", "--into", "BAD.SAV", code=1)
    assert "44" in r.stderr
    (work / "SHORT.SAV").write_bytes(b"\x02\x04")
    r = run_in("export", "game-sav", "continued97.sjn", "--into", "SHORT.SAV", "--force", code=1)
    assert "2 bytes long" in r.stderr and (work / "SHORT.SAV").read_bytes() == b"\x02\x04"
    r = run_in("export", "game-sav", "continued97.sjn", "--into", "NONE.SAV", code=2)
    assert "NONE.SAV" in r.stderr and not (work / "NONE.SAV").exists()


def test_export_refuses_an_incomplete_last_hand(run_in, work):
    text = (work / "continued97.sjn").read_text(encoding="utf-8")
    cut = text[: text.rindex("\n10. ")] + "\n"          # hand 3 stops after trick 9
    (work / "cut.sjn").write_text(cut, encoding="utf-8")
    (work / "GAME.SAV").write_bytes(START)
    r = run_in("export", "game-sav", "cut.sjn", "--into", "GAME.SAV", code=1)
    assert "hand 3 is not complete (9 tricks recorded)" in r.stderr and (work / "GAME.SAV").read_bytes() == START


def test_export_usage_errors(run_in, work):
    (work / "GAME.SAV").write_bytes(START)
    assert "--into" in run_in("export", "game-sav", "continued97.sjn", code=2).stderr
    assert "name the format" in run_in("export", "continued97.sjn", "--into", "GAME.SAV", code=2).stderr
    run_in("export", "--to", "xls", "continued97.sjn", code=2)
    run_in("export", "game-sav", "a.sjn", "b.sjn", "--into", "GAME.SAV", code=2)


def test_export_options_of_the_other_format_are_refused(run_in, work):
    (work / "GAME.SAV").write_bytes(START)
    r = run_in("export", "game-sav", "continued97.sjn", "--into", "GAME.SAV", "--jobs", "2", code=2)
    assert "parquet options" in r.stderr and (work / "GAME.SAV").read_bytes() == START
