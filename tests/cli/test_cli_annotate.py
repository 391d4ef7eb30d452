"""`shengji annotate`: mistake annotations written back as SJN commentary."""

from notation import parse


def test_annotate_writes_readable_sjn(run):
    r = run("annotate", "clean.sjn")
    records, diags = parse(r.stdout)
    assert not diags and len(records) == 1
    comments = [c for h in records[0].hands for t in h.tricks for p in t.plays for c in p.comments]
    assert comments and all(c.startswith("SJ6") for c in comments)
    # the full review (every decision valued from the player's view): no verdict above noise (N's ♦3
    # in trick 5, 13 ± 5 points on its first 8 deals, is unsure and not borne out by 8 new deals:
    # sequential sampling), and N's ♥7 in trick 10 (10 points with all hands known) a note about luck
    assert r.stderr.endswith("1 annotation in 1 record\n")
    # the player summary: per player (expected points lost, bands, points-weighted accuracy) and per hand;
    # S 8: the plays and the bury (valued from S's view: 6 ± 4 points on its first 8 deals, unsure, 0 on 8
    # new deals: sequential sampling; within noise either way, no finding)
    assert "N Li: 2 points lost; 0 inaccuracies, 0 mistakes, 0 blunders, 1 note; accuracy 95.2% over 8 decisions" \
        in r.stderr
    assert "hand 1 (last 4 of 4 tricks asked): points lost N 2, W 0, S 8, E 2" in r.stderr


def test_annotate_is_idempotent_and_select_filters(run_in, work):
    run_in("annotate", "clean.sjn", "-o", "a.sjn")
    once = (work / "a.sjn").read_text(encoding="utf-8")
    run_in("annotate", "a.sjn", "-o", "b.sjn")
    assert (work / "b.sjn").read_text(encoding="utf-8") == once
    r = run_in("annotate", "clean.sjn", "--select", "SJ610")
    assert "{SJ610" in r.stdout and "{SJ604" not in r.stdout
    # E's ♦5 in trick 11 falls to S's joker in the last trick anyway: no expected loss from E's
    # view, so the pattern (SJ604) is no finding, with or without the exact window
    assert "{SJ604" not in run_in("annotate", "clean.sjn", "--select", "SJ604").stdout
    assert "{SJ604" not in run_in("annotate", "clean.sjn", "--select", "SJ604", "--endgame", "0").stdout
    run_in("annotate", "clean.sjn", "-o", "a.sjn", code=2)  # never overwrites without --force


def test_annotate_refuses_unreadable_records(run):
    r = run("annotate", "errors.sjn", code=1)
    assert "SJ105" in r.stderr


def test_report_lists_mistakes_per_hand_and_player(run):
    md = run("report", "clean.sjn", "--mistakes", "--format", "md").stdout
    assert "Mistakes:" in md and "`SJ6" in md
    header = next(line for line in md.splitlines() if line.startswith("| seat |"))
    assert header.endswith("mistakes |")
    plain = run("report", "clean.sjn", "--format", "md").stdout
    assert "Mistakes:" not in plain and "mistakes |" not in plain
    term = run("report", "clean.sjn", "--mistakes").stdout
    assert "review, trick" in term
    # the player summary in every format
    assert "## Mistake review" in md and "| N | Li | 2 | 0 | 0 | 0 | 1 | 8 | 95.2% |" in md
    assert "Mistake review" in term and "95.2%" in term
    # a match with verdicts (continued97.sjn: E's ♥2 lead in trick 6, 16 ± 2 points, clear on its first
    # 8 deals): the worst first, and per decision with a verdict the top alternatives with expected
    # points and standard error
    md2 = run("report", "continued97.sjn", "--mistakes", "--format", "md").stdout
    assert "Worst mistakes first:" in md2 and "- **E** `SJ611` hand 1, trick 6:" in md2
    assert "Decisions with a verdict:" in md2 and "| 1 | 6 | E | ♥2 | 16 ± 2 | blunder | ♥Q 76 ± 10; ♠6 81 ± 9; ♠J 86 ± 10 |" in md2
    term2 = run("report", "continued97.sjn", "--mistakes").stdout
    assert "Worst mistakes first" in term2 and "Decisions with a verdict" in term2
    import json
    js = json.loads(run("report", "clean.sjn", "--mistakes", "--format", "json").stdout)["matches"][0]["review"]
    assert js["players"]["N"]["accuracy"] == 95.2 and js["players"]["N"]["blunder"] == 0
    assert js["hands"][0]["window"] == 4 and js["hands"][0]["eval"][-1] == 40
    # the per-decision shape the viewer reads
    js2 = json.loads(run("report", "continued97.sjn", "--mistakes", "--format", "json").stdout)["matches"][0]["review"]
    d = next(d for d in js2["hands"][0]["decisions"] if d["band"] == "blunder")
    assert {"seat", "trick", "play_index", "kind", "chosen", "alternatives", "band", "explanation", "exact",
            "actual", "loss", "loss_stderr", "level_loss", "samples"} <= set(d)
    assert (d["seat"], d["trick"], d["play_index"], d["kind"], d["chosen"], d["samples"]) == ("E", 6, 0, "lead", "♥2", 8)
    assert d["alternatives"][0]["play"] == "♥Q" and set(d["alternatives"][0]) == {"play", "expected", "stderr", "level"}
    # the luck note: inside the window, the values with all hands known and the best line
    luck = next(d for d in js["hands"][0]["decisions"] if d["hindsight"])
    assert (luck["trick"], luck["seat"], luck["band"], luck["exact"]) == (10, "N", None, True)
    assert luck["actual"]["cost"] == 10 and luck["actual"]["line"].startswith("best line: trick 10")
    assert "review" not in json.loads(run("report", "clean.sjn", "--format", "json").stdout)["matches"][0]
