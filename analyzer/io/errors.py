"""The two kinds of failure a command reports to the user (one line, no traceback).

Library code raises these; the command line (:mod:`analyzer.cli`) turns them
into ``shengji: error: …`` (:class:`UserError`, exit status ``code``) and
``shengji CMD: error: … (see 'shengji CMD --help')`` (:class:`UsageError`,
exit status 2). Anything else that escapes a command is a bug: internal error
SJ901.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix: an input that cannot be read, an output that
    must not be overwritten. ``code`` is the exit status (2: usage or I/O)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class UsageError(ValueError):
    """Bad arguments (an unknown preset, format or code prefix): a usage error."""
