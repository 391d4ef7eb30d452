"""The viewer names a finding for what it is (issue 28): a blunder is labelled
"blunder by W", not "mistake", and the status bar counts "1 blunder", not
"1 note". Run with Debian's chromium (``--dump-dom``: the page after its script
ran, opened at a step by its fragment); skipped without a chromium."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from viewer_helpers import CHROMIUM_ARGS, find_chromium

from analyzer.lint import REVIEW_ENTRY, mistake_hook
from analyzer.report.reading import build_report
from analyzer.report.viewer import render_html

ROOT = Path(__file__).resolve().parents[2]


def _dom(tmp_path: Path, html: str, fragment: str) -> str:
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("no chromium executable found")
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    out = subprocess.run([chromium, *CHROMIUM_ARGS, "--dump-dom", page.as_uri() + fragment],
                         capture_output=True, text=True, timeout=120)
    return out.stdout


def test_a_blunder_is_labelled_a_blunder(tmp_path: Path) -> None:
    # the review's first verdict on this hand: E's ♥2 lead in trick 6 (SJ611, 16 ± 2 points on its
    # first 8 deals: clear), a blunder by its expected level loss
    text = (ROOT / "tests" / "cli" / "fixtures" / "continued97.sjn").read_text(encoding="utf-8")
    report = build_report(text, "continued97.sjn", annotate=mistake_hook(REVIEW_ENTRY))
    dom = _dom(tmp_path, render_html(report), "#m1-h1-t6")  # hand 1, trick 6 complete
    status = re.search(r'id="status"[^>]*>(.*?)</div>', dom, re.S)
    assert status is not None, dom[:2000]
    assert "\u26a0 1 blunder" in status.group(1) and "note" not in status.group(1)
    kinds = re.findall(r'class="kind">(.*?)</span>', dom)
    assert any(k.startswith("blunder by E") for k in kinds), kinds
