"""Tests for replay.declare: every declaration policy and switch (RULES.md §4, §8b).

Each case names its source. Seats: N W S E (deal order), partners N+S, W+E.
"""

from __future__ import annotations

import pytest

from primitives.cards import parse_cards
from replay.bids import declaration_strength
from replay.declare import advance, can_declare, conclude, kitty_trump, legal_declarations, resolve_declarations
from replay.declare_state import DeclEvent, DeclState, start
from replay.order import NT
from replay.ruleset import PRESETS, Ruleset

S, H, D, C = 0, 1, 2, 3


def rules(name: str = "standard", **over) -> Ruleset:
    return Ruleset(**{"name": name, **PRESETS[name], **over})


def ev(seat: str, cards: str, at: int | None = None, *, after_bury: bool = False) -> DeclEvent:
    return DeclEvent(seat, parse_cards(cards), at, after_bury=after_bury)


def run(ruleset: Ruleset, level: int, events, *, first_hand: bool = True, dealer: str | None = None,
        first_drawer: str = "N", deal=None, kitty=None, declare_none: bool = False):
    return resolve_declarations(ruleset, level, list(events), first_hand=first_hand, dealer=dealer,
                                first_drawer=first_drawer, deal=deal, kitty=kitty,
                                declare_none=declare_none)


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


# ---------------------------------------------------------------------------
# table: (id, ruleset, level, events, trump, declarer, dealer, accepted) — first hand
# ---------------------------------------------------------------------------
CASES = [
    # --- standard (seed 000) ---
    ("std-single",                     # seed 000: 亮了黑桃9 → spades; first hand: declarer deals
     rules(), 9, [ev("N", "S9")], S, "N", "N", [True]),
    ("std-pair-overrides-single",      # seed 000 一般反主
     rules(), 9, [ev("N", "S9"), ev("W", "H9 H9")], H, "W", "W", [True, True]),
    ("std-reinforce-beats-pair",       # seed 000 自保: A adds ♠9 after B's ♥9♥9 → spades again
     rules(), 9, [ev("N", "S9"), ev("W", "H9 H9"), ev("N", "S9 S9")], S, "N", "N", [True, True, True]),
    ("std-reinforce-after-overridden-off",  # seed 000 note: 被反主后只能反无主而不可自保
     rules(reinforce_after_overridden=False), 9,
     [ev("N", "S9"), ev("W", "H9 H9"), ev("N", "S9 S9")], H, "W", "W", [True, True, False]),
    ("std-reinforce-while-standing-off-ok",  # RULES §4: the switch only bites after an override
     rules(reinforce_after_overridden=False), 9,
     [ev("N", "S9"), ev("N", "S9 S9")], S, "N", "N", [True, True]),
    ("std-reinforced-only-joker-pair",  # RULES §4: a reinforced declaration only falls to a joker pair
     rules(), 9, [ev("N", "S9"), ev("N", "S9 S9"), ev("W", "H9 H9"), ev("E", "BJ BJ")],
     NT, "E", "E", [True, True, False, True]),
    ("std-pair-cannot-override-pair",   # RULES §4 standard: equal strength
     rules(), 2, [ev("S", "S2 S2"), ev("W", "H2 H2")], S, "S", "S", [True, False]),
    ("std-joker-pair-ends-bidding",     # seed 000: 用两张王牌反无主之后，就不可以再反主了
     rules(), 9, [ev("N", "LJ LJ"), ev("W", "BJ BJ"), ev("S", "S9 S9")], NT, "N", "N",
     [True, False, False]),
    ("std-self-override-on",            # RULES §4: self_override (own single → pair of another suit)
     rules(self_override=True), 9, [ev("N", "S9"), ev("N", "S9 H9 H9")], H, "N", "N", [True, True]),
    ("std-self-override-fresh-set",     # cumulative set not containing the old card: a fresh declaration
     rules(self_override=True), 9, [ev("N", "S9"), ev("N", "H9 H9")], H, "N", "N", [True, True]),
    ("std-self-override-off",
     rules(self_override=False), 9, [ev("N", "S9"), ev("N", "S9 H9 H9")], S, "N", "N", [True, False]),
    ("std-single-vs-single",            # seed 000: an override needs two identical level cards
     rules(), 9, [ev("N", "S9"), ev("W", "H9")], S, "N", "N", [True, False]),
    ("std-same-suit-pair-overrides",    # reading: a pair of the same suit by another seat overrides
     rules(), 9, [ev("N", "S9"), ev("W", "S9 S9")], S, "W", "W", [True, True]),
    ("std-partner-reinforce-on",        # RULES §4 partner_reinforce (对家保) also in standard
     rules(partner_reinforce=True), 9, [ev("N", "S9"), ev("S", "S9"), ev("W", "H9 H9")],
     S, "S", "S", [True, True, False]),
    ("std-partner-reinforce-off",
     rules(partner_reinforce=False), 9, [ev("N", "S9"), ev("S", "S9")], S, "N", "N", [True, False]),
    ("std-first-dealer-first",          # RULES §4 first_dealer: first (seed 002 style)
     rules(first_dealer="first"), 9, [ev("N", "S9"), ev("W", "H9 H9")], H, "W", "N", [True, True]),
    ("std-one-deck-no-override",        # seed 004 one deck: no pairs exist, the first single stands
     rules(decks=1), 9, [ev("N", "S9"), ev("W", "H9")], S, "N", "N", [True, False]),
    ("std-three-decks-more-copies",     # RULES §4 extended (reading): a triple beats a reinforced pair
     rules(decks=3), 9, [ev("N", "S9"), ev("N", "S9 S9"), ev("W", "H9 H9 H9")], H, "W", "W",
     [True, True, True]),
    ("std-joker-pair-over-reinforced-then-nothing",
     rules(), 5, [ev("E", "C5"), ev("E", "C5 C5"), ev("W", "LJ LJ"), ev("E", "C5 C5 BJ BJ")],
     NT, "W", "W", [True, True, True, False]),

    # --- tractor97 (seed 001) ---
    ("t97-first-single-stands",         # seed 001: 第一次亮出的級牌花色為主花色
     rules("tractor97"), 2, [ev("N", "S2"), ev("W", "H2")], S, "N", "N", [True, False]),
    ("t97-override-fixes",              # seed 001: 以上後四者以先出現者為準 — no 自保 after 反主
     rules("tractor97"), 2, [ev("N", "S2"), ev("W", "H2 H2"), ev("N", "S2 S2")], H, "W", "W",
     [True, True, False]),
    ("t97-reinforce-fixes",             # seed 001 自保 fixes the suit: a later pair is refused
     rules("tractor97"), 2, [ev("N", "S2"), ev("N", "S2 S2"), ev("W", "H2 H2")], S, "N", "N",
     [True, True, False]),
    ("t97-direct-pair-fixes",           # seed 001 自保: 或直接亮出某花色的一對級牌
     rules("tractor97"), 2, [ev("W", "H2 H2"), ev("E", "D2 D2")], H, "W", "W", [True, False]),
    ("t97-joker-pair-after-fixed",      # seed 001 反無主: 無論之前亮出的級牌花色為何
     rules("tractor97"), 2, [ev("N", "S2"), ev("W", "H2 H2"), ev("E", "LJ LJ"), ev("S", "BJ BJ")],
     NT, "E", "E", [True, True, True, False]),
    ("t97-joker-override-off",          # seed 001 switch Anti Joker off
     rules("tractor97", joker_override=False), 2, [ev("N", "S2"), ev("E", "LJ LJ")], S, "N", "N",
     [True, False]),
    ("t97-self-override-off",           # seed 001 switch Zi Fan (preset: off)
     rules("tractor97"), 2, [ev("N", "S2"), ev("N", "S2 H2 H2")], S, "N", "N", [True, False]),
    ("t97-self-override-on",
     rules("tractor97", self_override=True), 2, [ev("N", "S2"), ev("N", "S2 H2 H2"), ev("W", "D2 D2")],
     H, "N", "N", [True, True, False]),
    ("t97-partner-reinforce-on",        # seed 001 對家保 fixes the suit
     rules("tractor97", partner_reinforce=True), 2,
     [ev("N", "S2"), ev("S", "S2"), ev("W", "H2 H2")], S, "S", "S", [True, True, False]),
    ("t97-partner-reinforce-off",       # switch Partner Keep off: the partner's single is refused
     rules("tractor97"), 2, [ev("N", "S2"), ev("S", "S2"), ev("W", "H2 H2")], H, "W", "W",
     [True, False, True]),

    # --- campus (seed 002) ---
    ("campus-declare",                  # seed 002 抢报: level card + matching joker; first declarer deals
     rules("campus"), 2, [ev("W", "H2 BJ")], H, "W", "W", [True]),
    ("campus-override-moves-dealer",    # seed 002 反主反打: an override before the kitty makes a new dealer
     rules("campus"), 2, [ev("W", "H2 BJ"), ev("N", "D2 D2 BJ")], D, "N", "N", [True, True]),
    ("campus-strict-order",             # seed 002: ♦ < ♣ < ♥ < ♠ < LJ pair < BJ pair
     rules("campus"), 2,
     [ev("N", "H2 BJ"), ev("W", "C2 C2 LJ"), ev("E", "D2 D2 BJ"), ev("S", "S2 S2 LJ"),
      ev("W", "C2 C2 LJ LJ"), ev("E", "LJ LJ"), ev("N", "H2 BJ BJ")],
     NT, "N", "N", [True, True, False, True, True, False, True]),
    ("campus-declarer-needs-someone-else",  # seed 002: 报主玩家...必须在有其他玩家先进行反主的前提下
     rules("campus"), 2, [ev("N", "H2 BJ"), ev("N", "H2 BJ H2")], H, "N", "N", [True, False]),
    ("campus-declarer-after-someone-else",
     rules("campus"), 2, [ev("N", "H2 BJ"), ev("W", "D2 D2 BJ"), ev("N", "H2 BJ H2")], H, "N", "N",
     [True, True, True]),
    ("campus-ding-zhu",                 # seed 002 定主: pair + joker at once; later only higher
     rules("campus"), 2, [ev("N", "S2 S2 LJ"), ev("W", "H2 H2 BJ"), ev("W", "BJ BJ")], NT, "W", "W",
     [True, False, True]),
    ("campus-plain-after-declared",     # seed 002: once declared only an override changes it
     rules("campus"), 2, [ev("N", "H2 BJ"), ev("W", "S2 LJ")], H, "N", "N", [True, False]),
    ("campus-joker-pair-cannot-declare",  # seed 002: 对王牌不可进行报主
     rules("campus"), 2, [ev("N", "LJ LJ"), ev("W", "C2 LJ")], C, "W", "W", [False, True]),
    ("campus-wrong-joker",              # seed 002: 大王只能报红色主牌、小王只能报黑色主牌
     rules("campus"), 2, [ev("N", "H2 LJ"), ev("W", "S2 LJ")], S, "W", "W", [False, True]),

    # --- titanic (seed 004, three decks) ---
    ("titanic-ladder",                  # seed 004: 单张 < 两张 < 两张王 < 三张 < 三张王
     rules("titanic"), 2,
     [ev("N", "S2"), ev("W", "H2 H2"), ev("E", "LJ LJ"), ev("S", "C2 C2 C2"), ev("N", "S2 BJ BJ BJ")],
     NT, "N", "N", [True, True, True, True, True]),
    ("titanic-equal-refused",           # seed 004: 不能再亮同級別或該級別以下的牌
     rules("titanic"), 2, [ev("N", "S2 S2"), ev("W", "H2 H2"), ev("E", "D2")], S, "N", "N",
     [True, False, False]),
    ("titanic-same-seat-stronger",      # RULES §4: a new declaration must be strictly stronger (anyone)
     rules("titanic"), 2, [ev("N", "S2"), ev("N", "S2 H2 H2")], H, "N", "N", [True, True]),
    ("titanic-joker-pairs-equal",       # reading: LJ pair and BJ pair are the same step
     rules("titanic"), 2, [ev("N", "LJ LJ"), ev("W", "BJ BJ")], NT, "N", "N", [True, False]),

    # --- ladder (RULES §8b: shengji.fly.dev, 80fen) ---
    ("ladder-fly-full",                 # §8b: single 1 < pair 2 < LJ pair 3 < BJ pair 4; final bidder deals
     rules("shengji-fly"), 2, [ev("N", "S2"), ev("W", "H2 H2"), ev("E", "LJ LJ"), ev("S", "BJ BJ")],
     NT, "S", "S", [True, True, True, True]),
    ("ladder-pair-vs-pair",             # §8b: strictly stronger
     rules("shengji-fly"), 2, [ev("N", "S2 S2"), ev("W", "H2 H2")], S, "N", "N", [True, False]),
    ("ladder-any-self-counter",         # §8b fly: the same seat may overcall in another suit
     rules("shengji-fly"), 2, [ev("N", "S2"), ev("N", "S2 H2 H2")], H, "N", "N", [True, True]),
    ("ladder-any-self-joker-raise",
     rules("shengji-fly"), 2, [ev("N", "LJ LJ"), ev("N", "LJ LJ BJ BJ")], NT, "N", "N", [True, True]),
    ("ladder-80fen-no-self-counter",    # §8b 80fen: no self-counter
     rules("80fen"), 2, [ev("N", "S2"), ev("N", "S2 H2 H2")], S, "N", "N", [True, False]),
    ("ladder-80fen-reinforce",          # §8b 80fen: single → pair of the same suit
     rules("80fen"), 2, [ev("N", "S2"), ev("N", "S2 S2"), ev("W", "LJ LJ")], NT, "W", "W",
     [True, True, True]),
    ("ladder-80fen-not-after-joker-pair",  # §8b 80fen: not after a joker pair
     rules("80fen"), 2, [ev("N", "LJ LJ"), ev("N", "LJ LJ BJ BJ"), ev("E", "BJ BJ")], NT, "E", "E",
     [True, False, True]),

    # --- botzone (RULES §8b) ---
    ("botzone-call-overcall",           # §8b: one single call, one overcall; every bid makes a dealer
     rules("botzone"), 2, [ev("N", "S2"), ev("W", "H2 H2")], H, "W", "W", [True, True]),
    ("botzone-one-overcall-only",
     rules("botzone"), 2, [ev("N", "S2"), ev("W", "H2 H2"), ev("E", "BJ BJ")], H, "W", "W",
     [True, True, False]),
    ("botzone-pair-needs-call",
     rules("botzone"), 2, [ev("N", "H2 H2"), ev("W", "S2")], S, "W", "W", [False, True]),
    ("botzone-second-single",
     rules("botzone"), 2, [ev("N", "S2"), ev("W", "H2")], S, "N", "N", [True, False]),
    ("botzone-joker-pair-nt",
     rules("botzone"), 2, [ev("N", "S2"), ev("E", "LJ LJ")], NT, "E", "E", [True, True]),
]


@pytest.mark.parametrize("name,ruleset,level,events,trump,declarer,dealer,accepted",
                         CASES, ids=[c[0] for c in CASES])
def test_policy_table(name, ruleset, level, events, trump, declarer, dealer, accepted):
    r = run(ruleset, level, events)
    assert r.accepted == accepted
    assert r.trump == trump
    assert r.declarer == declarer
    assert r.dealer == dealer
    assert r.redeal is False
    assert codes(r) == ["SJ301"] * accepted.count(False)


# ---------------------------------------------------------------------------
# messages say why (SJ301)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset,level,events,fragment", [
    # RULES §4 standard: a pair cannot override a pair
    (rules(), 2, [ev("S", "S2 S2"), ev("W", "H2 H2")],
     "a pair of ♥2 cannot override S's pair of ♠2 under standard rules"),
    # seed 002: the joker must match the colour
    (rules("campus"), 2, [ev("N", "H2 LJ")], "campus needs a matching joker: ♥ goes with BJ"),
    (rules("campus"), 2, [ev("N", "S2")], "campus needs a matching joker: ♠ goes with LJ"),
    (rules("campus"), 2, [ev("N", "H2 BJ"), ev("N", "H2 BJ H2")], "only after someone else"),
    (rules("campus"), 2, [ev("N", "H2 BJ"), ev("W", "C2 C2 LJ"), ev("E", "D2 D2 BJ")], "not higher"),
    (rules(reinforce_after_overridden=False), 9, [ev("N", "S9"), ev("W", "H9 H9"), ev("N", "S9 S9")],
     "reinforce_after_overridden is off"),
    (rules(self_override=False), 9, [ev("N", "S9"), ev("N", "S9 H9 H9")], "self_override is off"),
    (rules(), 9, [ev("N", "S9"), ev("N", "S9 S9"), ev("W", "H9 H9")],
     "can only be beaten by a joker pair"),
    (rules("tractor97"), 2, [ev("N", "S2"), ev("S", "S2")], "partner_reinforce (对家保) is off"),
    (rules("tractor97", joker_override=False), 2, [ev("N", "LJ LJ")], "joker_override"),
    (rules(), 9, [ev("N", "S5")], "neither a level card"),        # non-level card
    (rules(), 9, [ev("N", "BJ")], "a single joker declares nothing"),
    (rules(), 9, [ev("N", "S9 H9")], "not one declaration"),
    (rules(decks=1), 9, [ev("N", "S9 S9")], "only 1"),
    (rules(), 9, [ev("N", "S9"), ev("N", "S9")], "nothing new"),
    (rules("80fen"), 2, [ev("N", "S2"), ev("N", "S2 H2 H2")], "reinforce_only"),
    (rules("botzone"), 2, [ev("N", "S2"), ev("W", "H2 H2"), ev("E", "BJ BJ")], "only one overcall"),
    (rules(), 9, [ev("N", "S9", after_bury=True)], "only allowed under campus"),
])
def test_refusal_messages(ruleset, level, events, fragment):
    r = run(ruleset, level, events)
    assert r.accepted[-1] is False
    assert r.diagnostics[-1].code == "SJ301"
    assert fragment in r.diagnostics[-1].message


# ---------------------------------------------------------------------------
# later hands: the dealer does not change (RULES §4; seed 000 一般反主不改变庄家)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", [rules(), rules("tractor97"), rules("shengji-fly"), rules("botzone"),
                                     rules("titanic")])
def test_later_hand_keeps_dealer(ruleset):
    r = run(ruleset, 2, [ev("N", "S2"), ev("W", "H2 H2")], first_hand=False, dealer="E")
    assert r.dealer == "E"
    assert r.trump == H and r.declarer == "W"


def test_campus_later_hand_override_keeps_dealer():
    # seed 002 正常报主 / 反主: later hands: 此时庄家不变
    r = run(rules("campus"), 5, [ev("W", "H5 BJ"), ev("N", "S5 S5 LJ")], first_hand=False, dealer="E")
    assert (r.trump, r.declarer, r.dealer, r.rebury) == (S, "N", "E", None)


# ---------------------------------------------------------------------------
# campus 反主抄底 (seed 002 四.2) and the first-hand ban (四.1)
# ---------------------------------------------------------------------------
def test_campus_after_bury_override_reburies():
    r = run(rules("campus"), 5,
            [ev("E", "H5 BJ"), ev("W", "S5 S5 LJ", after_bury=True)], first_hand=False, dealer="E")
    assert r.accepted == [True, True]
    assert (r.trump, r.declarer, r.dealer, r.rebury) == (S, "W", "E", "W")
    assert r.diagnostics == []


def test_campus_after_bury_two_overrides_last_reburies():
    r = run(rules("campus"), 5,
            [ev("E", "H5 BJ"), ev("W", "C5 C5 LJ", after_bury=True), ev("N", "S5 S5 LJ", after_bury=True)],
            first_hand=False, dealer="S")
    assert (r.trump, r.dealer, r.rebury) == (S, "S", "N")


def test_campus_after_bury_first_hand_refused():
    r = run(rules("campus"), 2, [ev("E", "H2 BJ"), ev("W", "S2 S2 LJ", after_bury=True)])
    assert r.accepted == [True, False]
    assert (r.trump, r.dealer, r.rebury) == (H, "E", None)
    assert codes(r) == ["SJ301"] and "first hand" in r.diagnostics[0].message


def test_campus_after_bury_plain_refused():
    r = run(rules("campus"), 5, [ev("E", "H5 BJ"), ev("W", "S5 LJ", after_bury=True)],
            first_hand=False, dealer="E")
    assert r.accepted == [True, False] and r.rebury is None and codes(r) == ["SJ301"]


def test_campus_nobody_declares_redeal():
    # seed 002 三.3: 双方均叫不起主，重新洗牌
    r = run(rules("campus"), 2, [], declare_none=True)
    assert r.redeal is True and r.trump is None and r.dealer is None and r.diagnostics == []


# ---------------------------------------------------------------------------
# nobody declares: no_declaration (RULES §4, §8b; seed 001)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset,kitty,trump", [
    # seed 001: 以底牌第三張的花色作為主花色; a joker → the next card
    (rules("tractor97"), "S3 H4 C5 D6 S7 H8 D9 C10", C),
    (rules("tractor97"), "S3 H4 BJ LJ D9 C10 S7 H8", D),
    (rules("tractor97"), "S3 H4 BJ LJ LJ BJ", NT),            # reading: only jokers left → NT
    (rules("tractor97"), "BJ LJ H2 S3 S4 S5", H),              # jokers before the 3rd card do not count
    # §8b shengji-fly: first non-joker kitty card
    (rules("shengji-fly"), "LJ BJ D5 S3 S4 S5 S6 S7", D),
    (rules("shengji-fly"), "LJ BJ LJ BJ", NT),
    # §8b 80fen: no declaration means NT
    (rules("80fen"), "S3 H4 C5 D6 S7 H8 D9 C10", NT),
])
def test_no_declaration_modes(ruleset, kitty, trump):
    r = run(ruleset, 2, [], first_drawer="W", kitty=parse_cards(kitty), declare_none=True)
    assert r.trump == trump
    assert r.redeal is False
    assert r.declarer is None
    assert r.dealer == "W"            # reading: first hand, nobody declared → the first drawer deals
    assert r.diagnostics == []


def test_no_declaration_later_hand_keeps_dealer():
    r = run(rules("tractor97"), 7, [], first_hand=False, dealer="S",
            kitty=parse_cards("S3 H4 C5 D6 S7 H8 D9 C10"), declare_none=True)
    assert (r.trump, r.dealer) == (C, "S")


def test_no_declaration_redeal_standard():
    r = run(rules(), 2, [], declare_none=True, kitty=parse_cards("S3 H4 C5 D6 S7 H8 D9 C10"))
    assert r.redeal is True and r.trump is None


def test_no_declaration_kitty_unknown():
    r = run(rules("tractor97"), 2, [], declare_none=True, kitty=None)
    assert r.trump is None and r.redeal is False


def test_all_refused_counts_as_nobody():
    # reading: an invalid declaration takes no effect → no_declaration applies
    r = run(rules("tractor97"), 2, [ev("N", "S5")], kitty=parse_cards("S3 H4 C5 D6 S7 H8 D9 C10"))
    assert r.accepted == [False] and r.trump == C and codes(r) == ["SJ301"]


def test_unrecorded_declarations():
    # NOTATION "Declarations unrecorded vs. none": no declare line → trump unknown, no diagnostics
    r = run(rules(), 2, [])
    assert r.trump is None and r.redeal is False and r.diagnostics == [] and r.accepted == []
    r = run(rules(), 4, [], first_hand=False, dealer="W")
    assert r.trump is None and r.dealer == "W"


def test_declare_none_contradicted():
    r = run(rules(), 2, [ev("N", "S2")], declare_none=True)
    assert codes(r) == ["SJ301"] and r.trump == S


def test_kitty_trump_helper():
    assert kitty_trump(parse_cards("LJ BJ"), "kitty_card") == NT       # shorter than 3 cards
    assert kitty_trump(parse_cards("S3 H3 D3"), "kitty_card") == D
    assert kitty_trump(parse_cards("S3 H3 D3"), "kitty_first") == S
    assert kitty_trump(None, "kitty_first") is None


# ---------------------------------------------------------------------------
# Joker level (RULES §2; seed 001: 級牌Joker無花色，故該局固定為無主)
# ---------------------------------------------------------------------------
def test_joker_level_always_nt():
    r = run(rules("tractor97"), 15, [ev("N", "BJ BJ"), ev("W", "S2")], first_hand=False, dealer="S")
    assert r.accepted == [False, False] and codes(r) == ["SJ301", "SJ301"]
    assert "Joker level" in r.diagnostics[0].message
    assert (r.trump, r.dealer, r.redeal) == (NT, "S", False)
    r = run(rules("tractor97"), 15, [], first_hand=False, dealer="S", declare_none=True)
    assert r.trump == NT and r.redeal is False and r.diagnostics == []


# ---------------------------------------------------------------------------
# @k checks (NOTATION "Deal order"): SJ302, SJ203
# ---------------------------------------------------------------------------
DEAL = {
    "N": parse_cards("S3 S4 H2 C5 H2 D7"),
    "W": parse_cards("D3 S2 S2 C9 CA LJ"),
    "S": parse_cards("C3 C4 D2 BJ S6 S7"),
    "E": parse_cards("H3 H4 H5 H6 H7 H8"),
}


@pytest.mark.parametrize("events,accepted,expect", [
    ([ev("N", "H2", 3)], [True], []),                       # ♥2 is N's 3rd card
    ([ev("N", "H2", 2)], [False], ["SJ302"]),               # not drawn yet
    ([ev("N", "H2", 3), ev("N", "H2 H2", 4)], [True, False], ["SJ302"]),   # 2nd ♥2 is card 5
    ([ev("N", "H2", 3), ev("N", "H2 H2", 5)], [True, True], []),
    ([ev("N", "D2")], [False], ["SJ203"]),                  # never dealt ♦2
    ([ev("N", "D2", 4)], [False], ["SJ203"]),               # SJ203 wins over SJ302
    ([ev("N", "H2", 7)], [False], ["SJ302"]),               # beyond the hand of 6
    ([ev("W", "S2", 2), ev("N", "H2 H2", 5)], [True, True], []),   # draw 6 then draw 17: in order
    ([ev("N", "H2", 3), ev("W", "S2", 2)], [True, False], ["SJ302"]),  # draw 9 then draw 6: out of order
    ([ev("N", "H2"), ev("W", "S2 S2", 3)], [True, False], ["SJ302"]),  # untimed = after the deal
    ([ev("N", "H2"), ev("W", "S2 S2", 6)], [True, True], []),          # @hand size = after the deal
])
def test_timing_and_cards(events, accepted, expect):
    r = run(rules(), 2, events, deal=DEAL, first_drawer="N")
    assert r.accepted == accepted
    assert codes(r) == expect


def test_timing_offset_from_first_drawer():
    # first drawer E: E's k-th card is draw 4(k-1), N's is 4(k-1)+1
    r = run(rules(), 2, [ev("E", "H2", 3), ev("N", "S2 S2", 3)], first_drawer="E")
    assert r.accepted == [True, True] and codes(r) == []
    r = run(rules(), 2, [ev("N", "S2", 3), ev("E", "H2 H2", 3)], first_drawer="E")
    assert r.accepted == [True, False] and codes(r) == ["SJ302"]
    assert "out of draw order" in r.diagnostics[0].message


def test_too_many_cards_for_k_without_deal():
    r = run(rules(), 2, [ev("N", "H2 H2", 1)])
    assert r.accepted == [False] and codes(r) == ["SJ302"]


def test_bad_event_keeps_going():
    # a refused event takes no effect; the next one is judged against the standing declaration
    r = run(rules(), 2, [ev("N", "H2", 2), ev("W", "S2", 2), ev("S", "D2 D2")],
            deal=DEAL, first_drawer="N")
    assert r.accepted == [False, True, False]
    assert codes(r) == ["SJ302", "SJ203"]
    assert (r.trump, r.declarer) == (S, "W")


# ---------------------------------------------------------------------------
# incremental API for the generator / bots
# ---------------------------------------------------------------------------
def test_fold_equals_resolve():
    rs = rules("tractor97", partner_reinforce=True)
    events = [ev("N", "S2", 2), ev("S", "S2", 4), ev("W", "H2 H2", 6), ev("E", "LJ LJ", 9)]
    st = start(rs, 2, first_hand=True, dealer=None, first_drawer="N")
    oks = []
    for e in events:
        st, ok, _ = advance(st, e)
        oks.append(ok)
    assert isinstance(st, DeclState)
    res = conclude(st, kitty=None, declare_none=False, recorded=True)
    full = run(rs, 2, events)
    assert oks == full.accepted == [True, True, False, True]
    assert (res.trump, res.declarer, res.dealer) == (full.trump, full.declarer, full.dealer) == (NT, "E", "E")


def test_legal_declarations_standard():
    rs = rules()
    st = start(rs, 2, first_hand=True, dealer=None, first_drawer="N")
    drawn = parse_cards("S2 S2 H2 LJ LJ BJ C5")
    assert legal_declarations(rs, 2, st, "N", drawn) == sorted(
        [parse_cards("S2"), parse_cards("S2 S2"), parse_cards("H2"), parse_cards("LJ LJ")])
    st, ok, _ = advance(st, ev("W", "D2"))
    assert ok
    # now only pairs override W's ♦2; N has no self-declaration yet
    assert legal_declarations(rs, 2, st, "N", drawn) == sorted([parse_cards("S2 S2"), parse_cards("LJ LJ")])
    st, ok, _ = advance(st, ev("W", "D2 D2"))   # W reinforces
    assert ok
    assert legal_declarations(rs, 2, st, "N", drawn) == [parse_cards("LJ LJ")]
    st, ok, _ = advance(st, ev("N", "LJ LJ"))
    assert ok and legal_declarations(rs, 2, st, "E", parse_cards("BJ BJ C2 C2")) == []


def test_legal_declarations_cumulative_reinforce():
    rs = rules()
    st = start(rs, 2, first_hand=True, dealer=None, first_drawer="N")
    st, _, _ = advance(st, ev("N", "S2"))
    # N's own set grows: S2 → S2 S2 (reinforce); H2 H2 is a self-override written cumulatively
    got = legal_declarations(rs, 2, st, "N", parse_cards("S2 S2 H2 H2"))
    assert got == sorted([parse_cards("S2 S2"), parse_cards("S2 H2 H2")])
    rs_off = rules(self_override=False)
    assert legal_declarations(rs_off, 2, st, "N", parse_cards("S2 S2 H2 H2")) == [parse_cards("S2 S2")]


def test_legal_declarations_campus():
    rs = rules("campus")
    st = start(rs, 2, first_hand=True, dealer=None, first_drawer="N")
    drawn = parse_cards("H2 H2 S2 BJ LJ LJ")
    assert legal_declarations(rs, 2, st, "N", drawn) == sorted(
        [parse_cards("H2 BJ"), parse_cards("H2 H2 BJ"), parse_cards("S2 LJ")])
    st, _, _ = advance(st, ev("W", "C2 C2 LJ"))
    assert legal_declarations(rs, 2, st, "N", drawn) == sorted(
        [parse_cards("H2 H2 BJ"), parse_cards("LJ LJ")])


def test_can_declare():
    rs = rules("botzone")
    st = start(rs, 2, first_hand=True, dealer=None, first_drawer="N")
    assert can_declare(rs, 2, st, "N", parse_cards("S2"))
    assert not can_declare(rs, 2, st, "N", parse_cards("S2 S2"))
    st, _, _ = advance(st, ev("N", "S2"))
    assert not can_declare(rs, 2, st, "W", parse_cards("H2"))
    assert can_declare(rs, 2, st, "W", parse_cards("BJ BJ"))
    assert st.dealer == "N"


def test_declaration_strength_orders():
    fly = rules("shengji-fly")
    ks = [declaration_strength(fly, 2, parse_cards(t)) for t in ("S2", "H2 H2", "LJ LJ", "BJ BJ")]
    assert ks == sorted(ks) and len(set(ks)) == 4
    tit = rules("titanic")
    ks = [declaration_strength(tit, 2, parse_cards(t))
          for t in ("S2", "H2 H2", "LJ LJ", "C2 C2 C2", "BJ BJ BJ")]
    assert ks == sorted(ks) and len(set(ks)) == 5
    campus = rules("campus")
    ks = [declaration_strength(campus, 2, parse_cards(t))
          for t in ("S2 LJ", "D2 D2 BJ", "C2 C2 LJ", "H2 H2 BJ", "S2 S2 LJ", "LJ LJ", "BJ BJ")]
    assert ks == sorted(ks) and len(set(ks)) == 7
    assert declaration_strength(campus, 2, parse_cards("H2 LJ")) is None
    assert declaration_strength(fly, 2, parse_cards("S2 H2")) is None
    assert declaration_strength(fly, 15, parse_cards("BJ BJ")) is None
