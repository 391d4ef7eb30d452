"""A match's JSON text as ``shengji report --format json`` writes it.

:func:`match_json` does not build the dicts of the tricks and plays (nine in
ten of a match's lines): it encodes the rest of the match dict with a mark in
their place and writes the tricks from templates, the same text character for
character (a test compares them on every sample and on generated matches of
every preset; what the templates do not expect takes the plain way).
:func:`stream_json` writes a whole report, match by match."""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from analyzer.report.cardtext import card_text
from analyzer.report.matches import SCHEMA, match_model
from primitives.diagnostics import Diagnostic

if TYPE_CHECKING:
    from notation.model import Record
    from replay.results import HandResult, MatchResult


# -- a match's JSON text, without the dicts of its tricks ------------------------------------------

#: what stands for a hand's tricks in the dict :func:`match_json` encodes (a
#: string no record holds: its random part is drawn once per process)
_TRICKS_MARK = f"@@tricks@{os.urandom(8).hex()}@@"
_TRICKS_MARK_JSON = f'"{_TRICKS_MARK}"'
_JSON_BOOL = {True: "true", False: "false"}


class MatchJSON(str):
    """A match's JSON text as :func:`stream_json` writes it (nested two levels
    deep, as :func:`analyzer.io.jsonout.dumps_nested` ``(match, 2)`` writes it)."""

    __slots__ = ()


def _json_str(s: str, memo: dict[str, str] = {}) -> str:  # noqa: B006  # a memo on purpose
    """``json.dumps(s, ensure_ascii=False)`` (seats and card texts: a few hundred)."""
    got = memo.get(s)
    if got is None:
        if type(s) is not str:
            raise TypeError(f"not a string: {s!r}")
        if len(memo) >= 4096:
            memo.clear()
        got = memo[s] = json.dumps(s, ensure_ascii=False)
    return got


class _PlayOpen(dict[str, str]):
    """seat → a play's text up to its cards (in a trick of :func:`match_json`)."""

    def __missing__(self, seat: str) -> str:
        got = self[seat] = f'{{\n                  "seat": {_json_str(seat)},\n                  "cards": "'
        return got


class _JSONStr(dict[str, str]):
    """string → its JSON text (seats: a few)."""

    def __missing__(self, s: str) -> str:
        got = _json_str(s)
        if len(self) < 256:
            self[s] = got
        return got


_PLAY_OPEN = _PlayOpen()
_SEAT_JSON = _JSONStr()
#: a play's text after its cards (not a failed throw); before a failed throw's attempt
_PLAY_CLOSE = '",\n                  "attempted": null\n                }'
_PLAY_ATTEMPT = '",\n                  "attempted": "'
_PLAY_ATTEMPT_CLOSE = '"\n                }'
_PLAY_SEP = ",\n                "


def _tricks_json(hr: HandResult) -> str:
    """The JSON text of the hand's tricks (:func:`_trick_dicts`) as
    :func:`match_json` writes them (a hand's keys indented by ten spaces; the
    list's first line not indented), made from templates: a card text needs
    no escape (suit letters, ranks, jokers). KeyError or TypeError for what
    the templates do not expect (a trick without plays, a value of another
    type): the caller encodes the dicts."""
    tricks = hr.tricks
    if not tricks:
        return "[]"
    text = card_text(hr.order)
    known = text.memo.get  # the texts of plays seen before (plays' cards are tuples)
    js, bools, sep, opened = _SEAT_JSON, _JSON_BOOL, _PLAY_SEP.join, _PLAY_OPEN
    closed, attempt, attempt_closed = _PLAY_CLOSE, _PLAY_ATTEMPT, _PLAY_ATTEMPT_CLOSE
    try:  # each play's seat and attempt (the record's play) and its cards (a tuple), as
        # ``TrickResult.plays`` pairs them, without building its PlayResult objects
        rows: list[Iterable[tuple[Any, tuple[int, ...]]]] = [t.play_rows() for t in tricks]
    except AttributeError:  # (a trick-like value without play_rows: its public plays)
        rows = [[(p, p.cards) for p in t.plays] for t in tricks]
    out = []
    for t, row in zip(tricks, rows):
        plays = [opened[p.seat] + (known(c) or text(c))
                 + (closed if not p.attempted else attempt + text(p.attempted) + attempt_closed)
                 for p, c in row]
        if not plays:
            raise KeyError("a trick without plays")
        if (type(t.number) is not int or type(t.points) is not int or type(t.penalty) is not int
                or type(t.attacker_points) is not int):
            raise TypeError("a trick's number or points not an int")
        out.append(f'{{\n              "number": {t.number},\n              "leader": {js[t.leader]},\n'
                   f'              "plays": [\n                {sep(plays)}\n              ],\n'
                   f'              "winner": {js[t.winner]},\n              "points": {t.points},\n'
                   f'              "to_attackers": {bools[t.to_attackers]},\n              "penalty": {t.penalty},\n'
                   f'              "attacker_points": {t.attacker_points},\n              "throw": {bools[t.is_throw]},\n'
                   f'              "failed_throw": {bools[t.failed_throw]},\n              "ruffed": {bools[t.ruffed]}\n'
                   f'            }}')
    return "[\n            " + ",\n            ".join(out) + "\n          ]"


def match_json(record: Record, match: MatchResult, *, index: int = 1, parse_diagnostics: Sequence[Diagnostic] = (),
               annotations: Sequence[Diagnostic] = (), review: dict[str, Any] | None = None) -> str:
    """``dumps_nested(build_match(record, match, ...), 2)``, character for
    character (:mod:`analyzer.io.jsonout`), made without the dicts of the tricks:
    the rest of the match is encoded with a mark in place of each hand's
    tricks, whose text comes from templates (:func:`_tricks_json`)."""
    from analyzer.io.jsonout import dumps_nested
    args = (record, match, index, parse_diagnostics, annotations, review)
    try:
        parts = dumps_nested(match_model(*args, _TRICKS_MARK), 2).split(_TRICKS_MARK_JSON)
        marked = [hr for hr in match.hands if hr.team is None]
        if len(parts) == len(marked) + 1:
            out = [parts[0]]
            for hr, part in zip(marked, parts[1:]):
                out.append(_tricks_json(hr))
                out.append(part)
            return "".join(out)
    except (TypeError, KeyError):  # a value the templates do not expect: the plain way
        pass
    return dumps_nested(match_model(*args, None), 2)


def render_json(report: dict[str, Any]) -> str:
    # json.dumps(report, indent=2, ensure_ascii=False) + "\n", faster
    from analyzer.io.jsonout import dumps
    return dumps(report)


def stream_json(path: str, matches: Iterable[dict[str, Any]]) -> Iterable[str]:
    """:func:`render_json` piece by piece (the same text), one match at a time
    (a match dict, or its text already: :class:`MatchJSON`).

    The cyclic garbage collector is paused meanwhile (as ``lint`` does): a
    match's objects hold no cycles and are freed by reference counting; it
    runs between matches only should young objects pile up all the same."""
    from analyzer.io.jsonout import dumps, dumps_nested
    head = dumps({"schema": SCHEMA, "path": path}).rstrip("\n")
    head = head[:-2] + ',\n  "matches": ['
    empty = True
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for m in matches:
            yield head + ("\n    " if empty else ",\n    ") + (m if isinstance(m, MatchJSON) else dumps_nested(m, 2))
            head = ""
            empty = False
            if gc.get_count()[0] > 100_000:
                gc.collect()
    finally:
        if was_enabled:
            gc.enable()
    yield head + ("]\n}\n" if empty else "\n  ]\n}\n")
