"""The import contract is part of the suite (docs/development.md, "Imports").

``pyproject.toml``'s ``[tool.importlinter]`` states the architecture: the layers
primitives < notation < replay < analyzer, no loop between the siblings of any
package, the two games' engines apart, and inside ``analyzer`` the CLI on top and
``io`` at the bottom. ``lint-imports`` checks it; the second test is finer than
``acyclic_siblings``: no two modules anywhere may reach each other by imports,
counting the imports inside functions (grimp sees those too). import-linter (and
grimp, which it brings) come with the ``dev`` extra; without them both tests skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("primitives", "notation", "replay", "analyzer")


def test_lint_imports_keeps_every_contract() -> None:
    pytest.importorskip("importlinter", reason="import-linter is not installed: pip install -e '.[dev]'")
    # from ROOT, so the packages of this checkout are the ones analysed; no cache written into it
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    res = subprocess.run(
        [sys.executable, "-c", code, "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert res.returncode == 0, res.stdout + res.stderr


def test_the_games_contracts_name_every_engine_module() -> None:
    """The two forbidden contracts that keep the games apart list Shengji's engine
    modules one by one (a wildcard would take in ``replay.gouji``): a module added
    to ``replay/`` must be added there too, or it would escape them."""
    contracts = {c["id"]: c for c in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["importlinter"]["contracts"]}
    engine = {f"replay.{p.stem if p.suffix else p.name}" for p in (ROOT / "replay").iterdir()
              if (p.suffix == ".py" and p.stem != "__init__") or (p.is_dir() and (p / "__init__.py").exists())}
    engine.discard("replay.gouji")
    assert set(contracts["gouji-apart"]["forbidden_modules"]) == engine
    assert set(contracts["shengji-apart"]["source_modules"]) == engine
    gouji = {"replay.gouji"} | {f"notation.{p.stem}" for p in (ROOT / "notation").iterdir()
                                if p.name.startswith("gjn") and (p.suffix == ".py" or p.is_dir())}
    assert set(contracts["gouji-apart"]["source_modules"]) == gouji
    assert set(contracts["shengji-apart"]["forbidden_modules"]) == gouji


def _loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        comp.append(top)
                        if top == node:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
    return found


def test_loops_finds_a_loop_and_only_loops() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert _loops(graph) == [["a", "b", "c"]]
    assert _loops({"x": {"y"}, "y": set()}) == []


def test_no_module_reaches_back_to_itself() -> None:
    grimp = pytest.importorskip("grimp", reason="grimp (with import-linter) is not installed: pip install -e '.[dev]'")
    sys.path.insert(0, str(ROOT))  # this checkout's packages, not an installed copy
    try:
        g = grimp.build_graph(*PACKAGES, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    graph = {m: set(g.find_modules_directly_imported_by(m)) for m in g.modules}
    loops = _loops(graph)
    assert not loops, "import loops (each a set of modules that import each other):\n" + "\n".join(
        " ".join(loop) for loop in loops
    )
