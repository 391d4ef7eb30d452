"""The grammar's terminals for the shortcut: the table made from ``sjn.lark``
(``notation/_terminals.py``), compiled, and the whole-line regexes built from
it. Nothing here is a hand copy of a terminal: a seat, a card list, a gap, a
trick number all come from the grammar."""

from __future__ import annotations

import re
import string

from .. import _terminals as _table
from ._common import GRAMMAR_PATH

#: keyword -> (rule, the terminals that follow it; "?" ends an optional one).
#: `declare none` is told apart first (NONE has priority over VALUE).
_SHAPES = {
    "hand": ("hand", ("VALUE?",)),
    # two teams, or up to eight players' own levels (finding friends)
    "levels": ("levels", ("VALUE", "VALUE", "VALUE", "VALUE") + ("VALUE?",) * 12),
    "dealer": ("dealer", ("VALUE",)),
    "first": ("first", ("VALUE",)),
    "kitty": ("kitty", ("CARDS",)),
    "declare": ("declare", ("VALUE", "CARDS", "AT?")),
    "trump": ("trump", ("VALUE",)),
    "bury": ("bury", ("PLAYS",)),
    "points": ("points", ("VALUE",)),
    "redeal": ("redeal", ()),
    "friend": ("friend", ("VALUE", "VALUE?", "VALUE?", "VALUE?")),
}

_TERMINALS: dict[str, re.Pattern[str]] = {}
#: the grammar's inner terminals by name (`_piece_patterns`)
_PIECES: dict[str, str] = {}
#: keyword, or "[" for a tag line -> (rule, the regex reading the line whole,
#: the terminals in its groups 2, 3, …): see `_whole_line`
_WHOLE_LINES: dict[str, tuple[str, re.Pattern[str], tuple[str, ...]]] = {}


def _terminals() -> dict[str, re.Pattern[str]]:
    """The grammar's terminals, compiled (matched within one line), and, built
    from them, ``plays4``: a whole seat or trick line of up to four plays,
    ``usual4``: the same line as the writer writes it (a part of what
    ``plays4`` reads, read the same, for less), and ``play``: one play (seat,
    cards, cards after ``->``)."""
    if not _TERMINALS:
        _PIECES.update(_piece_patterns())
        for name, pattern in _terminal_patterns():
            _TERMINALS[name] = re.compile(pattern)
        # the same line with at most four plays, each play's parts in groups
        # (seat, cards, cards after `->`), to the end of the line: anchored at
        # the end, only the greedy reading Lark's lexer takes can match
        # (the seat, the gaps, the arrow and the number are the grammar's own
        # inner terminals, `_pieces`; `;` and `.` are its literals)
        cards = _TERMINALS["CARDS"].pattern
        seat, number, gap, sep, arrow = (_PIECES[name] for name in _table.PIECE_NAMES)
        play = rf"({seat}):{gap}({cards})(?:{gap}{arrow}{gap}({cards}))?+"
        _TERMINALS["plays4"] = re.compile(
            rf"{gap}((?:({number})\.{gap})?+{play}(?:{sep}{play}(?:{sep}{play}"
            rf"(?:{sep}{play})?+)?+)?+){gap}(;.*)?\Z")
        # the usual line, as the writer writes it: no blank before it, one
        # blank after `.`, `:` and between groups, two between plays, ` -> `;
        # a group of ASCII capitals and digits (those the card group of
        # CARDS takes). Where this matches, `plays4` matches too, with the
        # same groups (a test checks it): after a group of these comes a
        # blank, `;` or the end, where CARDS' group stops too, and a seat
        # ends its play's cards by the two blanks, not by a lookahead after
        # each group as in CARDS; so it costs about two thirds of `plays4`
        # and is tried first (`_quick_read`)
        group = "[" + "".join(c for c in string.digits + string.ascii_uppercase
                              if _TERMINALS["CARDS"].fullmatch(c)) + "]++"
        usual_cards = rf"{group}(?: {group})*+"
        usual = rf"({seat}): ({usual_cards})(?: {arrow} ({usual_cards}))?+"
        _TERMINALS["usual4"] = re.compile(
            rf"((?:({number})\. )?+{usual}(?:  {usual}(?:  {usual}(?:  {usual})?+)?+)?+){gap}(;.*)?\Z")
        # one play anywhere in a line (a PLAYS token's, a `bury` line's)
        _TERMINALS["play"] = re.compile(rf"({seat}):{gap}({cards})(?:{gap}{arrow}{gap}({cards}))?")
        for keyword, (rule, wanted) in _SHAPES.items():
            names = (keyword.upper(), *wanted)
            # `declare none` is left to the token-by-token reading
            guard = rf"(?![ \t]*+(?>{_TERMINALS['NONE'].pattern}))" if keyword == "declare" else ""
            _WHOLE_LINES[keyword] = (rule, _whole_line(names, guard), tuple(n.rstrip("?") for n in names))
        _WHOLE_LINES["["] = ("tags", _whole_line(("TAG",)), ("TAG",))
    return _TERMINALS


def _terminal_patterns() -> tuple[tuple[str, str], ...]:
    """The grammar's terminals as (name, regex), in Lark's order: from the table
    in `_terminals.py` when it was made from this very grammar (the usual case:
    no Lark needed), else from the grammar text (by Lark)."""
    if _table_is_current():
        return _table.TERMINALS
    return _table.terminals_from_grammar(GRAMMAR_PATH.read_text(encoding="utf-8"))


def _piece_patterns() -> tuple[tuple[str, str], ...]:
    """The grammar's inner terminals the shortcut's regexes are made of, as
    (name, regex): from `_terminals.py` when it was made from this very
    grammar, else from the grammar text (by Lark)."""
    if _table_is_current():
        return _table.PIECES
    return _table.pieces_from_grammar(GRAMMAR_PATH.read_text(encoding="utf-8"))


def _table_is_current() -> bool:
    return _table.grammar_digest(GRAMMAR_PATH.read_bytes()) == _table.GRAMMAR_DIGEST


def _whole_line(names: tuple[str, ...], guard: str = "") -> re.Pattern[str]:
    """A line holding the terminals ``names`` (the last may be optional:
    ``"AT?"``) and then nothing but blanks and a `;` comment: the element
    (first to last terminal) in group 1, the terminals in groups 2, 3, …, the
    comment in the last group. ``guard`` follows the first terminal.

    Each terminal is an atomic group ``(?>…)``: it takes what its own regex
    takes at that point and never gives any back, so the line is cut exactly
    as `_quick_lex` cuts it token by token (and as Lark's lexer does). A line
    this does not match (one with a commentary, or a syntax error) is read
    token by token."""
    parts = []
    for k, name in enumerate(names):
        terminal = _TERMINALS[name.rstrip("?")]
        assert not terminal.groups, "a terminal with groups would shift the group numbers"
        term = rf"((?>{terminal.pattern}))"
        if k:
            term = rf"[ \t]*+{term}"
        parts.append(rf"(?:{term})?+" if name.endswith("?") else term)
        if k == 0:
            parts.append(guard)
    return re.compile(rf"({''.join(parts)})[ \t]*+(;.*)?\Z")
