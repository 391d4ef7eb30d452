"""A report as Markdown (:func:`render_markdown`), or streamed match by
match (:func:`stream_markdown`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from analyzer.report.text import (
    DECISION_COLUMNS,
    FULL_ACCURACY,
    REVIEW_COLUMNS,
    decision_rows,
    hand_facts,
    hand_mistakes,
    hand_result_lines,
    hand_title,
    levels_text,
    match_title,
    mistakes_summary,
    percent,
    review_rows,
    sym,
    trick_note,
    viewer_anchor,
    window_text,
)

if TYPE_CHECKING:
    pass


# -- Markdown ----------------------------------------------------------------------------------

def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


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
            where = f"hand {w['hand']}, trick {w['trick']}" if w.get("trick") else f"hand {w['hand']}, {'declaration' if w.get('code') == 'SJ612' else 'bury'}"
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


def stream_markdown(path: str, matches: Iterable[dict[str, Any]]) -> Iterable[str]:
    """:func:`render_markdown` piece by piece, one match at a time."""
    for k, m in enumerate(matches):
        if k:
            yield "\n"
        yield render_markdown({"path": path, "matches": [m]})
