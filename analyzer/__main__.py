"""``python -m analyzer``: the ``shengji`` command line."""

from analyzer.cli import PROG, app

app(prog_name=PROG)
