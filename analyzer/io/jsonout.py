"""Indented JSON output, fast: what ``json.dumps(data, indent=2,
ensure_ascii=False) + "\\n"`` gives, character for character.

With ``indent`` set, the standard library encodes in Python (its C encoder is
for compact output only): about 40 % of ``shengji report --format json`` was
spent there. pydantic-core (already a dependency, through pydantic) writes the
same text about eight times faster. Where the two could differ (a float
written in exponent form or below 1e-4, a ``None`` dict key, a string that is
not valid Unicode, an object neither knows), the output is made by ``json``
after all, so the text never depends on which encoder ran.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

#: what could be written differently by the two encoders: small or
#: exponent-form floats (``1e-07`` against ``1e-7``, ``1e-05`` against
#: ``0.00001``) and a ``None`` key (``"null"`` against ``"None"``); a match
#: inside a string only costs the slower path
_UNSURE = re.compile(r'\d[eE]-|0\.0000|"None":')


def _unsure(text: str) -> bool:
    """``_UNSURE.search(text)``, but by plain substring searches first (a
    regular expression starting with ``\\d`` tries every position of the text:
    it cost five times the encoding itself)."""
    # one-character tests first: they run at memory speed (memchr), a longer
    # needle takes several times as long on a report's tens of kilobytes
    if '"None":' in text or ("." in text and "0.0000" in text):
        return True
    if "-" not in text:
        return False
    for minus in ("e-", "E-"):
        i = text.find(minus, 1)
        while i != -1:
            if text[i - 1].isdigit():  # every \d (and a few more: the slow path is always right)
                return True
            i = text.find(minus, i + 2)
    return False


def dumps(data: Any) -> str:
    """``json.dumps(data, indent=2, ensure_ascii=False) + "\\n"``."""
    try:
        from pydantic_core import to_json
        text = to_json(data, indent=2).decode("utf-8")
    except Exception:
        text = None
    if text is None or _unsure(text):
        text = json.dumps(data, indent=2, ensure_ascii=False)
    return text + "\n"


@lru_cache(maxsize=8)
def _wrapping(level: int) -> tuple[str, str]:
    """What ``level`` arrays write before and after their one item."""
    return ("".join("[\n" + "  " * (k + 1) for k in range(level)),
            "".join("\n" + "  " * (level - 1 - k) + "]" for k in range(level)))


def dumps_nested(data: Any, level: int) -> str:
    """``data`` as it stands inside ``level`` levels of indented arrays or
    objects, without the first line's indentation or a final newline: the
    text of ``dumps(data).rstrip("\\n").replace("\\n", "\\n" + "  " * level)``
    (JSON strings hold no raw newline, so that re-indents exactly), made by
    encoding ``data`` inside ``level`` arrays and slicing it out."""
    if level <= 0:
        return dumps(data).rstrip("\n")
    prefix, suffix = _wrapping(level)
    wrapped = data
    for _ in range(level):
        wrapped = [wrapped]
    text = dumps(wrapped)[:-1]
    if text.startswith(prefix) and text.endswith(suffix):
        return text[len(prefix):len(text) - len(suffix)]
    return dumps(data).rstrip("\n").replace("\n", "\n" + "  " * level)  # not expected: the plain way
