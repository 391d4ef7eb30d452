"""Rewrite ``samples/matches/<preset>.sjn``: one generated match per preset.

Run from anywhere: ``python samples/regenerate.py``. The matches come from
:func:`analyzer.play.generate.generate_match` with the seeds below, so running it
again gives the same files (unless the bots or the engine change).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import notation  # noqa: E402
from analyzer.play.generate import generate_match  # noqa: E402
from replay.ruleset import PRESETS  # noqa: E402

#: hands per match (botzone matches are one hand) and the seed of each preset
HANDS = 3
SEED = 2026


def main() -> None:
    out = ROOT / "samples" / "matches"
    out.mkdir(parents=True, exist_ok=True)
    for name in PRESETS:
        record = generate_match(name, hands=HANDS, seed=SEED)
        (out / f"{name}.sjn").write_text(notation.write(record), encoding="utf-8")
        print(f"wrote {out / f'{name}.sjn'} ({len(record.hands)} hands)")


if __name__ == "__main__":
    main()
