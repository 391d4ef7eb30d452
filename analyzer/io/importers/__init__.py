"""Importers: game logs of other Shengji software → SJN records.

Library API (the CLI's ``shengji import`` / ``--from`` call these)::

    FORMATS                                    # the registry's names, in order ("fly", "botzone", …)
    detect_format(text, filename=None)         # a format name, or None unless unambiguous
    import_text(fmt, text, *, source="", check=True)
                                               # -> (records, diagnostics); never raises
    import_log(fmt, text, *, source="")        # -> ImportResult(records, diagnostics, claims)
    check_claims(records, claims, match_result=None)
                                               # -> SJ704 diagnostics where the log's stated trick
                                               #    winners / points differ from the rules

Diagnostics carry line and column **in the source log** (SJ701–SJ705). The
records' spans point into the source log too, so ``replay.game.replay`` on an
imported record reports its findings at the log's lines; after
``notation.write`` + ``notation.parse`` they are SJN positions as usual.

Each format is declared once, in :mod:`.registry` (name, module, aliases,
suffixes, bytes or text); :mod:`.api` holds the functions above. This package
loads them on first use, so reading the registry (the command line's help)
imports no importer.

One module per format, named in the registry (today :mod:`.fly`,
:mod:`.botzone`, :mod:`.shengji_io_chat`, :mod:`.fen80`, and :mod:`.gamesav`,
which reads bytes, not text: see :func:`is_binary`).
Source seats 0, 1, 2, 3 become S, E, N, W everywhere (see docs/importing.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analyzer.io.importers._common import SOURCE_SEATS, Claim, ImportResult
    from analyzer.io.importers.api import (
        ALIASES,
        FORMATS,
        RULES,
        check_claims,
        detect_format,
        format_name,
        import_log,
        import_text,
        is_binary,
    )

_API = ("FORMATS", "ALIASES", "RULES", "detect_format", "is_binary", "format_name", "import_text", "import_log",
        "check_claims", "_MODULES", "_SUFFIXES")
#: the importers' common values (defined in ._common)
_COMMON = ("SOURCE_SEATS", "Claim", "ImportResult")


def __getattr__(name: str) -> Any:
    if name in _API:
        value = getattr(importlib.import_module(f"{__name__}.api"), name)
    elif name in _COMMON:
        value = getattr(importlib.import_module(f"{__name__}._common"), name)
    else:
        from analyzer.io.importers.registry import IMPORTERS
        module = next((imp.module for imp in IMPORTERS if imp.module == name), None)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = importlib.import_module(f"{__name__}.{module}")
    globals()[name] = value
    return value


__all__ = ["FORMATS", "ALIASES", "RULES", "SOURCE_SEATS", "Claim", "ImportResult", "detect_format", "is_binary",
           "format_name", "import_text", "import_log", "check_claims"]
