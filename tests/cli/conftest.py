"""Fixtures of the command-line tests; the helpers live in ``cli_helpers.py``
(a unique module name, so no other test directory's conftest can shadow it)."""

from cli_helpers import golden, run, run_in, work  # noqa: F401 - pytest fixtures
