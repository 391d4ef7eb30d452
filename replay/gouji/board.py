"""The table of one Gouji game in play (GOUJI.md §1, §4–§6): the position
every action reads (holdings as rank counts, who is in play, present,
finished, heads, chaos, the top and its owner, the ask list, passes, 让牌,
burns), the questions asked of it, and the ends of rounds and of the game
(places, 不开点). :class:`Board` is the base of
:class:`replay.gouji.state.GoujiState`, which adds the actions, taking back
and what may be done.

Seats are ints 0..5 (P1..P6); a set is a tuple of rank ints
(:mod:`primitives.gjcards` order: 3..14, 15 = 2, 16 = LJ, 17 = BJ).
"""

from __future__ import annotations

from collections.abc import Sequence

from primitives.gjcards import LJ_RANK, rank_name
from replay.gouji.rules import GoujiRuleset
from replay.gouji.sets import SetInfo
from replay.gouji.table import RING, SEAT_NAMES, TEAMS

IN_PLAY, FINISHED, FAILED, REVOLTED = 0, 1, 2, 3
LEAD, ASK, OVER = 0, 1, 2
STATUS_NAMES = ("in play", "finished", "failed", "revolted")

PASS = "pass"
LET = "let"
PLAY = "play"

Action = tuple[str, tuple[int, ...]]  # (kind, ranks); ranks () for pass / let
Fault = tuple[str, str]               # (code, message) found by a push


def ranks_text(ranks: Sequence[int]) -> str:
    """``(17, 15, 15, 10)`` → ``'BJ 22 10'`` (high → low, one group per rank)."""
    out: list[str] = []
    prev = -1
    for r in sorted(ranks, reverse=True):
        if r == prev and r < LJ_RANK:
            out[-1] += rank_name(r)
        else:
            out.append(rank_name(r))
        prev = r
    return " ".join(out) or "-"


def counts_of(ranks: Sequence[int]) -> list[int]:
    c = [0] * 18
    for r in ranks:
        c[r] += 1
    return c


#: what :meth:`GoujiState.pop` restores, in :meth:`GoujiState._snapshot`'s order: hold, cnt, status,
#: place, rev_present, rev_opp_gouji, rev_leave_pending, phase, leader, top, top_ranks, owner,
#: top_gouji, target, passed, asklist, let_used, let_after, reask, burning, fin_round,
#: ignore_passes, kai, fixed, gouji_made, gouji_suffered, burns_won, burns_lost, lets
Snapshot = tuple[
    list[list[int] | None], list[int | None], list[int], list[int], bool, int,
    bool, int, int, SetInfo | None, tuple[int, ...], int,
    bool, int, list[bool], list[int], list[int], tuple[int, ...], int, dict[int, int], list[int],
    bool, list[bool], list[bool], list[list[int]], list[list[int]], list[int], list[int], list[int],
]



class Board:
    """The table of one game in play (the base of :class:`~replay.gouji.state.GoujiState`).

    ``hands``: per seat a rank-count list (18 slots) or None when the hand is
    not known (then ``sizes`` gives its card count, or None: unknown too).
    ``status``: per seat IN_PLAY / FINISHED / FAILED / REVOLTED;
    ``places`` the places already taken (position games).
    """

    __slots__ = (
        "rules", "compare", "burn_seed", "last_word", "yield_mode", "chaos_on", "bie3", "let_gouji_only",
        "hold", "cnt", "status", "place", "rev", "rev_present", "rev_opp_gouji", "rev_leave_pending",
        "phase", "leader", "top", "top_ranks", "owner", "top_gouji", "target", "passed", "asklist",
        "let_used", "let_after", "reask", "burning", "fin_round", "ignore_passes", "kai", "fixed",
        "gouji_made", "gouji_suffered", "burns_won", "burns_lost", "lets", "history",
        # the last push's events
        "ev_burn", "ev_burned", "ev_fail", "ev_place", "ev_gouji", "ev_target", "ev_ignored",
        "ev_jieshao", "ev_round_end", "ev_unbeatable", "ev_success", "_chaos",
    )

    def __init__(self, rules: GoujiRuleset, hands: Sequence[list[int] | None],
                 sizes: Sequence[int | None] | None = None, *, leader: int = 0,
                 status: Sequence[int] | None = None, places: Sequence[int] | None = None,
                 revolutionary: int = -1, keep_history: bool = False) -> None:
        self.rules = rules
        self.compare = rules.compare
        self.burn_seed = rules.burn_order == "seed"
        self.last_word = rules.last_word == "opposite"
        self.yield_mode = rules.yield_
        self.chaos_on = rules.chaos == "four"
        self.bie3 = rules.bie3 == "on"
        self.let_gouji_only = rules.let_on == "gouji"
        self.hold = [list(h) if h is not None else None for h in hands]
        if sizes is None:
            sizes = [sum(h) if h is not None else None for h in hands]
        self.cnt = [(sum(h) if h is not None else s) for h, s in zip(self.hold, sizes)]
        self.status = list(status) if status is not None else [IN_PLAY] * 6
        self.place = list(places) if places is not None else [0] * 6
        self.rev = revolutionary
        if revolutionary >= 0:
            self.status[revolutionary] = REVOLTED
        self.rev_present = revolutionary >= 0
        self.rev_opp_gouji = 0
        self.rev_leave_pending = False
        self.phase = LEAD
        self.leader = leader
        self.top: SetInfo | None = None
        self.top_ranks: tuple[int, ...] = ()
        self.owner = -1
        self.top_gouji = False
        self.target = -1
        self.passed = [False] * 6
        self.asklist: list[int] = []
        self.let_used: list[int] = []   # who has let this round (once per round each)
        self.let_after: tuple[int, ...] = ()
        self.reask = -1
        self.burning: dict[int, int] = {}
        self.fin_round: list[int] = []
        self.ignore_passes = False
        self.kai = [False] * 6
        self.fixed = [False] * 6
        self.gouji_made: list[list[int]] = [[] for _ in range(6)]      # targets of each 够级 play made
        self.gouji_suffered: list[list[int]] = [[] for _ in range(6)]  # players of each suffered
        self.burns_won = [0] * 6
        self.burns_lost = [0] * 6
        self.lets = [0] * 6
        self.history: list[Snapshot] | None = [] if keep_history else None
        self._chaos: bool | None = None
        self._clear_events()
        if self.status[self.leader] != IN_PLAY:
            self.leader = self.next_in_play(self.leader)
        self._check_end()

    # -- queries ----------------------------------------------------------------
    def _clear_events(self) -> None:
        self.ev_burn = False
        self.ev_burned = -1
        self.ev_fail = False
        self.ev_place = 0
        self.ev_gouji = False
        self.ev_target = -1
        self.ev_ignored = False
        self.ev_jieshao = -1
        self.ev_round_end = False
        self.ev_unbeatable = False
        self.ev_success = False

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def in_play(self, s: int) -> bool:
        return self.status[s] == IN_PLAY

    def next_in_play(self, s: int) -> int:
        """The next player in play after ``s`` (``s`` itself if only he is; -1 if nobody)."""
        for x in RING[s]:
            if self.status[x] == IN_PLAY:
                return x
        return s if self.status[s] == IN_PLAY else -1

    def present(self, s: int, for_seat: int = -1) -> bool:
        """In play, or finished during the current round; the revolutionary
        only for his 对头 while he is present for him (§1)."""
        if self.status[s] == IN_PLAY or s in self.fin_round:
            return True
        return s == self.rev and self.rev_present and for_seat == (s + 3) % 6

    def has_head(self, x: int) -> bool:
        """有头: x's 对头 is present (for x)."""
        return self.present((x + 3) % 6, x)

    def present_count(self) -> int:
        n = len(self.fin_round)
        for s in range(6):
            if self.status[s] == IN_PLAY:
                n += 1
        if self.rev >= 0 and self.rev_present:
            n += 1
        return n

    def chaos(self) -> bool:
        """四户乱缠: at most four players present (§1)."""
        c = self._chaos
        if c is None:
            c = self._chaos = self.chaos_on and self.present_count() <= 4
        return c

    def to_act(self) -> int:
        """The seat to act now (-1 once the game is over)."""
        if self.phase == LEAD:
            return self.leader
        if self.phase == ASK:
            return self.asklist[0] if self.asklist else -1
        return -1

    def can_let(self, seat: int) -> bool:
        """May ``seat`` let now (§4 让牌)?"""
        return self._let_problem(seat) is None

    def _let_problem(self, seat: int) -> str | None:
        n = SEAT_NAMES[seat]
        if self.yield_mode == "off":
            return "让牌 is not played under these rules (yield: off)"
        if self.phase != ASK:
            return f"{n} may not let a lead"
        if self.chaos():
            return f"{n} may not let in 四户乱缠 (at most four players present)"
        z = (self.owner + 3) % 6
        if seat != z:
            return (f"only {SEAT_NAMES[z]}, the 对头 of {SEAT_NAMES[self.owner]} who owns the top, may let; "
                    f"{n} may not")
        if self.let_gouji_only and not self.top_gouji:
            return f"{n} may let only a 够级 play under these rules (let_on: gouji)"
        if seat in self.let_used:
            return f"{n} has already let once this round"
        al = self.asklist
        if not al or al[0] != seat or not any(x != seat for x in al[1:]):
            return f"{n} may not let: no unpassed player follows him in the ask order"
        return None

    def hand_ranks(self, seat: int) -> tuple[int, ...] | None:
        h = self.hold[seat]
        if h is None:
            return None
        return tuple(r for r in range(17, 2, -1) for _ in range(h[r]))

    # -- the list of players asked after a play (§4) ------------------------------
    def _form(self, y: int, gouji: bool, chaos: bool) -> list[int]:
        st = self.status
        ring = RING[y]
        if chaos:
            return [s for s in ring if st[s] == IN_PLAY]
        passed = self.passed
        z = ring[2]
        if gouji:
            if self.burn_seed:
                t = y & 1
                out = [s for s in ring if s & 1 == t and st[s] == IN_PLAY and not passed[s]]
                out += [s for s in ring if s & 1 != t and s != z and st[s] == IN_PLAY and not passed[s]]
                if st[z] == IN_PLAY:
                    out.append(z)
                return out
            out = [s for s in ring[:2] if st[s] == IN_PLAY and not passed[s]]
            zin = st[z] == IN_PLAY
            if zin:
                out.append(z)
            after = [s for s in ring[3:] if st[s] == IN_PLAY and not passed[s]]
            out += after
            if self.last_word and after and zin:
                out.append(z)
            return out
        out = [s for s in ring if st[s] == IN_PLAY and not passed[s]]
        if self.last_word and st[z] == IN_PLAY and (not out or out[-1] != z):
            out.append(z)
        return out

    def _end_round(self) -> None:
        self.ev_round_end = True
        if self.top_gouji and self.top is not None and not self.top.has_bj and not self.fixed[self.owner]:
            self.kai[self.owner] = True  # 开点: a 够级 play without a BJ lives
        if self.rev_leave_pending:
            self.rev_present = False
            self.rev_leave_pending = False
        o = self.owner
        nl = o if self.status[o] == IN_PLAY else self.next_in_play(o)
        self._new_round(nl)

    def _new_round(self, leader: int) -> None:
        self._chaos = None
        self.fin_round = []
        self.passed = [False] * 6
        self.asklist = []
        self.let_used = []
        self.let_after = ()
        self.reask = -1
        self.top = None
        self.top_ranks = ()
        self.top_gouji = False
        self.target = -1
        self.phase = LEAD
        self.leader = leader

    def _free_place(self, lowest: bool) -> int:
        taken = set(self.place)
        order = range(6, 0, -1) if lowest else range(1, 7)
        for p in order:
            if p in taken or (p == 4 and self.rev >= 0):
                continue
            return p
        return 0

    def _dadian_on_finish(self, p: int, seat: int) -> None:
        if p == 1:
            for x in (seat, (seat + 3) % 6):
                self.fixed[x] = True
        elif p == 2:
            self.fixed = [True] * 6

    def _check_end(self) -> bool:
        st = self.status
        for members in TEAMS:
            if all(st[s] != IN_PLAY for s in members):
                self._end_game()
                return True
        return False

    def _end_game(self) -> None:
        self.phase = OVER
        self.asklist = []
        self.fixed = [True] * 6
        if self.rev >= 0 and not self.place[self.rev]:
            mates = [s for s in TEAMS[self.rev & 1] if s != self.rev]
            got = {self.place[s] for s in mates}
            self.place[self.rev] = 3 if {1, 2} <= got and 3 not in self.place else 4
        self.fill_places(None)

    def fill_places(self, order: Sequence[int] | None) -> None:
        """The players still in play at the end fill the free places (§6): in
        ``order`` (a `result` line's) if given, else fewer cards first, then lower seat."""
        left = [s for s in range(6) if self.status[s] == IN_PLAY]
        if not left:
            return
        for s in left:
            self.place[s] = 0
        if order is None:
            left.sort(key=lambda s: (self.cnt[s] if self.cnt[s] is not None else 99, s))
        else:
            pos = {s: i for i, s in enumerate(order)}
            left.sort(key=lambda s: (pos.get(s, 99), s))
        taken = set(self.place)
        free = [p for p in range(1, 7) if p not in taken]
        for s, p in zip(left, free):
            self.place[s] = p

    # -- scoring (§6) -------------------------------------------------------------
    def bukaidian(self) -> list[bool]:
        """打点 (§7): who ends 不开点 (judged when the game is over)."""
        out = []
        for s in range(6):
            if s == self.rev:
                out.append(not self.bie3)
            else:
                out.append(not self.kai[s])
        return out
