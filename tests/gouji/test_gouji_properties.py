"""Hypothesis properties of the Gouji engine (GOUJI.md §9):

* every generated game (any preset, any seed) replays with no diagnostic;
* each single mutation of a legal game is reported with the expected code on
  the mutated line: a card not held (GJ203), mixed ranks (GJ301), a set that
  does not beat (GJ303), an action out of turn (GJ401) or an answer to a 够级
  play by a seat not asked (GJ402), wrong places (GJ501) or score (GJ502).
"""

from __future__ import annotations

from functools import lru_cache

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from analyzer.games.gouji.generate import generate_match
from notation import gjn
from primitives.gjcards import make
from replay.gouji import replay
from replay.gouji.rules import PRESETS

PRESET = st.sampled_from(sorted(PRESETS))
SEED = st.integers(0, 10_000)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=64)
def legal_text(preset: str, seed: int) -> str:
    return gjn.write(generate_match(preset, 1, seed))


def parse(text: str):
    records, diags = gjn.parse(text)
    assert diags == []
    return records[0]


def findings(record) -> set[tuple[str, int]]:
    text = gjn.write(record)
    rec = parse(text)
    return {(d.code, d.line) for d in replay(rec).diagnostics}, rec


def last_game(record):
    return record.games[-1]



@SETTINGS
@given(PRESET, SEED)
def test_generated_games_replay_clean(preset, seed):
    rec = parse(legal_text(preset, seed))
    rp = replay(rec)
    assert rp.diagnostics == []
    assert all(g.complete for g in rp.games)


@SETTINGS
@given(PRESET, SEED, st.data())
def test_card_not_held(preset, seed, data):
    rec = parse(legal_text(preset, seed))
    g = last_game(rec)
    plays = [i for i, a in enumerate(g.actions) if a.kind == "play" and not a.fail]
    i = data.draw(st.sampled_from(plays))
    a = g.actions[i]
    seat_cards = {c >> 3 for c in g.seat_cards(a.seat).cards}
    missing = [r for r in range(4, 15) if r not in seat_cards]
    assume(missing)
    r = data.draw(st.sampled_from(missing))
    base = [c for c in a.cards if c >> 3 < 15]
    assume(base)
    new = tuple(make(r) if c >> 3 < 15 else c for c in a.cards)
    g.actions[i] = a.model_copy(update={"cards": new})
    found, rec2 = findings(rec)
    line = last_game(rec2).actions[i].span.line
    assert ("GJ203", line) in found


@SETTINGS
@given(PRESET, SEED, st.data())
def test_mixed_ranks(preset, seed, data):
    rec = parse(legal_text(preset, seed))
    g = last_game(rec)
    plays = [i for i, a in enumerate(g.actions)
             if a.kind == "play" and sum(1 for c in a.cards if c >> 3 < 15) >= 2]
    assume(plays)
    i = data.draw(st.sampled_from(plays))
    a = g.actions[i]
    base = next(c >> 3 for c in a.cards if c >> 3 < 15)
    other = 4 if base != 4 else 5
    cards = list(a.cards)
    k = next(j for j, c in enumerate(cards) if c >> 3 < 15)
    cards[k] = make(other)
    g.actions[i] = a.model_copy(update={"cards": tuple(cards)})
    found, rec2 = findings(rec)
    line = last_game(rec2).actions[i].span.line
    assert ("GJ301", line) in found


@SETTINGS
@given(st.sampled_from(["gouji", "gouji-online"]), SEED, st.data())
def test_set_that_does_not_beat(preset, seed, data):
    rec = parse(legal_text(preset, seed))
    rp = replay(rec)
    tl = rp.games[-1].timeline
    g = last_game(rec)
    # passes answering a top (not the ignored ones): replace with 3s of the top's size
    cands = [i for i in range(1, len(tl)) if tl[i].kind == "pass" and not tl[i].ignored and tl[i - 1].top]
    assume(cands)
    i = data.draw(st.sampled_from(cands))
    n = len(tl[i - 1].top.replace(" ", "").replace("10", "T").replace("BJ", "B").replace("LJ", "L"))
    a = g.actions[i]
    g.actions[i] = a.model_copy(update={"kind": "play", "cards": (make(3),) * n})
    found, rec2 = findings(rec)
    line = last_game(rec2).actions[i].span.line
    assert ("GJ303", line) in found


@SETTINGS
@given(PRESET, SEED, st.data())
def test_out_of_turn(preset, seed, data):
    rec = parse(legal_text(preset, seed))
    rp = replay(rec)
    tl = rp.games[-1].timeline
    g = last_game(rec)
    cands = [i for i in range(1, len(tl)) if tl[i].kind == "pass" and not tl[i].ignored
             and len(tl[i - 1].ask) >= 2 and tl[i - 1].ask[1] != tl[i - 1].ask[0]]
    assume(cands)
    i = data.draw(st.sampled_from(cands))
    other = tl[i - 1].ask[1]
    a = g.actions[i]
    g.actions[i] = a.model_copy(update={"seat": other})
    found, rec2 = findings(rec)
    line = last_game(rec2).actions[i].span.line
    want = "GJ402" if tl[i - 1].target else "GJ401"
    assert (want, line) in found


@SETTINGS
@given(PRESET, SEED, st.booleans())
def test_wrong_places_or_score(preset, seed, places):
    rec = parse(legal_text(preset, seed))
    g = last_game(rec)
    if places:
        seats = list(g.result.seats)
        seats[0], seats[1] = seats[1], seats[0]   # 头科 and 二科 are always decided by play
        g.result = g.result.model_copy(update={"seats": tuple(seats)})
    else:
        g.score = g.score.model_copy(update={"odd": g.score.odd + 1})
    found, rec2 = findings(rec)
    g2 = last_game(rec2)
    want = ("GJ501", g2.result.span.line) if places else ("GJ502", g2.score.span.line)
    assert want in found


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_record_replays_without_raising(data):
    """No record crashes the engine (COMMON: no input may crash the tool)."""
    from tests.gouji.gjn_strategies import records

    record = data.draw(records())
    rp = replay(record)
    for d in rp.diagnostics:
        assert d.code.startswith(("GJ", "SJ"))


@SETTINGS
@given(PRESET, SEED, st.data())
def test_truncated_games_replay_without_raising(preset, seed, data):
    rec = parse(legal_text(preset, seed))
    g = last_game(rec)
    k = data.draw(st.integers(0, len(g.actions)))
    del g.actions[k:]
    rp = replay(rec)
    codes = {d.code for d in rp.diagnostics}
    assert codes <= {"GJ501", "GJ502", "GJ503"}


OPTION_VALUES = {
    "compare": ["position", "wild"], "burn_order": ["seed", "online"], "last_word": ["none", "opposite"],
    "yield": ["seed", "online", "off"], "chaos": ["four", "off"], "first_leader": ["seed", "liang3", "given"],
    "tribute": ["off", "on"], "tribute_cards": ["jokers_twos", "any"], "team_tribute": ["optional", "always"],
    "sweep_tribute": ["none", "opposite", "normal"], "revolution": ["on", "off"],
    "revolution_check": ["dealt", "held"], "score": ["positive", "zero_sum"], "let_on": ["any", "gouji"],
    "fanche": ["single", "double"],
}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PRESET, SEED, st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in OPTION_VALUES.items()}))
def test_generated_games_under_any_options_replay_clean(preset, seed, overrides):
    """Every §8 option value, in any mix, gives legal games (tribute and 还贡 too)."""
    rec = parse(gjn.write(generate_match(preset, 3, seed, overrides)))
    rp = replay(rec)
    assert rp.diagnostics == []


@SETTINGS
@given(PRESET, SEED, st.data())
def test_illegal_answer_to_a_gouji_play(preset, seed, data):
    """A seat answering a 够级 play when the ask order (§4 burn_order) asks
    another: GJ402, not GJ401 (§9)."""
    rec = parse(legal_text(preset, seed))
    tl = replay(rec).games[-1].timeline
    g = last_game(rec)
    cands = [i for i in range(1, len(tl)) if not tl[i].ignored and tl[i - 1].target and len(tl[i - 1].ask) >= 2
             and tl[i - 1].ask[1] != tl[i - 1].ask[0]]
    assume(cands)
    i = data.draw(st.sampled_from(cands))
    g.actions[i] = g.actions[i].model_copy(update={"seat": tl[i - 1].ask[1], "kind": "pass", "cards": (),
                                                   "burn": False, "fail": False, "finish": None})
    found, rec2 = findings(rec)
    line = last_game(rec2).actions[i].span.line
    assert ("GJ402", line) in found
    assert ("GJ401", line) not in found
