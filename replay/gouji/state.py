"""The hand state of one Gouji game in play (GOUJI.md §1, §3–§6).

:class:`GoujiState` works in the manner of ``chess.Board``: it holds the
position (holdings as rank counts, who is in play, present, finished, heads,
chaos, the top and its owner, the ask list, passes, 让牌, burns) and moves it
on with :meth:`GoujiState.push`; :meth:`legal_actions` / :meth:`is_legal`
say what may be done; :meth:`pop` takes back the last push.

``push`` applies any action *as recorded* (GOUJI.md §9: an out-of-turn
action is applied, the players it skipped count as passed) and returns the
faults it found as ``(code, message)`` pairs; the replay turns them into
positioned diagnostics, the bots only ever push actions with no fault.

Seats are ints 0..5 (P1..P6); a set is a tuple of rank ints
(:mod:`primitives.gjcards` order: 3..14, 15 = 2, 16 = LJ, 17 = BJ).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from primitives.gjcards import BJ_RANK, LJ_RANK, TWO, rank_name
from replay.gouji.rules import GoujiRuleset
from replay.gouji.sets import SetInfo, beats, info, unbeatable
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
_Snapshot = tuple[
    list[list[int] | None], list[int | None], list[int], list[int], bool, int,
    bool, int, int, SetInfo | None, tuple[int, ...], int,
    bool, int, list[bool], list[int], list[int], tuple[int, ...], int, dict[int, int], list[int],
    bool, list[bool], list[bool], list[list[int]], list[list[int]], list[int], list[int], list[int],
]


class GoujiState:
    """One game in play.

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
        self.history: list[_Snapshot] | None = [] if keep_history else None
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

    # -- actions ------------------------------------------------------------------
    def push(self, seat: int, kind: str, ranks: tuple[int, ...] = (), *,
             empties: bool | None = None) -> list[Fault]:
        """Apply one action as recorded; return its faults ``[(code, message)]``.

        ``empties`` tells whether a play of a player whose card count is not
        known empties his hand (the record's ``=k`` mark).
        """
        if self.history is not None:
            self.history.append(self._snapshot())
        self._clear_events()
        faults: list[Fault] = []
        n = SEAT_NAMES[seat]
        if self.phase == OVER:
            if kind == PASS and self.ignore_passes:
                self.ev_ignored = True  # passes after the final unbeatable set (§3)
                return faults
            faults.append(("GJ408", f"the game is already over: {n}'s action comes after a side is out"))
            return faults
        if self.phase == LEAD and kind == PASS and self.ignore_passes:
            # passes after an unbeatable set, before the next lead, are ignored:
            # uncounted and unchecked (§3), whoever passes
            self.ev_ignored = True
            return faults
        if self.status[seat] != IN_PLAY:
            code = "GJ402" if self.phase == ASK and self.top_gouji else "GJ401"  # §9: GJ402, not also GJ401
            faults.append((code, f"{n} is not in play ({STATUS_NAMES[self.status[seat]]}) and may not act"))
            return faults
        if self.phase == LEAD:
            if kind != PLAY:
                faults.append(("GJ403", f"{n} may not {kind} on a lead: "
                                        f"{SEAT_NAMES[self.leader]} leads a new round and must play a set"))
                return faults
            if seat != self.leader:
                faults.append(("GJ401", f"{n} leads out of turn: {SEAT_NAMES[self.leader]} leads this round"))
            self._lead(seat, ranks, empties, faults)
            return faults
        # ASK phase: an answer
        al = self.asklist
        expected = al[0]
        gouji_top = self.top_gouji
        if seat != expected:
            if gouji_top:
                faults.append(("GJ402", self._not_asked_message(seat, expected)))
            else:
                faults.append(("GJ401", f"{n} acts out of turn: {SEAT_NAMES[expected]} is asked now"))
            if seat in al:
                i = al.index(seat)
                for s in al[:i]:
                    self.passed[s] = True
                del al[:i]
        if kind == PASS:
            self._pass(seat)
        elif kind == LET:
            problem = self._let_problem(seat)
            if problem is not None:
                if not faults:
                    faults.append(("GJ404", problem))
                self._pass(seat)
            else:
                self._let(seat)
        else:
            self._beat(seat, ranks, empties, faults)
        return faults

    def _not_asked_message(self, seat: int, expected: int) -> str:
        y = self.owner
        z = self.target
        n, yn = SEAT_NAMES[seat], SEAT_NAMES[y]
        rel = ""
        if seat == z:
            rel = f"{n} is {yn}'s 对头, asked last"
        elif seat == y:
            rel = f"{n} owns the top"
        elif seat & 1 == y & 1:
            rel = f"{n} is {yn}'s teammate"
        else:
            rel = f"{n} is {yn}'s 对头's teammate"
        if self.passed[seat] and seat != z:
            rel += " and has passed this round"
        order = "burn order" if self.burn_seed else "ask order"
        return (f"{n} may not answer {yn}'s 够级 play: {rel}, and the {order} asks "
                f"{SEAT_NAMES[expected]} now")

    def _pass(self, seat: int) -> None:
        self.passed[seat] = True
        al = self.asklist
        if seat in al:
            al.remove(seat)
        if not al:
            self._end_round()

    def _let(self, seat: int) -> None:
        al = self.asklist
        self.passed[seat] = True
        self.let_used.append(seat)
        self.lets[seat] += 1
        rest = al[1:]
        self.let_after = tuple(x for x in rest if x != seat)
        if not rest or rest[-1] != seat:
            rest.append(seat)
        self.asklist = rest
        self.reask = seat

    def _remove_cards(self, seat: int, ranks: tuple[int, ...], faults: list[Fault] | None) -> None:
        h = self.hold[seat]
        if h is not None:
            missing: list[int] = []
            for r in ranks:
                if h[r] > 0:
                    h[r] -= 1
                else:
                    missing.append(r)
            if missing and faults is not None:
                faults.append(("GJ203", f"{SEAT_NAMES[seat]} does not hold {ranks_text(missing)}"))
        c = self.cnt[seat]
        if c is not None:
            c -= len(ranks)
            if c < 0:
                if faults is not None and h is None:
                    faults.append(("GJ203", f"{SEAT_NAMES[seat]} plays more cards than he holds"))
                c = 0
            self.cnt[seat] = c

    def _set_faults(self, seat: int, s: SetInfo, lead: bool, empties: bool, faults: list[Fault]) -> bool:
        """GJ301 / GJ304 for the set itself; True when GJ301 was found (it alone
        hides GJ302/GJ303, §9; GJ304 is another fault)."""
        if not s.wellformed:
            faults.append(("GJ301", f"{SEAT_NAMES[seat]}'s set mixes ranks: a set is one rank "
                                    f"(with 2s and jokers)"))
            return True
        if self.bie3 and s.threes and (s.threes != s.n or not empties):
            faults.append(("GJ304", f"憋3: {SEAT_NAMES[seat]} may play 3s only as a set of 3s alone "
                                    f"that empties his hand"))
        return False

    def _empties(self, seat: int, ranks: tuple[int, ...], empties: bool | None) -> bool:
        c = self.cnt[seat]
        if c is None:
            return bool(empties)
        return c - len(ranks) <= 0

    def _lead(self, seat: int, ranks: tuple[int, ...], empties: bool | None, faults: list[Fault]) -> None:
        s = info(ranks)
        emp = self._empties(seat, ranks, empties)
        self._set_faults(seat, s, True, emp, faults)
        self.ignore_passes = False
        if seat in self.burning and not s.jokers and not emp:
            self._fail(seat, ranks, faults)
            return
        self._play(seat, ranks, s, emp, faults)

    def _fail(self, seat: int, ranks: tuple[int, ...], faults: list[Fault]) -> None:
        """§5 failure: the set is discarded, the burner takes the lowest free place."""
        self.ev_fail = True
        burned = self.burning.pop(seat)
        self.ev_burned = burned
        self._remove_cards(seat, ranks, faults)
        self.status[seat] = FAILED
        self.place[seat] = self._free_place(lowest=True)
        self.ev_place = self.place[seat]
        if self._check_end():
            return
        self._new_round(burned if self.status[burned] == IN_PLAY else self.next_in_play(burned))

    def _beat(self, seat: int, ranks: tuple[int, ...], empties: bool | None, faults: list[Fault]) -> None:
        s = info(ranks)
        emp = self._empties(seat, ranks, empties)
        special = self._set_faults(seat, s, False, emp, faults)
        top = self.top
        if not special and top is not None:
            if s.n != top.n:
                faults.append(("GJ302", f"{SEAT_NAMES[seat]} plays {s.n} card{'s' if s.n != 1 else ''} "
                                        f"on a top of {top.n}"))
            elif not beats(s, top, self.compare):
                faults.append(("GJ303", f"{SEAT_NAMES[seat]}'s {ranks_text(ranks)} does not beat "
                                        f"{SEAT_NAMES[self.owner]}'s {ranks_text(self.top_ranks)}"))
        head = self.has_head(seat)
        owner = self.owner
        # 解烧 (§5): the burner's set is beaten by his 对头 or by a player without a head
        if owner in self.burning and (seat == (owner + 3) % 6 or not head):
            del self.burning[owner]
            self.ev_jieshao = owner
        if self.top_gouji and seat != self.target and head and seat not in self.let_after:
            self.burning[seat] = owner
            self.ev_burn = True
            self.ev_burned = owner
            self.burns_won[seat] += 1
            self.burns_lost[owner] += 1
        reask = self.reask == seat and self.yield_mode == "seed" and len(self.asklist) <= 1
        self._play(seat, ranks, s, emp, faults, reask_beat=reask)

    def _play(self, seat: int, ranks: tuple[int, ...], s: SetInfo, emp: bool, faults: list[Fault],
              reask_beat: bool = False) -> None:
        chaos = self.chaos()
        head = self.has_head(seat)
        gouji = s.gouji and head and not chaos
        z = (seat + 3) % 6
        self._remove_cards(seat, ranks, faults)
        if emp and self.cnt[seat] is None:
            pass
        finished = emp
        self.let_after = ()
        self.reask = -1
        self.top = s
        self.top_ranks = ranks
        self.owner = seat
        self.top_gouji = gouji
        self.target = z if gouji else -1
        self.phase = ASK
        if gouji:
            self.ev_gouji = True
            self.ev_target = z
            self.gouji_made[seat].append(z)
            self.gouji_suffered[z].append(seat)
            if self.rev >= 0 and seat == (self.rev + 3) % 6 and self.rev_present:
                self.rev_opp_gouji += 1
                if self.rev_opp_gouji == 3:
                    self.rev_leave_pending = True
                    if not self.fixed[seat]:
                        self.kai[seat] = True
        if finished:
            self.status[seat] = FINISHED
            self.cnt[seat] = 0
            self.place[seat] = p = self._free_place(lowest=False)
            self.ev_place = p
            self.fin_round.append(seat)
            self.rev_present = False
            self._chaos = None
            if seat in self.burning:
                del self.burning[seat]
                self.ev_success = True
            self._dadian_on_finish(p, seat)
            if self._check_end():
                self.ignore_passes = unbeatable(s, self.compare)
                return
        if unbeatable(s, self.compare):
            self.ev_unbeatable = True
            self._end_round()
            self.ignore_passes = True
            return
        if reask_beat:
            o = (seat + 3) % 6
            self.asklist = [o] if self.status[o] == IN_PLAY else []
        else:
            self.asklist = self._form(seat, gouji, chaos)
        if not self.asklist:
            self._end_round()

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

    # -- take back ----------------------------------------------------------------
    def _snapshot(self) -> _Snapshot:
        return (self.hold and [list(h) if h is not None else None for h in self.hold], list(self.cnt),
                list(self.status), list(self.place), self.rev_present, self.rev_opp_gouji,
                self.rev_leave_pending, self.phase, self.leader, self.top, self.top_ranks, self.owner,
                self.top_gouji, self.target, list(self.passed), list(self.asklist), list(self.let_used),
                self.let_after, self.reask, dict(self.burning), list(self.fin_round), self.ignore_passes,
                list(self.kai), list(self.fixed), [list(x) for x in self.gouji_made],
                [list(x) for x in self.gouji_suffered], list(self.burns_won), list(self.burns_lost),
                list(self.lets))

    def pop(self) -> None:
        """Take back the last :meth:`push` (needs ``keep_history=True``)."""
        if not self.history:
            raise IndexError("nothing to pop (was the state made with keep_history=True?)")
        (self.hold, self.cnt, self.status, self.place, self.rev_present, self.rev_opp_gouji,
         self.rev_leave_pending, self.phase, self.leader, self.top, self.top_ranks, self.owner,
         self.top_gouji, self.target, self.passed, self.asklist, self.let_used, self.let_after,
         self.reask, self.burning, self.fin_round, self.ignore_passes, self.kai, self.fixed,
         self.gouji_made, self.gouji_suffered, self.burns_won, self.burns_lost,
         self.lets) = self.history.pop()
        self._chaos = None
        self._clear_events()

    # -- what may be done ---------------------------------------------------------
    def is_legal(self, seat: int, kind: str, ranks: tuple[int, ...] = ()) -> bool:
        """Would this action be pushed without a fault (known hands only)?"""
        if self.phase == OVER or self.hold[seat] is None:
            return False
        keep = self.history
        self.history = []
        try:
            faults = self.push(seat, kind, ranks)
            self.pop()
        finally:
            self.history = keep
        return not [f for f in faults if f[0] != "GJ406"] and not self.ev_fail

    def legal_actions(self) -> Iterator[Action]:
        """Every legal action of the seat to act (its hand must be known):
        pass / let when allowed, then every distinct set that may be played."""
        seat = self.to_act()
        if seat < 0 or self.hold[seat] is None:
            return
        if self.phase == ASK:
            yield (PASS, ())
            if self.can_let(seat):
                yield (LET, ())
            assert self.top is not None
            for ranks in self.sets_of(seat, self.top.n):
                if beats(info(ranks), self.top, self.compare) and self._set_ok(seat, ranks):
                    yield (PLAY, ranks)
        else:
            h = self.hold[seat]
            for n in range(1, (self.cnt[seat] or 0) + 1):
                for ranks in self.sets_of(seat, n):
                    if self._set_ok(seat, ranks) and not (seat in self.burning and not info(ranks).jokers
                                                         and self.cnt[seat] != n):
                        yield (PLAY, ranks)
            del h

    def _set_ok(self, seat: int, ranks: tuple[int, ...]) -> bool:
        s = info(ranks)
        if self.bie3 and s.threes:
            return s.threes == s.n and self.cnt[seat] == s.n
        return True

    def sets_of(self, seat: int, n: int) -> Iterator[tuple[int, ...]]:
        """Every distinct well-formed set of ``n`` cards ``seat`` can make."""
        h = self.hold[seat]
        if h is None:
            return
        c2, clj, cbj = h[TWO], h[LJ_RANK], h[BJ_RANK]
        for bj in range(min(cbj, n) + 1):
            for lj in range(min(clj, n - bj) + 1):
                rest = n - bj - lj
                jok = (BJ_RANK,) * bj + (LJ_RANK,) * lj
                if rest <= c2:
                    yield jok + (TWO,) * rest
                for tw in range(min(c2, rest - 1) + 1):
                    k = rest - tw
                    if k < 1:
                        continue
                    for r in range(3, 15):
                        if h[r] >= k:
                            yield jok + (TWO,) * tw + (r,) * k


__all__ = [
    "ASK",
    "FAILED",
    "FINISHED",
    "IN_PLAY",
    "LEAD",
    "LET",
    "OVER",
    "PASS",
    "PLAY",
    "REVOLTED",
    "STATUS_NAMES",
    "GoujiState",
    "counts_of",
    "ranks_text",
]
