"""How the engine reads each ``declare`` line (replay.declare DeclResult.acts,
HandResult.declaration_acts), which reports word instead of guessing from the
seats (RULES §4: declaring, reinforcing 自保 / 对家保, overriding)."""

import pytest

from notation.model import Declaration, Hand, Levels, Record, Tag
from primitives.cards import parse_cards as C
from replay.declare import act_text, resolve_declarations
from replay.declare_state import DeclEvent
from replay.game import replay
from replay.ruleset import preset

STANDARD = preset("standard")

CASES = [
    # (events, acts)                                          RULES §4 under `standard`
    ([("N", "S2")], ["declare"]),
    ([("N", "S2"), ("N", "S2 S2")], ["declare", "reinforce"]),            # 自保: a pair of one's own card
    ([("N", "S2"), ("N", "S2 S2"), ("W", "H2 H2")], ["declare", "reinforce", "refused"]),  # a reinforced pair stands
    ([("N", "S2"), ("W", "H2 H2")], ["declare", "override"]),
    ([("N", "S2"), ("N", "H2 H2")], ["declare", "override"]),              # a seat overriding itself
    ([("N", "S2"), ("W", "H2")], ["declare", "refused"]),                  # one card does not beat one card
    ([("N", "S2"), ("W", "H2 H2"), ("N", "S2 BJ BJ")], ["declare", "override", "override"]),
]


@pytest.mark.parametrize(("events", "acts"), CASES)
def test_acts(events, acts):
    r = resolve_declarations(STANDARD, 2, [DeclEvent(s, C(c)) for s, c in events], first_hand=True,
                             dealer=None, first_drawer="N", deal=None, kitty=None, declare_none=False)
    assert r.acts == acts


def test_partner_reinforcement():
    # seed 001 "Partner Keep": the partner's matching card makes the pair (对家保)
    rs = STANDARD.model_copy(update={"partner_reinforce": True})
    r = resolve_declarations(rs, 2, [DeclEvent("N", C("S2")), DeclEvent("S", C("S2"))], first_hand=True,
                             dealer=None, first_drawer="N", deal=None, kitty=None, declare_none=False)
    assert r.acts == ["declare", "partner"]
    assert act_text("partner") == "reinforced the partner's declaration with"


def test_hand_result_carries_the_acts_for_reports():
    from analyzer.report.hands import _declared_how
    hand = Hand(number=1, levels=Levels(ns=2, ew=2), dealer="?",
                events=[Declaration(seat="N", cards=C("S2")), Declaration(seat="W", cards=C("H2")),
                        Declaration(seat="N", cards=C("S2 S2"))])
    m = replay(Record(tags=[Tag(name="Rules", value="standard")], hands=[hand]))
    h = m.hands[0]
    assert h.declaration_acts == ("declare", "refused", "reinforce")
    # the old guess from the seats read W's refused card as an override
    assert _declared_how(hand, h) == "N declared S2; W tried H2 (refused); N reinforced with S22"
