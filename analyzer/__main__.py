"""``python -m analyzer``: the ``shengji`` command line."""

from analyzer.cli import app
from analyzer.io.echo import PROG

if __name__ == "__main__":  # not when a spawned worker process (--cluster local:N) imports this module
    app(prog_name=PROG)
