"""Games as plug-ins: one package per game (``shengji/``, ``gouji/``), each with a
``plugin`` module holding its :class:`Game`. The interface and the one registry
live low, in :mod:`analyzer.io.gamekit` (every command asks it what a file is);
they are re-exported here for the plug-ins."""

from analyzer.io.gamekit import (
    PLUGINS,
    UNKNOWN,
    Checker,
    Game,
    ReadResult,
    all_presets,
    by_kind,
    by_preset,
    claimant,
    detect,
    games,
    notation_names,
    register,
    suffixes,
    unregister,
)

__all__ = ["PLUGINS", "UNKNOWN", "Checker", "Game", "ReadResult", "all_presets", "by_kind", "by_preset", "claimant", "detect",
           "games", "notation_names", "register", "suffixes", "unregister"]
