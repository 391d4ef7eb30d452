"""`shengji import` and `--from`: other programs' logs through the CLI.

The logs are copies of the importer tests' own fixtures (invented games)."""

import json

from notation import parse


def test_import_writes_sjn_and_reports_claims(run):
    r = run("import", "auto", "logs/chat.txt", code=1)  # the paste claims a wrong trick winner
    records, diags = parse(r.stdout)
    assert len(records) == 1 and not diags
    assert records[0].tag("Rules") == "shengji-io"
    assert "logs/chat.txt:47:7: SJ704" in r.stderr


def test_import_clean_log_exits_0(run):
    r = run("import", "fly", "logs/room.jsonl")
    records, diags = parse(r.stdout)
    assert records and not diags and records[0].tag("Rules") == "shengji-fly"


def test_import_to_file_never_overwrites(run_in, work):
    run_in("import", "botzone", "logs/botzone.json", "-o", "out.sjn")
    assert (work / "out.sjn").read_text(encoding="utf-8").startswith("[")
    r = run_in("import", "botzone", "logs/botzone.json", "-o", "out.sjn", code=2)
    assert "exists" in r.stderr


def test_import_unknown_format_is_a_usage_error(run):
    run("import", "nope", "logs/room.jsonl", code=2)


def test_lint_detects_logs_and_points_into_them(run, golden):
    r = run("lint", "logs/chat.txt", "logs/room.jsonl", "logs/botzone.json", code=1)
    golden("lint_logs", r.stdout)


def test_lint_from_forces_a_format(run):
    r = run("lint", "--from", "shengji-io-chat", "-", input=open(
        __file__.replace("test_cli_import.py", "fixtures/logs/chat.txt"), encoding="utf-8").read(), code=1)
    assert "SJ704" in r.stdout
    run("lint", "--from", "nope", "logs/room.jsonl", code=2)


def test_report_and_replay_read_logs(run):
    r = run("report", "logs/botzone.json", "--format", "json")
    match = json.loads(r.stdout)["matches"][0]
    assert match["ruleset"] == "botzone" or match["ruleset"].get("name") == "botzone"
    assert match["hands"][0]["complete"] and match["winner"] in ("NS", "EW")
    r = run("replay", "--from", "fly", "logs/room.jsonl", "--hand", "1", "--trick", "2")
    assert "Before trick 2" in r.stdout
