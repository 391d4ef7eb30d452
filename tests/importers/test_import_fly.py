"""shengji.fly.dev room logs (JSONL): the project's own two-round fixture, and garbage."""

import json

from importer_testlib import codes, errors, fixture, line_of, lint

from analyzer.io.importers import check_claims, fly, import_log, import_text
from primitives.cards import parse_cards as C
from replay.game import replay

TEXT = fixture("fly", "room_QZXW.jsonl")
LINES = TEXT.rstrip("\n").split("\n")


def events():
    return [json.loads(line) for line in LINES]


def rebuild(evs):
    return "\n".join(json.dumps(e) for e in evs) + "\n"


def test_two_rounds_make_one_record():
    res = import_log("fly", TEXT, source="room_QZXW.jsonl")
    assert res.diagnostics == []
    [rec] = res.records
    assert rec.tag("Rules") == "shengji-fly"
    assert rec.tag("Event") == "shengji.fly.dev room QZXW"
    assert rec.tag("Date") == "2025.11.21"
    # source seats 0..3 → S, E, N, W; bots marked
    assert (rec.tag("South"), rec.tag("East"), rec.tag("North"), rec.tag("West")) == \
        ("mei", "bot-1 (bot)", "bot-2 (bot)", "bot-3 (bot)")
    assert rec.tag("Source") == "room_QZXW.jsonl"
    assert len(rec.hands) == 2
    assert lint(rec) == []


def test_deal_from_the_deck_and_declarations_with_at():
    rec = import_log("fly", TEXT).records[0]
    h1 = rec.hands[0]
    deck = [fly.card(c) for c in events()[0]["deck"]]
    assert h1.first == "S"                         # the deal always starts at seat 0
    assert {sc.seat: sc.cards for sc in h1.deal} == {
        "S": tuple(deck[0:100:4]), "E": tuple(deck[1:100:4]), "N": tuple(deck[2:100:4]), "W": tuple(deck[3:100:4])}
    assert h1.kitty == tuple(deck[100:])
    assert h1.levels.ns == 2 and h1.levels.ew == 2
    # round 1: banker null, declaring decides; the trump event's banker (seat 3, W) is a claim
    assert h1.dealer == "?" and h1.trump == 0
    d1, d2 = h1.declarations
    assert (d1.seat, d1.cards, d2.seat, d2.cards) == ("N", C("D2"), "W", C("S2 S2"))
    # @k: the earliest draw at which the bidder held the cards, in bid order
    n_cards = {sc.seat: sc.cards for sc in h1.deal}
    assert C("D2")[0] in n_cards["N"][:d1.at] and C("D2")[0] not in n_cards["N"][:d1.at - 1]
    assert n_cards["W"][:d2.at].count(C("S2")[0]) == 2
    assert (d2.at - 1) * 4 + 3 >= (d1.at - 1) * 4 + 2
    assert h1.buries[0].seat == "W" and len(h1.buries[0].cards) == 8
    assert h1.points == 75


def test_second_round_flips_the_trump_and_carries_levels():
    h2 = import_log("fly", TEXT).records[0].hands[1]
    assert h2.dealer == "E" and (h2.levels.ns, h2.levels.ew) == (2, 3)
    assert h2.declare_none is not None and h2.declarations == []
    assert h2.trump == 1                      # first non-joker kitty card (the engine checks it)


def test_failed_throws():
    rec = import_log("fly", TEXT).records[0]
    plays = {p.span.line: p for h in rec.hands for t in h.tricks for p in t.plays}
    bot = plays[36]                            # a bot's failed throw keeps its attempt
    assert bot.seat == "E" and bot.attempted == C("S8 H2") and bot.cards == C("S8")
    human = plays[156]                         # a human's keeps only the forced cards
    assert human.attempted is None and human.comments == ["a failed throw: the log keeps only the forced cards"]


def test_spans_point_into_the_log_and_claims_agree():
    res = import_log("fly", TEXT)
    rec = res.records[0]
    first_play = rec.hands[0].tricks[0].plays[0]
    assert first_play.span.line == line_of(TEXT, '"e": "play"')
    assert len([c for c in res.claims if c.kind == "trick"]) == sum(len(h.tricks) for h in rec.hands)
    assert [c.points for c in res.claims if c.kind == "total"] == [75, 120]
    assert [(c.winner, c.line) for c in res.claims if c.kind == "dealer"] == [("W", 4)]
    assert check_claims(res.records, res.claims) == []


def test_a_wrong_trick_winner_is_flagged_at_its_line():
    evs = events()
    k = next(i for i, e in enumerate(evs) if e["e"] == "trick")
    evs[k]["winner"] = (evs[k]["winner"] + 1) % 4
    evs[k]["points"] += 5
    _records, diags = import_text("fly", rebuild(evs))
    [d] = diags
    assert d.code == "SJ704" and d.line == k + 1 and d.trick == 1
    assert "wins trick 1" in d.message and "points" in d.message


def test_a_wrong_stated_dealer_is_flagged():
    evs = events()
    evs[3]["banker"] = 2                           # the trump event of round 1 names N, not the bidder W
    _records, diags = import_text("fly", rebuild(evs))
    [d] = diags
    assert (d.code, d.line) == ("SJ704", 4) and "declarations make bot-3 (bot) (W) the dealer" in d.message


def test_truncated_file_keeps_what_came_before():
    cut = TEXT[: len(TEXT) - len(LINES[-1]) // 2 - 1]     # the last line (round_end) half written
    records, diags = import_text("fly", cut)
    assert codes(diags) == ["SJ701"] and diags[0].line == len(LINES)
    assert "cut off" in diags[0].message
    [rec] = records
    assert len(rec.hands) == 2 and rec.hands[1].points is None
    assert errors(lint(rec)) == []                 # complete tricks, only the points line is lost


def test_unknown_event_bad_card_and_orphan_event():
    evs = events()
    evs.insert(5, {"t": 1.0, "room": "QZXW", "round": 1, "e": "emoji", "seat": 1})
    k = next(i for i, e in enumerate(evs) if e["e"] == "play")
    evs[k]["cards"] = ["ZZ"]
    text = rebuild(evs)
    text = json.dumps({"room": "QZXW", "e": "play", "seat": 0, "cards": ["SA"]}) + "\n" + text
    records, diags = import_text("fly", text)
    got = {(d.code, d.line) for d in diags}
    assert ("SJ705", 1) in got                     # a play before any round_start
    assert ("SJ702", 7) in got                     # the unknown event, on its own line
    bad = next(d for d in diags if d.code == "SJ703")
    assert bad.line == k + 2 and bad.column == text.split("\n")[k + 1].index('"ZZ"') + 1
    assert len(records) == 1 and len(records[0].hands) == 2


def test_document_form_and_excerpt_with_fields_removed():
    doc = json.dumps({"note": "excerpt", "events": events()[:8]}, indent=1)
    res = import_log("fly", doc)
    assert res.diagnostics == []
    h = res.records[0].hands[0]
    assert len(h.tricks) == 1 and len(h.tricks[0].plays) == 3


def test_not_a_log_at_all():
    for text in ("", "hello world\n", "[1, 2, 3]", "{\"e\": 5}"):
        records, diags = import_text("fly", text)
        assert records == [] and diags and diags[0].code in ("SJ701", "SJ705")


def test_plays_only_goldens_are_reported_not_imported():
    # shengji.fly.dev's regression goldens: {name: [[seat, cards], …]}, no deal or trump
    text = '{"bot-1": [[1, ["SA"]], [2, ["S3"]], [3, ["S4"]], [0, ["S9"]]],\n "bot-2": [[0, ["H2", "H2"]]]}'
    from analyzer.io.importers import detect_format
    assert detect_format(text) == "fly"
    res = import_log("fly", text)
    assert res.records == [] and [d.code for d in res.diagnostics] == ["SJ705", "SJ705"]
    first, second = res.diagnostics
    assert (first.line, first.column) == (1, 11) and "`bot-1` is a plays-only history (4 plays" in first.message
    assert second.line == 2 and "cannot be replayed" in second.message


def _excerpt() -> str:
    """A sanitised excerpt in the shape of the real one (round_start, two bids, a trump event
    with only the banker, the bury, one play): the project's own deal."""
    import random
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    codes_ = [s + r for s in "SHDC" for r in ranks] + ["LJ", "BJ"]
    deck = codes_ * 2
    random.Random(13).shuffle(deck)
    # seat 0 draws C4 first; seat 3 draws its H4s last (deck[i] goes to seat i % 4)
    for want, at in (("C4", 0), ("H4", 95), ("H4", 99)):
        j = next(k for k, c in enumerate(deck) if c == want and k not in (0, 95, 99))
        deck[j], deck[at] = deck[at], deck[j]
    hand2 = deck[2:100:4]
    kitty = deck[100:]
    bury = (hand2 + kitty)[-8:]
    play = next(c for c in hand2 + kitty if c not in bury and c[0] == "D" and c[1:] != "4")
    evs = [{"e": "round_start", "deck": deck, "banker": 2, "trump_rank": "4"},
           {"e": "declare", "seat": 0, "cards": ["C4"]},
           {"e": "declare", "seat": 3, "cards": ["H4", "H4"]},
           {"e": "trump", "banker": 2},
           {"e": "bury", "seat": 2, "cards": bury},
           {"e": "play", "seat": 2, "cards": [play]}]
    return json.dumps({"note": "own excerpt", "seat": 2, "events": evs}, indent=1)


def test_excerpt_shaped_like_the_real_one_imports_without_errors():
    # shaped on the real excerpt (mc_override_variance.json): banker 2 was fixed before the
    # round: a known dealer; the bids choose only the trump
    res = import_log("fly", _excerpt())
    assert res.diagnostics == []
    h = res.records[0].hands[0]
    assert h.dealer == "N" and [(d.seat, d.at) for d in h.declarations] == [("S", 1), ("W", 25)]
    assert h.trump is None                         # not in the excerpt: the bids give it (♥)
    m = replay(res.records[0])
    assert m.hands[0].trump == 1 and [d.code for d in m.diagnostics] == ["SJ503"]


def test_rooms_become_records():
    evs = events()
    other = [dict(e, room="ABCD") for e in evs[:10]]
    records, diags = import_text("fly", rebuild(evs[:10] + other))
    assert diags == [] and [r.tag("Event") for r in records] == ["shengji.fly.dev room QZXW",
                                                                  "shengji.fly.dev room ABCD"]
