"""The search's moves at a lean node: the leads (single units and the throws
that stand, one of each set of interchangeable leads), the follows, and the
order they are tried in (see the package doc)."""

from __future__ import annotations

from collections import Counter

from analyzer.review.search.position import (
    Hands,
    Play,
    Reps,
)
from analyzer.review.search.tables import Tables
from primitives.cards import POINTS
from replay.legal import legal_follows, single_unit_leads
from replay.order import TRUMP
from replay.seats import SEATS as SEAT_ORDER
from replay.trick import check_throw, throw_leads, throw_options


class Moves(Tables):
    """Move generation and ordering of :class:`analyzer.review.search.Solver`."""

    def _follows(self, lead: Play, hand: tuple[int, ...]) -> list[Play]:
        """The engine's legal follows (what ``HandState.legal_follows`` gives:
        cards ascending, in ascending order), once per distinct lead and holding."""
        key = (lead, hand)
        got = self._follow_cache.get(key)
        if got is None:
            got = sorted(tuple(sorted(p)) for p in legal_follows(lead, Counter(hand), self.order, self.ruleset))
            self._follow_cache[key] = got
        return got

    def _lead_moves(self, hands: Hands, seat: int) -> list[Play]:
        key = (hands, seat)
        got = self._leads.get(key)
        if got is not None:
            return got
        hand = hands[seat]
        moves = list(self._single_unit_leads(hand))
        eff = self.order.eff
        others_idx = [(seat + k) % 4 for k in (1, 2, 3)]
        for cards, suit in self._throw_candidates(hands, seat):
            others = tuple(tuple(c for c in hands[i] if eff[c] == suit) for i in others_idx)
            skey = (cards, others)
            ok = self._stands.get(skey)
            if ok is None:
                holds = [Counter(hand)] + [Counter(o) for o in others]
                seats = [SEAT_ORDER[seat]] + [SEAT_ORDER[i] for i in others_idx]
                chk = check_throw(cards, 0, holds, seats, self.order, self.ruleset)
                ok = not chk.blockers
                self._stands[skey] = ok
            if ok:
                moves.append(cards)
        moves = self._lead_order(self._distinct(moves, self._trick_reps(hands)[seat]))
        self._leads[key] = moves
        return moves

    def _lead_order(self, moves: list[Play]) -> list[Play]:
        """Strongest first: bigger leads, then higher tops (a cheap ordering that
        lets winning leads cut the tree early); ties keep their order."""
        key_of = self.order.key
        moves.sort(key=lambda m: (-len(m), -max(key_of[c] for c in m), -sum(POINTS[c] for c in m)))
        return moves

    def _single_unit_leads(self, hand: tuple[int, ...]) -> list[Play]:
        """The engine's distinct single-unit leads (what ``HandState.unit_leads``
        gives), cards ascending, in ascending order."""
        got = self._unit_leads.get(hand)
        if got is None:
            got = sorted({tuple(sorted(u.cards)) for u in single_unit_leads(Counter(hand), self.order)})
            self._unit_leads[hand] = got
        return got

    def _throw_candidates(self, hands: Hands, seat: int) -> list[tuple[Play, int]]:
        """The multi-unit leads of one effective suit worth asking
        :func:`replay.trick.check_throw` about: the engine's
        :func:`replay.trick.throw_options` (which singles cannot stand, §6)
        and :func:`replay.trick.throw_leads`, the leads cached per suit's options."""
        out: list[tuple[Play, int]] = []
        for ckey in throw_options(hands[seat], [h for i, h in enumerate(hands) if i != seat], self.order,
                                  self.ruleset):
            got = self._throw_cands.get(ckey)
            if got is None:
                suit = ckey[0]
                got = self._throw_cands[ckey] = [(cards, suit) for cards in throw_leads(ckey, self.order)]
            out.extend(got)
        return out

    def _trick_reps(self, hands: Hands) -> Reps:
        """For each seat, its interchangeable single cards as (card, representative)
        pairs, valid for the whole trick that starts with ``hands`` (a player to
        move has not played yet in the trick, and the cards the others hold or
        have played in it are exactly the cards they held at its start)."""
        return self._analyse(hands)[1]

    @staticmethod
    def _distinct(moves: list[Play], pairs: tuple[tuple[int, int], ...]) -> list[Play]:
        """One move per class of equivalent moves (see "Equivalent cards")."""
        if not pairs or len(moves) < 2:
            return moves
        rep = dict(pairs)
        seen: set[Play] = set()
        out = []
        for m in moves:
            c = tuple(sorted(rep.get(x, x) for x in m))
            if c not in seen:
                seen.add(c)
                out.append(m)
        return out

    def _follow_moves(self, lead: Play, hand: tuple[int, ...], pairs: tuple[tuple[int, int], ...]) -> list[Play]:
        key = (lead, hand, pairs)
        got = self._follow_distinct.get(key)
        if got is None:
            got = self._distinct(self._follows(lead, hand), pairs)
            self._follow_distinct[key] = got
        return got

    def _ordered_follows(self, moves: list[Play], leader: int, plays: tuple[Play, ...], seat: int) -> list[Play]:
        """Best guess first: plays that leave the trick to the mover's team (most
        points first), then the others (fewest points first, lowest cards first).

        Only the order of the moves depends on this guess, never a value; for a
        single-card lead it is read from the card order directly."""
        mine = self.attacker[seat]
        eff, key = self.order.eff, self.order.key
        att = self.attacker
        bi = self._partial_winner(plays)
        team_now = att[(leader + bi) % 4] == mine
        single = len(plays[0]) == 1
        if single:
            lead_e = eff[plays[0][0]]
            b = plays[bi][0]
            be, bk = eff[b], key[b]
        scored = []
        for m in moves:
            if single:
                c = m[0]
                e = eff[c]
                takes = (e == be and key[c] > bk and (e == lead_e or e == TRUMP)) or (e == TRUMP and be != TRUMP)
                ours = True if takes else team_now
                pts = POINTS[c]
                strength = key[c]
            else:
                # a play mixing effective suits never takes a trick: ask the engine
                # about the others only
                e = eff[m[0]]
                if all(eff[c] == e for c in m):
                    ours = att[(leader + self._partial_winner(plays + (m,))) % 4] == mine
                else:
                    ours = team_now
                pts = strength = 0
                for c in m:
                    pts += POINTS[c]
                    strength += key[c]
            if ours:
                scored.append((0, -pts, strength, m))
            else:
                scored.append((1, pts, strength, m))
        scored.sort()
        return [t[3] for t in scored]
