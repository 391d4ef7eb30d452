"""A declaration as a decision valued from the declarer's own view (four
seats, fixed partners; at a table of friends the steps that differ are
:mod:`analyzer.review.mistakes.friends_declarations`'s).

*The decision*: a ``declare`` line written with its draw (``@k``) before any
bury. At that moment the declarer had seen the first ``k`` cards of their own
deal and every declaration made so far (the cards shown); not the other hands,
not their own cards still to draw, not the kitty.

*The options*: the engine's :func:`replay.declare.legal_declarations` for that
seat at that moment (every cumulative card set it could write and have
accepted) and passing. The line written is one of them.

*A sampled deal* (:func:`sample_deck`): the declarer's first ``k`` cards stay
where they were drawn; each card another seat showed in an accepted
declaration before the decision is put in one of that seat's first ``@k``
draws of that line; every other card (the rest of the deck, the declarer's
own later draws, the kitty) is shuffled into the remaining places. That the
others did *not* declare is not used, as for the plays
(:mod:`analyzer.review.mistakes.pov`).

*The value of an option in a deal*: the draw replayed with the record's
declarations up to the decision (each seat passing where the record shows
nothing), the option written in the decision's place, then the draw finished
by the project's bots (:class:`analyzer.play.generate.DrawLoop`, the
generator's own loop: the bots offered a declaration as they draw, a last
chance once all is drawn), the trump the engine concludes
(:func:`replay.declare.conclude`), the hand begun as the generator begins it
(:func:`analyzer.play.generate.start_play`: the dealer's kitty buried by the
bot; under campus rules, after the match's first hand, the other seats
offered a declaration over the kitty, 反主抄底, whose declarer sets the trump
and buries again) and the hand played out by the bots
(:func:`analyzer.review.mistakes.decisions.play_to_end`, the same bots'
random seed for every option of a deal): the attackers' final total and the
hand's level score. A deal where an option ends in a redeal is dropped for
every option (counted in ``d.considered``).

*Sequential sampling* (the review's default, as for the plays:
:func:`analyzer.review.mistakes.decisions.value_decision`): a declaration unsure after its
first ``samples`` deals (:func:`analyzer.review.mistakes.decisions.unsure`) is valued again
on ``max_samples − samples`` new deals (a generator and bots' seeds of their own), the first
ones set aside (``screened``).

The expected loss, its standard error, significance and band are the plays'
(:func:`analyzer.review.mistakes.decisions.finish`); a judged declaration
counts in points lost and accuracy like a play.

*Where the declarations decide who deals* (``DeclarationSetting.moves``): the
match's first hand; every hand under ``declarer_deals`` (shengji-godot: each
seat declares its own team's level, the declarer deals at it); a later hand
under ``attacker_level`` (正常报主: an attacker's own-level declaration
standing takes the deal, at the attackers' level; those declarations are
among an attacker's options, as the engine would take them). The draw starts
where the engine started it (:attr:`replay.results.HandResult.declared_from`
and ``first_drawer``: the previous hand's dealer, before the declarations
moved the deal), with the engine's ``team_levels``/``attacker_level``; each
play-out's dealer and level are the engine's and the option is valued from
the declarer's side as each play-out dealt (points counted from the line
where the deal passes, as in finding friends: ``finish(..., signed=...)``).

*Not valued* (said per declaration, left out of accuracy): a later hand under those rules whose dealer before the declarations is not
known; declarations without ``@k``; after the bury; a hand whose deal is not
fully known; a line the engine refused.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.decisions import (
    MAX_OPTIONS,
    SAMPLES,
    Decision,
    deal_line,
    finish,
    level_score,
    outcome_score,
    play_to_end,
    second_look,
)
from analyzer.review.mistakes.findings import Mistake
from analyzer.review.mistakes.pov import SEED
from primitives.cards import JOKER_LEVEL
from primitives.diagnostics import INFO
from replay.deck import deck_cards
from replay.declare import advance, conclude, legal_declarations
from replay.declare_state import DeclEvent, DeclState, start
from replay.scoring import hand_outcome, other_team, team_of
from replay.texts import cards_text

if TYPE_CHECKING:  # pragma: no cover
    from analyzer.play.bot import Bot
    from analyzer.play.generate import PlayStart
    from analyzer.review.mistakes.summary import HandReview
    from notation.model import Declaration

#: the code of a declaration finding
DECLARE_CODE = "SJ612"
#: the option "pass" (no declaration now)
PASS: tuple[int, ...] = ()


class DeclarationSetting:
    """What every declaration decision of a hand shares: the real deal in draw
    order, the record's timed declarations with the engine's acts, the draw
    order; or why the hand's declarations cannot be valued."""

    def __init__(self, ctx: HandContext) -> None:
        self.ctx = ctx
        h, rh, rs = ctx.hand, ctx.record_hand, ctx.ruleset
        self.lines: list[Declaration] = []
        self.acts: tuple[str, ...] = h.declaration_acts
        self.why: str | None = None
        self.first_drawer = ""
        self.order: list[str] = []
        self.dealt: dict[str, tuple[int, ...]] = {}
        self.first = False
        #: who deals follows from each play-out (the match's first hand, ``declarer_deals``, ``attacker_level``)
        self.moves = False
        self.team_levels: dict[str, int] | None = None
        self.attacker_level: int | None = None
        self.start_dealer: str | None = None
        self.start_level = h.level
        self.line = 0
        #: a table of friends (:mod:`analyzer.review.mistakes.friends_declarations`)
        self.friends = h.team is not None
        if rh is None:
            self.why = "no record of the hand"
            return
        decl = [e for e in rh.events if e.kind == "declare"]
        if not decl:
            return
        if self.friends:
            self._friends_table(decl)
            return
        if h.level == JOKER_LEVEL:
            self.why = "nothing to declare at the joker level"
        elif len(h.dealt) != 4 or any(len(c) != rs.hand_size for c in h.dealt.values()) or h.kitty is None:
            self.why = "the deal is not fully known"
        elif len(decl) != len(self.acts):
            self.why = "the declarations could not be read"
        if self.why is not None:
            return
        #: the match's first hand: the declarations decide who deals, so each play-out's sides follow from it
        self.first = h.number == 1 or rh.first is not None or h.dealer is None
        written = rh.dealer if rh.dealer in ("N", "W", "S", "E") else None
        #: the dealer the draw starts from (the first hand: the one written, if any) and its level, and
        #: the first drawer: the engine's (HandResult.declared_from, .first_drawer), else as written
        if h.first_drawer is not None and (h.declared_from is not None or self.first):
            self.first_drawer, self.start_dealer = h.first_drawer, h.declared_from
        elif (rs.declarer_deals or rs.attacker_level) and not self.first:
            self.why = "the dealer before the declarations is not known"
            return
        else:
            self.first_drawer = (rh.first or written or h.dealer or "N") if self.first else (h.dealer or "N")
            self.start_dealer = written if self.first else h.dealer
        self.start_level = h.levels[team_of(self.start_dealer)] if self.start_dealer else h.levels["NS"]
        if rs.declarer_deals:     # each seat declares its own team's level; the declarer deals
            self.team_levels = dict(h.levels)
        if rs.attacker_level and not self.first and self.start_dealer is not None:
            # 正常报主: an attacker may declare its own team's level and so take the deal
            self.attacker_level = h.levels[other_team(team_of(self.start_dealer))]
        self.moves = self.first or rs.declarer_deals or rs.attacker_level
        #: the attackers' total from which the deal passes (a side's points are counted from it
        #: when the sides follow from the declaration, as in finding friends)
        self.line = deal_line(rs)
        from analyzer.play.generate import draw_order
        self.order = draw_order(self.first_drawer)
        self.dealt = dict(h.dealt)
        self.lines = decl

    def _friends_table(self, decl: list[Declaration]) -> None:
        """A table of friends: the draw round the table from the dealer (the
        match's first hand, no dealer written: from the seat written on
        ``first``, else the first seat; the declarations decide who deals),
        the fold at the dealer's level (the first hand: the first declarer's,
        as the engine reads it)."""
        ctx = self.ctx
        h, rh, rs = ctx.hand, ctx.record_hand, ctx.ruleset
        assert rh is not None
        seats = tuple(h.seats)
        self.first = h.number == 1 and rh.dealer in (None, "?")
        if h.level == JOKER_LEVEL:
            self.why = "nothing to declare at the joker level"
        elif len(h.dealt) != len(seats) or any(len(c) != rs.hand_size for c in h.dealt.values()) or h.kitty is None:
            self.why = "the deal is not fully known"
        elif len(decl) != len(self.acts):
            self.why = "the declarations could not be read"
        elif not self.first and h.dealer not in seats:
            self.why = "the dealer is not known"
        if self.why is not None:
            return
        self.first_drawer = (rh.first if rh.first in seats else seats[0]) if self.first else h.dealer or seats[0]
        i = seats.index(self.first_drawer)
        self.order = list(seats[i:] + seats[:i])
        self.start_dealer = None if self.first else h.dealer
        # the engine folds at the dealer's level; on the first hand at the first declarer's (at the table)
        seated = [x.seat for x in decl if x.seat in seats]
        self.start_level = h.levels[seated[0] if self.first and seated else h.dealer or seats[0]]
        self.moves = True     # the teams follow from each play-out's calls (and the first hand's dealer)
        self.line = deal_line(rs)
        self.dealt = dict(h.dealt)
        self.lines = decl

    def position(self, line: Declaration) -> int | None:
        """The 0-based draw index of ``line`` (None without ``@k``)."""
        if line.at is None or line.seat not in self.order:
            return None
        return (line.at - 1) * len(self.order) + self.order.index(line.seat)


def state_before(st: DeclarationSetting, j: int, full: dict[str, tuple[int, ...]]) -> DeclState:
    """The declarations' state just before line ``j``, on the deal ``full``."""
    ctx = st.ctx
    state = start(ctx.ruleset, st.start_level, first_hand=st.first, dealer=st.start_dealer,
                  first_drawer=st.first_drawer, deal=full, attacker_level=st.attacker_level,
                  team_levels=st.team_levels)
    for line, act in zip(st.lines[:j], st.acts[:j], strict=True):
        if act != "refused":
            state, _ok, _ = advance(state, DeclEvent(line.seat, tuple(line.cards), line.at))
    return state


def sample_deck(st: DeclarationSetting, j: int, rng: random.Random) -> tuple[dict[str, tuple[int, ...]], tuple[int, ...]] | None:
    """A deal (seat → cards in draw order, kitty) as line ``j``'s declarer could
    picture it (see the module doc); None when the shown cards cannot be placed."""
    ctx = st.ctx
    rs = ctx.ruleset
    hs = rs.hand_size
    line = st.lines[j]
    seat, k = line.seat, line.at or 0
    slots: dict[str, list[int | None]] = {s: [None] * hs for s in st.order}
    slots[seat][:k] = list(st.dealt[seat][:k])
    pool = Counter(deck_cards(rs))
    pool.subtract(st.dealt[seat][:k])
    shown: dict[str, Counter[int]] = {}
    for prev, act in zip(st.lines[:j], st.acts[:j], strict=True):
        if act == "refused" or prev.seat == seat or (prev.at is None and not st.friends):
            continue
        new = Counter(prev.cards) - shown.get(prev.seat, Counter())
        shown.setdefault(prev.seat, Counter()).update(new)
        for c in sorted(new.elements()):
            free = [i for i in range(min(prev.at or hs, hs)) if slots[prev.seat][i] is None]
            if not free or pool[c] <= 0:
                return None
            slots[prev.seat][rng.choice(free)] = c
            pool[c] -= 1
    rest = sorted((+pool).elements())
    rng.shuffle(rest)
    it = iter(rest)
    full = {s: tuple(c if c is not None else next(it) for c in slots[s]) for s in st.order}
    kitty = tuple(it)
    if len(kitty) != rs.kitty:
        return None
    return full, kitty


def begin_option(st: DeclarationSetting, j: int, full: dict[str, tuple[int, ...]], kitty: tuple[int, ...],
                 option: tuple[int, ...], seed: str) -> tuple[PlayStart, Bot] | None:
    """Line ``j`` replaced by ``option`` in the deal ``full``/``kitty``: the draw
    finished by the bots, the trump concluded, and the hand begun as the
    generator begins it (:func:`analyzer.play.generate.start_play`: the kitty,
    the bury, campus 反主抄底); with the bots that play it on. None for a
    redeal or a continuation the engine or the bots cannot finish."""
    from analyzer.play.bot import Bot
    from analyzer.play.generate import DrawLoop, GenerationError, start_play
    ctx, h = st.ctx, st.ctx.hand
    rs = ctx.ruleset
    bot = Bot(rs, random.Random(seed))
    bot.new_hand()
    line = st.lines[j]
    dec = st.position(line)
    assert dec is not None
    at: dict[int, list[Declaration]] = {}
    for prev, act in zip(st.lines[:j], st.acts[:j], strict=True):
        p = st.position(prev)
        if act != "refused" and p is not None:
            at.setdefault(p, []).append(prev)
    try:
        loop = DrawLoop(rs, bot, full, level=st.start_level, dealer=st.start_dealer, first_drawer=st.first_drawer,
                        first_hand=st.first, team_levels=st.team_levels, attacker_level=st.attacker_level)
        for i in range(dec + 1):
            seat, kk, _new = loop.draw(i)
            for prev in at.get(i, ()):
                loop.declare(prev.seat, kk, tuple(prev.cards))
            loop.seen[seat] = loop.version   # the record shows what the drawing seat did: passed, or the line
        loop.declare(line.seat, line.at or 0, option or None)
        loop.run(dec + 1)
        loop.last_chance()
        res = conclude(loop.state, kitty=kitty, declare_none=not loop.events, recorded=bool(loop.events))
        if res.redeal or res.trump is None or res.dealer is None or (not st.moves and res.dealer != h.dealer):
            return None
        # the level the engine gives (declarer_deals, attacker_level), else the dealer's team's
        level = res.level if res.level is not None else h.levels[team_of(res.dealer)] if st.moves else h.level
        begun = start_play(rs, bot, loop.state, full, kitty, dealer=res.dealer, level=level, trump=res.trump,
                           first_hand=st.first)
    except (GenerationError, ValueError, IndexError, KeyError):
        return None
    return begun, bot


def play_option(st: DeclarationSetting, j: int, full: dict[str, tuple[int, ...]], kitty: tuple[int, ...],
                option: tuple[int, ...], seed: str) -> tuple[int, bool, str] | None:
    """(attackers' final total, hooked, dealer) of line ``j`` replaced by ``option`` in
    the deal ``full``/``kitty``, the hand begun by :func:`begin_option` and played
    out by the bots; None for a redeal or a continuation the engine or the bots
    cannot finish."""
    got = begin_option(st, j, full, kitty, option, seed)
    if got is None:
        return None
    begun, bot = got
    end = play_to_end(begun.state, None, bot)
    if end is None:
        return None
    return end.final_points, end.hooked, begun.state.dealer


def value_declaration(st: DeclarationSetting, j: int, *, samples: int = SAMPLES, max_samples: int | None = None,
                      seed: int = SEED, chosen: tuple[int, ...] | None = None) -> Decision:
    """Line ``j``'s :class:`Decision` from its declarer's view (kind ``declare``,
    trick 0; ``index``: the line's place among the hand's ``declare`` lines).

    ``samples`` deals first; with ``max_samples`` above it, a declaration unsure after them
    (:func:`analyzer.review.mistakes.decisions.unsure`) is valued again on
    ``max_samples − samples`` new deals, the first ones left out (the plays' sequential
    sampling); None: ``samples`` deals, fixed. ``chosen``: value this option (one of the
    line's legal declarations, or :data:`PASS`) in the line's place (a test of the
    review's honesty)."""
    ctx, h = st.ctx, st.ctx.hand
    line = st.lines[j]
    chosen = tuple(sorted(line.cards if chosen is None else chosen))
    d = Decision(h.number, 0, j, line.seat, "declare", chosen)
    if st.acts[j] == "refused":
        d.reason = "the engine refused this declaration"
        return d
    if st.position(line) is None:
        d.reason = "the declaration is written without its draw (@k)"
        return d
    k = line.at or 0
    if k > ctx.ruleset.hand_size:
        d.reason = "the declaration's draw (@k) is past the deal"
        return d
    drawn = st.dealt[line.seat][:k]
    if st.friends:   # the engine's fold with stand-ins (friends_declarations)
        from analyzer.review.mistakes.friends_declarations import VALUED, friends_state_before
        fstate, ins = friends_state_before(st, j)
        si = ins.get(line.seat, claim=False)
        legal = [] if si is None else legal_declarations(fstate.ruleset, st.start_level, fstate, si, drawn)
        d.friends = {"valued": VALUED}
    else:
        state = state_before(st, j, st.dealt)
        # (under attacker_level the engine's list has an attacker's own-level declarations too)
        legal = legal_declarations(ctx.ruleset, st.start_level, state, line.seat, drawn)
    opts: list[tuple[int, ...]] = [chosen] + [o for o in legal if o != chosen]
    opts = opts[:MAX_OPTIONS - 1] + [PASS] if chosen != PASS else opts[:MAX_OPTIONS]
    d.capped = max(0, len(legal) + 1 - len(opts))
    d.considered = {"options": [cards_text(o, ctx.order) if o else "pass" for o in opts], "all_declarations": True}
    n = max(2, samples - samples % 2)
    _value_options(st, j, d, opts, n, seed, 0)

    def again(more: int) -> Decision:
        assert d.considered is not None
        redone = Decision(h.number, 0, j, line.seat, "declare", chosen, capped=d.capped,
                          friends=None if d.friends is None else {"valued": d.friends["valued"]},
                          considered={key: v for key, v in d.considered.items() if key not in ("dropped_deals", "sides")},
                          screened=d.samples)
        _value_options(st, j, redone, opts, more, seed, 1)
        return redone
    return second_look(d, n, max_samples, again)


def _value_options(st: DeclarationSetting, j: int, d: Decision, opts: list[tuple[int, ...]], n: int, seed: int,
                   batch: int) -> None:
    """Line ``j``'s options valued into ``d`` over ``n`` deals of the sequential sampling's
    ``batch`` (0: the first; each batch its own generator of deals and its own bots' seeds)."""
    ctx, h = st.ctx, st.ctx.hand
    line = st.lines[j]
    assert d.considered is not None
    rows: list[list[float]] = []    # per deal, per option: the attackers' final total
    lev: list[list[float]] = []     # the level score, dealers' side
    srows: list[list[float]] = []   # st.moves: the same from the declarer's side as each play-out dealt
    slev: list[list[float]] = []
    dropped = on_team = 0
    tag = f"{seed}:{h.number}:declare:{j}" + (f":batch{batch}" if batch else "")
    rng = random.Random(tag)
    tries = 0
    while len(rows) < n and tries < 2 * n:
        tries += 1
        deal = sample_deck(st, j, rng)
        if deal is None:
            dropped += 1
            continue
        full, kitty = deal
        if st.friends:
            from analyzer.review.mistakes.friends_declarations import play_friends_option
            fgot = [play_friends_option(st, j, full, kitty, o, f"{tag}:{tries}") for o in opts]
            if any(r is None for r in fgot):
                dropped += 1
                continue
            ok = [r for r in fgot if r is not None]
            rows.append([float(t) for t, _m, _v in ok])
            lev.append([v for _t, _m, v in ok])
            srows.append([(st.line - t) if m else (t - st.line) for t, m, _v in ok])
            slev.append([v if m else -v for _t, m, v in ok])
            on_team += ok[0][1]
            continue
        got = []
        for o in opts:
            r = play_option(st, j, full, kitty, o, f"{tag}:{tries}")
            if r is None:
                break
            got.append(r)
        if len(got) != len(opts):
            dropped += 1   # a redeal, or a continuation that could not be finished: dropped for every option
            continue
        rows.append([float(t) for t, _h, _d in got])
        if st.moves:
            levels = [_level(st, t, hooked, dealer) for t, hooked, dealer in got]
            mine = [team_of(dealer) == team_of(line.seat) for _t, _h, dealer in got]
            lev.append(levels)
            srows.append([(st.line - t) if m else (t - st.line) for (t, _h, _d), m in zip(got, mine, strict=True)])
            slev.append([v if m else -v for v, m in zip(levels, mine, strict=True)])
        else:
            lev.append([level_score(ctx, t, hooked) for t, hooked, _d in got])
    d.considered["dropped_deals"] = dropped
    d.samples = len(rows)
    if len(rows) < max(2, n // 2):
        d.reason = "too few deals could be played out after the declaration (redeals, or none consistent)"
        return
    if st.friends:
        from analyzer.review.mistakes.friends_declarations import SIDES
        assert d.friends is not None
        d.friends["dealer_team_deals"] = on_team
        d.considered["sides"] = SIDES + ("; who deals follows from each (the match's first hand)" if st.first else "")
        finish(ctx, d, opts, rows, lev, 0, signed=(srows, slev))
    elif st.moves:
        d.considered["sides"] = ("who deals follows from each play-out (the match's first hand)" if st.first else
                                 "who deals follows from each play-out (the declarer deals)"
                                 if st.team_levels is not None else
                                 "who deals follows from each play-out (an attacker's own level takes the deal)")
        finish(ctx, d, opts, rows, lev, 0, signed=(srows, slev))
    else:
        finish(ctx, d, opts, rows, lev, 0)


def _level(st: DeclarationSetting, total: int, hooked: bool, dealer: str) -> float:
    """The level score (dealers' side) of a play-out ``dealer`` dealt."""
    h = st.ctx.hand
    try:
        o = hand_outcome(st.ctx.ruleset, h.levels, dealer, total, last_trick_rank_hook=hooked)
    except (KeyError, ValueError):
        return 0.0
    return outcome_score(o)


def declaration_finding(st: DeclarationSetting, d: Decision) -> Mistake | None:
    """The SJ612 finding of a valued declaration with a verdict (band set), else None."""
    if d.band is None or not d.options:
        return None
    order = st.ctx.order
    span = st.lines[d.index].span
    best = d.options[0]
    mine = next((o for o in d.options if o.play == d.chosen or d.chosen in o.same), None)
    if mine is None:
        return None

    def name(cards: tuple[int, ...]) -> str:
        return f"declaring {cards_text(cards, order)}" if cards else "passing"

    line = st.lines[d.index]
    text = (f"{d.band} ({d.loss:.0f} ± {d.loss_se:.0f} points expected)"
            + (f", expected level outcome −{d.level_loss:.2f} ± {d.level_loss_se:.2f}" if d.level_loss >= 0.05 else "")
            + f": {d.seat} wrote {cards_text(d.chosen, order)} with {line.at} card{'' if line.at == 1 else 's'} drawn; "
            f"from {d.seat}'s view "
            f"({d.samples} deals of the cards still unseen, the rest of the draw, the bury and the play by the bots"
            + (", the dealer's friend calls and the teams following from each" if st.friends else "")
            + (", and who deals as each option makes it" if st.moves and (st.first or not st.friends) else "")
            + (f"; new deals, after a first look over {d.screened} left it unsure" if d.screened else "") + ") "
            f"{name(best.play)} was better: the attackers finish with {best.expected:.0f} ± {best.stderr:.0f} "
            f"after it, {mine.expected:.0f} ± {mine.stderr:.0f} after the line written")
    return Mistake(DECLARE_CODE, text, span.line, span.column, span.end_line, span.end_column, INFO, d.hand, None,
                   d.seat, "declare", round(d.loss), d.band, None, best.play, False)


def review_declarations(ctx: HandContext, hr: HandReview, out: list[Mistake], select: Sequence[str] | None, *,
                        samples: int = SAMPLES, max_samples: int | None = None, seed: int = SEED) -> None:
    """The full review's hook: each ``declare`` line before the bury joins
    ``hr.decisions`` (first, in record order) and its finding, if any, goes to
    ``out``; a hand whose declarations cannot be valued says why on each
    line's decision."""
    st = DeclarationSetting(ctx)
    rh = ctx.record_hand
    if rh is None or hr.decisions is None:
        return
    before_bury = []
    for e in rh.events:
        if e.kind == "bury":
            break
        before_bury.append(e)
    if not before_bury:
        return
    made: list[Decision] = []
    if st.why is not None:
        for j, e in enumerate(before_bury):
            d = Decision(ctx.hand.number, 0, j, e.seat, "declare", tuple(sorted(e.cards)))
            d.reason = st.why
            made.append(d)
    else:
        for j in range(len(before_bury)):
            d = value_declaration(st, j, samples=samples, max_samples=max_samples, seed=seed)
            made.append(d)
            f = declaration_finding(st, d)
            if f is not None and (select is None or any(f.code.startswith(s) for s in select)):
                out.append(f)
    hr.decisions[0:0] = made


__all__ = ["DeclarationSetting", "sample_deck", "state_before", "begin_option", "play_option", "value_declaration", "declaration_finding",
           "review_declarations", "DECLARE_CODE", "PASS"]
