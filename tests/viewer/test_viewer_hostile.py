"""Hostile records in the HTML viewers (issue 35, docs/security.md): a tag or
comment that is HTML is shown as text, never run; the pages carry a
Content-Security-Policy that lets only their own script run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzer.report.viewer import content_security_policy, render_text

ROOT = Path(__file__).resolve().parents[2]
STANDARD = (ROOT / "samples" / "matches" / "standard.sjn").read_text(encoding="utf-8")
GOUJI = (ROOT / "samples" / "matches" / "gouji.gjn").read_text(encoding="utf-8")

PAYLOADS = {
    "Event": '<img src=x onerror="document.title=\'PWNED\'">',
    "North": "</script><script>document.title='PWNED'</script>",
    "South": '"><svg onload="document.title=\'PWNED\'">',
    "West": "<a href=\"javascript:document.title='PWNED'\">x</a>",
    "East": "\u202e<b>bold</b> \x1b]0;t\x07",
}


def hostile_sjn() -> str:
    head, rest = STANDARD.split("\n", 1)
    return head + "\n" + "".join(f'[{k} "{v}"]\n' for k, v in PAYLOADS.items()) + rest


def hostile_gjn() -> str:
    head, rest = GOUJI.split("\n", 1)
    return head + "\n" + f'[Event "{PAYLOADS["Event"]}"]\n[P1 "{PAYLOADS["North"]}"]\n' + rest


def gouji_page(text: str) -> str:
    from analyzer.games.gouji.analysis import build_report
    from analyzer.games.gouji.viewer import render_html
    from notation import gjn
    records, diags = gjn.parse(text)
    return render_html(build_report([(r, diags if k == 0 else []) for k, r in enumerate(records)], "h.gjn"))


CSP = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">')


@pytest.mark.parametrize("page", [lambda: render_text(hostile_sjn(), "h.sjn"), lambda: gouji_page(hostile_gjn())],
                         ids=["shengji", "gouji"])
def test_every_page_has_a_csp_naming_its_one_script(page):
    html = page()
    m = CSP.search(html)
    assert m, "no Content-Security-Policy meta"
    policy = m.group(1)
    assert "default-src 'none'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(scripts) == 1
    assert content_security_policy(scripts[0]) == policy
    assert html.index("Content-Security-Policy") < html.index("<script")


@pytest.mark.parametrize("make, name", [(lambda: render_text(hostile_sjn(), "h.sjn"), "h.html"),
                                        (lambda: gouji_page(hostile_gjn()), "g.html")], ids=["shengji", "gouji"])
def test_hostile_records_are_text_in_the_browser(open_page, make, name):
    opened = open_page(make(), name)
    page = opened.page
    for key in ("ArrowRight", "End", "PageDown", "ArrowRight"):
        opened.press(key)
    page.wait_for_timeout(100)
    assert "PWNED" not in page.title()
    assert page.evaluate("document.querySelectorAll('img[src=x], svg[onload], a[href^=javascript]').length") == 0
    body = page.evaluate("document.body.innerText")
    assert "<script>document.title='PWNED'</script>" in body  # shown as text
    opened.assert_clean()


def test_the_csp_blocks_a_script_that_got_in(open_page):
    """The policy is real: a script element added to the page (as an injection would) does not run."""
    html = render_text(hostile_sjn(), "h.sjn")
    html = html.replace("</body>", "<script>document.title='PWNED'</script></body>")
    opened = open_page(html, "injected.html")
    assert "PWNED" not in opened.page.title()
    assert any("Content Security Policy" in e for e in opened.errors), opened.errors
