"""Explaining a syntax error Lark stops on, and control characters in messages."""

from __future__ import annotations

import difflib
import re

from primitives.diagnostics import Diagnostic, Span

from .._records import DiagnosticAt, error_place
from ._common import KEYWORDS, SEATS, USAGE, tag_problem

# -- explaining syntax errors -----------------------------------------------------------

_SEAT_NO_COLON = re.compile(r"([NWSE]|P[1-8])(?=[ \t]|$)")
_SEAT_COLON = re.compile(r"(?:[NWSE]|P[1-8]):")
_BAD_TRICKNO = re.compile(r"[^\s.:;{}\[\]]+\.(?=\s|$)")
_LAST_PLAY = re.compile(r".*((?:[NWSE]|P[1-8]):.*)$")


def _describe(before: str) -> str:
    """The text before an error, for a message: from the last play on, and short."""
    m = _LAST_PLAY.match(before)
    text = m.group(1) if m else before
    return text if len(text) <= 40 else "…" + text[-39:]


def _missing_colon(rest: str, line: int, col: int, diag: DiagnosticAt) -> Diagnostic:
    seat = rest[0]
    nxt = rest[1:].split()
    example = f"{seat}: {nxt[0]}" if nxt and nxt[0][0] not in ";{" else f"{seat}: …"
    return diag("SJ101", f"a seat that introduces cards is followed by a colon: write `{example}`",
                Span(line, col + 1, line, col + 2))


def _explain_line_start(rest: str, word: str, line: int, col: int, diag: DiagnosticAt) -> Diagnostic:
    """The line cannot start with ``rest``."""
    if _BAD_TRICKNO.match(rest):
        return diag("SJ106", f"`{word}` is not a trick number: write the number and a dot, like `3.`")
    if _SEAT_COLON.match(rest):
        return diag("SJ101", f"expected cards after `{rest[:2]}`")
    if _SEAT_NO_COLON.match(rest):
        return _missing_colon(rest, line, col, diag)
    name = re.match(r"[^\W\d_][\w.]*", word)
    if name:
        w = name.group()
        wspan = Span(line, col + 1, line, col + 1 + len(w))
        if w.lower() in KEYWORDS:
            return diag("SJ104", f"keywords are written in lowercase: `{w.lower()}`", wspan)
        close = difflib.get_close_matches(w.lower(), KEYWORDS, n=1, cutoff=0.6)
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        return diag("SJ104", f"`{w}` is not an SJN keyword{hint}; a line starts with a keyword, "
                             f"a tag `[…]`, a trick number like `1.` or a seat like `S:`", wspan)
    return diag("SJ101", f"unexpected `{word}` at the start of a line; a line starts with a keyword, "
                         f"a tag `[…]`, a trick number like `1.` or a seat like `S:`")


def explain(text: str, exc: Exception, line_offset: int) -> Diagnostic:
    """A diagnostic for a Lark error in ``text`` (one logical line + "\\n")."""
    line, col, line_text, rest, word, span, head = error_place(text, exc, line_offset)
    before = line_text[:col].rstrip()
    keyword = head if head in KEYWORDS else None

    def diag(code: str, message: str, s: Span = span) -> Diagnostic:
        return Diagnostic.at(code, s, message)

    if rest.startswith("["):
        return diag("SJ105", tag_problem(rest), Span(line, col + 1, line, col + 1 + len(rest.rstrip())))
    if rest.startswith("}"):
        return diag("SJ101", "`}` closes no commentary: its `{` is missing")
    if rest.startswith("->") or before.endswith("->"):
        after = rest[2:].strip() if rest.startswith("->") else rest.strip()
        if not after or _SEAT_COLON.match(after) or after[0] in ";{":
            return diag("SJ101", "expected the cards actually played after `->` "
                                 "(a failed throw is written `S: CAKK -> CKK`)")
        return diag("SJ101", "`->` goes between the attempted and the played cards of "
                             "one play: `S: CAKK -> CKK`")
    if not word:
        if keyword:
            return diag("SJ101", f"the `{keyword}` line ends too early: {USAGE[keyword]}")
        if before.endswith(":"):
            return diag("SJ101", f"expected cards after `{_describe(before)}`")
        return diag("SJ101", f"the line ends too early after `{_describe(before)}`")
    if not before:
        return _explain_line_start(rest, word, line, col, diag)
    if keyword is None and re.fullmatch(r"[0-9]+\.", before):
        # right after a trick number: a play must follow
        if _SEAT_COLON.match(rest):
            return diag("SJ101", f"expected cards after `{rest[:2]}`")
        if _SEAT_NO_COLON.match(rest):
            return _missing_colon(rest, line, col, diag)
        return diag("SJ101", f"expected a play like `S: HA` after `{before}`, found `{word}`")
    if keyword:
        return diag("SJ101", f"unexpected `{word}` after `{_describe(before)}`: {USAGE[keyword]}")
    if head[:1] in SEATS or head[:1].isdigit():
        if _SEAT_NO_COLON.match(rest):
            return diag("SJ101", f"expected a card or a seat like `{rest[0]}:` after "
                                 f"`{_describe(before)}`; a seat that introduces cards is "
                                 f"followed by a colon", Span(line, col + 1, line, col + 2))
        if _SEAT_COLON.match(rest):
            return diag("SJ101", f"expected cards after `{rest[:2]}`")
        return diag("SJ101", f"expected a card or a seat like `W:` after `{_describe(before)}`, "
                             f"found `{word}`")
    return diag("SJ101", f"unexpected `{word}` after `{_describe(before)}`")


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


#: what must never reach a terminal raw: the control characters (C0 but tab and
#: line feed, DEL, C1: ESC and CSI/OSC sequences retitle, recolour or hyperlink a
#: terminal), the bidirectional overrides and isolates (they reorder what is shown:
#: "Trojan Source") and the Unicode line and paragraph separators
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                     "\u202a-\u202e\u2066-\u2069]")


def _shown(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` with control characters (and bidirectional overrides) shown as
    ``\\x1b``, ``\\u202e``: the one function every command uses before a record's
    text reaches a terminal or a message (:mod:`analyzer.io.safetext`)."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_shown, text)


def _blame_controls(diags: list[Diagnostic], lines: list[str], first_line: int) -> list[Diagnostic]:
    """A diagnostic on text that holds a control character (a NUL, a form feed, …):
    put it on that character, say so, and never echo it raw."""
    out = []
    for d in diags:
        k = d.line - first_line
        line = lines[k] if 0 <= k < len(lines) else ""
        start = max(d.column - 1, 0)
        end = d.end_column - 1 if d.end_line == d.line and d.end_column > d.column else len(line)
        m = _CONTROL.search(line, start, max(end, start + 1)) if line else None
        if m is None:
            m = _CONTROL.search(line) if line and d.code in ("SJ101", "SJ104") else None
        if m is not None:
            col = m.start() + 1
            d = Diagnostic(d.code, f"a control character (U+{ord(m.group()):04X}) is not SJN text: "
                                   f"{escape_controls(d.message)}",
                           d.line, col, d.line, col + 1, d.severity, d.hand, d.trick)
        elif _CONTROL.search(d.message):
            d = Diagnostic(d.code, escape_controls(d.message), d.line, d.column, d.end_line, d.end_column,
                           d.severity, d.hand, d.trick)
        out.append(d)
    return out


