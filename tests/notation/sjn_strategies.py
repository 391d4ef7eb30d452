"""Hypothesis strategies: random SJN records (any seats, any cards 0..53,
optional fields, comments with text SJN can hold) and mutated SJN text."""

from __future__ import annotations

from hypothesis import strategies as st

from notation.model import (
    NUMBERED_SEATS,
    SEATS,
    Bury,
    Declaration,
    FriendCall,
    Hand,
    Levels,
    Note,
    Play,
    PlayerLevels,
    Record,
    SeatCards,
    Tag,
    Trick,
)
from primitives.diagnostics import NO_SPAN

#: finding friends: the numbered seats of a table of 4–8
NUMBERED = NUMBERED_SEATS
ALL_SEATS = SEATS + NUMBERED

seats = st.sampled_from(ALL_SEATS)
cards = st.lists(st.integers(0, 53), min_size=1, max_size=6).map(tuple)
long_cards = st.lists(st.integers(0, 53), min_size=1, max_size=26).map(tuple)

# Text: anything printable-ish, including CJK, suits, SJN punctuation and
# odd whitespace; never carriage returns (line ends are normalised when read)
# nor surrogates.
#: full-width letters and digits read as ASCII (docs/notation.md), so they do not round-trip
FULLWIDTH = "".join(chr(c) for c in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B)))
_chars = st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n" + FULLWIDTH)
_line = st.text(_chars, max_size=10).map(str.strip)


def _commentary_ok(text: str) -> bool:
    return "{" not in text and "}" not in text and not any(
        line.lstrip().startswith("[") for line in text.split("\n")[1:])


#: text of a `{ … }` commentary: may run over lines; no braces
commentary = st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r{}" + FULLWIDTH),
                              max_size=8), min_size=1, max_size=2) \
    .map(lambda parts: "\n".join(parts).strip()).filter(_commentary_ok)
#: text of a `;` comment: one line, or several lines continued with `;`
line_comment = st.one_of(st.none(), _line, st.lists(_line, min_size=2, max_size=3).map("\n".join))
comments = st.one_of(st.just([]), st.lists(commentary, min_size=1, max_size=2))

tag_names = st.builds(lambda a, b: a + b, st.sampled_from("AbEzRule"), st.text("abcXYZ019_.-", max_size=6))
tag_values = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n" + FULLWIDTH),
                     max_size=10)


@st.composite
def tags(draw):
    return Tag(name=draw(tag_names), value=draw(tag_values),
               comments=draw(comments), line_comment=draw(line_comment))


@st.composite
def notes(draw):
    return Note(comments=draw(comments), line_comment=draw(line_comment))


@st.composite
def plays(draw):
    attempted = draw(st.one_of(st.none(), cards))
    return Play(seat=draw(seats), cards=draw(cards), attempted=attempted, comments=draw(comments))


@st.composite
def tricks(draw):
    ps = draw(st.lists(plays(), max_size=4))
    number = draw(st.one_of(st.none(), st.integers(0, 60)))
    if not ps and number is None:
        number = draw(st.integers(0, 60))  # an empty trick line needs its number
    return Trick(number=number, plays=ps, comments=draw(comments), line_comment=draw(line_comment))


@st.composite
def events(draw):
    if draw(st.booleans()):
        return Declaration(seat=draw(seats), cards=draw(cards), at=draw(st.one_of(st.none(), st.integers(0, 120))),
                           comments=draw(comments), line_comment=draw(line_comment))
    return Bury(seat=draw(seats), cards=draw(cards), comments=draw(comments), line_comment=draw(line_comment))


@st.composite
def player_levels(draw):
    """``levels P1 2 P2 5 …``: two or more players' own levels (writer order: compass, then P1…P8)."""
    chosen = draw(st.lists(seats, min_size=2, max_size=8, unique=True))
    return PlayerLevels(levels={s: draw(st.integers(2, 15)) for s in chosen},
                        comments=draw(comments), line_comment=draw(line_comment))


@st.composite
def friend_calls(draw):
    """``friend [2nd] HA [P3 @7 | none]``."""
    joined = draw(st.one_of(st.none(), seats, st.just("none")))
    at = draw(st.one_of(st.none(), st.integers(1, 60))) if joined not in (None, "none") else None
    return FriendCall(ordinal=draw(st.one_of(st.none(), st.integers(1, 12))), card=draw(st.integers(0, 53)),
                      joined=joined, at=at, comments=draw(comments), line_comment=draw(line_comment))


@st.composite
def hands(draw, canonical: bool = False):
    maybe = st.booleans()
    deal_seats = [s for s in ALL_SEATS if draw(maybe)]
    if not canonical:
        deal_seats = draw(st.permutations(deal_seats))
    hand = Hand(
        number=draw(st.one_of(st.none(), st.integers(0, 999))),
        levels=draw(st.one_of(st.none(), st.builds(Levels, ns=st.integers(2, 15), ew=st.integers(2, 15),
                                                   comments=comments, line_comment=line_comment),
                              player_levels())),
        dealer=draw(st.one_of(st.none(), st.sampled_from(ALL_SEATS + ("?",)))),
        first=draw(st.one_of(st.none(), seats)),
        deal=[SeatCards(seat=s, cards=draw(long_cards), comments=draw(comments),
                        line_comment=draw(line_comment)) for s in deal_seats],
        kitty=draw(st.one_of(st.none(), cards)),
        events=draw(st.lists(events(), max_size=3)),
        declare_none=draw(st.sampled_from([None, NO_SPAN])),
        trump=draw(st.one_of(st.none(), st.integers(0, 4))),
        tricks=draw(st.lists(tricks(), max_size=4)),
        friends=draw(st.lists(friend_calls(), max_size=3)),
        points=draw(st.one_of(st.none(), st.integers(-100, 400))),
        redeal=draw(st.sampled_from([None, NO_SPAN])),
        comments=draw(comments),
        line_comment=draw(line_comment),
    )
    if canonical:
        for trick in hand.tricks:
            if trick.number is None:
                trick.number = draw(st.integers(0, 60))
    for key, field in (("dealer", "dealer"), ("first", "first"), ("kitty", "kitty"),
                       ("declare none", "declare_none"), ("trump", "trump"), ("points", "points"),
                       ("redeal", "redeal")):
        if getattr(hand, field) is not None and draw(st.booleans()):
            note = draw(notes())
            if note.comments or note.line_comment is not None:
                hand.line_notes[key] = note
    return hand


@st.composite
def records(draw, canonical: bool = False):
    """A record SJN can hold; with ``canonical``, one the writer gives back
    exactly (seat lines in N W S E order, every trick numbered)."""
    record = Record(
        tags=draw(st.lists(tags(), max_size=3)),
        hands=draw(st.lists(hands(canonical), max_size=2)),
        header_comments=draw(st.lists(commentary, max_size=2)),
        line_comment=draw(line_comment),
    )
    if not (record.tags or record.hands or record.header_comments or record.line_comment is not None):
        record.tags.append(Tag(name="Event", value="x"))
    return record


# -- mutated text ------------------------------------------------------------------------

NASTY = list("[]{}:;\"@->.?\\ \t\n0123456789NWSEshdcHDCBJLTQKA♠♥♦♣大王小") + ["hand", "S:", "->", "{", "}", "\n"]


@st.composite
def mutated(draw, text: str):
    """``text`` with a few random edits: characters deleted, inserted or
    replaced, lines deleted, duplicated or swapped."""
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "drop_line", "dup_line", "swap_lines"]))
        if kind in ("delete", "insert", "replace"):
            i = draw(st.integers(0, max(len(text) - 1, 0)))
            piece = draw(st.one_of(st.sampled_from(NASTY), st.text(max_size=3)))
            if kind == "delete":
                text = text[:i] + text[i + 1:]
            elif kind == "insert":
                text = text[:i] + piece + text[i:]
            else:
                text = text[:i] + piece + text[i + 1:]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "drop_line":
                del lines[i]
            elif kind == "dup_line":
                lines.insert(i, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text
