"""shengji.io with three and four decks (issue 29), as properties of generated
finding-friends matches of 4–8 players: they replay clean (near the top rank
too), and three kinds of corruption are caught at the corrupted line with the
right code — a follow that breaks a triple the engine asks for (SJ404), a
throw recorded as standing that another player's single beats (SJ406), and a
level written as the old preset read the top rank (SJ524).

The expected verdicts are read from simple facts, not from the engine under
test: a player holding a triple of the led suit must answer a triple led with
a triple (``mechanics/src/trick.rs`` ``is_legal_play``: the lead's own shape
comes first); a single in a throw fails when another player holds a higher
card of its suit (``Trick::play_cards``); and past A a dealer goes to NoTrump,
past NoTrump back to 2 (``mechanics/src/player.rs`` ``Player::advance``)."""

from __future__ import annotations

from collections import Counter

from gen_helpers import check_accounting, check_clean
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from analyzer.play.generate import generate_match
from primitives.cards import ACE, JOKER_LEVEL, KING, format_cards, rank_name
from replay.game import replay, ruleset_for
from replay.order import Order

SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
TABLES = st.tuples(st.integers(0, 10 ** 6), st.integers(4, 8), st.sampled_from([3, 4]))


def game(seed: int, players: int, decks: int, hands: int = 2, start_levels=None):
    rec = generate_match("shengji-io-friends", hands=hands, seed=seed, players=players, decks=decks,
                         start_levels=start_levels)
    text = notation.write(rec)
    records, diags = notation.parse(text)
    assert diags == []
    return text, records[0]


def reported(text: str) -> set[tuple[str, int]]:
    records, diags = notation.parse(text)
    m = replay(records[0])
    return {(d.code, d.line) for d in diags} | {(d.code, d.line) for d in m.diagnostics}


def replace_play(text: str, play, new_cards) -> str:
    lines = text.split("\n")
    line = lines[play.span.line - 1]
    lines[play.span.line - 1] = (line[:play.span.column - 1] + f"{play.seat}: {format_cards(new_cards)}"
                                 + line[play.span.end_column - 1:])
    return "\n".join(lines)


def positions(rec):
    """Each trick with every seat's cards before it, and its hand's order."""
    rs, _ = ruleset_for(rec)
    for hand in rec.hands:
        held = {sc.seat: Counter(sc.cards) for sc in hand.deal}
        bury = hand.buries[0]
        held[bury.seat].update(hand.kitty)
        held[bury.seat].subtract(bury.cards)
        level = hand.levels.levels[hand.dealer]
        order = Order.for_ruleset(level, hand.trump, rs)
        for t in hand.tricks:
            yield t, {s: +c for s, c in held.items()}, order
            for p in t.plays:
                held[p.seat].subtract(p.cards)


@SETTINGS
@given(TABLES)
def test_property_three_and_four_deck_tables_replay_clean(table):
    seed, players, decks = table
    rec = generate_match("shengji-io-friends", hands=2, seed=seed, players=players, decks=decks)
    check_clean(rec)
    check_accounting(rec)


@SETTINGS
@given(TABLES)
def test_property_matches_near_the_top_rank_replay_clean(table):
    seed, players, decks = table
    rec = generate_match("shengji-io-friends", hands=3, seed=seed, players=players, decks=decks,
                         start_levels=[KING, ACE, JOKER_LEVEL])
    check_clean(rec)


@SETTINGS
@given(TABLES, st.data())
def test_property_a_follow_breaking_a_triple_is_caught(table, data):
    seed, players, decks = table
    text, rec = game(seed, players, decks, hands=2)
    found = []
    for t, held, order in positions(rec):
        lead = t.plays[0].cards
        if len(lead) < 3 or len(set(lead)) != 1:
            continue   # a triple (or a quadruple) led
        suit = order.eff[lead[0]]
        for p in t.plays[1:]:
            if len(set(p.cards)) == 1 and order.eff[p.cards[0]] == suit:
                c = p.cards[0]   # a tuple answering the tuple: swap a copy for another card of the suit
                spare = [d for d, k in held[p.seat].items() if d != c and order.eff[d] == suit and k > 0]
                found += [(p, (c,) * (len(lead) - 1) + (d,)) for d in spare]
    if not found:
        return   # (no triple led and answered with a spare card of the suit in this match)
    play, new = data.draw(st.sampled_from(found))
    assert ("SJ404", play.span.line) in reported(replace_play(text, play, new))


@SETTINGS
@given(TABLES, st.data())
def test_property_a_beaten_throw_recorded_as_standing_is_caught(table, data):
    seed, players, decks = table
    text, rec = game(seed, players, decks, hands=1)
    found = []
    for t, held, order in positions(rec):
        lead = t.plays[0]
        if len(lead.cards) != 1:
            continue
        u = lead.cards[0]
        suit, key = order.eff[u], order.key
        mine = held[lead.seat]
        for e in mine:
            if e == u or order.eff[e] != suit:
                continue
            low = min(key[u], key[e])
            # another player holds a higher card of the suit than the lower single: the throw fails
            if any(order.eff[c] == suit and key[c] > low for s, h in held.items() if s != lead.seat for c in h):
                found.append((lead, (u, e)))
    if not found:
        return
    lead, new = data.draw(st.sampled_from(found))
    assert ("SJ406", lead.span.line) in reported(replace_play(text, lead, new))


def _wrong(before: int, after: int) -> int | None:
    """A level as a reading that stops at A (or never leaves the top) would write it."""
    if before == ACE and after == JOKER_LEVEL:
        return ACE                # the old preset: A is the top
    if before == JOKER_LEVEL and after != JOKER_LEVEL:
        return JOKER_LEVEL        # NoTrump never left
    if before == ACE and after == ACE:
        return JOKER_LEVEL        # an attacker (or a blocked jump) passing A
    return None


@SETTINGS
@given(TABLES, st.data())
def test_property_a_wrong_top_rank_transition_is_caught(table, data):
    seed, players, decks = table
    text, rec = game(seed, players, decks, hands=3, start_levels=[ACE, JOKER_LEVEL])
    found = []
    for prev, hand in zip(rec.hands, rec.hands[1:]):
        for seat, after in hand.levels.levels.items():
            wrong = _wrong(prev.levels.levels[seat], after)
            if wrong is not None:
                found.append((hand, seat, wrong))
    if not found:
        return
    hand, seat, wrong = data.draw(st.sampled_from(found))
    levels = dict(hand.levels.levels)
    levels[seat] = wrong
    lines = text.split("\n")
    lines[hand.levels.span.line - 1] = "levels " + " ".join(f"{s} {rank_name(v)}" for s, v in levels.items())
    assert ("SJ524", hand.levels.span.line) in reported("\n".join(lines))
