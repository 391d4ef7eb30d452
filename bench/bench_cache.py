"""The lint cache on a 45 MB corpus (issue 34): a cold run, then re-linting it unchanged.

    python bench/bench_cache.py              # 45 MB in 15 files (bench/out/cache-corpus/)
    python bench/bench_cache.py --mb 10      # smaller
    python bench/bench_cache.py --jobs 1

The corpus is the bench/run.py corpus of 2,000 two-deck hands, copied into
files of about 3 MB that differ in their first line. Each run is
``shengji lint --quiet DIR`` in a subprocess (wall and CPU time, the
children's included); the cache lives in a fresh directory. Rows:

* ``--no-cache``: what every run cost before the cache;
* ``cold``: the first run with the cache (lints and writes every entry);
* ``warm``: the same corpus again, unchanged (reads and hashes only);
* ``one file changed``: one file touched (a line added): one miss.

The outputs of every row must be the same (checked). The target (warm under
1 s) and the figures are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run as R


def corpus(mb: int) -> Path:
    text = R.corpus_file(2000).read_text(encoding="utf-8")
    folder = R.OUT / f"cache-corpus-{mb}"
    size = len(text.encode("utf-8"))
    files = max(1, round(mb * 2 ** 20 / size))
    if not folder.is_dir() or len(list(folder.glob("*.sjn"))) != files:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for k in range(files):
            (folder / f"part-{k:03d}.sjn").write_text(f"; part {k}\n" + text, encoding="utf-8")
    return folder


def lint(folder: Path, cache: Path, *args: str) -> tuple[float, float, str]:
    # (the modules' .pyc cached under bench/out/pycache, as an installed package has them:
    # without, every run would compile the tool first, a third of a warm run)
    env = {**R.child_env(), "PYTHONPATH": str(R.ROOT), "SHENGJI_CACHE_DIR": str(cache)}
    env.pop("SHENGJI_NO_CACHE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "analyzer", "lint", "--isolated", "--quiet", *args, str(folder)],
                          capture_output=True, text=True, env=env, cwd=R.ROOT)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode == 2:
        raise SystemExit(proc.stderr)
    return wall, cpu, proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=int, default=45)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--skip-no-cache", action="store_true", help="leave out the --no-cache row (as slow as cold)")
    args = ap.parse_args()
    folder = corpus(args.mb)
    files = sorted(folder.glob("*.sjn"))
    size = sum(p.stat().st_size for p in files) / 2 ** 20
    print(f"corpus: {len(files)} files, {size:.1f} MB ({folder})")
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    with tempfile.TemporaryDirectory() as d:
        cache = Path(d) / "cache"
        rows = []
        if not args.skip_no_cache:
            rows.append(("--no-cache", *lint(folder, cache, "--no-cache", *jobs)))
        rows.append(("cold", *lint(folder, cache, *jobs)))
        rows.append(("warm", *lint(folder, cache, *jobs)))
        rows.append(("warm again", *lint(folder, cache, *jobs)))
        with open(files[0], "a", encoding="utf-8") as f:
            f.write("\n")
        try:
            rows.append(("one file changed", *lint(folder, cache, *jobs)))
        finally:
            files[0].write_text(files[0].read_text(encoding="utf-8")[:-1], encoding="utf-8")
        entries = sum(1 for p in cache.rglob("*") if p.is_file())
        print(f"cache: {entries} entries, {sum(p.stat().st_size for p in cache.rglob('*') if p.is_file()) / 1024:.0f} KB")
    outs = {out for *_, out in rows}
    for name, wall, cpu, _ in rows:
        print(f"  {name:<18} {wall:6.2f} s wall  {cpu:6.2f} s CPU")
    print("outputs identical" if len(outs) == 1 else "OUTPUTS DIFFER")


if __name__ == "__main__":
    main()
