"""Reading SJN text into the record model.

The package's parts, each doing one thing:

- :mod:`notation._records`: cutting text into lines, record chunks and
  logical lines (shared with the GJN reader);
- :mod:`._quick`: the shortcut's line lexer (step 2 below), with the
  grammar's own terminals (``notation/_terminals.py``);
- :mod:`._build` and :mod:`._whole`: the tree builder (the rule methods Lark
  calls) and the builders of the usual lines read whole;
- :mod:`._backend`: building the Lark parser, only when a chunk needs it;
- :mod:`._explain`: explaining syntax errors;
- :mod:`._assemble`: line items to records and hands;
- :mod:`._cards`: card lists; :mod:`._models`: filling model nodes directly;
  :mod:`._common`: what they share.

This module reads chunks and streams records; the flags tests and benchmarks
set (``QUICK_LINES``, ``PAUSE_GC``) live here.

How a text is read:

1. **Records.** :func:`split_records` cuts the input, line by line, into
   record chunks: a line whose first non-blank character is ``[`` starts a new
   record once the current one has hand content. Only one chunk is held in
   memory at a time, so a file of any size streams.
2. **Shortcut.** A chunk made only of one-line elements (tags, keyword
   lines, seat and trick lines, blanks, ``;`` comments: what the writer
   produces when there is no commentary) is lexed line by line with the
   grammar's own terminals (:func:`_quick_lex`): the usual line (a seat or
   trick line, a tag or keyword line without commentary) is read whole with
   one regex and built directly; a line with a bad value (a card, a seat) is
   built by the same rule methods as in step 3, which report it. Anything
   else (a commentary over lines, a syntax error) leaves the whole chunk to
   step 3.
3. **Lark.** The chunk is parsed in one go by the Lark LALR parser
   (``sjn.lark``) with the tree builder inlined (:class:`_Build`): each line
   becomes an :class:`_Item`, and the cards are split in Python.
4. **Recovery.** If Lark stops on a syntax error, the chunk is read again one
   *logical line* at a time (a line, plus the following lines a multi-line
   ``{ … }`` commentary runs over). A line that fails is dropped with one
   diagnostic and reading goes on at the next line.
5. **Assembly.** :func:`_assemble` turns the items into :class:`Record` and
   :class:`Hand` objects, attaches comments and reports repeated lines.

Diagnostics are collected, never raised; any unexpected failure becomes an
SJ101 diagnostic at the start of the chunk. Nothing here knows game rules.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from primitives.diagnostics import Diagnostic, Span

from .._records import (
    FULLWIDTH,
    LINE_BREAKS,
    _ascii,
    logical_lines,
    split_lines,
    split_records,
    stream_records,
    unterminated_commentary,
)
from ..limits import cap_messages, long_lines
from ..model import Record
from . import _backend
from ._assemble import _assemble, _lost_tricks
from ._backend import _LOCK, use_backend
from ._backend import _parser as _parser
from ._build import _BUILD
from ._cards import _GROUP_CACHE as _GROUP_CACHE
from ._cards import CardError, split_cards
from ._cards import _group_cards as _group_cards
from ._common import GRAMMAR_PATH, KEYWORDS, SEATS, USAGE, Entry, _Item, tag_problem, unescape_tag_value
from ._explain import _blame_controls, escape_controls, explain
from ._grammar import _terminal_patterns as _terminal_patterns
from ._models import _Record
from ._quick import _quick_lex as _quick_lex
from ._quick import _quick_read

if TYPE_CHECKING:
    from lark import Lark

__all__ = ["parse_chunk", "split_records", "read_records", "split_cards", "use_backend",
           "split_lines", "BACKEND", "KEYWORDS", "FULLWIDTH", "LINE_BREAKS", "USAGE", "SEATS",
           "GRAMMAR_PATH", "CardError", "escape_controls", "explain", "logical_lines",
           "tag_problem", "unescape_tag_value"]

#: pause the cyclic GC while a chunk is read (see `parse_chunk`)
PAUSE_GC = True
#: use the shortcut (tests turn it off to compare with the Lark path)
QUICK_LINES = True


def __getattr__(name: str) -> Any:
    """``BACKEND``: which Lark runs the grammar ("lark-cython" or "lark"; "" until
    the parser is built), read from :mod:`._backend` where it changes."""
    if name == "BACKEND":
        return _backend.BACKEND
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- parsing a chunk ---------------------------------------------------------------------

def _run(parser: Lark, text: str, offset: int) -> list[_Item]:
    build = _BUILD
    build.offset = offset
    build.bad = False
    items: list[_Item] = parser.parse(text)  # type: ignore[assignment]  # `_Build.start` gives the items
    return items


def parse_chunk(lines: list[str], first_line: int = 1) -> tuple[list[Record], list[Diagnostic]]:
    """Parse one record chunk (lines without line ends) whose first line has
    number ``first_line``. Never raises."""
    gc_was_enabled = gc.isenabled()
    try:
        # The reader allocates many small acyclic objects; pausing the cyclic
        # GC while one chunk is built avoids scanning the caller's heap over
        # and over (about 40% of the time when many records are kept).
        if PAUSE_GC:
            gc.disable()
        if not all(map(str.isascii, lines)):  # full-width letters and digits read as ASCII
            lines = [_ascii(line) for line in lines]
        lines, too_long = long_lines(lines, first_line, "SJ101")
        with _LOCK:
            items, diags = _parse_items(lines, first_line)
        if too_long:
            diags.extend(too_long)
        if diags:
            items = _lost_tricks(items, diags, lines, first_line)
            diags = _blame_controls(diags, lines, first_line)
        records, more = _assemble(items)
        diags.extend(more)
    except MemoryError:
        raise
    except Exception as exc:  # the API boundary: report, never raise
        diag = Diagnostic.at("SJ901", Span(first_line, 1, first_line, 1),
                             f"internal error while reading this record ({type(exc).__name__}: {exc}); "
                             f"the record is skipped; please report this bug with the record")
        return [], [diag]
    finally:
        if gc_was_enabled:
            gc.enable()
    diags = cap_messages(diags)
    diags.sort(key=Diagnostic.sort_key)
    return records, diags


def _parse_items(lines: list[str], first_line: int) -> tuple[list[Entry], list[Diagnostic]]:
    build = _BUILD
    diags: list[Diagnostic] = []
    build.diags = diags
    if QUICK_LINES:
        read = _quick_read(lines, first_line - 1)
        if read is not None:
            return read, diags
        diags.clear()  # what the shortcut reported before it gave up: Lark reads it all again
    parser = _parser()
    try:
        return list(_run(parser, "\n".join(lines) + "\n", first_line - 1)), diags
    except _backend._LARK_ERRORS:
        pass
    # recovery: one logical line at a time
    diags = []
    build.diags = diags
    items: list[Entry] = []
    for logical in logical_lines(lines):
        offset = first_line + logical.first - 1
        if logical.open_line >= 0:
            diags.append(unterminated_commentary(logical, first_line))
        if not logical.text.strip():
            if logical.open_text:  # a lone unterminated commentary line
                line_no = first_line + logical.open_line
                col = logical.open_column + 1
                items.append(_Item("notes", [logical.open_text],
                                   Span(line_no, col, line_no, len(lines[logical.open_line]) + 1),
                                   []))
            continue
        text = logical.text + "\n"
        try:
            got = _run(parser, text, offset)
        except _backend._LARK_ERRORS as exc:
            diags.append(explain(text, exc, offset))
            continue
        for it in got:
            if logical.open_text and it.kind != "comment":
                it.tail.append(logical.open_text)
            items.append(it)
    return items, diags


# -- reading a whole input ---------------------------------------------------------------------

def read_records(source: Any, start_line: int = 1) -> Iterator[tuple[Record, list[Diagnostic]]]:
    """Stream ``(record, diagnostics)`` from any input; never raises.

    A record is a tag section followed by hands. What the reader finds with no
    hand is folded into the record that follows (:func:`notation._records.stream_records`).
    """
    return stream_records(source, start_line, parse_chunk, _empty_record, _has_hands)


def _empty_record(span: Span) -> Record:
    return _Record(span=span)


def _has_hands(record: Record) -> bool:
    return bool(record.hands)
