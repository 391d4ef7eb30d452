"""The reader's shortcut for simple chunks reads exactly what Lark reads.

``reader.QUICK_LINES`` turns the shortcut off; every text here is read both
ways and the results must be identical: the same records (node classes,
fields, fields set, spans) and the same diagnostics (codes, messages,
positions).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import sjn_strategies as S
import test_sjn_writer_io as writer_io
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from test_sjn_golden import CASES, TEMPLATE

from notation import parse, reader, write
from notation.model import Bury, Declaration, Hand, Levels, LineNode, Play, Record, SeatCards, Tag, Trick, line_fields

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("SJN_EXAMPLES", "40"))


def snapshot(value):
    """Everything a reader result holds, for an exact comparison."""
    if isinstance(value, BaseModel):
        return (type(value).__name__, sorted(value.model_fields_set),
                {k: snapshot(v) for k, v in value.__dict__.items()})
    if isinstance(value, LineNode):  # the slotted per-line nodes (Play, Trick, SeatCards)
        return (type(value).__name__, {k: snapshot(getattr(value, k)) for k in line_fields(type(value))})
    if isinstance(value, list):
        return [snapshot(v) for v in value]
    if isinstance(value, tuple):
        return (type(value).__name__, *(snapshot(v) for v in value))
    if isinstance(value, dict):
        return {k: snapshot(v) for k, v in value.items()}
    return value


def read(text: str, quick: bool):
    old = reader.QUICK_LINES
    reader.QUICK_LINES = quick
    try:
        records, diags = parse(text)
    finally:
        reader.QUICK_LINES = old
    return snapshot(records), diags


def assert_same_both_ways(text: str) -> None:
    quick, lark = read(text, True), read(text, False)
    assert quick[1] == lark[1], text
    assert quick[0] == lark[0], text


def uses_shortcut(text: str) -> bool:
    return all(reader._quick_lex(lines) is not None for _, lines in reader.split_records(text))


# -- fixed texts -----------------------------------------------------------------------

def sjn_files() -> list[Path]:
    return sorted([*ROOT.glob("samples/**/*.sjn"), *Path(__file__).parent.glob("fixtures/*.sjn")])


@pytest.mark.parametrize("path", sjn_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_sample_files(path):
    assert_same_both_ways(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_typos(name):
    old, new = CASES[name]
    if old is None:
        text = TEMPLATE.replace("hand 1\n", f"hand 1\n{new}\n", 1)
    else:
        text = TEMPLATE.replace(old + "\n", new + "\n", 1)
    assert_same_both_ways(text)


def bench_like_hand(rng: random.Random, number: int) -> Record:
    """A full two-deck hand like bench/bench_parse.py's (random, well formed)."""
    deck = [c for c in range(54) for _ in range(2)]
    rng.shuffle(deck)
    seats = ("N", "W", "S", "E")
    held = {s: deck[i * 25:(i + 1) * 25] for i, s in enumerate(seats)}
    tricks = [Trick(number=t + 1, plays=[Play(seat=s, cards=(held[s][t],)) for s in seats]) for t in range(25)]
    hand = Hand(number=number, levels=Levels(ns=2, ew=rng.randint(2, 14)), dealer="S",
                deal=[SeatCards(seat=s, cards=tuple(sorted(held[s]))) for s in seats],
                kitty=tuple(sorted(deck[100:])),
                events=[Declaration(seat="S", cards=(held["S"][0],), at=3),
                        Bury(seat="S", cards=tuple(sorted(deck[100:])))],
                tricks=tricks, points=rng.randrange(0, 200, 5))
    return Record(tags=[Tag(name="Event", value="bench")], hands=[hand])


def test_texts_the_shortcut_takes():
    rng = random.Random(7)
    texts = [write([bench_like_hand(rng, n) for n in range(1, 4)]),
             write(bench_like_hand(rng, 1), unicode=True, grouped=False),
             TEMPLATE,
             TEMPLATE.replace("trump H", "trump H  ; hearts\n  ; more\nfirst W\nredeal\ndeclare none"),
             TEMPLATE.replace("1. S: HA", "1.\tS:HA->HK").replace("2. S: SA", "  2. S: SA SK -> SA"),
             TEMPLATE.replace("W: H3", "W: H3  S: H4 ; five plays"),  # more than four plays
             TEMPLATE.replace("E: H6", "E: H6 HX").replace("N: SA SK H2", "N: SA SK H2 N"),  # bad cards
             TEMPLATE.replace("2. S: SA  E: S9", "2.S:SA E:S9->S8\t; tight"),
             write(writer_io.sample()),  # one-line commentaries
             TEMPLATE.replace("1. S: HA  E: H6", "1. {lead} S: HA {a}{b} E: H6\n{c} {d} ; e\n7."),
             TEMPLATE.replace("[Event \"typo\"]", "[A \"1\"]{x}[B \"{;}\"] {y} ; z")]
    for text in texts:
        assert uses_shortcut(text), text
        assert_same_both_ways(text)


def test_texts_the_shortcut_leaves_to_lark():
    for text in [TEMPLATE.replace("hand 1", "hand 1 {a\nlong one}"),  # a commentary over lines
                 TEMPLATE.replace("trump H", "trump H {not closed"),
                 TEMPLATE.replace("trump H", "trump H {a {b}"),
                 TEMPLATE.replace("dealer S", "dealer S S"),  # a syntax error
                 writer_io.TestStreaming.TEXT,  # a typo in its second record
                 "hand\n1. S HA\nx. \n[Event x]\nlevels NS 2 EW {\n"]:
        assert not uses_shortcut(text), text
        assert_same_both_ways(text)


# -- generated texts ---------------------------------------------------------------------

FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(S.records(), st.booleans(), st.booleans())
def test_written_records(record, unicode, grouped):
    assert_same_both_ways(write(record, unicode=unicode, grouped=grouped))


@settings(max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_records(data):
    record = data.draw(S.records())
    assert_same_both_ways(data.draw(S.mutated(write(record))))


# Lines of every shape the shortcut lexes, with good and bad values, odd
# blanks and comments, and now and then a stray character.
_values = st.sampled_from(["N", "W", "S", "E", "?", "NS", "EW", "2", "10", "J", "Joker", "A", "15", "NT",
                           "nt", "H", "♥", "s", "x", "-5", "85", "1x", "none", "nonex", "S:", "@3", "->",
                           "大王", "hand", "07", "١", "²"])
_groups = st.sampled_from(["SAKK", "H10", "10", "9", "BJ", "LJ", "大王", "♠A♠K", "HX", "S11", "N", "H10109",
                           "♥10", "C2", "sa", "Q", "x"])
_gap = st.sampled_from(["", " ", "  ", "\t"])
_sep = st.sampled_from([" ", "  ", "\t", " \t"])
_seat = st.sampled_from(["N", "W", "S", "E"])
_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=6)


#: what follows an element: nothing, one-line commentaries, now and then an
#: unclosed or odd one
_commentaries = st.one_of(
    st.just(""), st.just(""),
    st.lists(st.builds(lambda gap, text: f"{gap}{{{text}}}", _gap,
                       st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n{}"),
                               max_size=6)), min_size=1, max_size=2).map("".join),
    st.sampled_from([" {", " {a", " }", " {a{b}", " {a}}", " {;}", ' {"}', " {[x]}"]))


@st.composite
def _cards(draw):
    return draw(_sep).join(draw(st.lists(_groups, min_size=1, max_size=4)))


@st.composite
def _play(draw):
    text = f"{draw(_seat)}:{draw(_gap)}{draw(_cards())}"
    if draw(st.integers(0, 4)) == 0:
        text += f"{draw(_gap)}->{draw(_gap)}{draw(_cards())}"
    return text


@st.composite
def sjn_line(draw):
    sep, v = draw(_sep), lambda: draw(_values)
    kind = draw(st.integers(0, 15))
    if kind == 0:
        body = "hand" + (f"{sep}{v()}" if draw(st.booleans()) else "")
    elif kind == 1:
        body = sep.join(["levels", v(), v(), v(), v()])
    elif kind in (2, 3, 4, 5):
        body = f"{draw(st.sampled_from(['dealer', 'first', 'trump', 'points']))}{sep}{v()}"
    elif kind == 6:
        body = f"kitty{sep}{draw(_cards())}"
    elif kind == 7:
        body = f"declare{sep}{v()}{sep}{draw(_cards())}" + (f"{draw(_gap)}@{draw(_text)}" if draw(st.booleans()) else "")
    elif kind == 8:
        body = draw(st.sampled_from(["declare none", "declare\tnone", "redeal", "declare", "redeal now"]))
    elif kind == 9:
        body = f"bury{sep}{draw(_play())}"
    elif kind in (10, 11):
        body = draw(_play())
    elif kind in (12, 13):
        number = draw(st.sampled_from(["1.", "12.", "0.", "x.", "1", ""]))
        body = number + draw(_gap) + draw(_sep).join(draw(st.lists(_play(), min_size=1, max_size=4)))
    elif kind == 14:
        body = draw(_gap).join(f'[{draw(st.sampled_from(["Event", "Rule.x", "1a", ""]))} "{draw(_text)}"]'
                               for _ in range(draw(st.integers(1, 3))))
    else:  # a blank line, or one of commentaries only
        body = ""
    if kind in (12, 13) and draw(st.booleans()):  # commentaries between the plays of a trick
        parts = body.split("  ")
        body = "  ".join(part + draw(_commentaries) for part in parts)
    line = draw(_gap) + body + draw(_commentaries) + draw(_gap)
    if draw(st.integers(0, 3)) == 0:
        line += ";" + draw(_text)
    if draw(st.integers(0, 9)) == 0:  # a stray character
        i = draw(st.integers(0, len(line)))
        line = line[:i] + draw(st.sampled_from(S.NASTY + ["\xa0", "\u3000", "\x0c", "\u2028"])) + line[i:]
    return line


@settings(max_examples=EXAMPLES * 10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(sjn_line(), max_size=12))
def test_generated_lines(lines):
    assert_same_both_ways("\n".join(lines))


# -- card groups ---------------------------------------------------------------------------

def _outcome(f, key):
    try:
        return f(key)
    except ValueError as exc:
        return str(exc)


@settings(max_examples=EXAMPLES * 25, deadline=None)
@given(st.sampled_from(sorted("SHDCshdc♠♥♦♣♤♡♢♧")),
       st.lists(st.sampled_from(list("2345678910TJQKAtjqkaxX1ßıǰ大 ") + ["10"]), max_size=8).map("".join))
def test_card_groups_read_as_parse_group_reads_them(suit, ranks):
    from primitives.cards import parse_group
    key = suit + ranks
    assert _outcome(reader._group_cards, key) == _outcome(parse_group, key)


# -- line breaks and full-width characters (issue 14) ----------------------------------------

@pytest.mark.parametrize("case", ["cr", "crlf", "u2028", "formfeed", "fullwidth", "fullwidth-lark", "lost-trick"])
def test_line_breaks_and_full_width_both_ways(case):
    text = {
        "cr": TEMPLATE.replace("\n", "\r"),
        "crlf": TEMPLATE.replace("\n", "\r\n"),
        "u2028": TEMPLATE.replace("trump H", "trump H ; one\u2028line"),
        "formfeed": TEMPLATE.replace("1. S:", "1.\x0c S:"),
        "fullwidth": TEMPLATE.replace("trump H", "trump Ｈ").replace("1. S: HA", "１. Ｓ: ＨＡ"),
        "fullwidth-lark": TEMPLATE.replace("trump H", "trump Ｈ {ａ\nlong one}"),
        "lost-trick": TEMPLATE.replace("1. S: HA", "1. S HA"),
    }[case]
    assert_same_both_ways(text)
    records, _ = parse(text)
    if case.startswith("fullwidth"):
        assert write(records).isascii() or "{" in write(records)
        assert records[0].hands[0].trump == parse(TEMPLATE)[0][0].hands[0].trump
    if case in ("cr", "crlf"):
        assert parse(text) == parse(TEMPLATE)
    if case == "u2028":
        assert len(parse(text)[0][0].hands) == len(parse(TEMPLATE)[0][0].hands)
        assert [d.line for d in parse(text)[1]] == [d.line for d in parse(TEMPLATE)[1]]
    if case == "lost-trick":
        assert records[0].hands[0].tricks[0].number == 1 and records[0].hands[0].tricks[0].plays == []


def test_split_lines_is_the_readers():
    assert reader.split_lines("a\rb\r\nc\nd\u2028e\x0cf\x0bg\x85h\n") == ["a", "b", "c", "d\u2028e\x0cf\x0bg\x85h"]
    assert reader.split_lines("") == [] and reader.split_lines("\n\n") == ["", ""]


# -- the shortcut gives up after building part of a chunk ------------------------------------

def test_a_chunk_the_shortcut_gives_up_on_late_is_reported_once():
    # the shortcut reads and reports the bad card of line 3 before it meets the
    # commentary over two lines at the end; Lark then reads the whole chunk and
    # what the shortcut reported is dropped, not reported twice
    text = ("hand 1\ndealer S\nN: SA SX SK\n1. S: H3 W: H4 N: H5 E: H6\n"
            "2. S: H7 W: H8 N: H9 E: H10 { a commentary\nover two lines }\n")
    assert not uses_shortcut(text)
    _, diags = read(text, True)
    assert [(d.code, d.line) for d in diags] == [("SJ102", 3)]
    assert_same_both_ways(text)


def _piece_lines(piece):
    """What one piece of an iterable input gives, as `_records._lines_of` is
    specified: its line end (`\\n`, `\\r\\n` or `\\r`) dropped, and cut into
    lines when it holds more than one."""
    if isinstance(piece, bytes):
        piece = piece.decode("utf-8", "replace")
    for end in ("\n", "\r"):
        if piece.endswith(end):
            piece = piece[:-1]
    return split_lines_kept(piece) if "\n" in piece or "\r" in piece else [piece]


def split_lines_kept(text):
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


@given(st.lists(st.one_of(st.text("ab\r\n", max_size=6), st.binary(max_size=6).map(lambda b: b.replace(b"\x00", b"a"))),
                max_size=6))
@settings(max_examples=300, deadline=None)
def test_the_pieces_of_an_iterable_are_cut_into_lines(pieces):
    from notation._records import _lines_of
    assert list(_lines_of(iter(pieces), lambda: (1, []))) == [line for p in pieces for line in _piece_lines(p)]
