"""Tags (``[Name "value"]``) as both readers (SJN and GJN) read them: the
value unescaped, and why a line that starts with ``[`` is not a good tag."""

from __future__ import annotations

import re

_TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*\Z")
_UNESCAPE_RE = re.compile(r'\\([\\"])')


def unescape_tag_value(raw: str) -> str:
    """``\\"`` → ``"`` and ``\\\\`` → ``\\``; any other backslash is kept."""
    return _UNESCAPE_RE.sub(r"\1", raw) if "\\" in raw else raw


def tag_problem(text: str) -> str:
    """Why ``text`` (from ``[`` to the end of the line) is not a good tag."""
    i, n = 1, len(text)
    while i < n and text[i] in " \t":
        i += 1
    j = i
    while j < n and text[j] not in ' \t"]':
        j += 1
    name = text[i:j]
    i = j
    while i < n and text[i] in " \t":
        i += 1
    if not name:
        return 'a tag is written `[Name "value"]`: the name is missing'
    if not _TAG_NAME_RE.match(name):
        return (f"`{name}` is not a tag name: a name is letters, digits, `_`, `.` "
                f"and `-`, starting with a letter")
    if i >= n or text[i] == "]":
        return f'tag `{name}` has no value: write `[{name} "…"]`'
    if text[i] != '"':
        value = text[i:].split("]", 1)[0].strip()
        return f'the value of tag `{name}` must be in double quotes: `[{name} "{value}"]`'
    m = re.compile(r'"((?:[^"\\\n]|\\.)*)"').match(text, i)
    if not m:
        return f'the value of tag `{name}` is missing its closing `"`'
    i = m.end()
    while i < n and text[i] in " \t":
        i += 1
    if i >= n:
        return f"tag `{name}` is not closed with `]`"
    if text[i] != "]":   # (str.split() also splits at \x1c-\x1f, \x0b, \x0c, \x85: maybe no word)
        return f"unexpected `{(text[i:].split() or [text[i]])[0]}` after the value of tag `{name}`"
    return 'a tag is written `[Name "value"]`'
