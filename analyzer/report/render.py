"""Rich rendering for the terminal: cards with coloured suits and the consoles
(:mod:`.console`), the table as a player sees it (``shengji replay``,
:mod:`.terminal_replay`), the report (``--format text``, :mod:`.terminal_report`),
the ruleset tables (``shengji rules``, here). This module names them all.

Nothing here checks a rule or computes a score: every value comes from
``replay`` (a :class:`replay.results.MatchResult`) or from a report dict built
by :mod:`analyzer.report.model`. Output is plain when the console has no colour
(pipes, ``NO_COLOR``, tests), so it can be compared with golden files.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group
from rich.table import Table

# -- rules ------------------------------------------------------------------------------------

def presets_table(rows: Sequence[tuple[str, str]]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("preset", style="bold")
    table.add_column("differs from standard", overflow="fold")
    for name, diff in rows:
        table.add_row(name, diff)
    return table


def options_table(rows: Sequence[tuple[str, str, str, bool]], title: str = "") -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title=title or None,
                  title_justify="left", title_style="bold")
    table.add_column("option", no_wrap=True)
    table.add_column("value", overflow="fold")
    table.add_column("", width=1)
    table.add_column("source", overflow="fold")
    for option, value, source, differs in rows:
        table.add_row(option, value, "*" if differs else "", source, style="bold" if differs else None)
    return table


__all__ = ["presets_table", "options_table", "Group"]
