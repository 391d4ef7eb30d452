"""The importers, each declared once: its name, the module that reads it, what
it reads (for ``shengji import --help``), its other names, the file suffixes
that break a detection tie, and whether its files are bytes.

An importer module (``analyzer/io/importers/<module>.py``) provides, by
convention, ``RULES`` (the SJN preset its records use), ``looks_like(text)``
(detection: True when the content is unmistakably this format) and
``import_log(text, source) -> ImportResult``. Everything else — the format
names the command line accepts and lists in its help, ``--from``, detection,
the presets — is derived from :data:`IMPORTERS` (see docs/extending.md).

This module imports nothing heavy: the command line reads it at start-up to
write its help; the importer modules are imported only when a log is read.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Importer:
    """One log format."""

    #: the canonical name (``shengji import NAME``, ``--from NAME``)
    name: str
    #: the module under ``analyzer.io.importers`` that reads it
    module: str
    #: what it reads, for ``shengji import --help``
    describe: str
    #: other names accepted for it
    aliases: tuple[str, ...] = ()
    #: usual file suffixes: they only break a tie between formats the content fits equally
    suffixes: tuple[str, ...] = ()
    #: the files are bytes, not text (read them with ``Path.read_bytes``)
    binary: bool = False

    def load(self) -> ModuleType:
        """The importer's module (imported on first use)."""
        return importlib.import_module(f"{__package__}.{self.module}")


#: every importer, in the order the help lists them
IMPORTERS: tuple[Importer, ...] = (
    Importer("fly", "fly", "shengji.fly.dev JSONL room logs",
             aliases=("shengji-fly", "shengji.fly.dev", "jerryyyu"), suffixes=(".jsonl",)),
    Importer("botzone", "botzone", "Botzone Tractor match logs"),
    Importer("shengji-io-chat", "shengji_io_chat", "pasted shengji.io chat",
             aliases=("shengji-io", "shengji.io", "chat"), suffixes=(".txt", ".log")),
    Importer("80fen-v2", "fen80", "80fen completed-deal replay JSON",
             aliases=("80fen", "80-fen", "eighty-completed-deal")),
    Importer("game-sav", "gamesav",
             "the 1997 Tractor game's GAME.SAV: its levels and dealer, never detected: name it",
             aliases=("gamesav", "game.sav", "tractor97-sav"), binary=True),
    Importer("shengji-godot", "godot", "the shengji-godot game's JSON log or HTML report",
             aliases=("godot", "qian-loong"), suffixes=(".html",)),
)

BY_NAME: dict[str, Importer] = {imp.name: imp for imp in IMPORTERS}

#: the canonical names, in order
NAMES: tuple[str, ...] = tuple(BY_NAME)
#: the formats read from text (``--from`` lists these)
TEXT_NAMES: tuple[str, ...] = tuple(imp.name for imp in IMPORTERS if not imp.binary)

#: ``fly, botzone, …, game-sav`` for help texts
IMPORT_FORMATS_TEXT = ", ".join(NAMES)
_ENTRIES = [f"{imp.name} ({imp.describe})" for imp in IMPORTERS]
#: ``shengji import --help``: what each format reads, two to a line
FORMATS_HELP = "Formats: " + ",\n".join(", ".join(_ENTRIES[k:k + 2]) for k in range(0, len(_ENTRIES), 2)) + "."
#: the ``--from`` help of every command that reads records
FROM_HELP = ("Read another program's log: " + ", ".join(TEXT_NAMES) + ", or auto "
             "(detected; also the default for named files that are not .sjn).")
