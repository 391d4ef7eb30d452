"""The events of a jerryyyu shengji-fly log, as one JSON document or one event
per line (see :mod:`analyzer.io.importers.fly`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from analyzer.io.importers import _json
from analyzer.io.importers._common import LogImporter
from primitives.diagnostics import Span

RULES = "shengji-fly"
FLY_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3}
FLY_TRUMPS = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}
IGNORED = {"chat", "seat_claimed", "bot_timing", "evaluation_invalidated"}
MOVES = {"declare", "trump", "bury", "play", "trick", "round_end"}


@dataclass
class FlyEvent:
    data: dict[str, Any]
    doc: _json.JsonDoc
    base: tuple[Any, ...]  # path of the event inside doc

    def pos(self, *path: Any) -> tuple[int, int]:
        return self.doc.pos(*self.base, *path)

    def span(self, *path: Any) -> Span:
        return self.doc.span(*self.base, *path)


class FlyEvents(LogImporter):
    """Reading the events of :class:`analyzer.io.importers.fly._Importer`."""

    # the importer's state, set by :class:`analyzer.io.importers.fly._Importer`
    plays_only: bool

    # -- reading ------------------------------------------------------------------------
    def events(self) -> list[FlyEvent]:
        stripped = self.text.lstrip()
        if stripped.startswith("["):
            return self._document_events()
        if stripped.startswith("{"):
            first_line = stripped.split("\n", 1)[0]
            one = _json.read(first_line)
            if not (one.complete and isinstance(one.value, dict) and "e" in one.value):
                doc = _json.read(self.text)
                if isinstance(doc.value, dict) and isinstance(doc.value.get("events"), list):
                    return self._document_events(doc)
                if _plays_only(doc.value):
                    self.plays_only = True
                    self._report_plays_only(doc)
                    return []
        return self._jsonl_events()

    def _document_events(self, doc: _json.JsonDoc | None = None) -> list[FlyEvent]:
        doc = doc or _json.read(self.text)
        if doc.error:
            line, col, msg = doc.error
            self.sink.add("SJ701", (line, col), f"the log is not complete JSON: {msg}; "
                                                f"the events before this point are imported")
        value = doc.value
        base: tuple[Any, ...] = ()
        if isinstance(value, dict):
            value, base = value.get("events"), ("events",)
        if not isinstance(value, list):
            if not doc.error:
                self.sink.add("SJ701", doc.pos(), "not a shengji.fly.dev log: expected JSON lines, "
                                                  "a list of events or an object with an `events` list")
            return []
        out = []
        for i, ev in enumerate(value):
            if isinstance(ev, dict):
                out.append(FlyEvent(ev, doc, base + (i,)))
            else:
                self.sink.add("SJ705", doc.pos(*base, i), "an event must be a JSON object; skipped")
        return out

    def _report_plays_only(self, doc: _json.JsonDoc) -> None:
        """The engine's regression goldens (``{name: [[seat, cards], …]}``): plays
        only, no deal, kitty, trump or bury, so nothing can be replayed; each
        history is named at its position."""
        for name, plays in doc.value.items():
            self.sink.add("SJ705", doc.pos(name),
                          f"`{name}` is a plays-only history ({len(plays)} plays as [seat, cards], "
                          f"shengji.fly.dev's regression-golden form): it has no deal, kitty, trump or "
                          f"bury, so it cannot be replayed or checked; not imported")

    def _jsonl_events(self) -> list[FlyEvent]:
        out = []
        lines = self.text.split("\n")
        for no, line in enumerate(lines):
            if not line.strip():
                continue
            doc = _json.read(line, line_offset=no)
            if doc.error or not isinstance(doc.value, dict):
                if doc.error:
                    l, c, msg = doc.error
                    last = no == len(lines) - 1 or not any(x.strip() for x in lines[no + 1:])
                    why = "the file is cut off here" if last and "truncated" in msg else msg
                    self.sink.add("SJ701", (l, c), f"unreadable line: {why}; skipped")
                else:
                    self.sink.add("SJ701", (no + 1, 1), "a line must hold one JSON object (an event); skipped")
                continue
            out.append(FlyEvent(doc.value, doc, ()))
        if not out and not self.sink.items:
            self.sink.add("SJ701", (1, 1), "no events: the text holds no shengji.fly.dev log")
        return out


def _plays_only(value: Any) -> bool:
    """``{name: [[seat, [card, …]], …], …}``: shengji.fly.dev's plays-only regression goldens."""
    if not isinstance(value, dict) or not value:
        return False
    for plays in value.values():
        if not isinstance(plays, list) or not plays:
            return False
        for p in plays:
            if not (isinstance(p, list) and len(p) == 2 and isinstance(p[0], int) and isinstance(p[1], list)
                    and all(isinstance(c, str) for c in p[1])):
                return False
    return True


PLAYS_ONLY = re.compile(r'^\s*\{\s*"[^"]*"\s*:\s*\[\s*\[\s*\d\s*,\s*\[\s*"(?:[SHDC](?:10|[2-9JQKA])|LJ|BJ)"')
