"""The rules engine: pure functions and values, no I/O.

The main entry points (imported lazily, so ``import primitives.cards`` stays cheap):

* :func:`replay.game.replay` — replay a whole record (``notation.model.Record``)
  and collect every diagnostic;
* :class:`replay.state.HandState` — one hand in play, in the manner of
  ``chess.Board``: ``legal_plays()``, ``is_legal()``, ``push()`` / ``pop()``,
  the trick (who is to play, who can beat it, ``winner_if(play)``), the turn
  and the score; :class:`replay.record.RecordState` is its
  lenient record mode, on which ``replay.game`` replays a record's tricks;
* :class:`replay.match.MatchFlow` — the match from hand to hand (deal,
  declarations, kitty, bury, tricks, score, levels, next hand), which the
  record replay and the generator drive; :class:`replay.teams.Teams` — the
  teams of a hand (fixed partners, or finding friends as calls are answered);
* :class:`replay.seats.Seat` — the one seat type (``N W S E``, ``P1``…``P8``);
* :func:`replay.deck.deck` — the full deck multiset of a ruleset.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from replay.deck import deck
    from replay.game import replay
    from replay.seats import Seat
    from replay.state import HandState

_LAZY = {"HandState": "replay.state", "Seat": "replay.seats", "deck": "replay.deck", "replay": "replay.game"}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'replay' has no attribute {name!r}")
    return getattr(import_module(module), name)


__all__ = ["HandState", "Seat", "deck", "replay"]
