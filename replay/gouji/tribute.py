"""点贡, 落贡 and 还贡 (GOUJI.md §7): who owes whom how many cards after a
game, and the tribute lines of the next game checked and applied to the
holdings. :class:`TributeChecks` is the base of the record replay
(:mod:`replay.gouji.record`): it holds the ruleset and the diagnostics."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from primitives.diagnostics import Diagnostic, Span
from primitives.gjcards import BJ_RANK, LJ_RANK, TWO
from replay.gouji.board import counts_of, ranks_text
from replay.gouji.rules import GoujiRuleset
from replay.gouji.table import SEAT_NAMES, SEAT_OF, TEAMS

if TYPE_CHECKING:  # the record model is notation's; the engine only reads it
    from notation.gjn_model import (
        Dian,
        Game,
        PrePlay,
        Return,
        Tribute,
    )

#: per seat, rank counts (18 slots) or None when the hand is not known
Holdings = list[list[int] | None]
#: per seat, a card count or None when not known
Sizes = list[int | None]


@dataclass
class Prev:
    """What a game leaves to the next (§2.7, §7)."""

    places: list[int] | None       # per seat
    sweep: bool = False
    bukai: list[bool] | None = None  # None: not known (dian lines taken as given)
    points: list[tuple[int, bool]] = field(default_factory=list)


def rank_counts(cards: Iterable[int]) -> list[int]:
    c = [0] * 18
    for card in cards:
        c[card >> 3] += 1
    return c


def card_ranks(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(card >> 3 for card in cards)



class TributeChecks:
    """The tribute lines of a game, checked and applied; the base of the
    record replay: the ruleset, the diagnostics and :meth:`d`."""

    rules: GoujiRuleset
    diags: list[Diagnostic]

    def d(self, code: str, span: Span | None, message: str, game: Game | None = None) -> None:
        self.diags.append(Diagnostic.at(code, span, message, hand=game.number if game is not None else None))

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
        ranks = card_ranks(line.cards)
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

    def dian_owed(self, prev: Prev) -> dict[tuple[int, int], int]:
        return owed_dian(prev.bukai or [False] * 6, prev.points, self.rules)

    def tributes(self, g: Game, lines: Sequence[PrePlay], hold: Holdings, size: Sizes, prev: Prev | None,
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
        ranks = card_ranks(p.cards)
        if dealt_h is not None:
            need = counts_of(ranks)
            if all(need[r] <= dealt_h[r] for r in range(18)):
                want = self.highest(dealt_h, len(ranks))
                if sorted(ranks, reverse=True) != want:
                    self.d("GJ207", p.span, f"{p.payer}'s 点贡 must be his dealt hand's highest cards: "
                                            f"{ranks_text(want) if want else 'none'}, not {ranks_text(ranks)}", g)
        self.transfer(g, p, x, y, hold, size, False)


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


