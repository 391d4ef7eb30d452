"""Text lines kept for later in bounded memory: in a list up to a size, then
in a temporary file (what a command prints at its end, like ``annotate``'s
per-record summary)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable, Iterator


class SpooledLines:
    """Lines (without line ends) appended in order and read back in order:
    in memory up to ``max_size`` characters, then in a temporary file."""

    def __init__(self, max_size: int = 1 << 20) -> None:
        self._file = tempfile.SpooledTemporaryFile(max_size=max_size, mode="w+", encoding="utf-8",
                                                   errors="surrogatepass", newline="\n")

    def append(self, line: str) -> None:
        self._file.write(json.dumps(line) + "\n")   # (one line a line, whatever it holds)

    def extend(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.append(line)

    def __iter__(self) -> Iterator[str]:
        f = self._file
        f.seek(0)
        for raw in f:
            yield json.loads(raw)

    def close(self) -> None:
        self._file.close()
