"""The Gouji (够级) rules engine (GOUJI.md): pure, no I/O.

* :mod:`.rules` — the ruleset (every §8 option, the presets);
* :mod:`.sets` — sets, beating, 够级 sets (§3);
* :mod:`.table` — seats, 对头, teams (§1);
* :mod:`.state` — :class:`GoujiState`, one game in play (§4–§6), used by the
  replay and the bots;
* :mod:`.record` — :func:`replay`, a GJN record replayed into
  :class:`GoujiReplay` (diagnostics GJ2xx–GJ5xx, per-game results), with
  :mod:`.preplay` (亮3, 买3, 革命, 会3/4), :mod:`.tribute` (点贡, 落贡, 还贡)
  and :mod:`.results` (what it returns).
"""

from __future__ import annotations

from replay.gouji.record import replay
from replay.gouji.results import GameResult, GoujiReplay, Step
from replay.gouji.rules import PRESETS, GoujiRuleset, preset, resolve
from replay.gouji.state import GoujiState

__all__ = [
           "PRESETS",
           "GameResult",
           "GoujiReplay",
           "GoujiRuleset",
           "GoujiState",
           "Step",
           "preset",
           "replay",
           "resolve",
]
