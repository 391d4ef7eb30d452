"""Garbage-collector pacing while records are linted (a tenth of the lint time)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def records_paced_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while records are linted.

    A record's objects (the parsed record, the replay's results) hold no
    reference cycles, so reference counting frees them as soon as the next
    record replaces them; left on, the collector would only rescan the record
    being worked on, every few hundred allocations (about a tenth of the lint
    time). :func:`paced_collect` runs it between records should young objects
    pile up all the same (e.g. cycles from an unusual record)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


#: young objects left over above which :func:`paced_collect` collects
PACED_YOUNG = 100_000
#: (the young objects' count is ``gc_count()[0]``: a caller may test it before calling)
gc_count = gc.get_count


def paced_collect(young_limit: int = PACED_YOUNG) -> None:
    """Collect between records when more than ``young_limit`` young objects
    are left over (cycles, or findings kept)."""
    if gc.get_count()[0] > young_limit:
        gc.collect()
