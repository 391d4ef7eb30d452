"""What the SJN reader's parts share: keywords and their usage, the
line item, spans, tags and small value readers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Protocol

from primitives.cards import suit_from_char
from primitives.diagnostics import Span

from .._tags import tag_problem as tag_problem
from .._tags import unescape_tag_value as unescape_tag_value
from ..model import NUMBERED_SEATS, SeatCards, Trick

GRAMMAR_PATH = Path(__file__).parent.parent / "sjn.lark"

KEYWORDS = ("hand", "levels", "dealer", "first", "kitty", "declare", "trump",
            "bury", "points", "redeal", "friend")
SEATS = frozenset(("N", "W", "S", "E") + NUMBERED_SEATS)
_TRUMPS = {"NT": 4}

#: how each keyword is written (completes error messages)
USAGE = {
    "hand": "`hand` takes an optional number, like `hand 3`",
    "levels": "`levels` gives both teams' levels, like `levels NS 2 EW 2` "
              "(a level is 2 to 10, J, Q, K, A or Joker)",
    "player levels": "`levels` gives each player's level, like `levels P1 2 P2 5 P3 2 P4 2 P5 3` "
                     "(a level is 2 to 10, J, Q, K, A or Joker)",
    "dealer": "`dealer` takes a seat (N, W, S, E) or `?`, like `dealer S`",
    "first": "`first` takes a seat (N, W, S, E), like `first S`",
    "kitty": "`kitty` takes the kitty's cards, like `kitty C3 C4 D7`",
    "declare": "`declare` takes a seat, the cards shown and an optional `@k`, "
               "like `declare S H2 @7`, or is written `declare none`",
    "trump": "`trump` takes S, H, D, C (or ♠ ♥ ♦ ♣) or NT, like `trump H`",
    "bury": "`bury` takes a seat with a colon and the buried cards, like `bury S: SK H5`",
    "points": "`points` takes a whole number, like `points 85`",
    "redeal": "`redeal` stands alone on its line",
    "friend": "`friend` takes an optional ordinal, a card, and optionally the seat that joined "
              "(or `none`) with the trick `@k`, like `friend 2nd HA` or `friend 2nd HA P3 @7`",
}


#: Span(...) without NamedTuple's Python-level __new__
_span_new = tuple.__new__

# -- lexical helpers -------------------------------------------------------------

_TAG_RE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_.\-]*)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]\Z')
_DIGITS = frozenset("0123456789")
_WORD_RE = re.compile(r"\S+")
_ORDINAL_RE = re.compile(r"([0-9]+)(?:st|nd|rd|th)?\Z")


def _number(text: str) -> int | None:
    """A whole number written with ASCII digits, else None."""
    return int(text) if text.isdigit() and text.isascii() else None


def _signed_number(text: str) -> int | None:
    """:func:`_number`, with an optional ``-`` in front."""
    digits = text[1:] if text[:1] == "-" else text
    return int(text) if digits.isdigit() and digits.isascii() else None


def _trump_value(text: str) -> int | None:
    """``S H D C`` (or a suit symbol) as 0..3, ``NT`` as 4, else None."""
    trump = _TRUMPS.get(text.upper())
    if trump is None and len(text) == 1:
        try:
            trump = suit_from_char(text)
        except ValueError:
            pass
    return trump


def _commentary_text(token_value: str) -> str:
    return token_value[1:-1].strip()


class TokenLike(Protocol):
    """What the builder reads of a token: a Lark ``Token`` or the shortcut's ``_Tok``."""

    @property
    def type(self) -> str: ...
    @property
    def value(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_column(self) -> int: ...


# -- items: one per logical line ---------------------------------------------------

class _Item:
    """One parsed line: ``kind``, its ``value`` (a node or a plain value), its
    span, commentaries, ``;`` comment, and ``tail``: the list a commentary
    written right after the line's last element goes to."""

    __slots__ = ("kind", "value", "span", "comments", "line_comment", "tail")

    def __init__(self, kind: str, value: Any, span: Span, comments: list[str], tail: list[str] | None = None):
        self.kind = kind
        self.value = value
        self.span = span
        self.comments = comments
        self.line_comment: str | None = None
        self.tail = comments if tail is None else tail


#: what reading a chunk gives, line by line: an item, or (for a seat or trick
#: line read by the shortcut) the node itself
Entry = _Item | Trick | SeatCards
