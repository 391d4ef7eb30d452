"""The output formats of ``shengji report`` (Shengji records): each one a
function registered once with :func:`register`, writing the matches of one
file to a text stream as they come. The order here is the order ``--help``
lists them in; the first is the default. Imported when the command line
starts: keep the top-level imports light.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from enum import Enum
from typing import IO, Any

#: ``write(out, path, matches)``: the matches (report dicts) of ``path`` written to ``out``
Writer = Callable[[IO[str], str, Iterable[dict[str, Any]]], None]

#: name → writer, in registration order
WRITERS: dict[str, Writer] = {}


def register(name: str) -> Callable[[Writer], Writer]:
    """Decorator: register ``write(out, path, matches)`` as report format ``name``."""
    def add(write: Writer) -> Writer:
        if name in WRITERS:
            raise ValueError(f"report format {name!r} is registered twice")
        WRITERS[name] = write
        return write
    return add


@register("text")
def _text(out: IO[str], path: str, matches: Iterable[dict[str, Any]]) -> None:
    """Rich tables (colours on a terminal only); one report per match."""
    from analyzer.report.console import make_console
    from analyzer.report.matches import SCHEMA
    from analyzer.report.terminal_report import render_report
    console = make_console() if out is sys.stdout else make_console(file=out, color=False)
    for k, m in enumerate(matches):
        if k:
            console.print()
        render_report(console, {"schema": SCHEMA, "path": path, "matches": [m]})


@register("md")
def _md(out: IO[str], path: str, matches: Iterable[dict[str, Any]]) -> None:
    """Markdown, streamed match by match."""
    from analyzer.report.markdown import stream_markdown
    for piece in stream_markdown(path, matches):
        out.write(piece)


@register("json")
def _json(out: IO[str], path: str, matches: Iterable[dict[str, Any]]) -> None:
    """The report's JSON (docs/cli.md), streamed match by match (written in
    pieces of about 256 KB: one write per match cost a system call each)."""
    from analyzer.report.json_text import stream_json
    held: list[str] = []
    size = 0
    try:
        for piece in stream_json(path, matches):
            held.append(piece)
            size += len(piece)
            if size >= 1 << 18:
                out.write("".join(held))
                held.clear()
                size = 0
    finally:
        if held:
            out.write("".join(held))


@register("html")
def _html(out: IO[str], path: str, matches: Iterable[dict[str, Any]]) -> None:
    """The interactive replay page: one page holds every match, written match by
    match (:func:`analyzer.report.viewer.stream_html`: memory holds two matches)."""
    from analyzer.report.matches import SCHEMA
    from analyzer.report.viewer import stream_html
    stream_html(out, {"schema": SCHEMA, "path": path}, matches)


#: older names still accepted (``term``: the readable format is ``text`` in every command)
ALIASES = {"term": "text"}

#: the ``--format`` choices of ``shengji report`` (one member per registered writer, then
#: the aliases, which ``--help`` leaves out)
ReportFormat = Enum("ReportFormat", {name: name for name in [*WRITERS, *ALIASES]}, type=str)  # type: ignore[misc]  # built from the registry
ReportFormat.aliases = ALIASES  # type: ignore[attr-defined]


def canonical(name: str) -> str:
    """The format ``name`` stands for (``term`` → ``text``)."""
    return ALIASES.get(name, name)
