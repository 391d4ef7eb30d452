"""The pre-play steps of a game but the tributes (GOUJI.md §7): the deal's
copy counts, 亮3 and the first leader, 买3, 革命 and 会3/4, each checked and
applied to the holdings. A base of the record replay
(:mod:`replay.gouji.record`); the tributes are :mod:`replay.gouji.tribute`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from primitives.gjcards import ANY, BJ_RANK, LJ_RANK, TWO, rank_name
from primitives.gjcards import suit_of as gj_suit_of
from replay.gouji.table import SEAT_NAMES, SEAT_OF, TEAMS
from replay.gouji.tribute import Holdings, Prev, Sizes, TributeChecks, card_ranks, rank_counts

if TYPE_CHECKING:  # the record model is notation's; the engine only reads it
    from notation.gjn_model import (
        Buy,
        Game,
        Remove,
        Revolt,
        Show,
    )

SUIT_NAMES = "♠♥♦♣"


class PrePlayChecks(TributeChecks):
    """The pre-play lines of a game but the tributes (:class:`TributeChecks`)."""

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
    def is_liang3_game(self, first_game: bool, prev: Prev | None) -> bool:
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

    def derive_leader(self, first_game: bool, prev: Prev | None, shower: int, liang3_game: bool) -> int:
        fl = self.rules.first_leader
        if fl == "given" or (self.rules.bie3 == "on"):
            return -1
        if liang3_game:
            return shower
        if prev is not None and prev.places is not None:
            return prev.places.index(6)
        return -1

    def leader_reason(self, first_game: bool, prev: Prev | None, liang3_game: bool) -> str:
        if liang3_game:
            return "the last to show 3s (亮3)"
        return "the previous game's 大落"

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
            ranks = card_ranks(b.cards)
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
                h = rank_counts(dealt_x) if dealt_x is not None else None
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


