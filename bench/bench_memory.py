"""Peak memory of every command over files of growing size (issues 14 and 35:
every command streams or states its bound; 100k hands under 200 MB).

    python bench/bench_memory.py                        # 10,000 and 20,000 hands
    python bench/bench_memory.py --hands 10000 100000   # the sizes to measure
    python bench/bench_memory.py --only lint report     # only these rows (by first word)
    python bench/bench_memory.py --only lint --skip lint "lint --format json" --heavy-hands 2000 4000
    python bench/bench_memory.py --tree --hands 2000 10000  # export at its default --jobs, all processes
    python bench/bench_memory.py --tree --jobs 1 --hands 2000  # the same with --jobs 1

The file of N hands is the 1,000-hand corpus of bench/run.py (generated once
into bench/out/) repeated. Each command runs in a subprocess (bench/run.py's
child) that reports its own peak RSS (VmHWM) and times; outputs go to a file
in bench/out/ or to /dev/null. The rows that search every play (``lint
--mistakes``, ``annotate``: about 0.25 s a hand) run at ``--heavy-hands``
sizes (default 100 and 200). For each row the slope between the two largest
sizes is printed in KB a hand: ~0 is flat (streamed), anything else grows.
Nothing here asserts: the figures are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run as R

BASE = 1000   # hands in the corpus the files repeat


def run_cli(args: list[str], path: Path) -> tuple[float, float, int, str]:
    """CPU, wall time, peak RSS (KiB) and the last error line of ``shengji ARGS``
    (``FILE`` in ARGS is ``path``), in a subprocess."""
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", R._CHILD, "", str(path), *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, cwd=R.ROOT, env=R.child_env())
    wall = time.perf_counter() - t
    cpu, rss, errors = 0.0, 0, []
    for line in proc.stderr.splitlines():
        if line.startswith("TIMES "):
            _, c, _w, r = line.split()
            cpu, rss = float(c), int(r)
        elif "Traceback" in line or "SJ901" in line or " error: " in line:
            errors.append(line)
    return cpu, wall, rss, errors[-1] if errors else ""


def _descendants(root: int) -> dict[int, str]:
    """``root`` and every process below it (the export's forkserver and its workers), each
    with its role: ``parent`` (root), ``forkserver``, ``tracker`` (multiprocessing's resource
    tracker), ``worker`` (a child of the forkserver) or ``other``."""
    parent: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                parent[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    out: dict[int, str] = {}
    todo = [(root, "parent")]
    while todo:
        p, role = todo.pop()
        out[p] = role
        for c, pp in parent.items():
            if pp != p:
                continue
            try:
                cmd = Path(f"/proc/{c}/cmdline").read_bytes()
            except OSError:
                cmd = b""
            todo.append((c, "worker" if role == "forkserver" else "forkserver" if b"forkserver" in cmd
                         else "tracker" if b"resource_tracker" in cmd else "other"))
    return out


def _pss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_tree(args: list[str], path: Path, every: float = 0.2) -> tuple[float, int, int, int, dict[str, int]]:
    """Wall time, the peak of the summed proportional set size (PSS: shared pages counted
    once) of ``shengji ARGS`` and every process it starts, the largest single process's
    peak PSS (KiB), how many processes were seen at once at most, and each role's peak PSS
    (the largest worker's for ``worker``; :func:`_descendants`). For the commands with
    worker processes (``export --to parquet`` at its default ``--jobs``)."""
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", *[str(path) if a == "FILE" else a for a in args]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=R.ROOT, env=R.child_env())
    peak = single = most = 0
    roles: dict[str, int] = {}
    while proc.poll() is None:
        pids = _descendants(proc.pid)
        sizes = {p: _pss_kib(p) for p in pids}
        peak, single, most = max(peak, sum(sizes.values())), max([single, *sizes.values()]), max(most, len(pids))
        for p, role in pids.items():
            roles[role] = max(roles.get(role, 0), sizes[p])
        time.sleep(every)
    return time.perf_counter() - t, peak, single, most, roles


def sized_file(hands: int) -> Path:
    """A file of ``hands`` hands (a multiple of the corpus's, or its first records)."""
    corpus = R.corpus_file(BASE)
    if hands % BASE == 0:
        return R.big_file(corpus.read_text(encoding="utf-8"), hands // BASE, BASE)
    path = R.OUT / f"first-{hands}.sjn"
    if not path.exists():
        records = corpus.read_text(encoding="utf-8").split("\n[Rules ")[:hands]
        path.write_text("\n[Rules ".join(records).rstrip("\n") + "\n", encoding="utf-8")
    return path


def edited_file(hands: int) -> Path:
    """The file of ``hands`` hands with one line a hand written as the formatter would
    not (``kitty  …``): a diff of some 10 lines a hand."""
    path = R.OUT / f"edited-{hands}.sjn"
    if not path.exists():
        text = sized_file(hands).read_text(encoding="utf-8")
        path.write_text(text.replace("\nkitty ", "\nkitty  "), encoding="utf-8")
    return path


def rows(out: Path, store: Path) -> list[tuple[str, list[str], bool]]:
    """(name, argv with FILE and LAST (the last record: one hand a record), heavy)."""
    o = ["-o", str(out), "--force"]
    return [
        ("lint", ["lint", "--no-cache", "--jobs", "1", "--quiet", "FILE"], False),
        ("lint --format json", ["lint", "--no-cache", "--jobs", "1", "--format", "json", "FILE"], False),
        ("replay --record N (the last)", ["replay", "FILE", "--record", "LAST"], False),
        ("report (terminal)", ["report", "FILE"], False),
        ("report --format json", ["report", "FILE", "--format", "json", *o], False),
        ("report --format md", ["report", "FILE", "--format", "md", *o], False),
        ("report --format html", ["report", "FILE", "--format", "html", *o], False),
        ("convert --to json", ["convert", "FILE", "--to", "json", *o], False),
        ("convert --to sjn", ["convert", "FILE", "--to", "sjn", *o], False),
        ("fmt", ["fmt", "FILE"], False),
        ("fmt --check", ["fmt", "--check", "FILE"], False),
        ("fmt --diff", ["fmt", "--diff", "FILE"], False),
        ("fmt --diff (a line a hand rewritten)", ["fmt", "--diff", "EDITED"], False),
        ("export --to parquet", ["export", "--to", "parquet", str(store), "FILE"], False),
        ("stats (the store of that file)", ["stats", str(store)], False),
        ("annotate", ["annotate", "FILE", "--endgame", "0", *o], True),
        ("lint --mistakes", ["lint", "--no-cache", "--mistakes", "--jobs", "1", "--quiet", "FILE"], True),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, nargs="+", default=[10_000, 20_000], help="file sizes, in hands")
    ap.add_argument("--heavy-hands", type=int, nargs="+", default=[100, 200],
                    help="file sizes for lint --mistakes and annotate")
    ap.add_argument("--only", nargs="*", help="only these rows (by first word)")
    ap.add_argument("--skip", nargs="*", default=[], help="not these rows (by their whole name)")
    ap.add_argument("--tree", action="store_true",
                    help="only `export --to parquet` at its default --jobs: the summed PSS of all its processes")
    ap.add_argument("--jobs", nargs="?", const="", default="", metavar="N",
                    help="with --tree: export with --jobs N (default: the export's default)")
    args = ap.parse_args()
    args.jobs = ["--jobs", args.jobs] if args.jobs else []
    if args.tree:
        store = R.OUT / "memory-store"
        for hands in args.hands:
            shutil.rmtree(store, ignore_errors=True)
            wall, peak, single, most, roles = run_tree(["export", "--to", "parquet", str(store), "FILE",
                                                        "--no-progress", *args.jobs], sized_file(hands))
            each = ", ".join(f"{r} {kib / 1024:.0f}" for r, kib in sorted(roles.items()))
            print(f"  export --to parquet ({' '.join(args.jobs) or 'default --jobs'})  {hands:>7,} hands  "
                  f"{peak / 1024:6.0f} MB PSS in all  {single / 1024:6.0f} MB the largest process  {most} processes"
                  f"  {wall:7.1f} s wall  (peak MB each: {each})", flush=True)
        shutil.rmtree(store, ignore_errors=True)
        return
    out = R.OUT / "memory-out"
    store = R.OUT / "memory-store"
    table = rows(out, store)
    width = max(len(r[0]) for r in table)
    for name, cmd, heavy in table:
        if (args.only and name.split()[0] not in args.only) or name in args.skip:
            continue
        seen: list[tuple[int, int]] = []
        for hands in (args.heavy_hands if heavy else args.hands):
            path = sized_file(hands)
            if cmd[0] == "export" or (cmd[0] == "stats" and not store.exists()):
                shutil.rmtree(store, ignore_errors=True)
                if cmd[0] == "stats":
                    run_cli(["export", "--to", "parquet", str(store), "FILE"], path)
            if "EDITED" in cmd:
                path = edited_file(hands)
            cpu, wall, rss, error = run_cli([str(hands) if a == "LAST" else "FILE" if a == "EDITED" else a
                                             for a in cmd], path)
            seen.append((hands, rss))
            slope = ""
            if len(seen) > 1:
                (h0, r0), (h1, r1) = seen[-2], seen[-1]
                slope = f"  {(r1 - r0) / (h1 - h0):+6.2f} KB/hand"
            print(f"  {name:<{width}}  {hands:>7,} hands  {rss / 1024:6.0f} MB peak  {cpu:7.1f} s CPU  "
                  f"{wall:7.1f} s wall{slope}" + (f"  FAILED: {error}" if error else ""), flush=True)
            if cmd[0] == "stats":
                shutil.rmtree(store, ignore_errors=True)
    if out.exists():
        out.unlink()
    shutil.rmtree(store, ignore_errors=True)


if __name__ == "__main__":
    main()
