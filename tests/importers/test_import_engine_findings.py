"""Engine behaviour the platform presets need but do not get yet (found while importing).

Each test states what the platform's rules say. They were strict xfails until
the engine learnt the rule (first-hand dealer written as a seat, the
``pure_tractor`` follow policy, the ``lowest`` forced unit); now they pin it.
"""

from notation.model import Declaration, Hand, Levels, Play, Record, SeatCards, Tag, Trick
from primitives.cards import parse_cards as C
from replay.game import replay


def record(rules, hand, **rule_tags):
    tags = [Tag(name="Rules", value=rules)] + [Tag(name=f"Rule.{k}", value=v) for k, v in rule_tags.items()]
    return Record(tags=tags, hands=[hand])


def trick(*plays):
    out = []
    for p in plays:
        seat, _, cards = p.partition(":")
        attempted = None
        if "->" in cards:
            a, _, cards = cards.partition("->")
            attempted = C(a)
        out.append(Play(seat=seat, cards=C(cards), attempted=attempted))
    return Trick(plays=out)


def codes(rec):
    return [d.code for d in replay(rec).diagnostics if d.severity == "error"]


def test_first_hand_of_a_record_with_a_known_dealer():
    # One 80fen deal from the middle of a match (levels NS 3 EW 2): North deals. West's ♥3 sets
    # the trump, and "a known dealer stays dealer after counters" (80fen); shengji.io and
    # shengji.fly.dev (banker given in round_start) are alike. The importers keep such
    # declarations as commentary to stay lint-clean.
    hand = Hand(number=1, levels=Levels(ns=3, ew=2), dealer="N",
                events=[Declaration(seat="W", cards=C("H3"))], trump=1,
                tricks=[trick("N:C3", "W:C4", "S:C5", "E:C6")])
    assert codes(record("80fen", hand)) == []


def test_fly_tractor_obligation_only_for_a_pure_tractor_lead():
    # shengji.fly.dev (FORMAT.md, "Following"): a pure tractor lead obliges an in-suit tractor;
    # a throw that contains a tractor only obliges pairs. W holds ♠9988 and ♠66 and follows
    # the throw ♠A + ♠QQJJ with two pairs that are not a tractor: legal there.
    deal = [SeatCards(seat="N", cards=C("SAQQJJ C3")), SeatCards(seat="W", cards=C("S998866")),
            SeatCards(seat="S", cards=C("S5 S7 S10 SK H9 C4")), SeatCards(seat="E", cards=C("H34567 C5"))]
    hand = Hand(number=1, levels=Levels(ns=2, ew=2), dealer="N", trump=1, deal=deal,
                tricks=[trick("N:SAQQJJ", "W:S9966 S8", "S:S5 S7 S10 SK H9", "E:H34567"),
                        trick("N:C3", "W:S8", "S:C4", "E:C5")])
    assert codes(record("shengji-fly", hand, kitty_size="84")) == []


def test_80fen_failed_throw_plays_the_lowest_component():
    # 80fen (FORMAT.md, "Throw"): on failure the thrower plays the component with the lowest top
    # order. N throws ♠JJ + ♠K; W's ♠A beats the K and ♠QQ beats the JJ: the pair (top J) is
    # forced, not the single K (the engine's `smallest`).
    deal = [SeatCards(seat="N", cards=C("SJJK C3 C6 C7")), SeatCards(seat="W", cards=C("SAQQ C8 C9 C10")),
            SeatCards(seat="S", cards=C("S3 S4 S5 D3 D4 D5")), SeatCards(seat="E", cards=C("H3 H4 H5 H6 H7 H8"))]
    hand = Hand(number=1, levels=Levels(ns=2, ew=2), dealer="N", trump=1, deal=deal,
                tricks=[trick("N:SJJK->SJJ", "W:SQQ", "S:S3 S4", "E:H3 H4")])
    assert codes(record("80fen", hand, kitty_size="84")) == []
