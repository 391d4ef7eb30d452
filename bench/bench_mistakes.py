"""`shengji lint --mistakes` speed on generated two-deck hands (prints figures, never asserts).

Generates ``--matches`` matches of ``--hands`` hands (``analyzer.play.generate``,
two-deck ``standard`` by default, fixed seeds), writes them as one SJN text
and times ``analyzer.lint.lint_text`` with the mistake rules on (parse +
replay + lint + the exact endgame search and the pattern rules: what
``shengji lint --mistakes`` does per file), in process CPU time of one core.
Then, per hand, what the node budget let the search cover (the window
searched, and how many hands the budget kept from reaching every play of
it: each such play gets an SJ690 note and is left out of accuracy, so no
verdict changes silently), and the speed of the full review ``shengji
report --mistakes`` and ``shengji annotate`` run (every decision valued
from the player's view: :func:`analyzer.review.mistakes.review_full`; ``--samples``
deals per decision), with the share of the bots' play-outs
(:func:`analyzer.review.mistakes.decisions.play_to_end`) and their cost a play.

    python bench/bench_mistakes.py                    # 8 matches × 6 hands
    python bench/bench_mistakes.py --matches 20 --rules shengji-io

Target (issue 19): lint --mistakes ≥ 20 hands/s on generated two-deck hands.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer import lint as L
from analyzer.play.generate import generate_match
from analyzer.review.mistakes import review_full, review_match
from notation import write
from replay.game import replay


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--matches", type=int, default=8)
    ap.add_argument("--hands", type=int, default=6, help="hands per match (fewer when the match ends)")
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--no-report", action="store_true", help="skip timing the full review")
    ap.add_argument("--samples", type=int, default=8, help="deals per decision in the full review")
    ap.add_argument("--report-matches", type=int, default=1, help="matches the full review is timed on")
    args = ap.parse_args(argv)

    records = [generate_match(args.rules, hands=args.hands, seed=args.seed + m) for m in range(args.matches)]
    text = write(records)
    played = sum(1 for r in records for h in r.hands if h.tricks)
    decks = replay(records[0]).hands[0].ruleset.decks

    t0 = time.process_time()
    plain = L.lint_text(text, "bench.sjn", rules=None)
    t1 = time.process_time()
    found = L.lint_text(text, "bench.sjn", rules=None, mistakes=True)
    t2 = time.process_time()
    lint_s, mist_s = t1 - t0, t2 - t1
    codes = Counter(f.code for f in found if f.code.startswith("SJ6"))
    print(f"{played} hands ({args.rules}, {decks} decks), {len(plain)} lint findings without --mistakes")
    print(f"lint --mistakes: {mist_s:.2f} s CPU, {played / mist_s:.1f} hands/s "
          f"(lint alone {played / max(lint_s, 1e-9):.0f} hands/s)")
    print("findings: " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items())))

    windows: Counter = Counter()
    cut = unjudged = 0
    per_hand: list[float] = []
    for r in records:
        m = replay(r)
        t = time.process_time()
        rv = review_match(m, record=r, samples=0)
        per_hand.append((time.process_time() - t) / max(1, len(m.hands)))
        for h in rv.hands:
            windows[h.window] += 1
            cut += h.budget_cut
        unjudged += sum(1 for f in rv.findings if f.code == "SJ690")
    print("window searched (tricks → hands): " + ", ".join(f"{w}: {n}" for w, n in sorted(
        windows.items(), key=lambda kv: -1 if kv[0] is None else kv[0])) +
        f"; hands the budget kept from judging every play of it: {cut} ({unjudged} plays, SJ690)")
    print(f"review per hand: median {statistics.median(per_hand) * 1000:.0f} ms, "
          f"worst match average {max(per_hand) * 1000:.0f} ms")
    if not args.no_report:
        from analyzer.review.mistakes import decisions
        plain_play_to_end = decisions.play_to_end
        spent = [0.0, 0, 0]   # CPU seconds in the bots' play-outs, play-outs, plays

        def timed_play_to_end(st: Any, play: tuple[int, ...], bot: Any, **kw: Any) -> Any:
            t0 = time.process_time()
            end = plain_play_to_end(st, play, bot, **kw)
            spent[0] += time.process_time() - t0
            spent[1] += 1
            if isinstance(end, decisions.PlayedOut):   # played by the native core
                spent[2] += end.count
            elif end is not None:
                spent[2] += (sum(len(t.plays) for t in end.tricks) - sum(len(t.plays) for t in st.tricks)
                             - len(st.plays))
            return end

        decisions.play_to_end = timed_play_to_end
        t = time.process_time()
        n = 0
        try:
            for r in records[:args.report_matches]:
                m = replay(r)
                review_full(m, record=r, samples=args.samples)
                n += len(m.hands)
        finally:
            decisions.play_to_end = plain_play_to_end
        el = time.process_time() - t
        print(f"report --mistakes / annotate full review ({args.samples} deals per decision): "
              f"{n / el:.3f} hands/s ({el / max(n, 1):.1f} s per hand)")
        print(f"  of which the bots' play-outs: {spent[0]:.1f} s ({100 * spent[0] / max(el, 1e-9):.0f} %), "
              f"{spent[1]} play-outs, {1e6 * spent[0] / max(spent[2], 1):.0f} µs a play")


if __name__ == "__main__":
    main()
