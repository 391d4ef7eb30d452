"""The reader's table of the grammar's terminals (``notation/_terminals.py``).

The shortcut reads the usual record with this table instead of building the
Lark parser at every start; it must be the grammar's own terminals.
"""

import subprocess
import sys

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
