"""Cutting a huge file into byte ranges that hold whole records (for the workers)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import IO

from analyzer.io.sources import count_lines, raw_lines

#: the largest chunk of a split file (a file is cut into about 4 chunks per
#: worker, so the workers finish together, but chunks of at least MIN_CHUNK_BYTES)
CHUNK_BYTES = 2 * 1024 * 1024
MIN_CHUNK_BYTES = 128 * 1024


def split_file(path: str, chunk_bytes: int = CHUNK_BYTES) -> Iterator[tuple[int, int | None, int]]:
    """Byte ranges ``(start, end, start_line)`` of about ``chunk_bytes`` that hold whole records.

    Each cut is one the reader makes too, so linting the ranges one by one
    gives what linting the whole file gives; the last range has ``end=None``.
    The file is not read through the reader: the lines of each range are
    counted in bytes, and only a window after each approximate cut is read to
    find the next record start (:func:`_next_cut`), so the process that hands
    out the ranges leaves the cores to the workers. Ranges are yielded as they
    are found, so work can start at once.
    """
    size = os.path.getsize(path)
    start, start_line = 0, 1
    with open(path, "rb") as f:
        while start + chunk_bytes < size:
            f.seek(start)
            block = f.read(chunk_bytes)
            last_nl = block.rfind(b"\n")
            if last_nl < 0:
                break  # one very long line: no cut in this range
            cut = _next_cut(f, start + last_nl + 1, start_line + count_lines(block[:last_nl + 1]))
            if cut is None:
                break
            yield start, cut[0], start_line
            start, start_line = cut
    yield start, None, start_line


def _next_cut(f: IO[bytes], pos: int, line: int) -> tuple[int, int] | None:
    """The first record start the reader makes after byte ``pos`` (a line start,
    line number ``line``): ``(byte offset, line number)``, or None at the end of
    the file (or at bytes that are not UTF-8, which the last range reports).

    The reader's record splitter (:func:`notation.reader.split_records`) is in a
    known state at any line starting with ``[`` (a tag line: it closes any open
    commentary, and the record so far either ends there or the line joins its
    tags), so a fresh split run from such a line cuts wherever the whole-file
    run cuts after it. Its first cut is therefore one of the reader's cuts.
    """
    from notation.reader import split_records

    f.seek(pos)
    offsets: list[int] = []  # byte offset of each line given to the splitter
    at_end = False

    def lines() -> Iterator[str]:
        nonlocal pos, line, at_end
        started = False
        for raw in raw_lines(f):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                # no cut after bytes that are not UTF-8 (the last range reports them); stopping
                # here, not raising: the splitter would hand back the record it held (issue 35)
                break
            if not started and not text.lstrip().startswith("["):
                pos += len(raw)
                line += 1  # ends as the number of the first line given to the splitter
                continue
            started = True
            offsets.append(pos)
            pos += len(raw)
            yield text
        at_end = True

    # the first chunk is yielded when the line that starts the next record is read
    got = next(split_records(lines(), 1), None)
    if got is None or at_end:
        return None  # the end of the file: no record starts after this one
    first, chunk_lines = got
    k = first - 1 + len(chunk_lines)  # the cut's index among the lines given
    return offsets[k], line + k
