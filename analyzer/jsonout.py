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
from typing import Any

#: what could be written differently by the two encoders: small or
#: exponent-form floats (``1e-07`` against ``1e-7``, ``1e-05`` against
#: ``0.00001``) and a ``None`` key (``"null"`` against ``"None"``); a match
#: inside a string only costs the slower path
_UNSURE = re.compile(r'\d[eE]-|0\.0000|"None":')


def dumps(data: Any) -> str:
    """``json.dumps(data, indent=2, ensure_ascii=False) + "\\n"``."""
    try:
        from pydantic_core import to_json
        text = to_json(data, indent=2).decode("utf-8")
    except Exception:
        text = None
    if text is None or _UNSURE.search(text):
        text = json.dumps(data, indent=2, ensure_ascii=False)
    return text + "\n"
