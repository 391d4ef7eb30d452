"""``shengji lint``'s configuration file: ``[tool.shengji]`` in ``pyproject.toml``,
or a ``shengji.toml`` / ``.shengji.toml`` (the same keys at its top level).

Found the way ruff finds its own: from the directory of the paths given (their
nearest common directory; the working directory for ``-`` or none), upward,
the first directory holding ``.shengji.toml``, ``shengji.toml`` or a
``pyproject.toml`` with a ``[tool.shengji]`` table (in that order of
preference) gives the configuration; ``--config FILE`` names one instead,
``--isolated`` uses none. The command line wins over the file: ``--select``,
``--rules``, ``--jobs``, ``--format``, ``--exclude`` replace the file's value,
``--ignore`` and ``--extend-select`` add to it.

Keys (kebab-case; snake_case is accepted too)::

    [tool.shengji]
    select = ["SJ4", "SJ5"]        # code prefixes shown (default: every code)
    ignore = ["SJ503"]
    extend-select = ["SJ403"]      # added to select (or taken back from ignore)
    rules = "tractor97"            # a preset for every record
    exclude = ["drafts/", "*.tmp.sjn"]   # .gitignore-style, relative to this file
    extend-exclude = ["old/"]
    respect-gitignore = true       # skip what .gitignore files name (directories only)
    jobs = 4
    format = "jsonl"
    cache-dir = ".shengji_cache"   # relative to this file
    cache = true

A key that is unknown, or a value of the wrong type, is a usage error naming
the file (exit 2).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analyzer.lint.options import LintUsageError

#: file names tried in each directory, in order of preference
NAMES = (".shengji.toml", "shengji.toml", "pyproject.toml")

_LISTS = ("select", "ignore", "extend-select", "exclude", "extend-exclude")
_STRINGS = ("rules", "format", "cache-dir")
_BOOLS = ("respect-gitignore", "cache", "mistakes")
_INTS = ("jobs",)
KEYS = _LISTS + _STRINGS + _BOOLS + _INTS


@dataclass(frozen=True)
class Config:
    """The settings of one configuration file (empty: no file)."""

    path: Path | None = None
    values: dict[str, Any] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        """The directory relative paths of the file are taken from (the working directory without one)."""
        return self.path.parent if self.path is not None else Path.cwd()

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)


def _read_toml(path: Path) -> dict[str, Any]:
    import tomllib
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise LintUsageError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise LintUsageError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def _table(path: Path) -> dict[str, Any] | None:
    """The settings table of ``path``: ``[tool.shengji]`` of a pyproject.toml, else the whole file."""
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        tool = data.get("tool")
        table = tool.get("shengji") if isinstance(tool, dict) else None
        if table is None:
            return None
        if not isinstance(table, dict):
            raise LintUsageError(f"{path}: [tool.shengji] must be a table")
        return table
    return data


def _has_table(path: Path) -> bool:
    if path.name != "pyproject.toml":
        return True
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return "shengji" in text and _table(path) is not None


def _check(path: Path, table: dict[str, Any]) -> dict[str, Any]:
    where = "[tool.shengji]" if path.name == "pyproject.toml" else path.name
    out: dict[str, Any] = {}
    lint = table.get("lint")
    items = list(table.items())
    if isinstance(lint, dict):          # [tool.shengji.lint] as ruff's [tool.ruff.lint]
        items = [(k, v) for k, v in items if k != "lint"] + list(lint.items())
    for raw, value in items:
        key = raw.replace("_", "-")
        if key not in KEYS:
            raise LintUsageError(f"{path}: {where}: unknown key {raw!r}; known: {', '.join(KEYS)}")
        if key in _LISTS:
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise LintUsageError(f"{path}: {where}: {raw} must be a list of strings")
        elif key in _STRINGS and not isinstance(value, str):
            raise LintUsageError(f"{path}: {where}: {raw} must be a string")
        elif key in _BOOLS and not isinstance(value, bool):
            raise LintUsageError(f"{path}: {where}: {raw} must be true or false")
        elif key in _INTS and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise LintUsageError(f"{path}: {where}: {raw} must be a whole number, at least 1")
        out[key] = value
    return out


def load(path: str | Path) -> Config:
    """The configuration in ``path`` (a pyproject.toml without ``[tool.shengji]``: empty)."""
    p = Path(path).absolute()
    if not p.is_file():
        raise LintUsageError(f"{path}: no such configuration file")
    table = _table(p)
    return Config(p, _check(p, table or {}))


def start_directory(paths: list[str] | tuple[str, ...]) -> Path:
    """Where the search starts: the nearest common directory of the paths given
    (a file's own directory), or the working directory."""
    dirs = []
    for p in paths:
        if p == "-" or not p:
            continue
        a = os.path.abspath(p)
        while not os.path.exists(a) and os.path.dirname(a) != a:   # a glob or a missing path
            a = os.path.dirname(a)
        dirs.append(a if os.path.isdir(a) else os.path.dirname(a))
    if not dirs:
        return Path.cwd()
    try:
        return Path(os.path.commonpath(dirs))
    except ValueError:  # pragma: no cover - different drives
        return Path.cwd()


def find(start: Path) -> Path | None:
    """The nearest configuration file at or above ``start``."""
    d = start.absolute()
    while True:
        for name in NAMES:
            candidate = d / name
            try:
                here = candidate.is_file()
            except OSError:   # a directory that may not be searched (mode 000): its own
                here = False  # read says so, with its name (lint: "DIR: Permission denied")
            if here and _has_table(candidate):
                return candidate
        if d.parent == d:
            return None
        d = d.parent


def discover(paths: list[str] | tuple[str, ...], explicit: str | None = None, isolated: bool = False) -> Config:
    """The configuration for a lint of ``paths``: ``explicit`` when given, none when
    ``isolated``, else the nearest file found upward (:func:`find`)."""
    if explicit is not None:
        return load(explicit)
    if isolated:
        return Config()
    found = find(start_directory(paths))
    return load(found) if found is not None else Config()


@dataclass(frozen=True)
class Settings:
    """What ``shengji lint`` runs with: the command line over the configuration file."""

    select: tuple[str, ...]
    ignore: tuple[str, ...]
    rules: str | None
    exclude: tuple[Any, ...]       # ignore.Pattern
    gitignore: bool
    jobs: int | None
    format: str
    mistakes: bool
    cache: bool
    cache_dir: Path
    config: Config


def resolve(config: Config, *, select: Sequence[str] = (), ignore: Sequence[str] = (),
            extend_select: Sequence[str] = (), rules: str | None = None, exclude: Sequence[str] = (),
            jobs: int | None = None, fmt: str | None = None, mistakes: bool = False, no_cache: bool = False,
            cache_dir: str | None = None, formats: Sequence[str] = ()) -> Settings:
    """The settings of a run: ``select``, ``rules``, ``jobs``, ``fmt``, ``exclude`` given on the
    command line replace the file's; ``ignore`` and ``extend_select`` add to them."""
    from analyzer.lint.cache import cache_directory
    from analyzer.lint.ignore import compile_patterns
    from analyzer.lint.options import parse_codes

    def codes(key: str, given: Sequence[str]) -> tuple[str, ...]:
        try:
            return parse_codes(list(given) or config.get(key, []))
        except LintUsageError as exc:
            if given or config.path is None:
                raise
            raise LintUsageError(f"{config.path}: {key}: {exc}") from None

    chosen = codes("select", select)
    ignored = codes("ignore", [])
    ignored += tuple(c for c in parse_codes(list(ignore)) if c not in ignored)
    extra = parse_codes(list(config.get("extend-select", [])) + list(extend_select))
    if extra:
        # no select means every code: "" (a prefix of every code, the shortest) keeps it so
        chosen = (chosen or ("",)) + tuple(c for c in extra if c not in chosen)
        ignored = tuple(c for c in ignored if c not in extra)   # (an equal ignore would win the tie)
    root = config.root
    if exclude:
        patterns = compile_patterns([p for v in exclude for p in v.split(",") if p.strip()], str(Path.cwd()))
    else:
        patterns = compile_patterns(config.get("exclude", []), str(root))
    patterns += compile_patterns(config.get("extend-exclude", []), str(root))
    form = fmt or config.get("format") or "text"
    if formats and form not in formats:
        raise LintUsageError(f"{config.path}: format {form!r} is not one of {', '.join(formats)}")
    no_cache = no_cache or not config.get("cache", True) or bool(os.environ.get("SHENGJI_NO_CACHE"))
    return Settings(
        select=chosen, ignore=ignored, rules=rules if rules is not None else config.get("rules"),
        exclude=tuple(patterns), gitignore=bool(config.get("respect-gitignore", True)),
        jobs=jobs if jobs is not None else config.get("jobs"), format=form,
        mistakes=mistakes or bool(config.get("mistakes", False)), cache=not no_cache,
        cache_dir=cache_directory(cache_dir, config.get("cache-dir"), root), config=config)
