"""The reader's table of the grammar's terminals (``notation/_terminals.py``).

The shortcut reads the usual record with this table instead of building the
Lark parser at every start; it must be the grammar's own terminals.
"""

import subprocess
import sys

import pytest

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
