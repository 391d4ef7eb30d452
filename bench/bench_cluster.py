"""Beyond one machine: ``lint --cluster`` against ``--jobs``, and the Parquet store.

    python bench/bench_cluster.py            # 10,000-hand lint file, 100,000-hand export
    python bench/bench_cluster.py --quick    # 1,000 / 10,000 hands

Prints, each as wall time of the command in a subprocess (best of ``--runs``):

* ``shengji lint --jobs 1``, ``--jobs 2`` and ``--cluster local:2`` on the same
  file of the corpus repeated to about 10,000 hands, and ``--cluster local:2``
  on a one-record file (what starting and stopping the cluster costs);
* ``shengji export --to parquet`` of a file of about 100,000 hands (``--jobs 1``),
  its peak RSS and the store's size on disk;
* ``shengji stats`` (every analysis) and one ``--sql`` query over that store.

Needs the cluster and stats extras. Nothing here asserts: the figures and the
targets are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import OUT, big_file, corpus, run_cli


def best(args: list[str], runs: int) -> tuple[float, int]:
    times = [run_cli(args) for _ in range(runs)]
    return min(t for t, _ in times), max(r for _, r in times)


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--skip-export", action="store_true")
    args = ap.parse_args()
    hands = 200 if args.quick else 2000
    text, n, _plays = corpus(hands)
    mid = big_file(text, 5, n)
    print(f"lint: {mid.name}, {5 * n:,} hands, {mid.stat().st_size / 1e6:.1f} MB")
    tiny = OUT / "one-record.sjn"
    tiny.write_text(text[: text.index("\n[", 1) + 1] if "\n[" in text else text, encoding="utf-8")
    base, _ = best(["lint", "--no-cache", "--quiet", "--jobs", "1", str(mid)], args.runs)
    print(f"  --jobs 1            {base:6.1f} s   {5 * n / base:7.0f} hands/s")
    two, _ = best(["lint", "--no-cache", "--quiet", "--jobs", "2", str(mid)], args.runs)
    print(f"  --jobs 2            {two:6.1f} s   ×{base / two:.2f}")
    cl, _ = best(["lint", "--no-cache", "--quiet", "--cluster", "local:2", str(mid)], args.runs)
    print(f"  --cluster local:2   {cl:6.1f} s   ×{base / cl:.2f}  ({cl - two:+.1f} s against --jobs 2)")
    start, _ = best(["lint", "--no-cache", "--quiet", "--cluster", "local:2", str(tiny)], args.runs)
    one, _ = best(["lint", "--no-cache", "--quiet", "--jobs", "1", str(tiny)], args.runs)
    print(f"  cluster start + stop (one record): {start:.1f} s against {one:.1f} s with --jobs 1")
    if args.skip_export:
        return
    copies = 5 if args.quick else 50
    big = big_file(text, copies, n)
    store = OUT / f"store-{copies * n}"
    shutil.rmtree(store, ignore_errors=True)
    print(f"export: {big.name}, {copies * n:,} hands, {big.stat().st_size / 1e6:.0f} MB")
    t, rss = run_cli(["export", "--to", "parquet", str(store), str(big)])
    print(f"  export --jobs 1     {t:6.1f} s   {copies * n / t:7.0f} hands/s   peak RSS {rss / 1024:.0f} MB   "
          f"store {du(store) / 1e6:.1f} MB")
    t, rss = best(["stats", str(store), "--format", "json", "-o", str(OUT / "stats-out"), "--force"], args.runs)
    print(f"  stats (5 analyses)  {t:6.2f} s   peak RSS {rss / 1024:.0f} MB")
    q = ("SELECT p.seat, count(*) AS plays, avg(p.n_cards) AS cards FROM plays p JOIN hands h "
         "USING (match_id, hand) WHERE h.trump = 'NT' GROUP BY p.seat")
    t, rss = best(["stats", str(store), "--sql", q, "--format", "csv"], args.runs)
    print(f"  stats --sql (join plays × hands)  {t:6.2f} s   peak RSS {rss / 1024:.0f} MB")
    if os.environ.get("KEEP_STORE") is None:
        shutil.rmtree(store, ignore_errors=True)


if __name__ == "__main__":
    main()
