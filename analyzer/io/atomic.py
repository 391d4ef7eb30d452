"""Every file the tool writes goes through here: written whole or not at all.

:func:`atomic_writer` opens a temporary file in the target's own directory
(so the final rename never crosses a file system), the caller writes to it,
and on a clean exit the data is flushed, ``fsync``-ed and renamed over the
target (``os.replace``: atomic on POSIX and Windows). If anything fails or the
caller raises — a full disk (``ENOSPC``), a file-size limit (``EFBIG``), a
reading error found half-way — the temporary file is removed and the target
keeps its old bytes. A process killed mid-write leaves at worst a stray
``.NAME.PID.*.tmp`` file next to an intact target; the next write of NAME
removes it (:func:`remove_stale_temps`: its process is gone).

A symbolic link is written through (its target is rewritten, the link kept);
a device, FIFO or socket is written to, never replaced (``-o /dev/null``); a
file with several hard links gets the new bytes in its own inode (copied in
once the whole new content is written and synced: every link sees it).

:func:`same_file` tells whether an output path names one of the inputs (the
same inode, through any link or spelling): commands refuse such an output even
with ``--force``; only ``shengji fmt --write`` rewrites its input, and it does
so through :func:`atomic_writer` too.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from typing import IO, Any, overload

__all__ = ["atomic_writer", "atomic_write", "write_bytes_atomic", "write_text_atomic", "same_file", "TEMP_SUFFIX",
           "remove_stale_temps"]

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


def _open(fd_or_path: int | str, mode: str, encoding: str | None, newline: str | None) -> IO[Any]:
    opener: Any = os.fdopen if isinstance(fd_or_path, int) else open
    if encoding is None:
        return opener(fd_or_path, mode + "b")  # type: ignore[no-any-return]
    return opener(fd_or_path, mode, encoding=encoding, newline=newline)  # type: ignore[no-any-return]


@contextlib.contextmanager
def _atomic_writer(path: StrPath, encoding: str | None, newline: str | None) -> Iterator[IO[Any]]:
    # a symbolic link is written through: its target gets the bytes, the link stays
    target = os.path.realpath(os.fspath(path))
    try:
        st: os.stat_result | None = os.stat(target)
    except OSError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        # a device, a FIFO, a socket (``-o /dev/null``, ``-o /dev/stdout``): written
        # to, never replaced (there is nothing to be atomic about)
        with _open(target, "w", encoding, newline) as device:
            yield device
        return
    directory = os.path.dirname(target)
    base = os.path.basename(target)
    remove_stale_temps(directory, base)
    fd, tmp = tempfile.mkstemp(prefix=f".{base}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=directory)
    try:
        with _open(fd, "w", encoding, newline) as f:  # binary without an encoding, else text
            yield f
            f.flush()
            os.fsync(f.fileno())
        if st is not None and st.st_nlink > 1:
            # other hard links name this file: a rename would leave them the old
            # bytes; the whole new text is ready (and synced), copy it in place
            _copy_in_place(tmp, target)
            os.unlink(tmp)
            return
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_directory(directory)


def _copy_in_place(source: str, target: str) -> None:
    """Rewrite ``target``'s own inode with ``source``'s bytes (hard links kept)."""
    import shutil
    with open(source, "rb") as src, open(target, "r+b") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
        dst.truncate()
        dst.flush()
        os.fsync(dst.fileno())


#: ``.NAME.PID.XXXXXXXX.tmp``: a temporary file of :func:`atomic_writer` (the writer's process id in it)
_TEMP = re.compile(r"\.(?P<base>.+)\.(?P<pid>[0-9]+)\.[A-Za-z0-9_]{6,}" + re.escape(TEMP_SUFFIX) + r"\Z")
#: an older temporary file (no process id) is removed once it is this old (seconds)
STALE_AFTER = 3600.0


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process: leave its file alone
    return True


def remove_stale_temps(directory: str, base: str) -> list[str]:
    """Remove the temporary files a killed write of ``base`` left in ``directory``
    (``.NAME.PID.*.tmp`` whose process is gone; an older ``.NAME.*.tmp`` after
    :data:`STALE_AFTER` seconds). Best effort, never raises; the removed paths."""
    import time
    removed: list[str] = []
    prefix = f".{base}."
    try:
        names = [n for n in os.listdir(directory) if n.startswith(prefix) and n.endswith(TEMP_SUFFIX)]
    except OSError:
        return removed
    now = time.time()
    for name in names:
        full = os.path.join(directory, name)
        m = _TEMP.match(name)
        try:
            if m is not None and m.group("base") == base:
                if _alive(int(m.group("pid"))):
                    continue
            elif now - os.lstat(full).st_mtime < STALE_AFTER:
                continue
            if not stat.S_ISREG(os.lstat(full).st_mode):
                continue
            os.unlink(full)
            removed.append(full)
        except (OSError, ValueError):
            continue
    return removed


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
