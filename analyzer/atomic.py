"""Atomic file writes: a temporary file in the target's directory, fsync, rename.

A reader (or a crash) sees the old file or the new one, never half of one. The
new file keeps the old one's permission bits when it replaces a file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Replace (or create) ``path`` with ``data`` atomically. Raises OSError."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    mode = None
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        pass
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def write_text_atomic(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Replace (or create) ``path`` with ``text`` atomically. Raises OSError."""
    write_bytes_atomic(path, text.encode(encoding))
