"""The Parquet store: ``export --to parquet`` and ``stats`` CPU time, this tree against another.

    python bench/bench_store.py                         # 2,000 hands, this tree
    python bench/bench_store.py --hands 500 --runs 3
    python bench/bench_store.py --against /tmp/old      # also a checkout of an older tree (same corpus)
    python bench/bench_store.py --hands 500 --copies 10 --against /tmp/old --command   # wall time too
    python bench/bench_store.py --hands 500 --copies 10 --against /tmp/old --only-command
    python bench/bench_store.py --hands 500 --copies 10 --against /work/main --same   # the same tables?

Each figure is the CPU time (user + system, ``time.process_time``: steadier
than wall time on a shared machine) of the export alone, in a child process
after its imports, in that process (``jobs=1``), best of ``--runs``; the
store's files and size; ``lint`` on the same corpus for scale; and ``stats
--sql "SELECT * FROM plays" -f csv`` (DuckDB's CSV writer: no row goes
through Python) with its peak RSS.

``--command``: the whole command as a user runs it (``python -m analyzer
export --to parquet STORE CORPUS``, interpreter start and imports included),
with ``--jobs 1`` and with its default, in each tree, interleaved, ``--runs``
times each: its wall time and its CPU time *with every process it started*
(the worker processes and the forkserver, which are not the command's
children once it exits: this process becomes their subreaper, waits for
them, and counts them in ``RUSAGE_CHILDREN``), and the load average (1 min)
when it started. Nothing here asserts: the figures are in docs/performance.md.

``--timeline``: one export of each tree (its default) traced: when each process
starts, imports pyarrow or the engine, runs its chunks and ends (a
``sitecustomize`` the command finds first on its path logs every process).

``--same``: the tables each tree writes (``--jobs 1`` and its default), compared
row for row with this tree's ``--jobs 1`` (a change meant to be faster only).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import big_file, child_env, corpus_file  # noqa: E402

_EXPORT = """
import json, sys, time
try:
    from analyzer.store import parquet as S
except ImportError:                  # a tree before the store's split (analyzer/store.py)
    import analyzer.store as S
import analyzer.lint, notation, replay.game, pyarrow.parquet  # imports outside the timing
t = time.process_time()
r = S.export_paths([sys.argv[1]], sys.argv[2], jobs=1)
cpu = time.process_time() - t
print(json.dumps({"cpu": cpu, "records": r.records, "rows": r.rows}))
"""

_REPLAY = """
import gc, json, sys, time
from notation.detect import read
from replay.game import replay
gc.disable()        # (as lint and the export pause the collector: the records hold no cycles)
t = time.process_time()
with open(sys.argv[1], encoding="utf-8") as f:
    for record, _ in read(f.read(), "sjn"):    # (the chunk's text read whole, as the export reads it)
        if record is not None:
            replay(record)
print(json.dumps({"cpu": time.process_time() - t}))
"""

_LINT = """
import json, sys, time
from analyzer import lint as L
t = time.process_time()
L.lint_paths([sys.argv[1]], L.LintOptions(), jobs=1)
print(json.dumps({"cpu": time.process_time() - t}))
"""


def child(code: str, root: Path, *args: str) -> dict:
    # (.pyc cached, as bench/run.py's children: the modules an export imports on its way are not
    # compiled inside the timing, which PYTHONDONTWRITEBYTECODE would make each run do)
    env = dict(child_env(), PYTHONPATH=str(root), PYTHONHASHSEED="0")
    r = subprocess.run([sys.executable, "-P", "-c", code, *args], capture_output=True, text=True, env=env, check=True,
                       cwd=tempfile.gettempdir())   # (-P, cwd: the tree imported is PYTHONPATH's)
    return json.loads(r.stdout.strip().splitlines()[-1])


def export(root: Path, corpus: Path, runs: int) -> tuple[float, Path, dict]:
    best = None
    store = Path(tempfile.mkdtemp(prefix="bench-store-"))
    for _ in range(runs):
        shutil.rmtree(store, ignore_errors=True)
        got = child(_EXPORT, root, str(corpus), str(store))
        best = got if best is None or got["cpu"] < best["cpu"] else best
    assert best is not None
    return best["cpu"], store, best


def _subreaper() -> bool:
    """Make this process the subreaper of its descendants (Linux): a command's
    worker processes and forkserver, orphaned when it exits, come back to this
    process to be waited for, and their CPU time counts in ``RUSAGE_CHILDREN``."""
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0     # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _reap() -> None:
    """Wait for every orphan handed to this process (the forkserver outlives its command briefly)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, 0)
        except ChildProcessError:
            return
        if pid == 0:
            return


def command(root: Path, corpus: Path, jobs: str | None, keep: Path | None = None) -> dict:
    """``python -m analyzer export --to parquet STORE CORPUS [--jobs N]`` in ``root``: wall, CPU
    of it and every process it started, load average when it started (``keep``: the store
    written there and kept)."""
    store = keep if keep is not None else Path(tempfile.mkdtemp(prefix="bench-store-")) / "s"
    env = dict(child_env(), PYTHONPATH=str(root), PYTHONHASHSEED="0")
    cmd = [sys.executable, "-P", "-m", "analyzer", "export", "--to", "parquet", str(store), str(corpus)]
    if jobs is not None:
        cmd += ["--jobs", jobs]
    _reap()
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - t
    _reap()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if keep is None:
        shutil.rmtree(store.parent, ignore_errors=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"wall": wall, "cpu": cpu, "load": load}


def commands(trees: list[tuple[str, Path]], corpus: Path, runs: int) -> None:
    if not _subreaper():
        print("  (not Linux: the workers' CPU is not counted)")
    settings: list[tuple[str, str | None]] = [("--jobs 1", "1"), ("default", None)]
    got: dict[tuple[str, str], list[dict]] = {}
    for _ in range(runs):                   # interleaved: the machine's load moves
        for name, root in trees:
            for label, jobs in settings:
                got.setdefault((name, label), []).append(command(root, corpus, jobs))
    base = min(r["wall"] for r in got[(trees[-1][0], "--jobs 1")])
    print(f"  the command (export --to parquet), best of {runs} by wall time; CPU of all its processes:")
    for (name, label), rs in got.items():
        best = min(rs, key=lambda r: r["wall"])
        loads = f"{min(r['load'] for r in rs):.1f}-{max(r['load'] for r in rs):.1f}"
        walls = ", ".join(f"{r['wall']:.2f}" for r in rs)
        print(f"    {name:12} {label:9} wall {best['wall']:6.2f} s (runs {walls})"
              f"   CPU {best['cpu']:6.2f} s (min {min(r['cpu'] for r in rs):.2f})   load {loads}"
              f"   ×{base / best['wall']:.2f} wall against {trees[-1][0]} --jobs 1")


def stored_tables(store: Path) -> dict:
    """A store's tables as written (every batch's parts in its manifest's order, as pyarrow tables)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    out: dict = {}
    for manifest in sorted((store / "_batches").glob("*.json")):
        for table, parts in json.loads(manifest.read_text(encoding="utf-8"))["parts"].items():
            out.setdefault(table, []).extend(pq.read_table(store / p["file"]) for p in parts)
    return {t: pa.concat_tables(parts) for t, parts in out.items()}


def same_stores(trees: list[tuple[str, Path]], corpus: Path) -> bool:
    """Export ``corpus`` with each tree, ``--jobs 1`` and its default, and say whether every
    store holds the same tables row for row (in the same order) as the first."""
    base = None
    same = True
    for name, root in trees:
        for label, jobs in (("--jobs 1", "1"), ("default", None)):
            store = Path(tempfile.mkdtemp(prefix="bench-same-")) / "s"
            command(root, corpus, jobs, keep=store)
            got = stored_tables(store)
            shutil.rmtree(store.parent, ignore_errors=True)
            rows = {t: v.num_rows for t, v in got.items()}
            if base is None:
                base, ok = got, True
            else:
                ok = got.keys() == base.keys() and all(got[t].equals(base[t]) for t in got)
            same &= ok
            print(f"  {name:12} {label:9} {'the same tables' if ok else 'DIFFERENT TABLES'}: {rows}")
    return same


#: ``--timeline``: a ``sitecustomize`` put first on the command's path; every Python process
#: of the export (the command, the resource tracker, the forkserver and the workers forked
#: from it) appends its events to ``$SHENGJI_TIMELINE``: "time pid event"
_TRACER = r"""
import os, sys, time
_LOG = os.environ.get("SHENGJI_TIMELINE")
if _LOG:
    _fd = os.open(_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def _ev(what):
        os.write(_fd, f"{time.time():.4f} {os.getpid()} {what}\n".encode())

    _argv = " ".join(sys.orig_argv)
    _ev("start " + ("forkserver" if "forkserver" in _argv else "tracker" if "resource_tracker" in _argv
                    else "main"))
    os.register_at_fork(after_in_child=lambda: _ev("start worker"))
    import atexit
    import importlib.abc
    atexit.register(lambda: _ev(f"exit {time.process_time():.3f}"))
    WATCH = {"analyzer.cli", "pyarrow", "pyarrow.parquet", "pyarrow.compute", "replay.game",
             "analyzer.store.chunk", "analyzer.store.parquet", "analyzer.store.workers"}

    def _wrap(owner, attr, label):
        f = getattr(owner, attr)

        def wrapped(*a, **k):
            _ev("+" + label)
            try:
                return f(*a, **k)
            finally:
                _ev(f"-{label} {time.process_time():.3f}")
        setattr(owner, attr, wrapped)

    def _patch(name, mod):
        if name == "analyzer.store.chunk":
            _wrap(mod, "export_chunk", "chunk")
        elif name == "analyzer.store.parquet":
            _wrap(mod, "arrow_tables", "tables")
            _wrap(mod._TableWriter, "_flush", "write")
            _wrap(mod, "export_paths", "export")
        elif name == "analyzer.store.workers":
            _wrap(mod, "unpack", "unpack")

    class _Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name not in WATCH:
                return None
            for f in sys.meta_path:
                if f is not self and (spec := getattr(f, "find_spec", lambda *a: None)(name, path, target)):
                    break
            else:
                return None
            run = spec.loader.exec_module

            def exec_module(module, run=run, name=name):
                _ev("+import " + name)
                run(module)
                _ev("-import " + name)
                _patch(name, module)
            spec.loader.exec_module = exec_module
            return spec
    sys.meta_path.insert(0, _Finder())
"""


def timeline(root: Path, corpus: Path, jobs: str | None) -> None:
    """One export with :data:`_TRACER`: when each process starts, imports, runs its chunks, ends."""
    trace = Path(tempfile.mkdtemp(prefix="bench-timeline-"))
    (trace / "sitecustomize.py").write_text(_TRACER, encoding="utf-8")
    log = trace / "events"
    env = dict(child_env(), PYTHONPATH=f"{trace}{os.pathsep}{root}", PYTHONHASHSEED="0", SHENGJI_TIMELINE=str(log))
    store = trace / "store"
    cmd = [sys.executable, "-P", "-m", "analyzer", "export", "--to", "parquet", "--no-progress", str(store),
           str(corpus)] + (["--jobs", jobs] if jobs else [])
    _reap()
    load = os.getloadavg()[0]
    t0 = time.time()
    subprocess.run(cmd, capture_output=True, env=env, cwd=tempfile.gettempdir(), check=True)
    wall = time.time() - t0
    _reap()
    procs: dict[str, dict] = {}
    order: list[str] = []
    for line in log.read_text(encoding="utf-8").splitlines():
        t, pid, what = line.split(" ", 2)
        p = procs.setdefault(pid, {"ev": [], "chunks": [], "tables": []})
        if pid not in order:
            order.append(pid)
        at = float(t) - t0
        word, _, rest = what.partition(" ")
        if word == "start":
            p["role"], p["start"] = rest, at
        elif word == "exit":
            p["end"], p["cpu"] = at, float(rest)
        elif word in ("+chunk", "+tables", "+write", "+unpack"):
            p.setdefault("open", {})[word[1:]] = at
        elif word in ("-chunk", "-tables", "-write", "-unpack"):
            p.setdefault("spans", []).append((word[1:], p["open"].pop(word[1:]), at))
            p["last_cpu"] = float(rest)
        else:
            p["ev"].append((at, what))
    print(f"  timeline ({'--jobs ' + jobs if jobs else 'default'}): wall {wall:.2f} s, load {load:.1f}; "
          f"seconds from the command's start")
    for pid in order:
        p = procs[pid]
        role = p.get("role", "?")
        spans = p.get("spans", [])
        chunks = [(a, b) for k, a, b in spans if k == "chunk"]
        line = f"    {role:10} start {p.get('start', 0):5.2f}"
        for at, what in p["ev"]:
            if what.startswith("-import"):
                line += f", {what[len('-import '):]} imported {at:.2f}"
        if chunks:
            busy = sum(b - a for a, b in chunks)
            line += (f"; {len(chunks)} chunks, first {chunks[0][0]:.2f}-{chunks[0][1]:.2f}, last ends "
                     f"{chunks[-1][1]:.2f}, busy {busy:.2f} s")
        own = {k: sum(b - a for kk, a, b in spans if kk == k) for k in ("unpack", "tables", "write")}
        if any(own.values()):
            firsts = [a for k, a, _ in spans if k == "unpack"]
            line += (f"; first result {firsts[0]:.2f}, unpack {own['unpack']:.2f} s, tables {own['tables']:.2f}"
                     f" s, writing {own['write']:.2f} s (last ends {max(b for _, _, b in spans):.2f})")
        if "end" in p:
            line += f"; exit {p['end']:.2f}, CPU {p['cpu']:.2f} s"
        elif "last_cpu" in p:
            line += f"; CPU {p['last_cpu']:.2f} s (at its last chunk's end)"
        print(line)
    shutil.rmtree(trace, ignore_errors=True)


def files(store: Path) -> tuple[int, int]:
    parts = [p for p in store.rglob("*.parquet")]
    return len(parts), sum(p.stat().st_size for p in parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--copies", type=int, default=1, help="the corpus repeated this many times in one file "
                    "(cut into 1 MB chunks as a big file is)")
    ap.add_argument("--against", type=Path, help="another checkout of the project (e.g. git archive of an old commit)")
    ap.add_argument("--command", action="store_true", help="also time the whole command, --jobs 1 and its default "
                    "(wall and CPU of every process it starts)")
    ap.add_argument("--only-command", action="store_true", help="--command alone (not the in-process figures "
                    "nor stats)")
    ap.add_argument("--same", action="store_true", help="only check that each tree (this one, --against) "
                    "writes the same tables row for row, --jobs 1 and its default (exit 1 if not)")
    ap.add_argument("--timeline", action="store_true", help="only one export of each tree (its default) "
                    "traced: when each process starts, imports, runs its chunks and ends")
    args = ap.parse_args()
    corpus = corpus_file(args.hands)
    if args.copies > 1:
        corpus = big_file(corpus.read_text(encoding="utf-8"), args.copies, args.hands)
    print(f"corpus: {corpus.name}, {args.hands * args.copies:,} hands, {corpus.stat().st_size / 1e6:.1f} MB")
    trees = [("this tree", ROOT)] + ([("--against", args.against)] if args.against else [])
    if args.timeline:
        _subreaper()
        for name, root in trees:
            print(f"  {name}:")
            timeline(root, corpus, None)
        return
    if args.same:
        if not _subreaper():
            print("  (not Linux: the forkserver is not waited for)")
        raise SystemExit(0 if same_stores(trees, corpus) else 1)
    if args.only_command:
        commands(trees, corpus, args.runs)
        return
    lint = min(child(_LINT, ROOT, str(corpus))["cpu"] for _ in range(args.runs))
    print(f"  lint                 {lint:6.2f} s CPU")
    base = min(child(_REPLAY, ROOT, str(corpus))["cpu"] for _ in range(args.runs))
    print(f"  read + replay alone  {base:6.2f} s CPU  (what every export must do)")
    new, store, info = export(ROOT, corpus, args.runs)
    n, size = files(store)
    print(f"  export (this tree)   {new:6.2f} s CPU  ×{new / lint:.2f} lint; its own work (rows, Arrow, Parquet) "
          f"{new - base:5.2f} s   {n} files, {size / 1e6:.1f} MB   {info['rows']}")
    if args.against:
        old, old_store, _ = export(args.against, corpus, args.runs)
        n, size = files(old_store)
        print(f"  export (--against)   {old:6.2f} s CPU  ×{old / lint:.2f} lint; its own work {old - base:5.2f} s   "
              f"{n} files, {size / 1e6:.1f} MB")
        print(f"  speed-up             ×{old / new:.2f} in all, ×{(old - base) / max(new - base, 1e-9):.2f} "
              f"on the export's own work")
        shutil.rmtree(old_store, ignore_errors=True)
    if args.command:
        commands(trees, corpus, args.runs)
    out = Path(tempfile.mkdtemp(prefix="bench-stats-")) / "plays.csv"
    code = ("import resource, subprocess, sys, time\n"
            "t = time.time()\n"
            "subprocess.run([sys.executable, '-m', 'analyzer', 'stats', sys.argv[1], '--sql', "
            "'SELECT * FROM plays', '-f', 'csv', '-o', sys.argv[2]], check=True)\n"
            "ru = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(time.time() - t, ru.ru_utime + ru.ru_stime, ru.ru_maxrss)\n")
    env = dict(child_env(), PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code, str(store), str(out)], capture_output=True, text=True, env=env)
    if r.returncode == 0:
        wall, cpu, rss = r.stdout.split()
        print(f"  stats --sql 'SELECT * FROM plays' -f csv   {float(wall):.2f} s wall, {float(cpu):.2f} s CPU, "
              f"peak RSS {int(rss) / 1024:.0f} MB, {out.stat().st_size / 1e6:.1f} MB of CSV")
    else:
        print("  stats failed:", r.stderr.strip()[-300:])
    shutil.rmtree(out.parent, ignore_errors=True)
    shutil.rmtree(store, ignore_errors=True)


if __name__ == "__main__":
    main()
