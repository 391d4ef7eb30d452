"""`shengji annotate`: mistake annotations written back as SJN commentary."""

from notation import parse


def test_annotate_writes_readable_sjn(run):
    r = run("annotate", "clean.sjn")
    records, diags = parse(r.stdout)
    assert not diags and len(records) == 1
    comments = [c for h in records[0].hands for t in h.tricks for p in t.plays for c in p.comments]
    assert comments and all(c.startswith("SJ6") for c in comments)
    assert "annotations in 1 record" in r.stderr


def test_annotate_is_idempotent_and_select_filters(run_in, work):
    run_in("annotate", "clean.sjn", "-o", "a.sjn")
    once = (work / "a.sjn").read_text(encoding="utf-8")
    run_in("annotate", "a.sjn", "-o", "b.sjn")
    assert (work / "b.sjn").read_text(encoding="utf-8") == once
    r = run_in("annotate", "clean.sjn", "--select", "SJ604")
    assert "{SJ604" in r.stdout and "{SJ610" not in r.stdout
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
    assert "mistake, trick" in term
