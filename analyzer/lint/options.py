"""What to check and what to show: :class:`LintOptions`, ``--select`` /
``--ignore`` code prefixes, and the mistake rules' hook."""

from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from analyzer.io.errors import UsageError


class LintUsageError(UsageError):
    """Bad lint arguments (an unknown preset, a malformed code prefix)."""


_PREFIX = re.compile(r"SJ\d{0,3}")


def parse_codes(values: Iterable[str] | str | None) -> tuple[str, ...]:
    """``["SJ4,SJ503", "sj1"]`` → ``("SJ4", "SJ503", "SJ1")``; LintUsageError if malformed."""
    if values is None:
        return ()
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for v in values:
        for part in re.split(r"[,\s]+", v):
            if not part:
                continue
            p = part.upper()
            if not _PREFIX.fullmatch(p):
                raise LintUsageError(f"not a code or code prefix: {part!r} (expected e.g. SJ4 or SJ404)")
            if p not in out:
                out.append(p)
    return tuple(out)


def _longest(prefixes: Sequence[str], code: str) -> int:
    return max((len(p) for p in prefixes if code.startswith(p)), default=-1)


def selected(code: str, select: Sequence[str] = (), ignore: Sequence[str] = ()) -> bool:
    """Is ``code`` shown under ``select``/``ignore`` prefixes?

    No ``select`` selects every code. When both match, the more specific
    (longer) prefix wins, and ``ignore`` wins a tie: ``--select SJ4 --ignore
    SJ404`` shows SJ4xx but SJ404; ``--ignore SJ4 --select SJ404`` shows SJ404.
    """
    s = _longest(select, code) if select else 0
    if s < 0:
        return False
    return _longest(ignore, code) < s or (not select and _longest(ignore, code) < 0)


@dataclass(frozen=True)
class LintOptions:
    """What to check and what to show (picklable: sent to worker processes)."""

    #: a preset that overrides every record's ``[Rules]`` tag
    rules: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    #: run the analyzer's mistake rules (``analyzer.review.mistakes``) when available
    mistakes: bool = False
    #: read files as another program's logs (``analyzer.io.importers.FORMATS``), ``auto`` to
    #: detect; None: SJN, except explicitly named non-``.sjn`` files whose format is detected
    source_format: str | None = None

    def validate(self) -> LintOptions:
        if self.rules is not None:
            from analyzer.io.gamekit import all_presets, by_preset  # (the game of the preset: only then)
            if by_preset(self.rules) is None:
                raise LintUsageError(f"unknown preset {self.rules!r}; known: {', '.join(all_presets())}")
        if self.source_format in (None, "auto", "sjn"):
            return self  # (the importers are imported only when a log needs them)
        from analyzer.io.importers import FORMATS, format_name
        if format_name(self.source_format) is None:
            raise LintUsageError(f"unknown log format {self.source_format!r}; known: sjn, auto, "
                                 f"{', '.join(FORMATS)}")
        return self


#: the entry point the mistake rules provide: ``find_mistakes(record, match) -> Iterable[Diagnostic]``
MISTAKES_ENTRY = "find_mistakes"


def mistakes_available() -> bool:
    """True when the mistake rules (``analyzer.review.mistakes``) are installed."""
    try:
        if importlib.util.find_spec("analyzer.review.mistakes") is None:
            return False
        mod = importlib.import_module("analyzer.review.mistakes")
    except (ImportError, ValueError):
        return False
    return callable(getattr(mod, MISTAKES_ENTRY, None))


#: the entry ``shengji report --mistakes`` prefers: the full review (also judging
#: decisions from the player's own view, slower than the lint pass)
REVIEW_ENTRY = "review_mistakes"


def mistake_hook(entry: str = MISTAKES_ENTRY) -> Callable[..., Any] | None:
    """``analyzer.review.mistakes.find_mistakes`` (or ``entry`` when it exists) when
    the mistake rules are installed, else None."""
    if not mistakes_available():
        return None
    mod = importlib.import_module("analyzer.review.mistakes")
    hook = getattr(mod, entry, None) or getattr(mod, MISTAKES_ENTRY, None)
    return hook if callable(hook) else None


