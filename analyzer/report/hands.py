"""The report of one hand: a :class:`replay.results.HandResult` as a plain dict
(:func:`build_hand`): ruleset, levels, dealer, trump and how it was declared,
the kitty and the bury, every trick, the score and the level change, the
hand's diagnostics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from analyzer.report.cardtext import CardText, card_text, report_cards, report_levels, report_trump
from primitives.cards import format_cards, points, rank_name
from primitives.diagnostics import Diagnostic
from replay.declare import act_text
from replay.ruleset import PRESETS, option_text, preset

if TYPE_CHECKING:
    from notation.model import Hand
    from primitives.spans import Span
    from replay.results import HandResult
    from replay.ruleset import Ruleset


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


def seat_of(d: Diagnostic, hr: HandResult | None) -> str | None:
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
    """One hand of a :class:`replay.results.HandResult` as a dict."""
    return hand_model(hr, hand_node, diagnostics, None)


def _trick_dicts(hr: HandResult, text: CardText) -> list[dict[str, Any]]:
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


def hand_model(hr: HandResult, hand_node: Hand | None, diagnostics: Sequence[Diagnostic], tricks_mark: str | None) -> dict[str, Any]:
    """:func:`build_hand`; with ``tricks_mark``, a hand without friends gets
    that string in place of its tricks (:func:`match_json` writes them)."""
    order = hr.order
    text = card_text(order)
    tricks: list[dict[str, Any]] | str
    if tricks_mark is not None and hr.team is None:
        tricks = tricks_mark
    else:
        tricks = _trick_dicts(hr, text)
    o = hr.outcome
    outcome = None
    if o is not None:
        outcome = {"levels": report_levels(o.levels), "gained": o.gained, "next_dealer": o.next_dealer,
                   "dealers_keep": o.dealers_keep, "hooked_back": o.hooked_back,
                   "match_over": o.match_over, "winner": o.winner}
    start = {}
    if hr.tricks:
        start = {s: report_cards(c, order) for s, c in zip(hr.seats, hr.tricks[0].hands_before)}
    elif hr.start_hands:
        start = {s: report_cards(hr.start_hands.get(s, ()), order) for s in hr.seats}
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
        "levels": report_levels(hr.levels),
        "level": rank_name(hr.level),
        "dealer": hr.dealer,
        "attackers": hr.attackers,
        "declarer": hr.declarer,
        "trump": report_trump(hr.trump),
        "declared": _declared_how(hand_node, hr),
        "declarations": [{"seat": d.seat, "cards": format_cards(d.cards), "at": d.at}
                         for d in (hand_node.declarations if hand_node is not None else [])],
        "kitty": report_cards(hr.kitty, order),
        "bury": report_cards(hr.bury, order),
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
