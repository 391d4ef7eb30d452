"""``shengji lint --mistakes`` (every rule) finds exactly what it found before.

A golden file holds every mistake finding (SJ6xx: file, code, line, column,
severity, message) of ``shengji lint --mistakes --format json`` over the
bundled samples (``samples/**/*.sjn``) and a committed corpus of generated
hands (``golden/mistakes_corpus.sjn``: fixed presets and seeds, see
:func:`corpus_text`). Any change to a mistake rule, the search, the replay
engine or the reader that moves, adds, drops or rewords one fails here. (The
other codes' findings on the samples are pinned by each sample's
``.expected.json``; keeping them out of this file spares a second golden
update when a rule's wording changes.)

When a change is *meant* to change the findings, rewrite the golden file::

    UPDATE_GOLDEN=1 python3 -m pytest -q -p no:cacheprovider tests/mistakes/test_lint_mistakes_golden.py

The corpus is a committed fixture (not regenerated at test time) so that a
change to the generator or the bots does not show up as changed findings;
rebuild it only on purpose with ``REGENERATE_CORPUS=1`` (same command), which
also rewrites the golden file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from typer.testing import CliRunner

from analyzer.cli import app

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
CORPUS = GOLDEN / "mistakes_corpus.sjn"
EXPECTED = GOLDEN / "lint_mistakes_findings.json"

#: (preset, hands, seed) of the generated corpus: 24 played hands over the
#: two-deck, one-deck and shengji.io rules (redeals are written too)
CORPUS_PLAN = (
    ("standard", 4, 101), ("standard", 4, 102), ("tractor97", 3, 103), ("campus", 3, 104),
    ("one-deck", 4, 105), ("shengji-io", 3, 106), ("80fen", 3, 107),
)

FIELDS = ("code", "line", "column", "severity", "message")


def corpus_text() -> str:
    """The corpus, as written by the generator with the plan above."""
    from analyzer.play.generate import generate_match
    from notation.writer import write
    return write([generate_match(rules, hands=hands, seed=seed) for rules, hands, seed in CORPUS_PLAN])


def _inputs() -> list[str]:
    samples = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "samples").rglob("*.sjn"))
    return [*samples, str(CORPUS.relative_to(ROOT))]


def _findings() -> list[dict]:
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(app, ["lint", "--mistakes", "--format", "json", "--jobs", "1", *_inputs()],
                                    env={"NO_COLOR": "1", "COLUMNS": "100"}, catch_exceptions=False)
    finally:
        os.chdir(old)
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    data = json.loads(result.stdout)
    rows = [{"path": Path(f["path"]).as_posix(), **{k: f[k] for k in FIELDS}} for f in data
            if f["code"].startswith("SJ6")]
    rows.sort(key=lambda r: (r["path"], r["line"], r["column"], r["code"], r["message"]))
    return rows


def _write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def test_lint_mistakes_findings_are_unchanged():
    if os.environ.get("REGENERATE_CORPUS"):
        _write(CORPUS, corpus_text())
    rows = _findings()
    text = json.dumps(rows, indent=1, ensure_ascii=False) + "\n"
    if os.environ.get("UPDATE_GOLDEN") or os.environ.get("REGENERATE_CORPUS"):
        _write(EXPECTED, text)
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert len(rows) == len(expected), f"{len(rows)} findings, the golden file has {len(expected)}"
    for got, want in zip(rows, expected):
        assert got == want
    # the comparison must be able to fail: the corpus has mistakes of several kinds
    codes = {r["code"] for r in expected if r["code"].startswith("SJ6")}
    assert len(codes) >= 4, codes
    assert any(r["path"].endswith("mistakes_corpus.sjn") and r["code"].startswith("SJ6") for r in expected)
