"""Gouji (GJN) records in the analyzer: the engine call, lint diagnostics,
the replay view and the report, for the CLI commands that read ``.gjn`` files.

Nothing here checks a rule: every finding and every place and score comes
from the Gouji engine, ``replay.gouji.replay(record, *, rules=None)``
(a ``GoujiReplay`` with ``.diagnostics`` and ``.games``). When that engine
is not installed, :func:`run_engine` gives a result with no findings whose
games hold what the record itself says (its ``result`` and ``score`` lines),
so reading, formatting and converting GJN never depend on it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict, cast

from notation.gjn_model import SEATS, Game, GoujiRecord, PrePlay
from primitives.diagnostics import Diagnostic
from primitives.gjcards import cards_text

if TYPE_CHECKING:
    from rich.console import Console

    from replay.gouji.record import GameResult, GoujiReplay, Step

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


def _places(value: dict[str, int] | Sequence[int | str | None] | None) -> list[str | None] | None:
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


def _score(value: dict[str, int] | _OddEven | tuple[int, int] | None) -> dict[str, int] | None:
    if value is None:
        return None
    if isinstance(value, dict):
        return {"odd": value.get("odd", 0), "even": value.get("even", 0)}
    if hasattr(value, "odd"):
        sc = cast(_OddEven, value)
        return {"odd": sc.odd, "even": sc.even}
    odd, even = value
    return {"odd": odd, "even": even}


def _steps(result: EngineGame | None) -> list[Step]:
    return list(getattr(result, "timeline", None) or [])


def _gouji_plays(result: EngineGame | None, game: Game) -> list[PlayDict] | None:
    """The game's 够级 plays from the engine's timeline: action number, line,
    seat, cards and target (None without the engine)."""
    if result is None or not hasattr(result, "timeline"):
        return None
    return [{"action": st.number, "line": st.line, "seat": st.seat, "cards": st.cards,
             "target": st.target or None}
            for st in _steps(result) if st.gouji]


def _burns(result: EngineGame | None, game: Game) -> list[PlayDict]:
    """The game's burns: from the engine's timeline (burner, the burned
    player, failed or not), else from the record's own ``burn`` marks."""
    if result is None or not hasattr(result, "timeline"):
        return _marked(game, "burn")
    out: list[PlayDict] = []
    for st in _steps(result):
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
    places = _places(getattr(result, "places", None) or None) if result is not None else None
    score = _score(getattr(result, "score", None)) if result is not None else None
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
    from notation.gjn_writer import _preplay_text
    return {"kind": p.kind, "text": _preplay_text(p, False), "line": p.span.line or None}


_STEP_KEYS = ("number", "line", "seat", "kind", "cards", "top", "owner", "target", "passed", "ask",
              "finished", "gouji", "burn", "fail", "place", "ignored", "round_end", "counts", "leads",
              "jiefeng", "jieshao", "burn_won", "aim", "burned")


def _step_dicts(result: EngineGame | None) -> list[JsonDict] | None:
    """The engine's per-action timeline as plain data (None without the engine)."""
    if result is None or not hasattr(result, "timeline"):
        return None
    out = []
    for st in _steps(result):
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
    engine_games = _engine_games(result, record)
    for k, game in enumerate(record.games):
        lo, hi = spans[k]
        mine = [d for d in diags if lo and lo <= d.line <= hi]
        games_out.append(build_game(game, engine_games[k], k + 1, mine))
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


def _engine_games(result: EngineReplay, record: GoujiRecord) -> list[EngineGame | None]:
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


# -- rendering --------------------------------------------------------------------------------

def _places_text(places: Sequence[str | None] | None) -> str:
    if not places:
        return "—"
    return " ".join(p or "?" for p in places)


def _plays_text(plays: Sequence[PlayDict] | None) -> str:
    if plays is None:
        return "—"
    if not plays:
        return "none"
    return ", ".join(f"{p.get('action')}. {p.get('seat', '')} {p.get('cards', '')}".strip() for p in plays)


def _score_text(s: Mapping[str, int] | None) -> str:
    return "—" if s is None else f"odd {s['odd']} even {s['even']}"


def _place_name(k: int) -> str:
    try:
        from replay.gouji.table import PLACE_NAMES
    except ImportError:
        return str(k)
    return PLACE_NAMES[k] if 0 < k < len(PLACE_NAMES) else str(k)


def _step_text(st: JsonDict) -> str:
    """One action of a round, with what the engine says happened."""
    what = st["cards"] if st["kind"] == "play" else ("让牌" if st["kind"] == "let" else "pass")
    notes = []
    if st.get("gouji"):
        notes.append(f"够级 at {st.get('aim') or st.get('target') or '?'}")
    if st.get("burn"):
        notes.append(f"burns {st.get('burned') or '?'}")
    if st.get("fail"):
        notes.append(f"burn of {st.get('burned') or '?'} fails")
    if st.get("jieshao"):
        notes.append(f"ends {st['jieshao']}'s burn")
    if st.get("burn_won"):
        notes.append("burn succeeds")
    if st.get("place"):
        notes.append(f"{_place_name(st['place'])}")
    return f"{st['seat']} {what}" + (f" ({', '.join(notes)})" if notes else "")


def rounds(game: JsonDict) -> list[str]:
    """The game's rounds, one line each: the actions in order and who leads next
    (接风 when the round's owner is out). Passes after an unbeatable set are left out."""
    out: list[str] = []
    cur: list[str] = []
    for st in game.get("steps") or []:
        if st.get("ignored"):
            continue
        cur.append(_step_text(st))
        if st.get("round_end") or st.get("fail"):
            tail = ""
            if st.get("leads"):
                tail = f" → {st['leads']} leads" + (" (接风)" if st.get("jiefeng") else "")
            out.append(", ".join(cur) + tail)
            cur = []
    if cur:
        out.append(", ".join(cur) + " (the game ends)")
    return out


def player_rows(game: JsonDict) -> list[list[str]]:
    """Per seat: place, 够级 plays made (targets) and suffered (from), burns won
    and lost, 让牌, cards left when the game ended."""
    st = game.get("stats") or {}
    places = {p: k + 1 for k, p in enumerate(game.get("places") or game.get("result") or []) if p}

    def plays(x: Sequence[str] | None) -> str:
        return f"{len(x)} ({' '.join(x)})" if x else "0"
    rows = []
    for seat in SEATS:
        left = (st.get("cards_left") or {}).get(seat)
        rows.append([seat, f"{places[seat]} {_place_name(places[seat])}" if seat in places else "—",
                     plays((st.get("gouji_made") or {}).get(seat)) if "gouji_made" in st else "—",
                     plays((st.get("gouji_suffered") or {}).get(seat)) if "gouji_suffered" in st else "—",
                     str((st.get("burns_won") or {}).get(seat, 0)), str((st.get("burns_lost") or {}).get(seat, 0)),
                     str((st.get("lets") or {}).get(seat, 0)), "—" if left is None else str(left)])
    return rows


PLAYER_COLUMNS = ("seat", "place", "够级 made (targets)", "够级 suffered (from)", "burns won", "burns lost",
                  "让牌", "cards left")


def _game_title(g: JsonDict) -> str:
    return f"Game {g['number'] if g['number'] is not None else g['index']}"


def _result_text(g: JsonDict) -> str:
    places = g["places"] or g["result"]
    bits = []
    if places:
        bits.append("places " + ", ".join(f"{k + 1} {_place_name(k + 1)} {p or '?'}" for k, p in enumerate(places)))
    if (g.get("stats") or {}).get("sweep"):
        bits.append("串三户 (sweep)")
    sc = g["score"] or g["recorded_score"]
    if sc:
        bits.append("score " + _score_text(sc))
    return "; ".join(bits) or "no result"


def render_markdown(report: JsonDict) -> str:
    out: list[str] = []
    for m in report["matches"]:
        title = m["title"] or f"Record {m['index']}"
        out.append(f"# {title}")
        out.append("")
        out.append(f"Gouji, rules `{m['rules']}`. Players: "
                   + ", ".join(f"{s} {n}" if n != s else s for s, n in m["players"].items()) + ".")
        out.append("")
        out.append("| game | kind | places (头科 → 大落) | score | 够级 plays | burns | findings |")
        out.append("|---|---|---|---|---|---|---|")
        for g in m["games"]:
            gouji = g["gouji_plays"]
            out.append(f"| {g['number'] if g['number'] is not None else g['index']} | {g['kind']} | "
                       f"{_places_text(g['places'] or g['result'])} | "
                       f"{_score_text(g['score'] or g['recorded_score'])} | "
                       f"{'—' if gouji is None else len(gouji)} | {len(g['burns'])} | "
                       f"{len(g['diagnostics'])} |")
        out.append("")
        out.append(f"Total: odd {m['totals']['odd']}, even {m['totals']['even']}.")
        out.append("")
        for g in m["games"]:
            out.append(f"## {_game_title(g)}")
            out.append("")
            out.append(f"- result: {_result_text(g)}")
            if g.get("leader"):
                out.append(f"- first lead: {g['leader']}" + (f"; 革命: {g['revolutionary']}" if g.get("revolutionary") else ""))
            for p in g.get("preplay") or []:
                out.append(f"- before play: `{p['text']}`")
            if g["gouji_plays"]:
                out.append(f"- 够级 plays: {_plays_text(g['gouji_plays'])}")
            if g["burns"]:
                out.append(f"- burns: {_plays_text(g['burns'])}")
            for d in g["diagnostics"]:
                out.append(f"- line {d['line']}: {d['code']} {d['message']}")
            out.append("")
            if g.get("stats"):
                out.append("| " + " | ".join(PLAYER_COLUMNS) + " |")
                out.append("|" + "---|" * len(PLAYER_COLUMNS))
                for row in player_rows(g):
                    out.append("| " + " | ".join(row) + " |")
                out.append("")
            rs = rounds(g)
            if rs:
                out.append("Rounds:")
                out.append("")
                for k, r in enumerate(rs, 1):
                    out.append(f"{k}. {r}")
                out.append("")
        if not m["engine"]:
            out.append("_The Gouji rules engine is not installed: places and scores are as recorded._")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def render_json(report: JsonDict) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def render_report(console: Console, report: JsonDict) -> None:
    """The report on a Rich console."""
    from rich.table import Table

    from analyzer.io.safetext import inert_tree, styled
    report = inert_tree(report)
    for m in report["matches"]:
        title = m["title"] or f"Record {m['index']}"
        console.print(styled((title, "bold"), f"  (Gouji, rules {m['rules']})"))
        table = Table(show_header=True, header_style="bold")
        for col in ("game", "kind", "places (头科 → 大落)", "score", "够级", "burns", "findings"):
            table.add_column(col)
        for g in m["games"]:
            gouji = g["gouji_plays"]
            table.add_row(str(g["number"] if g["number"] is not None else g["index"]), g["kind"],
                          _places_text(g["places"] or g["result"]),
                          _score_text(g["score"] or g["recorded_score"]),
                          "—" if gouji is None else str(len(gouji)), str(len(g["burns"])),
                          str(len(g["diagnostics"])))
        console.print(table)
        console.print(f"Total: odd {m['totals']['odd']}, even {m['totals']['even']}")
        for g in m["games"]:
            console.print()
            console.print(styled((_game_title(g), "bold"), f" ({g['kind']})"))
            console.print(f"  result: {_result_text(g)}", markup=False)
            if g.get("leader"):
                console.print(f"  first lead: {g['leader']}"
                              + (f"; 革命: {g['revolutionary']}" if g.get("revolutionary") else ""), markup=False)
            for p in g.get("preplay") or []:
                console.print(f"  before play: {p['text']}", markup=False)
            for d in g["diagnostics"]:
                console.print(f"  line {d['line']}: {d['code']} {d['message']}", markup=False)
            if g.get("stats"):
                pt = Table(show_header=True, header_style="bold")
                for col in PLAYER_COLUMNS:
                    pt.add_column(col)
                for row in player_rows(g):
                    pt.add_row(*row)
                console.print(pt)
            for k, r in enumerate(rounds(g), 1):
                console.print(f"  round {k}: {r}", markup=False)


def _th(k: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(k, "th")


def render(report: JsonDict, fmt: str) -> str:
    if fmt == "md":
        return render_markdown(report)
    if fmt == "json":
        return render_json(report)
    raise ValueError(f"the Gouji report has no {fmt!r} format (text, md, json)")


def render_replay(console: Console, record: GoujiRecord, result: EngineReplay | None = None, *,
                  game: int | None = None) -> None:
    """Every game, play by play: the hands, the pre-play lines, each action."""
    from rich.table import Table

    from analyzer.io.safetext import styled
    if result is None:
        result = run_engine(record)
    engine_games = _engine_games(result, record)
    chosen = list(enumerate(record.games))
    if game is not None:
        if not 1 <= game <= len(record.games):
            raise IndexError(f"the record has {len(record.games)} game(s); there is no game {game}")
        chosen = [chosen[game - 1]]
    names = record.players
    for n, (k, g) in enumerate(chosen):
        if n:
            console.print()
        head = f"Game {g.number if g.number is not None else k + 1}"
        console.print(styled((head, "bold"), f" ({game_kind(g)})"))
        if g.position is not None:
            console.print("  out already: " + (" ".join(g.position.finished) or "nobody"))
        if g.deal:
            hands = Table(show_header=False, box=None, padding=(0, 1))
            for sc in sorted(g.deal, key=lambda s: SEATS.index(s.seat)):
                label = sc.seat + (f" {names[sc.seat]}" if sc.seat in names else "")
                hands.add_row(label, f"({len(sc.cards)})", cards_text(sc.cards))
            console.print(hands)
        from notation.gjn_writer import _preplay_text  # the tidy spelling of a line
        for p in g.preplay:
            console.print("  " + _preplay_text(p, False), markup=False)
        eg = engine_games[k]
        steps = {st.line: st for st in _steps(eg)} if eg is not None else {}
        for a in g.actions:
            what = cards_text(a.cards) if a.kind == "play" else a.kind
            marks = (" burn" if a.burn else "") + (" fail" if a.fail else "") + \
                (f" ={a.finish}" if a.finish is not None else "")
            st = steps.get(a.span.line) if a.span.line else None
            notes = []
            if st is not None:
                if st.gouji:
                    notes.append(f"够级 at {st.target}" if st.target else "够级")
                if st.burn and not a.burn:
                    notes.append("burns")
                if st.place and a.finish is None:
                    notes.append(f"out {st.place}{_th(st.place)}")
                if st.ignored:
                    notes.append("ignored")
                if st.round_end:
                    notes.append("round ends")
            note = f"   [{', '.join(notes)}]" if notes else ""
            comment = f"  ; {a.line_comment}" if a.line_comment else ""
            console.print(f"  {a.number if a.number is not None else '.'}. {a.seat}: {what}{marks}{note}"
                          f"{comment}", markup=False)
        places = _places(getattr(eg, "places", None)) if eg is not None else None
        score = _score(getattr(eg, "score", None)) if eg is not None else None
        recorded_places = list(g.result.seats) if g.result is not None else None
        if places or recorded_places is not None:
            console.print("  places: " + _places_text(places or recorded_places))
        recorded_score = {"odd": g.score.odd, "even": g.score.even} if g.score is not None else None
        if score or recorded_score is not None:
            console.print("  score: " + _score_text(score or recorded_score))


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
