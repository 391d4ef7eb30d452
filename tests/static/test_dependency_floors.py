"""The dependency ranges are tested, not guessed: ``.ci/run``'s "lowest" leg
installs ``.ci/constraints-lowest.txt`` and runs the suite. That file must pin
every direct dependency of the installed extras (test, cluster, stats, dev) to
exactly the lowest version pyproject.toml allows, so a floor raised in one
place and not the other fails here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the extras .ci/run installs (bench and fast are not part of the suite)
EXTRAS = ("test", "cluster", "stats", "dev")
_REQ = re.compile(r"^(?P<name>[A-Za-z0-9_.-]+)(?:\[(?P<extras>[^\]]*)\])?(?P<spec>.*)$")


def _floors() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = list(project["dependencies"])
    for extra in EXTRAS:
        reqs += project["optional-dependencies"][extra]
    floors: dict[str, str] = {}
    for req in reqs:
        m = _REQ.match(req.replace(" ", ""))
        assert m, req
        low = re.search(r">=([0-9][^,]*)", m.group("spec"))
        assert low, f"{req}: every direct dependency needs a floor (>=)"
        floors[m.group("name").lower()] = low.group(1)
        for sub in filter(None, (m.group("extras") or "").split(",")):
            if m.group("name").lower() == "dask" and sub == "distributed":
                floors["distributed"] = low.group(1)  # dask[distributed] pins distributed to dask's version
    return floors


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / ".ci" / "constraints-lowest.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[name.strip().lower()] = version.strip()
    return pins


def _norm(v: str) -> tuple[int, ...]:
    parts = [int(p) for p in re.findall(r"\d+", v)]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def test_every_floor_is_pinned_in_the_lowest_leg() -> None:
    floors, pins = _floors(), _pins()
    assert set(pins) == set(floors), (sorted(set(floors) - set(pins)), sorted(set(pins) - set(floors)))
    wrong = {n: (floors[n], pins[n]) for n in floors if _norm(floors[n]) != _norm(pins[n])}
    assert not wrong, f"pyproject floor vs .ci/constraints-lowest.txt: {wrong}"


def test_ci_runs_both_legs_in_fresh_environments() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "-m venv" in run and "constraints-lowest.txt" in run
    assert "python3 -m pytest" in run and "-eq 5" in run
