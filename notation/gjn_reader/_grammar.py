"""The grammar path: Lark's parse tree of one logical line to line items, and
explaining a syntax error."""

from __future__ import annotations

import difflib
import re
import threading
from typing import TYPE_CHECKING, Any

from primitives.diagnostics import Diagnostic, Span

from .._records import (
    DiagnosticAt,
    error_place,
)
from .._tags import tag_problem, unescape_tag_value
from ..gjn_model import (
    Position,
    Result,
    Score,
    Tag,
)
from ._common import GRAMMAR_PATH, KEYWORDS, USAGE, Word, _build_play, _commentary_text, _Item, _line_item, _LineError

if TYPE_CHECKING:
    from lark import Lark, Token, Tree

# Lark is imported (and its parser built) only when a line needs the grammar: the
# quick path reads ordinary lines without it (start-up: ``import lark`` is ~20 ms)

# -- the grammar path ------------------------------------------------------------------

_LOCK = threading.Lock()
_PARSER: Lark | None = None


def _parser() -> Lark:
    global _PARSER
    if _PARSER is None:
        from lark import Lark
        _PARSER = Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                       propagate_positions=False, maybe_placeholders=False)
    return _PARSER


# Lark types a token's positions as optional; this parser always sets them,
# so the helpers below take the tokens as they come (Any).

def _w(tok: Any, offset: int) -> Word:
    return (str(tok), tok.line + offset, tok.column)


def _tok_span(first: Any, last: Any, offset: int) -> Span:
    return Span(first.line + offset, first.column, last.end_line + offset, last.end_column)


def _items_of_tree(tree: Tree[Any], offset: int, diags: list[Diagnostic]) -> list[_Item]:
    """Items of a parsed logical line (``start`` tree)."""
    from lark import Token
    out: list[_Item] = []
    prev: _Item | None = None
    child: Any
    for child in tree.children:
        if isinstance(child, Token):
            tok: Any = child
            if tok.type == "LINE_COMMENT":
                text = tok[1:].strip()
                if prev is not None and prev.span.line == tok.line + offset:
                    if prev.kind != "bad":
                        prev.line_comment = text
                else:
                    item = _Item("comment", None, Span(tok.line + offset, tok.column,
                                                       tok.line + offset, tok.end_column))
                    item.line_comment = text
                    out.append(item)
                prev = None
            continue
        try:
            item = _element(child, offset)
        except _LineError as err:
            diags.append(err.diag)
            first: Any = _first_token(child)
            line = first.line + offset if first is not None else 0
            item = _Item("bad", None, Span(line, first.column if first is not None else 0, line,
                                           first.column if first is not None else 0))
        if item.kind != "bad":
            out.append(item)
        prev = item
    return out


def _first_token(tree: Tree[Any]) -> Token | None:
    from lark import Token
    for t in tree.scan_values(lambda v: isinstance(v, Token)):
        return t  # type: ignore[no-any-return]  # a Token, as the filter says
    return None


def _element(tree: Tree[Any], offset: int) -> _Item:
    kind = tree.data
    from lark import Token
    toks: list[Any] = [c for c in tree.children if isinstance(c, Token)]
    comments = [_commentary_text(t) for t in toks if t.type == "COMMENTARY"]
    body = [t for t in toks if t.type != "COMMENTARY"]
    if kind == "notes":
        first, last = toks[0], toks[-1]
        return _Item("notes", comments, _tok_span(first, last, offset))
    if kind == "tags":
        tags = []
        sub: Any
        for sub in tree.children:
            tag_tok = sub.children[0]
            span = _tok_span(tag_tok, tag_tok, offset)
            m = _TAG_RE.match(str(tag_tok))
            if m is None:
                raise _LineError("SJ105", span, tag_problem(str(tag_tok)))
            tags.append(Tag(span=span, name=m.group(1), value=unescape_tag_value(m.group(2)),
                            comments=[_commentary_text(t) for t in sub.children[1:]]))
        head: Any = tree.children[0]
        tail: Any = tree.children[-1]
        first = head.children[0]
        last_tag = tail.children[-1]
        return _Item("tags", tags, _tok_span(first, last_tag, offset))
    span = _tok_span(body[0], body[-1], offset)
    if kind == "play":
        i = 0
        actno = None
        if body[0].type == "ACTNO":
            actno = _w(body[0], offset)
            i = 1
        seat_w = _w(body[i], offset)
        rest_toks = body[i + 1:]
        rest: tuple[str, Word] | list[Word]
        marks: list[Word]
        if rest_toks and rest_toks[0].type in ("PASS", "LET"):
            rest = (rest_toks[0].type.lower(), _w(rest_toks[0], offset))
            marks = []
        else:
            rest = [_w(t, offset) for t in rest_toks if t.type == "GROUP"]
            marks = [_w(t, offset) for t in rest_toks if t.type in ("BURN", "FAIL", "FINISH")]
        return _Item("play", _build_play(actno, seat_w, rest, marks), span, comments)
    words = [_w(t, offset) for t in body[1:]]
    item = _line_item(str(kind), words, span)
    item.comments = comments
    if isinstance(item.value, (Position, Result, Score)) or item.kind == "preplay" or item.kind == "point":
        item.value.comments = comments
    return item


_TAG_RE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_.\-]*)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]\Z')


# -- explaining syntax errors ---------------------------------------------------------------



def explain(text: str, exc: Exception, offset: int) -> Diagnostic:
    """A diagnostic for a Lark error in ``text`` (one logical line + "\\n")."""
    line, col, line_text, rest, word, span, head = error_place(text, exc, offset)
    before = line_text[:col].strip()
    keyword = head if head in KEYWORDS else None

    def diag(code: str, message: str, s: Span = span) -> Diagnostic:
        return Diagnostic.at(code, s, message)

    if rest.startswith("["):
        return diag("SJ105", tag_problem(rest.rstrip()), Span(line, col + 1, line, col + 1 + len(rest.rstrip())))
    if rest.startswith("}"):
        return diag("SJ101", "`}` closes no commentary: its `{` is missing")
    if not word or word.startswith(";"):
        if keyword:
            return diag("SJ101", f"the `{keyword}` line ends too early: {USAGE[keyword]}")
        if before.endswith(":"):
            return diag("SJ101", f"expected cards, `pass` or `let` after `{before}`")
        return diag("SJ101", f"the line ends too early after `{before}`")
    if not before:
        return _explain_start(word, line, col, diag)
    if keyword:
        return diag("SJ101", f"unexpected `{word}` after `{before}`: {USAGE[keyword]}")
    last = before.split()[-1]
    if last in ("pass", "let"):
        return diag("SJ101", f"nothing but a comment may follow `{last}`")
    if last in ("burn", "fail") or last.startswith("="):
        return diag("SJ101", f"unexpected `{word}` after the marks: the cards come first, then "
                             f"the marks `burn`, `fail`, `=k`, like `3. P2: KKK burn`")
    if re.fullmatch(r"[0-9]+\.", before):
        if re.match(r"P[1-6](?=\s|$)", word):
            return diag("SJ101", f"a seat that introduces an action is followed by a colon: "
                                 f"`{before} {word}: …`")
        return diag("SJ101", f"expected a seat like `P1:` after `{before}`, found `{word}`")
    return diag("SJ101", f"unexpected `{word}` after `{before}`")


def _explain_start(word: str, line: int, col: int, diag: DiagnosticAt) -> Diagnostic:
    wspan = Span(line, col + 1, line, col + 1 + len(word))
    if re.fullmatch(r"[^\s.]+\.", word):
        return diag("SJ106", f"`{word}` is not an action number: write the number and a dot, like `3.`",
                    wspan)
    if re.fullmatch(r"[Pp][1-6]", word):
        return diag("SJ101", f"a seat that introduces cards is followed by a colon: `{word.upper()}: …`",
                    wspan)
    name = re.match(r"[^\W\d_][\w.]*", word)
    if name:
        w = name.group()
        s = Span(line, col + 1, line, col + 1 + len(w))
        if w.lower() in KEYWORDS:
            return diag("SJ104", f"keywords are written in lowercase: `{w.lower()}`", s)
        close = difflib.get_close_matches(w.lower(), KEYWORDS, n=1, cutoff=0.6)
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        return diag("SJ104", f"`{w}` is not a GJN keyword{hint}; a line starts with a keyword, a tag "
                             f"`[…]`, an action number like `1.` or a seat like `P1:`", s)
    return diag("SJ101", f"unexpected `{word}` at the start of a line; a line starts with a keyword, "
                         f"a tag `[…]`, an action number like `1.` or a seat like `P1:`", wspan)


def _parse_line(text: str, offset: int, diags: list[Diagnostic]) -> list[_Item]:
    """The items of one logical line, by the grammar; [] and a diagnostic when
    the line is not GJN."""
    from lark.exceptions import LarkError, UnexpectedInput
    try:
        tree = _parser().parse(text + "\n")
    except (LarkError, UnexpectedInput) as exc:
        diags.append(explain(text + "\n", exc, offset))
        return []
    return _items_of_tree(tree, offset, diags)
