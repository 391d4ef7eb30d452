"""The viewer's page without a browser: self-contained, one JSON blob that parses back."""

from __future__ import annotations

import json
import re

import pytest
from viewer_helpers import SAMPLES, page_for, record_text

from analyzer.play.generate import generate_match
from analyzer.report.reading import build_report
from analyzer.report.viewer import TEMPLATES, data_json, render_html, render_record, render_text, trump_cards
from primitives.cards import parse_cards

BLOB = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)


def blob_of(page: str) -> dict:
    found = BLOB.findall(page)
    assert len(found) == 1
    return json.loads(found[0])


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_page_is_self_contained_and_its_blob_parses_back(sample):
    text = sample.read_text(encoding="utf-8")
    report, page = page_for(text, str(sample))
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"https?://", page, re.I), "the page must not reference any http(s) URL"
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page, re.I)
    assert not re.search(r"\bsrc\s*=", page, re.I), "no external script or image"
    assert not re.search(r"@import|url\(", page, re.I), "no external CSS resource"
    assert len(re.findall(r'<script type="application/json"', page)) == 1
    assert page.count("<script") == 2          # the data and the one inline script
    data = blob_of(page)
    viewer = data.pop("viewer")
    assert data == json.loads(json.dumps(report))
    assert viewer["schema"] == 1
    assert [len(t) for t in viewer["trumps"]] == [len(m["hands"]) for m in report["matches"]]


def test_trump_cards_come_from_the_engine_order():
    report = build_report((SAMPLES[0].parent / "standard.sjn").read_text(encoding="utf-8"))
    m = report["matches"][0]
    h = m["hands"][0]                              # trump D at level 2
    trumps = set(parse_cards(trump_cards(m, h)))
    assert set(parse_cards("BJ LJ D2 S2 H2 C2 DA DK D3")) <= trumps
    assert not trumps & set(parse_cards("SA HA CA S3"))
    assert len(trumps) == 13 + 3 + 2
    assert trump_cards(m, {**h, "trump": None}) is None
    nt = set(parse_cards(trump_cards(m, {**h, "trump": "NT"})))
    assert nt == set(parse_cards("BJ LJ S2 H2 D2 C2"))


def test_text_in_the_data_cannot_close_the_script_or_name_a_url():
    text = (SAMPLES[0].parent / "standard.sjn").read_text(encoding="utf-8")
    text = text.replace('[Event "Generated match"]',
                        '[Event "</script><script>alert(1)</script> see https://example.org/x <!--"]')
    report, page = page_for(text, "evil.sjn")
    assert "alert(1)</script>" not in page
    assert not re.search(r"https?://", page)
    data = blob_of(page)
    assert data["matches"][0]["tags"]["Event"] == report["matches"][0]["tags"]["Event"]
    assert "https://example.org/x" in data["matches"][0]["tags"]["Event"]
    assert "</" not in data_json({"a": "</script>"})


def test_render_record_and_text_agree_with_render_html():
    rec = generate_match("one-deck", hands=2, seed=3)
    text = record_text(rec)
    assert render_record(rec) == render_text(text) == render_html(build_report(text))


def test_empty_and_unreadable_reports_render():
    assert blob_of(render_html({"schema": 1, "path": "", "matches": []}))["matches"] == []
    page = render_text("this is not SJN at all\n", "junk.sjn")
    data = blob_of(page)
    assert data["viewer"]["trumps"] == [[] for _ in data["matches"]]


def test_templates_ship_as_package_data():
    from importlib import resources
    for name in TEMPLATES:
        assert resources.files("analyzer.report").joinpath("templates", name).is_file()


def test_a_four_hand_match_stays_small():
    rec = generate_match("standard", hands=4, seed=11)
    page = render_record(rec)
    assert len(page.encode("utf-8")) < 250_000
