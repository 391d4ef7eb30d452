"""The rule presets as ``shengji rules`` shows them: what each preset changes,
and every option of one preset with its source, cited as a user can look it up."""

from __future__ import annotations

import re

#: the source texts by the names docs/rules.md ("Sources") gives them
SOURCE_NAMES = {"000": "Wikipedia 升级", "001": "Tractor 1997", "002": "campus 双升",
                "003": "够级大纲", "004": "one-deck page"}


def cite(source: str) -> str:
    """A rule's source as a user can look it up: the sections of docs/rules.md and
    the sources by name (``RULES §4, §8b; seed 001 'Zi Fan'`` →
    ``docs/rules.md §4, §8; Tractor 1997 'Zi Fan'``)."""
    parts = []
    for part in source.split(";"):
        part = part.strip()
        if part.startswith("RULES"):
            part = "docs/rules.md" + re.sub(r"§(\d+)[a-z]\b", r"§\1", part[len("RULES"):])
            part = re.sub(r"(§\d+)(?:, \1\b)+", r"\1", part)
        elif re.match(r"seeds? ", part):
            part = re.sub(r"\b00\d\b", lambda m: SOURCE_NAMES.get(m.group(), m.group()), part.split(" ", 1)[1])
        if part:
            parts.append(part)
    return "; ".join(parts)


def preset_rows() -> list[tuple[str, str]]:
    """``(preset, what it changes)`` for every Shengji preset (``shengji rules`` lists
    every game's: :meth:`analyzer.games.Game.preset_rows`)."""
    from replay.ruleset import OPTION_NAMES, PRESETS, option_text, preset
    standard = preset("standard")
    rows = []
    for pname in PRESETS:
        rs = preset(pname)
        diff = [f"{o}={option_text(getattr(rs, o))}" for o in OPTION_NAMES
                if getattr(rs, o) != getattr(standard, o)]
        rows.append((pname, ", ".join(diff) if diff else "(the reference rules)"))
    return rows


def option_rows(name: str) -> list[tuple[str, str, str, bool]]:
    """``(option, value, source, differs from standard)`` for every option of Shengji preset ``name``."""
    from replay.ruleset import OPTION_NAMES, SOURCES, option_text, preset
    standard = preset("standard")
    rs = preset(name)
    return [(o, option_text(getattr(rs, o)), cite(SOURCES.get(o, "")), getattr(rs, o) != getattr(standard, o))
            for o in OPTION_NAMES]
