"""``analyzer.io.version.package_version``: what ``importlib.metadata.version``
says, read without it where it can be (start-up time)."""

from __future__ import annotations

import importlib.machinery
import importlib.metadata as metadata
import sys
import zipfile
from pathlib import Path

import pytest

from analyzer.io import version as V


def _oracle(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _dist(root: Path, folder: str, version: str, *, egg: bool = False) -> None:
    d = root / folder
    d.mkdir(parents=True)
    (d / ("PKG-INFO" if egg else "METADATA")).write_text(
        f"Metadata-Version: 2.1\nName: shengji\nVersion: {version}\nSummary: x\n\nVersion: 9.9 (the body)\n",
        encoding="utf-8")


#: (what each entry of sys.path holds, the version expected, read without importlib.metadata?)
CASES = [
    ([[("shengji-1.2.3.dist-info", "1.2.3", False)]], "1.2.3", True),
    ([[("shengji-2.0.egg-info", "2.0", True)]], "2.0", True),
    ([[("Shengji-3.1.dist-info", "3.1", False)]], "3.1", True),
    ([[]], None, True),
    ([[("other-1.0.dist-info", "1.0", False)]], None, True),
    ([[], [("shengji-1.0.dist-info", "1.0", False)], [("shengji-2.0.dist-info", "2.0", False)]], "1.0", True),
    ([[("shengji-1.0.dist-info", "1.0", False), ("shengji-2.0.egg-info", "2.0", True)]], None, False),  # two: unsure
]


@pytest.mark.parametrize(("entries", "expected", "fast"), CASES)
def test_the_version_is_importlib_metadatas(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            entries: list[list[tuple[str, str, bool]]], expected: str | None,
                                            fast: bool) -> None:
    path = []
    for i, dists in enumerate(entries):
        root = tmp_path / f"p{i}"
        root.mkdir()
        for folder, version, egg in dists:
            _dist(root, folder, version, egg=egg)
        path.append(str(root))
    monkeypatch.setattr(sys, "path", path)
    _only_the_paths_finder(monkeypatch)
    oracle = _oracle("shengji")
    if expected is not None:
        assert oracle == expected
    assert V.package_version("shengji") == oracle
    assert (V._from_path("shengji") is not V._UNSURE) == fast


def _only_the_paths_finder(monkeypatch: pytest.MonkeyPatch) -> None:
    """No finder of distributions but the path's (another one, installed by an
    earlier test or a plugin, leaves the version to importlib.metadata). The
    ``importlib_metadata`` backport, once imported (dask imports it: the whole
    suite collects tests/cluster), takes ``find_distributions`` off the
    standard library's ``PathFinder`` and puts its own finder on
    ``sys.meta_path``: the standard one is given back here for the test."""
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if f is importlib.machinery.PathFinder
                                           or not hasattr(f, "find_distributions")])
    if not hasattr(importlib.machinery.PathFinder, "find_distributions"):
        def find_distributions(*args: object, **kwargs: object) -> object:
            return metadata.MetadataPathFinder.find_distributions(*args, **kwargs)  # type: ignore[arg-type]
        monkeypatch.setattr(importlib.machinery.PathFinder, "find_distributions", staticmethod(find_distributions),
                            raising=False)


def test_another_finder_of_distributions_is_left_to_importlib_metadata(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    class Finder:
        def find_spec(self, *args: object) -> None:
            return None

        def find_distributions(self, *args: object) -> list[object]:
            return []

    _dist(tmp_path, "shengji-1.0.dist-info", "1.0")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    _only_the_paths_finder(monkeypatch)
    assert V._from_path("shengji") == "1.0"
    monkeypatch.setattr(sys, "meta_path", [Finder(), *sys.meta_path])
    assert V._from_path("shengji") is V._UNSURE
    assert V.package_version("shengji") == _oracle("shengji") == "1.0"


def test_a_zip_on_the_path_is_left_to_importlib_metadata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    z = tmp_path / "dists.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("shengji-4.5.dist-info/METADATA", "Metadata-Version: 2.1\nName: shengji\nVersion: 4.5\n\n")
    later = tmp_path / "later"
    _dist(later, "shengji-1.0.dist-info", "1.0")
    monkeypatch.setattr(sys, "path", [str(z), str(later)])
    _only_the_paths_finder(monkeypatch)
    assert V._from_path("shengji") is V._UNSURE
    assert V.package_version("shengji") == _oracle("shengji") == "4.5"


def test_the_installed_version() -> None:
    assert V.package_version("shengji") == _oracle("shengji")
    assert V.package_version("pytest") == metadata.version("pytest")
