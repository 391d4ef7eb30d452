"""The Gouji report and replay as text: Markdown, JSON, a Rich console (the
report model is :func:`analyzer.games.gouji.analysis.build_report`'s plain data)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from analyzer.games.gouji.analysis import (
    JsonDict,
    PlayDict,
    engine_games,
    game_kind,
    places_of,
    run_engine,
    score_of,
    steps_of,
)
from notation.gjn_model import SEATS, GoujiRecord
from primitives.gjcards import cards_text

if TYPE_CHECKING:
    from rich.console import Console

    from analyzer.games.gouji.analysis import EngineReplay


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
        out.extend(markdown_lines(m))
    return "\n".join(out).rstrip() + "\n"


def markdown_lines(m: JsonDict) -> list[str]:
    """One match of the Markdown report, as lines (:func:`render_markdown` joins them)."""
    out: list[str] = []
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
    return out


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
    per_game = engine_games(result, record)
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
        from notation.gjn_writer import preplay_text  # the tidy spelling of a line
        for p in g.preplay:
            console.print("  " + preplay_text(p, False), markup=False)
        eg = per_game[k]
        steps = {st.line: st for st in steps_of(eg)} if eg is not None else {}
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
        places = places_of(getattr(eg, "places", None)) if eg is not None else None
        score = score_of(getattr(eg, "score", None)) if eg is not None else None
        recorded_places = list(g.result.seats) if g.result is not None else None
        if places or recorded_places is not None:
            console.print("  places: " + _places_text(places or recorded_places))
        recorded_score = {"odd": g.score.odd, "even": g.score.even} if g.score is not None else None
        if score or recorded_score is not None:
            console.print("  score: " + _score_text(score or recorded_score))


