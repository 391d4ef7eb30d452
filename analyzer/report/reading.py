"""Reports of a text: every record read, replayed and reported, one match
at a time (:func:`iter_matches`), or all at once (:func:`build_report`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from analyzer.report.hands import diagnostic_dict
from analyzer.report.json_text import MatchJSON, match_json
from analyzer.report.matches import SCHEMA, build_match
from primitives.diagnostics import Diagnostic
from replay.seats import SEATS

if TYPE_CHECKING:
    from notation.model import Record


#: ``(record, match) -> Iterable[Diagnostic]``: annotations added to the report (mistakes)
Annotator = Callable[[Any, Any], Iterable[Diagnostic]]


def build_report(text: str, path: str = "", *, rules: str | None = None,
                 annotate: Annotator | None = None) -> dict[str, Any]:
    """Every record of ``text`` replayed and reported: ``{"path", "schema", "matches": [...]}``.

    ``text`` is read as :func:`notation.detect.detect` tells (SJN, the tool's
    JSON, …), lines cut exactly as the reader cuts them. ``rules`` overrides
    each record's ``[Rules]`` tag; ``annotate`` (the mistake rules) adds
    annotations per record.
    """
    from notation.detect import detect_text, read
    pairs = read(text, detect_text(text, path))
    return {"schema": SCHEMA, "path": path,
            "matches": list(iter_matches(pairs, rules=rules, annotate=annotate))}


def _empty_match(diags: Sequence[Diagnostic]) -> dict[str, Any]:
    """A chunk that held no record at all: its diagnostics, kept on the report."""
    return {"record": None, "line": diags[0].line, "tags": {}, "ruleset": {"name": "", "overrides": {}},
            "winner": None, "hands": [], "progression": [],
            "players": {s: {"name": None, "tricks_won": 0, "points_won": 0, "ruffs": 0,
                            "throws": 0, "failed_throws": 0, "diagnostics": [],
                            "mistakes": []} for s in SEATS},
            "diagnostics": [diagnostic_dict(d) for d in diags], "annotations": []}


def iter_matches(pairs: Iterable[tuple[Record | None, Sequence[Diagnostic]]], *, rules: str | None = None,
                 annotate: Annotator | None = None, fmt: str | None = None) -> Iterable[dict[str, Any]]:
    """One match dict per ``(record, diagnostics)`` of a reader, as they come:
    each record is replayed, reported and dropped (memory holds one record).

    ``fmt="json"``: each match comes as its JSON text instead (a
    :class:`MatchJSON`, what :func:`stream_json` writes for the dict, made
    without building the dicts of the tricks)."""
    from replay.game import replay

    as_json = fmt == "json"
    index = 0
    for record, diags in pairs:
        if record is None or (not record.hands and not record.tags):
            if diags:
                empty = _empty_match(sorted(diags, key=Diagnostic.sort_key))
                yield MatchJSON(_nested(empty)) if as_json else empty  # type: ignore[misc]
            continue
        index += 1
        match = replay(record, rules=rules)
        got = annotate(record, match) if annotate is not None else []
        # the mistake rules' player summary travels on the list they return
        review = getattr(got, "summary", None)
        notes = list(got)
        if as_json:
            yield MatchJSON(match_json(record, match, index=index, parse_diagnostics=diags,  # type: ignore[misc]
                                       annotations=notes, review=review))
        else:
            yield build_match(record, match, index=index, parse_diagnostics=diags, annotations=notes,
                              review=review)


def _nested(m: dict[str, Any]) -> str:
    from analyzer.io.jsonout import dumps_nested
    return dumps_nested(m, 2)
