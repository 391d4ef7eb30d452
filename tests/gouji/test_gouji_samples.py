"""``samples/diagnostics/GJxxx.gjn`` triggers its code GJxxx (GOUJI.md §9) at
the lines of ``GJxxx.expected.json`` and nothing else; every GJ code has a
sample; ``samples/matches/gouji*.gjn`` (one generated match per Gouji preset)
lint clean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notation import gjn
from primitives.diagnostics import CODES
from replay.gouji import replay
from replay.gouji.rules import PRESETS

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
DIAG = sorted((SAMPLES / "diagnostics").glob("GJ*.gjn"))


def findings(path: Path) -> set[tuple[str, int]]:
    records, diags = gjn.parse(path.read_text(encoding="utf-8"))
    found = {(d.code, d.line) for d in diags}
    for r in records:
        found |= {(d.code, d.line) for d in replay(r).diagnostics}
    return found


def test_every_gj_code_has_a_sample():
    codes = {c for c in CODES if c.startswith("GJ")}
    assert {p.stem for p in DIAG} == codes


@pytest.mark.parametrize("path", DIAG, ids=lambda p: p.stem)
def test_sample_gives_exactly_its_code(path):
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    want = {(e["code"], e["line"]) for e in expected}
    assert {c for c, _ in want} == {path.stem}
    assert findings(path) == want


@pytest.mark.parametrize("name", list(PRESETS))
def test_sample_match_is_clean(name):
    path = SAMPLES / "matches" / f"{name}.gjn"
    assert findings(path) == set()
    (record,), _ = gjn.parse(path.read_text(encoding="utf-8"))
    rp = replay(record)
    assert all(g.complete for g in rp.games if g.kind != "void")
