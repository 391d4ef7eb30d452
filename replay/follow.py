"""Follow legality (RULES.md §6 "Following"): is a play a legal follow to
a lead for a player holding some cards: suit first (SJ403), then shape
(SJ404) under ``follow_policy`` (the obligation vectors of
:mod:`replay.obligation`, or shengji.io's fallback shapes of
:mod:`replay.sjio`), or under ``follow_suit: printed``. Pure functions over
card ints, holdings (card → count) and an Order; the messages say why."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from replay.obligation import obligation
from replay.order import SUIT_NAMES, TRUMP, Order
from replay.shapes import Unit, shape_name
from replay.sjio import follow_ok as engine_follow_ok
from replay.sjio_fallbacks import requirement_text
from replay.texts import cards_text
from replay.units import decompose

if TYPE_CHECKING:
    from replay.ruleset import Ruleset


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


def check_suited_follow(lead: Sequence[Unit], suit: int, held: dict[int, int], play: Sequence[int],
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
    shape and then its fallback shapes (replay/sjio_fallbacks.py); SJ404 when the
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
