"""The typed SJN record model (pydantic), shared by the reader, the writer,
JSON in/out and the rules engine.

The nodes read for every line, :class:`SeatCards`, :class:`Play` and
:class:`Trick` (about 90 per hand), are plain slotted dataclasses
(:class:`LineNode`) rather than models, so the reader builds them cheaply;
:class:`Record`, :class:`Hand` and the rest are pydantic models, which
validate and serialize the line nodes inside them as they did their own.
Their schemas are built on first use (``defer_build``, see :class:`Node`).

Cards are the small ints of :mod:`primitives.cards`; seats are the letters
``N W S E``; levels are rank ints (2..14, 15 = Joker). Every node carries a
:class:`~primitives.diagnostics.Span` (all zeros for records built in code).

This module knows syntax-level structure only: nothing here checks rules.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from primitives.diagnostics import NO_SPAN, Span

Seat = Literal["N", "W", "S", "E", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]
#: play / deal order (counter-clockwise)
SEATS: tuple[str, ...] = ("N", "W", "S", "E")
#: the numbered seats of a table of 4–8 players (finding friends), in play order
NUMBERED_SEATS: tuple[str, ...] = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8")
#: every seat name, in the writer's order (compass seats first)
ALL_SEATS: tuple[str, ...] = SEATS + NUMBERED_SEATS
Cards = tuple[int, ...]


class Node(BaseModel):
    """Base: a span and the commentary attached after the element."""

    #: ``defer_build``: each model's schema (validator, serializer) is built at its
    #: first validation or dump — JSON in/out, the public API — not at import: the
    #: readers fill the models without it, so a lint never builds one (~20 ms of a start)
    model_config = ConfigDict(frozen=False, extra="forbid", defer_build=True)

    span: Span = NO_SPAN
    #: ``{ … }`` commentaries attached to this element, in order (text inside the braces)
    comments: list[str] = Field(default_factory=list)
    #: a ``;`` comment ending the element's line (text after the ``;``), kept by the writer
    line_comment: str | None = None


@dataclass(slots=True, kw_only=True)
class LineNode:
    """Base of the nodes read for every line on the hot path (:class:`SeatCards`,
    :class:`Play`, :class:`Trick`): the same three fields as :class:`Node`, in
    a plain slotted dataclass rather than a pydantic model.

    Building one costs a third of a (validation-free) pydantic model and
    freeing it less still; a record has about 90 of them per hand. Inside the
    pydantic models above them (:class:`Hand`) pydantic still validates them
    from JSON (unknown keys refused, as for :class:`Node`) and serializes
    them, field for field, in the same order. ``==`` compares the fields, as
    pydantic's does; use :func:`dataclasses.replace` where a model would use
    ``model_copy(update=…)``.
    """

    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")

    span: Span = NO_SPAN
    #: ``{ … }`` commentaries attached to this element, in order (text inside the braces)
    comments: list[str] = field(default_factory=list)
    #: a ``;`` comment ending the element's line (text after the ``;``), kept by the writer
    line_comment: str | None = None


class Note(Node):
    """Comments of a hand line whose value is a plain field (``dealer S ; …``).

    ``dealer``, ``first``, ``kitty``, ``declare none``, ``trump``, ``points``
    and ``redeal`` are stored as plain fields of :class:`Hand`; their
    ``{ … }`` and ``;`` comments live here, keyed by keyword in
    :attr:`Hand.line_notes`. ``span`` is the span of the line's element.
    """


class Tag(Node):
    name: str
    value: str


class Tagged:
    """Reading a record's tags: SJN's :class:`Record` and GJN's ``GoujiRecord``."""

    if TYPE_CHECKING:
        tags: list[Tag]

    def tag(self, name: str, default: str | None = None) -> str | None:
        for t in self.tags:
            if t.name == name:
                return t.value
        return default

    def tag_node(self, name: str) -> Tag | None:
        for t in self.tags:
            if t.name == name:
                return t
        return None

    @property
    def rule_overrides(self) -> dict[str, Tag]:
        """``[Rule.x "v"]`` tags by option name ``x``."""
        return {t.name[5:]: t for t in self.tags if t.name.startswith("Rule.")}


class Levels(Node):
    ns: int
    ew: int


class PlayerLevels(Node):
    """``levels P1 2 P2 5 P3 2 …``: each player's own level (finding friends)."""

    levels: dict[Seat, int]


class FriendCall(Node):
    """``friend 2nd HA`` (+ ``P3 @7``): the dealer's call of a friend by a card.

    ``ordinal``: the k-th copy played (None: not written); ``joined``: the seat
    written as having joined (the dealer's own seat: the dealer took the call,
    playing alone for it; ``"none"``: nobody joined), ``at`` the trick of the
    reveal; both None when not written (the engine derives them).
    """

    ordinal: int | None = None
    card: int
    joined: str | None = None
    at: int | None = None


@dataclass(slots=True, kw_only=True)
class SeatCards(LineNode):
    """``N: SAKQ10 H9 …``: a seat's dealt cards, in draw order when ``@k`` is used."""

    seat: Seat
    cards: Cards


class Declaration(Node):
    """``declare S H2 H2 @9``: every card the seat has shown after this act."""

    kind: Literal["declare"] = "declare"
    seat: Seat
    cards: Cards
    #: ``@k``: after the declarer's k-th drawn card (None: not given)
    at: int | None = None


class Bury(Node):
    """``bury S: SK H5 …``: the cards laid down as the kitty."""

    kind: Literal["bury"] = "bury"
    seat: Seat
    cards: Cards


Event = Annotated[Declaration | Bury, Field(discriminator="kind")]


@dataclass(slots=True, kw_only=True)
class Play(LineNode):
    """``S: CAKK -> CKK``: ``attempted`` is set for a failed throw."""

    seat: Seat
    cards: Cards
    attempted: Cards | None = None


@dataclass(slots=True, kw_only=True)
class Trick(LineNode):
    number: int | None = None
    plays: list[Play] = field(default_factory=list)


class Hand(Node):
    number: int | None = None
    levels: Levels | PlayerLevels | None = None
    #: a seat, ``"?"`` (declaring decides), or None when not written
    dealer: Literal["N", "W", "S", "E", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "?"] | None = None
    dealer_span: Span = NO_SPAN
    first: Seat | None = None
    first_span: Span = NO_SPAN
    deal: list[SeatCards] = Field(default_factory=list)
    kitty: Cards | None = None
    kitty_span: Span = NO_SPAN
    #: ``declare``/``bury`` lines in written order (order matters for 反主抄底)
    events: list[Event] = Field(default_factory=list)
    #: ``declare none`` was written (span of that line), else None
    declare_none: Span | None = None
    #: ``S H D C`` as 0..3, 4 for ``NT``; None when not written
    trump: int | None = None
    trump_span: Span = NO_SPAN
    tricks: list[Trick] = Field(default_factory=list)
    points: int | None = None
    points_span: Span = NO_SPAN
    #: ``redeal`` was written (its span), else None
    redeal: Span | None = None
    #: ``friend`` lines (finding friends), in written order; left out of JSON when empty
    friends: list[FriendCall] = Field(default_factory=list, exclude_if=lambda v: not v)
    #: comments on the one-value lines, keyed by keyword (``"dealer"``,
    #: ``"first"``, ``"kitty"``, ``"declare none"``, ``"trump"``, ``"points"``,
    #: ``"redeal"``); only lines that carry a comment have an entry
    line_notes: dict[str, Note] = Field(default_factory=dict)

    @property
    def declarations(self) -> list[Declaration]:
        return [e for e in self.events if isinstance(e, Declaration)]

    @property
    def buries(self) -> list[Bury]:
        return [e for e in self.events if isinstance(e, Bury)]

    def seat_cards(self, seat: str) -> SeatCards | None:
        for sc in self.deal:
            if sc.seat == seat:
                return sc
        return None


class Record(Node, Tagged):
    """One match: tags, then hands.

    In SJN, ``line_comment`` holds the ``;`` comment lines written before the
    record's first element (one line each, joined by newlines); ``comments``
    has no SJN form (use ``header_comments``).
    """

    tags: list[Tag] = Field(default_factory=list)
    hands: list[Hand] = Field(default_factory=list)
    #: commentary before the first hand that follows the tags
    header_comments: list[str] = Field(default_factory=list)


    @property
    def rules_name(self) -> str:
        return self.tag("Rules") or "standard"


# -- helpers for comparing records regardless of where they were read ---------

_N = TypeVar("_N", bound="BaseModel | LineNode")


def strip_spans(node: _N) -> _N:
    """A deep copy of ``node`` with every :class:`Span` set to ``NO_SPAN``.

    Optional spans that mark a flag (``declare_none``, ``redeal``) stay set
    (as ``NO_SPAN``) or ``None``, so the content is unchanged.
    """
    if isinstance(node, LineNode):
        fields: dict[str, Any] = {name: _strip(getattr(node, name)) for name in line_fields(type(node))}
        return type(node)(**fields)
    return node.model_copy(update={name: _strip(value)
                                   for name, value in node.__dict__.items()})


def line_fields(cls: type[LineNode]) -> tuple[str, ...]:
    """The field names of a :class:`LineNode` class, in order."""
    names = _LINE_FIELDS.get(cls)
    if names is None:
        names = _LINE_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_LINE_FIELDS: dict[type[LineNode], tuple[str, ...]] = {}


def _strip(value: Any) -> object:
    if isinstance(value, Span):
        return NO_SPAN
    if isinstance(value, (BaseModel, LineNode)):
        return strip_spans(value)
    if isinstance(value, list):
        return [_strip(v) for v in value]
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items()}
    return value


def content_equal(a: BaseModel | LineNode, b: BaseModel | LineNode) -> bool:
    """True when ``a`` and ``b`` hold the same content, ignoring spans."""
    return strip_spans(a) == strip_spans(b)
