"""Path arguments → the files to lint: directories searched for the games' files
(``*.sjn``, ``*.gjn``: :func:`analyzer.games.suffixes`), globs, ``-`` for standard input."""

from __future__ import annotations

import glob as _glob
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from analyzer.io.sources import STDIN
from analyzer.lint.ignore import Pattern, walk

_GLOB_CHARS = re.compile(r"[*?\[]")


def _record_files(folder: Path, exclude: Sequence[Pattern] = (), gitignore: bool = False) -> list[str]:
    """Every file of a game below ``folder`` (``*.sjn``, ``*.gjn``: the suffixes the
    games claim, :func:`analyzer.games.suffixes`), sorted, but the excluded and (with
    ``gitignore``) the git-ignored ones (:mod:`.ignore`)."""
    from analyzer.io.gamekit import suffixes
    return sorted(walk(str(folder), suffixes(), exclude=exclude, gitignore=gitignore))


def expand_paths(paths: Iterable[str], *, exclude: Sequence[Pattern] = (),
                 gitignore: bool = False) -> tuple[list[tuple[str, str]], list[str]]:
    """Paths → ``([(file path, display name)], missing)``, in argument order, without duplicates.

    A directory gives every ``*.sjn`` and ``*.gjn`` (every game's file) below it (sorted; without
    the files ``exclude`` patterns name and, with ``gitignore``, those its
    ``.gitignore`` files name); a pattern with ``* ? [`` that names no file is
    expanded as a glob (``**`` recursive; ``exclude`` applies to its matches);
    ``-`` is standard input. A file named as such is always taken.
    """
    from analyzer.lint.ignore import ignored
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
            found = _record_files(Path(arg), exclude, gitignore)
            for p in found:
                add(p)
        elif os.path.exists(arg) or os.path.islink(arg):
            add(arg)
        elif _GLOB_CHARS.search(arg):
            matches = sorted(_glob.glob(arg, recursive=True))
            files: list[str] = []
            excluded = False
            for m in matches:
                if exclude and ignored(os.path.normpath(os.path.abspath(m)), os.path.isdir(m), exclude):
                    excluded = True
                    continue
                if os.path.isdir(m):
                    files.extend(_record_files(Path(m), exclude, gitignore))
                else:
                    files.append(m)
            if not files and not excluded:
                missing.append(arg)
            for p in files:
                add(p)
        else:
            missing.append(arg)
    return out, missing
