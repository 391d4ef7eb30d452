"""import → notation.write → notation.parse → replay: lint-clean for the legal fixtures."""

import pytest
from importer_testlib import fixture, notation_io, text_samples

from analyzer.io.importers import import_text
from replay.game import replay

#: every text importer's sample (found among the fixtures by detection), and more legal logs
LEGAL = [(fmt, text) for fmt, text in sorted(text_samples().items())] + [
    ("shengji-io-chat", fixture("chat", "paste_wrong_winner.txt")),     # legal plays; only the claim is wrong
]


def round_trip(fmt, text):
    write, parse = notation_io()
    records, diags = import_text(fmt, text, check=False)
    assert not [d for d in diags if d.severity == "error"]
    sjn = write(records)
    back, read_diags = parse(sjn)
    assert read_diags == [], read_diags
    assert len(back) == len(records)
    problems = [d for r in back for d in replay(r).diagnostics if d.code != "SJ503"]
    return sjn, back, problems


@pytest.mark.parametrize("fmt, text", LEGAL, ids=[f"{fmt}-{k}" for k, (fmt, _) in enumerate(LEGAL)])
def test_fixture_round_trip_is_lint_clean(fmt, text):
    sjn, _back, problems = round_trip(fmt, text)
    assert problems == [], "\n".join(f"{d.code} {d.line}: {d.message}" for d in problems)
    assert '[Rules "' in sjn


def test_round_trip_keeps_the_content():
    write, parse = notation_io()
    for fmt, text in LEGAL:
        records, _ = import_text(fmt, text, check=False)
        back, _ = parse(write(records))
        for a, b in zip(records, back):
            for ha, hb in zip(a.hands, b.hands):
                assert [(p.seat, p.cards, p.attempted) for t in ha.tricks for p in t.plays] == \
                       [(p.seat, p.cards, p.attempted) for t in hb.tricks for p in t.plays]
                assert [(sc.seat, sc.cards) for sc in ha.deal] == [(sc.seat, sc.cards) for sc in hb.deal]
                assert [(d.seat, d.cards, d.at) for d in ha.declarations] == \
                       [(d.seat, d.cards, d.at) for d in hb.declarations]
                assert (ha.dealer, ha.trump, ha.kitty, ha.points, ha.first) == \
                       (hb.dealer, hb.trump, hb.kitty, hb.points, hb.first)
