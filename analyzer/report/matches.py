"""The report of one match (:func:`build_match`): its hands, the level
progression, the winner and, per player, tricks and points won, ruffs,
throws and the diagnostics and mistakes on their plays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from analyzer.report.hands import diagnostic_dict, hand_model, ruleset_overrides, seat_of
from primitives.diagnostics import Diagnostic
from replay.seats import SEATS

if TYPE_CHECKING:
    from notation.model import Record
    from replay.results import MatchResult


TAG_OF_SEAT = {"N": "North", "W": "West", "S": "South", "E": "East"}
#: the report dict's layout version (bumped when a key changes meaning)
SCHEMA = 1


def build_match(record: Record, match: MatchResult, *, index: int = 1, parse_diagnostics: Sequence[Diagnostic] = (),
                annotations: Sequence[Diagnostic] = (), review: dict[str, Any] | None = None) -> dict[str, Any]:
    """One record and its :class:`replay.results.MatchResult` as a JSON-able dict."""
    return match_model(record, match, index, parse_diagnostics, annotations, review, None)


def match_model(record: Record, match: MatchResult, index: int, parse_diagnostics: Sequence[Diagnostic],
                 annotations: Sequence[Diagnostic], review: dict[str, Any] | None, tricks_mark: str | None) -> dict[str, Any]:
    all_diags = sorted([*parse_diagnostics, *match.diagnostics], key=Diagnostic.sort_key)
    hands = []
    n_nodes = len(record.hands)
    for hr in match.hands:
        node = record.hands[hr.number - 1] if hr.number - 1 < n_nodes else None
        hands.append(hand_model(hr, node, [d for d in all_diags if d.hand == hr.number], tricks_mark))

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
        seat = seat_of(d, by_hand.get(d.hand)) if d.hand is not None else None
        if seat is not None:
            players[seat]["diagnostics"].append(d.code)
    for d in sorted(annotations, key=Diagnostic.sort_key):
        # a mistake names its seat (a bury is no trick's play: no span finds it)
        seat = getattr(d, "seat", None)
        if seat not in players:
            seat = seat_of(d, by_hand.get(d.hand)) if d.hand is not None else None
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
