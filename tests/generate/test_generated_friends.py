"""Generated finding-friends matches (tables of 4–8): every one replays clean,
and a corruption of a friend line, a player's level or a play is caught at the
corrupted line (hypothesis properties)."""

from __future__ import annotations

import pytest
from gen_helpers import check_accounting, check_clean
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import notation
from analyzer.play.generate import generate_match
from replay.game import replay

SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


def game(seed: int, players: int, hands: int = 2):
    text = notation.write(generate_match("shengji-io-friends", hands=hands, seed=seed, players=players))
    records, diags = notation.parse(text)
    assert diags == []
    return text, records[0]


def reported(text: str) -> set[tuple[str, int]]:
    records, diags = notation.parse(text)
    m = replay(records[0])
    return {(d.code, d.line) for d in diags} | {(d.code, d.line) for d in m.diagnostics}


def replace_line(text: str, line: int, new: str) -> str:
    lines = text.split("\n")
    lines[line - 1] = new
    return "\n".join(lines)


@pytest.mark.parametrize("players", [5, 6, 8])
def test_five_six_and_eight_player_matches_replay_clean(players):
    for seed in range(3):
        rec = generate_match("shengji-io-friends", hands=3, seed=seed, players=players)
        check_clean(rec)
        check_accounting(rec)
        m = replay(rec)
        h = m.hands[0]
        assert len(h.seats) == players and all(len(t.plays) == players for t in h.tricks)
        # the reveals written by the generator are the engine's
        for call, res in zip(rec.hands[0].friends, h.friends):
            assert call.joined == (res.seat or "none") and call.at == res.trick


@SETTINGS
@given(st.integers(0, 10 ** 6), st.integers(4, 8))
def test_property_any_table_replays_clean(seed, players):
    rec = generate_match("shengji-io-friends", hands=2, seed=seed, players=players)
    check_clean(rec)
    text = notation.write(rec)
    records, diags = notation.parse(text)
    assert diags == [] and notation.write(records[0]) == text
    assert notation.content_equal(notation.from_json(notation.to_json(records[0]))[0], records[0])


@SETTINGS
@given(st.integers(0, 10 ** 6), st.sampled_from([5, 6, 8]), st.data())
def test_property_a_wrong_reveal_trick_is_caught(seed, players, data):
    text, rec = game(seed, players)
    calls = [c for h in rec.hands for c in h.friends if c.joined not in (None, "none") and c.at]
    assume(calls)
    call = data.draw(st.sampled_from(calls))
    n_tricks = next(len(h.tricks) for h in rec.hands if call in h.friends)
    at = data.draw(st.integers(1, n_tricks).filter(lambda k: k != call.at))
    line = text.split("\n")[call.span.line - 1]
    new = line.replace(f"@{call.at}", f"@{at}")
    assert ("SJ523", call.span.line) in reported(replace_line(text, call.span.line, new))


@SETTINGS
@given(st.integers(0, 10 ** 6), st.sampled_from([5, 6, 8]), st.data())
def test_property_a_wrong_player_level_is_caught(seed, players, data):
    text, rec = game(seed, players)
    h2 = rec.hands[1]
    seat = data.draw(st.sampled_from(sorted(h2.levels.levels)))
    levels = dict(h2.levels.levels)
    levels[seat] = levels[seat] + 1 if levels[seat] < 14 else 2
    new = "levels " + " ".join(f"{s} {notation_rank(v)}" for s, v in levels.items())
    assert ("SJ524", h2.levels.span.line) in reported(replace_line(text, h2.levels.span.line, new))


@SETTINGS
@given(st.integers(0, 10 ** 6), st.sampled_from([5, 6, 8]), st.data())
def test_property_an_impossible_ordinal_is_caught(seed, players, data):
    text, rec = game(seed, players)
    calls = [c for h in rec.hands for c in h.friends]
    assume(calls)
    call = data.draw(st.sampled_from(calls))
    line = text.split("\n")[call.span.line - 1]
    ordinal = line.split()[1]
    decks = {5: 2, 6: 3, 8: 4}[players]
    new = line.replace(ordinal, f"{decks + 1}th", 1)
    assert ("SJ521", call.span.line) in reported(replace_line(text, call.span.line, new))


@SETTINGS
@given(st.integers(0, 10 ** 6), st.sampled_from([5, 6, 8]), st.data())
def test_property_a_play_out_of_turn_is_caught(seed, players, data):
    # swap two follows of a trick: both seats now play out of turn (SJ401 on the trick's line)
    text, rec = game(seed, players, hands=1)
    h = rec.hands[0]
    t = data.draw(st.sampled_from(h.tricks))
    i = data.draw(st.integers(1, players - 2))
    a, b = t.plays[i], t.plays[i + 1]
    line = text.split("\n")[t.span.line - 1]
    pa = line[a.span.column - 1:a.span.end_column - 1]
    pb = line[b.span.column - 1:b.span.end_column - 1]
    new = line[:a.span.column - 1] + pb + line[a.span.end_column - 1:b.span.column - 1] + pa + \
        line[b.span.end_column - 1:]
    assert ("SJ401", t.span.line) in reported(replace_line(text, t.span.line, new))


def notation_rank(v: int) -> str:
    from primitives.cards import rank_name
    return rank_name(v)
