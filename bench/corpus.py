"""The realistic bench corpus: whole matches as users' files hold them.

A user's file is a match, not a hand at level 2: the levels climb hand after
hand (so the trump rank, the must-play ranks and the tractor links move), the
presets are the ones people play, finding friends is played at 5–8 seats with
the decks that follow, and Gouji files sit in the same folders. The corpus
is generated once by seed into ``bench/out/`` (not committed); the same
``hands`` gives the same files.

The weights are our estimate of what the tool is fed (no platform publishes
its mix): two-deck fixed partners under the reference rules and shengji.io's
rules are most of it; finding friends (shengji.io's most played mode) a
sixth; the regional and historical presets and the other programs' rules the
rest; Gouji about one file in twelve, counted in games (a Gouji game has about
as many turns as a Shengji hand).

    python bench/corpus.py 2000          # write the corpus and print its make-up
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"

#: (preset, players or None, share of the hands, hands per match)
MIX: tuple[tuple[str, int | None, float, int], ...] = (
    ("standard", None, 0.26, 12),
    ("shengji-io", None, 0.14, 12),
    ("shengji-io-friends", 5, 0.04, 8),
    ("shengji-io-friends", 6, 0.06, 8),
    ("shengji-io-friends", 7, 0.03, 8),
    ("shengji-io-friends", 8, 0.03, 8),
    ("tractor97", None, 0.05, 10),
    ("campus", None, 0.05, 17),
    ("one-deck", None, 0.06, 12),
    ("titanic", None, 0.03, 8),
    ("80fen", None, 0.05, 10),
    ("shengji-fly", None, 0.04, 10),
    ("shengji-godot", None, 0.03, 10),
    ("botzone", None, 0.01, 1),
)
#: Gouji's share, in games, and games per match, by preset
GOUJI: tuple[tuple[str, float, int], ...] = (("gouji", 0.05, 6), ("gouji-online", 0.02, 6), ("gouji-bie3", 0.01, 6))


def realistic_corpus(hands: int) -> tuple[Path, Path]:
    """(the SJN file, the GJN file) of a corpus of about ``hands`` hands and
    games, generated once into ``bench/out/``."""
    OUT.mkdir(parents=True, exist_ok=True)
    sjn = OUT / f"realistic-{hands}.sjn"
    gjn_path = OUT / f"realistic-{hands}.gjn"
    if sjn.exists() and gjn_path.exists():
        return sjn, gjn_path
    from analyzer.games.gouji.generate import generate_match as gouji_match
    from analyzer.play.generate import generate_match
    from notation import write
    from notation.gjn_writer import write as gjn_write

    t = time.perf_counter()
    seed = 0
    for path, parts in ((sjn, MIX), (gjn_path, GOUJI)):
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for part in parts:
                if path is sjn:
                    rules, players, share, per_match = part  # type: ignore[misc]
                else:
                    rules, share, per_match = part  # type: ignore[misc]
                    players = None
                want = max(1, round(hands * share))
                done = 0
                while done < want:
                    seed += 1
                    n = min(per_match, want - done)
                    if path is sjn:
                        record = generate_match(rules, hands=n, seed=seed, players=players)
                        done += sum(1 for h in record.hands if h.tricks)
                        f.write(write(record))
                    else:
                        grecord = gouji_match(rules, games=n, seed=seed)
                        done += len(grecord.games)
                        f.write(gjn_write(grecord))
                    f.write("\n")
        tmp.replace(path)
    print(f"(generated the realistic corpus of {hands} in {time.perf_counter() - t:.1f} s into {sjn.name}, "
          f"{gjn_path.name})", file=sys.stderr)
    return sjn, gjn_path


def make_up(sjn: Path, gjn_path: Path) -> str:
    """What the corpus holds: hands and turns per preset and table size."""
    from collections import Counter

    from notation import gjn, parse

    records, _ = parse(sjn.read_text(encoding="utf-8"))
    hands: Counter[str] = Counter()
    turns: Counter[str] = Counter()
    levels: set[int] = set()
    for r in records:
        rules = next((t.value for t in r.tags if t.name == "Rules"), "?")
        for h in r.hands:
            if not h.tricks:
                continue
            key = f"{rules} ({len(h.tricks[0].plays)} players)"
            hands[key] += 1
            turns[key] += sum(len(t.plays) for t in h.tricks)
            lv = h.levels
            if lv is not None:
                levels.update(lv.levels.values() if hasattr(lv, "levels") else (lv.ns, lv.ew))
    grecords, _ = gjn.parse(gjn_path.read_text(encoding="utf-8"))
    for r in grecords:
        rules = next((t.value for t in r.tags if t.name == "Rules"), "gouji")
        hands[f"{rules} (Gouji, 6 players)"] += len(r.games)
        turns[f"{rules} (Gouji, 6 players)"] += sum(len(g.actions) for g in r.games)
    total = sum(hands.values())
    lines = [f"{'preset (table)':40} {'hands':>6} {'share':>6} {'turns/hand':>10}"]
    for key, n in hands.most_common():
        lines.append(f"{key:40} {n:6} {n / total:6.1%} {turns[key] / n:10.1f}")
    lines.append(f"{'total':40} {total:6}        {sum(turns.values()) / total:10.1f}")
    lines.append("levels played: " + " ".join(str(x) for x in sorted(levels)) + " (15 = the jokers' level)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(make_up(*realistic_corpus(n)))
