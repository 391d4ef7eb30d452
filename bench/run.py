"""The benchmark harness: one run prints every speed and memory figure.

    python bench/run.py            # the full run (2,000-hand corpus, 100,000-hand file)
    python bench/run.py --quick    # a smaller run for a quick look
    python bench/run.py --no-files # without the big-file figures (--jobs, peak RSS)

The unit is the **turn**: one seat's play in one trick, the counterpart of a
chess ply (counted from the records: a hand of the corpus has about 67). Every
figure is given next to python-chess reading random 80-ply PGN games in the
same run, as a ratio (turns/s ÷ plies/s), so runs on machines of different
speed, or on a busy machine, can be compared.

Figures:

* in this process (CPU time, best of the runs): parse hands/s (SJN text →
  record models) and ``analyzer.lint.lint_text`` (parse + replay + lint);
* **through the command line, end to end**, one child process per run of
  ``shengji lint --jobs 1``, ``shengji report --format json``,
  ``shengji convert --to json`` and ``shengji lint --jobs 1 --mistakes`` (on a
  smaller corpus), the command's output written to a file:

  - *start excluded*: the child first runs the same command on a one-hand
    file (interpreter start, imports, the one-time set-up of caches), then
    times the real run from inside (its own CPU time, from the call of the
    command to the flush of its output);
  - *whole process*: the child's CPU time (user + sys, from the kernel's
    accounting), start and warm-up run included, against a whole
    ``python -c`` process reading the PGN file with python-chess;

* start-up: ``shengji --version`` and a one-hand ``shengji lint`` (wall time,
  the console script's own code), next to ``python -c pass``;
* ``shengji lint --jobs 2`` speed-up over ``--jobs 1`` (wall time);
* peak RSS of ``shengji lint`` on a 100,000-hand file (the corpus repeated).

Child processes run the tree this file is in (``PYTHONPATH``) with bytecode
cached under ``bench/out/pycache`` (as an installed package has its ``.pyc``;
the source tree may be run with ``PYTHONDONTWRITEBYTECODE``, which would make
every start compile every module again).

The corpus is generated once by seed into ``bench/out/`` (not committed) and
reused. Nothing here asserts: targets live in docs/performance.md.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "bench" / "out"

from bench.bench_startup import child_env  # noqa: E402  (the children's environment, shared)


def cpu() -> float:
    return time.process_time()


def corpus_file(hands: int) -> Path:
    """A fixed corpus of ``hands`` full two-deck hands (standard, one hand per
    record, seeds 0..hands-1), generated once."""
    from analyzer.play.generate import generate_match
    from notation import write
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"corpus-{hands}.sjn"
    if not path.exists():
        t = time.perf_counter()
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for seed in range(hands):
                f.write(write(generate_match("standard", hands=1, seed=seed)))
                f.write("\n")
        tmp.replace(path)
        print(f"(generated {hands} hands in {time.perf_counter() - t:.1f} s into {path})")
    return path


def measure(text: str) -> tuple[int, int]:
    """(hands, turns) of a text: a turn is one seat's play in one trick."""
    from notation import parse
    records, _ = parse(text)
    hands = sum(len(r.hands) for r in records)
    turns = sum(len(t.plays) for r in records for h in r.hands for t in h.tricks)
    return hands, turns


def measure_gouji(text: str) -> tuple[int, int]:
    """(games, turns) of a GJN text: a turn is one action (a play or a pass)."""
    from notation import gjn
    records, _ = gjn.parse(text)
    return sum(len(r.games) for r in records), sum(len(g.actions) for r in records for g in r.games)


def best_of(runs: int, fn) -> float:
    """The best CPU time of ``runs`` calls."""
    times = []
    for _ in range(runs):
        t = cpu()
        fn()
        times.append(cpu() - t)
    return min(times)


def bench_parse(text: str, runs: int) -> float:
    """Seconds (CPU) to stream-parse ``text``."""
    from notation import iter_records

    def go() -> None:
        for _ in iter_records(io.StringIO(text)):
            pass
    return best_of(runs, go)


def bench_lint(text: str, runs: int) -> float:
    """Seconds (CPU) of ``lint_text`` over ``text``."""
    from analyzer.lint import lint_text
    return best_of(runs, lambda: lint_text(text, "corpus.sjn"))


# -- the command line, in child processes -----------------------------------------------

#: argv: WARM (a one-hand file, or "" for none) then the command's arguments,
#: where FILE stands for the file (the warm-up file, then the real one)
_CHILD = r"""
import os, runpy, sys, time
warm, real, args = sys.argv[1], sys.argv[2], sys.argv[3:]

def run(path):
    sys.argv = ["shengji"] + [path if a == "FILE" else a for a in args]
    try:
        runpy.run_module("analyzer", run_name="__main__")
    except SystemExit:
        pass

if warm:
    out, sys.stdout = sys.stdout, open(os.devnull, "w", encoding="utf-8")
    try:
        run(warm)
    finally:
        sys.stdout.close()
        sys.stdout = out
c, t = time.process_time(), time.perf_counter()
run(real)
sys.stdout.flush()
c, t = time.process_time() - c, time.perf_counter() - t
# VmHWM is this process's own peak (ru_maxrss would keep the forked parent's across exec)
peak = 0
try:
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1])
except OSError:
    pass
print("TIMES", c, t, peak, file=sys.stderr)
"""


class Run:
    """One child process: its times (s) and peak RSS (KiB)."""

    def __init__(self, inner_cpu: float, inner_wall: float, cpu: float, wall: float, rss: int):
        self.inner_cpu, self.inner_wall, self.cpu, self.wall, self.rss = inner_cpu, inner_wall, cpu, wall, rss


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_child(argv: list[str], out: Path | None = None) -> tuple[float, float, str]:
    """Run ``argv``; (its CPU time, its wall time, its stderr). Children run
    one at a time, so the growth of RUSAGE_CHILDREN is this one's CPU time."""
    c, t = children_cpu(), time.perf_counter()
    with open(out if out else os.devnull, "w", encoding="utf-8") as f:
        proc = subprocess.run(argv, stdout=f, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                              env=child_env())
    return children_cpu() - c, time.perf_counter() - t, proc.stderr


def run_cli(args: list[str], path: Path, warm: Path | None = None, out: Path | None = None) -> Run:
    """``shengji ARGS`` (FILE in ARGS stands for ``path``) in a child process,
    after a warm-up run on ``warm`` when given."""
    c, t, err = run_child([sys.executable, "-c", _CHILD, str(warm or ""), str(path), *args], out)
    inner_cpu = inner_wall = 0.0
    rss = 0
    for line in err.splitlines():
        if line.startswith("TIMES "):
            _, a, b, r = line.split()
            inner_cpu, inner_wall, rss = float(a), float(b), int(r)
    if not inner_wall:
        print(f"  (shengji {' '.join(args)}: no timing from the child: {err.strip()[-300:]})")
    return Run(inner_cpu, inner_wall, c, t, rss)


def best_run(runs: int, args: list[str], path: Path, warm: Path | None, out: Path) -> Run:
    """The best of ``runs`` (the least CPU time inside, and apart the least in all)."""
    got = [run_cli(args, path, warm, out) for _ in range(runs)]
    best = min(got, key=lambda r: r.inner_cpu)
    best.cpu = min(r.cpu for r in got)
    best.wall = min(r.wall for r in got)
    return best


def startup(runs: int, one: Path) -> list[tuple[str, float, float]]:
    """(name, CPU time, wall time) in s, each the best of ``runs``, of a bare
    interpreter, ``shengji --version`` and a one-hand lint, each as the
    console script runs it. On a busy machine the wall time grows with the
    load; the CPU time (user + sys) much less."""
    script = "import sys; from analyzer.cli import app; sys.argv[0] = 'shengji'; sys.exit(app())"
    cases = [("python -c pass", [sys.executable, "-c", "pass"]),
             ("shengji --version", [sys.executable, "-c", script, "--version"]),
             ("shengji lint (one hand)", [sys.executable, "-c", script, "lint", "--no-cache", str(one)])]
    out = []
    for name, argv in cases:
        run_child(argv)  # bytecode into the cache
        got = [run_child(argv) for _ in range(runs)]
        out.append((name, min(g[0] for g in got), min(g[1] for g in got)))
    return out


def big_file(text: str, copies: int, hands: int) -> Path:
    path = OUT / f"big-{hands}x{copies}.sjn"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for _ in range(copies):
                f.write(text)
        tmp.replace(path)
    return path


# -- the anchor: python-chess ------------------------------------------------------------

_CHESS_CHILD = r"""
import sys, chess.pgn
n = 0
with open(sys.argv[1], encoding="utf-8") as f:
    while (game := chess.pgn.read_game(f)) is not None:
        n += sum(1 for _ in game.mainline_moves())
print(n)
"""


def chess_file(games: int, plies: int) -> Path | None:
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"chess-{games}x{plies}.pgn"
    if not path.exists():
        rng = random.Random(0)
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for _ in range(games):
                board = chess.Board()
                for _ in range(plies):
                    moves = list(board.legal_moves)
                    if not moves:
                        break
                    board.push(rng.choice(moves))
                print(chess.pgn.Game.from_board(board), file=f, end="\n\n")
        tmp.replace(path)
    return path


def chess_in_process(path: Path, runs: int) -> tuple[int, float]:
    """python-chess reading the PGN file here: (plies, best CPU seconds)."""
    import chess.pgn
    text = path.read_text(encoding="utf-8")
    total = 0

    def go() -> None:
        nonlocal total
        total = 0
        stream = io.StringIO(text)
        while True:
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            total += sum(1 for _ in game.mainline_moves())
    seconds = best_of(runs, go)
    return total, seconds


def chess_process(path: Path, runs: int) -> float:
    """CPU seconds of a whole ``python -c`` process reading the PGN file (best of ``runs``)."""
    return min(run_child([sys.executable, "-c", _CHESS_CHILD, str(path)])[0] for _ in range(runs))


# -- the run --------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller corpus and files")
    ap.add_argument("--no-files", action="store_true",
                    help="skip the big-file figures (--jobs 2 speed-up, peak RSS): the slowest part")
    ap.add_argument("--corpus", choices=("realistic", "standard"), default="realistic",
                    help="realistic (default): whole matches of every preset, finding friends at 5-8 seats and "
                         "Gouji (bench/corpus.py); standard: single standard hands at level 2 (the figures of "
                         "the sessions before the eighth)")
    args = ap.parse_args()
    quick = args.quick
    hands_wanted = 200 if quick else 2000
    copies = 5 if quick else 50
    runs = 2 if quick else 3

    gouji: Path | None = None
    if args.corpus == "realistic":
        from corpus import make_up, realistic_corpus
        path, gouji = realistic_corpus(hands_wanted)
    else:
        path = corpus_file(hands_wanted)
    text = path.read_text(encoding="utf-8")
    n, turns = measure(text)
    small = corpus_file(5 if quick else 20)  # for --mistakes
    n_small, turns_small = measure(small.read_text(encoding="utf-8"))
    one = corpus_file(1)
    if gouji is None:
        print(f"corpus: {n} two-deck hands (standard), {turns / n:.1f} turns per hand, "
              f"{len(text) / n:.0f} characters per hand")
    else:
        print(f"corpus: {path.name} ({n} Shengji hands in whole matches, {turns / n:.1f} turns per hand, "
              f"{len(text) / n:.0f} characters per hand) and {gouji.name}:")
        print("  " + make_up(path, gouji).replace("\n", "\n  "))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the start")

    chess = chess_file(300 if quick else 3000, 80)
    if chess is None:
        print("python-chess is not installed (pip install -e '.[bench]'): no ratios")
        chess_ps = chess_proc_ps = None
    else:
        plies, dt = chess_in_process(chess, runs)
        chess_ps = plies / dt
        chess_proc_ps = plies / chess_process(chess, runs)
        print(f"anchor: python-chess reads {chess_ps:,.0f} plies/s in process, "
              f"{chess_proc_ps:,.0f} plies/s as a whole `python -c` process ({plies:,} plies)")

    def ratio(turns_per_s: float, anchor: float | None) -> str:
        if not anchor:
            return "—"
        r = turns_per_s / anchor
        return f"×{r:.2f}" if r >= 0.1 else f"×{r:.4f}"

    rows: list[tuple[str, str, str, str, str]] = []  # figure, hands/s, turns/s, ratio, target

    def row(name: str, hands: int, turn_count: int, seconds: float, anchor: float | None,
            target: str = "") -> None:
        """``target``: ``"×2.5"`` (a ratio to python-chess) or ``"20 hands/s"``, from docs/performance.md."""
        hps, tps = hands / seconds, turn_count / seconds
        if target.startswith("×") and anchor:
            target += " met" if tps / anchor >= float(target[1:]) else " not yet"
        elif target.endswith("hands/s"):
            target += " met" if hps >= float(target.split()[0]) else " not yet"
        rows.append((name, f"{hps:,.1f}" if hps < 100 else f"{hps:,.0f}",
                     f"{tps:,.0f}", ratio(tps, anchor), target))

    row("parse, streaming (in process)", n, turns, bench_parse(text, runs), chess_ps)
    row("lint_text (in process)", n, turns, bench_lint(text, runs), chess_ps)

    OUT.mkdir(parents=True, exist_ok=True)
    # (name, argv, file, hands, turns, target of issue 22 / docs/performance.md)
    commands = [
        ("shengji lint --jobs 1", ["lint", "--no-cache", "--jobs", "1", "FILE"], path, n, turns, "×2.5"),
        ("shengji report --format json", ["report", "--format", "json", "FILE"], path, n, turns, "×1.5"),
        ("shengji convert --to json", ["convert", "FILE", "--to", "json"], path, n, turns, "×1.5"),
        ("shengji lint --jobs 1 --mistakes", ["lint", "--no-cache", "--jobs", "1", "--mistakes", "FILE"], small,
         n_small, turns_small, "20 hands/s"),
    ]
    if gouji is not None:
        gn, gturns = measure_gouji(gouji.read_text(encoding="utf-8"))
        commands.insert(1, ("shengji lint --jobs 1, the Gouji file", ["lint", "--no-cache", "--jobs", "1", "FILE"], gouji, gn,
                            gturns, ""))
    whole: list[tuple[str, str, str, str, str]] = []
    for name, argv, file, hands, turn_count, target in commands:
        r = best_run(1 if "--mistakes" in argv else runs, argv, file, one, OUT / "cli-output.txt")
        if not r.inner_cpu:
            continue
        row(f"{name} (start excluded)", hands, turn_count, r.inner_cpu, chess_ps, target)
        whole.append((f"{name} (whole process, {r.cpu:.2f} s)", f"{hands / r.cpu:,.1f}",
                      f"{turn_count / r.cpu:,.0f}", ratio(turn_count / r.cpu, chess_proc_ps), ""))
    rows.extend(whole)

    width = max(len(r[0]) for r in rows)
    print(f"\n  {'figure (CPU time; output written to a file)':<{width}}  {'hands/s':>9}  {'turns/s':>9}  "
          f"{'vs chess':>8}  target")
    for name, hs, ts, ra, target in rows:
        print(f"  {name:<{width}}  {hs:>9}  {ts:>9}  {ra:>8}  {target}".rstrip())

    print("\nstart-up (best of 10; targets: --version ≤ 150 ms, one-hand lint ≤ 200 ms):")
    for name, cpu_s, wall in startup(10, one):
        print(f"  {name:<24} {wall * 1000:5.0f} ms wall, {cpu_s * 1000:5.0f} ms CPU")

    if args.no_files:
        print(f"load {os.getloadavg()[0]:.1f} at the end")
        return
    # the speed-up on a file of 5 × the corpus (10,000 hands; the --quick run: 1,000),
    # best of three runs each (wall time, including the start of the command)
    mid = big_file(text, 5, n)
    size = mid.stat().st_size
    load_before = os.getloadavg()
    t1 = min(run_cli(["lint", "--no-cache", "--jobs", "1", "--quiet", "FILE"], mid).wall for _ in range(3))
    t2 = min(run_cli(["lint", "--no-cache", "--jobs", "2", "--quiet", "FILE"], mid).wall for _ in range(3))
    load_after = os.getloadavg()
    print(f"\nlint --jobs 2 vs --jobs 1: ×{t1 / t2:.2f} ({t1:.1f} s → {t2:.1f} s wall, {5 * n:,} hands, "
          f"a {size / 1e6:.1f} MB file; target ≥ ×1.8 on an idle machine for files from 2 MB"
          f"{'' if size >= 2e6 else ': this file is smaller'})")
    # the corpus file itself (2.1 MB on the full run: the smallest size the target names),
    # both ways: the whole process (its start is not parallel) and start excluded
    runs1 = [run_cli(["lint", "--no-cache", "--jobs", "1", "--quiet", "FILE"], path, one) for _ in range(3)]
    runs2 = [run_cli(["lint", "--no-cache", "--jobs", "2", "--quiet", "FILE"], path, one) for _ in range(3)]
    w1, w2 = min(r.wall for r in runs1), min(r.wall for r in runs2)
    i1, i2 = min(r.inner_wall for r in runs1), min(r.inner_wall for r in runs2)
    print(f"  on the corpus file ({path.stat().st_size / 1e6:.1f} MB, {n:,} hands): ×{i1 / i2:.2f} start excluded "
          f"({i1:.2f} s → {i2:.2f} s), ×{w1 / w2:.2f} whole process ({w1:.2f} s → {w2:.2f} s: the start is not shared)")
    load_after = os.getloadavg()
    print(f"  load average (1, 5, 15 min) {load_before[0]:.1f} {load_before[1]:.1f} {load_before[2]:.1f} before, "
          f"{load_after[0]:.1f} {load_after[1]:.1f} {load_after[2]:.1f} after, on {os.cpu_count()} cores"
          f"{'' if load_before[0] < 0.5 else ': not idle, the speed-up measures the other processes too'}")
    big = big_file(text, copies, n)
    r = run_cli(["lint", "--no-cache", "--jobs", "1", "--quiet", "FILE"], big)
    print(f"lint peak RSS, {n * copies:,}-hand file: {r.rss / 1024:.0f} MB ({r.wall:.0f} s wall; target < 200 MB)")
    print(f"load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
