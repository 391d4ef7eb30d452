"""``; noqa`` comments: which codes a line silences, read while the reader
consumes the lines (:class:`NoqaLines`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

#: ``; noqa`` or ``; noqa: SJ404, SJ5`` in a line's ``;`` comment (flake8 style)
NOQA = re.compile(r";[^\n]*?\bnoqa\b(?::[ \t]*(?P<codes>[A-Za-z]+\d*(?:[ \t]*,?[ \t]*[A-Za-z]+\d*)*))?",
                  re.IGNORECASE)


def noqa_codes(line: str) -> tuple[str, ...] | None:
    """None: no noqa here; ``()``: a bare ``noqa`` (every code); else the code prefixes."""
    if "noqa" not in line.lower():
        return None
    m = NOQA.search(line)
    if not m:
        return None
    codes = m.group("codes")
    if not codes:
        return ()
    return tuple(c.upper() for c in re.split(r"[\s,]+", codes) if c)


def noqa_map(lines: Iterable[str], start_line: int = 1) -> dict[int, tuple[str, ...]]:
    """Line number → noqa codes for the lines that carry a ``noqa`` comment."""
    out: dict[int, tuple[str, ...]] = {}
    for n, line in enumerate(lines, start_line):
        codes = noqa_codes(line)
        if codes is not None:
            out[n] = codes
    return out


def silenced(code: str, line: int, noqa: dict[int, tuple[str, ...]]) -> bool:
    codes = noqa.get(line)
    if codes is None:
        return False
    return not codes or any(code.startswith(c) for c in codes)


class NoqaLines:
    """Wraps a line iterator: records ``noqa`` comments while the reader consumes lines."""

    def __init__(self, lines: Iterable[str], start_line: int = 1,
                 on_bytes: Callable[[int], None] | None = None) -> None:
        self._lines = lines
        self._n = start_line
        self.noqa: dict[int, tuple[str, ...]] = {}
        self._on_bytes = on_bytes
        #: why reading stopped early (an I/O or decoding error), else None
        self.error: str | None = None

    def __iter__(self) -> Iterator[str]:
        # one `for` inside one `try` (not a `next()` in a `try` per line): the
        # errors come from the underlying iterator only, as the consumer's
        # own errors never enter a generator at its `yield`
        n = self._n
        noqa = self.noqa
        on_bytes = self._on_bytes
        try:
            for line in self._lines:
                if ";" in line:  # (a noqa is in a `;` comment: most lines have none)
                    codes = noqa_codes(line)
                    if codes is not None:
                        noqa[n] = codes
                n += 1
                if on_bytes is not None:
                    on_bytes(len(line.encode("utf-8")) if not line.isascii() else len(line))
                yield line
        except UnicodeDecodeError as exc:
            # stop reading here; the caller reports the file as unreadable (exit status 2)
            from analyzer.io.sources import describe_decode_error
            self.error = describe_decode_error(exc)
        except OSError as exc:
            self.error = exc.strerror or str(exc)
        finally:
            self._n = n
