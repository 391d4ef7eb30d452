"""docs/ stays true: the diagnostic code table in docs/diagnostics.md is the
table in primitives.diagnostics.CODES (run with UPDATE_DOCS=1 to rewrite it), and
every preset and option is documented in docs/rules.md."""

import os
import re
from pathlib import Path

from primitives.diagnostics import CODES
from replay.ruleset import OPTION_NAMES, PRESETS, option_text, preset

DOCS = Path(__file__).resolve().parents[2] / "docs"
START, END = "<!-- codes:start -->", "<!-- codes:end -->"


def code_table() -> str:
    rows = ["| code | name | severity | meaning |", "|---|---|---|---|"]
    for code, info in CODES.items():
        summary = info.summary.replace("|", "\\|")
        rows.append(f"| {code} | {info.name} | {info.severity} | {summary} |")
    return "\n".join(rows)


def test_code_table_matches_codes():
    path = DOCS / "diagnostics.md"
    text = path.read_text(encoding="utf-8")
    assert START in text and END in text
    head, rest = text.split(START, 1)
    current, tail = rest.split(END, 1)
    want = "\n" + code_table() + "\n"
    if os.environ.get("UPDATE_DOCS") and current != want:
        path.write_text(head + START + want + END + tail, encoding="utf-8")
        current = want
    assert current == want, "docs/diagnostics.md code table is stale: run with UPDATE_DOCS=1"


def test_codes_are_well_formed():
    for code, info in CODES.items():
        assert re.fullmatch(r"(SJ|GJ)\d{3}", code)
        assert info.severity in ("error", "warning", "info")
        assert re.fullmatch(r"[a-z0-9-]+", info.name)


def test_rules_doc_names_every_preset_and_option():
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    for name in PRESETS:
        assert f"`{name}`" in text, name
    for option in OPTION_NAMES:
        assert f"`{option}`" in text, option


def preset_table() -> str:
    names = list(PRESETS)
    rows = ["| option | " + " | ".join(f"`{n}`" for n in names) + " |", "|---|" + "---|" * len(names)]
    for option in OPTION_NAMES:
        vals = [option_text(getattr(preset(n), option)).replace("joker,joker_level,level,level_top", "all four")
                for n in names]
        rows.append(f"| `{option}` | " + " | ".join(vals) + " |")
    return "\n".join(rows)


def test_preset_table_matches_presets():
    path = DOCS / "rules.md"
    text = path.read_text(encoding="utf-8")
    start, end = "<!-- presets:start -->", "<!-- presets:end -->"
    head, rest = text.split(start, 1)
    current, tail = rest.split(end, 1)
    want = "\n" + preset_table() + "\n"
    if os.environ.get("UPDATE_DOCS") and current != want:
        path.write_text(head + start + want + end + tail, encoding="utf-8")
        current = want
    assert current == want, "docs/rules.md preset table is stale: run with UPDATE_DOCS=1"
