"""A record's text is inert in every output (docs/security.md).

Whatever a record carries — a player's name, an event, a comment — is data:

* on a terminal, control characters (C0, DEL, C1: ESC, CSI and OSC sequences),
  bidirectional overrides and line separators are shown escaped (``\\x1b``,
  ``\\u202e``) by :func:`inert`, the same function ``lint`` uses for its messages
  (:func:`notation.reader.escape_controls`);
* Rich never reads it as markup: the consoles of :func:`analyzer.report.console.make_console`
  are :class:`InertConsole` (markup off; a string printed is escaped by
  :func:`inert`), and the few styled strings of the tool are built as
  :class:`rich.text.Text` with the record's text appended as plain text;
* in HTML it is inserted as text (``textContent`` or escaped), under a
  Content-Security-Policy that lets only the page's own script run
  (:mod:`analyzer.report.viewer`);
* SJN, JSON or GJN written to a file keep the text as it was (it is the data);
  written to a terminal, :func:`terminal_stream` escapes it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import IO, Any

from rich.console import Console
from rich.text import Text

from notation.reader import escape_controls

__all__ = ["inert", "inert_tree", "InertConsole", "styled", "terminal_stream", "is_terminal"]


def inert(text: str) -> str:
    """``text`` with every control character shown escaped (``\\x1b``): safe to print."""
    return escape_controls(text)


def inert_tree(value: Any) -> Any:
    """``value`` (a report dict: dicts, lists, strings, numbers) with every string :func:`inert`.
    A new structure where something changed; the same objects where nothing did."""
    if isinstance(value, str):
        return escape_controls(value)
    if isinstance(value, dict):
        return {k: inert_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [inert_tree(v) for v in value]
    if isinstance(value, tuple):
        return tuple(inert_tree(v) for v in value)
    return value


def styled(*pieces: str | tuple[str, str]) -> Text:
    """A :class:`Text` of plain pieces (escaped by :func:`inert`) and ``(text, style)`` pairs:
    how the tool styles a line that holds a record's text (never markup)."""
    t = Text()
    for piece in pieces:
        if isinstance(piece, tuple):
            t.append(inert(piece[0]), style=piece[1])
        else:
            t.append(inert(piece))
    return t


class InertConsole(Console):
    """A Rich console that never interprets a string as markup and shows the
    control characters of every string it is given escaped (table cells
    included): a record's text cannot restyle, retitle or hyperlink the terminal."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("markup", False)
        kwargs.setdefault("emoji", False)
        super().__init__(*args, **kwargs)

    def render_str(self, text: str, **kwargs: Any) -> Text:  # type: ignore[override, unused-ignore]  # Rich's keyword arguments passed on
        return super().render_str(inert(text), **kwargs)


def is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class _EscapingStream:
    """A text stream that writes what it is given with control characters escaped."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(inert(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def terminal_stream(stream: IO[str] | None = None) -> IO[str]:
    """``stream`` (stdout by default), escaping control characters when it is a terminal:
    SJN or JSON shown on a screen cannot drive the screen."""
    stream = sys.stdout if stream is None else stream
    if is_terminal(stream):
        return _EscapingStream(stream)  # type: ignore[return-value]  # a text stream in all that is used
    return stream
