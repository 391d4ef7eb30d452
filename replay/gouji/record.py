"""Replay a GJN record (GOUJI.md §2, §6, §7, §9): the engine's entry point.

``replay(record, rules=None) -> GoujiReplay`` checks every game of a
:class:`notation.gjn_model.GoujiRecord` and returns its diagnostics (GJ2xx to
GJ5xx, positioned at the offending line, one per fault, never stopping at the
first) and one :class:`GameResult` per game (places, score, 够级 plays made and
suffered, burns, 让牌, cards left, a per-action timeline).

After a finding the replay goes on as recorded (§9). The play itself is
:class:`replay.gouji.state.GoujiState`; this module adds the pre-play steps
(亮3, 点贡, 落贡 and 还贡, 买3, 革命, 会3/4, 明点, the first leader), the
action numbers and marks, and the result and score lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple, TypedDict, overload

from primitives.diagnostics import Diagnostic, Span
from primitives.gjcards import ANY, BJ_RANK, LJ_RANK, TWO, rank_name
from primitives.gjcards import suit_of as gj_suit_of
from replay.gouji.rules import GoujiRuleset, preset, resolve
from replay.gouji.state import (
    IN_PLAY,
    LET,
    OVER,
    PASS,
    PLAY,
    REVOLTED,
    GoujiState,
    counts_of,
    ranks_text,
)
from replay.gouji.table import PLACE_NAMES, PLACE_POINTS, SEAT_NAMES, SEAT_OF, TEAMS

if TYPE_CHECKING:  # the record model is notation's; the engine only reads it
    from notation.gjn_model import (
        Action,
        Buy,
        Dian,
        Game,
        GoujiRecord,
        Lead,
        Point,
        PrePlay,
        Redeal,
        Remove,
        Result,
        Return,
        Revolt,
        Show,
        Tribute,
    )

#: what a game is: played from the deal, a scoresheet (``result`` alone), a
#: position (mid-play start) or a void deal (two or more revolts)
GameKind = Literal["game", "scoresheet", "position", "void"]
#: per seat, rank counts (18 slots) or None when the hand is not known
Holdings = list[list[int] | None]
#: per seat, a card count or None when not known
Sizes = list[int | None]

HAND_SIZE = 36
SUIT_NAMES = "♠♥♦♣"


class Step(NamedTuple):
    """One action of the timeline, with the state after it."""

    number: int            # the action's count (0 for an ignored pass)
    line: int
    seat: str
    kind: Literal["play", "pass", "let"]
    cards: str             # the set played ('' for pass / let)
    top: str               # the top after the action ('' at a round's start)
    owner: str             # its owner ('' at a round's start)
    target: str            # the 够级 target of the top ('' if plain)
    passed: tuple[str, ...]
    ask: tuple[str, ...]   # who is asked next, in order (the leader alone at a round's start)
    burning: tuple[tuple[str, str], ...]   # (burner, burned)
    finished: tuple[tuple[str, int], ...]  # (seat, place) so far
    gouji: bool            # the action was a 够级 play
    burn: bool
    fail: bool
    place: int             # place taken by this action (0 if none)
    ignored: bool          # a pass after an unbeatable set (§3)
    round_end: bool
    # -- added for the viewer and the reports (defaults keep old callers working)
    counts: tuple[int | None, ...] = ()  # cards left per seat P1..P6 after the action (None: unknown)
    leads: str = ''        # who leads the next round, when this action ended one (or failed a burn)
    jiefeng: bool = False  # 接风: the round ended and its owner is out, so the next in play leads
    jieshao: str = ''      # 解烧: the burner whose burn this play ended ('' if none)
    burn_won: bool = False  # the burner emptied his hand while burning (a successful burn)
    aim: str = ''          # the target of this action's 够级 play ('' if it is none)
    burned: str = ''       # the player this action burns, or whose burn failed ('' if none)


class PlayRef(NamedTuple):
    """A 够级 play or a burn: ``action`` is the 0-based index into ``game.actions``."""

    action: int
    seat: str
    target: str | None = None   # a 够级 play's target
    burned: str | None = None   # a burn's burned player


class SideScore(TypedDict):
    """A game's score per side: odd seats (P1 P3 P5) and even seats (P2 P4 P6), §6."""

    odd: int
    even: int


class PlayRefDict(TypedDict):
    action: int
    seat: str
    target: str | None
    burned: str | None


class GameResultDict(TypedDict):
    """:meth:`GameResult.to_dict`: the result without the timeline (JSON-ready)."""

    game: int | None
    line: int
    kind: GameKind
    complete: bool
    places: dict[str, int]
    score: SideScore | None
    sweep: bool
    leader: str | None
    revolutionary: str | None
    gouji_made: dict[str, list[str]]
    gouji_suffered: dict[str, list[str]]
    burns_won: dict[str, int]
    burns_lost: dict[str, int]
    lets: dict[str, int]
    cards_left: dict[str, int | None]
    bukaidian: dict[str, bool] | None
    actions: int
    gouji_plays: list[PlayRefDict]
    burns: list[PlayRefDict]


def _play_ref_dict(p: PlayRef) -> PlayRefDict:
    return {"action": p.action, "seat": p.seat, "target": p.target, "burned": p.burned}


@dataclass
class GameResult:
    number: int | None
    line: int
    kind: GameKind = "game"
    complete: bool = False
    #: seat name → place (1..6) when known
    places: dict[str, int] = field(default_factory=dict)
    #: computed score, per side
    score: SideScore | None = None
    sweep: bool = False
    leader: str | None = None
    revolutionary: str | None = None
    #: seat → targets of each 够级 play he made / players of each he suffered
    gouji_made: dict[str, list[str]] = field(default_factory=dict)
    gouji_suffered: dict[str, list[str]] = field(default_factory=dict)
    burns_won: dict[str, int] = field(default_factory=dict)
    burns_lost: dict[str, int] = field(default_factory=dict)
    lets: dict[str, int] = field(default_factory=dict)
    cards_left: dict[str, int | None] = field(default_factory=dict)
    #: 打点: who ended 不开点 (None when not known)
    bukaidian: dict[str, bool] | None = None
    actions: int = 0
    #: every 够级 play and every burn, in order
    gouji_plays: list[PlayRef] = field(default_factory=list)
    burns: list[PlayRef] = field(default_factory=list)
    timeline: list[Step] = field(default_factory=list)
    #: cards per seat when the play starts (after tribute, 买3, 会3/4; 0 for one out of play, e.g.
    #: the revolutionary, as in ``cards_left``), None where unknown
    start_counts: tuple[int | None, ...] = ()

    def to_dict(self) -> GameResultDict:
        return {
            "game": self.number, "line": self.line, "kind": self.kind, "complete": self.complete,
            "places": self.places, "score": self.score, "sweep": self.sweep, "leader": self.leader,
            "revolutionary": self.revolutionary, "gouji_made": self.gouji_made,
            "gouji_suffered": self.gouji_suffered, "burns_won": self.burns_won,
            "burns_lost": self.burns_lost, "lets": self.lets, "cards_left": self.cards_left,
            "bukaidian": self.bukaidian, "actions": self.actions,
            "gouji_plays": [_play_ref_dict(p) for p in self.gouji_plays],
            "burns": [_play_ref_dict(p) for p in self.burns],
        }


@dataclass
class GoujiReplay:
    rules: GoujiRuleset
    diagnostics: list[Diagnostic] = field(default_factory=list)
    games: list[GameResult] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


@dataclass
class _Prev:
    """What a game leaves to the next (§2.7, §7)."""

    places: list[int] | None       # per seat
    sweep: bool = False
    bukai: list[bool] | None = None  # None: not known (dian lines taken as given)
    points: list[tuple[int, bool]] = field(default_factory=list)


def score_of(places: list[int], rules: GoujiRuleset) -> tuple[int, int, bool]:
    """(odd, even, 串三户) for a full set of places (§6)."""
    sums = [0, 0]
    for s in range(6):
        sums[s & 1] += PLACE_POINTS[places[s]] if 1 <= places[s] <= 6 else 0
    sweep = False
    for t in (0, 1):
        if {places[s] for s in TEAMS[t]} == {1, 2, 3}:
            sums[t], sums[1 - t] = 12, -12
            sweep = True
    if rules.score == "positive":
        sums = [max(0, x) for x in sums]
    return sums[0], sums[1], sweep


def _rank_counts(cards: Iterable[int]) -> list[int]:
    c = [0] * 18
    for card in cards:
        c[card >> 3] += 1
    return c


def _ranks(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(card >> 3 for card in cards)


class _RecordReplay:
    def __init__(self, record: GoujiRecord, rules: GoujiRuleset, timeline: bool) -> None:
        self.record = record
        self.rules = rules
        self.diags: list[Diagnostic] = []
        self.games: list[GameResult] = []
        self.prev: _Prev | None = None
        self.first = True            # the next game is the record's first
        self.timeline = timeline

    def d(self, code: str, span: Span | None, message: str, game: Game | None = None) -> None:
        self.diags.append(Diagnostic.at(code, span, message, hand=game.number if game is not None else None))

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
            self.prev = _Prev(places, sweep, None, [])
        else:
            self.prev = _Prev(None)
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
        hold: list[list[int] | None] = [_rank_counts(c) if c is not None else None for c in dealt]
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
        self.prev = _Prev(fin_places, res.sweep, bukai, points)
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

    # -- deal checks ----------------------------------------------------------------
    def copy_counts(self, g: Game) -> None:
        """GJ202 at the seat line where a count first exceeds 4 packs (§9)."""
        per_rank = [0] * 18
        per_suited: dict[int, int] = {}
        reported: set[tuple[str, int]] = set()  # ('r', rank) / ('c', card) already reported
        for sc in g.deal:
            for card in sc.cards:
                r = card >> 3
                per_rank[r] += 1
                limit = 4 if r >= LJ_RANK else 16
                if per_rank[r] > limit and ("r", r) not in reported:
                    reported.add(("r", r))
                    what = "BJ (大王)" if r == BJ_RANK else "LJ (小王)" if r == LJ_RANK else f"rank {rank_name(r)}"
                    self.d("GJ202", sc.span, f"more than {limit} cards of {what}: four packs hold {limit}", g)
                if gj_suit_of(card) != ANY:
                    per_suited[card] = per_suited.get(card, 0) + 1
                    if per_suited[card] > 4 and ("c", card) not in reported:
                        reported.add(("c", card))
                        self.d("GJ202", sc.span, f"more than 4 {SUIT_NAMES[card & 7]}{rank_name(r)}: four packs "
                                                 f"hold 4", g)

    # -- 亮3 ------------------------------------------------------------------------
    def is_liang3_game(self, first_game: bool, prev: _Prev | None) -> bool:
        fl = self.rules.first_leader
        if fl == "liang3":
            return True
        if fl == "given" or self.rules.bie3 == "on":
            return False
        return first_game or (prev is not None and prev.sweep)

    def shows(self, g: Game, shows: Sequence[Show], dealt: Sequence[tuple[int, ...] | None],
              liang3_game: bool) -> int:
        if not liang3_game:
            return -1
        last_n = 0
        shower = -1
        count = 0
        for sh in shows:
            count += 1
            s = SEAT_OF[sh.seat]
            cards = sh.cards
            suits = {c & 7 for c in cards}
            problem = None
            if self.rules.first_leader == "liang3" and count > 1:
                problem = "only one show is made under these rules (first_leader: liang3)"
            elif len(cards) < 2 or any(c >> 3 != 3 for c in cards):
                problem = "a show is two or more 3s of one suit"
            elif len(suits - {ANY}) > 1:
                problem = "the 3s shown must be of one suit"
            elif len(cards) <= last_n:
                problem = f"a later show needs more 3s than the last ({last_n})"
            elif (dealt_s := dealt[s]) is not None:
                suit = next(iter(suits - {ANY}), ANY)
                have = sum(1 for c in dealt_s if c >> 3 == 3 and (suit == ANY or c & 7 in (suit, ANY)))
                if have < len(cards):
                    problem = f"{sh.seat} holds only {have} such 3s"
            if problem:
                self.d("GJ204", sh.span, f"bad show by {sh.seat}: {problem}", g)
                continue
            last_n = len(cards)
            shower = s
        return shower

    def derive_leader(self, first_game: bool, prev: _Prev | None, shower: int, liang3_game: bool) -> int:
        fl = self.rules.first_leader
        if fl == "given" or (self.rules.bie3 == "on"):
            return -1
        if liang3_game:
            return shower
        if prev is not None and prev.places is not None:
            return prev.places.index(6)
        return -1

    def leader_reason(self, first_game: bool, prev: _Prev | None, liang3_game: bool) -> str:
        if liang3_game:
            return "the last to show 3s (亮3)"
        return "the previous game's 大落"

    # -- 点贡, 落贡, 还贡 ------------------------------------------------------------
    def highest(self, h: list[int], k: int) -> list[int]:
        return highest_cards(h, k, self.rules)

    def payable(self, h: list[int] | None, owed: int) -> int | None:
        if h is None:
            return None
        if self.rules.tribute_cards == "any":
            return min(owed, sum(h))
        return min(owed, h[TWO] + h[LJ_RANK] + h[BJ_RANK])

    def transfer(self, g: Game, line: Dian | Tribute | Return, payer: int, receiver: int, hold: Holdings,
                 size: Sizes, check_highest: bool) -> None:
        ranks = _ranks(line.cards)
        h = hold[payer]
        if h is not None:
            missing = []
            need = counts_of(ranks)
            for r in range(18):
                if need[r] > h[r]:
                    missing += [r] * (need[r] - h[r])
            if missing:
                self.d("GJ203", line.span, f"{SEAT_NAMES[payer]} does not hold {ranks_text(missing)}", g)
            elif check_highest:
                want = self.highest(h, len(ranks))
                if sorted(ranks, reverse=True) != want:
                    self.d("GJ207", line.span, f"{SEAT_NAMES[payer]} must give his highest cards: "
                                               f"{ranks_text(want) if want else 'none'}, not {ranks_text(ranks)}", g)
            for r in ranks:
                if h[r] > 0:
                    h[r] -= 1
        hr = hold[receiver]
        if hr is not None:
            for r in ranks:
                hr[r] += 1
        n_payer, n_receiver = size[payer], size[receiver]
        if n_payer is not None:
            size[payer] = max(0, n_payer - len(ranks))
        if n_receiver is not None:
            size[receiver] = n_receiver + len(ranks)

    def dian_owed(self, prev: _Prev) -> dict[tuple[int, int], int]:
        return owed_dian(prev.bukai or [False] * 6, prev.points, self.rules)

    def tributes(self, g: Game, lines: Sequence[PrePlay], hold: Holdings, size: Sizes, prev: _Prev | None,
                 first_game: bool) -> None:
        rules = self.rules
        seq = [p for p in lines if p.kind in ("dian", "tribute", "return")]
        if not seq and prev is None:
            return
        # -- what is owed ------------------------------------------------------------
        # the previous game when what it leaves is known (None: the lines are taken as given)
        known = None if first_game or prev is None or prev.places is None else prev
        given = known is None
        dian_given = known is None or known.bukai is None
        owed_dian: dict[tuple[int, int], int] = (
            {} if known is None or known.bukai is None or rules.dadian != "on" else self.dian_owed(known))
        trib: list[tuple[int, int, int]] = []   # (payer, receiver, cards owed)
        if known is not None and rules.tribute == "on" and known.places is not None:
            trib = owed_tribute(known.places, known.sweep, rules)
        # -- order (§7: dian, 落贡 大落 first, returns 头科 first) ---------------------
        rank_kind = {"dian": 0, "tribute": 1, "return": 2}
        trib_index = {(p, r): i for i, (p, r, _) in enumerate(trib)}
        last = (-1, -1)
        for p in seq:
            k = rank_kind[p.kind]
            sub = 0
            if p.kind == "tribute":
                sub = trib_index.get((SEAT_OF[p.payer], SEAT_OF[p.receiver]), 0)
            elif p.kind == "return":
                # returns go 头科 first: by the returner's place (after a 串三户 under
                # sweep_tribute: opposite this differs from the tributes' order)
                if prev is not None and prev.places is not None:
                    sub = prev.places[SEAT_OF[p.payer]]
                else:
                    sub = trib_index.get((SEAT_OF[p.receiver], SEAT_OF[p.payer]), 0)
            key = (k, sub)
            if key < last:
                self.d("GJ206", p.span, f"`{p.kind} {p.payer} {p.receiver}` is out of order: dian lines first, "
                                        f"then tributes (大落 first), then returns (头科 first)", g)
            else:
                last = key
        # -- dian --------------------------------------------------------------------
        dians = [p for p in seq if p.kind == "dian"]
        dealt_hold = [list(h) if h is not None else None for h in hold]
        done_dian: set[tuple[int, int]] = set()
        for p in dians:
            x, y = SEAT_OF[p.payer], SEAT_OF[p.receiver]
            if rules.dadian != "on":
                self.d("GJ206", p.span, "点贡 is paid only with 打点 (dadian: on)", g)
                self.transfer(g, p, x, y, hold, size, False)
                continue
            if dian_given:
                self.transfer(g, p, x, y, hold, size, False)
                continue
            if (x, y) in done_dian:
                self.d("GJ206", p.span, f"{p.payer} pays 点贡 to {p.receiver} in one line only", g)
                self.transfer(g, p, x, y, hold, size, False)
                continue
            done_dian.add((x, y))
            amount = owed_dian.get((x, y))
            if amount is None:
                others = [b for (a, b) in owed_dian if a == x]
                if others:
                    self.d("GJ206", p.span, f"{p.payer}'s 点贡 goes to {SEAT_NAMES[others[0]]}, not {p.receiver}", g)
                else:
                    self.d("GJ206", p.span, f"{p.payer} owes no 点贡 to {p.receiver}", g)
                self.transfer(g, p, x, y, hold, size, False)
                continue
            n = self.payable(dealt_hold[x], amount)
            if (n is not None and len(p.cards) != n) or (n is None and len(p.cards) > amount):
                self.d("GJ206", p.span, f"{p.payer} owes {p.receiver} {n if n is not None else amount} "
                                        f"card(s) of 点贡, not {len(p.cards)}", g)
                self.transfer(g, p, x, y, hold, size, False)
                continue
            self.transfer_highest_dealt(g, p, x, y, hold, size, dealt_hold[x])
        if not dian_given and rules.dadian == "on":
            for (x, y), amount in owed_dian.items():
                n = self.payable(dealt_hold[x], amount)
                if n is None and rules.tribute_cards == "jokers_twos":
                    continue  # not certain he holds a joker or a 2
                if (x, y) not in done_dian and (n if n is not None else amount) > 0:
                    self.d("GJ206", g.span, f"missing 点贡: {SEAT_NAMES[x]} owes {SEAT_NAMES[y]} "
                                            f"{amount} (a `dian {SEAT_NAMES[x]} {SEAT_NAMES[y]}` line)", g)
        # -- 落贡 ---------------------------------------------------------------------
        paid: list[tuple[int, int, int]] = []
        seen_t: set[tuple[int, int]] = set()
        for p in (q for q in seq if q.kind == "tribute"):
            x, y = SEAT_OF[p.payer], SEAT_OF[p.receiver]
            if given:
                self.transfer(g, p, x, y, hold, size, False)
                paid.append((x, y, len(p.cards)))
                continue
            if rules.tribute != "on":
                self.d("GJ206", p.span, "no tribute is paid under these rules (tribute: off)", g)
                self.transfer(g, p, x, y, hold, size, False)
                continue
            match = [t for t in trib if t[0] == x]
            if not match or (x, y) in seen_t:
                sweep_note = known is not None and known.sweep and not trib
                self.d("GJ206", p.span, f"{p.payer} owes no tribute" + (
                    " (串三户: no tribute under sweep_tribute: none)" if sweep_note else ""), g)
                self.transfer(g, p, x, y, hold, size, False)
                continue
            _, want_y, owed = match[0]
            seen_t.add((x, want_y))
            if y != want_y:
                self.d("GJ206", p.span, f"{p.payer}'s tribute goes to {SEAT_NAMES[want_y]}, not {p.receiver}", g)
                self.transfer(g, p, x, y, hold, size, False)
                paid.append((x, y, len(p.cards)))
                continue
            n = self.payable(hold[x], owed)
            if (n is not None and len(p.cards) != n) or (n is None and not 1 <= len(p.cards) <= owed):
                self.d("GJ206", p.span, f"{p.payer} owes {SEAT_NAMES[y]} {n if n is not None else owed} "
                                        f"card(s) of tribute, not {len(p.cards)}", g)
                self.transfer(g, p, x, y, hold, size, False)
            else:
                self.transfer(g, p, x, y, hold, size, True)
            paid.append((x, y, len(p.cards)))
        if not given and rules.tribute == "on":
            for x, y, owed in trib:
                if (x, y) in seen_t:
                    continue
                if rules.team_tribute == "optional" and x & 1 == y & 1:
                    continue
                n = self.payable(hold[x], owed)
                if n == 0 or (n is None and rules.tribute_cards == "jokers_twos"):
                    continue
                self.d("GJ206", g.span, f"missing tribute: {SEAT_NAMES[x]} owes {SEAT_NAMES[y]} "
                                        f"{n if n is not None else owed} card(s) (a `tribute` line)", g)
        # -- 还贡 ---------------------------------------------------------------------
        owed_ret = {(y, x): n for x, y, n in paid if n > 0}
        seen_r: set[tuple[int, int]] = set()
        for p in (q for q in seq if q.kind == "return"):
            x, y = SEAT_OF[p.payer], SEAT_OF[p.receiver]
            n = owed_ret.get((x, y))
            if n is None or (x, y) in seen_r:
                self.d("GJ206", p.span, f"{p.payer} owes no return to {p.receiver}", g)
            elif len(p.cards) != n:
                self.d("GJ206", p.span, f"{p.payer} returns {n} card(s) to {p.receiver}, not {len(p.cards)}", g)
            seen_r.add((x, y))
            self.transfer(g, p, x, y, hold, size, False)
        if not given:
            for (x, y), n in owed_ret.items():
                if (x, y) not in seen_r:
                    self.d("GJ206", g.span, f"missing return: {SEAT_NAMES[x]} returns {n} card(s) to "
                                            f"{SEAT_NAMES[y]} (a `return` line)", g)

    def transfer_highest_dealt(self, g: Game, p: Dian, x: int, y: int, hold: Holdings, size: Sizes,
                               dealt_h: list[int] | None) -> None:
        """A `dian` line: its cards are judged against the payer's dealt hand."""
        ranks = _ranks(p.cards)
        if dealt_h is not None:
            need = counts_of(ranks)
            if all(need[r] <= dealt_h[r] for r in range(18)):
                want = self.highest(dealt_h, len(ranks))
                if sorted(ranks, reverse=True) != want:
                    self.d("GJ207", p.span, f"{p.payer}'s 点贡 must be his dealt hand's highest cards: "
                                            f"{ranks_text(want) if want else 'none'}, not {ranks_text(ranks)}", g)
        self.transfer(g, p, x, y, hold, size, False)

    # -- 买3 ------------------------------------------------------------------------
    @staticmethod
    def must_buy(h: list[int] | None) -> bool:
        return h is not None and h[3] == 0 and (h[TWO] + h[LJ_RANK] + h[BJ_RANK]) > 0

    @staticmethod
    def seller_of(x: int, hold: Holdings) -> int | None:
        """-1: no seller; None: not known; else the seat (opp(x) first, §2.3)."""
        o = (x + 3) % 6
        cands = [o] + [s for s in TEAMS[o & 1] if s != o]
        unknown = False
        for s in cands:
            h = hold[s]
            if h is None:
                unknown = True
                continue
            if h[3] >= 2:
                return s if not unknown else None
        return None if unknown else -1

    def buys(self, g: Game, buys: Sequence[Buy], hold: Holdings) -> None:
        bie3 = self.rules.bie3 == "on"
        for b in buys:
            x, y = SEAT_OF[b.buyer], SEAT_OF[b.seller]
            if not bie3:
                self.d("GJ209", b.span, "买3 is played only under 憋3 (bie3: on)", g)
                continue
            h = hold[x]
            if h is not None and not self.must_buy(h):
                why = "holds a 3" if h[3] else "holds no 2 and no joker"
                self.d("GJ209", b.span, f"{b.buyer} may not buy a 3: he {why}", g)
                continue
            ranks = _ranks(b.cards)
            bad_pay = None
            if len(ranks) != 1:
                bad_pay = "he pays one card"
            elif h is not None:
                r = ranks[0]
                if h[TWO] and r != TWO:
                    bad_pay = "he pays a 2"
                elif not h[TWO] and r not in (LJ_RANK, BJ_RANK):
                    bad_pay = "having no 2, he pays a joker"
                elif h[r] == 0:
                    bad_pay = f"he holds no {rank_name(r)}"
            elif ranks[0] not in (TWO, LJ_RANK, BJ_RANK):
                bad_pay = "he pays a 2 or a joker"
            if bad_pay:
                self.d("GJ209", b.span, f"wrong payment for 买3: {bad_pay}", g)
            o = (x + 3) % 6
            ho, hy0 = hold[o], hold[y]
            if ho is not None and ho[3] >= 2:
                if y != o:
                    self.d("GJ209", b.span, f"wrong seller: {b.buyer} buys from his 对头 {SEAT_NAMES[o]}, who "
                                            f"holds two 3s, not from {b.seller}", g)
            elif ho is not None and (y == o or y & 1 != o & 1 or (hy0 is not None and hy0[3] < 2)):
                if self.seller_of(x, hold) == -1:
                    self.d("GJ209", b.span, f"nobody can sell {b.buyer} a 3: neither his 对头 nor the 对头's "
                                            f"teammates hold two", g)
                else:
                    self.d("GJ209", b.span, f"wrong seller: {b.buyer} buys from a teammate of his 对头 "
                                            f"{SEAT_NAMES[o]} who holds two 3s, not from {b.seller}", g)
            # apply
            if h is not None:
                for r in ranks:
                    if h[r]:
                        h[r] -= 1
                h[3] += 1
            hy = hold[y]
            if hy is not None:
                if hy[3]:
                    hy[3] -= 1
                for r in ranks:
                    hy[r] += 1
        if bie3:
            for x in range(6):
                if self.must_buy(hold[x]) and self.seller_of(x, hold) not in (-1, None):
                    self.d("GJ209", g.span, f"missing 买3: {SEAT_NAMES[x]} holds no 3 but a 2 or a joker and "
                                            f"must buy a 3 (a `buy` line)", g)

    # -- 革命 -----------------------------------------------------------------------
    def revolts(self, g: Game, revolts: Sequence[Revolt], dealt: Sequence[tuple[int, ...] | None],
                held: Holdings) -> list[int]:
        rules = self.rules
        out: list[int] = []
        for rv in revolts:
            x = SEAT_OF[rv.seat]
            if rules.revolution != "on":
                self.d("GJ208", rv.span, "革命 is not played under these rules (revolution: off)", g)
                continue
            if x in out:
                self.d("GJ208", rv.span, f"{rv.seat} has already revolted", g)
                continue
            if rules.revolution_check == "dealt":
                dealt_x = dealt[x]
                h = _rank_counts(dealt_x) if dealt_x is not None else None
                which = "dealt hand"
            else:
                h = held[x]
                which = "hand after tribute"
            if h is not None:
                why = []
                if h[LJ_RANK] + h[BJ_RANK]:
                    why.append("a joker")
                if h[TWO]:
                    why.append("a 2")
                if rules.bie3 == "on" and h[3]:
                    why.append("a 3 (憋3)")
                if why:
                    self.d("GJ208", rv.span, f"{rv.seat} may not revolt: his {which} holds {' and '.join(why)}", g)
                    continue
            out.append(x)
        return out

    # -- 会3 / 会4 ------------------------------------------------------------------
    def removes(self, g: Game, removes: Sequence[Remove], hold: Holdings, size: Sizes) -> None:
        for rm in removes:
            if self.rules.remove != "34" or self.rules.bie3 == "on":
                self.d("GJ210", rm.span, "会3/会4 (`remove`) is not played under these rules", g)
                continue
            for r in rm.ranks:
                if r not in (3, 4):
                    continue
                for s in range(6):
                    h = hold[s]
                    if h is not None:
                        n = size[s]
                        if n is not None:
                            size[s] = n - h[r]
                        h[r] = 0
                    else:
                        size[s] = None


def highest_cards(h: list[int], k: int, rules: GoujiRuleset) -> list[int]:
    """The ranks of the ``k`` highest tribute cards of rank counts ``h`` (§7):
    jokers and 2s only under ``tribute_cards: jokers_twos`` (maybe fewer)."""
    ranks = range(17, 14, -1) if rules.tribute_cards == "jokers_twos" else range(17, 2, -1)
    out: list[int] = []
    for r in ranks:
        for _ in range(h[r]):
            if len(out) == k:
                return out
            out.append(r)
    return out


def owed_tribute(places: list[int], sweep: bool, rules: GoujiRuleset) -> list[tuple[int, int, int]]:
    """落贡 owed from the previous game's places (§7): ``[(payer, receiver,
    cards)]`` in line order (大落 first); [] under ``tribute: off``."""
    if rules.tribute != "on":
        return []
    at = {places[s]: s for s in range(6)}
    if sweep and rules.sweep_tribute != "normal":
        if rules.sweep_tribute == "none":
            return []
        winners = next(t for t in (0, 1) if {places[s] for s in TEAMS[t]} == {1, 2, 3})
        return [(s, (s + 3) % 6, 1) for s in sorted(TEAMS[1 - winners], key=lambda x: places[x], reverse=True)]
    return [(at[6], at[1], 2), (at[5], at[2], 1)]


def owed_dian(bukai: list[bool], points: list[tuple[int, bool]], rules: GoujiRuleset) -> dict[tuple[int, int], int]:
    """点贡 owed by the previous game (§7): ``{(payer, receiver): cards}``.

    Each 不开点 player owes his 对头 1; a right 明点/预点 by X makes opp(X) pay
    2/4 instead; a wrong one makes X pay opp(X) 2/4 (翻车; doubled under
    ``fanche: double``)."""
    owe: dict[tuple[int, int], int] = {}
    for s in range(6):
        if bukai[s]:
            owe[(s, (s + 3) % 6)] = 1
    mult = 2 if rules.fanche == "double" else 1
    for x, pre in points:
        y = (x + 3) % 6
        if bukai[y]:
            owe[(y, x)] = 4 if pre else 2
        else:
            owe[(x, y)] = owe.get((x, y), 0) + (4 if pre else 2) * mult
    return owe


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
    "LET",
    "PASS",
    "PLAY",
    "REVOLTED",
    "GameKind",
    "GameResult",
    "GameResultDict",
    "GoujiReplay",
    "PlayRef",
    "SideScore",
    "Step",
    "highest_cards",
    "owed_dian",
    "preset",
    "replay",
    "score_of",
]
