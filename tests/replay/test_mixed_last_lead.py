"""A last trick whose lead mixes suits (SJ405) is still scored: the lead wins
with itself and the kitty's multiplier reads the lead's own units
(RULES.md §7 "Kitty": the multiplier of the winning play; NOTATION.md: an
illegal play is reported and the hand goes on). Before, the fixed-partner
table asked for the largest of no units and every command gave SJ901 (an
internal error) on such a record; finding friends already read the lead.
Both tables now take the multiplier from one function,
:func:`replay.scoring.last_trick_kitty_multiplier`.

The cases are made from the project's own samples: a card of the last lead
swapped with a card of another suit that a later seat plays in the same
trick (in the deal too, so the holdings stay consistent)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path

import pytest

from analyzer.play.generate import generate_match
from notation import parse
from notation.model import Record
from replay.game import replay
from replay.order import Order
from replay.ruleset import preset
from replay.scoring import last_trick_kitty_multiplier, last_trick_multiplier
from replay.units import decompose

SAMPLES = sorted(Path(__file__).resolve().parents[2].joinpath("samples", "matches").glob("*.sjn"))


def _mixed(rec: Record, hi: int) -> Iterator[Record]:
    """Copies of ``rec`` cut after hand ``hi`` whose last lead mixes suits."""
    hand = rec.hands[hi]
    last = hand.tricks[-1] if hand.tricks else None
    if last is None or len(last.plays[0].cards) < 2:
        return
    lead = last.plays[0]
    for pj in range(1, len(last.plays)):
        other = last.plays[pj]
        for ci, c in enumerate(lead.cards):
            for di, d in enumerate(other.cards):
                if c // 13 == d // 13 or c >= 52 or d >= 52:
                    continue
                r2 = copy.deepcopy(rec)
                r2.hands = r2.hands[:hi + 1]
                h2 = r2.hands[hi]
                deal = {s.seat: s for s in h2.deal}
                if lead.seat not in deal or other.seat not in deal:
                    continue
                a, b = list(deal[lead.seat].cards), list(deal[other.seat].cards)
                if c not in a or d not in b:
                    continue
                a[a.index(c)], b[b.index(d)] = d, c
                deal[lead.seat].cards, deal[other.seat].cards = tuple(a), tuple(b)
                t2 = h2.tricks[-1]
                x, y = list(t2.plays[0].cards), list(t2.plays[pj].cards)
                x[ci], y[di] = d, c
                t2.plays[0].cards, t2.plays[pj].cards = tuple(x), tuple(y)
                yield r2


def _cases() -> list[Record]:
    out: list[Record] = []
    sources: list[Record] = []
    for path in SAMPLES:
        sources += parse(path.read_text(encoding="utf-8"))[0]
    for seed in range(6):
        sources.append(generate_match("shengji-io-friends", hands=2, seed=seed, players=5))
    for rec in sources:
        for hi in range(len(rec.hands)):
            out += list(_mixed(rec, hi))[:3]
    return out


CASES = _cases()


def test_cases_cover_both_tables() -> None:
    friends = [r for r in CASES if any(s.seat.startswith("P") for h in r.hands for s in h.deal)]
    assert len(CASES) >= 20 and friends and len(friends) < len(CASES)


@pytest.mark.parametrize("rec", CASES, ids=lambda r: f"{len(r.hands)}")
def test_mixed_last_lead_is_scored(rec: Record) -> None:
    res = replay(rec)  # raised ValueError on the fixed-partner table before
    codes = {d.code for d in res.diagnostics}
    assert "SJ405" in codes and "SJ901" not in codes
    hr = res.hands[-1]
    if not hr.complete:
        return
    last = hr.tricks[-1]
    lead = last.cards_played[0]
    order = hr.order
    assert order is not None
    if last.to_attackers:
        units = last.winning_units or tuple(decompose(lead, order))
        want = last_trick_multiplier(hr.ruleset, order, units, len(lead), last.cards_played[-1])
        assert hr.multiplier == want
        assert hr.attacker_points == hr.card_points + hr.penalties + hr.kitty_points


@pytest.mark.parametrize("policy", ["by_unit", "by_cards", "titanic", "times_unit", "botzone", "linear"])
def test_multiplier_of_a_mixed_lead_reads_its_own_units(policy: str) -> None:
    """♣2 ♦K led last, no winning units: the lead's own units (two singles)."""
    rs = preset("standard").model_copy(update={"kitty_multiplier": policy})
    order = Order(level=5, trump=0)
    lead, last = (0, 24), (40, 41)
    got = last_trick_kitty_multiplier(rs, order, (), [lead, (3, 4), (5, 6), last])
    assert got == last_trick_multiplier(rs, order, tuple(decompose(lead, order)), 2, last)
    assert got > 0
    assert last_trick_kitty_multiplier(rs, order, (), [()]) == 0
