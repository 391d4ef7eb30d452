"""docs/gouji-engine.md lists every Gouji option with its value in each preset
(GOUJI.md §8); run with UPDATE_DOCS=1 to rewrite the table."""

from __future__ import annotations

import os
from pathlib import Path

from replay.gouji.rules import OPTION_NAMES, PRESETS, option_value, preset

DOC = Path(__file__).resolve().parents[2] / "docs" / "gouji-engine.md"
START, END = "<!-- gouji-presets:start -->", "<!-- gouji-presets:end -->"


def table() -> str:
    names = list(PRESETS)
    rows = ["| option | " + " | ".join(f"`{n}`" for n in names) + " |", "|---|" + "---|" * len(names)]
    for option in OPTION_NAMES:
        rows.append(f"| `{option}` | " + " | ".join(option_value(preset(n), option) for n in names) + " |")
    return "\n".join(rows)


def test_preset_table_matches_presets():
    text = DOC.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    current, tail = rest.split(END, 1)
    want = "\n" + table() + "\n"
    if os.environ.get("UPDATE_DOCS") and current != want:
        DOC.write_text(head + START + want + END + tail, encoding="utf-8")
        current = want
    assert current == want


def test_presets_are_the_contract_table():  # GOUJI.md §8
    g, b, o = preset("gouji"), preset("gouji-bie3"), preset("gouji-online")
    assert (g.remove, g.bie3, g.dadian, g.revolution, g.score) == ("34", "off", "off", "on", "positive")
    assert (b.remove, b.bie3, b.dadian) == ("none", "on", "on")
    assert (o.burn_order, o.last_word, o.yield_, o.first_leader, o.tribute_cards, o.team_tribute,
            o.sweep_tribute, o.revolution, o.revolution_check, o.score) == (
        "online", "opposite", "online", "liang3", "any", "always", "normal", "off", "held", "zero_sum")
