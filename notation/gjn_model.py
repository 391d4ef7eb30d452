"""The typed GJN (Gouji notation) record model (pydantic), shared by the GJN
reader, the writer, JSON in/out and the Gouji rules engine.

Mirrors the SJN model of :mod:`notation.model`: every node is a
:class:`~notation.model.Node` (a :class:`~primitives.diagnostics.Span`, ``{ … }``
commentaries and a ``;`` line comment attached to the element they follow);
tags are :class:`~notation.model.Tag`. Cards are the ints of
:mod:`primitives.gjcards` (``rank << 3 | suit``, suit-free unless written); seats
are ``"P1"``…``"P6"``.

The shape follows GOUJI.md §10. A record is tags, then games; a game is::

    game n                      Game.number
    point X pre                 Game.pre_points   (Point, pre=True)
    position P1 P4              Game.position     (Position)
    X: cards                    Game.deal         (SeatCards)
    show / dian / tribute / return / buy / revolt / redeal / remove / point / lead
                                Game.preplay      (one node type each, written order)
    n. X: cards [burn] [fail] [=k] / n. X: pass / n. X: let
                                Game.actions      (Action)
    result X X X X X X          Game.result       (Result)
    score odd a even b          Game.score        (Score)

This module knows syntax-level structure only: nothing here checks rules
(a `result` of five seats, a `buy` of three cards, a `lead` after the first
action are all representable; the engine reports them).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from primitives.diagnostics import NO_SPAN, Span

from .model import Node, Tag, Tagged, content_equal, strip_spans

__all__ = [
    "Seat", "SEATS", "Cards", "Node", "Tag", "PrePlayLine", "SeatCards", "Position", "Show", "Dian", "Tribute",
    "Return", "Buy", "Revolt", "Redeal", "Remove", "Point", "Lead", "PrePlay", "Action", "Result",
    "Score", "Game", "GoujiRecord", "content_equal", "strip_spans", "PREPLAY_KINDS",
]

Seat = Literal["P1", "P2", "P3", "P4", "P5", "P6"]
#: play order (counter-clockwise): P1 → P2 → … → P6 → P1
SEATS: tuple[str, ...] = ("P1", "P2", "P3", "P4", "P5", "P6")
#: cards as :mod:`primitives.gjcards` ints, in written order
Cards = tuple[int, ...]


class SeatCards(Node):
    """``P3: BJ LJ 2222 AAA``: a seat's dealt cards (or, in a position game,
    its holding when the position starts)."""

    seat: Seat
    cards: Cards


class Position(Node):
    """``position P1 P4``: the game starts in mid-play; ``finished`` are the
    seats already out, in place order (may be empty)."""

    finished: tuple[Seat, ...] = ()


# -- pre-play lines (GOUJI.md §2, §7, §10 item 4), each its own node ---------

class PrePlayLine(Node):
    """Base of the pre-play lines.

    ``after_actions`` is how many of the game's actions were written before
    the line: 0 where §10 puts it (before the first action); more for a
    misplaced line (GJ212), which the writer puts back at the same place.
    """

    after_actions: int = 0


class Show(PrePlayLine):
    """``show X cards``: 亮3 / 顶班."""

    kind: Literal["show"] = "show"
    seat: Seat
    cards: Cards


class Dian(PrePlayLine):
    """``dian X Y: cards``: 点贡, ``payer`` gives ``receiver`` the cards."""

    kind: Literal["dian"] = "dian"
    payer: Seat
    receiver: Seat
    cards: Cards


class Tribute(PrePlayLine):
    """``tribute X Y: cards``: 落贡, ``payer`` (大落 / 二落) gives ``receiver``."""

    kind: Literal["tribute"] = "tribute"
    payer: Seat
    receiver: Seat
    cards: Cards


class Return(PrePlayLine):
    """``return X Y: cards``: 还贡, ``payer`` (the receiver of the tribute)
    gives ``receiver`` (its payer) the cards."""

    kind: Literal["return"] = "return"
    payer: Seat
    receiver: Seat
    cards: Cards


class Buy(PrePlayLine):
    """``buy X Y: card``: 买3, ``buyer`` gives ``seller`` the card(s) written
    (one 2 or joker when correct) and takes a 3 (suit unrecorded)."""

    kind: Literal["buy"] = "buy"
    buyer: Seat
    seller: Seat
    cards: Cards


class Revolt(PrePlayLine):
    """``revolt X``: 革命."""

    kind: Literal["revolt"] = "revolt"
    seat: Seat


class Redeal(PrePlayLine):
    """``redeal``: the deal is void (two or more revolts); the game's last line."""

    kind: Literal["redeal"] = "redeal"


class Remove(PrePlayLine):
    """``remove 3 4``: 会3 / 会4; ``ranks`` as written (3 and/or 4)."""

    kind: Literal["remove"] = "remove"
    ranks: tuple[int, ...]


class Point(PrePlayLine):
    """``point X`` (明点, a pre-play line) or ``point X pre`` (预点). A
    ``point X pre`` written before the deal lines is kept in
    :attr:`Game.pre_points`; one written later is a pre-play line with
    ``pre=True``."""

    kind: Literal["point"] = "point"
    seat: Seat
    pre: bool = False


class Lead(PrePlayLine):
    """``lead X``: the first leader, when written."""

    kind: Literal["lead"] = "lead"
    seat: Seat


PrePlay = Annotated[Show | Dian | Tribute | Return | Buy | Revolt | Redeal | Remove | Point | Lead,
                    Field(discriminator="kind")]
#: the keyword of each pre-play line, in the order §10 lists them
PREPLAY_KINDS: tuple[str, ...] = ("show", "dian", "tribute", "return", "buy", "revolt", "redeal",
                                  "remove", "point", "lead")


# -- play --------------------------------------------------------------------

class Action(Node):
    """``n. X: cards [burn] [fail] [=k]``, ``n. X: pass`` or ``n. X: let``.

    ``number`` is the ``n.`` as written (None when not written; the first
    action of a game always has one, or its line would be a deal line).
    ``cards`` is empty for ``pass`` / ``let``. The marks are as written:
    ``burn``, ``fail`` (the set is discarded) and ``finish`` = ``k`` of
    ``=k``; the engine checks them. ``cards_span`` / ``marks_span`` locate the
    cards and the marks within the line (``NO_SPAN`` when absent).
    """

    number: int | None = None
    seat: Seat
    kind: Literal["play", "pass", "let"] = "play"
    cards: Cards = ()
    burn: bool = False
    fail: bool = False
    finish: int | None = None
    cards_span: Span = NO_SPAN
    marks_span: Span = NO_SPAN


class Result(Node):
    """``result P3 P5 P1 P2 P6 P4``: seats in place order 1..6 (as written;
    the engine checks there are six distinct seats)."""

    seats: tuple[Seat, ...]


class Score(Node):
    """``score odd 12 even 0``."""

    odd: int
    even: int


class Game(Node):
    number: int | None = None
    #: ``point X pre`` lines (预点), written before the deal lines
    pre_points: list[Point] = Field(default_factory=list)
    position: Position | None = None
    deal: list[SeatCards] = Field(default_factory=list)
    #: pre-play lines in written order
    preplay: list[PrePlay] = Field(default_factory=list)
    actions: list[Action] = Field(default_factory=list)
    result: Result | None = None
    score: Score | None = None

    def seat_cards(self, seat: str) -> SeatCards | None:
        for sc in self.deal:
            if sc.seat == seat:
                return sc
        return None

    def lines(self, kind: str) -> list[PrePlay]:
        """The pre-play lines of one keyword (``"tribute"``, ``"lead"`` …)."""
        return [p for p in self.preplay if p.kind == kind]

    @property
    def lead(self) -> Lead | None:
        for p in self.preplay:
            if isinstance(p, Lead):
                return p
        return None

    @property
    def redeal(self) -> Redeal | None:
        for p in self.preplay:
            if isinstance(p, Redeal):
                return p
        return None

    @property
    def is_scoresheet(self) -> bool:
        """Only ``result`` (and maybe ``score``): taken as given (GOUJI.md §10)."""
        return (self.result is not None and self.position is None and not self.deal
                and not self.preplay and not self.actions and not self.pre_points)


class GoujiRecord(Node, Tagged):
    """One Gouji match: tags, then games.

    ``line_comment`` holds the ``;`` comment lines written before the first
    element (as in SJN); ``header_comments`` the commentary after the tags,
    before the first game.
    """

    game_type: Literal["gouji"] = "gouji"
    tags: list[Tag] = Field(default_factory=list)
    games: list[Game] = Field(default_factory=list)
    header_comments: list[str] = Field(default_factory=list)

    @property
    def rules_name(self) -> str:
        """The ``[Rules]`` preset, ``"gouji"`` when not written."""
        return self.tag("Rules") or "gouji"

    @property
    def players(self) -> dict[str, str]:
        """``[P1 "name"]`` … by seat."""
        return {t.name: t.value for t in self.tags if t.name in SEATS}
