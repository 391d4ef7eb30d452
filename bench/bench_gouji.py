"""Gouji benchmark: parse + replay + lint throughput on generated complete
games (GOUJI.md), in actions ("plays", passes and lets included) per second
on one core. Prints figures, asserts nothing.

The games come from :func:`analyzer.games.gouji.generate.generate_match` (every
preset, fixed seeds), written as GJN text once. Then, best of ``--repeat``:

* parse: GJN text → records (``notation.gjn.parse``);
* replay: records → ``replay.gouji.replay`` with the per-action timeline;
* lint: replay without the timeline (what ``shengji lint`` needs);
* parse + lint: the whole path of ``shengji lint`` on a GJN file.

    python bench/bench_gouji.py [--games 30] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.games.gouji.generate import generate_match
from notation import gjn
from replay.gouji import replay
from replay.gouji.rules import PRESETS


def best(fn, repeat: int) -> tuple[float, float]:
    """Best wall-clock and best CPU time (seconds) of ``repeat`` runs. On a
    shared, loaded machine the CPU time is the one-core figure: the wall
    clock also counts the time the process waits for a core."""
    walls, cpus = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=30, help="games per preset")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    t = time.perf_counter()
    texts = [gjn.write(generate_match(name, args.games, 7)) for name in PRESETS]
    gen = time.perf_counter() - t
    text = "\n".join(texts)
    records, diags = gjn.parse(text)
    assert not diags
    actions = sum(len(g.actions) for r in records for g in r.games)
    games = sum(len(r.games) for r in records)
    print(f"{games} games, {actions} actions, {len(text) / 1e6:.2f} MB of GJN "
          f"(generated in {gen:.2f}s, {actions / gen:,.0f} actions/s)")

    def parse_only():
        gjn.parse(text)

    def replay_tl():
        for r in records:
            replay(r)

    def lint_only():
        for r in records:
            rp = replay(r, timeline=False)
            assert not rp.diagnostics

    def parse_lint():
        recs, _ = gjn.parse(text)
        for r in recs:
            replay(r, timeline=False)

    for label, fn in (("parse", parse_only), ("replay (+timeline)", replay_tl), ("lint (replay only)", lint_only),
                      ("parse + lint", parse_lint)):
        wall, cpu = best(fn, args.repeat)
        print(f"{label:>20}: wall {wall:6.3f}s {actions / wall:>10,.0f} actions/s | "
              f"cpu {cpu:6.3f}s {actions / cpu:>10,.0f} actions/s {games / cpu:>8,.1f} games/s")


if __name__ == "__main__":
    main()
