"""A report dict (:mod:`analyzer.report.model`) for the terminal
(``--format text``): per match the hands, the level progression, the players
and the review."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

from rich import box
from rich.console import Console, JustifyMethod
from rich.table import Table
from rich.text import Text

from analyzer.report.console import (
    SUIT_STYLE,
    WIN_MARK,
    cards_text,
)

# -- report (--format term) -------------------------------------------------------------------

def render_report(console: Console, report: dict[str, Any]) -> None:
    """A report dict (:func:`analyzer.report.reading.build_report`) for the terminal (every
    string in it shown inert: :func:`analyzer.io.safetext.inert_tree`)."""
    from analyzer.io.safetext import inert_tree
    from analyzer.report import text as rep
    report = inert_tree(report)
    for m_index, m in enumerate(report["matches"]):
        if m_index:
            console.print()
        console.print(Text(rep.match_title(m, report.get("path", "")), style="bold underline"))
        console.print(f"Rules: {m['ruleset']['name']}" + (
            " (" + ", ".join(f"{k}={v}" for k, v in m["ruleset"]["overrides"].items()) + ")"
            if m["ruleset"]["overrides"] else ""))
        for h_index, h in enumerate(m["hands"], 1):
            console.print()
            console.print(Text(rep.hand_title(h), style="bold"))
            for line in rep.hand_facts(h):
                console.print(_md_cards(line))
            if h["tricks"]:
                problems: dict[int, list[dict[str, Any]]] = {}
                for d in h["diagnostics"]:
                    if d.get("trick") is not None:
                        problems.setdefault(d["trick"], []).append(d)
                table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
                for name, justify in _REPORT_TRICK_COLUMNS:
                    table.add_column(name, justify=justify)
                for t in h["tricks"]:
                    plays = Text()
                    for k, p in enumerate(t["plays"]):
                        if k:
                            plays.append("  ")
                        plays.append(f"{p['seat']}: ")
                        if p["attempted"]:
                            plays.append_text(cards_text(p["attempted"]))
                            plays.append(" → ")
                        plays.append_text(cards_text(p["cards"]))
                        if p["seat"] == t["winner"]:
                            plays.append(" " + WIN_MARK, style="bold green")
                    note = Text(rep.trick_note(t))
                    for d in problems.get(t["number"], ()):  # the problems of this trick, on its row
                        note.append(", " if note else "")
                        note.append(d["code"], style="red" if d["severity"] == "error" else "yellow")
                    table.add_row(str(t["number"]), t["leader"], plays, t["winner"],
                                  str(t["points"]) if t["points"] else "", str(t["attacker_points"]),
                                  note)
                console.print(table)
            for line in rep.hand_result_lines(h):
                console.print(line)
            for d in h["diagnostics"]:
                console.print(Text(f"  {d['line']}:{d['column']}: {d['code']} {d['message']}",
                                   style="yellow" if d["severity"] != "error" else "red"))
            for d in rep.hand_mistakes(m, h_index):
                where = f"trick {d['trick']}" if d.get("trick") else "the deal"   # a bury or the hand as a whole
                console.print(Text(f"  review, {where} ({d['line']}:{d['column']}): "
                                   f"{d['code']} {d['message']}", style="magenta"))
        console.print()
        console.print(Text("Level progression", style="bold"))
        console.print(progression_table(m))
        console.print()
        console.print(Text("Players", style="bold"))
        console.print(players_table(m))
        if m.get("review"):
            render_review(console, m)
        other = [d for d in m["diagnostics"] if d["hand"] is None]
        for d in other:
            console.print(Text(f"  {d['line']}:{d['column']}: {d['code']} {d['message']}"))


_REPORT_TRICK_COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("#", "right"), ("lead", "left"), ("plays", "left"), ("won", "left"), ("pts", "right"), ("att", "right"),
    ("note", "left"))


def _md_cards(line: str) -> Text:
    """A fact line whose cards are already in suit symbols: colour the card groups."""
    out = Text()
    for k, part in enumerate(re.split(r"([♠♥♦♣][0-9AJQKT]*)", line)):
        if k % 2:
            out.append(part, style=SUIT_STYLE[1] if part[0] in "♥♦" else SUIT_STYLE[0])
        else:
            out.append(part)
    return out


def progression_table(m: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    if any("team" in h for h in m["hands"]):  # finding friends: each player's level
        from analyzer.report.text import levels_text
        for name in ("hand", "dealer", "levels", "attackers", "result"):
            table.add_column(name)
        for p in m["progression"]:
            table.add_row(str(p["hand"]), p["dealer"] or "?", levels_text(p["before"]),
                          "" if p["attacker_points"] is None else str(p["attacker_points"]), p["result"])
        if m["progression"] and m["progression"][-1]["after"]:
            last = m["progression"][-1]
            table.add_row("end", last["next_dealer"] or "", levels_text(last["after"]), "",
                          f"{m['winner']} win" if m["winner"] else "")
        return table
    for name in ("hand", "dealer", "NS", "EW", "attackers", "result"):
        table.add_column(name)
    for p in m["progression"]:
        table.add_row(str(p["hand"]), p["dealer"] or "?", p["before"]["NS"], p["before"]["EW"],
                      "" if p["attacker_points"] is None else str(p["attacker_points"]), p["result"])
    if m["progression"]:
        last = m["progression"][-1]
        if last["after"]:
            table.add_row("end", last["next_dealer"] or "", last["after"]["NS"], last["after"]["EW"], "",
                          f"{m['winner']} wins" if m["winner"] else "")
    return table


def players_table(m: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    from analyzer.report.text import mistakes_summary
    with_notes = bool(m.get("annotations"))
    columns: list[tuple[str, JustifyMethod]] = [
        ("seat", "left"), ("player", "left"), ("tricks", "right"), ("points", "right"),
        ("ruffs", "right"), ("throws", "right"), ("failed", "right"), ("diagnostics", "left")]
    if with_notes:
        columns.append(("mistakes", "left"))
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for seat, p in m["players"].items():
        row = [seat, p["name"] or "", str(p["tricks_won"]), str(p["points_won"]), str(p["ruffs"]),
               str(p["throws"]), str(p["failed_throws"]), ", ".join(p["diagnostics"])]
        if with_notes:
            row.append(mistakes_summary(p))
        table.add_row(*row)
    return table


def render_review(console: Console, m: dict[str, Any]) -> None:
    """The mistake review: per player and per hand, points lost, bands,
    accuracy; the window searched per hand; the worst mistakes first."""
    from analyzer.report import text as rep
    review = m["review"]
    console.print()
    console.print(Text("Mistake review", style="bold"))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for k, name in enumerate(rep.REVIEW_COLUMNS):
        table.add_column(name, justify="left" if k < 2 else "right")
    for row in rep.review_rows(review, m["players"]):
        table.add_row(*row)
    console.print(table)
    hands = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    hands.add_column("hand", justify="right")
    hands.add_column("searched exactly")
    for s in review["players"]:
        hands.add_column(f"{s} lost/acc", justify="right")
    for h in review["hands"]:
        cells = []
        for s in review["players"]:
            p = h["players"][s]
            cells.append(f"{p['points_lost']}/{rep.percent(p['accuracy'])}")
        hands.add_row(str(h["hand"]), rep.window_text(h), *cells)
    console.print(hands)
    verdicts = rep.decision_rows(review)
    if verdicts:
        console.print(Text("Decisions with a verdict", style="bold"))
        dt = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        for name in rep.DECISION_COLUMNS[:-1]:
            dt.add_column(name, overflow="fold")
        for row in verdicts:
            dt.add_row(*row[:-1])
        console.print(dt)
    worst = sorted(((s, w) for s in review["players"] for w in review["players"][s]["worst"]),
                   key=lambda sw: (sw[1]["level_change"] is None, -sw[1]["cost"]))
    if worst:
        console.print(Text("Worst mistakes first", style="bold"))
        for s, w in worst:
            where = f"hand {w['hand']}, trick {w['trick']}" if w.get("trick") else f"hand {w['hand']}, {'declaration' if w.get('code') == 'SJ612' else 'bury'}"
            console.print(Text(f"  {s} {w['code']} {where}: {w['message']}", style="magenta"))
