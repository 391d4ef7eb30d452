"""Text pieces shared by the renderers (Markdown, the terminal, the
annotated records): titles, facts and results of hands, trick notes, the
review's rows and summary lines."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from primitives.cards import format_cards, parse_cards

if TYPE_CHECKING:
    pass


# -- text pieces shared by the renderers -----------------------------------------------------------

def sym(cards: str | None) -> str:
    """SJN card text in suit symbols: ``"SAKK H10"`` → ``"♠AKK ♥10"``."""
    if not cards:
        return "—" if cards is None else ""
    return format_cards(parse_cards(cards), unicode=True)


def trump_sym(t: str | None) -> str:
    if t is None:
        return "?"
    return "NT" if t == "NT" else sym(t + "A")[0]


def match_title(m: dict[str, Any], path: str = "") -> str:
    tags = m["tags"]
    bits = [tags[k] for k in ("Event", "Site", "Date") if k in tags]
    where = f"{path}:{m['line']}" if path and m.get("line") else path
    title = f"Match {m['record']}" if m["record"] is not None else "Unreadable text"
    if bits:
        title += ": " + ", ".join(bits)
    if where:
        title += f" ({where})"
    return title


def levels_text(levels: dict[str, Any] | None) -> str:
    """``NS 2, EW 5``, or each player's ``P1 2, P2 5, …`` (finding friends)."""
    if not levels:
        return "?"
    return ", ".join(f"{k} {v}" for k, v in levels.items())


def friends_text(h: dict[str, Any]) -> str:
    """``2nd ♥A: P3 at trick 7; 1st ♠K: nobody`` (finding friends)."""
    parts = []
    for f in h.get("friends", []):
        if f["seat"] is None:
            parts.append(f"{f['call']}: not answered")
        elif f["seat"] == h["dealer"]:
            parts.append(f"{f['call']}: the dealer" + (f" at trick {f['trick']}" if f["trick"] else ""))
        else:
            parts.append(f"{f['call']}: {f['seat']} at trick {f['trick']}")
    return "; ".join(parts)


def hand_title(h: dict[str, Any]) -> str:
    if "team" in h:
        return (f"Hand {h['number']}: dealer {h['dealer'] or '?'}, trump {trump_sym(h['trump'])}, "
                f"level {h['level']} ({levels_text(h['levels'])})")
    lv = h["levels"] or {"NS": "?", "EW": "?"}
    return (f"Hand {h['number']}: dealer {h['dealer'] or '?'}, trump {trump_sym(h['trump'])}, "
            f"level {h['level']} (NS {lv['NS']}, EW {lv['EW']})")


def hand_facts(h: dict[str, Any]) -> list[str]:
    """Ruleset, declarations, kitty and bury as text lines (cards in suit symbols)."""
    if "team" in h:
        lines = [f"Rules: {h['ruleset']}. Table: {' '.join(h['seats'])}. Dealer's team: "
                 f"{' '.join(h['team'])}; attackers: {h['attackers'] or '?'}."]
        if h["friends"]:
            lines.append(f"Friends: {friends_text(h)}.")
        elif not h["redeal"]:
            lines.append("Friends: none called (the dealer plays alone).")
    else:
        lines = [f"Rules: {h['ruleset']}. Dealers: {_team(h['dealer'])}; attackers: {h['attackers'] or '?'}."]
    if h["declared"]:
        decl = h["declared"]
        for d in h["declarations"]:
            decl = decl.replace(f" {d['cards']}", f" {sym(d['cards'])}", 1)
        lines.append(f"Trump {trump_sym(h['trump'])}: {decl}.")
    if h["kitty"] is not None:
        lines.append(f"Kitty dealt: {sym(h['kitty'])}")
    if h["bury"] is not None:
        lines.append(f"Kitty buried by {h['dealer']}: {sym(h['bury'])} ({h['bury_points']} points)")
    return lines


def _team(seat: str | None) -> str:
    if seat is None:
        return "?"
    return "NS" if seat in "NS" else "EW"


def trick_note(t: dict[str, Any]) -> str:
    notes = []
    if t["ruffed"]:
        notes.append("ruff")
    if t["failed_throw"]:
        notes.append("failed throw")
    elif t["throw"]:
        notes.append("throw")
    if t["penalty"]:
        notes.append(f"penalty {t['penalty']:+d}")
    notes.extend(t.get("joins", ()))
    return ", ".join(notes)


def hand_result_lines(h: dict[str, Any]) -> list[str]:
    if h["redeal"]:
        return ["Redeal: nobody declared; no levels change."]
    lines = []
    if h["timeline"]:
        lines.append("Attackers' points after each trick: " + " ".join(str(p) for p in h["timeline"]))
    if not h["complete"]:
        lines.append(f"Incomplete hand: {len(h['tricks'])} trick(s) recorded.")
        return lines
    parts = [f"{h['card_points']} in tricks"]
    if h["penalties"]:
        parts.append(f"{h['penalties']:+d} in throw penalties")
    if h["multiplier"]:
        base = h["kitty_points"] // h["multiplier"]
        parts.append(f"kitty {base} × {h['multiplier']} = {h['kitty_points']}")
    elif h["bury_points"] is not None:
        parts.append(f"the kitty ({h['bury_points']} points) stays with the dealers")
    lines.append(f"Final score: attackers {h['attacker_points']} ({', '.join(parts)}).")
    o = h["outcome"]
    if o is not None and "team" in h:
        who = "the dealer's team wins" if o["dealers_keep"] else "the attackers win"
        lines.append(f"Levels after: {levels_text(o['levels'])} (+{o['gained']} each, {who}"
                     f"{', a bonus level for a smaller team' if h['bonus'] else ''}); "
                     f"next dealer {o['next_dealer']}." + (f" Match over: {o['winner']} win." if o["match_over"] else ""))
    elif o is not None:
        who = "the dealers keep the deal" if o["dealers_keep"] else "the attackers take the deal"
        lines.append(f"Levels after: NS {o['levels']['NS']}, EW {o['levels']['EW']} "
                     f"(+{o['gained']}, {who}{', hooked back' if o['hooked_back'] else ''}); "
                     f"next dealer {o['next_dealer']}." + (f" Match over: {o['winner']} wins." if o["match_over"] else ""))
    return lines


def hand_mistakes(m: dict[str, Any], hand_index: int) -> list[dict[str, Any]]:
    """The mistake annotations (SJ6xx) of the match's ``hand_index``-th hand (1-based)."""
    return [d for d in m.get("annotations", ()) if d.get("hand") == hand_index]


def mistakes_summary(player: dict[str, Any]) -> str:
    """``2: SJ604, SJ610`` for a player's mistakes, or an empty string."""
    codes = [d["code"] for d in player.get("mistakes", ())]
    return f"{len(codes)}: {', '.join(codes)}" if codes else ""


def viewer_anchor(match_index: int, hand: int | None, trick: int | None) -> str:
    """The fragment that opens the HTML viewer at a play: ``#m1-h2-t5``
    (match, hand, trick; 1-based; ``t0`` the deal and bury)."""
    return f"#m{match_index}-h{hand or 1}-t{trick or 0}"


def percent(value: float | None) -> str:
    """``91%`` for an accuracy of 90.5: rounded half up, as the HTML viewer
    (JavaScript's ``Math.round``) shows it; an empty string for None."""
    return "" if value is None else f"{math.floor(value + 0.5)}%"


def count_of(n: int | str, word: str, plural: str | None = None) -> str:
    """``1 blunder``, ``2 blunders``, ``1 inaccuracy``, ``0 inaccuracies``."""
    return f"{n} {word if int(n) == 1 else (plural or word + 's')}"


def review_rows(review: dict[str, Any], players: dict[str, Any]) -> list[list[str]]:
    """The player summary table's rows: seat, name, points lost, inaccuracies,
    mistakes, blunders, notes, decisions judged, accuracy."""
    rows = []
    for s in review["players"]:
        p = review["players"].get(s) or {}
        acc = "" if p.get("accuracy") is None else f"{p['accuracy']:.1f}%"
        rows.append([s, (players.get(s) or {}).get("name") or "", str(p.get("points_lost", 0)),
                     str(p.get("inaccuracy", 0)), str(p.get("mistake", 0)), str(p.get("blunder", 0)),
                     str(p.get("notes", 0)), str(p.get("judged", 0)), acc])
    return rows


REVIEW_COLUMNS = ["seat", "player", "points lost", "inaccuracies", "mistakes", "blunders", "notes",
                  "decisions judged", "accuracy"]


#: alternatives shown per decision in the Markdown and terminal review
TOP_ALTERNATIVES = 3


def decision_rows(review: dict[str, Any]) -> list[list[str]]:
    """The full review's decisions with a verdict (band set): hand, trick
    (``bury`` for the bury, ``declare`` for a declaration: trick 0 in the JSON), seat, play made, expected loss ± standard error, band, the top
    alternatives (expected attacker total ± standard error) and the explanation."""
    rows = []
    for h in review.get("hands", ()):
        for d in h.get("decisions") or ():
            if not d.get("band"):
                continue
            alts = "; ".join(f"{a['play']} {a['expected']:.0f} ± {a['stderr']:.0f}"
                             + (f" ({d['seat']}'s side {a['side']:+.0f})" if a.get("side") is not None else "")
                             for a in d["alternatives"][:TOP_ALTERNATIVES])
            rows.append([str(d["hand"]), str(d["trick"]) if d.get("trick") else ("declare" if d.get("kind") == "declare" else "bury"), d["seat"], d["chosen"],
                         f"{d['loss']:.0f} ± {d['loss_stderr']:.0f}", d["band"] + (" (exact)" if d["exact"] else ""),
                         alts, " ".join(d["explanation"])])
    return rows


DECISION_COLUMNS = ["hand", "trick", "seat", "played", "expected loss", "band", "top alternatives (attackers' total)",
                    "explanation"]

FULL_ACCURACY = ("Points lost are the expected points each decision lost from the player's own view (sampled deals "
                 "of the hidden cards); accuracy is 100 × (1 − Σ expected loss / Σ points at stake) over the decisions "
                 "judged (points at stake: the expected points between a decision's best and worst option; forced "
                 "plays are not decisions).")


def window_text(h: dict[str, Any]) -> str:
    """``last 4 of 4 tricks`` / ``not searched`` / ``no exact window (finding friends)``
    for one hand of a review."""
    if h.get("skipped"):
        return "not reviewed: " + str(h["skipped"])
    if h.get("window") is None:
        return f"no exact window ({h['no_window']})" if h.get("no_window") else "not searched"
    text = f"last {h['window']} of {h['requested']} tricks asked"
    return text + (" (node budget)" if h.get("budget_cut") else "")


def summary_lines(review: dict[str, Any], players: dict[str, Any] | None = None) -> list[str]:
    """Plain-text summary lines (``shengji annotate`` prints them on stderr)."""
    out = []
    for row in review_rows(review, players or {}):
        seat, name, lost, inacc, mis, blun, notes, judged, acc = row
        out.append(f"{seat}{' ' + name if name else ''}: {count_of(lost, 'point')} lost; "
                   f"{count_of(inacc, 'inaccuracy', 'inaccuracies')}, {count_of(mis, 'mistake')}, "
                   f"{count_of(blun, 'blunder')}, {count_of(notes, 'note')}; accuracy {acc or '-'} over "
                   f"{count_of(judged, 'decision')}")
    for h in review["hands"]:
        cells = ", ".join(f"{s} {h['players'][s]['points_lost']}" for s in review["players"])
        where = f"{h['no_window']}: no exact window" if h.get("no_window") and h.get("window") is None \
            else window_text(h)
        out.append(f"  hand {h['hand']} ({where}): points lost {cells}")
    return out
