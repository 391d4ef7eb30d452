"""The installed ``shengji``'s version, as ``importlib.metadata.version`` gives it,
without importing ``importlib.metadata`` where that can be avoided.

Every ``shengji lint`` needs the version (the lint cache's key, the SARIF and
JSON outputs): ``importlib.metadata`` imports ``email``, ``zipfile``, ``csv`` …
and parses the metadata with the e-mail parser: ≈ 20 ms of ``--version``
(less of a command that imports most of that anyway). The usual installation (a ``NAME-VERSION.dist-info`` directory on ``sys.path``) is
read here directly, the way ``importlib.metadata`` finds it: the first entry of
``sys.path`` holding a distribution of that name, its ``METADATA`` (``PKG-INFO``
for an ``.egg-info``), the first ``Version:`` header. Anything else (a zip file on
the path, another finder of distributions, no such file) is left to
``importlib.metadata`` itself.
"""

from __future__ import annotations

import os
import sys

#: a value of :func:`package_version`: the distribution is not installed
NOT_FOUND = None


def package_version(name: str = "shengji") -> str | None:
    """The version of the installed distribution ``name`` (None when it is not installed)."""
    key = (name, tuple(sys.path))
    if key not in _KNOWN:
        _KNOWN[key] = _version(name)
    return _KNOWN[key]


#: (name, sys.path) -> version: looked up once a process (``lint`` asks twice: its cache, its output)
_KNOWN: dict[tuple[str, tuple[str, ...]], str | None] = {}


def _version(name: str) -> str | None:
    fast = _from_path(name)
    if not isinstance(fast, _Unsure):
        return fast
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(name)
    except PackageNotFoundError:
        return NOT_FOUND


class _Unsure:
    """:func:`_from_path` cannot tell: ask ``importlib.metadata``."""


_UNSURE = _Unsure()


def _normal(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")


def _from_path(name: str) -> str | _Unsure | None:
    import importlib.machinery
    for finder in sys.meta_path:   # (a finder of distributions other than the path's: ask importlib.metadata)
        if finder is not importlib.machinery.PathFinder and hasattr(finder, "find_distributions"):
            return _UNSURE
    want = _normal(name)
    for entry in sys.path:
        directory = entry or "."
        try:
            names = os.listdir(directory)
        except NotADirectoryError:
            return _UNSURE   # a zip file on the path may hold distributions
        except OSError:
            continue
        hits = []
        for n in names:
            base, ext = os.path.splitext(n)
            if ext.lower() in (".dist-info", ".egg-info") and _normal(base.partition("-")[0]) == want:
                hits.append((n, ext.lower()))
        if not hits:
            continue
        if len(hits) > 1:
            return _UNSURE   # (which one importlib.metadata takes depends on the listing's order)
        n, ext = hits[0]
        meta = os.path.join(directory, n, "METADATA" if ext == ".dist-info" else "PKG-INFO")
        try:
            with open(meta, encoding="utf-8") as f:
                for line in f:
                    if not line.strip():
                        break   # the headers end
                    key, sep, value = line.partition(":")
                    if sep and key == "Version":
                        return value.strip()
        except (OSError, UnicodeDecodeError):
            pass
        return _UNSURE
    return NOT_FOUND
