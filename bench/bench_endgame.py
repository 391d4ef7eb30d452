"""Endgame search time per hand (prints figures, never asserts).

For every complete hand of generated matches (``analyzer.play.generate``: bots
play legal full matches) and each K in ``--ks``, a fresh
:class:`analyzer.review.search.Solver` answers what the SJ610 rule asks: the exact
value before every play of the last K tricks (4K + 1 questions sharing one
transposition table; the first, the trick-start position K tricks from the
end, is the whole solve). Times are process CPU time of one core. A hand
whose search passes ``--budget`` nodes is counted as over budget (its time
up to the cut is still included, so the worst figure is a lower bound then).
The last line times ``analyzer.review.mistakes.review`` itself (every rule, K = 6,
default budget) per hand.

``--state-walk`` also prices the alternative the search's module doc weighs:
walking the tree through :class:`replay.state.HandState` itself. It times what
one node would cost there at the least (the moves from the state, a push, a
pop, and the table key read from the holdings at each trick start) on random
walks through the same endgames, against the search's whole cost per node.

    python bench/bench_endgame.py                   # 3 matches × 12 hands, K = 4 6 8
    python bench/bench_endgame.py --ks 6 --matches 8 --rules shengji-io
    python bench/bench_endgame.py --ks 4,6 --states --state-walk --no-review

Target: K = 6 in under 0.5 s median per hand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.play.generate import generate_match
from analyzer.review.mistakes import review
from analyzer.review.mistakes.context import HandContext
from analyzer.review.search import SearchBudgetExceeded, Solver
from analyzer.review.search.position import position
from primitives.cards import points
from replay.game import replay
from replay.state import HandState


def hands(rules: str, matches: int, per_match: int, seed: int):
    out = []
    for m in range(matches):
        record = generate_match(rules, hands=per_match, seed=seed + m)
        match = replay(record)
        for h in match.hands:
            if HandContext(h).searchable:
                out.append((record, h))
    return out


def line_time(h, k: int, budget: int, states: bool = False) -> tuple[float, int, bool]:
    """CPU seconds, nodes and over-budget flag of the SJ610 questions for the last k tricks
    (``states``: asked of a :class:`replay.state.HandState` pushed along the plays, the
    way a rule asks with ``HandContext.state``, instead of a search ``Position``)."""
    kitty = h.bury if h.bury is not None else ()
    solver = Solver(h.order, h.ruleset, h.dealer, points(kitty))
    solver.node_limit = budget
    tricks = h.tricks[-k:]
    start = time.process_time()
    try:
        for t in tricks:
            if states:
                st = HandState(h.ruleset, h.order, dict(zip(h.seats, t.hands_before, strict=True)),
                               leader=t.leader, dealer=h.dealer, seats=h.seats, kitty_points=points(kitty))
                for j, p in enumerate(t.plays):
                    solver.value(st)
                    st.push(p.attempted or p.cards if j == 0 else p.cards, check=False)
            else:
                for j in range(4):
                    solver.value(position(t.hands_before, t.leader, [p.cards for p in t.plays[:j]]))
    except SearchBudgetExceeded:
        return time.process_time() - start, solver.nodes, True
    return time.process_time() - start, solver.nodes, False


def state_walk(h, k: int, walks: int, rng: random.Random) -> tuple[float, int]:
    """CPU seconds and nodes of ``walks`` random walks from the trick-start
    position k tricks before the end, each node doing through HandState what a
    search node needs at the least: the moves, a push and (on the way back) a
    pop, plus the canonical holdings (sorted tuples) at every trick start."""
    t = h.tricks[-k]
    kitty = h.bury if h.bury is not None else ()
    st = HandState(h.ruleset, h.order, dict(zip(h.seats, t.hands_before, strict=True)), leader=t.leader,
                   dealer=h.dealer, seats=h.seats, kitty_points=points(kitty))
    seats = st.seats
    nodes = 0
    start = time.process_time()
    for _ in range(walks):
        depth = 0
        while not st.is_over:
            if not st.plays:
                tuple(tuple(sorted(st.holding(s).elements())) for s in seats)
                moves = st.unit_leads()
            else:
                moves = st.legal_follows()
            st.push(moves[rng.randrange(len(moves))], check=False)
            depth += 1
            nodes += 1
        for _ in range(depth):
            st.pop()
    return time.process_time() - start, nodes


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--matches", type=int, default=3)
    ap.add_argument("--hands", type=int, default=12, help="hands per match (fewer when the match ends)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ks", default="4,6,8")
    ap.add_argument("--budget", type=int, default=2_000_000, help="node budget per hand and K")
    ap.add_argument("--no-review", action="store_true", help="skip timing review()")
    ap.add_argument("--states", action="store_true",
                    help="ask the questions of HandState positions (as the rules do) instead of search Positions")
    ap.add_argument("--state-walk", action="store_true",
                    help="also time the least a node costs when walking the tree through HandState")
    args = ap.parse_args(argv)
    sample = hands(args.rules, args.matches, args.hands, args.seed)
    print(f"{len(sample)} complete hands ({args.rules}, {args.matches} matches from seed {args.seed}); "
          f"CPU seconds per hand; questions asked of {'HandState' if args.states else 'Position'}s")
    print(f"{'K':>3} {'median':>8} {'p90':>8} {'worst':>8} {'nodes med':>10} {'over budget':>12}")
    per_node: dict[int, float] = {}
    for k in (int(x) for x in args.ks.split(",")):
        times, nodes, over = [], [], 0
        for _, h in sample:
            dt, n, cut = line_time(h, k, args.budget, args.states)
            times.append(dt)
            nodes.append(n)
            over += cut
        per_node[k] = sum(times) / max(1, sum(nodes))
        print(f"{k:>3} {statistics.median(times):8.3f} {quantile(times, 0.9):8.3f} {max(times):8.3f} "
              f"{int(statistics.median(nodes)):>10} {over:>8}/{len(sample)}", flush=True)
    if args.state_walk:
        rng = random.Random(args.seed)
        for k, lean in per_node.items():
            dt = n = 0
            for _, h in sample:
                a, b = state_walk(h, k, 50, rng)
                dt += a
                n += b
            walk = dt / max(1, n)
            print(f"K = {k}: the search {lean * 1e6:.1f} µs per node (everything); through HandState at least "
                  f"{walk * 1e6:.1f} µs per node (moves, push, pop, key only): ×{walk / lean:.2f}", flush=True)
    if not args.no_review:
        times = []
        for record, h in sample:
            match = type("M", (), {"hands": [h]})()
            start = time.process_time()
            review(match, record=record)
            times.append(time.process_time() - start)
        print(f"review() per hand (all rules, K = 6, default budget): median {statistics.median(times):.3f}  "
              f"p90 {quantile(times, 0.9):.3f}  worst {max(times):.3f}")


if __name__ == "__main__":
    main()
