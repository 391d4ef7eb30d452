"""Helpers of the viewer tests (a unique module name: tests/ has no packages).

The expectations come from the engine: :func:`replay.game.replay` on the same
SJN text the page was rendered from.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from analyzer.report.reading import build_report
from analyzer.report.viewer import render_html
from notation import parse, write
from primitives.cards import parse_group
from replay.game import replay

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples" / "matches").glob("*.sjn"))

#: the launch arguments for Debian's chromium (a test tool's own browser download does not work here)
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def find_chromium() -> str | None:
    """Debian's chromium (``SHENGJI_CHROMIUM`` overrides; ``none`` means none), or None."""
    if os.environ.get("SHENGJI_CHROMIUM", "").lower() == "none":
        return None
    for cand in (os.environ.get("SHENGJI_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                 shutil.which("chromium-browser")):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


@dataclass
class Expected:
    """What the page must show at one step, from the engine."""
    hand_index: int
    hand_number: int
    step: int
    kind: str              # deal | trick | result
    trick: int | None
    winner: str
    score: int
    hands: dict[str, Counter]
    plays: dict[str, Counter]      # the trick's cards by seat (empty off the trick steps)


def expected_steps(text: str, record_index: int = 0) -> list[Expected]:
    """Every step of every hand of one record of ``text``, as the engine sees it."""
    records, _ = parse(text)
    match = replay(records[record_index])
    out: list[Expected] = []
    for hi, hr in enumerate(match.hands):
        T = len(hr.tricks)

        def holdings(k: int) -> dict[str, Counter]:
            return {s: Counter(cards) for s, cards in zip(hr.seats, hr.hands_at(k))}

        out.append(Expected(hi, hr.number, 0, "deal", None, "", 0, holdings(0), {}))
        for k, t in enumerate(hr.tricks, 1):
            plays = {p.seat: Counter(p.cards) for p in t.plays}
            out.append(Expected(hi, hr.number, k, "trick", t.number, t.winner, t.attacker_points, holdings(k), plays))
        final = hr.attacker_points if hr.complete else (hr.tricks[-1].attacker_points if hr.tricks else 0)
        out.append(Expected(hi, hr.number, T + 1, "result", None, "", final, holdings(T), {}))
    return out


def page_for(text: str, path: str = "", annotate=None) -> tuple[dict, str]:
    report = build_report(text, path, annotate=annotate)
    return report, render_html(report)


def record_text(record) -> str:
    return write([record])


def dom_cards(tokens: list[str]) -> Counter:
    """The page's ``data-card`` tokens (``SA``, ``H10``, ``BJ``) as engine card ints."""
    out: Counter = Counter()
    for tok in tokens:
        (card,) = parse_group(tok)
        out[card] += 1
    return out


#: one call per step: the status attributes and every seat's cards
STATE_JS = """() => {
  const st = document.getElementById('status');
  const attrs = {};
  for (const a of st.attributes) if (a.name.startsWith('data-')) attrs[a.name.slice(5)] = a.value;
  const seats = {};
  for (const el of document.querySelectorAll('#table .seat')) {
    seats[el.dataset.seat] = Array.from(el.querySelectorAll('.hand .card'), c => c.dataset.card);
  }
  const plays = Array.from(document.querySelectorAll('#center .play'), p => ({
    seat: p.dataset.seat, winner: p.classList.contains('winner'),
    cards: Array.from(p.querySelectorAll(':scope > .cards .card'), c => c.dataset.card)}));
  const winnerSeat = Array.from(document.querySelectorAll('#table .seat.winner'), el => el.dataset.seat);
  return {attrs, seats, plays, winnerSeat, score: (document.getElementById('score') || {}).textContent};
}"""
