"""Replaying a whole record: hands, deal, declarations, kitty, tricks, score.

``replay(record)`` walks every hand and every trick, checks every rule it can
(with the cards as recorded, never stopping at the first problem) and returns
a :class:`MatchResult` holding the state before and after each trick, the
score, the level changes and all diagnostics.

The match flow is :func:`replay.match.replay_match` for either table, each
hand replayed by the one hand replay, :func:`replay.hand.replay_hand`, at the
record's :class:`replay.hand.Table`: fixed partners (N W S E), or finding
friends (:func:`replay.friends.needs_friends` tells such a record; the teams
form during the hand). The results are :mod:`replay.results`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from primitives.diagnostics import Diagnostic, Span
from replay.friends import needs_friends, table_seats
from replay.hand import FIXED, Table
from replay.match import replay_match
from replay.results import MatchResult
from replay.ruleset import Ruleset, resolve
from replay.scoring import SEAT_ORDER

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Record

SEAT_INDEX = {s: i for i, s in enumerate(SEAT_ORDER)}

def ruleset_for(record: Record, rules: str | None = None) -> tuple[Ruleset, list[Diagnostic]]:
    """The record's ruleset from its tags (``rules`` overrides ``[Rules]``)."""
    # (`record.tag_node("Rules")` and `record.rule_overrides` in one pass over the tags)
    tag = None
    overrides: dict[str, tuple[str, Span]] = {}
    for t in record.tags:
        tag_name = t.name
        if tag_name == "Rules":
            if tag is None:
                tag = t
        elif tag_name.startswith("Rule."):
            overrides[tag_name[5:]] = (t.value, t.span)
    name = rules or (tag.value if tag else None)
    return resolve(name, overrides, tag.span if tag else None)


def replay(record: Record, *, rules: str | None = None, ruleset: Ruleset | None = None) -> MatchResult:
    """Replay every hand of ``record`` (a :class:`notation.model.Record`)."""
    if ruleset is None:
        ruleset, diags = ruleset_for(record, rules)
    else:
        diags = []
    if ruleset.partners == "friends" or needs_friends(record):
        # finding friends (找朋友): tables of 4–8, teams formed during the hand (replay.friends)
        if ruleset.partners != "friends":
            where = record.hands[0].span if record.hands else record.span
            diags.append(Diagnostic.at("SJ526", where, f"this record has friend lines, players' own levels "
                                                       f"or numbered seats, but the rules ({ruleset.name}) "
                                                       f"have fixed partners: replayed as finding friends "
                                                       f"(use `[Rules \"shengji-io-friends\"]`)"))
            ruleset = ruleset.model_copy(update={"partners": "friends"})
        return replay_match(record, ruleset, diags, Table.of(table_seats(record, ruleset), friends=True))
    return replay_match(record, ruleset, diags, FIXED)  # a fixed-partner table (every seat N, W, S or E)


__all__ = ["replay", "ruleset_for", "SEAT_INDEX"]
