"""The Gouji (够级) HTML replay viewer: one self-contained page per report.

:func:`render_html` takes the dict of :func:`analyzer.games.gouji.analysis.build_report`
(whose games carry the engine's per-action timeline, ``"steps"``) and returns
one page that opens from ``file://`` with no network request: the shared
scaffolding (``templates/base.css``, ``templates/stepper.js``) plus the Gouji
table (``templates/gouji.{html,css,js}``). The page holds its data as one
JSON blob ``<script type="application/json" id="data">``: the report dict plus
a ``"viewer"`` key with the engine's table (seats, teams, each seat's 对头,
the place names), so the page draws the six seats without knowing a rule.

The current state is exposed on ``#status`` (``data-game``, ``data-step``,
``data-kind``, ``data-seat``, ``data-top``, ``data-owner``, ``data-target``,
``data-ask``, ``data-passed``, ``data-finished``, ``data-places``,
``data-score`` …) for tests and scripts.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any

from analyzer.report.viewer import content_security_policy, data_json
from analyzer.report.viewer import viewer_template as _template

if TYPE_CHECKING:
    from notation.gjn_model import GoujiRecord

#: version of the ``"viewer"`` key of the data blob
VIEWER_SCHEMA = 1
#: the template files, in ``analyzer/report/templates/`` (shared ones first)
TEMPLATES = ("base.css", "stepper.js", "head.html", "gouji.html", "gouji.css", "gouji.js")

_SLOT = re.compile(r"\{\{(title|css|js|data|noscript|csp)\}\}")


def table_data() -> dict[str, Any]:
    """Seats, teams, 对头 and place names from the engine (``replay.gouji.table``)."""
    try:
        from replay.gouji.table import PLACE_NAMES, SEAT_NAMES, TEAM_NAMES, opp, team
    except ImportError:  # no engine: the page still draws the record's own lines
        return {}
    return {"seats": list(SEAT_NAMES),
            "team": {s: TEAM_NAMES[team(i)] for i, s in enumerate(SEAT_NAMES)},
            "opp": {s: SEAT_NAMES[opp(i)] for i, s in enumerate(SEAT_NAMES)},
            "places": {str(k): n for k, n in enumerate(PLACE_NAMES) if k}}


def view_data(report: dict[str, Any]) -> dict[str, Any]:
    """The page's data: the report dict plus the ``"viewer"`` key (the report is not changed)."""
    return {**report, "viewer": {"schema": VIEWER_SCHEMA, "table": table_data()}}


def page_title(report: dict[str, Any]) -> str:
    matches = report.get("matches", [])
    event = matches[0].get("title") or "" if len(matches) == 1 else ""
    bits = [b for b in (event, report.get("path") or "") if b]
    return "Gouji replay" + (": " + " · ".join(bits) if bits else "")


def _script(text: str) -> str:
    return re.sub(r"</(script)", r"<\\/\1", text, flags=re.IGNORECASE)


def render_html(report: dict[str, Any]) -> str:
    """The Gouji report as one self-contained interactive HTML page (no network request)."""
    return _page(report, data_json(view_data(report)))


def _page(report: dict[str, Any], data: str) -> str:
    """The page of ``report`` (its title from the report) with ``data`` in its JSON block."""
    values = {
        "title": html.escape(page_title(report)).replace("://", ":&#47;&#47;"),
        "css": _template("base.css") + "\n" + _template("gouji.css"),
        "js": _script(_template("stepper.js") + "\n" + _template("gouji.js")),
        "data": data,
        "noscript": "This replay needs JavaScript; the data is in the JSON block of this file.",
    }
    values["csp"] = content_security_policy(values["js"])
    return _SLOT.sub(lambda m: values[m.group(1)], _template("gouji.html"))


#: stands for the data block in a page written in pieces (never in a template)
_DATA = "\x00data\x00"


def write_html(out: IO[str], head: dict[str, Any], matches: Iterable[dict[str, Any]], *, single: bool) -> None:
    """:func:`render_html` of the report ``head`` (its keys but ``matches``) with
    ``matches``, written to ``out`` a match at a time (the same bytes; memory: one
    match). ``single``: there is one match (the page's title shows its event)."""
    first = iter(matches)
    m1 = next(first, None)
    titled = {**head, "matches": [m1] if single and m1 is not None else []}
    before, after = _page(titled, _DATA).split(_DATA, 1)
    out.write(before)
    shell = data_json(view_data({**head, "matches": []}))
    opening, closing = shell.split('"matches":[]', 1)
    out.write(opening + '"matches":[')
    if m1 is not None:
        out.write(data_json(m1))
        for m in first:
            out.write("," + data_json(m))
    out.write("]" + closing)
    out.write(after)


def render_record(record: GoujiRecord, *, path: str = "", rules: str | None = None) -> str:
    """One :class:`notation.gjn_model.GoujiRecord` (e.g. from
    :func:`analyzer.games.gouji.generate.generate_match`) as a page, read back from
    its GJN text so that every step carries its line."""
    from analyzer.games.gouji.analysis import build_report
    from notation import gjn
    records, diags = gjn.parse(gjn.write([record]))
    return render_html(build_report([(r, diags if k == 0 else []) for k, r in enumerate(records)], path,
                                    rules=rules))


__all__ = ["TEMPLATES", "VIEWER_SCHEMA", "render_html", "render_record", "table_data", "view_data"]
