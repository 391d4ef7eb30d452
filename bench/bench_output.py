"""Peak memory and time of ``lint``'s machine-readable formats on 100,000 findings (issue 34).

    python bench/bench_output.py                 # 100,000 findings, every format
    python bench/bench_output.py --findings 20000
    python bench/bench_output.py --cli 2000      # also `shengji lint` end to end on a file
                                                 # with 2000 × 5 findings (slower: it lints)

Each format runs in its own subprocess: a :class:`LintReport` of N findings
(real messages of the fixture errors.sjn, spread over 100 files, every line
different) is built, then written by the formatter to /dev/null; the child
reports its peak RSS (VmHWM) and the time of the writing alone. The baseline
row ``report only`` is the report without any output: what the formats add is
the difference. The target (under 150 MB each at 100,000) and the figures are in
docs/performance.md. Nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import sys, time, resource
sys.path.insert(0, sys.argv[1])
from analyzer.lint import LintOptions, lint_paths, FileResult, LintReport, Finding
from analyzer.lint.formats import formatter
fmt, n = sys.argv[2], int(sys.argv[3])
seed = lint_paths([sys.argv[1] + "/tests/cli/fixtures/errors.sjn"], LintOptions(), jobs=1).findings
files = []
per = n // 100
for k in range(100):
    r = FileResult(f"corpus/日志 {k:03d}/match #{k}.sjn", records=per)
    for i in range(per):
        f = seed[i % len(seed)]
        r.findings.append(Finding(r.path, i + 1, f.column, i + 1, f.end_column, f.code, f.severity,
                                  f.message + f" ({i})", f.name, f.hand, f.trick, i // 4 + 1))
    files.append(r)
report = LintReport(files)
t = time.perf_counter()
if fmt != "none":
    with open("/dev/null", "w", encoding="utf-8") as out:
        fm = formatter(fmt)
        if hasattr(fm, "write"):
            fm.write(report, out, version="0", quiet=False)
        else:  # an older checkout (--root): the whole text
            out.write(fm.render(report, version="0", quiet=False))
wall = time.perf_counter() - t
peak = 0
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        peak = int(line.split()[1])
print(f"{peak} {wall:.3f}")
"""


def child(fmt: str, n: int, root: Path = ROOT) -> tuple[int, float]:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(root), fmt, str(n)], capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]), float(out[1])


def cli(copies: int) -> None:
    text = (ROOT / "tests/cli/fixtures/errors.sjn").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "errors.sjn"
        path.write_text("\n".join([text] * copies), encoding="utf-8")
        for fmt in ("text", "json", "jsonl", "sarif"):
            t = time.perf_counter()
            proc = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m", "analyzer", "lint", "--jobs",
                                   "1", "--no-cache", "-f", fmt, str(path)], cwd=ROOT, capture_output=True, text=True,
                                  env={**os.environ, "PYTHONPATH": str(ROOT)})
            wall = time.perf_counter() - t
            rss = proc.stderr.strip().splitlines()[-1]
            print(f"  lint -f {fmt:<6} {wall:6.1f} s  {int(rss) / 1024:6.0f} MB peak")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--findings", type=int, default=100_000)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (compare with another)")
    ap.add_argument("--cli", type=int, default=0, metavar="COPIES", help="also lint COPIES copies of errors.sjn")
    args = ap.parse_args()
    print(f"{args.findings:,} findings in 100 files")
    base = None
    for fmt in ("none", "text", "json", "jsonl", "sarif", "github"):
        try:
            peak, wall = child(fmt, args.findings, args.root)
        except subprocess.CalledProcessError:
            print(f"  {fmt:<12} (not in {args.root})")
            continue
        base = base or peak
        label = "report only" if fmt == "none" else fmt
        print(f"  {label:<12} {peak / 1024:6.0f} MB peak  (+{(peak - base) / 1024:4.0f} MB)  write {wall:5.2f} s")
    if args.cli:
        cli(args.cli)


if __name__ == "__main__":
    main()
