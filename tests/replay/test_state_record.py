"""HandState's lenient record mode (replay.record.RecordState), which replay.game's
trick loop runs on.

Table-driven cases apply one recorded trick (or a few) to a hand-built
position and check the Faults it reports (code, play, check) and the trick it
makes; each cites the RULES.md section (or NOTATION.md rule) the check comes
from. Generated matches check that the record mode, fed a record's plays,
files the same tricks as the strict HandState.push (winners, points, plays,
penalties) and as replay.game, and that the strict API goes on from a
recorded position (push, pop back across recorded tricks, copy).
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.play.generate import generate_match
from primitives.cards import parse_cards as C
from primitives.cards import points
from replay.game import replay
from replay.order import Order
from replay.record import RecordState
from replay.recorded import FAULTS, Recorded
from replay.ruleset import preset
from replay.state import HandState

RS = preset("standard")
ORDER = Order.for_ruleset(2, 1, RS)          # level 2, ♥ trump

#: the position most cases start from: N deals and leads
BASE = {"N": "SA S3", "W": "SK C4", "S": "S10 D5", "E": "S5 D6"}


def state(hands=None, dealer="N", known=None, seats=("N", "W", "S", "E"), friends=False, rs=RS):
    hands = BASE if hands is None else hands
    return RecordState(rs, ORDER, {s: C(c) for s, c in hands.items()}, dealer=dealer, seats=seats,
                       known=known, friends=friends)


def P(seat, cards, attempted=None):
    return Recorded(seat, C(cards), C(attempted) if attempted else None)


def faults(rt):
    return [(f.code, f.play, f.what) for f in rt.faults]


CASES = [
    # (id, source, hands, known, plays, more, faults (code, play, what), winner)
    ("clean", "RULES §6 Following, Winning", None, None,
     [P("N", "SA"), P("W", "SK"), P("S", "S10"), P("E", "S5")], False, [], "N"),
    ("wrong leader", "RULES §6: the dealer leads trick 1", None, None,
     [P("W", "SK"), P("S", "S10"), P("E", "S5"), P("N", "SA")], False,
     [("SJ401", 0, "leader")], "N"),
    ("out of turn", "RULES §1/§6: play goes round the table N W S E", None, None,
     [P("N", "SA"), P("S", "S10"), P("W", "SK"), P("E", "S5")], False,
     [("SJ401", 1, "out_of_turn"), ("SJ401", 2, "out_of_turn"), ("SJ401", 3, "out_of_turn")], "N"),
    ("plays twice", "RULES §6: one play per seat and trick", None, None,
     [P("N", "SA"), P("W", "SK"), P("W", "C4"), P("E", "S5")], False,
     [("SJ401", 2, "twice"), ("SJ401", 3, "out_of_turn")], "N"),
    ("seat missing, more tricks follow", "RULES §6: every seat plays to each trick", None, None,
     [P("N", "SA"), P("W", "SK"), P("S", "S10")], True, [("SJ401", -1, "missing_seats")], "N"),
    ("seat missing, last trick written", "NOTATION Omissions: a record may stop mid-trick", None, None,
     [P("N", "SA"), P("W", "SK"), P("S", "S10")], False, [], "N"),
    ("revoke", "RULES §6 Following 2: all n cards from the led suit when held", None, None,
     [P("N", "SA"), P("W", "C4"), P("S", "S10"), P("E", "S5")], False, [("SJ403", 1, "follow")], "N"),
    ("void may discard", "RULES §6 Following 2: fill with any cards", {**BASE, "W": "C4 C5"}, None,
     [P("N", "SA"), P("W", "C4"), P("S", "S10"), P("E", "S5")], False, [], "N"),
    ("wrong count", "RULES §6 Following 1: play exactly n cards", None, None,
     [P("N", "SA"), P("W", "SK C4"), P("S", "S10"), P("E", "S5")], False, [("SJ402", 1, "count")], "N"),
    ("card not held", "RULES §1: a seat plays cards it holds", None, None,
     [P("N", "SA"), P("W", "SQ"), P("S", "S10"), P("E", "S5")], False, [("SJ203", 1, "not_held")], "N"),
    ("card not held, hand not known", "NOTATION Omissions: checks only where certain", None,
     {"N": True, "W": False, "S": True, "E": True},
     [P("N", "SA"), P("W", "SQ"), P("S", "S10"), P("E", "S5")], False, [], "N"),
    ("lead mixes suits", "RULES §6: a lead is all one effective suit", {**BASE, "N": "SA H3"}, None,
     [P("N", "SA H3"), P("W", "SK C4"), P("S", "S10 D5"), P("E", "S5 D6")], False,
     [("SJ405", 0, "mixed")], "N"),
    ("throw should fail", "RULES §6 Throw check: W's ♠K beats the ♠3", None, None,
     [P("N", "SA S3"), P("W", "SK C4"), P("S", "S10 D5"), P("E", "S5 D6")], False,
     [("SJ406", 0, "should_fail")], "N"),
    ("failed throw that stands", "RULES §6 Throw check: nobody beats ♠A or ♠K", {**BASE, "N": "SA SK", "W": "S3 C4"},
     None, [P("N", "SK", "SA SK"), P("W", "S3"), P("S", "S10"), P("E", "S5")], False,
     [("SJ407", 0, "stands")], "N"),
    ("wrong forced unit", "RULES §6 Throw check: the smallest failing unit is played", None, None,
     [P("N", "SA", "SA S3"), P("W", "SK"), P("S", "S10"), P("E", "S5")], False,
     [("SJ407", 0, "wrong_forced")], "N"),
    ("forced unit not from the attempt", "RULES §6 Throw check: the thrower takes the other cards back",
     {**BASE, "N": "SA S3 S4"}, None,
     [P("N", "S4", "SA S3"), P("W", "SK"), P("S", "S10"), P("E", "S5")], False,
     [("SJ407", 0, "wrong_forced"), ("SJ407", 0, "not_from_attempt")], "W"),
    ("single unit written as a failed throw", "RULES §6: several units make a throw", None, None,
     [P("N", "SA", "SA"), P("W", "SK"), P("S", "S10"), P("E", "S5")], False,
     [("SJ407", 0, "not_a_throw")], "N"),
    ("follower writes a throw", "RULES §6: only the leader throws", None, None,
     [P("N", "SA"), P("W", "SK", "SK C4"), P("S", "S10"), P("E", "S5")], False,
     [("SJ407", 1, "follower_throw")], "N"),
    ("trump ruffs a plain lead", "RULES §6 Winning: all trump beats a plain lead", {**BASE, "E": "H5 D6"}, None,
     [P("N", "SA"), P("W", "SK"), P("S", "S10"), P("E", "H5")], False, [], "E"),
]


@pytest.mark.parametrize(("source", "hands", "known", "plays", "more", "want", "winner"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_record_trick_faults(source, hands, known, plays, more, want, winner):
    s = state(hands, known=known)
    rt = s.record_trick(plays, more)
    assert faults(rt) == want, source
    assert rt.winner == winner
    assert rt.number == 1 and s.trick_number == 2
    assert all(f.code in FAULTS[f.what][0].split("/") for f in rt.faults)
    assert s.leader == winner and not s.uncertain
    if any(f.what == "not_held" for f in rt.faults):
        assert not s.all_held


def test_record_trick_values_for_the_messages():
    s = state()
    rt = s.record_trick([P("W", "SK"), P("S", "S10"), P("E", "S5"), P("N", "SA")])
    assert rt.faults[0].value == "N"                                   # who should have led
    s = state()
    rt = s.record_trick([P("N", "SA"), P("W", "SQ"), P("S", "S10"), P("E", "S5")])
    assert list(rt.faults[0].value) == list(C("SQ")) and not s.all_held  # the cards W lacked
    s = state()
    rt = s.record_trick([P("N", "SA S3"), P("W", "SK C4"), P("S", "S10 D5"), P("E", "S5 D6")])
    chk = rt.faults[0].value
    assert chk.blockers[0].seat == "W" and tuple(chk.forced.cards) == C("S3")
    assert rt.blockers == tuple(chk.blockers) and rt.is_throw and not rt.failed


def test_points_penalty_and_sides():
    # RULES §6: a failed throw costs its team (per_card: 10 a card); §7: the attackers' tricks
    per_card = RS.model_copy(update={"throw_penalty": "per_card"})
    s = state(rs=per_card)
    rt = s.record_trick([P("N", "S3", "SA S3"), P("W", "SK"), P("S", "S10"), P("E", "S5")])
    assert rt.failed and rt.winner == "W" and rt.points == 25 and rt.to_attackers
    assert rt.penalty == 20                       # N (dealer's side) threw: added for the attackers
    assert s.attacker_points == 25 + 20 and s.tricks[0].penalty == 20
    # a finding-friends table: no side known yet, the penalty unsigned
    f = state(friends=True, rs=per_card)
    rt = f.record_trick([P("N", "S3", "SA S3"), P("W", "SK"), P("S", "S10"), P("E", "S5")])
    assert rt.penalty == 20 and not rt.to_attackers
    # no dealer known: nobody is told they lead out of turn, and no side scores
    u = state(dealer=None)
    rt = u.record_trick([P("W", "SK"), P("S", "S10"), P("E", "S5"), P("N", "SA")])
    assert faults(rt) == [] and rt.winner == "N" and not rt.to_attackers and rt.penalty == 0


def test_unknown_trick_stops_the_checks_that_depend_on_it():
    # NOTATION Omissions: a trick written without plays keeps its cards in the hands
    s = state({"N": "SA S3", "W": "SK C4", "S": "S10 D5", "E": "S5 D6"})
    rt = s.record_trick([], True)
    assert rt.winner is None and rt.number == 1 and s.uncertain and s.trick_number == 2
    rt = s.record_trick([P("W", "C4"), P("S", "SQ"), P("E", "D6"), P("N", "S3")])
    assert faults(rt) == [] and rt.number == 2      # leader, follows, cards held: not checked
    assert not s.all_held                           # (S's ♠Q was not there)


def test_absurd_play_and_trick_after_the_end():
    s = state()
    rt = s.record_trick([P("N", " ".join(["SA"] * 120))])
    assert faults(rt) == [("SJ402", 0, "absurd")] and rt.faults[0].value == 120 and rt.winner is None
    assert s.uncertain and not s.all_held
    one_rs = RS.model_copy(update={"kitty_size": 108 - 4})   # a hand of one card each
    one = RecordState(one_rs, ORDER, {s: C(c) for s, c in {"N": "SA", "W": "SK", "S": "S10", "E": "S5"}.items()},
                      dealer="N")
    one.record_trick([P("N", "SA"), P("W", "SK"), P("S", "S10"), P("E", "S5")], True)
    rt = one.record_trick([P("N", "SA"), P("W", "SK"), P("S", "S10"), P("E", "S5")])
    assert faults(rt)[0] == ("SJ409", -1, "after_end")
    assert ("SJ203", 0, "not_held") in faults(rt)


def test_strangers_are_left_out_at_a_friends_table():
    # finding friends (replay.friends): a seat not at the table is reported there (SJ525); its plays are left out
    seats = ("P1", "P2", "P3", "P4", "P5")
    hands = {"P1": "SA", "P2": "SK", "P3": "S10", "P4": "S5", "P5": "S6"}
    s = state(hands, dealer="P1", seats=seats, friends=True)
    rt = s.record_trick([P("P1", "SA"), P("P9", "SQ"), P("P2", "SK"), P("P3", "S10"), P("P4", "S5"),
                         P("P5", "S6")])
    assert faults(rt) == [("SJ525", -1, "stranger")] and rt.faults[0].value == "P9"
    assert [p.seat for p in rt.plays] == list(seats) and rt.winner == "P1" and rt.points == 25
    rt = s.record_trick([P("P8", "SQ")])          # nothing left: skipped, not unknown
    assert rt.winner is None and not s.uncertain and s.trick_number == 3


def test_faults_table_is_complete():
    import inspect

    from replay import record as module
    from replay import recorded
    src = "".join(inspect.getsource(f) for f in (module.RecordState, recorded.turn_faults, recorded.throw_faults))
    used = set(__import__("re").findall(r'Fault\("(?:SJ\d+)", [^,]+, "(\w+)"', src))
    used |= {"follow"}            # (its code is the follow check's: SJ403 or SJ404)
    assert used == set(FAULTS)


# -- the record mode against the strict API and replay.game on generated matches --------------------

def _start(h):
    return {s: h.start_hands[s] for s in h.seats}


def _check_hand(h):
    """Record mode and strict push agree on every trick; the strict API goes on from a recorded position."""
    strict = HandState(h.ruleset, h.order, _start(h), leader=h.dealer, dealer=h.dealer,
                       kitty_points=points(h.bury or ()))
    for t in h.tricks:
        for p in t.plays:
            strict.push(p.attempted or p.cards)
    rec = RecordState(h.ruleset, h.order, _start(h), dealer=h.dealer, kitty_points=points(h.bury or ()))
    answers = rec.record_tricks([t.plays for t in h.tricks])
    assert [a.faults for a in answers] == [[] for _ in answers]
    assert [(a.winner, a.points, a.penalty, a.to_attackers) for a in answers] == [
        (t.winner, t.points, t.penalty, t.to_attackers) for t in h.tricks]
    assert rec.tricks == strict.tricks
    assert rec.is_over and rec.final_points == strict.final_points == h.attacker_points
    assert rec.kitty_multiplier == strict.kitty_multiplier
    # back to the start play by play (pop reopens the recorded tricks), then forward strictly
    copy = rec.copy()
    while rec.tricks or rec.plays:
        rec.pop()
    assert {k: +Counter(v) for k, v in rec.holdings.items()} == {k: Counter(v) for k, v in h.start_hands.items()}
    for t in h.tricks:
        for p in t.plays:
            rec.push(p.attempted or p.cards)
    assert rec.tricks == strict.tricks and copy.tricks == strict.tricks and copy.is_over


def _complete_hands(match):
    return [h for h in match.hands if not h.redeal and h.complete and h.team is None]


@pytest.mark.parametrize("rules", ["standard", "campus", "botzone", "titanic", "one-deck"])
def test_record_mode_agrees_with_push_and_replay(rules):
    match = replay(generate_match(rules, hands=2, seed=21))
    hands = _complete_hands(match)
    assert hands and not match.errors
    for h in hands:
        _check_hand(h)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["standard", "one-deck", "tractor97", "shengji-io"]))
def test_record_mode_agrees_property(seed, rules):
    for h in _complete_hands(replay(generate_match(rules, hands=1, seed=seed))):
        _check_hand(h)


def test_record_mode_part_way_then_strict():
    # record the first half of a hand, then play the rest by push: the same hand as all strict
    match = replay(generate_match("standard", hands=1, seed=4))
    h = _complete_hands(match)[0]
    half = len(h.tricks) // 2
    rec = RecordState(h.ruleset, h.order, _start(h), dealer=h.dealer)
    rec.record_tricks([t.plays for t in h.tricks[:half]], more=True)
    assert rec.trick_number == half + 1 and rec.turn == h.tricks[half].leader
    lead = h.tricks[half].plays[0]
    assert rec.is_legal(lead.attempted or lead.cards)
    for t in h.tricks[half:]:
        for p in t.plays:
            rec.push(p.attempted or p.cards)
    assert [t.winner for t in rec.tricks] == [t.winner for t in h.tricks]
    assert rec.final_points == h.attacker_points
    rec.pop()
    with pytest.raises(ValueError):
        rec.record_trick([])          # a trick in progress: record mode refuses (a caller's error)
