"""Generation speed: full hands per second, per preset (prints, no asserts).

Run: ``python bench/bench_generate.py [seconds per preset]``. A "hand" is one
played hand (deal, declarations, bury, every trick, scoring); redeals are not
counted. The issue's target is 200 full 2-deck hands/s on one core.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.generate import generate_match  # noqa: E402
from replay.ruleset import PRESETS, preset  # noqa: E402


def hands_per_second(rules: str, seconds: float) -> tuple[float, int]:
    """Generate one-hand matches with seeds 0, 1, 2, … for about ``seconds`` of CPU
    time (process time: the rate stays meaningful on a busy machine)."""
    done = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        rec = generate_match(rules, hands=1, seed=seed)
        done += sum(1 for h in rec.hands if h.redeal is None)
        seed += 1
    elapsed = time.process_time() - start
    return done / elapsed, done


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print(f"{'preset':<12} {'decks':>5} {'hands/s':>9} {'hands':>7}")
    for name in PRESETS:
        rate, n = hands_per_second(name, seconds)
        print(f"{name:<12} {preset(name).decks:>5} {rate:>9.1f} {n:>7}")


if __name__ == "__main__":
    main()
