"""Match reports: one JSON-able dict per match, rendered to Markdown, JSON, HTML
or the terminal (:func:`analyzer.report.terminal_report.render_report`). This module is
the report's public face: it names the pieces, each in a module of its own.

:func:`build_report` reads a text (every record in it), replays each record
and builds, per record, a plain dict (:func:`build_match`):

* per hand (:mod:`.hands`, :func:`build_hand`): ruleset, levels, dealer, trump
  and how it was declared, the kitty before and after the bury, every trick
  (leader, plays, winner, points, the running attacker total), the kitty
  multiplier and final score, the level change and the next dealer, and the
  hand's diagnostics;
* per match (:mod:`.matches`): the level progression of both teams, the winner;
* per player (:mod:`.matches`): tricks and points won, ruffs, throws tried and
  failed, the diagnostics found on their plays and (a hook for the mistake
  rules of ``analyzer.review.mistakes``) their mistakes.

Cards in the dict are SJN text (``"SAKK H10"``), sorted in the hand's trump
order (:mod:`.cardtext`), so the JSON can be read back by any SJN reader.
Nothing here checks a rule: every value comes from :func:`replay.game.replay`.
Reading a text record by record is :mod:`.reading`; the JSON text of a match,
made without the dicts of its tricks, :mod:`.json_text`; the text pieces the
renderers share, :mod:`.text`; Markdown, :mod:`.markdown`.

The HTML page is made by one function, :func:`render_html`: the interactive
replay viewer of :mod:`analyzer.report.viewer`, self-contained (inline CSS,
JS and SVG; no network).
"""

from __future__ import annotations

from typing import Any

from analyzer.report.json_text import render_json
from analyzer.report.markdown import render_markdown

FORMATS = ("text", "md", "json", "html")


def render_html(report: dict[str, Any]) -> str:
    """The report as one self-contained HTML page: the interactive replay
    viewer of :mod:`analyzer.report.viewer` (inline CSS, JS and SVG; no network)."""
    from analyzer.report.viewer import render_html as viewer_html
    return viewer_html(report)


def render(report: dict[str, Any], fmt: str) -> str:
    """``md``, ``json`` or ``html`` text of a report (``term`` is :func:`analyzer.report.terminal_report.render_report`)."""
    if fmt == "md":
        return render_markdown(report)
    if fmt == "json":
        return render_json(report)
    if fmt == "html":
        return render_html(report)
    raise ValueError(f"unknown report format {fmt!r}")


__all__ = ["render_html", "render", "FORMATS"]
