"""The terminal's consoles (:func:`make_console`: plain when the output has no
colour, so it can be compared with golden files) and cards with coloured suits."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from replay.order import Order

from rich.console import Console
from rich.table import Table
from rich.text import Text

from analyzer.io.safetext import InertConsole
from primitives.cards import JOKER_SUIT, format_cards, parse_cards, suit_of
from replay.order import NT

SEAT_NAMES = {"N": "North", "W": "West", "S": "South", "E": "East"}
TAG_OF_SEAT = {"N": "North", "W": "West", "S": "South", "E": "East"}
#: default console width when the output is not a terminal (stable golden files)
DEFAULT_WIDTH = 100

SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold", JOKER_SUIT: "bold magenta"}
BIG_JOKER_STYLE = "bold red"
WIN_MARK = "*"
#: between the effective suits of a hand (trumps first)
SUIT_GAP = " │ "


#: the blanks (and colour codes among them) that end a line
_LINE_END_BLANKS = re.compile(r"(?:[ \t]|\x1b\[[0-9;]*m)+(?=\n)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class _Trimmed:
    """A text stream that drops the spaces Rich pads a line's end with (tables
    fill their width): no output line ends in blanks. Colour codes stay."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(_LINE_END_BLANKS.sub(lambda m: "".join(_ANSI.findall(m.group())), text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Console(InertConsole):
    """The CLI's console: every table printed is first fitted to the width
    (:func:`fit`), so Rich does not cut a card or a header where the columns'
    longest words fit."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        for o in objects:
            if isinstance(o, Table):
                fit(self, o)
        super().print(*objects, **kwargs)


def make_console(*, stderr: bool = False, width: int | None = None, color: bool | None = None,
                 file: IO[str] | None = None) -> Console:
    """A console for the CLI: colour only on a terminal (and never under ``NO_COLOR``),
    a fixed width when not a terminal (``COLUMNS`` wins)."""
    stream = file if file is not None else (sys.stderr if stderr else sys.stdout)
    is_tty = hasattr(stream, "isatty") and stream.isatty()
    if width is None and not is_tty:
        try:
            width = int(os.environ.get("COLUMNS", "")) or DEFAULT_WIDTH
        except ValueError:
            width = DEFAULT_WIDTH
    no_color = bool(os.environ.get("NO_COLOR")) or (color is False)
    return _Console(file=cast("IO[str]", _Trimmed(stream)), width=width, force_terminal=True if color else None,
                   no_color=no_color, highlight=False, emoji=False, soft_wrap=False,
                   color_system="auto" if not no_color and (is_tty or color) else None)


# -- cards --------------------------------------------------------------------------------

def trump_text(trump: int | None) -> str:
    if trump is None:
        return "?"
    return "NT" if trump == NT else "♠♥♦♣"[trump]


def cards_text(cards: Sequence[int] | str, *, style: bool = True) -> Text:
    """Cards as a Rich Text, grouped by suit (``♠AKK ♥10 9``), ♥♦ red."""
    if isinstance(cards, str):
        cards = parse_cards(cards)
    out = Text()
    groups = _groups(cards)
    for i, (suit, group) in enumerate(groups):
        if i:
            out.append(" ")
        text = format_cards(group, unicode=True)
        if not style:
            out.append(text)
        elif suit == JOKER_SUIT:
            for k, c in enumerate(group):
                if k:
                    out.append(" ")
                out.append(format_cards([c]), style=BIG_JOKER_STYLE if c == 53 else "bold")
        else:
            out.append(text, style=SUIT_STYLE.get(suit, ""))
    return out


def _groups(cards: Sequence[int]) -> list[tuple[int, list[int]]]:
    groups: list[tuple[int, list[int]]] = []
    for c in cards:
        s = suit_of(c)
        if groups and groups[-1][0] == s:
            groups[-1][1].append(c)
        else:
            groups.append((s, [c]))
    return groups


def hand_text(cards: Sequence[int], order: Order | None) -> Text:
    """A hand as a player holds it: trumps first (high to low), then each suit,
    effective suits separated by a wide gap."""
    if order is None:
        return cards_text(sorted(cards))
    cards = order.sorted(cards)
    by_eff: list[tuple[int, list[int]]] = []
    for c in cards:
        e = order.eff[c]
        if by_eff and by_eff[-1][0] == e:
            by_eff[-1][1].append(c)
        else:
            by_eff.append((e, [c]))
    out = Text()
    for i, (_e, group) in enumerate(by_eff):
        if i:
            out.append(SUIT_GAP, style="dim")
        out.append_text(cards_text(group))
    return out


def fit(console: Console, table: Table) -> bool:
    """Fit ``table`` to the console's width without cutting a word (a card group,
    a header): False when even each column at its longest word is too wide.
    Rich would narrow the widest columns evenly and then cut words in every
    column; here a table too wide gets each column its longest word plus a
    share of the room left, in proportion to what its longest line needs more."""
    unbounded = console.options.update_width(1 << 16)  # measures not clamped to the width
    ranges = [table._measure_column(console, unbounded, column) for column in table.columns]
    extra = table._extra_width
    room = console.width - extra
    least = sum(r.minimum for r in ranges)
    most = sum(r.maximum for r in ranges)
    if least > room:
        return False
    if most <= room:
        return True
    spare = room - least
    wants = [r.maximum - r.minimum for r in ranges]
    total = sum(wants)
    given = [r.minimum + (spare * w // total if total else 0) for r, w in zip(ranges, wants, strict=True)]
    for column, width in zip(table.columns, given, strict=True):
        column.width = max(1, width - table._get_padding_width(column._index))
    return True
