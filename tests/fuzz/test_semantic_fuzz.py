"""Semantic mutations (issue 35): well-formed records whose plays break the
rules in ways byte mutations seldom reach — a card of one play swapped with a
card of another play of the same trick (in the deal lines too, or not), so
leads mix suits, follows revoke, throws change shape, a seat plays a card it
never held, the last trick's winner changes. The record still parses; the
replay, ``lint`` (with ``--mistakes``: the exact window runs on what the
replay accepts) and the JSON writer must give diagnostics, never an
exception or an internal error (SJ901). A mixed lead in the last trick was
SJ901 in every command until tests/replay/test_mixed_last_lead.py.

``SHENGJI_FUZZ_EXAMPLES`` sets the examples (default 25, as the readers' fuzz)."""

from __future__ import annotations

import copy
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.lint.check import lint_text
from analyzer.play.generate import generate_match
from notation import parse, to_json, write
from notation.model import Record
from replay.game import replay

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("SHENGJI_FUZZ_EXAMPLES", "25"))


def _sources() -> list[Record]:
    out: list[Record] = []
    for path in sorted((ROOT / "samples" / "matches").glob("*.sjn")):
        for rec in parse(path.read_text(encoding="utf-8"))[0]:
            # one hand a record: the first, and one whose last trick has several cards a play
            many = [h for h in rec.hands if h.tricks and len(h.tricks[-1].plays[0].cards) > 1]
            for h in {id(h): h for h in rec.hands[:1] + many[:1]}.values():
                one = copy.copy(rec)
                one.hands = [h]
                out.append(one)
    out.append(generate_match("shengji-io-friends", hands=1, seed=3, players=6))
    out.append(generate_match("standard", hands=1, seed=3))
    return out


SOURCES = _sources()


@st.composite
def swapped(draw: st.DrawFn) -> Record:
    rec = copy.deepcopy(draw(st.sampled_from(SOURCES)))
    hi = draw(st.integers(0, len(rec.hands) - 1))
    rec.hands = rec.hands[:hi + 1]
    hand = rec.hands[hi]
    for _ in range(draw(st.integers(1, 3))):
        tricks = [t for t in hand.tricks if len(t.plays) >= 2]
        if not tricks:
            break
        # the last trick half the time (its scoring reads the winner's units and the kitty)
        trick = tricks[-1] if draw(st.booleans()) else draw(st.sampled_from(tricks))
        pa, pb = draw(st.lists(st.integers(0, len(trick.plays) - 1), min_size=2, max_size=2, unique=True))
        a, b = trick.plays[pa], trick.plays[pb]
        if not a.cards or not b.cards:
            continue
        ci, di = draw(st.integers(0, len(a.cards) - 1)), draw(st.integers(0, len(b.cards) - 1))
        c, d = a.cards[ci], b.cards[di]
        deal = {s.seat: s for s in hand.deal}
        if draw(st.booleans()) and a.seat in deal and b.seat in deal \
                and c in deal[a.seat].cards and d in deal[b.seat].cards:
            x, y = list(deal[a.seat].cards), list(deal[b.seat].cards)
            x[x.index(c)], y[y.index(d)] = d, c
            deal[a.seat].cards, deal[b.seat].cards = tuple(x), tuple(y)
        x, y = list(a.cards), list(b.cards)
        x[ci], y[di] = d, c
        a.cards, b.cards = tuple(x), tuple(y)
    return rec


@settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 25,
          suppress_health_check=list(HealthCheck))
@given(swapped())
def test_swapped_cards_give_diagnostics_not_internal_errors(rec: Record) -> None:
    res = replay(rec)
    assert "SJ901" not in {d.code for d in res.diagnostics}
    text = write([rec])
    findings = lint_text(text, "fuzz.sjn", mistakes=True)
    assert "SJ901" not in {f.code for f in findings}
    to_json(rec)
