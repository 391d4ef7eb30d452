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
import re
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

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
    from analyzer.io.version import package_version
    return package_version("shengji") or "0"


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
        result = FileResult(display)
        try:
            with open(self._entry(key), encoding="utf-8") as f:
                records, rows = _read_entry(f)
                result.records = records
                for batch in rows:
                    result.add([Finding(display, *row) for row in batch])
        except (OSError, ValueError, KeyError, TypeError):
            result.drop_findings()
            self.misses += 1
            return None
        result.sort()
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
        entry = self._entry(key)
        try:
            self._prepare()
            entry.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{key[:8]}.", suffix=".tmp", dir=entry.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    _write_entry(f, result)
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


def _write_entry(f: IO[str], result: FileResult) -> None:
    """``{"records":N,"findings":[[line,column,…],…]}`` (compact JSON), written a batch of rows at a time."""
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    f.write(f'{{"records":{encode(result.records)},"findings":[')
    batch: list[str] = []
    first = True
    for x in result.iter_findings():
        batch.append(encode([x.line, x.column, x.end_line, x.end_column, x.code, x.severity, x.message, x.name,
                             x.hand, x.trick, x.record]))
        if len(batch) >= 2000:
            f.write(("" if first else ",") + ",".join(batch))
            first = False
            batch.clear()
    if batch:
        f.write(("" if first else ",") + ",".join(batch))
    f.write("]}")


#: an entry up to this size is read whole (json.load); a bigger one a row at a time
WHOLE_ENTRY = 1 << 20
_HEAD = re.compile(r'\{"records":(\d+),"findings":\[')


def _read_entry(f: IO[str]) -> tuple[int, Iterator[list[list[Any]]]]:
    """The record count and the rows (in batches) of an entry; ValueError,
    KeyError or TypeError (now or while the rows are read) when it is damaged."""
    head = f.read(WHOLE_ENTRY)
    if len(head) < WHOLE_ENTRY:
        data = json.loads(head)
        return int(data["records"]), iter([list(data["findings"])])
    head += f.read(64)   # (the head: `{"records":N,"findings":[`)
    m = _HEAD.match(head)
    if m is None:
        raise ValueError("not an entry")
    return int(m.group(1)), _rows(f, head, m.end())


def _rows(f: IO[str], buf: str, pos: int) -> Iterator[list[list[Any]]]:
    """The rows of a big entry from ``buf[pos:]`` on (then ``f``), parsed one at a
    time (JSON's own decoder), a batch at a time: memory stays one block's."""
    decode = json.JSONDecoder().raw_decode
    more = True
    batch: list[list[Any]] = []
    while True:
        if pos < len(buf) and buf[pos] == "]":
            if buf[pos:] + f.read(2) == "]}" and not f.read(1):
                break
            raise ValueError("not the end of an entry")
        try:
            row, end = decode(buf, pos)
        except ValueError:
            if not more:
                raise
            block = f.read(_CHUNK)
            more = bool(block)
            buf, pos = buf[pos:] + block, 0
            continue
        if not isinstance(row, list):
            raise TypeError("a row is a list")
        if end == len(buf) and more:  # (a row must be followed by "," or "]": read on)
            block = f.read(_CHUNK)
            more = bool(block)
            buf, pos = buf[pos:] + block, 0
            continue
        batch.append(row)
        pos = end + (end < len(buf) and buf[end] == ",")
        if len(batch) >= 2000:
            yield batch
            batch = []
    if batch:
        yield batch


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
