"""The mistake rules document themselves: one module per rule under
analyzer/review/mistakes/rules/, found without a list, whose docstring (bad pattern,
better play) is generated into docs/diagnostics.md."""

from __future__ import annotations

import re

from analyzer.review.mistakes import RULES
from analyzer.review.mistakes import docs as rule_docs
from analyzer.review.mistakes import rules as rule_modules
from primitives.diagnostics import CODES


def test_docs_diagnostics_md_is_up_to_date():
    page = rule_docs.PAGE.read_text(encoding="utf-8")
    assert rule_docs.render(page) == page, "docs/diagnostics.md is stale: run python -m analyzer.review.mistakes.docs"
    assert rule_docs.main(["--check"]) == 0


def test_every_rule_module_is_found_and_registers_one_rule():
    names = rule_modules.load()
    assert len(names) == len(RULES)
    for code, r in RULES.items():
        module = type(r).__module__.rsplit(".", 1)[1]
        assert module == f"{code.lower()}_{r.name.replace('-', '_')}", module
        assert module in names


def test_every_rule_documents_the_bad_pattern_and_the_better_play():
    for code, r in RULES.items():
        doc = r.doc()
        assert code in CODES and CODES[code].name == r.name
        assert "Bad pattern:" in doc and "Better play:" in doc, code
        section = rule_docs.rules_section()
        assert f"#### {code} {r.name}" in section and doc in section


def test_a_stale_section_is_rewritten_and_the_rest_kept():
    page = "# head\n<!-- rules:start -->\nold text\n<!-- rules:end -->\ntail\n"
    new = rule_docs.render(page)
    assert new.startswith("# head\n<!-- rules:start -->\n#### SJ601 ") and new.endswith("<!-- rules:end -->\ntail\n")
    assert "old text" not in new
    assert len(re.findall(r"^#### SJ6\d\d ", new, re.M)) == len(RULES)
