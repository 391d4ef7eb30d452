"""Which Lark runs the grammar, and building its parser (only when a chunk needs it)."""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from ._build import _BUILD
from ._common import GRAMMAR_PATH

if TYPE_CHECKING:
    from lark import Lark

_LOCK = threading.Lock()


#: Lark's exception classes, set when the parser is built (a parse error can
#: only come from a parser that exists)
_LARK_ERRORS: tuple[type[Exception], ...] = ()


def _make_parser(cython: bool) -> tuple[Lark, str]:
    global _LARK_ERRORS
    from lark import Lark
    from lark.exceptions import LarkError, UnexpectedInput
    _LARK_ERRORS = (LarkError, UnexpectedInput)
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    if cython:
        try:
            import lark_cython  # type: ignore[import-not-found]  # an optional accelerator
            parser = Lark(grammar, parser="lalr", lexer="contextual", transformer=_BUILD,
                          maybe_placeholders=False, _plugins=lark_cython.plugins)
            return parser, "lark-cython"
        except Exception:
            pass
    parser = Lark(grammar, parser="lalr", lexer="contextual", transformer=_BUILD,
                  maybe_placeholders=False)
    return parser, "lark"


_PARSER: Lark | None = None
#: which Lark runs the grammar: "lark-cython" when importable (and not disabled
#: with SHENGJI_PLAIN_LARK=1), else "lark"; set at the first parse
BACKEND = ""


def _parser() -> Lark:
    global _PARSER, BACKEND
    if _PARSER is None:
        _PARSER, BACKEND = _make_parser(not os.environ.get("SHENGJI_PLAIN_LARK"))
    return _PARSER


def use_backend(name: str) -> str:
    """Switch to ``"lark"`` or ``"lark-cython"`` (for benchmarks and tests).

    Returns the backend actually in use (plain Lark when lark-cython is not
    installed).
    """
    global _PARSER, BACKEND
    with _LOCK:
        _PARSER, BACKEND = _make_parser(name == "lark-cython")
    return BACKEND


