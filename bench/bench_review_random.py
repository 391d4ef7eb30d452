"""Does the full review's accuracy tell a random player from the bots? (prints figures, never asserts)

Generates matches in which one seat plays uniformly random legal plays (a
random single-unit lead, or a random legal follow) and the other three are
the project's bots (``analyzer.play.bot``), reviews every hand with the full
review (``shengji report --mistakes``: every decision valued from the
deciding player's view, :mod:`analyzer.review.mistakes.decisions`) and counts, per
hand, whether the random seat's points-weighted accuracy is below every bot
seat's, and whether it is 100 %. Also the review's speed (hands/s, process
CPU time of one core).

    python bench/bench_review_random.py                          # one-deck, 2 matches × 4 hands
    python bench/bench_review_random.py --rules standard --matches 3 --hands 3 --samples 8

Target (issue 32): the random seat below every bot seat in ≥ 90 % of hands,
at 100 % in ≤ 2 % of hands.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import analyzer.play.generate as G
from analyzer.play.bot import Bot
from analyzer.review.mistakes import review_full
from replay.game import replay


def random_seat_bot(seat: str, seed: int) -> type[Bot]:
    """A Bot class whose ``seat`` plays uniformly random legal plays."""
    pick = random.Random(seed)

    class RandomSeat(Bot):
        def lead(self, view):  # type: ignore[override]
            if view.seat == seat and view.state is not None:
                return pick.choice(view.state.unit_leads())
            return super().lead(view)

        def follow(self, view):  # type: ignore[override]
            if view.seat == seat and view.state is not None:
                return pick.choice(view.state.legal_follows(limit=500))
            return super().follow(view)

    return RandomSeat


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="one-deck")
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--hands", type=int, default=4)
    ap.add_argument("--seed", type=int, default=500)
    ap.add_argument("--samples", type=int, default=8, help="sampled deals per decision")
    args = ap.parse_args(argv)

    below = at_100 = counted = hands = 0
    cpu = 0.0
    accs: dict[str, list[float]] = {"random": [], "bots": []}
    for m in range(args.matches):
        seat = "NWSE"[m % 4]
        real_bot = G.Bot
        G.Bot = random_seat_bot(seat, args.seed + m)  # type: ignore[misc]
        try:
            record = G.generate_match(args.rules, hands=args.hands, seed=args.seed + m)
        finally:
            G.Bot = real_bot  # type: ignore[misc]
        match = replay(record)
        t0 = time.process_time()
        rv = review_full(match, record=record, samples=args.samples)
        cpu += time.process_time() - t0
        for h in rv.summary["hands"]:
            if h.get("skipped") or not h.get("decisions"):
                continue
            hands += 1
            mine = h["players"][seat]["accuracy"]
            others = [h["players"][s]["accuracy"] for s in "NWSE" if s != seat]
            if mine is None or any(a is None for a in others):
                continue
            counted += 1
            accs["random"].append(mine)
            accs["bots"].extend(others)
            below += all(mine < a for a in others)
            at_100 += mine >= 100.0
    if not counted:
        print("no hand reviewed")
        return
    print(f"{args.rules}: {hands} hands reviewed ({counted} with an accuracy for every seat), "
          f"{args.samples} deals per decision; {hands / max(cpu, 1e-9):.3f} hands/s (CPU, one core)")
    print(f"random seat below every bot seat: {below}/{counted} = {100 * below / counted:.0f} %; "
          f"random seat at 100 %: {at_100}/{counted} = {100 * at_100 / counted:.0f} %")
    print(f"mean accuracy: random {sum(accs['random']) / len(accs['random']):.1f} %, "
          f"bots {sum(accs['bots']) / len(accs['bots']):.1f} %")


if __name__ == "__main__":
    main()
