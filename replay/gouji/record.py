"""Replay a GJN record (GOUJI.md §2, §6, §7, §9): the engine's entry point.

``replay(record, rules=None) -> GoujiReplay`` checks every game of a
:class:`notation.gjn_model.GoujiRecord` and returns its diagnostics (GJ2xx to
GJ5xx, positioned at the offending line, one per fault, never stopping at the
first) and one :class:`GameResult` per game (places, score, 够级 plays made and
suffered, burns, 让牌, cards left, a per-action timeline).

After a finding the replay goes on as recorded (§9). The play itself is
:class:`replay.gouji.state.GoujiState`; this module drives a game through
the pre-play steps (亮3, 买3, 革命, 会3/4 and the first leader in
:mod:`replay.gouji.preplay`; 点贡, 落贡 and 还贡 in :mod:`replay.gouji.tribute`),
明点, the action numbers and marks, and the result and score lines (the
values it returns are :mod:`replay.gouji.results`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, overload

from primitives.diagnostics import Diagnostic
from replay.gouji.board import IN_PLAY, OVER, PLAY, ranks_text
from replay.gouji.preplay import PrePlayChecks
from replay.gouji.results import (
    GameResult,
    GoujiReplay,
    PlayRef,
    Step,
    score_of,
)
from replay.gouji.rules import GoujiRuleset, resolve
from replay.gouji.state import GoujiState
from replay.gouji.table import PLACE_NAMES, SEAT_NAMES, SEAT_OF, TEAMS
from replay.gouji.tribute import Prev, rank_counts

if TYPE_CHECKING:  # the record model is notation's; the engine only reads it
    from notation.gjn_model import (
        Action,
        Buy,
        Game,
        GoujiRecord,
        Lead,
        Point,
        PrePlay,
        Redeal,
        Remove,
        Result,
        Revolt,
        Show,
    )

HAND_SIZE = 36


class _RecordReplay(PrePlayChecks):
    def __init__(self, record: GoujiRecord, rules: GoujiRuleset, timeline: bool) -> None:
        self.record = record
        self.rules = rules
        self.diags: list[Diagnostic] = []
        self.games: list[GameResult] = []
        self.prev: Prev | None = None
        self.first = True            # the next game is the record's first
        self.timeline = timeline

    # ------------------------------------------------------------------------------
    def run(self) -> None:
        for g in self.record.games:
            if g.is_scoresheet:
                self.scoresheet(g)
            else:
                self.play_game(g)

    def scoresheet(self, g: Game) -> None:
        res = GameResult(g.number, g.span.line, kind="scoresheet", complete=True)
        places = self.result_places(g, g.result) if g.result is not None else None  # a scoresheet has one
        if places is not None:
            res.places = {SEAT_NAMES[s]: places[s] for s in range(6)}
            odd, even, sweep = score_of(places, self.rules)
            res.score = {"odd": odd, "even": even}
            res.sweep = sweep
            self.check_score(g, odd, even)
            self.prev = Prev(places, sweep, None, [])
        else:
            self.prev = Prev(None)
        self.first = False
        self.games.append(res)

    def result_places(self, g: Game, r: Result) -> list[int] | None:
        """Places from a `result` line (six distinct seats), else GJ501 and None."""
        seats = [SEAT_OF[x] for x in r.seats]
        if len(seats) != 6 or len(set(seats)) != 6:
            self.d("GJ501", r.span, "a result line lists each of the six seats once, 头科 first", g)
            return None
        places = [0] * 6
        for i, s in enumerate(seats):
            places[s] = i + 1
        return places

    def check_score(self, g: Game, odd: int, even: int) -> None:
        sc = g.score
        if sc is not None and (sc.odd != odd or sc.even != even):
            how = "只记正分" if self.rules.score == "positive" else "zero sum"
            self.d("GJ502", sc.span, f"the score is odd {odd} even {even} ({how}), not "
                                     f"odd {sc.odd} even {sc.even}", g)

    # ------------------------------------------------------------------------------
    def play_game(self, g: Game) -> None:
        rules = self.rules
        rdiag = self.d
        position = g.position
        is_pos = position is not None
        res = GameResult(g.number, g.span.line, kind="position" if is_pos else "game")
        self.games.append(res)
        first_game = self.first
        self.first = False
        prev = self.prev

        # -- seat lines -------------------------------------------------------------
        dealt: list[tuple[int, ...] | None] = [None] * 6
        for sc in g.deal:
            s = SEAT_OF[sc.seat]
            if dealt[s] is not None:
                continue  # SJ108 is the reader's
            dealt[s] = sc.cards
            if not is_pos and len(sc.cards) != HAND_SIZE:
                rdiag("GJ201", sc.span, f"{sc.seat} is dealt {len(sc.cards)} cards; a hand is {HAND_SIZE}", g)
        self.copy_counts(g)
        hold: list[list[int] | None] = [rank_counts(c) if c is not None else None for c in dealt]
        size: list[int | None] = [len(c) if c is not None else (None if is_pos else HAND_SIZE) for c in dealt]

        # -- misplaced pre-play lines (GJ212, alone) --------------------------------
        lines: list[PrePlay] = []
        for p in g.preplay:
            if p.after_actions > 0:
                rdiag("GJ212", p.span, f"`{p.kind}` is a pre-play line: it must come before the first action", g)
            elif is_pos and p.kind != "lead":
                rdiag("GJ212", p.span, f"a position game starts in mid-play: `{p.kind}` has no place in it "
                                       f"(only `lead`)", g)
            else:
                lines.append(p)
        pre_points: list[Point] = []
        for pp in g.pre_points:
            if is_pos:
                rdiag("GJ212", pp.span, "a position game starts in mid-play: `point … pre` has no place in it", g)
            else:
                pre_points.append(pp)

        leader = -1
        rev = -1
        status = [IN_PLAY] * 6
        places = [0] * 6
        points: list[tuple[int, bool]] = []
        lead_lines = _lines_of(lines, "lead")
        if position is not None:
            for i, name in enumerate(position.finished):
                s = SEAT_OF[name]
                status[s] = 1
                places[s] = i + 1
            if lead_lines:
                leader = SEAT_OF[lead_lines[0].seat]
        else:
            # 1. 亮3 / 顶班
            liang3_game = self.is_liang3_game(first_game, prev)
            shower = self.shows(g, _lines_of(lines, "show"), dealt, liang3_game)
            # 2. 点贡, 落贡, 还贡
            self.tributes(g, lines, hold, size, prev, first_game)
            held_after_tribute = [list(h) if h is not None else None for h in hold]
            # 3. 买3
            self.buys(g, _lines_of(lines, "buy"), hold)
            # 4. 革命
            revolts = _lines_of(lines, "revolt")
            rev_seats = self.revolts(g, revolts, dealt, held_after_tribute)
            redeal = _lines_of(lines, "redeal")
            if len(rev_seats) >= 2:
                if not redeal:
                    rdiag("GJ208", g.span, f"{len(rev_seats)} players revolt "
                                           f"({', '.join(SEAT_NAMES[s] for s in rev_seats)}): the deal is void "
                                           f"and `redeal` must end the game", g)
                res.kind = "void"
                res.complete = True
                self.first = first_game  # a void deal changes nothing (§7)
                for a in g.actions:
                    rdiag("GJ408", a.span, "the deal is void (two or more revolts): no play follows", g)
                return  # a void deal changes nothing
            for r in redeal:
                rdiag("GJ208", r.span, "`redeal` only after two or more revolts", g)
            if rev_seats:
                rev = rev_seats[0]
            # 5. 会3 / 会4
            self.removes(g, _lines_of(lines, "remove"), hold, size)
            # 6. 明点 / 预点
            for p in pre_points + _lines_of(lines, "point"):
                if rules.dadian != "on":
                    rdiag("GJ211", p.span, "明点/预点 is played only with 打点 (dadian: on)", g)
                else:
                    points.append((SEAT_OF[p.seat], p.pre))
            # 7. the first leader
            derived = self.derive_leader(first_game, prev, shower, liang3_game)
            if derived >= 0 and derived == rev:
                derived = (derived + 1) % 6
                while derived == rev:
                    derived = (derived + 1) % 6
            if lead_lines:
                ll = lead_lines[0]
                leader = SEAT_OF[ll.seat]
                if derived >= 0 and leader != derived:
                    rdiag("GJ205", ll.span, f"{SEAT_NAMES[derived]} leads the first round "
                                            f"({self.leader_reason(first_game, prev, liang3_game)}), "
                                            f"not {ll.seat}", g)
            elif derived >= 0:
                leader = derived
                first = g.actions[0] if g.actions else None
                if first is not None and SEAT_OF[first.seat] != derived:
                    rdiag("GJ205", first.span, f"{SEAT_NAMES[derived]} leads the first round "
                                               f"({self.leader_reason(first_game, prev, liang3_game)}), "
                                               f"not {first.seat}", g)
                    leader = SEAT_OF[first.seat]
        if leader < 0:
            leader = SEAT_OF[g.actions[0].seat] if g.actions else 0
        res.leader = SEAT_NAMES[leader]
        res.revolutionary = SEAT_NAMES[rev] if rev >= 0 else None

        # -- play -------------------------------------------------------------------
        st = GoujiState(rules, hold, size, leader=leader, status=status, places=places, revolutionary=rev)
        self.play(g, st, res)

        # -- result, score, what the next game owes ---------------------------------
        complete = st.phase == OVER
        res.complete = complete
        if not complete:
            rdiag("GJ503", g.span, f"the game stops before a side is out ({self.who_left(st)})", g)
        fin_places: list[int] | None = None
        if g.result is not None:
            given = self.result_places(g, g.result)
            if given is not None:
                if complete:
                    order = [SEAT_OF[x] for x in g.result.seats]
                    st.fill_places(order)
                    bad = [s for s in range(6) if st.place[s] != given[s]]
                    if bad:
                        self.d("GJ501", g.result.span, "the result differs from the play: " + "; ".join(
                            f"{SEAT_NAMES[s]} is {PLACE_NAMES[st.place[s]]} ({st.place[s]}), not "
                            f"{given[s]}" for s in bad), g)
                    fin_places = list(st.place)
                else:
                    bad = [s for s in range(6) if st.place[s] and st.place[s] != given[s]]
                    if bad:
                        self.d("GJ501", g.result.span, "the result differs from the play: " + "; ".join(
                            f"{SEAT_NAMES[s]} took place {st.place[s]}, not {given[s]}" for s in bad), g)
                    fin_places = given
        elif complete:
            fin_places = list(st.place)
        if fin_places is not None:
            odd, even, sweep = score_of(fin_places, rules)
            res.score = {"odd": odd, "even": even}
            res.sweep = sweep
            res.places = {SEAT_NAMES[s]: fin_places[s] for s in range(6)}
            self.check_score(g, odd, even)
        else:
            res.places = {SEAT_NAMES[s]: st.place[s] for s in range(6) if st.place[s]}
        bukai = st.bukaidian() if (complete and not is_pos) else None
        res.bukaidian = {SEAT_NAMES[s]: b for s, b in enumerate(bukai)} if bukai is not None else None
        self.prev = Prev(fin_places, res.sweep, bukai, points)
        res.gouji_made = {SEAT_NAMES[s]: [SEAT_NAMES[t] for t in st.gouji_made[s]] for s in range(6)}
        res.gouji_suffered = {SEAT_NAMES[s]: [SEAT_NAMES[t] for t in st.gouji_suffered[s]] for s in range(6)}
        res.burns_won = {SEAT_NAMES[s]: st.burns_won[s] for s in range(6)}
        res.burns_lost = {SEAT_NAMES[s]: st.burns_lost[s] for s in range(6)}
        res.lets = {SEAT_NAMES[s]: st.lets[s] for s in range(6)}
        res.cards_left = {SEAT_NAMES[s]: (st.cnt[s] if st.status[s] in (IN_PLAY, 2) else 0) for s in range(6)}

    @staticmethod
    def who_left(st: GoujiState) -> str:
        parts = []
        for t, members in enumerate(TEAMS):
            left = [SEAT_NAMES[s] for s in members if st.status[s] == IN_PLAY]
            parts.append(f"{('odd', 'even')[t]} {' '.join(left)}")
        return " and ".join(parts) + " still in play"

    # -- the actions --------------------------------------------------------------
    def play(self, g: Game, st: GoujiState, res: GameResult) -> None:
        diags = self.diags
        gnum = g.number
        counted = 0
        tl = res.timeline if self.timeline else None
        res.start_counts = tuple(0 if st.status[s] not in (IN_PLAY, 2) else st.cnt[s] for s in range(6))
        seat_of = SEAT_OF
        ranks_of = _RANKS_OF
        push = st.push
        for index, a in enumerate(g.actions):
            seat = seat_of[a.seat]
            kind = a.kind
            if kind == PLAY:
                cards = a.cards
                ranks = ranks_of.get(cards)
                if ranks is None:
                    ranks = tuple(c >> 3 for c in cards)
                    if len(ranks_of) < 100_000:
                        ranks_of[cards] = ranks
                finish = a.finish
                was_over = st.phase == OVER
                faults = push(seat, kind, ranks, empties=finish is not None)
            else:
                ranks = ()
                was_over = st.phase == OVER
                faults = push(seat, kind)
            if st.ev_ignored:
                if tl is not None:
                    tl.append(self.step(st, a, 0, ranks))
                continue
            counted += 1
            span = a.span
            if was_over:
                for code, msg in faults:
                    diags.append(Diagnostic.at(code, span, msg, hand=gnum))
                continue
            number = a.number
            if number is not None and number != counted:
                diags.append(Diagnostic.at("GJ407", span, f"action number {number} is out of sequence: "
                                                          f"this is action {counted} of the game", hand=gnum))
            if faults:
                for code, msg in faults:
                    diags.append(Diagnostic.at(code, span, msg, hand=gnum))
            if kind == PLAY:
                if not (st.ev_gouji or st.ev_burn or st.ev_fail or finish is not None or a.burn or a.fail):
                    if tl is not None:
                        tl.append(self.step(st, a, counted, ranks))
                    continue
                if st.ev_gouji:
                    res.gouji_plays.append(PlayRef(index, a.seat, SEAT_NAMES[st.ev_target]))
                if st.ev_burn:
                    res.burns.append(PlayRef(index, a.seat, None, SEAT_NAMES[st.ev_burned]))
                if a.burn and not st.ev_burn:
                    diags.append(Diagnostic.at("GJ405", a.marks_span or span, self.no_burn_reason(st, a),
                                               hand=gnum))
                if a.fail and not st.ev_fail:
                    diags.append(Diagnostic.at("GJ405", a.marks_span or span,
                                               f"{a.seat}'s set is marked fail but is no burn failure", hand=gnum))
                if st.ev_fail and not a.fail:
                    diags.append(Diagnostic.at(
                        "GJ406", span, f"{a.seat} is burning {SEAT_NAMES[st.ev_burned]} and leads without a joker: "
                                       f"the burn fails (the set is discarded, {a.seat} takes place "
                                       f"{st.ev_place}); mark it `fail`", hand=gnum))
                if a.finish is not None and not st.ev_fail and st.ev_place != a.finish:
                    if st.ev_place:
                        msg = f"{a.seat} finishes {st.ev_place}{_th(st.ev_place)} ({PLACE_NAMES[st.ev_place]}), not {a.finish}{_th(a.finish)}"
                    else:
                        msg = f"{a.seat} does not finish with this play (marked ={a.finish})"
                    diags.append(Diagnostic.at("GJ501", a.marks_span or span, msg, hand=gnum))
            elif a.burn or a.fail or a.finish is not None:
                diags.append(Diagnostic.at("GJ405", a.marks_span or span, f"a {kind} carries no marks", hand=gnum))
            if tl is not None:
                tl.append(self.step(st, a, counted, ranks))
        res.actions = counted

    @staticmethod
    def no_burn_reason(st: GoujiState, a: Action) -> str:
        return (f"{a.seat}'s play is marked burn but burns nobody: only a player with a head, other than "
                f"the target, who beats the top of a 够级 play burns")

    @staticmethod
    def step(st: GoujiState, a: Action, number: int, ranks: tuple[int, ...]) -> Step:
        names = SEAT_NAMES
        if st.phase == 0:
            ask: tuple[str, ...] = (names[st.leader],)
        else:
            ask = tuple(names[s] for s in st.asklist)
        return Step(number, a.span.line, a.seat, a.kind, ranks_text(ranks) if ranks else "",
                    ranks_text(st.top_ranks) if st.top_ranks else "", names[st.owner] if st.top else "",
                    names[st.target] if st.target >= 0 else "",
                    tuple(names[s] for s in range(6) if st.passed[s]), ask,
                    tuple((names[b], names[v]) for b, v in st.burning.items()),
                    tuple((names[s], st.place[s]) for s in range(6) if st.place[s]),
                    st.ev_gouji, st.ev_burn, st.ev_fail, st.ev_place, st.ev_ignored, st.ev_round_end,
                    tuple(0 if st.status[s] not in (IN_PLAY, 2) else st.cnt[s] for s in range(6)),
                    names[st.leader] if (st.ev_round_end or st.ev_fail) and st.phase == 0 else "",
                    bool(st.ev_round_end and st.phase == 0 and st.owner >= 0 and st.leader != st.owner),
                    names[st.ev_jieshao] if st.ev_jieshao >= 0 else "", st.ev_success,
                    names[st.ev_target] if st.ev_gouji and st.ev_target >= 0 else "",
                    names[st.ev_burned] if st.ev_burned >= 0 else "")

@overload
def _lines_of(lines: Sequence[PrePlay], kind: Literal["show"]) -> list[Show]: ...
@overload
def _lines_of(lines: Sequence[PrePlay], kind: Literal["buy"]) -> list[Buy]: ...
@overload
def _lines_of(lines: Sequence[PrePlay], kind: Literal["revolt"]) -> list[Revolt]: ...
@overload
def _lines_of(lines: Sequence[PrePlay], kind: Literal["redeal"]) -> list[Redeal]: ...
@overload
def _lines_of(lines: Sequence[PrePlay], kind: Literal["remove"]) -> list[Remove]: ...
@overload
def _lines_of(lines: Sequence[PrePlay], kind: Literal["point"]) -> list[Point]: ...
@overload
def _lines_of(lines: Sequence[PrePlay], kind: Literal["lead"]) -> list[Lead]: ...
def _lines_of(lines: Sequence[PrePlay], kind: str) -> Sequence[PrePlay]:
    """The pre-play lines of one keyword (each keyword is one node type)."""
    return [p for p in lines if p.kind == kind]


#: cards tuple → ranks tuple (the same sets recur across games)
_RANKS_OF: dict[tuple[int, ...], tuple[int, ...]] = {}


def _th(k: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(k, "th")


def replay(record: GoujiRecord, *, rules: str | None = None, timeline: bool = True) -> GoujiReplay:
    """Replay a :class:`notation.gjn_model.GoujiRecord` (GOUJI.md).

    ``rules`` names a preset that overrides the record's ``[Rules]`` tag (its
    ``[Rule.x]`` tags still apply). Never raises on a bad record: every fault
    is a diagnostic.
    """
    name_tag = record.tag_node("Rules")
    name = rules or (name_tag.value if name_tag is not None else None)
    overrides = {k: (t.value, t.span) for k, t in record.rule_overrides.items()}
    rs, diags = resolve(name, overrides, name_tag.span if name_tag is not None and not rules else None)
    rp = _RecordReplay(record, rs, timeline)
    rp.diags.extend(diags)
    rp.run()
    rp.diags.sort(key=Diagnostic.sort_key)
    return GoujiReplay(rs, rp.diags, rp.games)


__all__ = [
    "replay",
]
