"""What every importer shares: the seat mapping, claims, diagnostics, record building."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from notation.model import Record, Tag
from primitives.diagnostics import Diagnostic, Span

#: source seat 0, 1, 2, 3 → SJN seat. Every source plays seat → seat+1, which is
#: S → E → N → W, SJN's counter-clockwise N → W → S → E cycle; partners 0+2 and
#: 1+3 become N+S and E+W.
CompassSeat = Literal["N", "W", "S", "E"]
SOURCE_SEATS: tuple[CompassSeat, ...] = ("S", "E", "N", "W")
#: SJN seat → source seat
SOURCE_INDEX: dict[str, int] = {s: i for i, s in enumerate(SOURCE_SEATS)}
#: SJN's tag names for the player of each seat, in SJN play order
SEAT_TAGS: tuple[tuple[str, str], ...] = (("N", "North"), ("W", "West"), ("S", "South"), ("E", "East"))


def seat_of(index: Any) -> CompassSeat | None:
    """SJN seat of a source seat number (0..3), None when it is not one."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 3:
        return None
    return SOURCE_SEATS[index]


@dataclass(frozen=True)
class Claim:
    """Something a log states that the rules can check (SJ704 when they disagree).

    ``line``/``column`` are in the source log. ``kind`` is ``"trick"`` (the
    winner and the card points of trick ``trick``), ``"running"`` (the
    attackers' running total after trick ``trick``, as Botzone reports it),
    ``"total"`` (the attackers' total for the hand, kitty included) or
    ``"dealer"`` (``winner`` is the seat the log makes dealer where the
    declarations decide it: the record says ``dealer ?``), ``"kitty"`` (the
    kitty bonus: ``kitty_points`` × ``multiplier`` = ``points``) or
    ``"outcome"`` (the level change after the hand, see the fields below).
    """

    line: int
    trick: int | None
    winner: str | None
    points: int | None
    column: int = 1
    hand: int = 1
    record: int = 0
    kind: str = "trick"
    #: the winner as the log names it (a player name or a source seat)
    name: str | None = None
    #: kitty points × multiplier the log states separately for the last trick (shengji.io)
    kitty_points: int | None = None
    #: ``"kitty"``: the multiplier the log states (``points`` is the bonus, ``kitty_points`` the
    #: buried points)
    multiplier: int | None = None
    #: ``"outcome"`` (the hand's level change): the dealers rise (False: the attackers take the
    #: deal), ``points`` levels, to ``level`` (the rising team's new level), ``winner`` deals
    #: next, ``over``: the match ends
    dealers_rise: bool | None = None
    level: int | None = None
    over: bool | None = None


@dataclass
class ImportResult:
    """Records, diagnostics (positions in the source log) and the claims to check."""

    records: list[Record] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)


class Sink:
    """Collects diagnostics; never raises."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def add(self, code: str, span: Span | tuple[int, int] | None, message: str, *,
            severity: str = "", hand: int | None = None, trick: int | None = None) -> None:
        if span is not None and not isinstance(span, Span):
            line, col = span
            span = Span(line, col, line, col + 1)
        self.items.append(Diagnostic.at(code, span, message, severity=severity, hand=hand, trick=trick))


class LogImporter:
    """Base of the importers: the log's text and name, the diagnostics found
    (``sink``) and the log's own claims to check against the replay."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.sink = Sink()
        self.claims: list[Claim] = []


def span_at(line: int, col: int = 1, end_col: int | None = None) -> Span:
    return Span(line, col, line, end_col if end_col is not None else col + 1)


def tags_for(*, event: str, site: str, rules: str, players: dict[str, str] | None = None,
             date: float | str | None = None, source: str = "",
             extra: Iterable[tuple[str, str]] = ()) -> list[Tag]:
    """The tag section of an imported record."""
    out = [Tag(name="Event", value=_clean(event)), Tag(name="Site", value=_clean(site))]
    if isinstance(date, (int, float)) and not isinstance(date, bool):
        try:
            out.append(Tag(name="Date", value=time.strftime("%Y.%m.%d", time.gmtime(date))))
        except (OverflowError, OSError, ValueError):
            pass
    elif isinstance(date, str) and date:
        out.append(Tag(name="Date", value=_clean(date)))
    out.append(Tag(name="Rules", value=rules))
    for name, value in extra:
        out.append(Tag(name=name, value=_clean(value)))
    for seat, tag in SEAT_TAGS:
        if players and players.get(seat):
            out.append(Tag(name=tag, value=_clean(players[seat])))
    if source:
        out.append(Tag(name="Source", value=_clean(source)))
    return out


def _clean(text: Any) -> str:
    """A tag value: one line, no characters a tag cannot hold."""
    s = str(text)
    s = "".join(ch if ch.isprintable() else " " for ch in s)
    return s.replace("\\", "/").replace('"', "'").strip()[:200]


def comment_text(text: str) -> str:
    """Text for a ``{ … }`` commentary: no braces, one line."""
    s = str(text).replace("{", "(").replace("}", ")")
    return " ".join(s.split())


# -- @k from a known deal -------------------------------------------------------------

def earliest_at(draws: Sequence[int], cards: Sequence[int], offset: int, not_before: int
                ) -> tuple[int | None, int]:
    """The smallest ``k`` at which ``cards`` are among the seat's first ``k`` draws
    and the seat's ``k``-th draw comes no earlier than draw index ``not_before``.

    ``draws``: the seat's cards in draw order; ``offset``: the seat's place after the
    first drawer (0..3). Returns ``(k, draw index)``, or ``(None, not_before)`` when
    the seat never held the cards.
    """
    need = Counter(cards)
    have: Counter[int] = Counter()
    for k, c in enumerate(draws, 1):
        have[c] += 1
        t = (k - 1) * 4 + offset
        if t >= not_before and not need - have:
            return k, t
    return None, not_before
