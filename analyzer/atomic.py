"""Every file the tool writes goes through here: written whole or not at all.

:func:`atomic_writer` opens a temporary file in the target's own directory
(so the final rename never crosses a file system), the caller writes to it,
and on a clean exit the data is flushed, ``fsync``-ed and renamed over the
target (``os.replace``: atomic on POSIX and Windows). If anything fails or the
caller raises — a full disk (``ENOSPC``), a file-size limit (``EFBIG``), a
reading error found half-way — the temporary file is removed and the target
keeps its old bytes. A process killed mid-write leaves at worst a stray
``.NAME.*.tmp`` file next to an intact target.

:func:`same_file` tells whether an output path names one of the inputs (the
same inode, through any link or spelling): commands refuse such an output even
with ``--force``; only ``shengji fmt --write`` rewrites its input, and it does
so through :func:`atomic_writer` too.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from typing import IO, Any, overload

__all__ = ["atomic_writer", "atomic_write", "write_bytes_atomic", "write_text_atomic", "same_file", "TEMP_SUFFIX"]

TEMP_SUFFIX = ".tmp"

#: a path as the commands take it
StrPath = str | os.PathLike[str]


def _mode_for(path: str) -> int:
    """The permission bits the written file gets: the old file's, else ``0o666 & ~umask``."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@overload
def atomic_writer(path: StrPath, *, encoding: str = ..., newline: str | None = ...
                  ) -> AbstractContextManager[IO[str]]: ...
@overload
def atomic_writer(path: StrPath, *, encoding: None, newline: str | None = ...
                  ) -> AbstractContextManager[IO[bytes]]: ...
def atomic_writer(path: StrPath, *, encoding: str | None = "utf-8",
                  newline: str | None = "") -> AbstractContextManager[IO[Any]]:
    """``with atomic_writer(path) as f: f.write(...)``: the target is replaced
    only when the block ends without an exception (text mode by default;
    ``encoding=None`` gives a binary file)."""
    return _atomic_writer(path, encoding, newline)


@contextlib.contextmanager
def _atomic_writer(path: StrPath, encoding: str | None, newline: str | None) -> Iterator[IO[Any]]:
    target = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(target))
    base = os.path.basename(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=TEMP_SUFFIX, dir=directory)
    try:
        f: IO[Any]  # binary without an encoding, else text
        if encoding is None:
            f = os.fdopen(fd, "wb")
        else:
            f = os.fdopen(fd, "w", encoding=encoding, newline=newline)
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_directory(directory)


def _sync_directory(directory: str) -> None:
    """Make the rename itself durable (best effort: not every system allows it)."""
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def atomic_write(path: StrPath, data: str | bytes | Iterable[str], *,
                 encoding: str = "utf-8") -> None:
    """Write ``data`` (a str, bytes, or an iterable of str pieces) to ``path`` atomically."""
    if isinstance(data, bytes):
        with atomic_writer(path, encoding=None) as fb:
            fb.write(data)
        return
    with atomic_writer(path, encoding=encoding) as f:
        if isinstance(data, str):
            f.write(data)
        else:
            for piece in data:
                f.write(piece)


def same_file(a: StrPath, b: StrPath) -> bool:
    """Do ``a`` and ``b`` name the same existing file (same device and inode)?"""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def write_bytes_atomic(path: StrPath, data: bytes) -> None:
    """Replace (or create) ``path`` with ``data`` atomically. Raises OSError."""
    atomic_write(path, data)


def write_text_atomic(path: StrPath, text: str, encoding: str = "utf-8") -> None:
    """Replace (or create) ``path`` with ``text`` atomically. Raises OSError."""
    atomic_write(path, text, encoding=encoding)
