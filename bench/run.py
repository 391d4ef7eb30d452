"""The benchmark harness: one run prints every speed and memory figure.

    python bench/run.py            # the full run (2,000-hand corpus, 100,000-hand file)
    python bench/run.py --quick    # a smaller run for a quick look

Figures (one core unless said otherwise; CPU time where the work is in this
process, wall time for subprocesses):

* parse hands/s (SJN text → record models);
* parse + replay + lint hands/s (``analyzer.lint.lint_text``);
* ``report --format json`` hands/s;
* ``annotate`` hands/s (the full mistake review: endgame search K = 4 and the
  player's-view sampling) and ``lint --mistakes`` hands/s (the fast pass);
* ``shengji lint --jobs 2`` speed-up over ``--jobs 1`` (wall time, subprocesses);
* peak RSS of ``shengji lint`` on a 100,000-hand file (the corpus repeated);
* the anchor: python-chess reading 3,000 random 80-ply PGN games, and our
  card plays/s over its plies/s.

The corpus is generated once by seed into ``bench/out/`` (not committed) and
reused. Nothing here asserts: targets live in docs/performance.md.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "bench" / "out"


def cpu() -> float:
    return time.process_time()


def corpus(hands: int) -> tuple[str, int, int]:
    """A fixed corpus of ``hands`` full two-deck hands (standard, one hand per
    record, seeds 0..hands-1): (text, hands, card plays)."""
    from notation import parse, write

    from analyzer.generate import generate_match
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"corpus-{hands}.sjn"
    if not path.exists():
        t = time.perf_counter()
        with open(path, "w", encoding="utf-8") as f:
            for seed in range(hands):
                f.write(write(generate_match("standard", hands=1, seed=seed)))
                f.write("\n")
        print(f"(generated {hands} hands in {time.perf_counter() - t:.1f} s into {path})")
    text = path.read_text(encoding="utf-8")
    records, _ = parse(text)
    n = sum(len(r.hands) for r in records)
    plays = sum(len(p.cards) for r in records for h in r.hands for t in h.tricks for p in t.plays)
    return text, n, plays


def best_of(runs: int, fn) -> float:
    """The best CPU time of ``runs`` calls."""
    times = []
    for _ in range(runs):
        t = cpu()
        fn()
        times.append(cpu() - t)
    return min(times)


def bench_parse(text: str, n: int, runs: int) -> float:
    from notation import iter_records

    def go() -> None:
        for _ in iter_records(io.StringIO(text)):
            pass
    return n / best_of(runs, go)


def bench_lint(text: str, n: int, runs: int) -> float:
    from analyzer.lint import lint_text
    return n / best_of(runs, lambda: lint_text(text, "corpus.sjn"))


def bench_report(text: str, n: int, runs: int) -> float:
    from analyzer import report as R
    return n / best_of(runs, lambda: R.render(R.build_report(text, "corpus.sjn"), "json"))


def bench_annotate(text: str, limit: int, samples: int | None = None) -> tuple[float, int] | None:
    """The mistake review on the first ``limit`` records (``samples=0``: the
    lint pass, no player's-view sampling)."""
    try:
        from analyzer import mistakes
    except ImportError:
        return None
    from notation import parse
    from replay.game import replay
    records, _ = parse(text)
    records = records[:limit]
    review = getattr(mistakes, "review", None)
    if review is None:
        return None
    t = cpu()
    opts = {} if samples is None else {"samples": samples}
    for r in records:
        review(replay(r), record=r, **opts)
    dt = cpu() - t
    return len(records) / dt, len(records)


_CHILD = """
import resource, runpy, sys
sys.argv = ["shengji"] + sys.argv[1:]
try:
    runpy.run_module("analyzer", run_name="__main__")
except SystemExit:
    pass
finally:
    # VmHWM is this process's own peak (ru_maxrss would keep the forked parent's across exec)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1])
    except OSError:
        pass
    print("MAXRSS", peak, file=sys.stderr)
"""


def run_cli(args: list[str]) -> tuple[float, int]:
    """Wall time and peak RSS (KiB) of ``shengji ARGS`` in a subprocess.

    The child reports its own peak, VmHWM (Linux keeps ``ru_maxrss`` across
    exec, so a child forked from this big process would report our peak)."""
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, cwd=ROOT)
    wall = time.perf_counter() - t
    rss = 0
    for line in proc.stderr.splitlines():
        if line.startswith("MAXRSS "):
            rss = int(line.split()[1])
    return wall, rss


def big_file(text: str, copies: int, hands: int) -> Path:
    path = OUT / f"big-{hands}x{copies}.sjn"
    if not path.exists():
        with open(path, "w", encoding="utf-8") as f:
            for _ in range(copies):
                f.write(text)
    return path


def chess_anchor(games: int, plies: int) -> float | None:
    """python-chess reading ``games`` random ``plies``-ply PGN games: plies/s."""
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"chess-{games}x{plies}.pgn"
    if not path.exists():
        rng = random.Random(0)
        with open(path, "w", encoding="utf-8") as f:
            for _ in range(games):
                board = chess.Board()
                for _ in range(plies):
                    moves = list(board.legal_moves)
                    if not moves:
                        break
                    board.push(rng.choice(moves))
                print(chess.pgn.Game.from_board(board), file=f, end="\n\n")
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
    dt = best_of(2, go)
    return total / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller corpus and files")
    args = ap.parse_args()
    hands = 200 if args.quick else 2000
    copies = 5 if args.quick else 50
    runs = 2 if args.quick else 3

    text, n, plays = corpus(hands)
    per_hand = plays / n
    print(f"corpus: {n} two-deck hands (standard), {per_hand:.0f} card plays per hand, "
          f"{len(text) / n:.0f} characters per hand")
    rows: list[tuple[str, str, str]] = []

    parse_hs = bench_parse(text, n, runs)
    rows.append(("parse (streaming)", f"{parse_hs:,.0f} hands/s", "≥ 2,000"))
    lint_hs = bench_lint(text, n, runs)
    rows.append(("parse + replay + lint", f"{lint_hs:,.0f} hands/s ({lint_hs * per_hand:,.0f} plays/s)",
                 "≥ 1,000 hands/s"))
    rep_hs = bench_report(text, n, runs)
    rows.append(("report --format json", f"{rep_hs:,.0f} hands/s", ""))
    ann = bench_annotate(text, 20 if args.quick else 100)
    rows.append(("annotate (full mistake review)",
                 f"{ann[0]:,.1f} hands/s over {ann[1]} hands" if ann else "not available", ""))
    fast = bench_annotate(text, 20 if args.quick else 100, samples=0)
    rows.append(("lint --mistakes (fast pass)",
                 f"{fast[0]:,.1f} hands/s over {fast[1]} hands" if fast else "not available", "≥ 20 hands/s"))

    # the speed-up on a file of 5 × the corpus (10,000 hands; the --quick run: 1,000),
    # best of three runs each (wall time, including the start of the command)
    mid = big_file(text, 5, n)
    t1 = min(run_cli(["lint", "--jobs", "1", "--quiet", str(mid)])[0] for _ in range(3))
    t2 = min(run_cli(["lint", "--jobs", "2", "--quiet", str(mid)])[0] for _ in range(3))
    rows.append(("lint --jobs 2 vs --jobs 1",
                 f"×{t1 / t2:.2f} ({t1:.1f} s → {t2:.1f} s wall, {5 * n:,} hands)", "≥ ×1.8"))
    big = big_file(text, copies, n)
    tb, rss = run_cli(["lint", "--jobs", "1", "--quiet", str(big)])
    rows.append((f"lint peak RSS, {n * copies:,}-hand file", f"{rss / 1024:.0f} MB ({tb:.0f} s wall)",
                 "< 200 MB"))

    chess_ps = chess_anchor(300 if args.quick else 3000, 80)
    if chess_ps is None:
        rows.append(("anchor: python-chess PGN reading", "not installed (pip install '.[bench]')", ""))
    else:
        rows.append(("anchor: python-chess PGN reading", f"{chess_ps:,.0f} plies/s", ""))
        rows.append(("our card plays/s ÷ its plies/s", f"×{lint_hs * per_hand / chess_ps:.2f}", "≈ ×2.5"))

    width = max(len(r[0]) for r in rows)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for name, value, target in rows:
        print(f"  {name:<{width}}  {value}" + (f"   (target {target})" if target else ""))


if __name__ == "__main__":
    main()
