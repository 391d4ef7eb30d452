"""The lint cache: a file's findings kept under a key of everything they depend on.

The key of a file is a hash of

* its content (BLAKE2b of every byte) and its suffix (``.sjn``/``.gjn`` or a
  log's, which decides how it is read);
* the options that change findings (``--rules``, ``--select``/``--ignore``,
  ``--mistakes``, ``--from``);
* the tool: its version, the Python version, and a stamp of the code itself
  (size and modification time of every module of ``notation``, ``replay`` and
  ``analyzer``), so that any change to the rules, even without a new version
  number, starts afresh.

An entry is one small file, ``<dir>/v1/<key[:2]>/<key>``, holding the
record count and the findings (without the path: the same content under
another name is a hit). It is written atomically (a temporary file in the same
directory, then ``os.replace``): concurrent runs never see half an entry, and
two runs writing the same entry write the same bytes. A file that could not be
read is never cached. A damaged or unreadable entry is a miss; a cache
directory that cannot be written is ignored.

The directory: ``--cache-dir``, else ``SHENGJI_CACHE_DIR``, else ``cache-dir``
of the configuration file, else ``.shengji_cache`` next to the configuration
file (in the working directory without one), as ruff does with
``.ruff_cache``. It holds a ``.gitignore`` (``*``) and a ``CACHEDIR.TAG``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from analyzer.lint.findings import FileResult, Finding
from analyzer.lint.options import LintOptions

#: the entry format's version (a change of layout starts a new directory)
FORMAT = "v1"
DEFAULT_DIR = ".shengji_cache"
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by shengji.\n"
_CHUNK = 1 << 20

_STAMP: str | None = None


def code_stamp() -> str:
    """A hash of the tool's version and of its code's files (size, modification time)."""
    global _STAMP
    if _STAMP is None:
        import analyzer
        import notation
        import replay
        h = hashlib.blake2b(digest_size=16)
        h.update(f"{_version()}|{sys.version_info[:2]}|{FORMAT}".encode())
        for pkg in (notation, replay, analyzer):
            root = Path(next(iter(pkg.__path__)))
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                for name in sorted(filenames):
                    if name.endswith((".py", ".lark", ".json", ".toml")):
                        try:
                            st = os.stat(os.path.join(dirpath, name))
                        except OSError:
                            continue
                        rel = os.path.relpath(os.path.join(dirpath, name), root)
                        h.update(f"{pkg.__name__}/{rel}|{st.st_size}|{st.st_mtime_ns}\n".encode())
        _STAMP = h.hexdigest()
    return _STAMP


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("shengji")
    except PackageNotFoundError:
        return "0"


def options_key(options: LintOptions) -> str:
    mistakes = options.mistakes
    return json.dumps([options.rules, list(options.select), list(options.ignore), mistakes, options.source_format])


class LintCache:
    """A cache directory; :meth:`get` and :meth:`put` by file path."""

    def __init__(self, directory: str | os.PathLike[str], options: LintOptions) -> None:
        self.directory = Path(directory)
        self.root = self.directory / FORMAT
        self._base = hashlib.blake2b(f"{code_stamp()}|{options_key(options)}".encode(), digest_size=16).digest()
        self._keys: dict[str, tuple[str, tuple[int, int, int]]] = {}
        self.hits = 0
        self.misses = 0
        self._writable = True

    def key(self, path: str) -> str | None:
        """The key of the file at ``path`` (None when it cannot be read)."""
        h = hashlib.blake2b(self._base, digest_size=20)
        h.update(os.path.splitext(path)[1].lower().encode("utf-8", "surrogatepass") + b"\0")
        try:
            with open(path, "rb") as f:
                stamp = _stamp(os.fstat(f.fileno()))
                while True:
                    block = f.read(_CHUNK)
                    if not block:
                        break
                    h.update(block)
        except OSError:
            return None
        key = h.hexdigest()
        self._keys[path] = (key, stamp)
        return key

    def _entry(self, key: str) -> Path:
        return self.root / key[:2] / key

    def get(self, path: str, display: str) -> FileResult | None:
        """The cached result of ``path`` (findings named ``display``), or None."""
        key = self.key(path)
        if key is None:
            return None
        try:
            with open(self._entry(key), encoding="utf-8") as f:
                data = json.load(f)
            result = FileResult(display, records=int(data["records"]))
            result.findings = [Finding(display, *row) for row in data["findings"]]
        except (OSError, ValueError, KeyError, TypeError):
            self.misses += 1
            return None
        self.hits += 1
        return result

    def put(self, path: str, result: FileResult) -> None:
        """Keep ``result`` for ``path`` (not when it holds a reading error)."""
        if result.error is not None or not self._writable:
            return
        known = self._keys.get(path)
        if known is None:
            if self.key(path) is None:
                return
            known = self._keys[path]
        key, stamp = known
        try:
            if _stamp(os.stat(path)) != stamp:   # changed while it was linted: its findings may be stale
                return
        except OSError:
            return
        rows = [[f.line, f.column, f.end_line, f.end_column, f.code, f.severity, f.message, f.name, f.hand,
                 f.trick, f.record] for f in result.findings]
        text = json.dumps({"records": result.records, "findings": rows}, ensure_ascii=False,
                          separators=(",", ":"))
        entry = self._entry(key)
        try:
            self._prepare()
            entry.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{key[:8]}.", suffix=".tmp", dir=entry.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text)
                os.replace(tmp, entry)
            except BaseException:
                with _suppress():
                    os.unlink(tmp)
                raise
        except OSError:
            self._writable = False      # a read-only place: lint on without the cache

    def _prepare(self) -> None:
        if self.root.is_dir():
            return
        self.root.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", "# created by shengji\n*\n"), ("CACHEDIR.TAG", _TAG)):
            p = self.directory / name
            if not p.exists():
                with _suppress():
                    fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=f".{name}.", suffix=".tmp")
                    with os.fdopen(fd, "w", encoding="utf-8") as f:
                        f.write(text)
                    os.replace(tmp, p)

    def put_many(self, items: Iterable[tuple[str, FileResult]]) -> None:
        for path, result in items:
            self.put(path, result)


def _stamp(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_size, st.st_mtime_ns, st.st_ino)


class _suppress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return exc[0] is not None and issubclass(exc[0], OSError)  # type: ignore[arg-type]


def cache_directory(option: str | None, config_value: str | None, config_root: Path) -> Path:
    """Where the cache lives (see the module's docstring for the order)."""
    if option:
        return Path(option)
    env = os.environ.get("SHENGJI_CACHE_DIR")
    if env:
        return Path(env)
    if config_value:
        p = Path(config_value)
        return p if p.is_absolute() else config_root / p
    return config_root / DEFAULT_DIR
