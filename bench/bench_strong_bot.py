"""The strong bot's cost in the generator (prints figures, never asserts).

For each preset and each endgame window K (``--ks``), generates the same
one-hand matches (seeds 0..N-1) with the plain bots and with
:class:`analyzer.play.strong.StrongBot` (the exact endgame in the last K
tricks) and prints the generator's speed (hands/s, process CPU time of one
core), the questions asked of the search, their mean and largest cost, how
often the plain bot's move was changed and how often the search was cut by
its node budget. The search is the native one when the extension is in use
(``replay.native.backend()``, printed first).

    python bench/bench_strong_bot.py                          # standard, one-deck; K = 4 5 6 8; 20 hands
    python bench/bench_strong_bot.py --rules standard --ks 6,8 --hands 40
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.play.generate import generate_match
from analyzer.play.strong import StrongBot
from analyzer.review.search.endgame import ENDGAME_NODES, ExactEndgame
from replay import native


class TimedEndgame(ExactEndgame):
    """:class:`ExactEndgame` that times each question."""

    def __init__(self, max_nodes: int) -> None:
        super().__init__(max_nodes)
        self.times: list[float] = []

    def __call__(self, state, proposal):  # type: ignore[no-untyped-def]
        t0 = time.process_time()
        try:
            return super().__call__(state, proposal)
        finally:
            self.times.append(time.process_time() - t0)


def played(rec) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for h in rec.hands if h.redeal is None)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="standard,one-deck")
    ap.add_argument("--ks", default="4,5,6,8")
    ap.add_argument("--hands", type=int, default=20, help="one-hand matches (seeds 0..N-1)")
    ap.add_argument("--nodes", type=int, default=ENDGAME_NODES)
    args = ap.parse_args(argv)
    print(f"search: {native.backend()}; node budget {args.nodes:,} a question")
    for rules in args.rules.split(","):
        t0 = time.process_time()
        hands = sum(played(generate_match(rules, hands=1, seed=s)) for s in range(args.hands))
        plain = time.process_time() - t0
        print(f"{rules}: plain bots {hands / plain:.1f} hands/s ({hands} hands)")
        for k in (int(x) for x in args.ks.split(",")):
            eg = TimedEndgame(args.nodes)
            bots: list[StrongBot] = []

            def make(rs, rng, params=None, k=k, eg=eg):  # type: ignore[no-untyped-def]
                bots.append(StrongBot(rs, rng, params, endgame=eg, tricks=k))
                return bots[-1]

            t0 = time.process_time()
            hands = sum(played(generate_match(rules, hands=1, seed=s, make_bot=make)) for s in range(args.hands))
            cpu = time.process_time() - t0
            asked = sum(b.asked for b in bots)
            changed = sum(b.changed for b in bots)
            cut = sum(b.cut for b in bots)
            ts = sorted(eg.times) or [0.0]
            print(f"  K = {k}: {hands / cpu:.1f} hands/s ({cpu / hands * 1000:.0f} ms a hand); {asked} questions, "
                  f"mean {1000 * sum(ts) / len(ts):.1f} ms, median {1000 * ts[len(ts) // 2]:.1f} ms, "
                  f"largest {1000 * ts[-1]:.0f} ms; changed {changed} ({100 * changed / max(asked, 1):.0f} %), "
                  f"cut {cut}", flush=True)


if __name__ == "__main__":
    main()
