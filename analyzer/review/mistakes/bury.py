"""The bury as a decision valued from the burier's own view (four seats, fixed
partners; finding friends: :func:`friends_deals` and the last paragraph).

*The decider* is whoever made the hand's last bury
(:attr:`analyzer.review.mistakes.context.HandContext.burier`). At that moment
they had seen their own hand with the kitty picked up (their holding at
trick 1 plus the bury) and the declarations; not the other hands. The other
three hands are dealt again ``samples`` times
(:func:`analyzer.review.mistakes.pov.sample_deals` before trick 1: the hidden
cards as a sorted pool, never in who-holds-what order; the cards another seat
showed in an accepted declaration stay with it, as for the plays:
:func:`analyzer.review.mistakes.pov.pinned`).

*The options considered* are not all C(n, k) buries, only a small candidate
set (:func:`candidates`), the bury made first:

* ``made``: the bury actually made;
* ``bot``: the project's bot's own bury (:meth:`analyzer.play.bot.Bot.bury`, same count);
* ``no_points``: the cheapest cards without points (plain suits before trumps, low before high);
* ``void_short``: the shortest plain suits without points or an ace laid down whole where they fit,
  the rest as ``no_points``.

Candidates equal to one another are one option. *The value* of an option in a
sampled deal: the hand played from trick 1 to the end by the bots
(:func:`analyzer.review.mistakes.decisions.play_to_end`, one whole-hand
play-out per option per deal, the same bots' random seed for every option of a
deal), the attackers' final total **including the kitty** (the option's points ×
the last trick's multiplier when the attackers take it), and the hand's level
score the same way. The expected loss, its standard error, the significance rule
(Student t quantile × standard error, at least ``MIN_COST`` points) and the band
are the plays' (:func:`analyzer.review.mistakes.decisions.finish`).

*Finding friends* (:mod:`analyzer.review.mistakes.friends`): the burier
(the dealer) had seen their hand with the kitty and the calls, not who the
friends are. The other hands are dealt again before trick 1
(:func:`friends_deals`: the friends sampler at trick 1's first play), so who
holds a called card follows from each deal; each candidate is played out by
the bots with the deal's teams, valued from the burier's side as the play-out
turns out (the friends decisions' points signed from the line), with the same
candidates, significance and finding.

*Sequential sampling* (the review's default, as for the plays:
:func:`analyzer.review.mistakes.decisions.value_decision`): the bury is valued on
``samples`` deals first; where it is unsure after them
(:func:`analyzer.review.mistakes.decisions.unsure`) it is valued again on
``max_samples − samples`` new deals (the sampler's next batch), the first ones set
aside (``screened``: they only chose the bury to look at again).

A valued bury is a decision like a play: judged, it counts in the burier's
points lost and points-weighted accuracy (its stake: the points between the best
and worst candidate). A bury that cannot be judged (no bury line, the hand not
searchable, no other candidate) says why and is left out of accuracy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.decisions import SAMPLES, Decision, finish, level_score, play_to_end, second_look
from analyzer.review.mistakes.findings import Mistake, as_note, pattern_text
from analyzer.review.mistakes.pov import SEED, sample_deals
from primitives.cards import POINTS, points, rank_of
from primitives.diagnostics import INFO
from replay.order import TRUMP
from replay.state import HandState
from replay.texts import cards_text

if TYPE_CHECKING:  # pragma: no cover
    from analyzer.review.mistakes.friends import FriendsHand
    from analyzer.review.mistakes.summary import HandReview

#: the code of a bury finding (the pattern rule risky-bury's: its text is attached when it fired)
BURY_CODE = "SJ603"
#: the candidate names, in the order they are valued (the bury made first)
CANDIDATES = ("made", "bot", "no_points", "void_short")


def pickup(ctx: HandContext) -> tuple[int, ...] | None:
    """The burier's cards when they buried: their holding at trick 1 plus the bury."""
    h, seat = ctx.hand, ctx.burier
    if seat is None or h.bury is None or not h.tricks or seat not in h.seats:
        return None
    held = ctx.hands_before(0)[list(h.seats).index(seat)]
    return tuple(sorted((*held, *h.bury)))


def candidates(ctx: HandContext, cards: Sequence[int], made: Sequence[int], seed: int = SEED) -> dict[str, tuple[int, ...]]:
    """The candidate buries (name -> cards, sorted; see the module doc), duplicates dropped."""
    from analyzer.play.bot import Bot
    order, n = ctx.order, len(made)
    eff, key = order.eff, order.key

    def cheap(c: int) -> tuple[int, int, int]:
        return (1 if POINTS[c] else 0, 1 if eff[c] == TRUMP else 0, key[c])

    out: dict[str, tuple[int, ...]] = {"made": tuple(sorted(made))}
    try:
        out["bot"] = tuple(sorted(Bot(ctx.ruleset, random.Random(seed)).bury(list(cards), order, n)))
    except (ValueError, IndexError, KeyError):
        pass
    out["no_points"] = tuple(sorted(sorted(cards, key=cheap)[:n]))
    plain: dict[int, list[int]] = {}
    for c in cards:
        if eff[c] != TRUMP:
            plain.setdefault(eff[c], []).append(c)
    chosen: list[int] = []
    for s in sorted(plain, key=lambda s: (len(plain[s]), s)):
        if any(POINTS[c] or rank_of(c) == 14 for c in plain[s]):
            continue   # a suit with points or an ace is not laid down whole
        if len(chosen) + len(plain[s]) <= n:
            chosen += plain[s]
    rest = Counter(cards) - Counter(chosen)
    chosen += sorted(rest.elements(), key=cheap)[:n - len(chosen)]
    out["void_short"] = tuple(sorted(chosen))
    seen: set[tuple[int, ...]] = set()
    uniq: dict[str, tuple[int, ...]] = {}
    for name, b in out.items():
        if len(b) == n and b not in seen and not (Counter(b) - Counter(cards)):
            seen.add(b)
            uniq[name] = b
    return uniq


def value_bury(ctx: HandContext, *, samples: int = SAMPLES, max_samples: int | None = None,
               seed: int = SEED, chosen: Sequence[int] | None = None) -> Decision | None:
    """The bury's :class:`Decision` from the burier's view (trick 0, kind ``bury``);
    None when the hand has no bury line (nothing to say: no decision).

    ``samples`` deals first; with ``max_samples`` above it, a bury unsure after them
    (:func:`analyzer.review.mistakes.decisions.unsure`) is valued again on
    ``max_samples − samples`` new deals, the first ones left out (the plays' sequential
    sampling: :func:`~analyzer.review.mistakes.decisions.value_decision`); None: ``samples``
    deals, fixed. ``chosen``: value this bury in the bury made's place (cards of the
    burier's hand with the kitty; a test of the review's honesty)."""
    h = ctx.hand
    seat = ctx.burier
    if seat is None or h.bury is None:
        return None
    made = tuple(sorted(h.bury if chosen is None else chosen))
    d = Decision(h.number, 0, 0, seat, "bury", made)
    if h.team is not None:
        from analyzer.review.mistakes.friends import VALUED
        d.friends = {"valued": VALUED}
    cards = pickup(ctx)
    if cards is None or not made:
        d.reason = "the burier's hand with the kitty is not known"
        return d
    cands = candidates(ctx, cards, made, seed)
    d.considered = {"candidates": {k: cards_text(v, ctx.order) for k, v in cands.items()},
                    "all_buries": False}
    opts = list(cands.values())
    if len(opts) < 2:   # not judged (and said), left out of accuracy: not a forced bury
        d.reason = "no other candidate bury (every candidate is the bury made)"
        return d
    n = max(2, samples - samples % 2)
    value = _value_friends_bury if h.team is not None else _value_four_bury
    value(ctx, d, cards, opts, n, seed, 0, 0)

    def again(more: int) -> Decision:
        redone = Decision(h.number, 0, 0, seat, "bury", made,
                          friends=None if d.friends is None else {"valued": d.friends["valued"]},
                          considered=None if d.considered is None else dict(d.considered), screened=d.samples)
        value(ctx, redone, cards, opts, more, seed, 1, n)
        return redone
    return second_look(d, n, max_samples, again)


def _value_four_bury(ctx: HandContext, d: Decision, cards: Sequence[int], opts: list[tuple[int, ...]], n: int,
                     seed: int, batch: int = 0, start: int = 0) -> None:
    """A four-seat bury valued over ``n`` deals of the sequential sampling's ``batch``
    (:func:`~analyzer.review.mistakes.pov.sample_deals`: each batch its own deals; the
    bots' seeds numbered from ``start``), into ``d``."""
    h, seat = ctx.hand, d.seat
    deals = sample_deals(ctx, seat, 0, 0, n, seed, batch=batch)
    if len(deals) < (n if not batch else 2):
        d.reason = "too few deals consistent with what the burier saw"
        return
    seats = list(h.seats)
    leader = h.tricks[0].leader
    assert h.dealer is not None
    base_total = ctx.points_before(0)
    rows: list[list[float]] = []
    lev: list[list[float]] = []
    for j, (pos, _kp) in enumerate(deals, start=start):
        vals: list[float] = []
        for b in opts:
            hands = {s: list(pos.hands[i]) for i, s in enumerate(seats)}
            hands[seat] = sorted((Counter(cards) - Counter(b)).elements())
            try:
                st = HandState(ctx.ruleset, ctx.order, hands, leader=leader, dealer=h.dealer, seats=h.seats,
                               kitty_points=points(b), first_trick=h.tricks[0].number)
            except (ValueError, IndexError, KeyError):
                break
            end = play_to_end(st, None, _bot(ctx, f"{seed}:{h.number}:bury:{j}"))
            if end is None:
                break
            vals.append(float(end.final_points - st.attacker_points))
        if len(vals) != len(opts):
            continue   # a deal that cannot be played out is dropped for every option
        rows.append(vals)
        lev.append([level_score(ctx, base_total + v) for v in vals])
    d.samples = len(rows)
    if len(rows) < 2:
        d.reason = "the sampled deals could not be played out"
        return
    finish(ctx, d, opts, rows, lev, base_total)
    if d.forced:   # equal in every deal: like a play whose options are equal, no decision
        d.reason = "every candidate bury is worth the same"


def _value_friends_bury(ctx: HandContext, d: Decision, cards: Sequence[int], opts: list[tuple[int, ...]], n: int,
                        seed: int, batch: int = 0, start: int = 0) -> None:
    """A finding-friends bury (:mod:`analyzer.review.mistakes.friends`): the
    other players' hands dealt again from the burier's view before trick 1
    (:func:`~analyzer.review.mistakes.friends.sample_states`: their own hand
    with the kitty, the calls as made, no friend known: who holds a called
    card follows from each deal), each candidate played out by the bots with
    the deal's teams, valued from the burier's side as each play-out turned
    out (the friends decisions' signed points and level score). ``batch``: the
    sequential sampling's (:func:`_value_four_bury`)."""
    from analyzer.review.mistakes.friends import FriendsHand, SignedRows
    h = ctx.hand
    seat = d.seat
    fh = FriendsHand(ctx)
    if fh.why_not() is not None:
        d.reason = f"finding friends: {fh.why_not()}"
        return
    deals = friends_deals(fh, seat, n, seed, batch=batch)
    if len(deals) < (n if not batch else 2):
        d.reason = "too few deals consistent with what the burier saw"
        return
    acc = SignedRows(fh, seat)
    for j, others in enumerate(deals, start=start):
        ends = []
        for b in opts:
            dealt = {**others, seat: sorted((Counter(cards) - Counter(b)).elements())}
            try:
                st = fh.start_state(dealt, points(b))
            except (ValueError, IndexError, KeyError):
                break
            end = play_to_end(st, None, _bot(ctx, f"{seed}:{h.number}:bury:{j}:friends"), friends=True)
            if end is None:
                break
            ends.append(end)
        if len(ends) != len(opts):
            continue   # a deal that cannot be played out is dropped for every option
        acc.add(ends)
    acc.finish(ctx, d, opts)
    if d.forced:
        d.reason = "every candidate bury is worth the same"


def friends_deals(fh: FriendsHand, seat: str, n: int, seed: int = SEED, *,
                  batch: int = 0) -> list[dict[str, list[int]]]:
    """Up to ``n`` deals of the other players' hands before trick 1 as ``seat``
    (the burier) saw them: their own hand and the kitty, nothing of the others'
    (:func:`analyzer.review.mistakes.friends.sample_states` at trick 1's first play;
    ``batch``: the sequential sampling's, each its own deals)."""
    from analyzer.review.mistakes.friends import sample_states
    h = fh.hand
    real = fh.start_state(dict(zip(fh.seats, h.tricks[0].hands_before, strict=True)), points(h.bury or ()))
    return [{s: sorted(st.holding(s).elements()) for s in fh.seats if s != seat}
            for st in sample_states(fh, real, seat, 0, 0, n, seed, batch=batch)]


def _bot(ctx: HandContext, seed: str) -> object:
    from analyzer.play.bot import Bot
    return Bot(ctx.ruleset, random.Random(seed))


def _candidate_names(ctx: HandContext, d: Decision) -> dict[tuple[int, ...], str]:
    """Each candidate bury's cards -> its name (``made``, ``bot``, ``no_points``, ``void_short``)."""
    cards = pickup(ctx)
    return {v: k for k, v in candidates(ctx, cards, d.chosen).items()} if cards is not None else {}


def bury_finding(ctx: HandContext, d: Decision, pat: Mistake | None, explanation: str | None) -> Mistake | None:
    """The finding of a valued bury with a verdict (band set), else None; the
    pattern rule's text (``explanation``: :func:`~analyzer.review.mistakes.findings.pattern_text`
    of the SJ603 pattern) is attached as its explanation."""
    if d.band is None or not d.options:
        return None
    order = ctx.order
    node = ctx.record_hand.buries[-1] if ctx.record_hand is not None and ctx.record_hand.buries else None
    span = node.span if node is not None else None
    if pat is not None:
        line, col, eline, ecol = pat.line, pat.column, pat.end_line, pat.end_column
    elif span is not None:
        line, col, eline, ecol = span.line, span.column, span.end_line, span.end_column
    else:
        line = col = eline = ecol = 0
    best = d.options[0]
    mine = next(o for o in d.options if o.play == d.chosen or d.chosen in o.same)
    names = _candidate_names(ctx, d)
    best_text = cards_text(best.play, order)
    text = (f"{d.band} ({d.loss:.0f} ± {d.loss_se:.0f} points expected)"
            + (f", expected level outcome −{d.level_loss:.2f} ± {d.level_loss_se:.2f}" if d.level_loss >= 0.05 else "")
            + f": {d.seat} buried {cards_text(d.chosen, order)}; from {d.seat}'s view ({d.samples} deals of the "
            f"other hands{', so of who the friends are' if d.friends is not None else ''}, each played out by the "
            f"bots with each of {len(names)} candidate buries"
            + (f"; new deals, after a first look over {d.screened} left it unsure" if d.screened else "")
            + ") burying "
            f"{best_text}" + (f" ({CANDIDATE_WORDS.get(names[best.play], names[best.play])})" if best.play in names else "")
            + f" was better: the attackers finish with {best.expected:.0f} ± {best.stderr:.0f} "
            f"after it, {mine.expected:.0f} ± {mine.stderr:.0f} after the bury made")
    if explanation:
        text += f"; {explanation}"
    return Mistake(BURY_CODE, text, line, col, eline, ecol, INFO, d.hand, None, d.seat, "bury",
                   round(d.loss), d.band, None, best.play, False)


#: the candidates' names as a finding's text says them
CANDIDATE_WORDS = {"made": "the bury made", "bot": "the bots' bury", "no_points": "the point-free bury",
                   "void_short": "voiding the shortest suit"}


def _candidates_text(ctx: HandContext, d: Decision) -> str:
    """``: the attackers finish with 84 ± 14 after the bury made, 94 ± 15 after
    burying ♥99863 ♦88 ♣4 (no_points)``: what the valued candidates showed (at
    most three besides the bury made), or an empty string."""
    mine = next((o for o in d.options if o.play == d.chosen or d.chosen in o.same), None)
    if mine is None:
        return ""
    names = _candidate_names(ctx, d)
    others = [o for o in d.options if o is not mine][:3]
    if not others:
        return ""
    return (f": the attackers finish with {mine.expected:.0f} ± {mine.stderr:.0f} after the bury made, "
            + ", ".join(f"{o.expected:.0f} ± {o.stderr:.0f} after burying {cards_text(o.play, ctx.order)}"
                        + (f" ({CANDIDATE_WORDS.get(names[o.play], names[o.play])})" if o.play in names else "")
                        for o in others))


def review_bury(ctx: HandContext, hr: HandReview, patterns: Sequence[Mistake], out: list[Mistake],
                select: Sequence[str] | None, samples: int, max_samples: int | None = None) -> None:
    """The full review's hook (:mod:`analyzer.review.mistakes.full`): the bury's
    decision joins ``hr.decisions`` first; its finding (or the pattern's note
    when it has no verdict) goes to ``out``."""
    d = value_bury(ctx, samples=samples, max_samples=max_samples)
    pat = next((f for f in patterns if f.band != "note"), None)
    if d is not None:
        if pat is not None:
            d.explanations.append(f"{pat.code} {pattern_text(pat)}")
        if hr.decisions is not None:
            hr.decisions.insert(0, d)
        f = bury_finding(ctx, d, pat, pattern_text(pat) if pat is not None else None)
        if f is not None:
            if select is None or any(f.code.startswith(s) for s in select):
                out.append(f)
            return
    if pat is not None:
        valued = None
        if d is not None and not d.forced and d.reason is None and d.samples:
            valued = (f"from {d.seat}'s view no significant expected loss, {d.loss:.0f} ± {d.loss_se:.0f} "
                      f"points over {d.samples} deals"
                      + (f" (new deals, after a first look over {d.screened} left it unsure)" if d.screened else "")
                      + _candidates_text(ctx, d))
        out.append(as_note(pat, valued))


__all__ = ["review_bury", "value_bury", "friends_deals", "candidates", "pickup", "bury_finding", "BURY_CODE", "CANDIDATES"]
