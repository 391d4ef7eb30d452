"""Random play-phase positions of every preset for the differential tests: 2–4
decks, 4–8 players (finding friends), every level and trump (NT and the Joker
level included), ``two_is_trump``, any set of tractor links, and the trick
options varied across their values (shengji.io's ``unit_split`` and
``follow_policy`` too: the ``shengji-io`` presets use both, any preset may draw them)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from primitives.cards import JOKER_LEVEL, deck_list
from replay import native
from replay.order import Order
from replay.ruleset import LINKS, PRESETS, Ruleset
from replay.state import HandState

#: the trick options and their values (each position may override some)
TRICK_OPTIONS = {
    "throw_check": ("strict", "none"),
    "throw_forced": ("smallest", "first_blocker", "lowest"),
    "throw_penalty": ("none", "per_card", "per_attempt"),
    "throw_compare": ("largest_unit", "all_units", "highest_card"),
    "follow_policy": ("pairs", "strict", "pure_tractor", "shengji_io"),
    "unit_split": ("longest", "shengji_io"),
    "follow_suit": ("effective", "printed"),
    "kitty_multiplier": ("by_unit", "by_cards", "by_play_cards", "linear", "titanic", "times_unit",
                         "times_lead_cards", "botzone", "unit_cards"),
}


@st.composite
def rulesets(draw, fixed_only: bool = False, vary_options: bool = True, presets: tuple[str, ...] | None = None) -> Ruleset:
    names = [n for n in presets or PRESETS if not fixed_only or PRESETS[n].get("partners", "fixed") == "fixed"]
    name = draw(st.sampled_from(names))
    values = {"name": name, **PRESETS[name]}
    keep = presets is not None and draw(st.booleans())   # (the named presets: half of them as they are)
    values["decks"] = draw(st.integers(2, 4)) if draw(st.booleans()) else values.get("decks", 2)
    if values.get("partners") == "friends":
        values["players"] = draw(st.integers(4, 8))
        if values["decks"] is None:
            values["decks"] = max(1, min(4, values["players"] // 2))
    values["two_is_trump"] = draw(st.booleans()) if draw(st.integers(0, 3)) == 0 else values.get("two_is_trump", False)
    if draw(st.integers(0, 2)) == 0:
        values["tractor_links"] = frozenset(draw(st.sets(st.sampled_from(LINKS))))
    if vary_options and not keep:
        for option, choices in TRICK_OPTIONS.items():
            if draw(st.integers(0, 3)) == 0:
                values[option] = draw(st.sampled_from(choices))
    values["kitty_size"] = None
    rs = Ruleset(**values)
    assert native.ported(rs), f"preset {name} with {values} is not played by the native core"
    return rs


@st.composite
def orders(draw, rs: Ruleset) -> Order:
    top = JOKER_LEVEL if draw(st.booleans()) else 14
    level = draw(st.integers(2, top))
    trump = draw(st.integers(0, 4))
    return Order.for_ruleset(level, trump, rs)


def deal(rs: Ruleset, seed: int, per_seat: int, seats: int) -> list[list[int]]:
    """``per_seat`` cards for each of ``seats`` players from the ruleset's decks, shuffled by ``seed``;
    sometimes a hand kept short of a suit (voids) by dealing from fewer suits."""
    rng = random.Random(seed)
    cards = deck_list(rs.decks)
    if rng.random() < 0.5:   # fewer suits: long suits, pairs, tractors and voids
        keep = set(rng.sample(range(5), rng.randint(1, 3)))
        kept = [c for c in cards if (c // 13 if c < 52 else 4) in keep]
        if len(kept) >= seats:   # (one deck's jokers alone would deal nobody a card)
            cards = kept
    rng.shuffle(cards)
    per_seat = min(per_seat, len(cards) // seats)
    return [sorted(cards[i * per_seat:(i + 1) * per_seat]) for i in range(seats)]


#: the presets that read leads, check throws, walk follows and find winners as shengji.io does
SJIO_PRESETS = tuple(n for n, v in PRESETS.items() if v.get("unit_split") == "shengji_io" or v.get("follow_policy") == "shengji_io")


def python_moves(start: HandState, end: HandState, first: bool) -> list[tuple[int, ...]]:
    """Every play the bots made after ``start`` (and the ``first`` play) as they chose it
    (a failed throw: its attempt)."""
    out: list[tuple[int, ...]] = []
    skip = len(start.plays) + first
    for t in end.tricks[len(start.tricks):]:
        for i, (_seat, cards) in enumerate(t.plays):
            if skip:
                skip -= 1
                continue
            out.append(tuple(t.attempted) if i == 0 and t.attempted is not None else tuple(cards))
    return out
