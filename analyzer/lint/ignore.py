"""Which files a directory walk skips: ``exclude`` patterns and ``.gitignore`` files.

Patterns have the ``.gitignore`` syntax (``name`` anywhere below its base,
``dir/x.sjn`` or ``/x.sjn`` anchored at it, ``*``, ``?``, ``[a-z]``, ``**``,
a trailing ``/`` for directories only, ``!`` to take a file back). Each
pattern is relative to a base directory: the ``.gitignore`` file's own, the
configuration file's for ``exclude`` in ``[tool.shengji]``, the working
directory for ``--exclude``. Later patterns win over earlier ones, as in git.

Only the walk of a directory (and of a glob's matches) is filtered: a file
named on the command line is always linted, as ruff does.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

#: directories never walked into (version control, caches)
ALWAYS_SKIPPED = (".git", ".hg", ".svn", ".shengji_cache")


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool
    base: str           # absolute, normalised
    text: str


def _translate(glob: str) -> str:
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("/**", i) and i + 3 == n:
            out.append("/.*")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            j = glob.find("]", i + 2)
            if j < 0:
                out.append(re.escape(c))
                i += 1
                continue
            body = glob[i + 1:j]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = j + 1
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(glob[i + 1]))
            i += 2
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


def compile_pattern(text: str, base: str) -> Pattern | None:
    """One ``.gitignore`` line relative to ``base``; None for a blank line or a comment."""
    line = text.rstrip("\n").rstrip("\r")
    if not line.strip() or line.startswith("#"):
        return None
    line = line.rstrip(" ") if not line.endswith("\\ ") else line
    negate = line.startswith("!")
    if negate:
        line = line[1:]
    elif line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    dir_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    anchored = "/" in line
    line = line.lstrip("/")
    body = _translate(line)
    regex = re.compile(("" if anchored else "(?:.*/)?") + body + r"\Z", re.DOTALL)
    return Pattern(regex, negate, dir_only, os.path.normpath(os.path.abspath(base)), text)


def compile_patterns(lines: Iterable[str], base: str) -> list[Pattern]:
    return [p for p in (compile_pattern(line, base) for line in lines) if p is not None]


def _relative(path: str, base: str) -> str | None:
    if path == base:
        return None
    prefix = base if base.endswith(os.sep) else base + os.sep
    if not path.startswith(prefix):
        return None
    rel = path[len(prefix):]
    return rel.replace(os.sep, "/") if os.sep != "/" else rel


def ignored(path: str, is_dir: bool, patterns: Sequence[Pattern]) -> bool:
    """Does the last pattern that matches ``path`` (absolute, normalised) exclude it?"""
    verdict = False
    for p in patterns:
        if p.dir_only and not is_dir:
            continue
        rel = _relative(path, p.base)
        if rel is not None and p.regex.match(rel):
            verdict = not p.negate
    return verdict


def _gitignore(folder: str) -> list[Pattern]:
    try:
        with open(os.path.join(folder, ".gitignore"), encoding="utf-8", errors="replace") as f:
            return compile_patterns(f, folder)
    except OSError:
        return []


def _ancestors_gitignores(folder: str) -> list[Pattern]:
    """The ``.gitignore`` rules of ``folder``'s parents up to its repository's root
    (the nearest directory holding ``.git``), outermost first; none outside a repository."""
    chain: list[str] = []
    d = os.path.dirname(folder)
    here = folder
    root = None
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            root = here
            break
        if d == here:
            break
        chain.append(d)
        here, d = d, os.path.dirname(d)
    if root is None:
        return []
    out: list[Pattern] = []
    for parent in reversed([c for c in chain if len(c) >= len(root)]):
        out.extend(_gitignore(parent))
    return out


def walk(folder: str, suffixes: Sequence[str], *, exclude: Sequence[Pattern] = (),
         gitignore: bool = True) -> Iterator[str]:
    """Every file below ``folder`` ending in one of ``suffixes`` that is neither
    excluded nor git-ignored (in no particular order; the caller sorts); a directory
    that cannot be listed is given itself, for its reading to fail with its name."""
    from pathlib import Path
    top = os.path.normpath(os.path.abspath(folder))
    inherited = _ancestors_gitignores(top) if gitignore else []
    stack: list[tuple[Path, str, list[Pattern]]] = [(Path(folder), top, inherited)]
    while stack:
        shown, real, rules = stack.pop()
        if gitignore:
            rules = rules + _gitignore(real)
        try:
            entries = list(os.scandir(real))
        except OSError:
            # a directory that cannot be listed (mode 000, gone): given as a file, so
            # reading it reports it by name ("DIR: Permission denied") and the run
            # says a file could not be read, rather than passing over it in silence
            yield str(shown)
            continue
        for e in entries:
            full = os.path.join(real, e.name)
            try:
                is_dir = e.is_dir() and not e.is_symlink()   # (as Path.rglob: no symlinked directories)
            except OSError:
                continue
            if is_dir and e.name in ALWAYS_SKIPPED:
                continue
            if ignored(full, is_dir, exclude) or (rules and ignored(full, is_dir, rules)):
                continue
            if is_dir:
                stack.append((shown / e.name, full, rules))
            elif e.name.endswith(tuple(suffixes)):
                try:
                    if e.is_file():
                        yield str(shown / e.name)
                except OSError:
                    continue
