"""``shengji export``: records out to other programs' files.

One module per target: :mod:`.gamesav` writes the state after a record's last
hand into the 1997 Tractor game's save file (``GAME.SAV``); :mod:`.parquet`
writes a corpus as Parquet tables for :mod:`analyzer.store.stats`. The command line
(:func:`analyzer.cli.export`) dispatches on the format name.
"""

from __future__ import annotations

#: the formats ``shengji export`` writes
FORMATS: tuple[str, ...] = ("parquet", "game-sav")
