"""The shortcut: lexing the usual chunk line by line with the grammar's own terminals."""

from __future__ import annotations

import re
from typing import Any, Literal, NamedTuple

from primitives.diagnostics import Span

from ._build import _BUILD, _Build
from ._common import Entry, _Item, _span_new
from ._grammar import _PIECES, _SHAPES, _WHOLE_LINES, _terminals

# -- the shortcut for simple chunks ----------------------------------------------------
#
# Most chunks hold nothing but well-formed one-line elements: tags, keyword
# lines, seat and trick lines, blank lines, `;` comments and `{ … }`
# commentaries that close on their line. For those, Lark's LALR machinery
# costs more than building the model (a few µs a token). The shortcut lexes
# such a chunk line by line with the grammar's own terminal regexes, tried in
# the order Lark's contextual lexer tries them, and hands the same tokens to
# the same `_Build` rule methods Lark would call. The usual lines are read
# whole by one regex each (`plays4`, `_whole_line`) and built straight from
# its groups (`_Build._matched_play_line`, `_Build._whole_*`); when a value
# there is bad, the line goes to the rule method after all. If any line of the
# chunk holds anything else (a commentary running over lines, a syntax error,
# …), the shortcut gives up before building anything and Lark reads the chunk
# as before. Only the rule methods report problems, on both paths, so a bad
# card or seat gets the same diagnostic and span either way.
#
# Why no line can be lexed differently by the two: the grammar is a sequence
# of line elements and only COMMENTARY (refused here when it does not close on
# its line) and PLAY_LINES cross a line end. A PLAY_LINES token that runs over
# several lines is split back into lines by `_Build.plays`, which gives the
# commentaries and plays after it to its last line; it continues into a line
# only through that line's own PLAY_LINES token, as read here, and only after
# a line that token's plays end.

#: use the shortcut (tests turn it off to compare with the Lark path)

class _Tok(NamedTuple):
    """The parts of a (one-line) Lark token that `_Build` reads."""

    type: str
    value: str
    line: int
    column: int  # from 1, as Lark counts
    end_line: int
    end_column: int


def _tok(type_: str, value: str, line: int, start: int) -> _Tok:
    """The token ``value`` found at index ``start`` of line ``line``."""
    return _span_new(_Tok, (type_, value, line, start + 1, line, start + 1 + len(value)))


_BLANKS = re.compile(r"[ \t]*")
_LOWER_WORD = re.compile(r"[a-z]+")

#: a line lexed token by token: (the `_Build` rule or None for a comment line,
#: its tokens (for a tag line, a list of each tag's tokens), its `;` comment)
_Tokens = tuple[str | None, list[Any], "_Tok | None"]
#: a line of a chunk lexed by `_quick_lex`: None (blank), a `plays4` match, a
#: tag or keyword line read whole (rule, match, terminals), or `_Tokens`
_Lexed = re.Match[str] | tuple[str, re.Match[str], tuple[str, ...]] | _Tokens | None


def _after_blanks(line: str, pos: int) -> int:
    """Where the blanks from ``pos`` on end."""
    m = _BLANKS.match(line, pos)
    assert m is not None  # `[ \t]*` matches anywhere
    return m.end()

def _quick_lex(lines: list[str]) -> list[_Lexed] | None:
    """Each line of a simple chunk, lexed, or None when some line needs Lark
    (what :func:`_quick_read` would read; tests ask it which way a text goes).

    One entry a line: None for a blank line; for a seat or trick line read
    whole (the usual line), the ``plays4`` match; else what :func:`_lex_other`
    makes of it."""
    plays4 = _terminals()["plays4"].match
    out: list[_Lexed] = []
    for number, line in enumerate(lines, 1):
        m = plays4(line)
        if m is not None:  # the usual line, whole
            out.append(m)
            continue
        entry = _lex_other(line, number)
        if entry is False:
            return None
        out.append(entry)
    return out


def _lex_other(line: str, number: int) -> _Lexed | Literal[False]:
    """Line ``number`` (from 1) of a chunk, which ``plays4`` does not read
    whole: None for a blank line; for a tag or keyword line read whole,
    ``(rule, match, terminals)`` (see `_whole_line`); else what
    :func:`_lex_line` makes of it; False when the line needs Lark."""
    if line and line[0] != " " and line[0] != "\t":
        pos = 0  # (the usual line: no blank before its element)
    else:
        pos = _after_blanks(line, 0)
        if pos == len(line):
            return None
    head = line[pos]
    if head == "[":
        shape = _WHOLE_LINES["["]
    elif head in "NWSEP0123456789;{":
        shape = None
    else:
        word = _LOWER_WORD.match(line, pos)
        shape = _WHOLE_LINES.get(word.group()) if word else None
        if shape is None:
            return False
    if shape is not None and (m := shape[1].match(line, pos)) is not None:
        return shape[0], m, shape[2]  # the usual tag or keyword line, whole
    entry = _lex_line(line, pos, number)
    return False if entry is None else entry


def _lex_line(line: str, pos: int, number: int) -> _Tokens | None:
    """Line ``number`` (from 1), from its first non-blank character at index
    ``pos``, as ``(rule, tokens, comment)`` read token by token, or None when
    it needs Lark. ``rule`` is a `_Build` rule, or None for a comment line;
    ``comment`` is the ``;`` comment's token or None."""
    terms = _terminals()
    commentary = terms["COMMENTARY"].match

    def commentaries(pos: int, toks: list[Any]) -> int:
        """Add the COMMENTARY tokens from ``pos`` on; where they end."""
        while (m := commentary(line, _after_blanks(line, pos))) is not None:
            toks.append(_tok("COMMENTARY", m.group(), number, m.start()))
            pos = m.end()
        return pos

    head = line[pos]
    if head in "NWSEP0123456789":
        # PLAY_LINES, or a bare TRICKNO; then commentaries and plays
        kind, m = "PLAY_LINES", terms["PLAY_LINES"].match(line, pos)
        if m is None:
            kind, m = "TRICKNO", terms["TRICKNO"].match(line, pos)
            if m is None:
                return None
        toks: list[Any] = [_tok(kind, m.group(), number, pos)]
        pos = m.end()
        while True:
            pos = commentaries(pos, toks)
            m = terms["PLAYS"].match(line, _after_blanks(line, pos))
            if m is None:
                break
            toks.append(_tok("PLAYS", m.group(), number, m.start()))
            pos = m.end()
        rule = "plays"
    elif head == ";":
        return None, [], _tok("LINE_COMMENT", line[pos:], number, pos)
    elif head == "{":
        toks = []
        pos = commentaries(pos, toks)
        rule = "notes"
    elif head == "[":
        toks = []  # a tag: its TAG and COMMENTARY tokens
        while (m := terms["TAG"].match(line, pos)) is not None:
            tag = [_tok("TAG", m.group(), number, pos)]
            pos = _after_blanks(line, commentaries(m.end(), tag))
            toks.append(tag)
        rule = "tags"
    else:
        word = _LOWER_WORD.match(line, pos)
        if word is None:
            return None
        shape = _SHAPES.get(word.group())
        if shape is None or terms[word.group().upper()].match(line, pos) is None:
            return None
        rule, wanted = shape
        toks = [_tok(word.group().upper(), word.group(), number, pos)]
        pos = _after_blanks(line, word.end())
        if rule == "declare" and (m := terms["NONE"].match(line, pos)) is not None:
            rule, wanted = "declare_none", ()
            toks.append(_tok("NONE", m.group(), number, pos))
            pos = m.end()
        for name in wanted:
            optional = name.endswith("?")
            name = name.rstrip("?")
            pos = _after_blanks(line, pos)
            m = terms[name].match(line, pos)
            if m is None:
                if optional:
                    break
                return None
            toks.append(_tok(name, m.group(), number, pos))
            pos = m.end()
        pos = commentaries(pos, toks)
    # what may end a line: blanks, then nothing or a `;` comment
    pos = _after_blanks(line, pos)
    comment = None
    if pos < len(line):
        if line[pos] != ";":
            return None
        comment = _tok("LINE_COMMENT", line[pos:], number, pos)
    return rule, toks, comment


def _quick_read(lines: list[str], offset: int) -> list[Entry] | None:
    """The entries of a simple chunk (``offset``: the line number before its
    first line), lexed line by line and built as Lark would build them (and as
    `_Build.start` orders them: a line's ``;`` comment goes to its element, or
    is an item of its own on a line with no element); None, as soon as a line
    needs Lark (the caller then drops what the builder reported)."""
    build = _BUILD
    build.offset = offset
    build.bad = False
    terms = _terminals()
    usual4, plays4 = terms["usual4"].match, terms["plays4"].match
    play_heads = _play_heads()
    play_line = build._matched_play_line
    items: list[Entry] = []
    append = items.append
    item: _Item | None
    for number, text in enumerate(lines, 1):
        line = number + offset
        # a seat or trick line, whole: as the writer writes it, or any other way
        # (`usual4` reads a part of what `plays4` reads, read the same, for less;
        # a line whose first character starts no play line is neither)
        if text[:1] in play_heads and (m := usual4(text) or plays4(text)) is not None:
            got = play_line(m, line)
            comment = m.group(15)
            if type(got) is not _Item:  # the node itself (the usual case)
                if comment is not None:
                    got.line_comment = comment[1:].strip()
                append(got)
                continue
            item = got  # an _Item: read the general way
            if item.kind == "bad":  # dropped, with its comment
                continue
            if comment is not None:
                item.line_comment = comment[1:].strip()
            append(item)
            continue
        entry = _lex_other(text, number)
        if entry is False:
            return None
        if entry is None:  # a blank line
            continue
        item = _built(build, entry, line, offset)
        if item is not None:
            append(item)
    return items


_PLAY_HEADS: set[str] = set()


def _play_heads() -> set[str]:
    """The characters a line ``plays4`` reads may start with: a blank of the
    gap before it, a digit of its trick number or a seat's first character
    (from the grammar's pieces: a Latin-1 character that starts one of them)."""
    if not _PLAY_HEADS:
        _terminals()
        start = re.compile(rf"(?:{_PIECES['_GAP']})(?:{_PIECES['_NUMBER']}|{_PIECES['_SEAT']})")
        _PLAY_HEADS.update(c for c in map(chr, range(256))
                           if any(start.match(c + d) for d in "0123456789:. \t"))
    return _PLAY_HEADS


#: the `_Build` method that builds a line read whole, by rule
_WHOLE_METHOD: dict[str, str] = {rule: "_whole_" + rule for rule in ["tags", *(rule for rule, _ in _SHAPES.values())]}


def _built(build: _Build, entry: _Lexed, line: int, offset: int) -> _Item | None:
    """The item of a line lexed by :func:`_lex_other` (not blank), None when
    the line is dropped (a bad value, reported)."""
    comment: str | None
    item: _Item
    if isinstance(entry, tuple) and isinstance(entry[1], re.Match):  # a tag or keyword line read whole
        rule, m, names = entry
        comment = m.group(len(names) + 2)
        start, end = m.span(1)
        span = _span_new(Span, (line, start + 1, line, end + 1))
        item = getattr(build, _WHOLE_METHOD[rule])(m, span)
        if item is None:  # a value to report: the rule method reads the tokens
            toks = [_tok(name, m.group(k), line - offset, m.start(k))
                    for k, name in enumerate(names, 2) if m.group(k) is not None]
            item = build.tags([build.tag(toks)]) if rule == "tags" else getattr(build, rule)(toks)
    else:  # a line read token by token
        assert isinstance(entry, tuple)
        token_rule, toks, comment_tok = entry
        if token_rule is None:  # a comment line
            assert comment_tok is not None
            item = _Item("comment", None, build._span(comment_tok), [])
            item.line_comment = comment_tok.value[1:].strip()
            return item
        if token_rule == "tags":
            item = build.tags([build.tag(tag) for tag in toks])
        else:
            made: Any = getattr(build, token_rule)(toks)
            if type(made) is list:  # `plays` gives a list for PLAY_LINES: here one line
                (made,) = made
            item = made
        comment = None if comment_tok is None else comment_tok.value
    if item.kind == "bad":  # dropped, with its comment
        return None
    if comment is not None:
        item.line_comment = comment[1:].strip()
    return item
