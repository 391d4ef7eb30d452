"""Path arguments → the files to lint: directories searched for ``*.sjn`` and
``*.gjn``, globs, ``-`` for standard input."""

from __future__ import annotations

import glob as _glob
import os
import re
from collections.abc import Iterable
from pathlib import Path

from notation.detect import DIRECTORY_SUFFIXES

from .sources import STDIN

_GLOB_CHARS = re.compile(r"[*?\[]")


def _record_files(folder: Path) -> list[str]:
    """Every ``*.sjn`` and ``*.gjn`` (Gouji) file below ``folder``, sorted
    (``notation.detect.DIRECTORY_SUFFIXES``)."""
    return sorted(str(p) for suffix in DIRECTORY_SUFFIXES for p in folder.rglob(f"*{suffix}") if p.is_file())


def expand_paths(paths: Iterable[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """Paths → ``([(file path, display name)], missing)``, in argument order, without duplicates.

    A directory gives every ``*.sjn`` and ``*.gjn`` below it (sorted); a pattern with
    ``* ? [`` that names no file is expanded as a glob (``**`` recursive);
    ``-`` is standard input.
    """
    out: list[tuple[str, str]] = []
    missing: list[str] = []
    seen: set[str] = set()

    def add(p: str) -> None:
        key = p if p == STDIN else os.path.normpath(os.path.abspath(p))
        if key not in seen:
            seen.add(key)
            out.append((p, p))

    for arg in paths:
        if arg == STDIN:
            add(STDIN)
        elif os.path.isdir(arg):
            found = _record_files(Path(arg))
            for p in found:
                add(p)
        elif os.path.exists(arg) or os.path.islink(arg):
            add(arg)
        elif _GLOB_CHARS.search(arg):
            matches = sorted(_glob.glob(arg, recursive=True))
            files: list[str] = []
            for m in matches:
                if os.path.isdir(m):
                    files.extend(_record_files(Path(m)))
                else:
                    files.append(m)
            if not files:
                missing.append(arg)
            for p in files:
                add(p)
        else:
            missing.append(arg)
    return out, missing
