"""The review's speed as the user runs it (issue 32): ``shengji report FILE
--mistakes -f json -j 1``, ``shengji annotate FILE -j 1`` and ``shengji lint
--mistakes`` as commands, on realistic matches. Prints figures, asserts nothing.

Issue 32's target: ``annotate`` and ``report --mistakes`` with the full review
≥ 2 hands/s on one core with the native solver; ``lint --mistakes`` (the exact
window and the cheap checks only) ≥ 20 hands/s.

The corpus: whole generated matches climbing the level ladder
(:func:`analyzer.play.generate.generate_match`, fixed seeds, ``--hands`` played
hands each, redeals written and not counted) for every four-seat preset and
for finding friends at 5–8 players (the decks follow the players, as
shengji.io deals them), written under ``bench/out/review_speed/``; and the
Shengji files of ``samples/matches/``. Each file is run as a command in a
child process (its bytecode cached under ``bench/out/pycache``, as an installed
package has its ``.pyc``; one warm-up run of each command first), its process
CPU (user + sys of the child and its children, from the kernel's accounting)
and its wall time; beside it the same file's review in this process
(:func:`analyzer.review.mistakes.review_full` on the replayed match, warm,
process CPU; and ``lint --mistakes`` as :func:`analyzer.lint.lint_text`), so
that the command's fixed part (the interpreter, the imports, reading,
replaying, the report) reads as the difference (column "fixed": ``report``'s
CPU less the review's). The anchors, timed in
the same run: ``python -c pass`` and ``shengji --version`` (best of 3).

hands/s is the played hands (those with tricks) over the process CPU; a
preset's figure is its files' hands over their summed CPU. The children
inherit this process's environment: ``SHENGJI_NATIVE=1`` and the native
extension on ``PYTHONPATH`` give the native solver (the header says which).

    python bench/bench_review_speed.py                        # every preset, 4 hands each, the samples
    python bench/bench_review_speed.py --hands 6 --only titanic,friends
    python bench/bench_review_speed.py --commands report --no-inprocess --no-samples
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_startup import child_env, children_cpu  # noqa: E402  (the children's set-up and CPU, shared)

OUT = ROOT / "bench" / "out"
CORPUS = OUT / "review_speed"
SAMPLES = ROOT / "samples" / "matches"

#: the generated matches: (preset, players or None); every four-seat preset, finding friends at 5–8
FOUR_SEAT = ("standard", "tractor97", "campus", "one-deck", "titanic", "shengji-io", "shengji-fly", "80fen",
             "botzone", "shengji-godot")
FRIENDS = (("shengji-io-friends", 5), ("shengji-io-friends", 6), ("shengji-io-friends", 7),
           ("shengji-io-friends", 8))

#: the commands: name → arguments after the program (``{file}``: the file)
COMMANDS = {
    "report": ["report", "{file}", "--mistakes", "-f", "json", "-j", "1", "--no-progress"],
    "annotate": ["annotate", "{file}", "-j", "1", "--no-progress"],
    "lint": ["lint", "--mistakes", "--no-cache", "-j", "1", "{file}"],
}


@dataclass
class Case:
    """One file of the corpus."""
    name: str           # what the table calls it
    group: str          # its preset (and players)
    path: Path
    hands: int          # played hands (with tricks)
    decks: int
    cpu: dict[str, float] = field(default_factory=dict)     # command → CPU s
    wall: dict[str, float] = field(default_factory=dict)    # command → wall s
    status: dict[str, int] = field(default_factory=dict)    # command → exit status
    review: float | None = None                              # the review in process, CPU s
    lint: float | None = None                                # lint --mistakes in process, CPU s


def run_child(argv: list[str]) -> tuple[float, float, int]:
    """(CPU s, wall s, exit status) of ``argv``, its output thrown away. Children
    run one at a time, so the growth of RUSAGE_CHILDREN is this one's (and its
    own children's, once waited for)."""
    c, t = children_cpu(), time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                          cwd=OUT, env=child_env())
    return children_cpu() - c, time.perf_counter() - t, proc.returncode


def shape(path: Path) -> tuple[int, int]:
    """(played hands, decks) of the file's records."""
    from notation import parse
    from replay.game import replay
    records, _ = parse(path.read_text(encoding="utf-8"))
    hands = decks = 0
    for rec in records:
        m = replay(rec)
        hands += sum(1 for h in m.hands if h.tricks)
        decks = max([decks, *(h.ruleset.decks for h in m.hands if h.ruleset is not None)])
    return hands, decks


def corpus(hands: int, seed: int, only: list[str], samples: bool, generated: bool) -> list[Case]:
    from analyzer.play.generate import generate_match
    from notation import write
    CORPUS.mkdir(parents=True, exist_ok=True)
    out: list[Case] = []

    def wanted(name: str) -> bool:
        return not only or any(w in name for w in only)

    if generated:
        for k, (rules, players) in enumerate([*((p, None) for p in FOUR_SEAT), *FRIENDS]):
            group = rules if players is None else f"friends {players}p"
            if not wanted(group):
                continue
            path = CORPUS / f"{rules}{'' if players is None else f'-{players}p'}-{hands}h-seed{seed + k}.sjn"
            if not path.exists():
                rec = generate_match(rules, hands=hands, seed=seed + k, players=players)
                tmp = path.with_suffix(".tmp")
                tmp.write_text(write(rec), encoding="utf-8")
                tmp.replace(path)
            n, d = shape(path)
            out.append(Case(f"gen {group}", group, path, n, d))
    if samples:
        for path in sorted(SAMPLES.glob("*.sjn")):
            if not wanted(path.stem) and not wanted("samples"):
                continue
            n, d = shape(path)
            out.append(Case(path.name, "samples", path, n, d))
    return out


def in_process(case: Case, runs: int) -> float:
    """The review alone (:func:`review_full`, every record of the file), best process CPU of ``runs`` after a warm-up."""
    from analyzer.review.mistakes import review_full
    from notation import parse
    from replay.game import replay
    records, _ = parse(case.path.read_text(encoding="utf-8"))
    matches = [(rec, replay(rec)) for rec in records]
    best = float("inf")
    for i in range(runs + 1):
        t = time.process_time()
        for rec, m in matches:
            review_full(m, record=rec)
        if i:
            best = min(best, time.process_time() - t)
    return best


def lint_in_process(case: Case, runs: int) -> float:
    """``lint --mistakes`` in this process (:func:`analyzer.lint.lint_text`: parse, replay, lint,
    the exact window and the pattern rules), best process CPU of ``runs`` after a warm-up."""
    from analyzer import lint as L
    text = case.path.read_text(encoding="utf-8")
    best = float("inf")
    for i in range(runs + 1):
        t = time.process_time()
        L.lint_text(text, case.path.name, rules=None, mistakes=True)
        if i:
            best = min(best, time.process_time() - t)
    return best


def rate(hands: int, cpu: float | None) -> str:
    return "—" if not cpu else f"{hands / cpu:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=4, help="played hands per generated match (default 4)")
    ap.add_argument("--seed", type=int, default=3200, help="the first match's seed (each preset: the next)")
    ap.add_argument("--only", default="", help="comma-separated words: only the files whose preset or name has one")
    ap.add_argument("--commands", default="report,annotate,lint", help="which commands (report, annotate, lint)")
    ap.add_argument("--runs", type=int, default=1, help="timed runs of each command and review (best kept; default 1)")
    ap.add_argument("--no-samples", action="store_true", help="leave out samples/matches")
    ap.add_argument("--no-generated", action="store_true", help="leave out the generated matches")
    ap.add_argument("--no-inprocess", action="store_true", help="leave out the review in this process")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    only = [w for w in args.only.split(",") if w]
    commands = [c for c in args.commands.split(",") if c]
    for c in commands:
        if c not in COMMANDS:
            ap.error(f"--commands: {c!r} is not one of {', '.join(COMMANDS)}")
    py = sys.executable
    cli = [py, "-m", "analyzer"]
    from analyzer.cli._core import search_backend
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start; "
          f"solver: {search_backend()}; best of {args.runs}; CPU = user + sys of the process and its children")
    cases = corpus(args.hands, args.seed, only, not args.no_samples, not args.no_generated)

    # the anchors (the bytecode cache is filled by the first run of each)
    run_child(cli + ["--version"])
    anchors = []
    for name, argv in (("python -c pass", [py, "-c", "pass"]), ("shengji --version", cli + ["--version"])):
        got = [run_child(argv) for _ in range(3)]
        anchors.append((name, min(g[0] for g in got), min(g[1] for g in got)))
    print("anchors: " + "; ".join(f"{n} {c * 1000:.0f} ms CPU, {w * 1000:.0f} ms wall" for n, c, w in anchors))

    for c in commands:   # a warm-up of each command (the bytecode of its modules)
        run_child(cli + [a.replace("{file}", str(SAMPLES / "one-deck.sjn")) for a in COMMANDS[c]])

    head = f"{'file':28} {'hands':>5} {'decks':>5}"
    for c in commands:
        head += f" | {c + ' CPU':>12} {'wall':>6} {'h/s':>6}"
    if not args.no_inprocess:
        head += f" | {'review CPU':>10} {'h/s':>6} {'fixed':>6} | {'lint CPU':>8} {'h/s':>6}"
    print(head)
    for case in cases:
        for c in commands:
            argv = cli + [a.replace("{file}", str(case.path)) for a in COMMANDS[c]]
            got = [run_child(argv) for _ in range(args.runs)]
            case.cpu[c] = min(g[0] for g in got)
            case.wall[c] = min(g[1] for g in got)
            case.status[c] = max(g[2] for g in got)
        if not args.no_inprocess:
            case.review = in_process(case, args.runs)
            case.lint = lint_in_process(case, args.runs)
        line = f"{case.name:28} {case.hands:5d} {case.decks:5d}"
        for c in commands:
            bad = "!" if case.status[c] not in (0, 1) else " "   # (lint: 1 = findings)
            line += f" | {case.cpu[c]:11.2f}{bad} {case.wall[c]:6.2f} {rate(case.hands, case.cpu[c]):>6}"
        if case.review is not None:
            fixed = case.cpu.get("report", case.cpu.get("annotate"))
            line += (f" | {case.review:10.2f} {rate(case.hands, case.review):>6} "
                     f"{'' if fixed is None else f'{fixed - case.review:6.2f}':>6}"
                     f" | {case.lint or 0.0:8.2f} {rate(case.hands, case.lint):>6}")
        print(line, flush=True)

    print()
    print("per preset (hands over summed CPU):")
    head = f"{'preset':28} {'hands':>5}" + "".join(f" {c + ' h/s':>14}" for c in commands)
    print(head + ("" if args.no_inprocess else f" {'review in process h/s':>22} {'lint in process h/s':>20}"))
    groups: dict[str, list[Case]] = {}
    for case in cases:
        groups.setdefault(case.group, []).append(case)
    for g, cs in [*groups.items(), ("all", cases)]:
        n = sum(x.hands for x in cs)
        line = f"{g:28} {n:5d}" + "".join(f" {rate(n, sum(x.cpu[c] for x in cs)):>14}" for c in commands)
        if not args.no_inprocess:
            line += (f" {rate(n, sum(x.review or 0.0 for x in cs)):>22}"
                     f" {rate(n, sum(x.lint or 0.0 for x in cs)):>20}")
        print(line)
    print("(! an exit status other than 0 or 1)")
    print(f"targets: report/annotate ≥ 2 hands/s, lint --mistakes ≥ 20 hands/s; load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
