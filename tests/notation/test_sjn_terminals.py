"""The reader's table of the grammar's terminals (``notation/_terminals.py``).

The shortcut reads the usual record with this table instead of building the
Lark parser at every start; it must be the grammar's own terminals.
"""

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation import _terminals, reader


def test_the_table_was_made_from_this_grammar():
    digest = _terminals.grammar_digest(reader.GRAMMAR_PATH.read_bytes())
    assert digest == _terminals.GRAMMAR_DIGEST, (
        "sjn.lark changed since notation/_terminals.py was made: run "
        "`python -m notation._terminals` (until then every start builds the Lark parser)")


def test_the_table_is_what_lark_builds():
    assert _terminals.TERMINALS == _terminals.from_lark(reader._parser())


def test_a_stale_table_falls_back_to_lark(monkeypatch):
    monkeypatch.setattr(_terminals, "GRAMMAR_DIGEST", "stale")
    monkeypatch.setattr(_terminals, "TERMINALS", (("CARDS", "x"),))
    assert reader._terminal_patterns() == _terminals.from_lark(reader._parser())


def test_reading_a_simple_record_does_not_import_lark():
    code = ("import sys\n"
            "from notation import parse\n"
            "records, diags = parse('[Event \"x\"]\\nhand 1\\nlevels NS 2 EW 2\\ndealer S\\n"
            "first S\\ntrump H\\n1. S: H3 W: H4 N: H5 E: H6\\n')\n"
            "assert records and not diags, diags\n"
            "assert 'lark' not in sys.modules, 'lark imported'\n"
            "parse('{ a commentary\\nover two lines }\\n[Event \"y\"]\\n')\n"
            "assert 'lark' in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


# -- the shortcut's whole-line regexes are made of the grammar's pieces ----------------------

def test_the_pieces_are_the_grammars():
    grammar = reader.GRAMMAR_PATH.read_text(encoding="utf-8")
    assert _terminals.PIECES == _terminals.pieces_from_grammar(grammar)
    assert [name for name, _ in _terminals.PIECES] == list(_terminals.PIECE_NAMES)


def test_a_stale_table_takes_the_pieces_from_the_grammar(monkeypatch):
    from notation.reader import _grammar
    monkeypatch.setattr(_terminals, "GRAMMAR_DIGEST", "stale")
    monkeypatch.setattr(_terminals, "PIECES", (("_SEAT", "x"),))
    grammar = reader.GRAMMAR_PATH.read_text(encoding="utf-8")
    assert _grammar._piece_patterns() == _terminals.pieces_from_grammar(grammar)


@pytest.fixture
def fresh_regexes():
    """The shortcut's compiled regexes made anew (and put back afterwards)."""
    from notation.reader import _grammar
    tables = (_grammar._TERMINALS, _grammar._PIECES, _grammar._WHOLE_LINES)
    saved = [dict(t) for t in tables]
    for t in tables:
        t.clear()
    yield _grammar
    for t, old in zip(tables, saved):
        t.clear()
        t.update(old)


def test_the_play_regexes_follow_the_grammars_seat(monkeypatch, fresh_regexes):
    # a grammar whose seats went up to P9 would be read so by the shortcut too:
    # no seat pattern is copied by hand into the whole-line regexes
    pieces = tuple((name, "(?:[NWSE]|P[1-9])" if name == "_SEAT" else regex)
                   for name, regex in _terminals.PIECES)
    monkeypatch.setattr(_terminals, "PIECES", pieces)
    terms = fresh_regexes._terminals()
    assert terms["plays4"].match("3. P9: HA P2: H3") is not None
    assert terms["play"].match("P9: HA").group(1) == "P9"


def test_the_regexes_are_made_of_the_table(fresh_regexes):
    terms = fresh_regexes._terminals()
    pieces = dict(_terminals.PIECES)
    for name in ("_SEAT", "_NUMBER", "_GAP", "_SEP", "_ARROW"):
        assert pieces[name] in terms["plays4"].pattern, name
    assert terms["CARDS"].pattern in terms["play"].pattern


# -- the usual line's regex reads a part of what `plays4` reads, the same way ---------------

def _mostly(usual, *others):
    """``usual`` most of the time, else one of ``others``."""
    return st.sampled_from([usual] * 3 * len(others) + list(others))


_GROUP = _mostly("SA", "H10", "D109", "BJ", "C3Q", "K", "10", "X", "T", "N", "P3", "sa", "♠A", "S-", "S:", "H;",
                 "D@", "Ａ")


@st.composite
def _play_lines(draw):
    """Lines near the usual play line (`usual4`): its parts, now and then
    with other blanks, groups or punctuation."""
    one = _mostly(" ", "", "  ", "\t")
    cards = lambda: draw(one).join(draw(st.lists(_GROUP, min_size=1, max_size=3)))
    line = draw(_mostly("", " ", "\t")) + draw(_mostly("", "1. ", "12. ", "3", "x. ", "1.", "2.  "))
    for k in range(draw(st.integers(1, 5))):
        if k:
            line += draw(_mostly("  ", " ", "   ", "\t", ""))
        line += draw(_mostly("N", "S", "E", "W", "P3", "P9", "n")) + draw(_mostly(": ", ":", ":  ", " :"))
        line += cards()
        if draw(st.integers(0, 3)) == 0:
            line += draw(_mostly(" -> ", "->", " - ", " > ", "  ->\t")) + cards()
    return line + draw(_mostly("", " ", ";", "; c", " ; c", "{x}"))


@given(_play_lines())
@settings(max_examples=1500, deadline=None)
def test_the_usual_line_regex_reads_as_plays4(line):
    from notation.reader._grammar import _terminals
    from notation.reader._quick import _play_heads
    terms = _terminals()
    usual, plays4 = terms["usual4"].match(line), terms["plays4"].match(line)
    if usual is not None:
        assert plays4 is not None and usual.regs == plays4.regs, line
    if plays4 is not None:
        assert line[:1] in _play_heads(), line


@pytest.mark.parametrize("line", ["1. E: CQQ  N: C64  W: C105  S: C73", "N: CA HJ3 C10 HA910 DK", "12. S: BJ LJ",
                                  "3. P2: HA  P3: SA K -> SA  P4: D2 ; a comment", "E: SAKK -> S3"])
def test_the_writers_play_lines_are_usual(line):
    from notation.reader._grammar import _terminals
    terms = _terminals()
    assert terms["usual4"].match(line).regs == terms["plays4"].match(line).regs


def test_this_python_matches_possessive_quantifiers_as_the_reader_needs():
    """The reader's terminals use possessive quantifiers before a negative
    lookahead; CPython before 3.11.5 backtracks into them (gh-106052), and the
    reader then misreads valid play lines (``S: SJ  E: SA`` read as ``S: SJ  E:``).
    pyproject.toml's ``requires-python = ">=3.11.5"`` keeps such a release out;
    this fails on one (3.11.2, Debian bookworm's)."""
    import re
    import tomllib
    from pathlib import Path
    assert re.fullmatch(r"(?:[ ]++a++(?!:))*+", "") is not None
    assert re.match(r"(?:[ ]++a++(?!:))*+", " a: a").group() == ""
    meta = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["requires-python"] == ">=3.11.5"
