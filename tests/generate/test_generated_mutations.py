"""Mutation tests: corrupt one element of a generated legal game (as SJN text)
and check the replay reports the expected code **at the corrupted line**.

Each property draws a seed (and a preset), generates a legal match, writes it
with ``notation.write``, finds the elements to corrupt through the spans of
``notation.parse``, rewrites that piece of text, parses again and replays.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from analyzer.play.generate import generate_match
from primitives.cards import format_cards
from primitives.diagnostics import Span
from replay.game import SEAT_INDEX, replay
from replay.trick import lead_suit
from replay.units import decompose

notation = pytest.importorskip("notation")
if not hasattr(notation, "write") or not hasattr(notation, "parse"):  # pragma: no cover
    pytest.skip("notation.write / notation.parse are not there yet", allow_module_level=True)

PRESETS = ["standard", "shengji-io", "campus", "one-deck", "tractor97"]
SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


@dataclass
class Game:
    text: str
    record: object      # the parsed record (with spans)
    match: object       # its replay (clean)


def game(seed: int, rules: str, hands: int = 2) -> Game:
    text = notation.write(generate_match(rules, hands=hands, seed=seed))
    records, diags = notation.parse(text)
    assert diags == []
    m = replay(records[0])
    assert m.diagnostics == []
    return Game(text, records[0], m)


def splice(text: str, edits: list[tuple[Span, str]]) -> str:
    """Replace each span's text (one line each) by the new text."""
    lines = text.split("\n")
    for span, new in sorted(edits, key=lambda e: (e[0].line, e[0].column), reverse=True):
        i = span.line - 1
        lines[i] = lines[i][:span.column - 1] + new + lines[i][span.end_column - 1:]
    return "\n".join(lines)


def play_text(seat: str, cards, order, attempted=None) -> str:
    body = format_cards(order.sorted(cards))
    if attempted:
        body = f"{format_cards(order.sorted(attempted))} -> {body}"
    return f"{seat}: {body}"


def reported(text: str) -> set[tuple[str, int]]:
    records, diags = notation.parse(text)
    found = {(d.code, d.line) for d in diags}
    m = replay(records[0])
    return found | {(d.code, d.line) for d in m.diagnostics}


def positions(g: Game):
    """(hand, hand result, trick index, trick, trick result) for every trick."""
    for h, r in zip(g.record.hands, g.match.hands):
        if r.redeal or r.order is None:
            continue
        for i, (t, tr) in enumerate(zip(h.tricks, r.tricks)):
            yield h, r, i, t, tr


# -- SJ403: a follow replaced by a revoke -------------------------------------------

@SETTINGS
@given(st.integers(0, 10**6), st.sampled_from(PRESETS), st.data())
def test_revoke_reported_at_its_line(seed, rules, data):
    g = game(seed, rules)
    cands = []
    for _h, r, _i, t, tr in positions(g):
        lead = t.plays[0].cards
        if len(lead) != 1:
            continue
        suit = lead_suit(lead, r.order)
        for p in t.plays[1:]:
            held = tr.hands_before[SEAT_INDEX[p.seat]]
            other = [c for c in held if r.order.eff[c] != suit]
            if r.order.eff[p.cards[0]] == suit and other:
                cands.append((p, other[0], r.order))
    assume(cands)
    p, card, order = data.draw(st.sampled_from(cands))
    bad = splice(g.text, [(p.span, play_text(p.seat, (card,), order))])
    assert ("SJ403", p.span.line) in reported(bad)


# -- SJ404: a pair obligation broken ----------------------------------------------------

@SETTINGS
@given(st.integers(0, 10**6), st.sampled_from(["standard", "shengji-io", "campus", "tractor97"]),
       st.data())
def test_broken_pair_obligation_reported_at_its_line(seed, rules, data):
    g = game(seed, rules)
    cands = []
    for _h, r, _i, t, tr in positions(g):
        lead = t.plays[0].cards
        units = decompose(lead, r.order)
        if len(units) != 1 or units[0].shape != (2, 1):
            continue
        suit = lead_suit(lead, r.order)
        for p in t.plays[1:]:
            x = p.cards[0]
            if p.cards != (x, x) or r.order.eff[x] != suit:
                continue
            held = tr.hands_before[SEAT_INDEX[p.seat]]
            spare = [c for c in held if r.order.eff[c] == suit and c != x]
            if spare:
                cands.append((p, (x, spare[0]), r.order))
    assume(cands)
    p, cards, order = data.draw(st.sampled_from(cands))
    bad = splice(g.text, [(p.span, play_text(p.seat, cards, order))])
    assert ("SJ404", p.span.line) in reported(bad)


# -- SJ406 / SJ407: throws recorded the wrong way round ---------------------------------

@SETTINGS
@given(st.integers(0, 10**6), st.sampled_from(["standard", "shengji-io", "campus", "titanic"]),
       st.data())
def test_failed_throw_written_as_standing_reported(seed, rules, data):
    g = game(seed, rules, hands=3 if rules != "titanic" else 1)
    cands = [(t.plays[0], r.order) for h, r, i, t, tr in positions(g) if t.plays[0].attempted]
    assume(cands)
    p, order = data.draw(st.sampled_from(cands))
    bad = splice(g.text, [(p.span, play_text(p.seat, p.attempted, order))])
    assert ("SJ406", p.span.line) in reported(bad)


@SETTINGS
@given(st.integers(0, 10**6), st.sampled_from(["standard", "shengji-io", "campus"]), st.data())
def test_standing_throw_written_as_failed_reported(seed, rules, data):
    g = game(seed, rules, hands=3)
    cands = [(t.plays[0], tr, r.order) for h, r, i, t, tr in positions(g)
             if tr.is_throw and not tr.failed_throw]
    assume(cands)
    p, _tr, order = data.draw(st.sampled_from(cands))
    smallest = min(decompose(p.cards, order), key=lambda u: (u.size, u.top))
    bad = splice(g.text, [(p.span, play_text(p.seat, smallest.cards, order, attempted=p.cards))])
    assert ("SJ407", p.span.line) in reported(bad)


# -- SJ501: points changed -----------------------------------------------------------------

@SETTINGS
@given(st.integers(0, 10**6), st.sampled_from(PRESETS), st.sampled_from([-10, -5, 5, 20]), st.data())
def test_changed_points_reported_at_its_line(seed, rules, delta, data):
    g = game(seed, rules)
    hands = [h for h in g.record.hands if h.points is not None]
    h = data.draw(st.sampled_from(hands))
    bad = splice(g.text, [(h.points_span, f"points {h.points + delta}")])
    assert ("SJ501", h.points_span.line) in reported(bad)


# -- SJ202 / SJ201: a card duplicated in a seat line ----------------------------------------

@SETTINGS
@given(st.integers(0, 10**6), st.sampled_from(PRESETS), st.data())
def test_duplicated_card_in_seat_line_reported(seed, rules, data):
    g = game(seed, rules, hands=1)
    h = next(h for h in g.record.hands if h.deal)
    decks = g.match.ruleset.decks
    lines = sorted(h.deal, key=lambda sc: sc.span.line)
    j = data.draw(st.integers(1, len(lines) - 1))
    line = lines[j]
    seen = Counter(c for sc in lines[:j + 1] for c in sc.cards)
    full = sorted(c for c, k in seen.items() if k == decks)   # every copy already dealt by here
    assume(full)
    card = data.draw(st.sampled_from(full))
    k = data.draw(st.sampled_from([i for i, c in enumerate(line.cards) if c != card]))
    replaced = list(line.cards)
    replaced[k] = card
    bad = splice(g.text, [(line.span, f"{line.seat}: {format_cards(replaced)}")])
    assert ("SJ202", line.span.line) in reported(bad)
    # the same card added instead of replacing one: the seat line is too long too
    longer = splice(g.text, [(line.span, f"{line.seat}: {format_cards(list(line.cards) + [card])}")])
    found = reported(longer)
    assert ("SJ201", line.span.line) in found and ("SJ202", line.span.line) in found


# -- SJ401: two tricks swapped -----------------------------------------------------------------

@SETTINGS
@given(st.integers(0, 10**6), st.sampled_from(PRESETS), st.data())
def test_swapped_tricks_reported_at_the_first(seed, rules, data):
    g = game(seed, rules)
    cands = []
    for h in g.record.hands:
        ts = h.tricks
        for i in range(len(ts) - 1):
            if ts[i].plays[0].seat != ts[i + 1].plays[0].seat:
                cands.append((ts[i], ts[i + 1]))
    assume(cands)
    a, b = data.draw(st.sampled_from(cands))
    lines = g.text.split("\n")

    def body(t):
        first, last = t.plays[0].span, t.plays[-1].span
        return (Span(first.line, first.column, first.line, last.end_column),
                lines[first.line - 1][first.column - 1:last.end_column - 1])

    (sa, ta), (sb, tb) = body(a), body(b)
    bad = splice(g.text, [(sa, tb), (sb, ta)])
    assert ("SJ401", a.span.line) in reported(bad)
