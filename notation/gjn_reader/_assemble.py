"""Assembling a chunk's line items into Gouji records and games."""

from __future__ import annotations

from typing import Any

from primitives.diagnostics import NO_SPAN, Diagnostic

from .._records import attach_notes, merge_spans
from ..gjn_model import (
    Action,
    Game,
    GoujiRecord,
)
from ._common import _Item, _new_action, _new_seat_cards

# -- assembly -----------------------------------------------------------------------------------

def _assemble(items: list[_Item | Action]) -> tuple[list[GoujiRecord], list[Diagnostic]]:
    records: list[GoujiRecord] = []
    diags: list[Diagnostic] = []
    rec: GoujiRecord | None = None
    game: Game | None = None
    target: Any = None
    rec_start = rec_end = game_start = game_end = NO_SPAN

    for entry in items:
        if isinstance(entry, Action):  # built by the fast path: always a numbered action
            if game is not None:
                game.actions.append(entry)
                target = entry
                game_end = rec_end = entry.span
                continue
            item = _Item("action", entry, entry.span)
        else:
            item = entry
        kind = item.kind
        span = item.span
        if rec is None or (kind == "tags" and game is not None):
            if game is not None:
                game.span = merge_spans(game_start, game_end)
            if rec is not None:
                rec.span = merge_spans(rec_start, rec_end)
            rec = GoujiRecord()
            records.append(rec)
            game = target = None
            rec_start = span
        rec_end = span
        if kind in ("comment", "notes"):
            attach_notes(rec, game is not None, target, item.value if kind == "notes" else None,
                         item.line_comment)
            if game is not None:
                game_end = span
            continue
        if kind == "tags":
            rec.tags.extend(item.value)
            target = item.value[-1]
            if item.line_comment is not None:
                target.line_comment = item.line_comment
            continue
        if kind == "game" or game is None:
            if game is not None:
                game.span = merge_spans(game_start, game_end)
            game = Game(number=item.value if kind == "game" else None)
            rec.games.append(game)
            game_start = span
            if kind == "game":
                game.comments.extend(item.comments)
                game.line_comment = item.line_comment
                target = game
                game_end = span
                continue
        game_end = span
        node = None
        if kind == "action":
            node = item.value
            game.actions.append(node)
        elif kind == "play":
            p = item.value
            if p.number is None and not game.actions:
                if p.kind != "play" or p.burn or p.fail or p.finish is not None:
                    diags.append(Diagnostic.at(
                        "SJ101", span, f"a seat line before the game's first action gives dealt cards "
                                       f"only; number the first action, like `1. {p.seat}: …`"))
                    continue
                if game.seat_cards(p.seat) is not None:
                    diags.append(Diagnostic.at(
                        "SJ108", span, f"a second `{p.seat}:` line with dealt cards in this game; the "
                                       f"first one is kept (an action needs a number, like "
                                       f"`1. {p.seat}: …`)"))
                    continue
                node = _new_seat_cards(span, p.seat, p.cards, item.comments)
                game.deal.append(node)
            else:
                node = _new_action(span, p.number, p.seat, p.kind, p.cards, p.burn, p.fail, p.finish,
                                   p.cards_span, p.marks_span, item.comments)
                game.actions.append(node)
        elif kind == "point":
            node = item.value
            if node.pre and not game.deal and not game.preplay and not game.actions:
                game.pre_points.append(node)
            else:
                node.after_actions = len(game.actions)
                game.preplay.append(node)
        elif kind == "preplay":
            node = item.value
            node.after_actions = len(game.actions)
            game.preplay.append(node)
        else:  # position, result, score: once per game
            if getattr(game, kind) is not None:
                diags.append(Diagnostic.at("SJ108", span, f"a second `{kind}` line in this game; the "
                                                          f"first one is kept"))
                continue
            node = item.value
            setattr(game, kind, node)
        if item.line_comment is not None:
            node.line_comment = item.line_comment
        target = node
    if game is not None:
        game.span = merge_spans(game_start, game_end)
    if rec is not None:
        rec.span = merge_spans(rec_start, rec_end)
    return records, diags


