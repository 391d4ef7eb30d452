"""Building the SJN record model's nodes without validation."""

from __future__ import annotations

from replay.diagnostics import Span

from .._fill import fill, new_object, set_dict, set_extra, set_fields_set, set_private
from ..model import Bury, Declaration, Hand, Levels, Note, Play, Record, SeatCards, Tag, Trick

# -- fast model construction (see :mod:`notation._fill`) -------------------------------

_fill = fill
_new_object = new_object
_set_dict = set_dict
_set_fields_set = set_fields_set
_set_extra = set_extra
_set_private = set_private


def _builder(cls):
    """``build(**fields)`` for ``cls``: the given fields, defaults for the rest."""
    template: dict = {}
    factories = []
    for name, field in cls.model_fields.items():
        template[name] = None if field.is_required() or field.default_factory else field.default
        if field.default_factory is not None:
            factories.append((name, field.default_factory))

    def build(**kw):
        d = template.copy()
        d.update(kw)
        for name, factory in factories:
            if name not in kw:
                d[name] = factory()
        return _fill(cls, d, set(kw))

    build.model = cls
    return build


_Tag, _Levels, _Declaration, _Bury = _builder(Tag), _builder(Levels), _builder(Declaration), _builder(Bury)
_Hand, _Record, _Note = _builder(Hand), _builder(Record), _builder(Note)


# The three objects built for every play line (about 130 a hand): `_fill`
# spelled out, with everything bound as defaults (local lookups).
def _new_play(seat: str, cards: tuple, attempted: tuple | None, span: Span,
              _new=object.__new__, _cls=Play, _set_dict=_set_dict, _given=_set_fields_set,
              _extra=_set_extra, _private=_set_private) -> Play:
    obj = _new(_cls)
    _set_dict(obj, {"span": span, "comments": [], "line_comment": None,
                    "seat": seat, "cards": cards, "attempted": attempted})
    _given(obj, {"seat", "cards", "attempted", "span"})
    _extra(obj, None)
    _private(obj, None)
    return obj


def _new_trick(number: int | None, plays: list, span: Span, comments: list[str],
               _new=object.__new__, _cls=Trick, _set_dict=_set_dict, _given=_set_fields_set,
               _extra=_set_extra, _private=_set_private) -> Trick:
    obj = _new(_cls)
    _set_dict(obj, {"span": span, "comments": comments, "line_comment": None,
                    "number": number, "plays": plays})
    _given(obj, {"span", "comments", "number", "plays"})
    _extra(obj, None)
    _private(obj, None)
    return obj


def _new_seat_cards(seat: str, cards: tuple, span: Span, comments: list[str]) -> SeatCards:
    return _fill(SeatCards, {"span": span, "comments": comments, "line_comment": None,
                             "seat": seat, "cards": cards},
                 {"span", "comments", "seat", "cards"})


#: the direct builds above match validated models (`_self_check`)
_DIRECT_MODELS = True


def _self_check() -> None:
    """Use validated models instead if a direct build ever differs."""
    global _new_play, _new_trick, _new_seat_cards, _Tag, _Levels, _Declaration, _Bury, _Hand, _Record, _Note
    global _DIRECT_MODELS
    span = Span(1, 2, 1, 5)
    play = Play(seat="S", cards=(1, 2), attempted=(3,), span=span)
    pairs = [
        (_new_play("S", (1, 2), (3,), span), play),
        (_new_trick(3, [play], span, ["c"]), Trick(number=3, plays=[play], span=span, comments=["c"])),
        (_new_seat_cards("N", (1,), span, ["c"]), SeatCards(seat="N", cards=(1,), span=span, comments=["c"])),
        (_Tag(name="A", value="b"), Tag(name="A", value="b")),
        (_Hand(number=2, span=span), Hand(number=2, span=span)),
    ]
    try:
        ok = all(a == b and a.model_dump() == b.model_dump() and list(a.__dict__) == list(b.__dict__)
                 and a.model_fields_set <= set(a.__dict__) for a, b in pairs)
    except Exception:  # pragma: no cover - depends on the pydantic version
        ok = False
    if not ok:  # pragma: no cover
        _DIRECT_MODELS = False
        _new_play = lambda seat, cards, attempted, span: Play(
            seat=seat, cards=cards, attempted=attempted, span=span)
        _new_trick = lambda number, plays, span, comments: Trick(
            number=number, plays=plays, span=span, comments=comments)
        _new_seat_cards = lambda seat, cards, span, comments: SeatCards(
            seat=seat, cards=cards, span=span, comments=comments)
        _Tag, _Levels, _Declaration, _Bury = Tag, Levels, Declaration, Bury
        _Hand, _Record, _Note = Hand, Record, Note


_self_check()


