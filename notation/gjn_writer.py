"""Writing Gouji records as canonical (tidy) GJN.

The tidy form (GOUJI.md §10, documented in ``docs/gouji.md``):

* the record's ``;`` comment lines first, then the tags, one per line, then
  the header commentaries, one per line;
* a blank line before each game and between records;
* within a game, a fixed line order: ``game n``, the ``point X pre`` lines,
  ``position``, the seat lines in P1…P6 order, the pre-play lines in their
  recorded order, the actions (each numbered: an action read without a number
  gets the number after the previous action's), ``result``, ``score``. A
  pre-play line recorded after the k-th action (``after_actions``, GJ212) is
  written after the k-th action again;
* cards high → low, one group per rank (``BJBJ LJ 222 101010``); written
  suits are kept (``S33 H3``, with ``unicode=True`` ``♠33 ♥3``), a suit-free
  group comes before the suited groups of its rank;
* action marks in the order ``burn fail =k``;
* a ``{ … }`` commentary right after its element, a ``;`` comment at the end
  of its line (a comment of several lines continues on ``;`` lines below).

``parse(write(r))`` equals :func:`canonical` of ``r`` ignoring spans, and
writing what was read is idempotent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from primitives.gjcards import ANY, LJ, MAX_CARD, RANKS, cards_text, tidy

from ._writing import emit, head_problems, node_problems, write_head
from .gjn_model import (
    SEATS,
    Action,
    Buy,
    Dian,
    Game,
    GoujiRecord,
    Lead,
    Point,
    PrePlay,
    Redeal,
    Remove,
    Return,
    Revolt,
    Show,
    Tribute,
)

__all__ = ["write", "write_record", "canonical", "representable_problems"]

_SEAT_ORDER = {seat: i for i, seat in enumerate(SEATS)}
#: the pre-play lines that carry cards
_CARD_LINES = (Show, Dian, Tribute, Return, Buy)


def write(records: GoujiRecord | Iterable[GoujiRecord], *, unicode: bool = False) -> str:
    """Tidy GJN for one record or several (separated by a blank line).

    Raises ``ValueError`` for a record GJN cannot represent (see
    :func:`representable_problems`); records read from GJN or JSON by this
    package always can be written.
    """
    if isinstance(records, GoujiRecord):
        records = [records]
    parts = [write_record(r, unicode=unicode) for r in records]
    return "\n".join(p for p in parts if p)


def write_record(record: GoujiRecord, *, unicode: bool = False) -> str:
    problems = representable_problems(record)
    if problems:
        raise ValueError("record cannot be written as GJN: " + "; ".join(problems[:3]))
    out: list[str] = []
    write_head(out, record)
    for game in record.games:
        if out:
            out.append("")
        _write_game(out, game, unicode)
    return "\n".join(out) + "\n" if out else ""


def preplay_text(p: PrePlay, unicode: bool) -> str:
    if isinstance(p, Show):
        return f"show {p.seat} {cards_text(p.cards, unicode)}"
    if isinstance(p, (Dian, Tribute, Return)):
        return f"{p.kind} {p.payer} {p.receiver}: {cards_text(p.cards, unicode)}"
    if isinstance(p, Buy):
        return f"buy {p.buyer} {p.seller}: {cards_text(p.cards, unicode)}"
    if isinstance(p, (Revolt, Lead)):
        return f"{p.kind} {p.seat}"
    if isinstance(p, Redeal):
        return "redeal"
    if isinstance(p, Remove):
        return "remove " + " ".join(str(r) for r in p.ranks)
    if isinstance(p, Point):
        return f"point {p.seat} pre" if p.pre else f"point {p.seat}"
    raise AssertionError(p.kind)


def _action_text(a: Action, number: int, unicode: bool) -> str:
    text = f"{number}. {a.seat}: "
    if a.kind != "play":
        return text + a.kind
    text += cards_text(a.cards, unicode)
    if a.burn:
        text += " burn"
    if a.fail:
        text += " fail"
    if a.finish is not None:
        text += f" ={a.finish}"
    return text


def _write_game(out: list[str], game: Game, unicode: bool) -> None:
    emit(out, "game" if game.number is None else f"game {game.number}", game)
    for p in game.pre_points:
        emit(out, f"point {p.seat} pre", p)
    if game.position is not None:
        emit(out, " ".join(("position",) + game.position.finished), game.position)
    for sc in sorted(game.deal, key=lambda s: _SEAT_ORDER[s.seat]):
        emit(out, f"{sc.seat}: {cards_text(sc.cards, unicode)}", sc)
    late: dict[int, list[PrePlay]] = {}
    for line in game.preplay:
        if line.after_actions:
            late.setdefault(line.after_actions, []).append(line)
        else:
            emit(out, preplay_text(line, unicode), line)
    number = 0
    for k, action in enumerate(game.actions, 1):
        number = action.number if action.number is not None else number + 1
        emit(out, _action_text(action, number, unicode), action)
        for late_line in late.get(k, ()):
            emit(out, preplay_text(late_line, unicode), late_line)
    if game.result is not None:
        emit(out, " ".join(("result",) + game.result.seats), game.result)
    if game.score is not None:
        s = game.score
        emit(out, f"score odd {s.odd} even {s.even}", s)


def canonical(record: GoujiRecord) -> GoujiRecord:
    """The record as tidy GJN gives it back: seat lines in P1…P6 order,
    every action numbered, every card list in tidy order, and in a game
    without seat lines the ``point X pre`` lines that open its pre-play lines
    moved to :attr:`Game.pre_points`. Spans are kept."""
    games = []
    for game in record.games:
        deal = [sc.model_copy(update={"cards": tidy(sc.cards)})
                for sc in sorted(game.deal, key=lambda s: _SEAT_ORDER[s.seat])]
        preplay = [p.model_copy(update={"cards": tidy(p.cards)}) if isinstance(p, _CARD_LINES) else p
                   for p in game.preplay]
        pre_points = list(game.pre_points)
        if not deal:  # `point X pre` lines first in a game without deal lines read as 预点 lines
            while preplay and isinstance(head := preplay[0], Point) and head.pre and not head.after_actions:
                pre_points.append(head)
                preplay.pop(0)
        actions = []
        number = 0
        for a in game.actions:
            number = a.number if a.number is not None else number + 1
            actions.append(a.model_copy(update={"number": number, "cards": tidy(a.cards)}))
        games.append(game.model_copy(update={"deal": deal, "preplay": preplay, "actions": actions,
                                             "pre_points": pre_points}))
    return record.model_copy(update={"games": games})


# -- what GJN can hold ---------------------------------------------------------------------------

_VALID_CARDS = frozenset([r << 3 | s for r in RANKS if r < 16 for s in (0, 1, 2, 3, ANY)] + [LJ, MAX_CARD])


def _cards_problems(what: str, cards: Sequence[object]) -> list[str]:
    if not cards:
        return [f"{what} has no cards"]
    if any(c not in _VALID_CARDS for c in cards):
        return [f"{what} holds a value that is not a Gouji card (primitives.gjcards)"]
    return []


def representable_problems(record: GoujiRecord) -> list[str]:
    """Why ``record`` cannot be written as GJN (empty when it can).

    GJN cannot write: empty card lists, ints that are not Gouji cards, game or
    action numbers below 1, a `result` that is not six distinct seats, a
    `position` that repeats a seat, `remove` of anything but 3 and 4 (each
    once), `=k` outside 1..6, cards or marks on a `pass`/`let`, two seat lines
    for one seat, a pre-play line placed
    after more actions than the game has, a bad tag name or a tag value with
    a line break, comment text with blanks at its ends, a commentary holding a
    brace or a line starting with ``[``.
    """
    problems = head_problems(record, "GoujiRecord.comments has no GJN form (use header_comments)")
    for g, game in enumerate(record.games, 1):
        where = f"game #{g}"
        if game.number is not None and game.number < 1:
            problems.append(f"{where} has a number below 1")
        problems += node_problems(where, game)
        for p in game.pre_points:
            if not isinstance(p, Point) or not p.pre:
                problems.append(f"{where} has a `point` before its deal lines without `pre`")
            if p.after_actions:
                problems.append(f"{where} has a `point … pre` before its deal lines placed after actions")
            problems += node_problems(f"a `point` line of {where}", p)
        if game.position is not None:
            if len(set(game.position.finished)) != len(game.position.finished):
                problems.append(f"the `position` of {where} repeats a seat")
            problems += node_problems(f"the `position` of {where}", game.position)
        seats = [sc.seat for sc in game.deal]
        if len(set(seats)) != len(seats):
            problems.append(f"{where} has two seat lines for one seat")
        for sc in game.deal:
            problems += _cards_problems(f"{sc.seat}'s cards in {where}", sc.cards)
            problems += node_problems(f"{sc.seat}'s cards in {where}", sc)
        for pl in game.preplay:
            what = f"a `{pl.kind}` line of {where}"
            if isinstance(pl, _CARD_LINES):
                problems += _cards_problems(what, pl.cards)
            if isinstance(pl, Remove) and (not pl.ranks or len(set(pl.ranks)) != len(pl.ranks)
                                           or any(r not in (3, 4) for r in pl.ranks)):
                problems.append(f"{what} removes something other than 3 and 4 (each once)")
            if not 0 <= pl.after_actions <= len(game.actions):
                problems.append(f"{what} is placed after {pl.after_actions} actions; the game has "
                                f"{len(game.actions)}")
            problems += node_problems(what, pl)
        for k, a in enumerate(game.actions, 1):
            what = f"action #{k} of {where}"
            if a.number is not None and a.number < 1:
                problems.append(f"{what} has a number below 1")
            if a.kind == "play":
                problems += _cards_problems(what, a.cards)
                if a.finish is not None and not 1 <= a.finish <= 6:
                    problems.append(f"{what} finishes in place {a.finish} (1..6)")
            elif a.cards or a.burn or a.fail or a.finish is not None:
                problems.append(f"{what} is a `{a.kind}` with cards or marks")
            problems += node_problems(what, a)
        if game.result is not None:
            if len(game.result.seats) != 6 or len(set(game.result.seats)) != 6:
                problems.append(f"the `result` of {where} is not six distinct seats")
            problems += node_problems(f"the `result` of {where}", game.result)
        if game.score is not None:
            problems += node_problems(f"the `score` of {where}", game.score)
    return problems
