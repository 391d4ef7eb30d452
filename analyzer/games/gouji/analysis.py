"""Gouji (GJN) records in the analyzer: the engine call, the diagnostics lint
shows (:mod:`.lint`), the report model and the presets, for the commands that
read ``.gjn`` files (its text and replay views: :mod:`.render`).

Nothing here checks a rule: every finding and every place and score comes
from the Gouji engine, ``replay.gouji.replay(record, *, rules=None)``
(a ``GoujiReplay`` with ``.diagnostics`` and ``.games``). When that engine
is not installed, :func:`run_engine` gives a result with no findings whose
games hold what the record itself says (its ``result`` and ``score`` lines),
so reading, formatting and converting GJN never depend on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict, cast

from notation.gjn_model import SEATS, Game, GoujiRecord, PrePlay
from primitives.diagnostics import Diagnostic
from primitives.gjcards import cards_text

if TYPE_CHECKING:

    from replay.gouji.results import GameResult, GoujiReplay, Step

#: the report (and each match and game in it): plain JSON-ready data, the layout :data:`SCHEMA` versions
JsonDict = dict[str, Any]


class PlayDict(TypedDict):
    """A 够级 play (with its ``target``) or a burn (with the ``burned`` player) in the report."""

    action: int | None
    line: int | None
    seat: str
    cards: str
    target: NotRequired[str | None]
    burned: NotRequired[str | None]


class PreplayDict(TypedDict):
    kind: str
    text: str
    line: int | None


class DiagnosticDict(TypedDict):
    code: str
    severity: str
    line: int
    column: int
    message: str

#: the report dict's layout version (bumped when a key changes meaning)
SCHEMA = 1
ODD = ("P1", "P3", "P5")


# -- the engine ------------------------------------------------------------------------------

class _StubGame:
    """What a game's own lines say (used only without the engine)."""

    def __init__(self, game: Game) -> None:
        self.places: tuple[str, ...] | None = tuple(game.result.seats) if game.result is not None else None
        self.score: tuple[int, int] | None = (game.score.odd, game.score.even) if game.score is not None else None
        self.gouji_plays = None
        self.burns = None


class _StubReplay:
    engine = False

    def __init__(self, record: GoujiRecord) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.games = [_StubGame(g) for g in record.games]


if TYPE_CHECKING:
    #: a game's result: the engine's, or what the record says without the engine
    EngineGame = GameResult | _StubGame
    EngineReplay = GoujiReplay | _StubReplay


def engine_available() -> bool:
    try:
        from replay.gouji import replay  # noqa: F401
    except ImportError:
        return False
    return True


def run_engine(record: GoujiRecord, rules: str | None = None, *, timeline: bool = True) -> EngineReplay:
    """The engine's replay of ``record`` (or the stub without the engine);
    ``timeline=False`` when only the diagnostics are wanted (lint)."""
    try:
        from replay.gouji import replay
    except ImportError:
        return _StubReplay(record)
    return replay(record, rules=rules, timeline=timeline)


def presets() -> dict[str, dict[str, str]]:
    """The Gouji presets (name → option overrides), or {} without the engine."""
    try:
        from replay.gouji.rules import PRESETS
    except ImportError:
        return {}
    return PRESETS


def record_diagnostics(record: GoujiRecord | None, parse_diags: Sequence[Diagnostic],
                       rules: str | None = None) -> list[Diagnostic]:
    """Every diagnostic of one GJN record: reading, then the engine's."""
    diags = list(parse_diags)
    if record is not None and (record.tags or record.games):
        diags.extend(run_engine(record, rules, timeline=False).diagnostics)
    return diags


# -- one game's figures, as plain data ------------------------------------------------------

def _seat_name(x: int | str) -> str:
    if isinstance(x, int):
        return SEATS[x]
    return str(x)


def places_of(value: dict[str, int] | Sequence[int | str | None] | None) -> list[str | None] | None:
    """Seats in place order (1 → 6) from the engine's ``places`` (seats in
    place order, or a seat → place mapping)."""
    if value is None:
        return None
    if isinstance(value, dict):
        return [_seat_name(s) for s, _ in sorted(value.items(), key=lambda kv: kv[1])]
    return [_seat_name(s) if s is not None else None for s in value]


class _OddEven(Protocol):
    """A score as the record's ``score`` line (:class:`notation.gjn_model.Score`) holds it."""

    @property
    def odd(self) -> int: ...
    @property
    def even(self) -> int: ...


def score_of(value: dict[str, int] | _OddEven | tuple[int, int] | None) -> dict[str, int] | None:
    if value is None:
        return None
    if isinstance(value, dict):
        return {"odd": value.get("odd", 0), "even": value.get("even", 0)}
    if hasattr(value, "odd"):
        sc = cast(_OddEven, value)
        return {"odd": sc.odd, "even": sc.even}
    odd, even = value
    return {"odd": odd, "even": even}


def steps_of(result: EngineGame | None) -> list[Step]:
    return list(getattr(result, "timeline", None) or [])


def _gouji_plays(result: EngineGame | None, game: Game) -> list[PlayDict] | None:
    """The game's 够级 plays from the engine's timeline: action number, line,
    seat, cards and target (None without the engine)."""
    if result is None or not hasattr(result, "timeline"):
        return None
    return [{"action": st.number, "line": st.line, "seat": st.seat, "cards": st.cards,
             "target": st.target or None}
            for st in steps_of(result) if st.gouji]


def _burns(result: EngineGame | None, game: Game) -> list[PlayDict]:
    """The game's burns: from the engine's timeline (burner, the burned
    player, failed or not), else from the record's own ``burn`` marks."""
    if result is None or not hasattr(result, "timeline"):
        return _marked(game, "burn")
    out: list[PlayDict] = []
    for st in steps_of(result):
        if st.burn:
            burned = next((b for a, b in st.burning if a == st.seat), None)
            out.append({"action": st.number, "line": st.line, "seat": st.seat, "cards": st.cards,
                        "burned": burned})
    return out


def _marked(game: Game, mark: str) -> list[PlayDict]:
    out: list[PlayDict] = []
    for k, a in enumerate(game.actions):
        if getattr(a, mark):
            out.append({"action": a.number if a.number is not None else k + 1, "seat": a.seat,
                        "cards": cards_text(a.cards), "line": a.span.line or None})
    return out


def game_kind(game: Game) -> str:
    if game.is_scoresheet:
        return "scoresheet"
    if game.redeal is not None:
        return "redeal"
    if game.position is not None:
        return "position"
    return "game"


_STATS = ("complete", "sweep", "leader", "revolutionary", "gouji_made", "gouji_suffered", "burns_won",
          "burns_lost", "lets", "cards_left", "bukaidian")


def build_game(game: Game, result: EngineGame | None, index: int,
               diagnostics: Sequence[Diagnostic] = ()) -> JsonDict:
    """One game of the report: places, score, 够级 plays and burns (from the engine)."""
    places = places_of(getattr(result, "places", None) or None) if result is not None else None
    score = score_of(getattr(result, "score", None)) if result is not None else None
    stats = {k: getattr(result, k) for k in _STATS if hasattr(result, k)} if result is not None else {}
    return {
        "index": index,
        "number": game.number,
        "kind": getattr(result, "kind", None) or game_kind(game),
        "line": game.span.line or None,
        "actions": len(game.actions),
        "plays": sum(1 for a in game.actions if a.kind == "play"),
        "places": places,
        "result": list(game.result.seats) if game.result is not None else None,
        "score": score,
        "recorded_score": ({"odd": game.score.odd, "even": game.score.even}
                           if game.score is not None else None),
        "gouji_plays": _gouji_plays(result, game),
        "burns": _burns(result, game),
        "stats": stats,
        "finished": [{"seat": a.seat, "place": a.finish, "action": a.number}
                     for a in game.actions if a.finish is not None],
        "leader": getattr(result, "leader", None),
        "revolutionary": getattr(result, "revolutionary", None),
        "deal": {sc.seat: cards_text(sc.cards) for sc in game.deal},
        "preplay": [_preplay_dict(p) for p in game.preplay],
        "steps": _step_dicts(result),
        "start_counts": list(getattr(result, "start_counts", ()) or ()) if result is not None else [],
        "diagnostics": [diagnostic_dict(d) for d in diagnostics],
    }


def _preplay_dict(p: PrePlay) -> PreplayDict:
    """A pre-play line (亮3, 点贡, 落贡, 还贡, 买3, 革命, …) as data, with its tidy text."""
    from notation.gjn_writer import preplay_text
    return {"kind": p.kind, "text": preplay_text(p, False), "line": p.span.line or None}


_STEP_KEYS = ("number", "line", "seat", "kind", "cards", "top", "owner", "target", "passed", "ask",
              "finished", "gouji", "burn", "fail", "place", "ignored", "round_end", "counts", "leads",
              "jiefeng", "jieshao", "burn_won", "aim", "burned")


def _step_dicts(result: EngineGame | None) -> list[JsonDict] | None:
    """The engine's per-action timeline as plain data (None without the engine)."""
    if result is None or not hasattr(result, "timeline"):
        return None
    out = []
    for st in steps_of(result):
        d: JsonDict = {k: getattr(st, k, None) for k in _STEP_KEYS}
        d["passed"] = list(st.passed)
        d["ask"] = list(st.ask)
        d["burning"] = [list(x) for x in st.burning]
        d["finished"] = [list(x) for x in st.finished]
        d["counts"] = list(getattr(st, "counts", ()) or ())
        out.append(d)
    return out


def diagnostic_dict(d: Diagnostic) -> DiagnosticDict:
    return {"code": d.code, "severity": d.severity, "line": d.line, "column": d.column,
            "message": d.message}


def build_match(record: GoujiRecord, *, index: int = 1, path: str = "", rules: str | None = None,
                parse_diagnostics: Sequence[Diagnostic] = ()) -> JsonDict:
    """One record of the report."""
    result = run_engine(record, rules)
    diags = sorted(list(parse_diagnostics) + list(result.diagnostics), key=Diagnostic.sort_key)
    games_out = []
    spans = [(g.span.line, g.span.end_line) for g in record.games]
    per_game = engine_games(result, record)
    for k, game in enumerate(record.games):
        lo, hi = spans[k]
        mine = [d for d in diags if lo and lo <= d.line <= hi]
        games_out.append(build_game(game, per_game[k], k + 1, mine))
    totals = {"odd": 0, "even": 0}
    for g in games_out:
        s = g["score"] or g["recorded_score"]
        if s:
            totals["odd"] += s["odd"]
            totals["even"] += s["even"]
    return {
        "index": index,
        "game": "gouji",
        "path": path,
        "title": record.tag("Event") or "",
        "tags": {t.name: t.value for t in record.tags},
        "rules": rules or record.rules_name,
        "players": {s: record.players.get(s, s) for s in SEATS},
        "engine": getattr(result, "engine", True),
        "games": games_out,
        "totals": totals,
        "diagnostics": [diagnostic_dict(d) for d in diags],
    }


def engine_games(result: EngineReplay, record: GoujiRecord) -> list[EngineGame | None]:
    """The engine's result of each game of ``record`` (None where it has none),
    matched by the game's line, else by position."""
    games = list(getattr(result, "games", []) or [])
    by_line = {getattr(g, "line", 0): g for g in games if getattr(g, "line", 0)}
    out: list[EngineGame | None] = []
    for k, game in enumerate(record.games):
        g = by_line.get(game.span.line) if game.span.line else None
        if g is None and len(games) == len(record.games):
            g = games[k]
        out.append(g)
    return out


def build_report(records: Iterable[tuple[GoujiRecord, Sequence[Diagnostic]]], path: str = "", *,
                 rules: str | None = None) -> JsonDict:
    matches = []
    for k, (record, diags) in enumerate(records, 1):
        matches.append(build_match(record, index=k, path=path, rules=rules, parse_diagnostics=diags))
    return {"schema": SCHEMA, "game": "gouji", "path": path, "matches": matches}


# -- presets --------------------------------------------------------------------------------------

def is_gouji_preset(name: str | None) -> bool:
    return name is not None and name in presets()


# -- rules ----------------------------------------------------------------------------------------

def preset_rows() -> list[tuple[str, str]]:
    """``(preset, what it changes from gouji)`` for every Gouji preset (``shengji rules``)."""
    try:
        from replay.gouji.rules import OPTION_NAMES, PRESETS, option_value, preset
    except ImportError:
        return []
    base = preset("gouji")
    rows = []
    for name in PRESETS:
        rs = preset(name)
        diff = [f"{o}={option_value(rs, o)}" for o in OPTION_NAMES if option_value(rs, o) != option_value(base, o)]
        rows.append((name, "Gouji; vs gouji: " + ", ".join(diff) if diff else "Gouji (够级): the seed's rules"))
    return rows


def option_rows(name: str) -> list[tuple[str, str, str, bool]]:
    """``(option, value, source, differs from gouji)`` for ``shengji rules <gouji preset>``."""
    from replay.gouji.rules import OPTION_NAMES, SOURCES, option_value, preset
    base = preset("gouji")
    rs = preset(name)
    return [(o, option_value(rs, o), SOURCES.get(o, ""), option_value(rs, o) != option_value(base, o))
            for o in OPTION_NAMES]
