"""Generation speed: full hands per second, per preset (prints, no asserts).

Run: ``python bench/bench_generate.py [seconds per preset]``. A "hand" is one
played hand (deal with declarations, bury, every trick, scoring); redeals are
not counted. The issue's target is 200 full 2-deck hands/s on one core.

Times are process (CPU) time. On a shared, busy machine CPU time still
stretches, so the work is cut into rounds of the same seeds and the best round
is reported next to the overall rate: the best round is the closest to the
speed on a quiet core.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.play.generate import generate_match
from replay.ruleset import PRESETS, preset

ROUND = 30  # one-hand matches per round (seeds 0..29)


def one_round(rules: str) -> tuple[int, float]:
    """Hands played and CPU seconds for one round."""
    start = time.process_time()
    done = 0
    for seed in range(ROUND):
        rec = generate_match(rules, hands=1, seed=seed)
        done += sum(1 for h in rec.hands if h.redeal is None)
    return done, time.process_time() - start


def measure(rules: str, seconds: float) -> tuple[float, float, int]:
    """(best round's hands/s, overall hands/s, hands) for about ``seconds`` of CPU time."""
    total_hands, total_time, best = 0, 0.0, 0.0
    while total_time < seconds or total_hands == 0:
        n, t = one_round(rules)
        total_hands += n
        total_time += t
        best = max(best, n / t)
    return best, total_hands / total_time, total_hands


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print(f"{'preset':<12} {'decks':>5} {'best hands/s':>13} {'overall':>8} {'hands':>6}")
    for name in PRESETS:
        best, overall, n = measure(name, seconds)
        print(f"{name:<12} {preset(name).decks:>5} {best:>13.1f} {overall:>8.1f} {n:>6}")


if __name__ == "__main__":
    main()
