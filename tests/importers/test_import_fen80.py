"""80fen completed-deal replays (JSON v2): the project's own deal, its envelopes, garbage."""

import base64
import gzip
import json

from importer_testlib import codes, fixture, lint

from analyzer.io.importers import check_claims, fen80, import_log, import_text
from notation.model import content_equal
from primitives.cards import BJ, LJ
from primitives.cards import parse_cards as C

TEXT = fixture("80fen", "deal_v2.json")


def doc():
    return json.loads(TEXT)


def test_card_ids_are_the_project_encoding():
    assert fen80.card(0) == C("S2")[0] and fen80.card(54 + 12) == C("SA")[0]
    assert fen80.card({"id": 52 + 54, "suit": "X", "rank": 15}) == LJ and fen80.card(53) == BJ
    assert fen80.card(108) is None and fen80.card({"id": "x"}) is None


def test_complete_deal():
    res = import_log("80fen-v2", TEXT)
    assert res.diagnostics == []
    [rec] = res.records
    assert rec.tag("Rules") == "80fen" and rec.tag("Variant") == "shanghai-80fen-0.7.14-v1"
    [h] = rec.hands
    d = doc()
    # the first taker was cut for: no dealer was known, declaring decides (the log's dealer is a claim)
    assert h.first == "E" and h.dealer == "?" and (h.levels.ns, h.levels.ew) == (2, 2)
    assert [(c.kind, c.winner) for c in res.claims if c.kind == "dealer"] == [("dealer", "E")]
    assert {sc.seat: sc.cards for sc in h.deal}["N"] == tuple(i % 54 for i in d["deal"]["hands"][2])
    single, pair = h.declarations
    # a single, then the same seat's reinforcement to a pair, with exact @k from the draws' seq
    assert single.seat == pair.seat == "E" and single.cards + single.cards == pair.cards
    e_cards = {sc.seat: sc.cards for sc in h.deal}["E"]
    assert e_cards[pair.at - 1] == pair.cards[0] and e_cards[: pair.at].count(pair.cards[0]) == 2
    assert h.buries[0].cards == tuple(i % 54 for i in d["buried"])
    assert h.points == d["events"][-1]["score"]["total"]
    assert any(p.attempted for t in h.tricks for p in t.plays)    # throw_failed → attempted -> forced
    assert lint(rec) == []
    assert len(res.claims) == len(h.tricks) + 2 and check_claims(res.records, res.claims) == []


def test_envelopes():
    raw = TEXT.encode()
    env = {"encoding": "gzip+base64", "replayVersion": 2, "bytes": len(raw), "events": 1,
           "data": base64.b64encode(gzip.compress(raw)).decode()}
    row = {"result_id": "g:1", "ruleset": "shanghai-80fen-0.7.14-v1", "replay_json": json.dumps(env)}
    plain = import_log("80fen-v2", TEXT).records[0]
    for text in (json.dumps(env), json.dumps(row), json.dumps({"replay_json": doc()})):
        res = import_log("80fen-v2", text)
        assert res.diagnostics == []
        assert content_equal(res.records[0].hands[0], plain.hands[0])


def test_deals_of_one_game_make_one_record():
    one = doc()
    two = doc()
    two["dealEpoch"] = 2
    other = doc()
    other["gameId"] = "another"
    res = import_log("80fen-v2", json.dumps([one, two, other]))
    assert [len(r.hands) for r in res.records] == [2, 1]
    assert {c.record for c in res.claims} == {0, 1} and max(c.hand for c in res.claims) == 2


def test_garbage():
    d = doc()
    d["events"][5]["type"] = "fireworks"
    k = next(i for i, e in enumerate(d["events"]) if e["type"] == "play")
    d["events"][k]["cards"][0]["id"] = 500
    t = [i for i, e in enumerate(d["events"]) if e["type"] == "trick"][3]
    d["events"][t]["winner"] = (d["events"][t]["winner"] + 1) % 4
    text = json.dumps(d, indent=1)
    records, diags = import_text("80fen-v2", text)
    got = codes(diags)
    assert "SJ702" in got and "SJ703" in got and "SJ704" in got
    bad = next(x for x in diags if x.code == "SJ703")
    assert text.split("\n")[bad.line - 1].strip().startswith('"id": 500') or "500" in text.split("\n")[bad.line - 1]
    assert records and records[0].hands[0].tricks


def test_unreadable_replays():
    for text, what in (("", "JSON"), ('{"format": "eighty-completed-deal", "version": 1}', "version"),
                       ('[{"seq": 1, "type": "play"}]', "version 1"), ('{"format": "other"}', "format"),
                       ('{"encoding": "gzip+base64", "data": "!!!"}', "decoded"),
                       (TEXT[:5000], "JSON")):
        _records, diags = import_text("80fen-v2", text)
        first = next(x for x in diags if x.code == "SJ701")
        assert what in first.message, (text[:40], diags)


def test_truncated_replay_keeps_the_deal():
    cut = TEXT[: len(TEXT) * 3 // 4]
    records, diags = import_text("80fen-v2", cut)
    assert codes(diags)[:1] == ["SJ701"] and diags[0].line == cut.count("\n") + 1
    h = records[0].hands[0]
    assert len(h.deal) == 4 and h.tricks
