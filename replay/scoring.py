"""Scoring a hand and moving the levels (RULES.md §7).

Pure functions: the kitty multiplier from the last trick's winning units,
the advancement table of each preset, level jumps with must-play stops and
hook back, the next dealer, and the match end; and the trick rules of the
score the trick loops share (a failed throw's signed cost, the last trick's
kitty multiplier, hook back).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from primitives.cards import ACE, JACK, JOKER_LEVEL, LJ
from replay.seats import SEATS, Seat
from replay.shapes import Unit
from replay.trick import throw_penalty
from replay.units import decompose

if TYPE_CHECKING:
    from replay.order import Order
    from replay.ruleset import Ruleset

#: the compass seats' names in play order (an alias of :data:`replay.seats.SEATS`)
SEAT_ORDER = SEATS
TEAMS = {"N": "NS", "S": "NS", "W": "EW", "E": "EW"}


def team_of(seat: str) -> str:
    return TEAMS[seat]


def other_team(team: str) -> str:
    return "EW" if team == "NS" else "NS"


def partner(seat: str) -> str:
    """A seat's name → its partner's (:meth:`replay.seats.Seat.partner` for names)."""
    return Seat[seat].partner().name


def next_seat(seat: str, k: int = 1) -> str:
    """The seat ``k`` places after ``seat`` in play order (N → W → S → E):
    :meth:`replay.seats.Seat.next` for names."""
    return Seat[seat].next(4, k).name


#: :func:`partner` and :func:`next_seat` of the compass seats, looked up
_PARTNER = {seat: partner(seat) for seat in SEATS}
_NEXT = {seat: next_seat(seat) for seat in SEATS}


# -- kitty multiplier (§7 "Kitty") ----------------------------------------------------

def _largest(units: Sequence[Unit]) -> Unit:
    return min(units, key=lambda u: (-u.size, -u.width, -u.top))


def kitty_multiplier(policy: str, winning: Sequence[Unit], *, play_cards: int, lead_cards: int,
                     last_play: Sequence[Unit] | None = None) -> int:
    """Multiplier of the kitty's points when the attackers win the last trick.

    ``winning``: the units of the winning play (matching the lead's structure);
    ``play_cards``: cards in each play of the last trick; ``lead_cards``: cards
    in its lead (the same number); ``last_play``: units of the trick's last play
    (the ``botzone`` judge reads that one, not the winner's).
    """
    top = _largest(winning)
    if policy == "by_unit":
        # single 2, pair 4, tractor of k pairs 2^(k+1); generally 2^(1 + L·(w-1))
        # (powers of 2 as shifts: the exponents are >= 0 and an int power stays typed as int)
        return 1 << (1 + top.length * (top.width - 1))
    if policy == "by_cards":
        return min(64, 1 << top.size)
    if policy == "by_play_cards":
        return 1 << play_cards
    if policy == "linear":
        return play_cards
    if policy == "titanic":
        # seed 004: Titanic 2·3^L > triple 6 > tractor 2·2^L > pair 4 > single 2
        titanics = [u for u in winning if u.width >= 3 and u.length >= 2]
        if titanics:
            titanic: int = 2 * 3 ** max(u.length for u in titanics)  # int ** int >= 0 is an int
            return titanic
        if any(u.width >= 3 for u in winning):
            return 6
        tractors = [u for u in winning if u.width == 2 and u.length >= 2]
        if tractors:
            return 2 << max(u.length for u in tractors)  # 2·2^L
        if any(u.width == 2 for u in winning):
            return 4
        return 2
    if policy == "times_unit":
        return 2 * top.size
    if policy == "unit_cards":
        # shengji-godot: single 1, pair 2, tractor of k pairs 2k; a throw: its largest unit
        return top.size
    if policy == "times_lead_cards":
        return 2 * lead_cards
    if policy == "botzone":
        units = list(last_play) if last_play else list(winning)
        if len(units) == 1:
            return play_cards
        big = _largest(units)
        if big.length >= 2:
            return 2 * big.size
        return 4 if big.width >= 2 else 2
    raise ValueError(f"unknown kitty multiplier {policy!r}")


# -- advancement (§7 table) ---------------------------------------------------------

class Advance(NamedTuple):
    """The outcome of a hand: who goes up and by how much."""

    dealers_keep: bool   # the dealer team keeps the deal
    levels: int          # levels gained by the team that goes up (dealers, or attackers)


def advancement(table: str, points: int, decks: int = 2) -> Advance:
    """The advancement for attackers' ``points`` under ``table``."""
    p = max(points, 0)
    if table == "one-deck":
        # seed 004: 0 → +2, 5–35 → +1, 40–75 → take the deal, 80–95 → +1, 100–115 → +2, +1 per 20
        if p == 0:
            return Advance(True, 2)
        if p < 40:
            return Advance(True, 1)
        return Advance(False, max(0, (p - 60) // 20))
    if table == "titanic":
        # seed 004: 0 → +3, < 60 → +2, 60–115 → +1, 120 → take the deal, +1 per further 60
        if p == 0:
            return Advance(True, 3)
        if p < 60:
            return Advance(True, 2)
        if p < 120:
            return Advance(True, 1)
        return Advance(False, (p - 120) // 60)
    threshold, step = 40 * decks, 20 * decks
    if p == 0:
        return Advance(True, 3)
    if p < step:
        return Advance(True, 2)
    if p < threshold:
        return Advance(True, 1)
    gained = (p - threshold) // step
    if table == "capped":
        # shengji-godot upgrade_table: the standard table, never more than +3
        return Advance(False, min(gained, 3))
    if table == "campus":
        # seed 002: 120–155 → +1, 160–200 → +2, above 200 → +3 (and no more)
        if p > 200:
            return Advance(False, 3)
        if p >= 160:
            return Advance(False, 2)
        return Advance(False, 1 if p >= 120 else 0)
    return Advance(False, gained)


# -- levels -----------------------------------------------------------------------------

def level_ladder(ruleset: Ruleset) -> list[int]:
    """The levels in order: start level … A (… Joker)."""
    top = JOKER_LEVEL if ruleset.joker_level else ACE
    return [r for r in range(ruleset.first_level, ACE + 1)] + ([JOKER_LEVEL] if top == JOKER_LEVEL else [])


def must_play_levels(ruleset: Ruleset) -> frozenset[int]:
    """The levels a jump stops at (RULES §7 "Must-play levels"): ``must_play``,
    except that with ``two_is_trump`` there is no level 2 and 3 is the
    always-must-play level; and with the J/A switch on (J and A in
    ``must_play``), ``joker_override`` allowed and a ``Joker`` level, Joker is
    must-play too (001: 若允許反無主，則Joker必打)."""
    must = set(ruleset.must_play)
    if ruleset.two_is_trump:
        must.discard(2)
        must.add(3)
    if ruleset.joker_level and ruleset.joker_override and JACK in must and ACE in must:
        must.add(JOKER_LEVEL)
    return frozenset(must)


#: each ruleset's level ladder and must-play levels, made once: by the ruleset's
#: identity (a frozen model; the entry holds it, so the id is not reused meanwhile)
_LADDERS: dict[int, tuple[Ruleset, tuple[int, ...], frozenset[int]]] = {}


def _ladder_and_must(ruleset: Ruleset) -> tuple[tuple[int, ...], frozenset[int]]:
    """:func:`level_ladder` (as a tuple) and :func:`must_play_levels` of ``ruleset``."""
    got = _LADDERS.get(id(ruleset))
    if got is None or got[0] is not ruleset:
        if len(_LADDERS) >= 64:
            _LADDERS.clear()
        got = _LADDERS[id(ruleset)] = (ruleset, tuple(level_ladder(ruleset)), must_play_levels(ruleset))
    return got[1], got[2]


def raise_level(ruleset: Ruleset, level: int, steps: int, *, defended: bool) -> int:
    """``level`` moved up ``steps`` levels: a jump stops at the first must-play
    level it reaches (001: 不可越級); with ``must_defend`` (80fen) a team sitting
    on a must-play level leaves it only when it has just ``defended`` it (won it
    as dealers). Past the top, the level stays at the top, except
    ``match_end: none`` which cycles back to the start (001)."""
    ladder, must = _ladder_and_must(ruleset)
    if level not in ladder:
        ladder = tuple(sorted(set(ladder) | {level}))
    i = ladder.index(level)
    for n in range(steps):
        if ladder[i] in must and (n > 0 or (ruleset.must_defend and not defended)):
            break
        if i == len(ladder) - 1:
            if ruleset.match_end == "none":
                i = 0
                continue
            break
        i += 1
    return ladder[i]


class HandOutcome(NamedTuple):
    levels: dict[str, int]       # team → level after the hand
    next_dealer: str
    dealers_keep: bool
    gained: int                  # levels the winning side rose
    hooked_back: bool
    match_over: bool
    winner: str | None           # team that won the match (when over)


def hand_outcome(ruleset: Ruleset, levels: dict[str, int], dealer: str, attacker_points: int, *,
                 last_trick_rank_hook: bool = False, hands_played: int = 1) -> HandOutcome:
    """Levels, next dealer and match end after a complete hand.

    ``levels``: team → level before the hand; ``last_trick_rank_hook``: the
    attackers won the last trick with a card of the level rank (for ``hook_back``).
    """
    dealers = team_of(dealer)
    attackers = other_team(dealers)
    level = levels[dealers]
    adv = advancement(ruleset.advancement, attacker_points, ruleset.decks)
    new = dict(levels)
    hooked = False
    if adv.dealers_keep:
        new[dealers] = raise_level(ruleset, level, adv.levels, defended=True)
        nxt = dealer if ruleset.kept_deal == "dealer" else (_PARTNER.get(dealer) or partner(dealer))
    else:
        new[attackers] = raise_level(ruleset, levels[attackers], adv.levels, defended=False)
        nxt = _NEXT.get(dealer) or next_seat(dealer)
    if last_trick_rank_hook and level in ruleset.hook_back:
        new[dealers] = ruleset.first_level
        hooked = True
    top = ruleset.top_level
    over, winner = False, None
    end = ruleset.match_end
    if end == "reach_top":
        # 000/004: the first team to rise to the top level wins
        for team in (dealers, attackers):
            if new[team] >= top > levels[team]:
                over, winner = True, team
                break
    elif end == "defend_top":
        if adv.dealers_keep and level >= top:
            over, winner = True, dealers
    elif end == "pass_top":
        # shengji-godot: a team already at the top level that rises again wins (the dealers
        # defending it, or attackers at the top scoring a rise)
        rising = dealers if adv.dealers_keep else attackers
        if adv.levels > 0 and levels[rising] >= top:
            over, winner = True, rising
    elif ruleset.hands_limit is not None and hands_played >= ruleset.hands_limit:
        over = True
        # 002: a tie goes to 台上一方, read as the team that deals next (``hands_tie``)
        next_team = team_of(nxt) if ruleset.hands_tie == "next_dealers" else dealers
        if new["NS"] == new["EW"]:
            winner = next_team
        else:
            winner = "NS" if _rank_index(ruleset, new["NS"]) > _rank_index(ruleset, new["EW"]) else "EW"
    return HandOutcome(new, nxt, adv.dealers_keep, adv.levels, hooked, over, winner)


def _rank_index(ruleset: Ruleset, level: int) -> int:
    ladder = _ladder_and_must(ruleset)[0]
    return ladder.index(level) if level in ladder else level


# -- the trick rules of the score (the lint loop, the state and the search share them) --------------

def penalty_delta(ruleset: Ruleset, attempted: int, thrower_defends: bool) -> int:
    """The signed change to the attackers' points from a failed throw of
    ``attempted`` cards (§6): the penalty counts against the thrower's team,
    so it is added when the thrower is on the dealer's team (``thrower_defends``)."""
    cost = throw_penalty(ruleset, attempted)
    return cost if thrower_defends else -cost


def last_trick_multiplier(ruleset: Ruleset, order: Order, winning: Sequence[Unit], lead_cards: int,
                          last_play: Sequence[int]) -> int:
    """The kitty multiplier of the last trick (§7 "Kitty"), whoever wins it:
    ``winning`` the winning play's units, ``lead_cards`` the cards of each
    play, ``last_play`` the trick's last play (the botzone judge reads it)."""
    return kitty_multiplier(ruleset.kitty_multiplier, winning, play_cards=lead_cards, lead_cards=lead_cards,
                            last_play=decompose(last_play, order))


def last_trick_kitty_multiplier(ruleset: Ruleset, order: Order, winning: Sequence[Unit],
                                cards_played: Sequence[Sequence[int]]) -> int:
    """The kitty multiplier of a hand's last trick from its record: ``winning``
    the winning play's units (none when the lead mixes suits: such a lead wins
    with itself, read as its own units), ``cards_played`` each play's cards in
    turn order. 0 for a trick with no units at all. The one place both tables
    (fixed partners, finding friends) take the multiplier from."""
    units = winning or tuple(decompose(cards_played[0], order))
    if not units:
        return 0
    return last_trick_multiplier(ruleset, order, units, len(cards_played[0]), cards_played[-1])


def hooks_back(winning: Iterable[Unit], level: int) -> bool:
    """Does a winning play hold a card of the level rank (hook back, 抠底 with a level card)?"""
    return any(c < LJ and c % 13 + 2 == level for u in winning for c in u.cards)
