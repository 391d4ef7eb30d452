"""The HTML replay viewer: one self-contained page per report.

:func:`render_html` takes the dict of :func:`analyzer.report.reading.build_report`
and returns one HTML page that opens from ``file://`` with no network
request: inline CSS, a small vanilla-JS script and inline SVG charts, all
from ``analyzer/report/templates/``: the scaffolding, styles and stepping code shared
with the Gouji viewer (``base.css``, ``stepper.js``) and this viewer's own
``viewer.{html,css,js}``. The page holds its data as one JSON blob,
``<script type="application/json" id="data">``: the report dict itself, plus
one key ``"viewer"`` with what the dict does not say and the page needs (the
trump cards of each hand, for drawing them in gold, and, where the bury was
reviewed, the hand's display order, for sorting the burier's hand with another
candidate buried).

The page shows the table (N top, W left, S bottom, E right), each seat's
cards, trump and level, and steps through a match: per hand, the
declarations/bury step, every trick (winner highlighted, running attacker
points) and the hand's result. Diagnostics and mistake annotations appear at
the step they belong to. A points-over-tricks chart and a level-progression
chart are drawn as inline SVG.

It steps play by play (← →; ``data-kind`` ``play`` before a trick is
complete), trick by trick (↑ ↓) and by hand (PgUp/PgDn), from mistake to
mistake (n/p); every position has a URL fragment, ``#m1-h2-t5`` (trick 5
complete), ``#m1-h2-t5-p2`` (its first two plays), ``-vS`` (as South saw it:
the others' hands face down, voids shown so far, friends as revealed). Where
the report's review holds the full review's per-decision JSON
(``review.hands[].decisions``: seat, trick, play_index, kind, chosen,
alternatives [{play, expected, stderr}], band, explanation, exact, actual
{best, line}), the Review panel shows it at its play; otherwise "not reviewed".
The bury's decision (``kind`` ``bury``, trick 0, ``play_index`` null) is shown
at the declarations/bury step: its band on the bury line, and in the Review
panel the candidate buries (``options_considered``) with their values, the
explanation and the SJ603 finding (its repeat of the explanation's text shown
as "the explanation above"); a click on a candidate shows it as the kitty and
the burier's hand with the cards actually buried back in (a second click, or
the bury made, shows the bury made again); in another seat's view it is
hidden, like the kitty. The
review's card text (suit symbols, ``♠K10``) reads like SJN text.

The current state is exposed on ``#status`` (``data-match``, ``data-hand``,
``data-step``, ``data-play``, ``data-plays``, ``data-kind``, ``data-trick``,
``data-winner``, ``data-score``, ``data-view``, ``data-mistake``) for tests
and scripts.

Nothing here checks a rule: the hands at each step are the report's start
hands less the cards played (what :meth:`replay.results.HandResult.hands_at`
computes), and the trump cards come from :class:`replay.order.Order`.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analyzer.report.reading import Annotator
    from notation.model import Record
    from replay.order import Order
    from replay.ruleset import Ruleset

#: a report dict of :func:`analyzer.report.reading.build_report` (or one of its parts): JSON-ready
JsonDict = dict[str, Any]

#: version of the ``"viewer"`` key of the data blob
VIEWER_SCHEMA = 1
#: the template files, in ``analyzer/report/templates/``
TEMPLATES = ("base.css", "stepper.js", "head.html", "viewer.html", "viewer.css", "viewer.js")

_SLOT = re.compile(r"\{\{(title|css|js|data|noscript|csp)\}\}")


#: ``{{> head.html generator=analyzer.viewer}}``: a shared partial, its ``{{key}}`` slots filled (the generator
#: names are the pages' labels since the first viewer, kept byte for byte when the modules moved)
_PARTIAL = re.compile(r"\{\{> ([\w.-]+)((?: [\w-]+=[^\s}]+)*)\}\}")


@cache
def viewer_template(name: str) -> str:
    """A template file, its partials (``templates/head.html``, shared by the pages) put in."""
    text = resources.files("analyzer.report").joinpath("templates", name).read_text(encoding="utf-8")

    def partial(m: re.Match[str]) -> str:
        body = viewer_template(m.group(1)).rstrip("\n")
        for pair in m.group(2).split():
            key, value = pair.split("=", 1)
            body = body.replace("{{" + key + "}}", value)
        return body
    return _PARTIAL.sub(partial, text)


def _resolved_ruleset(match: JsonDict) -> Ruleset | None:
    """The match's ruleset from its name and overrides (as the report wrote them), or None."""
    from primitives.diagnostics import Span
    from replay.ruleset import PRESETS, resolve

    rs = match.get("ruleset") or {}
    name = rs.get("name") or "standard"
    if name not in PRESETS:
        return None
    try:
        ruleset, _ = resolve(name, {k: (v, Span()) for k, v in (rs.get("overrides") or {}).items()})
    except Exception:  # a report built by hand: no trump marks rather than no page
        return None
    return ruleset


def _order(match: JsonDict, hand: JsonDict) -> Order | None:
    """The hand's :class:`replay.order.Order` (``None`` when the trump, the level or the rules are unknown)."""
    from primitives.cards import parse_rank
    from replay.order import NT, Order

    if hand.get("trump") is None or not hand.get("level"):
        return None
    ruleset = _resolved_ruleset(match)
    if ruleset is None:
        return None
    try:
        level = parse_rank(hand["level"])
        trump = NT if hand["trump"] == "NT" else "SHDC".index(hand["trump"])
    except ValueError:
        return None
    return Order.for_ruleset(level, trump, ruleset)


def trump_cards(match: JsonDict, hand: JsonDict) -> str | None:
    """SJN text of every card that is trump in ``hand`` (``None`` when the trump is unknown)."""
    from primitives.cards import NUM_CARDS, format_cards

    order = _order(match, hand)
    if order is None:
        return None
    return format_cards(order.sorted(c for c in range(NUM_CARDS) if order.is_trump(c)))


def display_order(match: JsonDict, hand: JsonDict) -> str | None:
    """SJN text of the 54 cards in ``hand``'s display order (:meth:`replay.order.Order.sorted`:
    trumps high to low, then ♠ ♥ ♦ ♣), for a hand whose review has a bury decision: a click on
    another candidate bury puts the cards actually buried back in the burier's hand, and the page
    sorts it by this. ``None`` for other hands, or when the trump is unknown."""
    from primitives.cards import NUM_CARDS, format_cards

    if hand.get("number") not in _bury_reviewed(match):
        return None
    order = _order(match, hand)
    return None if order is None else format_cards(order.sorted(range(NUM_CARDS)))


def _bury_reviewed(match: JsonDict) -> set[Any]:
    """The numbers of the hands whose review (``review.hands[].decisions``) has a bury decision."""
    review = match.get("review")
    hands = review.get("hands") if isinstance(review, dict) else None
    out = set()
    for h in hands if isinstance(hands, list) else ():
        ds = h.get("decisions") if isinstance(h, dict) else None
        if isinstance(ds, list) and any(isinstance(d, dict) and d.get("kind") == "bury" for d in ds):
            out.add(h.get("hand"))
    return out


def viewer_key(matches: list[JsonDict]) -> JsonDict:
    """The ``"viewer"`` key of the page's data for ``matches``: per match and hand, the trump cards
    (:func:`trump_cards`) and the display order where a bury was reviewed (:func:`display_order`)."""
    return {"schema": VIEWER_SCHEMA,
            "trumps": [[trump_cards(m, h) for h in m.get("hands", [])] for m in matches],
            "orders": [[display_order(m, h) for h in m.get("hands", [])] for m in matches]}


def view_data(report: JsonDict) -> JsonDict:
    """The page's data: the report dict plus the ``"viewer"`` key (the report is not changed)."""
    return {**report, "viewer": viewer_key(report.get("matches", []))}


def data_json(data: Any) -> str:
    """``data`` as compact JSON that is safe inside a ``<script>`` element.

    ``<`` is written ``\\u003c`` (no ``</script>`` or ``<!--`` can appear) and
    ``://`` as ``:\\/\\/`` (a URL in a tag is not a URL in the page); both
    parse back to the same strings.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("://", ":\\/\\/")


def content_security_policy(script: str) -> str:
    """The pages' Content-Security-Policy: nothing is fetched (no network, no
    frame, no form), and the one script that runs is the page's own (by its
    SHA-256); a record's text, inserted as text, could not run even if it were
    read as HTML. Inline styles stay allowed (the charts set widths)."""
    import base64
    import hashlib
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; "
            "img-src data:; font-src data:; base-uri 'none'; form-action 'none'")


def page_title(report: JsonDict) -> str:
    path = report.get("path") or ""
    matches = report.get("matches", [])
    event = ""
    if len(matches) == 1:
        tags = matches[0].get("tags") or {}
        event = tags.get("Event") or ""
    bits = [b for b in (event, path) if b]
    return "Shengji replay" + (": " + " · ".join(bits) if bits else "")


def render_html(report: JsonDict) -> str:
    """The report as one self-contained interactive HTML page (no network request)."""
    values = {
        "title": html.escape(page_title(report)).replace("://", ":&#47;&#47;"),
        "css": viewer_template("base.css") + "\n" + viewer_template("viewer.css"),
        "js": re.sub(r"</(script)", r"<\\/\1", viewer_template("stepper.js") + "\n" + viewer_template("viewer.js"),
                     flags=re.IGNORECASE),
        "csp": "",
        "data": data_json(view_data(report)),
        "noscript": "This replay needs JavaScript; the data is in the JSON block of this file.",
    }
    values["csp"] = content_security_policy(values["js"])
    return _SLOT.sub(lambda m: values[m.group(1)], viewer_template("viewer.html"))


def stream_html(out: Any, report_head: JsonDict, matches: Any) -> None:
    """:func:`render_html` of ``{**report_head, "matches": list(matches)}``, written
    to ``out`` match by match: the same bytes, while memory holds two matches
    at a time (the page's title needs to know whether there is only one)."""
    it = iter(matches)
    first = [m for m in (next(it, None), next(it, None)) if m is not None]
    head = {**report_head, "matches": first if len(first) < 2 else first[:1] + [{}, {}]}
    js = re.sub(r"</(script)", r"<\\/\1", viewer_template("stepper.js") + "\n" + viewer_template("viewer.js"), flags=re.IGNORECASE)
    values = {
        "title": html.escape(page_title(head)).replace("://", ":&#47;&#47;"),
        "css": viewer_template("base.css") + "\n" + viewer_template("viewer.css"),
        "js": js,
        "csp": content_security_policy(js),
        "noscript": "This replay needs JavaScript; the data is in the JSON block of this file.",
    }
    page = _SLOT.sub(lambda m: values[m.group(1)] if m.group(1) != "data" else "\0", viewer_template("viewer.html"))
    before, after = page.split("\0", 1)
    out.write(before)

    def piece(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c").replace(
            "://", ":\\/\\/")

    out.write("{" + ",".join(f"{piece(k)}:{piece(v)}" for k, v in report_head.items() if k != "matches")
              + ("," if len(report_head) > 1 else "") + '"matches":[')
    trumps, orders = [], []
    import itertools
    for k, m in enumerate(itertools.chain(first, it)):
        if k:
            out.write(",")
        out.write(piece(m))
        key = viewer_key([m])
        trumps += key["trumps"]
        orders += key["orders"]
    out.write('],"viewer":' + piece({"schema": VIEWER_SCHEMA, "trumps": trumps, "orders": orders}) + "}")
    out.write(after)


def render_text(text: str, path: str = "", *, rules: str | None = None, annotate: Annotator | None = None) -> str:
    """Every record of an SJN ``text`` replayed, reported and rendered as one page."""
    from analyzer.report.reading import build_report

    return render_html(build_report(text, path, rules=rules, annotate=annotate))


def render_record(record: Record, *, path: str = "", rules: str | None = None,
                  annotate: Annotator | None = None) -> str:
    """One :class:`notation.model.Record` (e.g. from :func:`analyzer.play.generate.generate_match`) as a page."""
    from notation import write

    return render_text(write([record]), path, rules=rules, annotate=annotate)


def main(argv: list[str] | None = None) -> int:
    """``python -m analyzer.report.viewer FILE [-o OUT]``: a page for an SJN file (stdout by default)."""
    import argparse
    import sys
    from pathlib import Path

    ap = argparse.ArgumentParser(prog="python -m analyzer.report.viewer", description=main.__doc__)
    ap.add_argument("file")
    ap.add_argument("-o", "--output")
    ap.add_argument("--rules")
    args = ap.parse_args(argv)
    page = render_text(Path(args.file).read_text(encoding="utf-8"), args.file, rules=args.rules)
    if args.output:
        from analyzer.io.atomic import write_text_atomic

        write_text_atomic(args.output, page)
    else:
        sys.stdout.write(page)
    return 0


__all__ = ["content_security_policy", "render_html", "stream_html", "render_text", "render_record", "view_data", "data_json",
           "trump_cards", "display_order", "viewer_key",
           "VIEWER_SCHEMA", "TEMPLATES"]

if __name__ == "__main__":
    raise SystemExit(main())
