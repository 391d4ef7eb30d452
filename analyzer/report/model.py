"""Match reports: one JSON-able dict per match, rendered to Markdown, HTML or
the terminal (:func:`analyzer.report.render.render_report`).

:func:`build_report` reads a text (every record in it), replays each record
and builds, per record, a plain dict (:func:`build_match`):

* per hand: ruleset, levels, dealer, trump and how it was declared, the kitty
  before and after the bury, every trick (leader, plays, winner, points, the
  running attacker total), the kitty multiplier and final score, the level
  change and the next dealer, and the hand's diagnostics;
* per match: the level progression of both teams, the winner;
* per player: tricks and points won, ruffs, throws tried and failed, the
  diagnostics found on their plays and (a hook for the mistake rules of
  ``analyzer.review.mistakes``) their mistakes.

Cards in the dict are SJN text (``"SAKK H10"``), sorted in the hand's trump
order, so the JSON can be read back by any SJN reader. Nothing here checks a
rule: every value comes from :func:`replay.game.replay`.

``shengji report --format json`` does not build the dicts of the tricks and
plays (nine in ten of a match's lines): :func:`match_json` encodes the rest of
the match dict with a mark in their place and writes the tricks from
templates, the same text character for character (a test compares them on
every sample and on generated matches of every preset; what the templates do
not expect takes the plain way).

The HTML page is made by one function, :func:`render_html`, which a richer
viewer can replace; it is self-contained (inline CSS, no script, no network).
"""

from __future__ import annotations

import gc
import html
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from primitives.cards import JOKER_SUIT, NUM_CARDS, format_cards, parse_cards, points, rank_name, suit_of, to_str
from primitives.diagnostics import Diagnostic
from replay.declare import act_text
from replay.order import NT, Order
from replay.ruleset import PRESETS, option_text, preset
from replay.seats import SEATS

if TYPE_CHECKING:
    from notation.model import Hand, Record
    from primitives.spans import Span
    from replay.game import HandResult, MatchResult
    from replay.ruleset import Ruleset

TAG_OF_SEAT = {"N": "North", "W": "West", "S": "South", "E": "East"}
FORMATS = ("text", "md", "json", "html")
#: the report dict's layout version (bumped when a key changes meaning)
SCHEMA = 1

#: ``(record, match) -> Iterable[Diagnostic]``: annotations added to the report (mistakes)
Annotator = Callable[[Any, Any], Iterable[Diagnostic]]


# -- building -------------------------------------------------------------------------------

#: per card, as :func:`format_cards` writes it (grouped, ASCII): after a card
#: of another suit (a space, then ``"SA"``), and after a card of its own suit
#: (``"A"``; a joker is never grouped: ``" BJ"``)
_SPACED = tuple(" " + to_str(c) for c in range(NUM_CARDS))
_GROUPED = tuple(_SPACED[c] if suit_of(c) == JOKER_SUIT else _SPACED[c][2:] for c in range(NUM_CARDS))
_SUIT = tuple(suit_of(c) for c in range(NUM_CARDS))


#: the text of card ``c`` after card ``b`` (``b`` = NUM_CARDS: after no card) at
#: ``_AFTER[b][c]``: grouped in ``b``'s suit, else spaced
_AFTER = tuple(tuple(_GROUPED[c] if b < NUM_CARDS and _SUIT[b] == _SUIT[c] else _SPACED[c]
                     for c in range(NUM_CARDS)) for b in range(NUM_CARDS + 1))


def _format(cards: Sequence[int]) -> str:
    """``format_cards(cards)`` (grouped, ASCII), by table look-ups: each
    card's text depends only on the card before it."""
    after = _AFTER
    return "".join([after[b][c] for b, c in zip((NUM_CARDS, *cards), cards)])[1:]


#: the text of one card, and of a pair, by its cards
_SAME_IN_EVERY_ORDER: dict[tuple[int, ...], str] = {
    **{(c,): _SPACED[c][1:] for c in range(NUM_CARDS)}, **{(c, c): _format((c, c)) for c in range(NUM_CARDS)}}


class _CardText:
    """SJN text of card groups sorted in one hand's trump order (as
    ``format_cards(order.sorted(cards))``; ``order`` None: as given),
    remembered: most plays are one to four cards and recur. A long holding is
    sorted by a precomputed rank (the order of ``order.sorted``: its sort key
    ends with the card itself, so different cards never tie)."""

    __slots__ = ("rank", "memo")

    def __init__(self, order: Order | None) -> None:
        self.rank: Callable[[int], int] | None = None
        if order is not None:
            rank = [0] * NUM_CARDS
            for i, c in enumerate(sorted(range(NUM_CARDS), key=order.sort_key)):
                rank[c] = i
            self.rank = rank.__getitem__
        #: texts of short groups, by the cards (a tuple) as played; one card or
        #: a pair reads the same in every order (most plays: known at once)
        self.memo: dict[tuple[int, ...], str] = dict(_SAME_IN_EVERY_ORDER)

    def __call__(self, cards: Sequence[int]) -> str:
        if len(cards) > 4:
            return _format(sorted(cards, key=self.rank) if self.rank is not None else cards)
        key = tuple(cards)
        text = self.memo.get(key)
        if text is None:
            if len(self.memo) >= 4096:
                self.memo.clear()
            rank = self.rank
            if rank is None:
                text = _format(key)
            elif len(key) == 2:  # (the most frequent: a follow of two cards)
                a, b = key if rank(key[0]) < rank(key[1]) else key[::-1]
                text = _SPACED[a][1:] + _AFTER[a][b]
            else:
                text = _format(sorted(key, key=rank))
            self.memo[key] = text
        return text


_CARD_TEXT: dict[Order | None, _CardText] = {}


def _card_text(order: Order | None) -> _CardText:
    """The (shared) :class:`_CardText` of an order (or of None: cards as given)."""
    got = _CARD_TEXT.get(order)
    if got is None:
        if len(_CARD_TEXT) >= 256:
            _CARD_TEXT.clear()
        got = _CARD_TEXT[order] = _CardText(order)
    return got


def _cards(cards: Sequence[int] | None, order: Order | None = None) -> str | None:
    if cards is None:
        return None
    return _card_text(order)(cards)


def _trump(t: int | None) -> str | None:
    if t is None:
        return None
    return "NT" if t == NT else "SHDC"[t]


def _levels(levels: dict[str, int] | None) -> dict[str, str] | None:
    if levels is None:
        return None
    return {team: rank_name(v) for team, v in levels.items()}


def diagnostic_dict(d: Diagnostic) -> dict[str, Any]:
    return {"code": d.code, "name": d.name, "severity": d.severity, "line": d.line, "column": d.column,
            "end_line": d.end_line, "end_column": d.end_column, "message": d.message, "hand": d.hand,
            "trick": d.trick}


def ruleset_overrides(ruleset: Ruleset) -> dict[str, str]:
    """The options of ``ruleset`` that differ from its preset (set by ``[Rule.x]`` tags)."""
    got = _OVERRIDES.get(id(ruleset))
    if got is not None and got[0] is ruleset:  # rulesets are frozen (and presets shared)
        return dict(got[1])
    base = preset(ruleset.name) if ruleset.name in PRESETS else preset("standard")
    over = {name: option_text(getattr(ruleset, name)) for name in type(ruleset).model_fields
            if name != "name" and getattr(ruleset, name) != getattr(base, name)}
    if len(_OVERRIDES) >= 64:
        _OVERRIDES.clear()
    _OVERRIDES[id(ruleset)] = (ruleset, over)  # the entry keeps the ruleset: its id stays its own
    return dict(over)


_OVERRIDES: dict[int, tuple[Ruleset, dict[str, str]]] = {}


def _declared_how(hand_node: Hand | None, hr: HandResult) -> str:
    if hand_node is None:
        return ""
    if hand_node.declare_none is not None:
        return f"nobody declared (no_declaration: {hr.ruleset.no_declaration})"
    decls = hand_node.declarations
    if not decls:
        return "given by the record (no declarations recorded)" if hand_node.trump is not None else ""
    parts = []
    acts = hr.declaration_acts  # the engine's reading of each line (replay.declare)
    for i, d in enumerate(decls):
        act = acts[i] if i < len(acts) else "declare"
        verb = act_text(act)
        at = f" @{d.at}" if d.at is not None else ""
        parts.append(f"{d.seat} {verb} {format_cards(d.cards)}{at}{' (refused)' if act == 'refused' else ''}")
    return "; ".join(parts)


def _in_span(d: Diagnostic, span: Span | None) -> bool:
    if not span or not span.line or not d.line:
        return False
    start = (span.line, span.column)
    end = (span.end_line or span.line, span.end_column or 10 ** 9)
    return start <= (d.line, d.column) < end or (d.line, d.column) == start


def _seat_of(d: Diagnostic, hr: HandResult | None) -> str | None:
    """The seat whose play a diagnostic points at (by position), if any."""
    if hr is None or d.trick is None or not 1 <= d.trick <= len(hr.tricks):
        tricks = hr.tricks if hr is not None else []
    else:
        tricks = [hr.tricks[d.trick - 1]]
    for t in tricks:
        for p in t.plays:
            if _in_span(d, p.span):
                return p.seat
    return None


def build_hand(hr: HandResult, hand_node: Hand | None = None,
               diagnostics: Sequence[Diagnostic] = ()) -> dict[str, Any]:
    """One hand of a :class:`replay.game.HandResult` as a dict."""
    return _build_hand(hr, hand_node, diagnostics, None)


def _trick_dicts(hr: HandResult, text: _CardText) -> list[dict[str, Any]]:
    known = text.memo.get  # the texts of plays seen before (plays' cards are tuples)
    return [{
        "number": t.number,
        "leader": t.leader,
        "plays": [{"seat": p.seat, "cards": known(p.cards) or text(p.cards),
                   "attempted": text(p.attempted) if p.attempted else None} for p in t.plays],
        "winner": t.winner,
        "points": t.points,
        "to_attackers": t.to_attackers,
        "penalty": t.penalty,
        "attacker_points": t.attacker_points,
        "throw": t.is_throw,
        "failed_throw": t.failed_throw,
        "ruffed": t.ruffed,
    } for t in hr.tricks]


def _build_hand(hr: HandResult, hand_node: Hand | None, diagnostics: Sequence[Diagnostic], tricks_mark: str | None) -> dict[str, Any]:
    """:func:`build_hand`; with ``tricks_mark``, a hand without friends gets
    that string in place of its tricks (:func:`match_json` writes them)."""
    order = hr.order
    text = _card_text(order)
    tricks: list[dict[str, Any]] | str
    if tricks_mark is not None and hr.team is None:
        tricks = tricks_mark
    else:
        tricks = _trick_dicts(hr, text)
    o = hr.outcome
    outcome = None
    if o is not None:
        outcome = {"levels": _levels(o.levels), "gained": o.gained, "next_dealer": o.next_dealer,
                   "dealers_keep": o.dealers_keep, "hooked_back": o.hooked_back,
                   "match_over": o.match_over, "winner": o.winner}
    start = {}
    if hr.tricks:
        start = {s: _cards(c, order) for s, c in zip(hr.seats, hr.tricks[0].hands_before)}
    elif hr.start_hands:
        start = {s: _cards(hr.start_hands.get(s, ()), order) for s in hr.seats}
    friends = {}
    if hr.team is not None:
        assert isinstance(tricks, list)
        for f in hr.friends:
            if f.seat is not None and f.trick is not None and 1 <= f.trick <= len(tricks):
                row = next((t for t in tricks if t["number"] == f.trick), None)
                if row is not None:
                    who = "the dealer takes" if f.seat == hr.dealer else f"{f.seat} joins:"
                    row.setdefault("joins", []).append(f"{who} {f.text}")
        # finding friends: the table, the dealer's final team, each call and its answer
        friends = {"seats": list(hr.seats), "team": list(hr.team), "bonus": hr.bonus,
                   "friends": [{"call": f.text, "ordinal": f.ordinal, "card": format_cards((f.card,)),
                                "seat": f.seat, "trick": f.trick} for f in hr.friends]}
    return {**friends,
        "number": hr.number,
        "line": hr.span.line,
        "ruleset": hr.ruleset.name,
        "levels": _levels(hr.levels),
        "level": rank_name(hr.level),
        "dealer": hr.dealer,
        "attackers": hr.attackers,
        "declarer": hr.declarer,
        "trump": _trump(hr.trump),
        "declared": _declared_how(hand_node, hr),
        "declarations": [{"seat": d.seat, "cards": format_cards(d.cards), "at": d.at}
                         for d in (hand_node.declarations if hand_node is not None else [])],
        "kitty": _cards(hr.kitty, order),
        "bury": _cards(hr.bury, order),
        "bury_points": points(hr.bury) if hr.bury is not None else None,
        "start_hands": start,
        "tricks": tricks,
        "timeline": [t.attacker_points for t in hr.tricks],
        "complete": hr.complete,
        "redeal": hr.redeal,
        "card_points": hr.card_points,
        "penalties": hr.penalties,
        "multiplier": hr.multiplier,
        "kitty_points": hr.kitty_points,
        "attacker_points": hr.attacker_points if hr.complete else None,
        "outcome": outcome,
        "diagnostics": [diagnostic_dict(d) for d in diagnostics],
    }


def build_match(record: Record, match: MatchResult, *, index: int = 1, parse_diagnostics: Sequence[Diagnostic] = (),
                annotations: Sequence[Diagnostic] = (), review: dict[str, Any] | None = None) -> dict[str, Any]:
    """One record and its :class:`replay.game.MatchResult` as a JSON-able dict."""
    return _build_match(record, match, index, parse_diagnostics, annotations, review, None)


def _build_match(record: Record, match: MatchResult, index: int, parse_diagnostics: Sequence[Diagnostic],
                 annotations: Sequence[Diagnostic], review: dict[str, Any] | None, tricks_mark: str | None) -> dict[str, Any]:
    all_diags = sorted([*parse_diagnostics, *match.diagnostics], key=Diagnostic.sort_key)
    hands = []
    n_nodes = len(record.hands)
    for hr in match.hands:
        node = record.hands[hr.number - 1] if hr.number - 1 < n_nodes else None
        hands.append(_build_hand(hr, node, [d for d in all_diags if d.hand == hr.number], tricks_mark))

    players: dict[str, dict[str, Any]] = {}
    for s in (match.hands[0].seats if match.hands else SEATS):
        players[s] = {"name": record.tag(TAG_OF_SEAT.get(s, s)), "tricks_won": 0, "points_won": 0, "ruffs": 0,
                      "throws": 0, "failed_throws": 0, "diagnostics": [], "mistakes": []}
    for hr in match.hands:
        for t in hr.tricks:
            w = players.get(t.winner)
            if w is not None:
                w["tricks_won"] += 1
                w["points_won"] += t.points
                if t.ruffed:
                    w["ruffs"] += 1
            lead = players.get(t.leader)
            if lead is not None and t.is_throw:
                lead["throws"] += 1
                if t.failed_throw:
                    lead["failed_throws"] += 1
    by_hand = {hr.number: hr for hr in match.hands}
    for d in all_diags:
        seat = _seat_of(d, by_hand.get(d.hand)) if d.hand is not None else None
        if seat is not None:
            players[seat]["diagnostics"].append(d.code)
    for d in sorted(annotations, key=Diagnostic.sort_key):
        # a mistake names its seat (a bury is no trick's play: no span finds it)
        seat = getattr(d, "seat", None)
        if seat not in players:
            seat = _seat_of(d, by_hand.get(d.hand)) if d.hand is not None else None
        entry = diagnostic_dict(d)
        if seat is not None:
            players[seat]["mistakes"].append(entry)

    progression = []
    for h in hands:
        o = h["outcome"]
        if h["redeal"]:
            result = "redeal"
        elif o is None:
            result = "incomplete"
        else:
            result = (f"dealers keep the deal, +{o['gained']}" if o["dealers_keep"]
                      else f"attackers take the deal, +{o['gained']}")
            if o["hooked_back"]:
                result += ", hooked back"
            if o["match_over"]:
                result += f"; {o['winner']} wins"
        progression.append({"hand": h["number"], "dealer": h["dealer"], "before": h["levels"],
                            "after": o["levels"] if o else None,
                            "next_dealer": o["next_dealer"] if o else None,
                            "attacker_points": h["attacker_points"], "result": result})
    return {
        "record": index,
        "line": record.span.line,
        "tags": {t.name: t.value for t in record.tags},
        "ruleset": {"name": match.ruleset.name, "overrides": ruleset_overrides(match.ruleset)},
        "winner": match.winner,
        "hands": hands,
        "progression": progression,
        "players": players,
        "diagnostics": [diagnostic_dict(d) for d in all_diags],
        "annotations": [diagnostic_dict(d) for d in sorted(annotations, key=Diagnostic.sort_key)],
        **({"review": review} if review is not None else {}),
    }


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
    text = _card_text(hr.order)
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
        parts = dumps_nested(_build_match(*args, _TRICKS_MARK), 2).split(_TRICKS_MARK_JSON)
        marked = [hr for hr in match.hands if hr.team is None]
        if len(parts) == len(marked) + 1:
            out = [parts[0]]
            for hr, part in zip(marked, parts[1:]):
                out.append(_tricks_json(hr))
                out.append(part)
            return "".join(out)
    except (TypeError, KeyError):  # a value the templates do not expect: the plain way
        pass
    return dumps_nested(_build_match(*args, None), 2)


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


# -- text pieces shared by the renderers -----------------------------------------------------------

def sym(cards: str | None) -> str:
    """SJN card text in suit symbols: ``"SAKK H10"`` → ``"♠AKK ♥10"``."""
    if not cards:
        return "—" if cards is None else ""
    return format_cards(parse_cards(cards), unicode=True)


def trump_sym(t: str | None) -> str:
    if t is None:
        return "?"
    return "NT" if t == "NT" else sym(t + "A")[0]


def match_title(m: dict[str, Any], path: str = "") -> str:
    tags = m["tags"]
    bits = [tags[k] for k in ("Event", "Site", "Date") if k in tags]
    where = f"{path}:{m['line']}" if path and m.get("line") else path
    title = f"Match {m['record']}" if m["record"] is not None else "Unreadable text"
    if bits:
        title += ": " + ", ".join(bits)
    if where:
        title += f" ({where})"
    return title


def levels_text(levels: dict[str, Any] | None) -> str:
    """``NS 2, EW 5``, or each player's ``P1 2, P2 5, …`` (finding friends)."""
    if not levels:
        return "?"
    return ", ".join(f"{k} {v}" for k, v in levels.items())


def friends_text(h: dict[str, Any]) -> str:
    """``2nd ♥A: P3 at trick 7; 1st ♠K: nobody`` (finding friends)."""
    parts = []
    for f in h.get("friends", []):
        if f["seat"] is None:
            parts.append(f"{f['call']}: not answered")
        elif f["seat"] == h["dealer"]:
            parts.append(f"{f['call']}: the dealer" + (f" at trick {f['trick']}" if f["trick"] else ""))
        else:
            parts.append(f"{f['call']}: {f['seat']} at trick {f['trick']}")
    return "; ".join(parts)


def hand_title(h: dict[str, Any]) -> str:
    if "team" in h:
        return (f"Hand {h['number']}: dealer {h['dealer'] or '?'}, trump {trump_sym(h['trump'])}, "
                f"level {h['level']} ({levels_text(h['levels'])})")
    lv = h["levels"] or {"NS": "?", "EW": "?"}
    return (f"Hand {h['number']}: dealer {h['dealer'] or '?'}, trump {trump_sym(h['trump'])}, "
            f"level {h['level']} (NS {lv['NS']}, EW {lv['EW']})")


def hand_facts(h: dict[str, Any]) -> list[str]:
    """Ruleset, declarations, kitty and bury as text lines (cards in suit symbols)."""
    if "team" in h:
        lines = [f"Rules: {h['ruleset']}. Table: {' '.join(h['seats'])}. Dealer's team: "
                 f"{' '.join(h['team'])}; attackers: {h['attackers'] or '?'}."]
        if h["friends"]:
            lines.append(f"Friends: {friends_text(h)}.")
        elif not h["redeal"]:
            lines.append("Friends: none called (the dealer plays alone).")
    else:
        lines = [f"Rules: {h['ruleset']}. Dealers: {_team(h['dealer'])}; attackers: {h['attackers'] or '?'}."]
    if h["declared"]:
        decl = h["declared"]
        for d in h["declarations"]:
            decl = decl.replace(f" {d['cards']}", f" {sym(d['cards'])}", 1)
        lines.append(f"Trump {trump_sym(h['trump'])}: {decl}.")
    if h["kitty"] is not None:
        lines.append(f"Kitty dealt: {sym(h['kitty'])}")
    if h["bury"] is not None:
        lines.append(f"Kitty buried by {h['dealer']}: {sym(h['bury'])} ({h['bury_points']} points)")
    return lines


def _team(seat: str | None) -> str:
    if seat is None:
        return "?"
    return "NS" if seat in "NS" else "EW"


def trick_note(t: dict[str, Any]) -> str:
    notes = []
    if t["ruffed"]:
        notes.append("ruff")
    if t["failed_throw"]:
        notes.append("failed throw")
    elif t["throw"]:
        notes.append("throw")
    if t["penalty"]:
        notes.append(f"penalty {t['penalty']:+d}")
    notes.extend(t.get("joins", ()))
    return ", ".join(notes)


def hand_result_lines(h: dict[str, Any]) -> list[str]:
    if h["redeal"]:
        return ["Redeal: nobody declared; no levels change."]
    lines = []
    if h["timeline"]:
        lines.append("Attackers' points after each trick: " + " ".join(str(p) for p in h["timeline"]))
    if not h["complete"]:
        lines.append(f"Incomplete hand: {len(h['tricks'])} trick(s) recorded.")
        return lines
    parts = [f"{h['card_points']} in tricks"]
    if h["penalties"]:
        parts.append(f"{h['penalties']:+d} in throw penalties")
    if h["multiplier"]:
        base = h["kitty_points"] // h["multiplier"]
        parts.append(f"kitty {base} × {h['multiplier']} = {h['kitty_points']}")
    elif h["bury_points"] is not None:
        parts.append(f"the kitty ({h['bury_points']} points) stays with the dealers")
    lines.append(f"Final score: attackers {h['attacker_points']} ({', '.join(parts)}).")
    o = h["outcome"]
    if o is not None and "team" in h:
        who = "the dealer's team wins" if o["dealers_keep"] else "the attackers win"
        lines.append(f"Levels after: {levels_text(o['levels'])} (+{o['gained']} each, {who}"
                     f"{', a bonus level for a smaller team' if h['bonus'] else ''}); "
                     f"next dealer {o['next_dealer']}." + (f" Match over: {o['winner']} win." if o["match_over"] else ""))
    elif o is not None:
        who = "the dealers keep the deal" if o["dealers_keep"] else "the attackers take the deal"
        lines.append(f"Levels after: NS {o['levels']['NS']}, EW {o['levels']['EW']} "
                     f"(+{o['gained']}, {who}{', hooked back' if o['hooked_back'] else ''}); "
                     f"next dealer {o['next_dealer']}." + (f" Match over: {o['winner']} wins." if o["match_over"] else ""))
    return lines


# -- Markdown ----------------------------------------------------------------------------------

def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def hand_mistakes(m: dict[str, Any], hand_index: int) -> list[dict[str, Any]]:
    """The mistake annotations (SJ6xx) of the match's ``hand_index``-th hand (1-based)."""
    return [d for d in m.get("annotations", ()) if d.get("hand") == hand_index]


def mistakes_summary(player: dict[str, Any]) -> str:
    """``2: SJ604, SJ610`` for a player's mistakes, or an empty string."""
    codes = [d["code"] for d in player.get("mistakes", ())]
    return f"{len(codes)}: {', '.join(codes)}" if codes else ""


def viewer_anchor(match_index: int, hand: int | None, trick: int | None) -> str:
    """The fragment that opens the HTML viewer at a play: ``#m1-h2-t5``
    (match, hand, trick; 1-based; ``t0`` the deal and bury)."""
    return f"#m{match_index}-h{hand or 1}-t{trick or 0}"


def percent(value: float | None) -> str:
    """``91%`` for an accuracy of 90.5: rounded half up, as the HTML viewer
    (JavaScript's ``Math.round``) shows it; an empty string for None."""
    return "" if value is None else f"{math.floor(value + 0.5)}%"


def count_of(n: int | str, word: str, plural: str | None = None) -> str:
    """``1 blunder``, ``2 blunders``, ``1 inaccuracy``, ``0 inaccuracies``."""
    return f"{n} {word if int(n) == 1 else (plural or word + 's')}"


def review_rows(review: dict[str, Any], players: dict[str, Any]) -> list[list[str]]:
    """The player summary table's rows: seat, name, points lost, inaccuracies,
    mistakes, blunders, notes, decisions judged, accuracy."""
    rows = []
    for s in review["players"]:
        p = review["players"].get(s) or {}
        acc = "" if p.get("accuracy") is None else f"{p['accuracy']:.1f}%"
        rows.append([s, (players.get(s) or {}).get("name") or "", str(p.get("points_lost", 0)),
                     str(p.get("inaccuracy", 0)), str(p.get("mistake", 0)), str(p.get("blunder", 0)),
                     str(p.get("notes", 0)), str(p.get("judged", 0)), acc])
    return rows


REVIEW_COLUMNS = ["seat", "player", "points lost", "inaccuracies", "mistakes", "blunders", "notes",
                  "decisions judged", "accuracy"]


#: alternatives shown per decision in the Markdown and terminal review
TOP_ALTERNATIVES = 3


def decision_rows(review: dict[str, Any]) -> list[list[str]]:
    """The full review's decisions with a verdict (band set): hand, trick,
    seat, play made, expected loss ± standard error, band, the top
    alternatives (expected attacker total ± standard error) and the explanation."""
    rows = []
    for h in review.get("hands", ()):
        for d in h.get("decisions") or ():
            if not d.get("band"):
                continue
            alts = "; ".join(f"{a['play']} {a['expected']:.0f} ± {a['stderr']:.0f}"
                             for a in d["alternatives"][:TOP_ALTERNATIVES])
            rows.append([str(d["hand"]), str(d["trick"]), d["seat"], d["chosen"],
                         f"{d['loss']:.0f} ± {d['loss_stderr']:.0f}", d["band"] + (" (exact)" if d["exact"] else ""),
                         alts, " ".join(d["explanation"])])
    return rows


DECISION_COLUMNS = ["hand", "trick", "seat", "played", "expected loss", "band", "top alternatives (attackers' total)",
                    "explanation"]

FULL_ACCURACY = ("Points lost are the expected points each decision lost from the player's own view (sampled deals "
                 "of the hidden cards); accuracy is 100 × (1 − Σ expected loss / Σ points at stake) over the decisions "
                 "judged (points at stake: the expected points between a decision's best and worst option; forced "
                 "plays are not decisions).")


def window_text(h: dict[str, Any]) -> str:
    """``last 4 of 4 tricks`` / ``not searched`` for one hand of a review."""
    if h.get("skipped"):
        return "not reviewed: " + str(h["skipped"])
    if h.get("window") is None:
        return "not searched"
    text = f"last {h['window']} of {h['requested']} tricks asked"
    return text + (" (node budget)" if h.get("budget_cut") else "")


def summary_lines(review: dict[str, Any], players: dict[str, Any] | None = None) -> list[str]:
    """Plain-text summary lines (``shengji annotate`` prints them on stderr)."""
    out = []
    for row in review_rows(review, players or {}):
        seat, name, lost, inacc, mis, blun, notes, judged, acc = row
        out.append(f"{seat}{' ' + name if name else ''}: {count_of(lost, 'point')} lost; "
                   f"{count_of(inacc, 'inaccuracy', 'inaccuracies')}, {count_of(mis, 'mistake')}, "
                   f"{count_of(blun, 'blunder')}, {count_of(notes, 'note')}; accuracy {acc or '-'} over "
                   f"{count_of(judged, 'decision')}")
    for h in review["hands"]:
        cells = ", ".join(f"{s} {h['players'][s]['points_lost']}" for s in review["players"])
        out.append(f"  hand {h['hand']} ({window_text(h)}): points lost {cells}")
    return out


def review_markdown(review: dict[str, Any], m: dict[str, Any], link: str | None = None) -> list[str]:
    out = ["## Mistake review", "",
           FULL_ACCURACY if review.get("full") else
           "Points lost are attacker points against the player's side; accuracy is the share of the "
           "decisions judged (plays, and the bury) without an inaccuracy, mistake or blunder.", ""]
    out.append("| " + " | ".join(REVIEW_COLUMNS) + " |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in review_rows(review, m["players"]):
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    seats = list(review["players"])
    out.append("| hand | searched exactly | " + " | ".join(f"{s} lost / accuracy" for s in seats) + " |")
    out.append("|---:|---|" + "---:|" * len(seats))
    for h in review["hands"]:
        cells = []
        for s in seats:
            p = h["players"][s]
            acc = percent(p["accuracy"])
            cells.append(f"{p['points_lost']} / {acc}")
        out.append(f"| {h['hand']} | {window_text(h)} | " + " | ".join(cells) + " |")
    out.append("")
    verdicts = decision_rows(review)
    if verdicts:
        out.append("Decisions with a verdict:")
        out.append("")
        out.append("| " + " | ".join(DECISION_COLUMNS) + " |")
        out.append("|---:|---:|---|---|---:|---|---|---|")
        for row in verdicts:
            out.append("| " + " | ".join(_md_escape(c) for c in row) + " |")
        out.append("")
    worst = [(s, w) for s in review["players"] for w in review["players"][s]["worst"]]
    if worst:
        out.append("Worst mistakes first:")
        out.append("")
        worst.sort(key=lambda sw: (sw[1]["level_change"] is None, -sw[1]["cost"]))
        for s, w in worst:
            where = f"hand {w['hand']}, trick {w['trick']}" if w.get("trick") else f"hand {w['hand']}, bury"
            if link is not None:
                where = f"[{where}]({link}{viewer_anchor(m['record'] or 1, w['hand'], w.get('trick'))})"
            out.append(f"- **{s}** `{w['code']}` {where}: {_md_escape(w['message'])}")
        out.append("")
    return out


def render_markdown(report: dict[str, Any]) -> str:
    out: list[str] = []
    path = report.get("path", "")
    for m in report["matches"]:
        out.append(f"# {match_title(m, path)}")
        out.append("")
        rs = m["ruleset"]
        over = ", ".join(f"`{k}={v}`" for k, v in rs["overrides"].items())
        if rs["name"]:
            out.append(f"Rules: **{rs['name']}**" + (f" with {over}" if over else ""))
        players = [f"{s} {p['name']}" for s, p in m["players"].items() if p["name"]]
        if players:
            out.append("Players: " + ", ".join(players))
        if m["winner"]:
            out.append(f"Winner: **{m['winner']}**")
        out.append("")
        for h_index, h in enumerate(m["hands"], 1):
            out.append(f"## {hand_title(h)}")
            out.append("")
            for line in hand_facts(h):
                out.append(f"- {line}")
            out.append("")
            if h["tricks"]:
                out.append("| # | lead | plays | won | pts | attackers | note |")
                out.append("|---:|---|---|---|---:|---:|---|")
                for t in h["tricks"]:
                    plays = []
                    for p in t["plays"]:
                        cards = (f"{sym(p['attempted'])} → " if p["attempted"] else "") + sym(p["cards"])
                        if p["seat"] == t["winner"]:
                            cards = f"**{cards}**"
                        plays.append(f"{p['seat']}: {cards}")
                    out.append(f"| {t['number']} | {t['leader']} | {_md_escape('  '.join(plays))} | {t['winner']} "
                               f"| {t['points'] or ''} | {t['attacker_points']} | {trick_note(t)} |")
                out.append("")
            result = hand_result_lines(h)
            for k, line in enumerate(result):  # a hard line break (a backslash): no line ends in spaces
                out.append(line + ("\\" if k + 1 < len(result) else ""))
            out.append("")
            if h["diagnostics"]:
                for d in h["diagnostics"]:
                    out.append(f"- `{d['code']}` line {d['line']}: {_md_escape(d['message'])}")
                out.append("")
            notes = hand_mistakes(m, h_index)
            if notes:
                out.append("Mistakes:")
                out.append("")
                for d in notes:
                    where = f"trick {d['trick']}, " if d.get("trick") else ""
                    out.append(f"- `{d['code']}` ({where}line {d['line']}): {_md_escape(d['message'])}")
                out.append("")
        if m["progression"] and any("team" in h for h in m["hands"]):
            out.append("## Level progression")
            out.append("")
            out.append("| hand | dealer | levels before | attackers' points | result |")
            out.append("|---:|---|---|---:|---|")
            for p in m["progression"]:
                pts = "" if p["attacker_points"] is None else str(p["attacker_points"])
                out.append(f"| {p['hand']} | {p['dealer'] or '?'} | {levels_text(p['before'])} | {pts} | "
                           f"{p['result']} |")
            last = m["progression"][-1]
            if last["after"]:
                out.append(f"| end | {last['next_dealer']} | {levels_text(last['after'])} | | "
                           f"{(m['winner'] + ' win') if m['winner'] else ''} |")
            out.append("")
        elif m["progression"]:
            out.append("## Level progression")
            out.append("")
            out.append("| hand | dealer | NS | EW | attackers' points | result |")
            out.append("|---:|---|---|---|---:|---|")
            for p in m["progression"]:
                before = p["before"] or {"NS": "?", "EW": "?"}
                pts = "" if p["attacker_points"] is None else str(p["attacker_points"])
                out.append(f"| {p['hand']} | {p['dealer'] or '?'} | {before['NS']} | {before['EW']} | {pts} | {p['result']} |")
            last = m["progression"][-1]
            if last["after"]:
                out.append(f"| end | {last['next_dealer']} | {last['after']['NS']} | {last['after']['EW']} | | "
                           f"{(m['winner'] + ' wins') if m['winner'] else ''} |")
            out.append("")
        out.append("## Players")
        out.append("")
        with_notes = bool(m.get("annotations"))
        out.append("| seat | player | tricks | points | ruffs | throws | failed throws | diagnostics |"
                   + (" mistakes |" if with_notes else ""))
        out.append("|---|---|---:|---:|---:|---:|---:|---|" + ("---|" if with_notes else ""))
        for s, p in m["players"].items():
            out.append(f"| {s} | {p['name'] or ''} | {p['tricks_won']} | {p['points_won']} | {p['ruffs']} | "
                       f"{p['throws']} | {p['failed_throws']} | {', '.join(p['diagnostics'])} |"
                       + (f" {mistakes_summary(p)} |" if with_notes else ""))
        out.append("")
        if m.get("review"):
            out.extend(review_markdown(m["review"], m, report.get("html_link")))
        other = [d for d in m["diagnostics"] if d["hand"] is None]
        if other:
            out.append("## Other diagnostics")
            out.append("")
            for d in other:
                out.append(f"- `{d['code']}` line {d['line']}: {_md_escape(d['message'])}")
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def render_json(report: dict[str, Any]) -> str:
    # json.dumps(report, indent=2, ensure_ascii=False) + "\n", faster
    from analyzer.io.jsonout import dumps
    return dumps(report)


def stream_markdown(path: str, matches: Iterable[dict[str, Any]]) -> Iterable[str]:
    """:func:`render_markdown` piece by piece, one match at a time."""
    for k, m in enumerate(matches):
        if k:
            yield "\n"
        yield render_markdown({"path": path, "matches": [m]})


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


# -- HTML: one replaceable function ------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:70em;color:#222;padding:0 1em}
h1{font-size:1.5em;border-bottom:2px solid #ccc}h2{font-size:1.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0}th,td{border:1px solid #ddd;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.n{text-align:right}.red{color:#c00}.win{font-weight:bold;background:#eef8ee}
.diag{font-family:monospace}.error{color:#b00}.warning{color:#a60}.info{color:#06a}ul.facts{margin:.3em 0}
details{margin:.5em 0}summary{cursor:pointer}
"""


def _h(text: Any) -> str:
    return html.escape("" if text is None else str(text))


def _html_cards(cards: str | None) -> str:
    text = sym(cards)
    parts = []
    for word in text.split(" "):
        cls = ' class="red"' if word[:1] in "♥♦" or word == "BJ" else ""
        parts.append(f"<span{cls}>{_h(word)}</span>")
    return " ".join(parts)


_RED_GROUP = re.compile(r"([♥♦][0-9AJQKT]*)")


def _html_sym_line(line: str) -> str:
    """Text with ♥ ♦ card groups in red."""
    return "".join(f'<span class="red">{_h(part)}</span>' if k % 2 else _h(part)
                   for k, part in enumerate(_RED_GROUP.split(line)))


def render_html(report: dict[str, Any]) -> str:
    """The report as one self-contained HTML page: the interactive replay
    viewer of :mod:`analyzer.report.viewer` (inline CSS, JS and SVG; no network)."""
    from analyzer.report.viewer import render_html as viewer_html
    return viewer_html(report)


def render(report: dict[str, Any], fmt: str) -> str:
    """``md``, ``json`` or ``html`` text of a report (``term`` is :func:`analyzer.report.render.render_report`)."""
    if fmt == "md":
        return render_markdown(report)
    if fmt == "json":
        return render_json(report)
    if fmt == "html":
        return render_html(report)
    raise ValueError(f"unknown report format {fmt!r}")


__all__ = ["decision_rows", "DECISION_COLUMNS", "summary_lines", "review_markdown", "review_rows", "viewer_anchor", "window_text", "REVIEW_COLUMNS", "build_report", "iter_matches", "stream_markdown", "stream_json", "build_match", "build_hand", "match_json", "MatchJSON", "render_markdown", "render_json", "render_html",
           "render", "diagnostic_dict", "ruleset_overrides", "FORMATS", "SCHEMA"]
