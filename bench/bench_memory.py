"""Peak memory of every command that reads a whole file (issue 14: they stream).

    python bench/bench_memory.py            # the 100,000-hand file of bench/run.py
    python bench/bench_memory.py --quick    # a 10,000-hand file

Each command runs in a subprocess on the same file (the bench/run.py corpus of
2,000 two-deck hands repeated) and reports its own peak RSS (VmHWM) and wall
time; output goes to a file in bench/out/ or to /dev/null. ``annotate`` runs
the mistake rules on every play, so it is measured on the 2,064-hand corpus
itself (memory per record does not depend on the file's length). Nothing here
asserts: the target (under 200 MB each) is in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run as R


def run_cli(args: list[str]) -> tuple[float, int, str]:
    """Wall time, peak RSS (KiB) and how it ended, for ``shengji ARGS`` in a subprocess."""
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", R._CHILD, *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, cwd=R.ROOT)
    wall = time.perf_counter() - t
    rss, errors = 0, []
    for line in proc.stderr.splitlines():
        if line.startswith("MAXRSS "):
            rss = int(line.split()[1])
        elif "error" in line.lower():
            errors.append(line)
    return wall, rss, errors[-1] if errors else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a 10,000-hand file")
    ap.add_argument("--only", nargs="*", help="only these rows (by first word)")
    args = ap.parse_args()
    text, n, _ = R.corpus(2000)
    copies = 5 if args.quick else 50
    big = R.big_file(text, copies, n)
    small = R.big_file(text, 1, n)
    out = R.OUT / "memory-out"
    hands = n * copies
    records = text.count("[Rules ") * copies
    size = os.path.getsize(big) / 2 ** 20
    print(f"file: {hands:,} two-deck hands, {size:.0f} MB ({big.name})")
    rows = [
        ("lint", ["lint", "--no-cache", "--jobs", "1", "--quiet", str(big)], hands),
        ("convert --to json", ["convert", str(big), "--to", "json", "-o", str(out), "--force"], hands),
        ("convert --to json (stdout)", ["convert", str(big), "--to", "json"], hands),
        ("convert --to sjn", ["convert", str(big), "--to", "sjn", "-o", str(out), "--force"], hands),
        ("report --format json", ["report", str(big), "--format", "json", "-o", str(out), "--force"], hands),
        ("report --format md", ["report", str(big), "--format", "md", "-o", str(out), "--force"], hands),
        ("report --format html", ["report", str(big), "--format", "html", "-o", str(out), "--force"], hands),
        ("report (terminal)", ["report", str(big)], hands),
        ("fmt", ["fmt", str(big)], hands),
        ("fmt --check", ["fmt", "--check", str(big)], hands),
        ("replay --record N (the last)", ["replay", str(big), "--record", str(records)], hands),
        ("annotate", ["annotate", str(small), "--endgame", "0", "-o", str(out), "--force"], n),
        ("lint --mistakes", ["lint", "--no-cache", "--mistakes", "--jobs", "1", "--quiet", str(small)], n),
    ]
    width = max(len(r[0]) for r in rows)
    for name, cmd, count in rows:
        if args.only and name.split()[0] not in args.only:
            continue
        wall, rss, error = run_cli(cmd)
        print(f"  {name:<{width}}  {rss / 1024:6.0f} MB peak RSS  {wall:7.1f} s wall  ({count:,} hands)"
              + (f"  FAILED: {error}" if error else ""), flush=True)
    if out.exists():
        out.unlink()


if __name__ == "__main__":
    main()
