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
    python bench/bench_review_random.py --rules standard --matches 12 --bots plain,strong --samples 32
    python bench/bench_review_random.py --rules standard --matches 8 --hands 4 --bots view,plain --samples 32
    python bench/bench_review_random.py --rules one-deck --matches 8 --hands 4 --bots review,plain --samples 32
    python bench/bench_review_random.py --rules standard --matches 16 --hands 4 --max-samples 8,16,24,40
    python bench/bench_review_random.py --rules standard --matches 8 --hands 4 --honesty 16
    python bench/bench_review_random.py --rules one-deck --matches 8 --hands 4 --honesty 16 --pre --pre-only
    python bench/bench_review_random.py --rules one-deck --matches 16 --hands 4 --decisions d.jsonl --all-decisions

``--samples`` is the review's first batch of deals a decision (8) and ``--max-samples`` the most
(the review's default 16: sequential sampling, an unsure decision valued again on new deals;
``--max-samples 8``: fixed, the review before the twentieth session); several, comma-separated,
review each generated match at each (docs/performance.md, "Twentieth session: sequential
sampling"). ``--honesty DEALS`` runs the honesty test instead: at each decision of the bot
seats a player picks the option best on DEALS deals of its own and is judged by the review,
fixed and sequentially; its share of significant verdicts must not rise (``--pre``: at the bury
and the declarations too, docs/performance.md, "Twenty-first session: bury and declarations
sampled sequentially"; ``--unsure-from`` was that session's experiment, not kept).

``--bots`` names the bots at the three other seats (each measured on the same
seeds, one after the other):

* ``plain`` (the default: :class:`analyzer.play.bot.Bot`, the omniscient bots
  ``generate`` plays by default);
* ``view`` (``generate --bot view``): :class:`analyzer.play.strong.StrongBot`
  with :class:`analyzer.review.mistakes.rollouts.ViewRollouts` at every trick: each
  decision from the seat's own view, every option played out by the plain bots on
  deals of the cards it has not seen. The project's plain bots are omniscient, so
  from their own view (the review's) they lose points a player knowing only their
  own cards could not have avoided; these bots lose fewer (docs/performance.md,
  "Eighteenth session: bots that play from their own view": the bots' mean
  accuracy 80 → 82–83 %), but the random seat is below every bot seat in 70 %
  of 64 hands with either;
* ``strong`` (StrongBot with :class:`analyzer.review.search.endgame.ExactEndgame`:
  the plain bot with an exact endgame on the real deal in the last ``--tricks``
  tricks, 8 by default);
* ``view-endgame`` (StrongBot with :class:`~analyzer.review.search.endgame.ViewEndgame`:
  the endgame move best from the seat's own view, over ``--view-samples`` deals);
* ``rollout`` (an experiment, :class:`RolloutBot`: ``view`` on the real deal
  instead of sampled ones; worse, as the figures show);
* ``review`` (:class:`analyzer.play.review_bot.ReviewBot` with
  :class:`analyzer.review.mistakes.policy.ReviewChoice`): every lead and follow the
  option the review itself values best from the seat's own view (the review's sampler,
  options, exact solves and play-outs: ``value_decision``), over ``--choice-deals`` deals
  drawn with another seed than the review's. Slow (3 s a one-deck hand, 8 s a two-deck one,
  four seats); the random seat is below every bot seat in 70 % of 64 one-deck hands against
  50 % with the plain bots, 78 % of 64 two-deck hands against 67 % (docs/performance.md,
  "Nineteenth session").

Target (issue 32): the random seat below every bot seat in ≥ 90 % of hands,
at 100 % in ≤ 2 % of hands.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import analyzer.play.generate as G
from analyzer.play.bot import Bot
from analyzer.play.review_bot import ReviewBot
from analyzer.play.strong import Endgame, StrongBot
from analyzer.review.mistakes import review_full
from analyzer.review.mistakes.decisions import MAX_SAMPLES, SAMPLES
from analyzer.review.mistakes.policy import ReviewChoice
from analyzer.review.mistakes.rollouts import ALL_TRICKS, ViewRollouts
from analyzer.review.search.endgame import ENDGAME_NODES, ExactEndgame, ViewEndgame
from replay.game import replay

#: the strong bots' endgame window here: wider than the generator's default (``ENDGAME_TRICKS``, 6),
#: as wide as the native search answers in milliseconds a question (docs/performance.md, eighteenth session)
BENCH_TRICKS = 8


def random_seat_bot(seat: str, seed: int, base: type[Bot] = Bot) -> type[Bot]:
    """A ``base`` bot class whose ``seat`` plays uniformly random legal plays."""
    pick = random.Random(seed)

    class RandomSeat(base):  # type: ignore[valid-type,misc]
        def lead(self, view):  # type: ignore[override]
            if view.seat == seat and view.state is not None:
                return pick.choice(view.state.unit_leads())
            return super().lead(view)

        def follow(self, view):  # type: ignore[override]
            if view.seat == seat and view.state is not None:
                return pick.choice(view.state.legal_follows(limit=500))
            return super().follow(view)

    return RandomSeat


#: rollout bots: play-outs an option (each its own generator), the most options valued a decision
ROLLOUTS, ROLLOUT_OPTIONS = 4, 16


class RolloutBot(Bot):
    """An experiment, not the project's bot: the plain bot, except that at each decision with
    at most :data:`ROLLOUT_OPTIONS` legal options (a lead's single units and the plain bot's
    own choice; a follow's legal follows) every option is played out :data:`ROLLOUTS` times on
    the real deal by the plain bots (the bots are omniscient) and the option best for the
    seat's side on average is played (the plain bot's choice on a tie). The review values a
    decision the same way but from the player's view, over sampled deals: this bot asks how
    much of the bots' judged loss a bot that plays what those play-outs reward removes."""

    def _choose(self, view, plain):  # type: ignore[no-untyped-def]
        from analyzer.review.mistakes.decisions import option_ends
        st = view.state
        if st is None or st.is_over:
            return plain
        if view.plays:
            opts = list(st.legal_follows(limit=ROLLOUT_OPTIONS + 1))
        else:
            opts = list(st.unit_leads())
        plain_t = tuple(plain)
        if plain_t not in opts:
            opts.insert(0, plain_t)
        if len(opts) < 2 or len(opts) > ROLLOUT_OPTIONS:
            return plain
        sign = -1 if st.defends(view.seat) else 1
        sums = [0.0] * len(opts)
        self.asked = getattr(self, "asked", 0) + 1
        for r in range(ROLLOUTS):
            ends = option_ends(st, opts, Bot(self.rs, random.Random(self.asked * ROLLOUTS + r), self.p))
            for i, end in enumerate(ends):
                if end is None:
                    return plain
                sums[i] += sign * end.final_points
        best = max(sums)
        k = opts.index(plain_t)
        return plain if sums[k] >= best else opts[sums.index(best)]

    def lead(self, view):  # type: ignore[override]
        return self._choose(view, super().lead(view))

    def follow(self, view):  # type: ignore[override]
        return self._choose(view, super().follow(view))


def make_bots(kind: str, seat: str, seed: int, tricks: int, nodes: int,
              view_samples: int = 16, choice_deals: int = 32) -> tuple[G.MakeBot, list[Bot]]:
    """The ``make_bot`` of a match whose ``seat`` plays at random and whose other seats are
    ``kind`` bots (``plain``: :class:`Bot`; ``strong``: :class:`StrongBot`, the exact endgame
    in the last ``tricks`` tricks), and the list the bot built is put in."""
    built: list[Bot] = []
    if kind in ("plain", "rollout"):
        cls = random_seat_bot(seat, seed, RolloutBot if kind == "rollout" else Bot)

        def plain(rs, rng, params):  # type: ignore[no-untyped-def]
            built.append(cls(rs, rng, params))
            return built[-1]
        return plain, built
    if kind == "review":
        review_cls = random_seat_bot(seat, seed, ReviewBot)
        choice = ReviewChoice(choice_deals)

        def review(rs, rng, params):  # type: ignore[no-untyped-def]
            built.append(review_cls(rs, rng, params, choice=choice))
            return built[-1]
        return review, built
    strong_cls = random_seat_bot(seat, seed, StrongBot)
    endgame: Endgame = (ExactEndgame(nodes) if kind == "strong" else ViewRollouts() if kind == "view"
                        else ViewEndgame(nodes, samples=view_samples))
    if kind == "view":
        tricks = ALL_TRICKS

    def strong(rs, rng, params):  # type: ignore[no-untyped-def]
        built.append(strong_cls(rs, rng, params, endgame=endgame, tricks=tricks))
        return built[-1]
    return strong, built


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="one-deck")
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--hands", type=int, default=4)
    ap.add_argument("--seed", type=int, default=500)
    ap.add_argument("--samples", type=int, default=SAMPLES,
                    help="sampled deals per decision: the first batch (the review's default %(default)s)")
    ap.add_argument("--max-samples", default=str(MAX_SAMPLES),
                    help="the most deals a decision: a decision unsure after --samples deals is valued again on "
                         "MAX - SAMPLES new deals (sequential sampling; the review's default %(default)s; at most "
                         "--samples: fixed, main's review before it). Comma-separated: each generated match is "
                         "reviewed at each, e.g. 8,24 (the honesty test: the first)")
    ap.add_argument("--honesty", type=int, default=0, metavar="DEALS",
                    help="instead: the honesty test of sequential sampling. At each decision of the bot seats a "
                         "player picks the option best on DEALS deals of its own (another seed) and is judged by "
                         "the review on its deals, at --samples fixed and sequentially up to --max-samples: the "
                         "share of significant verdicts (false ones, as far as the pick is right) must not rise")
    ap.add_argument("--bots", default="plain",
                    help="the bots at the other seats, comma-separated, each measured on the same seeds: "
                         "plain (analyzer.play.bot.Bot), view (every decision from the seat's own view: ViewRollouts), "
                         "strong (StrongBot: an exact endgame), view-endgame (StrongBot with ViewEndgame: the "
                         "endgame valued from the seat's own view over sampled deals), rollout (an experiment: "
                         "RolloutBot, each option played out on the real deal), review (ReviewBot: the review's own best option "
                         "from the seat's view, --choice-deals deals)")
    ap.add_argument("--tricks", type=int, default=BENCH_TRICKS,
                    help="strong and view-endgame bots: solve exactly from this many tricks from the end")
    ap.add_argument("--nodes", type=int, default=ENDGAME_NODES, help="strong bots: node budget of one question")
    ap.add_argument("--view-samples", type=int, default=16,
                    help="view-endgame bots: deals sampled a decision (the exact endgame from the seat's own view)")
    ap.add_argument("--choice-deals", type=int, default=32,
                    help="review bots: deals a decision of their choice (the review's valuation, another seed)")
    ap.add_argument("--json", metavar="FILE", help="also write each hand's accuracies here (JSON lines)")
    ap.add_argument("--decisions", metavar="FILE",
                    help="also write every judged decision here (JSON lines: the seat, the random seat, the trick, "
                         "the kind, the loss and the stake): where the bots lose")
    ap.add_argument("--pre", action="store_true",
                    help="--honesty: also at the bury and the declarations (value_bury, value_declaration)")
    ap.add_argument("--pre-only", action="store_true",
                    help="--honesty --pre: the bury and the declarations only (not the plays)")
    ap.add_argument("--all-decisions", action="store_true",
                    help="--decisions: every decision, forced and not judged ones too (with judged, forced, reason, "
                         "screen_samples)")
    ap.add_argument("--unsure-from", type=float, default=None, metavar="POINTS",
                    help="an experiment: a decision is unsure (valued again) when its loss plus one standard "
                         "error reaches POINTS instead of MIN_COST (the interim verdict rule unchanged)")
    args = ap.parse_args(argv)
    if args.unsure_from is not None:
        _unsure_from(args.unsure_from)
    for kind in args.bots.split(","):
        if kind not in ("plain", "strong", "view", "view-endgame", "rollout", "review"):
            ap.error(f"--bots: unknown bot {kind!r}")
        if args.honesty:
            honesty(args, kind)
        else:
            measure(args, kind)


def _unsure_from(floor: float) -> None:
    """``--unsure-from``: ``decisions.unsure`` with the floor ``floor`` instead of MIN_COST
    (before any review module binds it: the bury's and the declarations' import it later)."""
    from analyzer.review.mistakes import decisions as D
    from analyzer.review.mistakes.findings import MIN_COST

    def unsure(d: D.Decision) -> bool:
        if not d.judged or d.forced:
            return False
        if d.raw_loss + D.UNSURE_Z * d.loss_se < floor:
            return False
        return not (d.loss >= MIN_COST and d.loss > D.interim_critical(d.samples) * d.loss_se)
    D.unsure = unsure


#: the honest player's own deals are drawn with this seed (the review's: ``pov.SEED``)
HONEST_SEED = 4_242


def honesty(args: argparse.Namespace, kind: str) -> None:
    """The honesty test (see ``--honesty``): a player whose choice does not depend on the
    deals the review judges with, judged at a fixed number of deals and sequentially."""
    from analyzer.review.mistakes.context import HandContext
    from analyzer.review.mistakes.decisions import value_decision
    fixed = {"verdicts": 0, "loss": 0.0, "stake": 0.0, "deals": 0}
    seq = dict(fixed)
    judged = judged_pre = 0
    pre_acc = ({**fixed, "again": 0}, {**fixed, "again": 0})
    cpu = [0.0, 0.0]
    for m in range(args.matches):
        seat = "NWSE"[m % 4]
        make_bot, _built = make_bots(kind, seat, args.seed + m, args.tricks, args.nodes, args.view_samples,
                                     args.choice_deals)
        record = G.generate_match(args.rules, hands=args.hands, seed=args.seed + m, make_bot=make_bot)
        match = replay(record)
        for hand in match.hands:
            if hand.team is not None:
                continue
            ctx = HandContext(hand, record_hand=record.hands[hand.number - 1], match=match, samples=0)
            if not ctx.searchable:
                continue
            for ti, t in enumerate(hand.tricks if not args.pre_only else ()):
                for k, p in enumerate(t.plays):
                    if p.seat == seat:
                        continue
                    own = value_decision(ctx, ti, k, samples=args.honesty, seed=HONEST_SEED)
                    if own.forced or not own.judged or not own.options:
                        continue
                    pick = own.options[0].play
                    got = []
                    for i, top in enumerate((None, int(str(args.max_samples).split(",")[-1]))):
                        t0 = time.process_time()
                        got.append(value_decision(ctx, ti, k, samples=args.samples, max_samples=top, chosen=pick))
                        cpu[i] += time.process_time() - t0
                    if not all(d.judged and not d.forced for d in got):
                        continue
                    judged += 1
                    for acc, d in zip((fixed, seq), got, strict=True):
                        acc["verdicts"] += d.band is not None
                        acc["loss"] += d.loss
                        acc["stake"] += d.stake
                        acc["deals"] += d.samples
            if args.pre:
                judged_pre += _honest_pre(args, ctx, pre_acc, cpu)
    if args.pre:
        print(f"{args.rules}, {kind} bots, honesty of the bury and the declarations: the best option on "
              f"{args.honesty} deals of the player's own, judged by the review at {judged_pre} of them")
        for name, acc in ((f"{args.samples} deals, fixed", pre_acc[0]),
                          (f"sequential, {args.samples} then {args.max_samples}", pre_acc[1])):
            if judged_pre:
                print(f"  {name}: significant verdicts {acc['verdicts']}/{judged_pre} = "
                      f"{100 * acc['verdicts'] / judged_pre:.1f} %; mean loss {acc['loss'] / judged_pre:.2f}, accuracy "
                      f"{100 * (1 - acc['loss'] / max(acc['stake'], 1e-9)):.1f} %; "
                      f"{acc['deals'] / judged_pre:.1f} deals one rests on; valued again {acc['again']}", flush=True)
    print(f"{args.rules}, {kind} bots, honesty: the best option on {args.honesty} deals of the player's own, "
          f"judged by the review at {judged} decisions of the bot seats")
    for name, acc, c in ((f"{args.samples} deals, fixed", fixed, cpu[0]),
                         (f"sequential, {args.samples} then {args.max_samples}", seq, cpu[1])):
        if not judged:
            break
        print(f"  {name}: significant verdicts {acc['verdicts']}/{judged} = {100 * acc['verdicts'] / judged:.1f} %; "
              f"mean loss {acc['loss'] / judged:.2f}, accuracy {100 * (1 - acc['loss'] / max(acc['stake'], 1e-9)):.1f} %; "
              f"{acc['deals'] / judged:.1f} deals a decision; {c:.1f} s CPU", flush=True)


def _honest_pre(args: argparse.Namespace, ctx: object, acc: tuple[dict, dict], cpu: list[float]) -> int:
    """``--pre``: the honesty test at the hand's bury and declarations (any seat): the option
    best on ``--honesty`` deals of the player's own (another seed) judged by the review, fixed
    and sequentially; how many were judged both ways (their figures added to ``acc``)."""
    from analyzer.review.mistakes.bury import value_bury
    from analyzer.review.mistakes.declarations import DeclarationSetting, value_declaration
    top = int(str(args.max_samples).split(",")[-1])
    jobs = []
    own = value_bury(ctx, samples=args.honesty, seed=HONEST_SEED)
    if own is not None and own.judged and not own.forced and own.options:
        pick = own.options[0].play
        jobs.append(lambda m: value_bury(ctx, samples=args.samples, max_samples=m, chosen=pick))
    st = DeclarationSetting(ctx)
    if st.why is None:
        for j in range(len(st.lines)):
            own = value_declaration(st, j, samples=args.honesty, seed=HONEST_SEED)
            if own.judged and not own.forced and own.options:
                jobs.append(lambda m, j=j, pick=own.options[0].play: value_declaration(
                    st, j, samples=args.samples, max_samples=m, chosen=pick))
    n = 0
    for job in jobs:
        got = []
        for i, m in enumerate((None, top)):
            t0 = time.process_time()
            got.append(job(m))
            cpu[i] += time.process_time() - t0
        if not all(d is not None and d.judged and not d.forced for d in got):
            continue
        n += 1
        for a, d in zip(acc, got, strict=True):
            a["verdicts"] += d.band is not None
            a["loss"] += d.loss
            a["stake"] += d.stake
            a["deals"] += d.samples
            a["again"] += d.screened > 0
    return n


class Tally:
    """One review setting's counts over the hands of a run (:func:`measure`)."""

    def __init__(self) -> None:
        self.below = self.at_100 = self.counted = self.hands = self.deals = self.decided = self.again = 0
        #: judged buries and declarations, and those of them valued again on new deals
        self.pre = self.pre_again = 0
        self.cpu = 0.0
        self.accs: dict[str, list[float]] = {"random": [], "bots": []}


class CountUnsure:
    """``decisions.unsure`` counting its yes answers (each a decision valued again)."""

    def __init__(self) -> None:
        from analyzer.review.mistakes import decisions
        self.module, self.real, self.yes = decisions, decisions.unsure, 0
        decisions.unsure = self   # value_decision and the friends' twin look it up at each call

    def __call__(self, d: object) -> bool:
        got = self.real(d)
        # the plays' (the bury's and the declarations' are counted from their screen_samples)
        self.yes += got and getattr(d, "kind", None) not in ("bury", "declare")
        return got


def measure(args: argparse.Namespace, kind: str) -> None:
    counter = CountUnsure()
    gen_cpu = 0.0
    asked = changed = cut = 0
    tops = [int(x) for x in str(args.max_samples).split(",")]
    tallies = {top: Tally() for top in tops}
    out = open(args.json, "a") if args.json else None
    dec_out = open(args.decisions, "a") if args.decisions else None
    for m in range(args.matches):
        seat = "NWSE"[m % 4]
        make_bot, built = make_bots(kind, seat, args.seed + m, args.tricks, args.nodes, args.view_samples,
                                    args.choice_deals)
        t0 = time.process_time()
        record = G.generate_match(args.rules, hands=args.hands, seed=args.seed + m, make_bot=make_bot)
        gen_cpu += time.process_time() - t0
        for b in built:
            if isinstance(b, (StrongBot, ReviewBot)):
                asked, changed, cut = asked + b.asked, changed + b.changed, cut + b.cut
        match = replay(record)
        for top, tl in tallies.items():   # every setting reviews the same generated match
            t0 = time.process_time()
            before = counter.yes
            rv = review_full(match, record=record, samples=args.samples, max_samples=top)
            tl.cpu += time.process_time() - t0
            tl.again += counter.yes - before if top > args.samples else 0
            for h in rv.summary["hands"]:
                if h.get("skipped") or not h.get("decisions"):
                    continue
                if dec_out is not None:
                    for d in h["decisions"]:
                        if d["judged"] or args.all_decisions:
                            dec_out.write(json.dumps({"bots": kind, "rules": args.rules, "seed": args.seed + m,
                                                      "max_samples": top, "random": seat, **{k: d.get(k) for k in (
                                                          "hand", "seat", "trick", "kind", "loss", "raw_loss",
                                                          "loss_stderr", "stake", "exact", "samples", "band",
                                                          "chosen", "judged", "forced", "reason",
                                                          "screen_samples")}}) + "\n")
                tl.hands += 1
                for d in h["decisions"]:
                    if d["judged"] and d.get("kind") not in ("bury", "declare"):
                        tl.deals, tl.decided = tl.deals + d["samples"], tl.decided + 1
                    elif d["judged"]:
                        tl.pre += 1
                        tl.pre_again += d.get("screen_samples", 0) > 0
                mine = h["players"][seat]["accuracy"]
                others = [h["players"][s]["accuracy"] for s in "NWSE" if s != seat]
                if mine is None or any(a is None for a in others):
                    continue
                tl.counted += 1
                tl.accs["random"].append(mine)
                tl.accs["bots"].extend(others)
                tl.below += all(mine < a for a in others)
                tl.at_100 += mine >= 100.0
                if out is not None:
                    out.write(json.dumps({"bots": kind, "rules": args.rules, "seed": args.seed + m,
                                          "max_samples": top, "hand": h.get("hand"), "random": seat,
                                          "accuracy": {s: h["players"][s]["accuracy"] for s in "NWSE"}}) + "\n")
                    out.flush()
    for f in (out, dec_out):
        if f is not None:
            f.close()
    label = {"plain": "plain", "view": "view (every decision from the seat's own view: ViewRollouts)",
             "review": f"review (the review's own choice, {args.choice_deals} deals a decision)",
             "rollout": f"rollout ({ROLLOUTS} play-outs an option, at most {ROLLOUT_OPTIONS} options)",
             "strong": f"strong (exact endgame, last {args.tricks} tricks, {args.nodes:,} nodes)",
             "view-endgame": f"view-endgame (the endgame from the seat's view, {args.view_samples} deals, last {args.tricks} tricks, "
                     f"{args.nodes:,} nodes)"}[kind]
    if kind != "plain":
        print(f"{args.rules}, {label} bots: generation {gen_cpu:.2f} s CPU for {args.matches} matches; the search "
              f"asked {asked} times, changed the plain bot's move {changed} times, cut {cut} times")
    for top, tl in tallies.items():
        if not tl.counted:
            print(f"{label}: no hand reviewed")
            continue
        fixed = top <= args.samples
        print(f"{args.rules}, {label} bots: {tl.hands} hands reviewed ({tl.counted} with an accuracy for every seat), "
              + (f"{args.samples} deals per decision, fixed" if fixed else
                 f"{args.samples} deals per decision first, unsure ones again on {top - args.samples} new deals")
              + f" ({tl.deals / max(tl.decided, 1):.1f} deals a judged play's figures rest on, on average; "
              f"{tl.again} decisions valued again, of {tl.decided} judged plays: "
              f"{(tl.decided * args.samples + tl.again * max(0, top - args.samples)) / max(tl.decided, 1):.1f} deals "
              f"drawn a judged play; {tl.pre_again} of {tl.pre} judged buries and declarations valued again); "
              f"{tl.hands / max(tl.cpu, 1e-9):.3f} hands/s (CPU, one core)")
        print(f"  random seat below every bot seat: {tl.below}/{tl.counted} = {100 * tl.below / tl.counted:.0f} %; "
              f"random seat at 100 %: {tl.at_100}/{tl.counted} = {100 * tl.at_100 / tl.counted:.0f} %")
        print(f"  mean accuracy: random {sum(tl.accs['random']) / len(tl.accs['random']):.1f} %, "
              f"bots {sum(tl.accs['bots']) / len(tl.accs['bots']):.1f} %", flush=True)

if __name__ == "__main__":
    main()
