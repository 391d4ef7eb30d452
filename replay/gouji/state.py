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

The position, its queries and the ends of rounds are
:class:`replay.gouji.board.Board`, its base.

Seats are ints 0..5 (P1..P6); a set is a tuple of rank ints
(:mod:`primitives.gjcards` order: 3..14, 15 = 2, 16 = LJ, 17 = BJ).
"""

from __future__ import annotations

from collections.abc import Iterator

from primitives.gjcards import BJ_RANK, LJ_RANK, TWO
from replay.gouji.board import (
    ASK,
    FAILED,
    FINISHED,
    IN_PLAY,
    LEAD,
    LET,
    OVER,
    PASS,
    PLAY,
    STATUS_NAMES,
    Action,
    Board,
    Fault,
    Snapshot,
    ranks_text,
)
from replay.gouji.sets import SetInfo, beats, info, unbeatable
from replay.gouji.table import SEAT_NAMES


class GoujiState(Board):
    """One game in play: the :class:`~replay.gouji.board.Board` moved on by
    actions (:meth:`push`), taken back (:meth:`pop`), and asked what may be
    done (:meth:`legal_actions`, :meth:`is_legal`)."""

    __slots__ = ()

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

    # -- take back ----------------------------------------------------------------
    def _snapshot(self) -> Snapshot:
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
    "GoujiState",
]
