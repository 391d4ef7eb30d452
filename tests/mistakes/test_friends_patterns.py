"""The pattern rules on finding-friends hands (issue 32): SJ604, SJ605 and
SJ606 fire only on the sides as the deciding player knew them at that play
(rules/_shared.known_sides), never on the teams the whole record shows; a
pattern is attached to its valued decision as an explanation (full.py).

The hand-made hands (five players, one deck, three cards each; the kitty of
39 cards buried by the dealer P1; trump ♠, level 2). Trick 1 is the same in
both: P1 ♣3, P2 ♣A, P3 ♣4, P4 ♣5, P5 ♣6: P2 wins. The call decides who knows
what in trick 2:

* ``friend 1st CA``: P2's ♣A in trick 1 reveals P2 as P1's friend; from
  trick 2 on every side is known (the only call is answered).
* ``friend 1st D4``: P2 is revealed only by the ♦4 in trick 3; in trick 2
  P2's side is unknown to everyone but P2, although the record's final
  team is P1 and P2 as well.

Hand F (feed and withhold), trick 2: P2 ♥A (sure to win: everyone follows
hearts), P3 ♥5 (held ♥7: 5 points fed to the dealers' side, SJ604), P4 ♥3,
P5 ♥4, P1 ♥6 (held ♥10: kept back from the partner, SJ605); trick 3: P2 ♦4,
P3 ♥7, P4 ♦K, P5 ♦6, P1 ♥10: P4 wins the ♥10 for the attackers.

Hand R (ruff), trick 2: P2 ♥A, P3 ♥3, P4 ♥4, P5 ♥6, P1 ♠3 (void in hearts,
held ♦8: ruffed the partner's sure trick, SJ606); trick 3: P1 ♦8, P2 ♦4,
P3 ♦5, P4 ♦6, P5 ♦7 (the discard twin: P1 ♦8 in trick 2, ♠3 in trick 3).
"""

from __future__ import annotations

from collections import Counter

import pytest

from analyzer.review.mistakes import review_full
from analyzer.review.mistakes.base import one_per_play, run_rules
from analyzer.review.mistakes.friends import FriendsContext
from analyzer.review.mistakes.rules import load
from notation import parse
from primitives.cards import deck_list, to_str
from primitives.cards import parse_cards as C
from replay.game import replay

load()

HEAD = '[Rules "shengji-io-friends"] [Rule.decks "1"] [Rule.kitty_size "39"]\n'
TRICK1 = "1. P1: C3  P2: CA  P3: C4  P4: C5  P5: C6"
HAND_F = [TRICK1, "2. P2: HA  P3: {p3}  P4: H3  P5: H4  P1: {p1}",
          "3. P2: D4  P3: {p3b}  P4: DK  P5: D6  P1: {p1b}"]
HAND_R = [TRICK1, "2. P2: HA  P3: H3  P4: H4  P5: H6  P1: {p1}",
          "3. P1: {p1b}  P2: D4  P3: D5  P4: D6  P5: D7"]
REVEALED, UNREVEALED = "1st CA", "1st D4"


def text_of(tricks: list[str], call: str) -> str:
    played: Counter[int] = Counter()
    for t in tricks:
        played.update(C(" ".join(w for w in t.split()[1:] if not w.startswith("P"))))
    left = Counter(deck_list(1))
    left.subtract(played)
    bury = " ".join(to_str(c) for c in sorted(left.elements()))
    return (f"{HEAD}\nhand 1\nlevels P1 2 P2 2 P3 2 P4 2 P5 2\ndealer P1\ntrump S\n"
            f"bury P1: {bury}\nfriend {call}\n" + "\n".join(tricks) + "\n")


def hand_f(call: str, *, feed: bool = True, withhold: bool = True) -> str:
    p3, p3b = ("H5", "H7") if feed else ("H7", "H5")
    p1, p1b = ("H6", "H10") if withhold else ("H10", "H6")
    return text_of([t.format(p3=p3, p3b=p3b, p1=p1, p1b=p1b) for t in HAND_F], call)


def hand_r(call: str, *, ruff: bool = True) -> str:
    if ruff:
        return text_of([t.format(p1="S3", p1b="D8") for t in HAND_R], call)
    # the discard: P2 keeps the trick and leads trick 3, where P1 ruffs
    return text_of([TRICK1, HAND_R[1].format(p1="D8"), "3. P2: D4  P3: D5  P4: D6  P5: D7  P1: S3"], call)


def replayed(text: str):
    records, diags = parse(text)
    assert diags == []
    m = replay(records[0])
    assert [d.code for d in m.diagnostics if d.severity == "error"] == []
    return records[0], m


def patterns(text: str) -> set[tuple[str, int | None, str | None]]:
    """(code, trick, seat) of the pattern findings on the plays of hand 1."""
    record, m = replayed(text)
    ctx = FriendsContext(m.hands[0], record_hand=record.hands[0], match=m)
    return {(f.code, f.trick, f.seat) for f in one_per_play(run_rules(ctx, None)) if f.target == "play"}


def test_the_hands_replay_as_described():
    for text in (hand_f(REVEALED), hand_f(UNREVEALED), hand_r(REVEALED), hand_r(UNREVEALED)):
        _, m = replayed(text)
        h = m.hands[0]
        assert h.team == ("P1", "P2")   # the record's final team: the same in every hand
        assert h.tricks[0].winner == "P2"
    _, m = replayed(hand_f(REVEALED))
    assert [t.winner for t in m.hands[0].tricks] == ["P2", "P2", "P4"]
    _, m = replayed(hand_r(REVEALED))
    assert [t.winner for t in m.hands[0].tricks] == ["P2", "P1", "P1"]


# (hand text, pattern expected on trick 2, or None: must not fire). Source: each rule's
# docstring (rules/sj60x_*.py) with the sides as the player knew them (rules/_shared.py).
CASES = [
    # SJ604: P3, a known attacker once the only call is answered, feeds ♥5 to the friend's ♥A
    ("sj604 revealed: fires", hand_f(REVEALED, withhold=False), ("SJ604", 2, "P3")),
    ("sj604 unrevealed: P2's side unknown to P3", hand_f(UNREVEALED, withhold=False), None),
    ("sj604 no feed", hand_f(REVEALED, feed=False, withhold=False), None),
    # SJ605: the dealer keeps ♥10 back from the revealed friend's sure ♥A; P4 wins it in trick 3
    ("sj605 revealed: fires", hand_f(REVEALED, feed=False), ("SJ605", 2, "P1")),
    ("sj605 unrevealed: P2 not yet a partner", hand_f(UNREVEALED, feed=False), None),
    ("sj605 given", hand_f(REVEALED, feed=False, withhold=False), None),
    # SJ606: the dealer ruffs the revealed friend's sure ♥A
    ("sj606 revealed: fires", hand_r(REVEALED), ("SJ606", 2, "P1")),
    ("sj606 unrevealed: P2 not yet a partner", hand_r(UNREVEALED), None),
    ("sj606 discard", hand_r(REVEALED, ruff=False), None),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_pattern_on_a_friends_hand(text: str, expected: tuple[str, int, str] | None):
    got = {f for f in patterns(text) if f[1] == 2}
    assert got == ({expected} if expected else set())


def test_a_seat_that_cannot_answer_the_call_knows_it_is_an_attacker():
    """P3 holds no ♦4 (the card still called): P3 knows it is an attacker,
    but not P2's side, so the feed stays silent; once P2 is revealed (the
    ``1st CA`` hand) it fires (above)."""
    from analyzer.review.mistakes.rules._shared import known_sides
    record, m = replayed(hand_f(UNREVEALED, withhold=False))
    ctx = FriendsContext(m.hands[0], record_hand=record.hands[0], match=m)
    sides = known_sides(ctx, "P3", 1, 1)
    assert sides("P3", "P4") is None         # P4's side: unknown to P3
    assert sides("P1", "P3") is False        # the dealer: an opponent
    assert sides("P2", "P3") is None         # the friend not yet revealed
    assert known_sides(ctx, "P3", 2, 1)("P2", "P3") is False   # revealed by the ♦4 in trick 3
    assert known_sides(ctx, "P2", 1, 0)("P2", "P1") is None    # P2 holds the ♦4: not yet revealed


def test_the_pattern_is_the_decisions_explanation():
    """full.py attaches the pattern to the valued decision (its text, never a
    separate cost), exactly as on a four-seat hand; none on the unrevealed twin."""
    for call, want in ((REVEALED, True), (UNREVEALED, False)):
        record, m = replayed(hand_f(call))
        rv = review_full(m, record=record, samples=4)
        d = {(d.trick, d.seat): d for h in rv.hands for d in h.decisions}
        p3, p1 = d[(2, "P3")], d[(2, "P1")]
        assert bool(p3.explanations) == want and bool(p1.explanations) == want
        if want:
            assert p3.explanations[0].startswith("SJ604 P3 fed ♥5 (5 points) to P2's ♥A")
            assert p1.explanations[0].startswith("SJ605 P1 kept ♥10 back from P2's ♥A")
        for f in rv.findings:
            if f.trick == 2 and f.seat in ("P1", "P3"):
                assert (f.code in ("SJ604", "SJ605")) == want
                assert "points expected" in f.message   # the cost is the expected loss


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES if "revealed" in c[0]],
                         ids=[c[0] for c in CASES if "revealed" in c[0]])
def test_the_same_under_the_held_rule(text: str, expected: tuple[str, int, str] | None):
    """Seed 001's ``held`` rule (the holder is named before play, revealed when
    the card is played): the same table; the holder the engine names before
    play is not known to the others until then."""
    held = text.replace('[Rule.decks "1"]', '[Rule.decks "1"] [Rule.friend_rule "held"]')
    held = held.replace(f"friend {REVEALED}", "friend CA").replace(f"friend {UNREVEALED}", "friend D4")
    assert held != text
    got = {f for f in patterns(held) if f[1] == 2}
    assert got == ({expected} if expected else set())
