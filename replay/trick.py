"""One trick: lead check, throw check, follow legality and the winner (§6).

Pure functions over card ints, holdings (card → count) and an Order. The
replay (``replay.game``) calls these; the generator and the analyzer call the
same functions, so no rule is written twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import product
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from primitives.cards import format_cards
from replay.obligation import obligation
from replay.order import SUIT_NAMES, TRUMP, Order
from replay.shapes import Unit, shape_name
from replay.sjio import beats as engine_beats
from replay.sjio import follow_ok as engine_follow_ok
from replay.sjio import requirement_text, unit_order
from replay.sjio import winner as engine_winner
from replay.throws import Blocker, forced_units, suit_blockers, throw_blockers
from replay.units import all_covers, compare_covers, cover, decompose

if TYPE_CHECKING:
    from replay.ruleset import Ruleset


def cards_text(cards: Sequence[int], order: Order | None = None) -> str:
    """Cards for messages: sorted high to low when an order is known."""
    if len(cards) > _MESSAGE_CARDS:  # an absurd play: say how many, not each card
        return f"{len(cards):,} cards"
    if order is not None:
        cards = order.sorted(cards)
    return format_cards(cards, unicode=True)


#: more cards than this in a message are given as a count
_MESSAGE_CARDS = 60


def unit_text(u: Unit, order: Order | None = None) -> str:
    return f"{shape_name(u.width, u.length)} {cards_text(u.cards, order)}"


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


def _check_suited_throw(units: Sequence[Unit], suited: Sequence[tuple[str, dict[int, int]]], seats: Sequence[str],
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
    :func:`throw_leads` lists the leads.
    """
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


class FollowError(NamedTuple):
    code: str        # SJ403 (suit) or SJ404 (shape)
    message: str


def check_follow(lead: Sequence[Unit], suit: int, holding: dict[int, int], play: Sequence[int],
                 order: Order, ruleset: Ruleset, n: int | None = None) -> FollowError | None:
    """Is ``play`` a legal follow to ``lead`` (units, of effective ``suit``)
    for a player holding ``holding`` (card → count, before the play)?

    The holding may be partly known (cards known to be held): every error
    reported is then still certain. The card count is checked by the caller.
    """
    if suit is not None and n is not None and n >= 2 and len(lead) == 1:
        u = lead[0]
        if u.length == 1 and u.width == n:
            # one tuple led (a pair, a triple: most leads of several cards), the
            # verdicts that need no obligation, as `follow_error` reaches them: a
            # follow of as many copies of one card of the suit; else the suit
            # followed as far as held, and no two identical cards of it held (or
            # the play takes all of them)
            eff = order.eff
            played = 0
            for c in play:
                if eff[c] == suit:
                    played += 1
            if played == n and play.count(play[0]) == n:
                return None
            n_held = 0
            twice = False
            for c, k in holding.items():
                if k > 0 and eff[c] == suit:
                    n_held += k
                    if k >= 2:
                        twice = True
            if played >= (n if n < n_held else n_held) and (n_held <= n or not twice):
                return None
    return follow_error(lead, suit, holding, play, order, ruleset, n, True)


def _check_suited_follow(lead: Sequence[Unit], suit: int, held: dict[int, int], play: Sequence[int],
                         order: Order, ruleset: Ruleset, n: int) -> FollowError | None:
    """:func:`check_follow` of a follow of ``n`` >= 2 cards, ``held``: the
    player's cards of the led ``suit`` alone (positive counts, as the record
    mode keeps them split by suit): the same verdicts and messages, without
    filtering the holding for the suit (:func:`follow_error`'s steps, in order)."""
    # (loops, not comprehensions or generator expressions: each of those is a function
    # object and a frame per call, more than the loop itself for a handful of cards)
    eff = order.eff
    n_played = 0
    for c in play:
        if eff[c] == suit:
            n_played += 1
    singles_led = True   # a lead of singles only: no shape to follow
    for u in lead:
        if u.width != 1:
            singles_led = False
            break
    if n_played == n:
        if len(lead) == 1:
            u = lead[0]
            if u.width == 1 or (u.length == 1 and play.count(play[0]) == n):
                return None
        elif singles_led:
            return None
    n_held = sum(held.values())
    need = n if n < n_held else n_held
    if n_played < need:
        return follow_error(lead, suit, held, play, order, ruleset, n, True)   # (the message)
    if n_held <= n or singles_led or max(held.values()) < 2:
        return None
    played = list(play) if n_played == n else [c for c in play if eff[c] == suit]
    policy, decks = ruleset.follow_policy, ruleset.decks
    if policy == "shengji_io":
        return _engine_follow(lead, held, played, order)
    got = obligation(lead, played, order, policy, decks)
    if got == full_obligation(tuple(lead), order, policy, decks):
        return None
    cards = [c for c, k in held.items() for _ in range(k)]
    if got < obligation(lead, cards, order, policy, decks):
        return FollowError("SJ404", _shape_message(lead, cards, played, order, ruleset))
    return None


#: the verdicts of :func:`follow_error` without an explanation
_REVOKE = FollowError("SJ403", "")
_SHAPE = FollowError("SJ404", "")


def follow_error(lead: Sequence[Unit], suit: int | None, holding: Mapping[int, int], play: Sequence[int],
                 order: Order, ruleset: Ruleset, n: int | None = None, explain: bool = False) -> FollowError | None:
    """:func:`check_follow`; the message is written only when ``explain`` (an
    enumeration of legal plays asks for the verdict of many plays, not why); a
    lead that mixes suits (``suit`` None) has no suit to follow."""
    if suit is None:
        return None
    if n is None:
        n = sum(u.size for u in lead)
    eff = order.eff
    if n == 1:  # fast path: a single card must be of the led suit when one is held
        if eff[play[0]] == suit:
            return None
        get = holding.get
        held = [c for c in order.suit_cards[suit] if get(c, 0) > 0]
        if not held:
            return None
        if not explain:
            return _REVOKE
        what = "trumps" if suit == TRUMP else "cards of the led suit"
        return FollowError("SJ403", f"did not follow suit (revoke): played no {what} "
                                    f"but held {cards_text(held, order)}")
    played = [c for c in play if eff[c] == suit]
    n_played = len(played)
    if n_played == n:
        if len(lead) == 1:
            u = lead[0]
            if u.width == 1 or (u.length == 1 and play.count(play[0]) == n):
                # wholly of the led suit, and a single / one tuple led matched by
                # as many copies of one card: every part of the obligation is met
                return None
        elif all(u.width == 1 for u in lead):
            return None  # wholly of the led suit, and a lead of singles has no shape to follow
    suit_held = {c: k for c, k in holding.items() if k > 0 and eff[c] == suit}
    n_held = sum(suit_held.values())
    need = n if n < n_held else n_held
    if n_played < need:
        if not explain:
            return _REVOKE
        held = [c for c in order.suit_cards[suit] for _ in range(suit_held.get(c, 0))]
        what = "trumps" if suit == TRUMP else "cards of the led suit"
        return FollowError("SJ403", f"did not follow suit (revoke): played {len(played)} {what} "
                                    f"but held {n_held} ({cards_text(held, order)}); {need} were required")
    if n_held <= n or max(suit_held.values()) < 2 or all(u.width == 1 for u in lead):
        # the play exhausts the suit, the lead is all singles, or no two identical
        # cards are held: no shape can be owed
        return None
    policy, decks = ruleset.follow_policy, ruleset.decks
    if policy == "shengji_io":
        err = _engine_follow(lead, suit_held, played, order)
        return err if err is None or explain else _SHAPE
    got = obligation(lead, played, order, policy, decks)
    if got == full_obligation(tuple(lead), order, policy, decks):
        return None  # the play meets the lead's whole structure: nothing more can be owed
    held = [c for c, k in suit_held.items() for _ in range(k)]
    if got < obligation(lead, held, order, policy, decks):
        return FollowError("SJ404", _shape_message(lead, held, played, order, ruleset)) if explain else _SHAPE
    return None


def _engine_follow(lead: Sequence[Unit], held: dict[int, int], played: list[int],
                   order: Order) -> FollowError | None:
    """``follow_policy: shengji_io`` (mechanics/src/trick.rs ``is_legal_play``):
    ``played`` (as many cards of the led suit as the lead) against the lead's
    shape and then its fallback shapes (replay/sjio.py); SJ404 when the
    holding ``held`` (the player's cards of the suit) meets a shape first."""
    if len(played) != sum(u.size for u in lead):
        return None   # (the suit ran out: the play holds all of it, checked by the caller)
    ok, req = engine_follow_ok(lead, held, played, order)
    if ok or req is None:
        return None
    lead_desc = " + ".join(shape_name(u.width, u.length) for u in lead)
    held_cards = [c for c, k in held.items() for _ in range(k)]
    held_units = [u for u in decompose(held_cards, order) if u.width >= 2]
    held_desc = ", ".join(cards_text(u.cards, order) for u in held_units[:4]) or "none"
    return FollowError("SJ404", f"did not follow the lead's shape ({lead_desc}): held {held_desc}, "
                                f"which gives {requirement_text(req)}, but played "
                                f"{cards_text(played, order)} (shengji.io's fallback order)")


def printed_suit(lead_cards: Sequence[int], order: Order) -> int | None:
    """``follow_suit: printed`` (the Botzone judge behind the real log): the
    printed suit a lead asks for: that of its first card that is not a joker
    (a level card too: a ♥2 pair led at level 2 asks for plain hearts); None
    for a lead of jokers only (nothing to follow, *reading*)."""
    for c in lead_cards:
        if c < 52:
            return c // 13
    return None


def check_follow_printed(lead: Sequence[Unit], suit: int | None, holding: Sequence[dict[int, int]],
                         play: Sequence[int], order: Order, n: int) -> FollowError | None:
    """``follow_suit: printed``: follow ``suit`` (a printed suit, see
    :func:`printed_suit`) with the cards of that suit that are not jokers,
    level cards or constant 2s, trumps or not; then play as many pairs of
    them as the lead has pairs and as are held (pairs of a tractor counted).
    ``holding``: the seat's cards split by effective suit (as the replay keeps them)."""
    if suit is None:
        return None
    level, two = order.level, order.two_is_trump

    def ours(c: int) -> bool:
        if c >= 52 or c // 13 != suit:
            return False
        r = c % 13 + 2
        return r != level and not (two and r == 2)

    held: dict[int, int] = {}
    for h in holding:
        for c, k in h.items():
            if k > 0 and ours(c):
                held[c] = k
    n_held = sum(held.values())
    played = [c for c in play if ours(c)]
    need = min(n, n_held)
    if len(played) < need:
        return FollowError("SJ403", f"did not follow suit (revoke; follow_suit printed): played {len(played)} "
                                    f"{SUIT_NAMES[suit]} but held {n_held} "
                                    f"({cards_text([c for c, k in held.items() for _ in range(k)], order)}); "
                                    f"{need} were required")
    lead_pairs = sum(u.length for u in lead if u.width >= 2)
    if not lead_pairs or n_held <= n:
        return None
    counts = Counter(played)
    got = sum(k // 2 for k in counts.values())
    have = sum(k // 2 for k in held.values())
    if got < min(lead_pairs, have):
        return FollowError("SJ404", f"did not follow the lead's shape (follow_suit printed): played "
                                    f"{got} pair(s) of {SUIT_NAMES[suit]} but held {have}; "
                                    f"{min(lead_pairs, have)} were required")
    return None


@lru_cache(maxsize=4096)
def full_obligation(lead: tuple[Unit, ...], order: Order, policy: str, decks: int) -> tuple[int, ...]:
    """The obligation vector of the lead's own cards: the largest any holding can
    owe (each part is capped by the lead's demand), so a follow reaching it is legal."""
    return obligation(lead, [c for u in lead for c in u.cards], order, policy, decks)


def _shape_message(lead: Sequence[Unit], held: list[int], played: list[int], order: Order,
                   ruleset: Ruleset) -> str:
    lead_desc = " + ".join(shape_name(u.width, u.length) for u in lead)
    held_units = [u for u in decompose(held, order) if u.width >= 2]
    held_desc = ", ".join(cards_text(u.cards, order) for u in held_units[:4]) or "none"
    return (f"did not follow the lead's shape ({lead_desc}): held {held_desc} "
            f"but played {cards_text(played, order) or 'no cards of the suit'}")


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
        # against the same unit of the reading that wins so far (replay/sjio.py)
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
