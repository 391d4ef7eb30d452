"""Building the SJN record model's nodes without validation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from primitives.diagnostics import Span

from .._fill import fill, new_object, set_dict, set_extra, set_fields_set, set_private
from ..model import Bury, Cards, Declaration, Hand, Levels, Note, Play, Record, SeatCards, Tag, Trick

# -- fast model construction (see :mod:`notation._fill`) -------------------------------

_new_object = new_object
_set_dict = set_dict
_set_fields_set = set_fields_set
_set_extra = set_extra
_set_private = set_private

_M = TypeVar("_M", bound=BaseModel)


class _Builder(Generic[_M]):
    """``build(**fields)`` for ``model``: the given fields, defaults for the rest."""

    __slots__ = ("model", "template", "factories")

    def __init__(self, model: type[_M]) -> None:
        self.model = model
        self.template: dict[str, Any] = {}
        self.factories: list[tuple[str, Callable[[], Any]]] = []
        for name, field in model.model_fields.items():
            self.template[name] = None if field.is_required() or field.default_factory else field.default
            if field.default_factory is not None:
                self.factories.append((name, field.default_factory))  # type: ignore[arg-type]  # no-argument factories only

    def __call__(self, **kw: Any) -> _M:
        d = self.template.copy()
        d.update(kw)
        for name, factory in self.factories:
            if name not in kw:
                d[name] = factory()
        return fill(self.model, d, set(kw))


_Tag, _Levels, _Declaration, _Bury = _Builder(Tag), _Builder(Levels), _Builder(Declaration), _Builder(Bury)
_Hand, _Record, _Note = _Builder(Hand), _Builder(Record), _Builder(Note)


# The three objects built for every play line (about 90 a hand) are plain
# slotted dataclasses (:class:`notation.model.LineNode`), built here without
# their generated ``__init__``: a blank instance and its slots set one by one
# cost ~140 ns against ~360 ns for the keyword call (``_self_check`` compares
# them with the constructors' builds and falls back to those if a field is
# added).
_blank = object.__new__


def _new_play(seat: str, cards: Cards, attempted: Cards | None, span: Span) -> Play:
    p: Play = _blank(Play)
    p.span = span
    p.comments = []
    p.line_comment = None
    p.seat = seat  # type: ignore[assignment]  # seat: read by the seat regex
    p.cards = cards
    p.attempted = attempted
    return p


def _new_trick(number: int | None, plays: list[Play], span: Span, comments: list[str]) -> Trick:
    t: Trick = _blank(Trick)
    t.span = span
    t.comments = comments
    t.line_comment = None
    t.number = number
    t.plays = plays
    return t


def _new_seat_cards(seat: str, cards: Cards, span: Span, comments: list[str]) -> SeatCards:
    sc: SeatCards = _blank(SeatCards)
    sc.span = span
    sc.comments = comments
    sc.line_comment = None
    sc.seat = seat  # type: ignore[assignment]  # seat: read by the seat regex
    sc.cards = cards
    return sc


def _line_nodes_check() -> bool:
    """Do the blank-and-set builds above equal the constructors' (every field set)?"""
    span = Span(1, 2, 1, 5)
    try:
        return (_new_play("N", (1, 2), (3,), span) == Play(span=span, seat="N", cards=(1, 2), attempted=(3,))
                and _new_trick(3, [], span, ["c"]) == Trick(span=span, comments=["c"], number=3)
                and _new_seat_cards("S", (4,), span, []) == SeatCards(span=span, seat="S", cards=(4,)))
    except AttributeError:  # pragma: no cover - a field the builds above do not set
        return False


#: the line nodes are built blank-and-set (else by their constructors)
_DIRECT_LINE_NODES = _line_nodes_check()
if not _DIRECT_LINE_NODES:  # pragma: no cover - only if the line nodes gain a field
    def _new_play(seat: str, cards: Cards, attempted: Cards | None, span: Span) -> Play:
        return Play(span=span, comments=[], seat=seat, cards=cards, attempted=attempted)  # type: ignore[arg-type]  # seat: read by the seat regex

    def _new_trick(number: int | None, plays: list[Play], span: Span, comments: list[str]) -> Trick:
        return Trick(span=span, comments=comments, number=number, plays=plays)

    def _new_seat_cards(seat: str, cards: Cards, span: Span, comments: list[str]) -> SeatCards:
        return SeatCards(span=span, comments=comments, seat=seat, cards=cards)  # type: ignore[arg-type]  # seat: read by the seat regex


#: the direct builds above match validated models (`_self_check`)
_DIRECT_MODELS = True


def _self_check() -> bool:
    """Do the direct builds give what pydantic's own unvalidated builds give?
    (``model_construct``: a validated build or a dump would build the models'
    schemas, which :mod:`notation.model` defers to the first JSON or API use.)"""
    span = Span(1, 2, 1, 5)
    pairs: list[tuple[BaseModel, BaseModel]] = [
        (_Tag(name="A", value="b"), Tag.model_construct(name="A", value="b")),
        (_Hand(number=2, span=span), Hand.model_construct(number=2, span=span)),
    ]
    try:
        return all(a == b and a.__dict__ == b.__dict__ and list(a.__dict__) == list(b.__dict__)
                   and a.model_fields_set == b.model_fields_set <= set(a.__dict__)
                   and a.__pydantic_extra__ == b.__pydantic_extra__
                   and a.__pydantic_private__ == b.__pydantic_private__ for a, b in pairs)
    except Exception:  # pragma: no cover - depends on the pydantic version
        return False


if not _self_check():  # pragma: no cover - depends on the pydantic version
    # validated models instead: the module's builders rebound (by name, as
    # every other module imports them from here after this has run)
    _DIRECT_MODELS = False
    globals().update(_Tag=Tag, _Levels=Levels, _Declaration=Declaration, _Bury=Bury,
                     _Hand=Hand, _Record=Record, _Note=Note)
