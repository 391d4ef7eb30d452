"""The native endgame search beside the pure-Python one (prints figures, never asserts).

For every complete hand of generated matches and each K in ``--ks``, a fresh
:class:`analyzer.review.search.Solver` solves exactly the trick-start position K tricks
from the end (the value: the attackers' points from there under best play),
once with the native search (``shengji-native``) and, in the same run, once with
the pure-Python search under a node budget (``--py-budget``; a hand past it is
counted as cut, and its time up to the cut still enters the figures; the
native search has a budget too, ``--native-budget``). Both
searches walk the same tree node for node, so nodes per second compare directly.
Times are process CPU seconds of one core.

Two corpora: ``engine`` — matches played by the generator's bots with their
default policy (``analyzer.play.generate``); ``bot`` — the same bots with a
throw-happy, always-ruffing policy fighting for the last tricks early
(``BotParams(throw_chance=0.8, risky_throw_chance=0.15, ruff_chance=1.0,
endgame=6)``), whose endgames hold more pairs, tractors and trumps.

    python bench/bench_native.py                       # K = 4..12, 2 presets, both corpora
    (a preset the port does not know, e.g. shengji-io since h29, is searched in Python both times)
    python bench/bench_native.py --ks 8 --matches 6 --rules standard
    python bench/bench_native.py --py-max-k 6 --py-budget 300000
    python bench/bench_native.py --ks 6,8 --dump /tmp/pos.txt   # positions for native/examples/solve.rs

Targets (issue 31): K = 8 under 50 ms a hand at the median and under 1 s for
every hand; at least ×50 the Python search's nodes per second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.play.generate import generate_match
from analyzer.play.views import BotParams
from analyzer.review.mistakes.context import HandContext
from analyzer.review.search import SearchBudgetExceeded, Solver
from analyzer.review.search.position import position
from primitives.cards import points
from replay import native
from replay.game import replay

CORPORA = {
    "engine": None,
    "bot": BotParams(throw_chance=0.8, risky_throw_chance=0.15, ruff_chance=1.0, endgame=6),
}


def hands(rules: str, matches: int, per_match: int, seed: int, params: BotParams | None):
    out = []
    for m in range(matches):
        record = generate_match(rules, hands=per_match, seed=seed + m, params=params)
        for h in replay(record).hands:
            if HandContext(h).searchable and len(h.tricks) >= 4:
                out.append(h)
    return out


def solve(h, k: int, use_native: bool, budget: int | None) -> tuple[float, int, bool]:
    """CPU seconds and nodes of the exact value K tricks from the end; cut: over the budget."""
    native.set_enabled(use_native)
    try:
        kitty = points(h.bury or ())
        s = Solver(h.order, h.ruleset, h.dealer, kitty)
        assert s.engine == ("native" if use_native and native.ported(h.ruleset) else "python")
        s.node_limit = budget
        t = h.tricks[-k]
        pos = position(t.hands_before, t.leader)
        start = time.process_time()
        try:
            s.value(pos)
        except SearchBudgetExceeded:
            return time.process_time() - start, s.nodes, True
        return time.process_time() - start, s.nodes, False
    finally:
        native.set_enabled(True)


def dump_line(h: Any, k: int) -> str:
    """The position K tricks from the end in ``native/examples/solve.rs``'s line format."""
    kitty = points(h.bury or ())
    s = Solver(h.order, h.ruleset, h.dealer, kitty)
    t = h.tricks[-k]
    pos = position(t.hands_before, t.leader)
    args = " ".join(str(int(x)) for x in native.rule_args(h.order, h.ruleset))
    head = f"{k} {args} | {' '.join(str(int(a)) for a in s.attacker)} {kitty} {pos.leader}"
    return " | ".join([head] + [" ".join(map(str, hand)) for hand in pos.hands])


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def fmt_ms(x: float) -> str:
    return f"{x * 1000:.1f}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="standard,80fen")
    ap.add_argument("--corpora", default="engine,bot")
    ap.add_argument("--matches", type=int, default=3)
    ap.add_argument("--hands", type=int, default=8, help="hands per match (fewer when the match ends)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ks", default="4,5,6,7,8,9,10,11,12")
    ap.add_argument("--py-max-k", type=int, default=6, help="the largest K the Python search is run at")
    ap.add_argument("--py-budget", type=int, default=200_000, help="the Python search's node budget a hand")
    ap.add_argument("--native-budget", type=int, default=5_000_000, help="the native search's node budget a hand")
    ap.add_argument("--dump", metavar="FILE",
                    help="write the positions (K tricks from the end, ported rulesets) for native/examples/solve.rs "
                         "to FILE instead of solving them")
    args = ap.parse_args(argv)
    if args.dump:
        lines = []
        for corpus in args.corpora.split(","):
            for rules in args.rules.split(","):
                sample = hands(rules, args.matches, args.hands, args.seed, CORPORA[corpus])
                for k in (int(x) for x in args.ks.split(",")):
                    lines += [dump_line(h, k) for h in sample if len(h.tricks) >= k and native.ported(h.ruleset)]
        Path(args.dump).write_text("".join(line + "\n" for line in lines))
        print(f"{len(lines)} positions written to {args.dump}")
        return
    if not native.available():
        print(f"no native core: {native.backend()}")
        return
    print(f"search: {native.backend()}; CPU ms a hand; nodes/s over all hands of the row")
    head = (f"{'corpus':<7} {'rules':<11} {'K':>3} {'hands':>5} | {'native med':>10} {'p95':>8} {'worst':>8} "
            f"{'nodes/s':>10} {'cut':>4} | {'python med':>10} {'p95':>8} {'worst':>8} {'nodes/s':>9} {'cut':>4} | {'×':>5}")
    print(head)
    for corpus in args.corpora.split(","):
        for rules in args.rules.split(","):
            sample = hands(rules, args.matches, args.hands, args.seed, CORPORA[corpus])
            for k in (int(x) for x in args.ks.split(",")):
                rows = [h for h in sample if len(h.tricks) >= k]
                if not rows:
                    continue
                nt, nn, ncut = [], 0, 0
                pt, pn, cut = [], 0, 0
                pnt = 0.0
                for h in rows:
                    dt, n, was_cut = solve(h, k, True, args.native_budget)
                    nt.append(dt)
                    nn += n
                    ncut += was_cut
                    if k <= args.py_max_k:
                        pdt, pnodes, was_cut = solve(h, k, False, args.py_budget)
                        pt.append(pdt)
                        pn += pnodes
                        pnt += pdt
                        cut += was_cut
                native_rate = nn / max(sum(nt), 1e-9)
                line = (f"{corpus:<7} {rules:<11} {k:>3} {len(rows):>5} | {fmt_ms(statistics.median(nt)):>10} "
                        f"{fmt_ms(quantile(nt, 0.95)):>8} {fmt_ms(max(nt)):>8} {native_rate:>10,.0f} {ncut:>4} | ")
                if pt:
                    py_rate = pn / max(pnt, 1e-9)
                    line += (f"{fmt_ms(statistics.median(pt)):>10} {fmt_ms(quantile(pt, 0.95)):>8} "
                             f"{fmt_ms(max(pt)):>8} {py_rate:>9,.0f} {cut:>4} | {native_rate / py_rate:>5.0f}")
                else:
                    line += f"{'-':>10} {'-':>8} {'-':>8} {'-':>9} {'-':>4} | {'-':>5}"
                print(line, flush=True)


if __name__ == "__main__":
    main()
