"""One voice across the command line (issue 28): the same data in every
output, help that shows what it means, the same names for the same things,
quiet closed pipes, a word for every request not fully met and every file
written, layouts that fit 80 columns."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import Run

ROOT = Path(__file__).resolve().parents[2]
MATCHES = ROOT / "samples" / "matches"


def test_players_list_every_mistake_the_review_counts() -> None:
    """A bury (SJ603) is no trick's play: the player's mistakes still list it,
    as many as the review counts for the player."""
    run = Run(MATCHES)
    out = json.loads(run("report", "standard.sjn", "--mistakes", "--format", "json").stdout)
    m = out["matches"][0]
    for seat, player in m["players"].items():
        counted = m["review"]["players"][seat]
        total = counted["inaccuracy"] + counted["mistake"] + counted["blunder"] + counted["notes"]
        assert len(player["mistakes"]) == total, (seat, player["mistakes"], counted)
    assert "SJ603" in [d["code"] for d in m["players"]["W"]["mistakes"]]
    text = run("report", "standard.sjn", "--mistakes").stdout
    assert "SJ603" in text.split("Players")[1]
