"""The mistake rules ask the engine; they decide no rule of the game themselves.

Issue 15: every mistake rule asks the position through the engine's
:class:`replay.state.HandState` (``HandContext.state``: who is winning, the
legal follows, who can still beat the trick, "what if" by ``winner_if``,
the shown voids, the teams) or through the two compositions of those answers
in :mod:`analyzer.review.mistakes.base`; no rule module imports the
engine's rule functions (``replay.legal``, ``replay.trick.trick_winner``,
``replay.scoring.team_of``, ``replay.order.TRUMP`` …) directly, nor reads
the card order's suit and rank tables (``order.eff``, ``order.key``) or the
raw holdings (``hands_before``).

What a rule module may take from ``replay`` is what presents a card, not what
decides a play: the card texts (``replay.texts.cards_text``/``unit_text``),
the point values printed on the cards (``primitives.cards.points``/``POINTS``)
and the ``Span`` of a finding. Imports under ``if TYPE_CHECKING:`` are types
only and allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES_DIR = Path(__file__).resolve().parents[2] / "analyzer" / "review" / "mistakes" / "rules"

#: (module, name) a rule module may import from replay
ALLOWED = {
    ("replay.texts", "cards_text"), ("replay.texts", "unit_text"),
    ("primitives.cards", "points"), ("primitives.cards", "POINTS"),
    ("primitives.diagnostics", "Span"),
}
#: attributes that are the engine's tables (the suit and rank of a card, the raw holdings)
FORBIDDEN_ATTRS = {"eff", "key", "hands_before"}


def _type_only(tree: ast.Module) -> set[int]:
    """ids of the import nodes under ``if TYPE_CHECKING:``."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for sub in node.body:
                for inner in ast.walk(sub):
                    out.add(id(inner))
    return out


def breaches(source: str) -> list[str]:
    """What a rule module's source does that only the engine (or base.py) may."""
    tree = ast.parse(source)
    skip = _type_only(tree)
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [f"import {a.name}" for a in node.names if a.name.split(".")[0] in ("replay", "primitives")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] in ("replay", "primitives"):
            out += [f"from {node.module} import {a.name}" for a in node.names
                    if (node.module, a.name) not in ALLOWED]
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRS:
            out.append(f".{node.attr} (line {node.lineno})")
    return out


def _modules() -> list[Path]:
    return sorted(RULES_DIR.glob("*.py"))


def test_every_rule_module_is_checked():
    names = {p.name for p in _modules()}
    assert "_shared.py" in names and len([n for n in names if n.startswith("sj")]) >= 8


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_rule_module_asks_the_engine(path: Path):
    assert breaches(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("source, want", [
    ("from replay.legal import legal_follows", ["from replay.legal import legal_follows"]),
    ("from replay.texts import cards_text\nfrom replay.trick import trick_winner", ["from replay.trick import trick_winner"]),
    ("from replay.scoring import team_of", ["from replay.scoring import team_of"]),
    ("def f():\n    from replay.order import TRUMP\n", ["from replay.order import TRUMP"]),
    ("import replay.legal", ["import replay.legal"]),
    ("x = ctx.order.eff[c]", [".eff (line 1)"]),
    ("x = ctx.hands_before(0)", [".hands_before (line 1)"]),
    # allowed: presentation, card values, types only, the package's own helpers
    ("from replay.texts import cards_text\nfrom primitives.cards import POINTS, points", []),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from replay.state import HandState\n", []),
    ("from ..context import best_so_far, unbeatable", []),
])
def test_the_check_itself(source: str, want: list[str]):
    # the check can fail: each forbidden import or table read is reported
    assert breaches(source) == want
