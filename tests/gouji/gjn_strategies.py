"""Hypothesis strategies: random GJN records (any seats, any Gouji cards with
or without suits, every line kind, optional fields, comments GJN can hold),
built in their tidy (canonical) form so that ``parse(write(r)) == r``."""

from __future__ import annotations

from hypothesis import strategies as st

from notation.gjn_model import (
    SEATS,
    Action,
    Buy,
    Dian,
    Game,
    GoujiRecord,
    Lead,
    Point,
    Position,
    Redeal,
    Remove,
    Result,
    Return,
    Revolt,
    Score,
    SeatCards,
    Show,
    Tag,
    Tribute,
)
from notation.gjn_writer import canonical
from primitives.gjcards import ANY, BJ, LJ, make, tidy

seats = st.sampled_from(SEATS)

#: any Gouji card: a suit-free or suited 3..2, or a joker
card = st.one_of(
    st.builds(make, st.integers(3, 15)),
    st.builds(make, st.integers(3, 15), st.sampled_from((0, 1, 2, 3, ANY))),
    st.sampled_from((BJ, LJ)),
)
cards = st.lists(card, min_size=1, max_size=6).map(tidy)
long_cards = st.lists(card, min_size=1, max_size=36).map(tidy)

_chars = st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n")
_line = st.text(_chars, max_size=10).map(str.strip)


def _commentary_ok(text: str) -> bool:
    return "{" not in text and "}" not in text and not any(
        line.lstrip().startswith("[") for line in text.split("\n")[1:])


commentary = st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r{}"),
                              max_size=8), min_size=1, max_size=2) \
    .map(lambda parts: "\n".join(parts).strip()).filter(_commentary_ok)
line_comment = st.one_of(st.none(), _line, st.lists(_line, min_size=2, max_size=3).map("\n".join))
comments = st.one_of(st.just([]), st.lists(commentary, min_size=1, max_size=2))

tag_names = st.one_of(
    st.sampled_from(("Rules", "Game", "Event", "Date", "P1", "P6", "Rule.tribute", "Rule.compare")),
    st.builds(lambda a, b: a + b, st.sampled_from("AbEzRule"), st.text("abcXYZ019_.-", max_size=6)))
tag_values = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=10)


def _noted(draw, cls, **fields):
    return cls(comments=draw(comments), line_comment=draw(line_comment), **fields)


@st.composite
def tags(draw):
    return _noted(draw, Tag, name=draw(tag_names), value=draw(tag_values))


@st.composite
def preplay_line(draw, after: int = 0):
    kind = draw(st.sampled_from(("show", "dian", "tribute", "return", "buy", "revolt", "redeal",
                                 "remove", "point", "lead")))
    common = {"after_actions": after}
    if kind == "show":
        return _noted(draw, Show, seat=draw(seats), cards=draw(cards), **common)
    if kind in ("dian", "tribute", "return"):
        cls = {"dian": Dian, "tribute": Tribute, "return": Return}[kind]
        return _noted(draw, cls, payer=draw(seats), receiver=draw(seats), cards=draw(cards), **common)
    if kind == "buy":
        return _noted(draw, Buy, buyer=draw(seats), seller=draw(seats), cards=draw(cards), **common)
    if kind == "revolt":
        return _noted(draw, Revolt, seat=draw(seats), **common)
    if kind == "lead":
        return _noted(draw, Lead, seat=draw(seats), **common)
    if kind == "redeal":
        return _noted(draw, Redeal, **common)
    if kind == "remove":
        ranks = draw(st.sampled_from(((3,), (4,), (3, 4), (4, 3))))
        return _noted(draw, Remove, ranks=ranks, **common)
    return _noted(draw, Point, seat=draw(seats), pre=draw(st.booleans()), **common)


@st.composite
def actions(draw, number: int):
    kind = draw(st.sampled_from(("play", "play", "pass", "let")))
    if kind != "play":
        return _noted(draw, Action, number=number, seat=draw(seats), kind=kind)
    return _noted(draw, Action, number=number, seat=draw(seats), kind="play", cards=draw(cards),
                  burn=draw(st.booleans()), fail=draw(st.booleans()),
                  finish=draw(st.one_of(st.none(), st.integers(1, 6))))


@st.composite
def games(draw):
    number = draw(st.one_of(st.none(), st.integers(1, 60)))
    pre_points = [_noted(draw, Point, seat=s, pre=True)
                  for s in draw(st.lists(seats, max_size=2))]
    position = None
    if draw(st.booleans()):
        finished = tuple(draw(st.lists(seats, max_size=4, unique=True)))
        position = _noted(draw, Position, finished=finished)
    deal_seats = draw(st.lists(seats, max_size=6, unique=True))
    deal = [_noted(draw, SeatCards, seat=s, cards=draw(long_cards))
            for s in sorted(deal_seats, key=SEATS.index)]
    n_actions = draw(st.integers(0, 8))
    acts = []
    n = 0
    for _ in range(n_actions):
        n = draw(st.integers(n + 1, n + 2)) if draw(st.booleans()) else n + 1
        acts.append(draw(actions(n)))
    early = draw(st.lists(preplay_line(0), max_size=4))
    late = []
    if acts and draw(st.booleans()):
        k = draw(st.integers(1, len(acts)))
        late = [draw(preplay_line(k))]
    result = None
    if draw(st.booleans()):
        result = _noted(draw, Result, seats=tuple(draw(st.permutations(SEATS))))
    score = None
    if draw(st.booleans()):
        score = _noted(draw, Score, odd=draw(st.integers(-12, 12)), even=draw(st.integers(-12, 12)))
    return _noted(draw, Game, number=number, pre_points=pre_points, position=position, deal=deal,
                  preplay=early + late, actions=acts, result=result, score=score)


@st.composite
def records(draw):
    """Records in tidy form (:func:`notation.gjn_writer.canonical` of a random record)."""
    return canonical(GoujiRecord(
        tags=draw(st.lists(tags(), max_size=4)),
        games=draw(st.lists(games(), min_size=1, max_size=3)),
        header_comments=draw(st.lists(commentary, max_size=2)),
        line_comment=draw(line_comment),
    ))
