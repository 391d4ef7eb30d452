"""docs/cli.md stays true to the command line (issue 28): every command has
its line in the overview and its own section, every option of a command is
named in that section, and what it says of the HTML report is what it is."""

from __future__ import annotations

import re
from pathlib import Path

import typer.main
from typer.core import TyperOption as Option

from analyzer.cli import app

DOC = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")


def _sections() -> dict[str, str]:
    parts = re.split(r"^## `shengji (\w+)", DOC, flags=re.M)
    return {parts[k]: parts[k + 1] for k in range(1, len(parts) - 1, 2)}


def test_every_command_and_option_is_documented() -> None:
    overview = DOC.split("```")[1]
    sections = _sections()
    for name, cmd in typer.main.get_group(app).commands.items():
        assert re.search(rf"^shengji {name}\b", overview, re.M), f"{name} is not in the overview"
        assert name in sections, f"docs/cli.md has no section for {name}"
        section = sections[name]
        if name == "export":  # its formats have their own subsections
            section = DOC.split("## `shengji export", 1)[1].split("## `shengji stats", 1)[0]
        for p in cmd.params:
            if isinstance(p, Option):
                for o in p.opts:
                    if o.startswith("--") and o != "--help":
                        assert o in section or o in DOC.split("## `shengji")[0], (name, o)


def test_the_html_report_is_said_to_be_a_javascript_viewer() -> None:
    report = _sections()["report"]
    assert "no\n  script" not in report and "no script" not in report
    assert "JavaScript" in report
