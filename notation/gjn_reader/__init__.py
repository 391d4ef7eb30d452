"""Reading GJN (Gouji notation) text into the record model of :mod:`notation.gjn_model`.

How a text is read (the SJN reader's plan, :mod:`notation.reader`, on a
line-oriented notation):

1. **Records.** :func:`notation._records.split_records` cuts the input, line by
   line, into record chunks (a ``[`` line after game content starts a new
   record). One chunk is held in memory at a time: any file streams.
2. **Logical lines.** A chunk is cut into logical lines
   (:func:`notation._records.logical_lines`: a line, plus the lines a ``{ … }``
   commentary runs over). An unterminated commentary is reported (SJ103).
3. **Lines.** The usual line, an action or a seat line with no commentary,
   is read by one regular expression (:func:`_quick_play`); any other line is
   parsed by the Lark LALR parser of ``gjn.lark``. A line that fails gets one
   positioned diagnostic (SJ101–SJ106) and is dropped; reading goes on.
4. **Assembly.** :func:`_assemble` builds :class:`GoujiRecord` and
   :class:`Game` nodes, attaches comments to the element before them and
   reports repeated lines (SJ108).

The package's parts: :mod:`._common` (keywords, full-width text, card words,
line items, building a line's node), :mod:`._quick` (step 3's regular
expressions), :mod:`._grammar` (the Lark path and explaining syntax errors),
:mod:`._assemble` (step 4); this module reads chunks and streams records.

Full-width letters, digits and ``：．＝`` outside comments read as ASCII.
Diagnostics are collected, never raised; nothing here knows game rules.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

from primitives.diagnostics import NO_SPAN, Diagnostic, Span

from .._records import logical_lines, stream_records, unterminated_commentary
from ..gjn_model import Action, GoujiRecord
from ..limits import cap_messages, long_lines
from ._assemble import _assemble
from ._common import _GROUP_CACHE, _Item, _LineError, _new_action, _span_new, halfwidth
from ._grammar import _LOCK, _parse_line
from ._quick import _FAST_ACTION, _fast_words, _quick_keyword, _quick_play

__all__ = ["read_records", "parse_chunk", "KEYWORDS", "USAGE", "QUICK_LINES", "split_cards"]



#: read plain action and seat lines with :func:`_quick_play` (tests switch it off
#: to compare with the grammar)
QUICK_LINES = True


# -- a chunk --------------------------------------------------------------------------------

def parse_chunk(lines: list[str], first_line: int = 1) -> tuple[list[GoujiRecord], list[Diagnostic]]:
    """Parse one record chunk (lines without line ends) whose first line has
    number ``first_line``. Never raises."""
    gc_was_enabled = gc.isenabled()
    try:
        # many small acyclic objects: pausing the cyclic GC while a chunk is
        # built saves rescanning the caller's heap (as the SJN reader does)
        gc.disable()
        lines, too_long = long_lines(lines, first_line, "SJ101")
        with _LOCK:
            items, diags = _parse_items(lines, first_line)
        diags.extend(too_long)
        records, more = _assemble(items)
        diags.extend(more)
    except MemoryError:
        raise  # out of memory: the command's exit 2, not a bug
    except Exception as exc:  # the API boundary: report, never raise
        return [], [Diagnostic.at("SJ901", Span(first_line, 1, first_line, 1),
                                  f"internal error while reading this record ({type(exc).__name__}: "
                                  f"{exc}); the record is skipped; please report this bug with the record")]
    finally:
        if gc_was_enabled:
            gc.enable()
    diags = cap_messages(diags)
    diags.sort(key=Diagnostic.sort_key)
    return records, diags


def _parse_items(lines: list[str], first_line: int) -> tuple[list[_Item | Action], list[Diagnostic]]:
    diags: list[Diagnostic] = []
    items: list[_Item | Action] = []
    if QUICK_LINES and not any("{" in line for line in lines):
        # no commentary: every line is a logical line of its own
        quick = _quick_play
        fast = _FAST_ACTION
        cache = _GROUP_CACHE
        new_action = _new_action
        span_new = _span_new
        append = items.append
        for k, line in enumerate(lines, first_line):
            m = fast(line)
            if m is not None:
                # the usual action, `12. P3: KK` / `13. P4: pass`: built here directly
                rest = m.group(3)
                end = len(line) + 1
                start = m.start(3) + 1
                if rest == "pass" or rest == "let":
                    append(new_action(span_new(Span, (k, 1, k, end)), int(m.group(1)), m.group(2), rest, (),
                                      False, False, None, span_new(Span, (k, start, k, end)), NO_SPAN, []))
                    continue
                cards = cache.get(rest)
                if cards is not None:
                    append(new_action(span_new(Span, (k, 1, k, end)), int(m.group(1)), m.group(2), "play",
                                      cards, False, False, None, span_new(Span, (k, start, k, end)),
                                      NO_SPAN, []))
                    continue
                action = _fast_words(m, rest, k, start, end)
                if action is not None:
                    append(action)
                    continue
            k -= first_line
            if not line.isascii():
                line = halfwidth(line)
            if not line or line.isspace():
                continue
            try:
                head = line.lstrip()[:1]
                item = quick(line, first_line + k) if head.isdigit() or head == "P" else \
                    _quick_keyword(line, first_line + k)
            except _LineError as err:
                diags.append(err.diag)
                continue
            if item is not None:
                items.append(item)
            else:
                items.extend(_parse_line(line, first_line + k - 1, diags))
        return items, diags
    use_quick = QUICK_LINES
    for logical in logical_lines(lines):
        offset = first_line + logical.first - 1
        if logical.open_line >= 0:
            diags.append(unterminated_commentary(logical, first_line))
        text = halfwidth(logical.text)
        if not text.strip():
            if logical.open_text:
                line_no = first_line + logical.open_line
                col = logical.open_column + 1
                items.append(_Item("notes", [logical.open_text],
                                   Span(line_no, col, line_no, len(lines[logical.open_line]) + 1)))
            continue
        got = None
        if use_quick and "\n" not in text and "{" not in text:
            try:
                head = text.lstrip()[:1]
                item = _quick_play(text, offset + 1) if head.isdigit() or head == "P" else \
                    _quick_keyword(text, offset + 1)
            except _LineError as err:
                diags.append(err.diag)
                continue
            if item is not None:
                got = [item]
        if got is None:
            got = _parse_line(text, offset, diags)
        if logical.open_text:
            for it in reversed(got):
                if it.kind != "comment":
                    _attach(it, logical.open_text)
                    break
        items.extend(got)
    return items, diags


def _attach(item: _Item, text: str) -> None:
    if item.kind == "tags":
        item.value[-1].comments.append(text)
    elif item.kind == "notes":
        item.value.append(text)
    else:
        item.comments.append(text)
        if hasattr(item.value, "comments") and item.value.comments is not item.comments:
            item.value.comments.append(text)


# -- streaming --------------------------------------------------------------------------------

def read_records(source: Any, start_line: int = 1) -> Iterator[tuple[GoujiRecord, list[Diagnostic]]]:
    """Stream ``(record, diagnostics)`` from any input (text, bytes, a file, an
    iterable of lines); never raises. Tags or comments with no game are folded
    into the record that follows (:func:`notation._records.stream_records`)."""
    return stream_records(source, start_line, parse_chunk, _empty_record, _has_games)


def _empty_record(span: Span) -> GoujiRecord:
    return GoujiRecord(span=span)


def _has_games(record: GoujiRecord) -> bool:
    return bool(record.games)

