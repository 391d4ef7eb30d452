"""The replay's trick results are built blank-and-set (``replay.hand_tricks._DIRECT_TRICKS``):
the same results as the constructor's, field for field, on every sample match."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

import replay.hand_tricks as HT
from notation import parse
from replay.game import replay
from replay.results import TrickResult

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples" / "matches").glob("*.sjn"))


def _tricks(path: Path) -> list[tuple]:
    records, _ = parse(path.read_text(encoding="utf-8"))
    # (each field; the hand's History by what it answers: a new one each replay)
    return [tuple(getattr(t, f.name) for f in fields(TrickResult) if f.name != "_history")
            + (t._history is h.tricks[0]._history, t.hands_before, t.hands_after)
            for r in records for h in replay(r).hands for t in h.tricks]


def test_the_direct_build_is_in_use():
    assert HT._DIRECT_TRICKS


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_direct_trick_results_equal_the_constructors(monkeypatch, path):
    direct = _tricks(path)
    monkeypatch.setattr(HT, "_DIRECT_TRICKS", False)
    built = _tricks(path)
    assert direct and direct == built
