"""Replay page size and render time (prints, no asserts).

Run: ``python bench/bench_viewer.py [hands] [repeats]``. For a generated full
2-deck match (``standard``, 4 hands by default) and for each sample match,
prints the page size (bytes, and the part that is the JSON data) and the
time of :func:`analyzer.report.viewer.render_html` (report built beforehand) and of
the whole path from SJN text. The target: well under 500 KB for a 4-hand match.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.play.generate import generate_match
from analyzer.report.reading import build_report
from analyzer.report.viewer import render_html, render_text
from notation import write

ROOT = Path(__file__).resolve().parent.parent
BLOB = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)


def measure(name: str, text: str, repeats: int) -> None:
    report = build_report(text, name)
    hands = sum(len(m["hands"]) for m in report["matches"])
    start = time.perf_counter()
    for _ in range(repeats):
        page = render_html(report)
    render_ms = (time.perf_counter() - start) / repeats * 1000
    start = time.perf_counter()
    for _ in range(repeats):
        render_text(text, name)
    full_ms = (time.perf_counter() - start) / repeats * 1000
    size = len(page.encode("utf-8"))
    data = len(BLOB.search(page).group(1).encode("utf-8"))
    print(f"{name:<28} {hands:>5} {size / 1024:>9.1f} {data / 1024:>9.1f} {render_ms:>10.2f} {full_ms:>12.1f}")


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(f"{'record':<28} {'hands':>5} {'page KB':>9} {'data KB':>9} {'render ms':>10} {'text→page ms':>12}")
    rec = generate_match("standard", hands=hands, seed=11)
    measure(f"generated standard ×{hands}", write([rec]), repeats)
    rec = generate_match("titanic", hands=hands, seed=11)
    measure(f"generated titanic ×{hands}", write([rec]), repeats)
    for path in sorted((ROOT / "samples" / "matches").glob("*.sjn")):
        measure(f"samples/{path.name}", path.read_text(encoding="utf-8"), repeats)


if __name__ == "__main__":
    main()
