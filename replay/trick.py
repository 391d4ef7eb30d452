"""One trick: lead check, throw check and the winner (§6); follow legality
is :mod:`replay.follow`, the texts of cards in messages :mod:`replay.texts`
(both importable from here too: the replay, the reports and the mistake rules
ask this module for them).

Pure functions over card ints, holdings (card → count) and an Order. The
replay (``replay.game``) calls these; the generator and the analyzer call the
same functions, so no rule is written twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import product
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from replay.follow import FollowError as FollowError
from replay.follow import check_follow as check_follow
from replay.follow import check_follow_printed as check_follow_printed
from replay.follow import check_suited_follow as check_suited_follow
from replay.follow import follow_error as follow_error
from replay.follow import printed_suit as printed_suit
from replay.order import TRUMP, Order
from replay.shapes import Unit
from replay.sjio import beats as engine_beats
from replay.sjio import unit_order
from replay.sjio_winner import winner as engine_winner
from replay.texts import cards_text as cards_text
from replay.texts import unit_text as unit_text
from replay.throws import Blocker, forced_units, suit_blockers, throw_blockers
from replay.units import all_covers, compare_covers, cover, decompose

if TYPE_CHECKING:
    from replay.ruleset import Ruleset


def lead_suit(cards: Sequence[int], order: Order) -> int | None:
    """The effective suit of a lead, or None when it mixes suits (SJ405)."""
    if not cards:
        return None
    eff = order.eff
    e = eff[cards[0]]
    for c in cards:
        if eff[c] != e:
            return None
    return e


class ThrowCheck(NamedTuple):
    blockers: list[Blocker]
    forced: Unit | None     # the unit the thrower must play when it fails
    allowed: tuple[Unit, ...] = ()   # every equally small unit that may be played instead

    def accepts(self, played: Sequence[int]) -> bool:
        """Is ``played`` a correct forced unit for this failed throw?"""
        want = sorted(played)
        for u in self.allowed:
            if sorted(u.cards) == want:
                return True
        return False


def check_throw(lead_cards: Sequence[int], leader_index: int, holdings: Sequence[dict[int, int]],
                seats: Sequence[str], order: Order, ruleset: Ruleset,
                units: Sequence[Unit] | None = None) -> ThrowCheck:
    """Does a lead of several units fail (§6 throw check)? ``holdings`` and
    ``seats`` are in play order starting with the leader at ``leader_index``;
    ``units``: the lead's decomposition when the caller has it."""
    if units is None:
        units = decompose(lead_cards, order)
    if len(units) < 2 or ruleset.throw_check == "none":
        return ThrowCheck([], None)
    n = len(seats)
    others = [(seats[(leader_index + k) % n], holdings[(leader_index + k) % n]) for k in range(1, n)]
    if ruleset.unit_split == "shengji_io" and lead_suit(lead_cards, order) is not None:
        eff = order.eff
        suit = eff[units[0].cards[0]]
        suited = [(seat, {c: k for c, k in h.items() if k > 0 and eff[c] == suit}) for seat, h in others]
        return _engine_throw(units, suited, order)
    blockers = throw_blockers(units, others, order)
    if not blockers:
        return ThrowCheck([], None)
    allowed = forced_units(blockers, ruleset.throw_forced, [seat for seat, _ in others])
    return ThrowCheck(blockers, allowed[0], tuple(allowed))


def check_suited_throw(units: Sequence[Unit], suited: Sequence[tuple[str, dict[int, int]]], seats: Sequence[str],
                        order: Order, ruleset: Ruleset) -> ThrowCheck:
    """:func:`check_throw` of a throw of one effective suit (two units or more), the
    others' cards of that suit given: ``suited`` (seat, cards of the suit with
    positive counts; seats holding none may be left out), ``seats`` the other
    seats in turn after the thrower."""
    if ruleset.throw_check == "none":
        return _new(ThrowCheck, ([], None, ()))
    if ruleset.unit_split == "shengji_io":
        return _engine_throw(units, suited, order)
    blockers = suit_blockers(units, suited, order.key)
    if not blockers:
        return _new(ThrowCheck, (blockers, None, ()))   # (_new: without the Python-level __new__)
    allowed = forced_units(blockers, ruleset.throw_forced, seats)
    return _new(ThrowCheck, (blockers, allowed[0], tuple(allowed)))


def _engine_throw(units: Sequence[Unit], suited: Sequence[tuple[str, dict[int, int]]], order: Order) -> ThrowCheck:
    """The throw check of ``unit_split: shengji_io`` (mechanics/src/trick.rs
    ``Trick::play_cards``): the other players in turn, each against the throw's
    units in the engine's order (fewest cards, then lowest first card); the
    first unit the first blocking player beats is forced, and only that one."""
    key = order.key
    ordered = sorted(units, key=lambda u: unit_order(u, key))
    blockers: list[Blocker] = []
    for seat, same in suited:
        if not same:
            continue
        for u in ordered:
            by = engine_beats(same, u, order)
            if by is not None:
                blockers.append(_new(Blocker, (u, seat, by)))
    if not blockers:
        return _new(ThrowCheck, (blockers, None, ()))
    forced = blockers[0].unit
    return _new(ThrowCheck, (blockers, forced, (forced,)))


#: one effective suit's candidate throws: (suit, each card of the suit held with the copies a candidate may hold)
ThrowOptions = tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]


def throw_options(holding: Iterable[int], others: Iterable[Iterable[int]], order: Order,
                  ruleset: Ruleset) -> list[ThrowOptions]:
    """Which multi-unit leads of ``holding`` are worth a throw check (RULES §6):
    per effective suit of which ``holding`` has two cards or more (in the order
    the suits first appear in it), each card of the suit with the numbers of
    its copies a candidate lead may hold.

    A card that appears once in a throw is a single unit of it, and a single
    that another player can beat (a higher card of its effective suit in one
    of ``others``: the other players' cards) makes the throw fail (§6 "Throw
    check": any unit another player beats). So, unless the ruleset checks no
    throws (``throw_check: none``), a card may go in once only when no other
    player holds a higher card of its suit; cards held several times may go
    in as tuples (whether that throw stands is :func:`check_throw`'s to say).
    :func:`throw_leads` lists the leads. A ruleset with ``throws: no`` has none
    (a lead is one unit there: :meth:`replay.questions.PositionQuestions.legal_leads`).
    """
    if not ruleset.throws:
        return []
    eff, key = order.eff, order.key
    by_suit: dict[int, Counter[int]] = {}
    for c in holding:
        e = eff[c]
        if e in by_suit:
            by_suit[e][c] += 1
        else:
            by_suit[e] = Counter((c,))
    tops: dict[int, int] | None = None if ruleset.throw_check != "none" else {}
    out: list[ThrowOptions] = []
    for suit, cnt in by_suit.items():
        if sum(cnt.values()) < 2:
            continue
        if tops is None:   # the highest card of each suit the others hold (once, when needed)
            tops = {}
            for h in others:
                for c in h:
                    e = eff[c]
                    if key[c] > tops.get(e, -1):
                        tops[e] = key[c]
        top = tops.get(suit, -1)
        out.append((suit, tuple((c, tuple(n for n in range(cnt[c] + 1) if n != 1 or key[c] >= top))
                                for c in sorted(cnt))))
    return out


def throw_leads(options: ThrowOptions, order: Order) -> list[tuple[int, ...]]:
    """Every lead of :func:`throw_options`' ``options`` for one suit that is a
    throw: two cards or more, two units or more (cards ascending)."""
    got: list[tuple[int, ...]] = []
    cards_opts = options[1]
    for counts in product(*(o for _, o in cards_opts)):
        if sum(counts) < 2:
            continue
        cards = tuple(c for (c, _), n in zip(cards_opts, counts) for _ in range(n))
        if len(decompose(cards, order)) >= 2:
            got.append(cards)
    return got


def throw_penalty(ruleset: Ruleset, attempted: int) -> int:
    """Points a failed throw of ``attempted`` cards costs its team (§6)."""
    if ruleset.throw_penalty == "per_card":
        return 10 * attempted
    if ruleset.throw_penalty == "per_attempt":
        return 10
    return 0


#: a NamedTuple built from its fields without its Python-level ``__new__``
_new = tuple.__new__
#: a unit's shape, ``Unit.shape`` without the property's Python call
_UNIT_SHAPE = itemgetter(0, 1)


class Winner(NamedTuple):
    # (the field shadows tuple.index: a public name of the result, kept)
    index: int  # type: ignore[assignment]  # index of the winning play in the trick
    units: tuple[Unit, ...]  # the winning play's units (matching the lead)
    ruffed: bool             # won by trumping a plain lead


def trick_winner(plays: Sequence[Sequence[int]], order: Order, ruleset: Ruleset,
                 lead_units: Sequence[Unit] | None = None) -> Winner:
    """The winning play of a trick (§6 "Winning"); ``plays[0]`` is the lead
    as actually played (after a failed throw: the forced unit); ``lead_units``
    its decomposition when the caller has it."""
    lead_cards = plays[0]
    eff, key = order.eff, order.key
    if len(lead_cards) == 1:
        # fast path: a single card (most tricks)
        # fast path: a single card (most tricks); the highest power wins, ties to the earlier
        c = lead_cards[0]
        led = eff[c]
        power = order.power[led]
        best_i, best_card, best = 0, c, power[c]
        for i in range(1, len(plays)):
            play = plays[i]
            if len(play) == 1:
                d = play[0]
                if power[d] > best:
                    best_i, best_card, best = i, d, power[d]
        return _new(Winner, (best_i, (order.singles[best_card],), led != TRUMP and eff[best_card] == TRUMP))
    suit = lead_suit(lead_cards, order)
    lead: Sequence[Unit] = lead_units if lead_units is not None else decompose(lead_cards, order)
    if suit is None:
        return _new(Winner, (0, tuple(lead), False))
    if len(lead) == 1 and lead[0].length == 1:
        # fast path: one tuple led (a pair, a triple); only as many copies of one
        # card match it, and the highest power wins (as compare_covers rules for one unit)
        n = len(lead_cards)
        power = order.power[suit]
        best_i, best_card, best = 0, -1, lead[0].top + 1
        for i in range(1, len(plays)):
            cards = plays[i]
            if len(cards) == n:
                c = cards[0]
                if power[c] > best and cards.count(c) == n:
                    best_i, best_card, best = i, c, power[c]
        if not best_i:
            return _new(Winner, (0, (lead[0],), False))
        return _new(Winner, (best_i, (_new(Unit, (n, 1, key[best_card], tuple(plays[best_i]))),),
                             suit != TRUMP and eff[best_card] == TRUMP))
    if len(lead) == 1:
        return _tractor_winner(plays, lead, suit, eff, key)
    if ruleset.unit_split == "shengji_io" and ruleset.throw_compare == "all_units":
        # shengji.io (trick.rs compute_winner): its readings in its matcher's order, each unit
        # against the same unit of the reading that wins so far (replay/sjio_winner.py)
        i, reading = engine_winner(plays, lead, order)
        if i == 0:
            return _new(Winner, (0, tuple(lead), False))
        won = []
        for m in reading:
            w = min(k for _, k in m)
            won.append(Unit(w, len(m), key[m[-1][0]], tuple(c for c, _ in reversed(m) for _ in range(w))))
        won.sort(key=lambda u: (-u.size, -u.width, -u.top))
        return _new(Winner, (i, tuple(won), suit != TRUMP and eff[plays[i][0]] == TRUMP))
    shape = list(map(_UNIT_SHAPE, lead))
    single = False
    best_i, best_units, best_ruff = 0, lead, False
    for i in range(1, len(plays)):
        cards = plays[i]
        if len(cards) != len(lead_cards) or not cards:
            continue
        e = eff[cards[0]]
        if e == suit:
            if not single or best_ruff:
                continue
        elif not (e == TRUMP and suit != TRUMP):
            continue
        mixed = False
        for c in cards:   # (a loop: cheaper than any() over a generator expression)
            if eff[c] != e:
                mixed = True
                break
        if mixed:
            continue
        cv = cover(shape, cards, order)
        if cv is None:
            continue
        ruff = e != suit
        if (ruff and not best_ruff) or compare_covers(cv, best_units, lead, ruleset.throw_compare):
            best_i, best_units, best_ruff = i, cv, ruff
        elif ruleset.throw_compare == "all_units" and ruff == best_ruff:
            # shengji.io: any reading of the play that beats every unit wins (♣66 + ♣2 ♣2
            # beats ♣55 + ♣A + ♠2 though the reading ♣22 + ♣6 ♣6 does not)
            for alt in all_covers(shape, cards, order):
                if compare_covers(alt, best_units, lead, "all_units"):
                    best_i, best_units, best_ruff = i, alt, ruff
                    break
    return _new(Winner, (best_i, tuple(best_units), best_ruff))


def _tractor_winner(plays: Sequence[Sequence[int]], lead: Sequence[Unit], suit: int, eff: Sequence[int],
                    key: Sequence[int]) -> Winner:
    """:func:`trick_winner` for a lead of one tractor (w, L): a play matches it
    only when it is w copies of each of L cards of one effective suit with
    adjacent keys (the one way to read it), and the highest top wins, a ruff
    above any play of the led suit (what ``cover`` and ``compare_covers`` give
    for one unit)."""
    w, length = lead[0].width, lead[0].length
    n = w * length
    best_i, best_top, best_ruff = 0, lead[0].top, False
    best_run: list[int] | None = None
    for i in range(1, len(plays)):
        cards = plays[i]
        if len(cards) != n:
            continue
        e = eff[cards[0]]
        if e == suit:
            if best_ruff:
                continue
        elif not (e == TRUMP and suit != TRUMP):
            continue
        counts: dict[int, int] = {}
        for c in cards:
            if eff[c] != e:
                break
            counts[c] = counts.get(c, 0) + 1
        else:
            if len(counts) != length:
                continue
            run = sorted(counts, key=key.__getitem__)
            k0 = key[run[0]]
            if any(counts[c] != w or key[c] != k0 + j for j, c in enumerate(run)):
                continue
            top = key[run[-1]]
            ruff = e != suit
            if (ruff and not best_ruff) or top > best_top:
                best_i, best_top, best_ruff, best_run = i, top, ruff, run
    if best_run is None:
        return Winner(0, tuple(lead), False)
    return Winner(best_i, (Unit(w, length, best_top, tuple(c for c in reversed(best_run) for _ in range(w))),),
                  best_ruff)


def explain_beat(winner: Sequence[Unit], loser_cards: Sequence[int], lead: Sequence[Unit], order: Order,
                 ruleset: Ruleset) -> str:
    """Why the ``winner`` units (a trick's winning play, read as the lead's
    structure) beat the play ``loser_cards``: each unit against its match, as
    ``throw_compare`` compares them; empty when there is nothing to say (the
    loser's play does not have the lead's structure, or a one-unit lead)."""
    if len(lead) < 2:
        return ""
    shape = [u.shape for u in lead]
    mine = cover(shape, loser_cards, order)
    if mine is None:
        return ""
    policy = ruleset.throw_compare
    pairs = []
    by_shape: dict[tuple[int, int], tuple[list[Unit], list[Unit]]] = {}
    for u in winner:
        by_shape.setdefault(u.shape, ([], []))[0].append(u)
    for u in mine:
        by_shape.setdefault(u.shape, ([], []))[1].append(u)
    for a, b in by_shape.values():
        for x, y in zip(sorted(a, key=lambda u: -u.top), sorted(b, key=lambda u: -u.top)):
            pairs.append(f"{unit_text(x, order)} beats {unit_text(y, order)}" if x.top > y.top
                         else f"{unit_text(x, order)} against {unit_text(y, order)}")
    rule = {"all_units": "every unit must beat its match (all_units)",
            "largest_unit": "the largest unit decides (largest_unit)",
            "highest_card": "the highest card decides (highest_card)"}.get(policy, policy)
    return f"{'; '.join(pairs)}: {rule}"
