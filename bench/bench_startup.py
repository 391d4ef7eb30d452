"""Start-up benchmark: what each ``shengji`` command costs as a whole process on
one small file (issues 32, 34, 35). Prints figures, asserts nothing.

Each case is a child process run ``--runs`` times after one run that fills the
bytecode cache; the figures are the best (least) wall time and the best CPU
time (user + sys, from the kernel's accounting of the child) of those runs. On
a busy machine the wall time grows with the load, the CPU time much less.

    python bench/bench_startup.py [--runs 10] [--file samples/matches/standard.sjn]
                                  [--mistakes-file samples/matches/titanic.sjn] [--only NAME,...]
                                  [--against OTHER_TREE]

``--against`` times another checkout of the project (an older commit: ``git
archive COMMIT | tar -x -C DIR``) beside this one, the two trees' runs
interleaved, so that a change of the machine's load falls on both alike.

Beside the commands: ``python -c pass`` (the interpreter alone) and, when
python-chess is installed (``pip install 'shengji[bench]'``), ``python -c
"import chess.pgn"`` (the anchor of bench/run.py: a library's import on this
machine). The children run the tree this file is in (``PYTHONPATH``), in a
temporary directory (no configuration file, no lint cache), with bytecode
cached under ``bench/out/pycache`` as an installed package has its ``.pyc``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
SAMPLES = ROOT / "samples" / "matches"


def child_env(root: Path = ROOT) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(OUT / "pycache")
    env["PYTHONPATH"] = str(root) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_child(argv: list[str], cwd: Path, root: Path = ROOT) -> tuple[float, float, int]:
    """Run ``argv`` in ``cwd`` on the tree ``root``, its output thrown away: (CPU s,
    wall s, exit status). Children run one at a time, so the growth of
    RUSAGE_CHILDREN is this one's."""
    c, t = children_cpu(), time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd, env=child_env(root),
                          stdin=subprocess.DEVNULL)
    return children_cpu() - c, time.perf_counter() - t, proc.returncode


def cases(file: Path, mistakes_file: Path) -> list[tuple[str, list[str]]]:
    """(name, argv); ``{out}`` in an argument is a fresh directory of each run."""
    py = sys.executable
    cli = [py, "-m", "analyzer"]
    out = [("python -c pass", [py, "-c", "pass"])]
    if importlib.util.find_spec("chess") is not None:
        out.append(("python -c 'import chess.pgn'", [py, "-c", "import chess.pgn"]))
    out += [
        ("shengji --version", [*cli, "--version"]),
        (f"shengji lint {file.name}", [*cli, "lint", "--no-cache", "-j", "1", str(file)]),
        (f"shengji report {file.name}", [*cli, "report", str(file)]),
        (f"shengji report {mistakes_file.name} --mistakes -f json -j 1",
         [*cli, "report", str(mistakes_file), "--mistakes", "-f", "json", "-j", "1", "--no-progress"]),
        (f"shengji export parquet OUT {file.name}",
         [*cli, "export", "parquet", "{out}", str(file), "-j", "1", "--no-progress"]),
        (f"shengji fmt {file.name}", [*cli, "fmt", str(file)]),
    ]
    return out


def measure(argv: list[str], runs: int, work: Path, roots: list[Path]) -> list[tuple[float, float, int]]:
    """For each tree of ``roots``: (best CPU, best wall, worst exit status) over
    ``runs`` runs after one warm-up run, the trees' runs interleaved."""
    got: list[list[tuple[float, float, int]]] = [[] for _ in roots]
    for i in range(runs + 1):
        for k, root in enumerate(roots):
            target = work / f"out{i}"
            shutil.rmtree(target, ignore_errors=True)
            got[k].append(run_child([a.replace("{out}", str(target)) for a in argv], work, root))
            shutil.rmtree(target, ignore_errors=True)
    return [(min(g[0] for g in runs_[1:]), min(g[1] for g in runs_[1:]), max(g[2] for g in runs_[1:]))
            for runs_ in got]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10, help="timed runs of each case (default 10)")
    ap.add_argument("--file", type=Path, default=SAMPLES / "standard.sjn", help="the small file of the commands")
    ap.add_argument("--mistakes-file", type=Path, default=SAMPLES / "titanic.sjn",
                    help="the file of report --mistakes (default: the 3-hand titanic sample)")
    ap.add_argument("--only", default="", help="comma-separated words: only the cases whose name has one")
    ap.add_argument("--against", type=Path, default=None,
                    help="another checkout of the project, timed beside this one (its figures first)")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    roots = [ROOT] if args.against is None else [args.against.resolve(), ROOT]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start; "
          f"best of {args.runs} runs" + (f"; first {roots[0]}, then this tree" if len(roots) > 1 else ""))
    print(f"{'case':58}" + "".join(f" {'wall ms':>8} {'CPU ms':>8}" for _ in roots))
    words = [w for w in args.only.split(",") if w]
    with tempfile.TemporaryDirectory(prefix="shengji-startup-") as tmp:
        for name, argv in cases(args.file.resolve(), args.mistakes_file.resolve()):
            if words and not any(w in name for w in words):
                continue
            figures = measure(argv, args.runs, Path(tmp), roots)
            cols = "".join(f" {wall * 1000:8.0f} {cpu * 1000:8.0f}" for cpu, wall, _status in figures)
            bad = [status for _cpu, _wall, status in figures if status]
            note = f"  (exit status {max(bad)})" if bad else ""
            print(f"{name:58}{cols}{note}", flush=True)
    print(f"load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
