"""What the Gouji replay returns (GOUJI.md §6, §9): one :class:`GameResult`
per game (places, score, 够级 plays made and suffered, burns, 让牌, cards
left, a per-action timeline of :class:`Step`) in a :class:`GoujiReplay`, and
the score of a full set of places (:func:`score_of`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple, TypedDict

from primitives.diagnostics import Diagnostic
from replay.gouji.rules import GoujiRuleset
from replay.gouji.table import PLACE_POINTS, TEAMS

if TYPE_CHECKING:  # the record model is notation's; the engine only reads it
    pass

#: what a game is: played from the deal, a scoresheet (``result`` alone), a
#: position (mid-play start) or a void deal (two or more revolts)
GameKind = Literal["game", "scoresheet", "position", "void"]



class Step(NamedTuple):
    """One action of the timeline, with the state after it."""

    number: int            # the action's count (0 for an ignored pass)
    line: int
    seat: str
    kind: Literal["play", "pass", "let"]
    cards: str             # the set played ('' for pass / let)
    top: str               # the top after the action ('' at a round's start)
    owner: str             # its owner ('' at a round's start)
    target: str            # the 够级 target of the top ('' if plain)
    passed: tuple[str, ...]
    ask: tuple[str, ...]   # who is asked next, in order (the leader alone at a round's start)
    burning: tuple[tuple[str, str], ...]   # (burner, burned)
    finished: tuple[tuple[str, int], ...]  # (seat, place) so far
    gouji: bool            # the action was a 够级 play
    burn: bool
    fail: bool
    place: int             # place taken by this action (0 if none)
    ignored: bool          # a pass after an unbeatable set (§3)
    round_end: bool
    # -- added for the viewer and the reports (defaults keep old callers working)
    counts: tuple[int | None, ...] = ()  # cards left per seat P1..P6 after the action (None: unknown)
    leads: str = ''        # who leads the next round, when this action ended one (or failed a burn)
    jiefeng: bool = False  # 接风: the round ended and its owner is out, so the next in play leads
    jieshao: str = ''      # 解烧: the burner whose burn this play ended ('' if none)
    burn_won: bool = False  # the burner emptied his hand while burning (a successful burn)
    aim: str = ''          # the target of this action's 够级 play ('' if it is none)
    burned: str = ''       # the player this action burns, or whose burn failed ('' if none)


class PlayRef(NamedTuple):
    """A 够级 play or a burn: ``action`` is the 0-based index into ``game.actions``."""

    action: int
    seat: str
    target: str | None = None   # a 够级 play's target
    burned: str | None = None   # a burn's burned player


class SideScore(TypedDict):
    """A game's score per side: odd seats (P1 P3 P5) and even seats (P2 P4 P6), §6."""

    odd: int
    even: int


class PlayRefDict(TypedDict):
    action: int
    seat: str
    target: str | None
    burned: str | None


class GameResultDict(TypedDict):
    """:meth:`GameResult.to_dict`: the result without the timeline (JSON-ready)."""

    game: int | None
    line: int
    kind: GameKind
    complete: bool
    places: dict[str, int]
    score: SideScore | None
    sweep: bool
    leader: str | None
    revolutionary: str | None
    gouji_made: dict[str, list[str]]
    gouji_suffered: dict[str, list[str]]
    burns_won: dict[str, int]
    burns_lost: dict[str, int]
    lets: dict[str, int]
    cards_left: dict[str, int | None]
    bukaidian: dict[str, bool] | None
    actions: int
    gouji_plays: list[PlayRefDict]
    burns: list[PlayRefDict]


def _play_ref_dict(p: PlayRef) -> PlayRefDict:
    return {"action": p.action, "seat": p.seat, "target": p.target, "burned": p.burned}


@dataclass
class GameResult:
    number: int | None
    line: int
    kind: GameKind = "game"
    complete: bool = False
    #: seat name → place (1..6) when known
    places: dict[str, int] = field(default_factory=dict)
    #: computed score, per side
    score: SideScore | None = None
    sweep: bool = False
    leader: str | None = None
    revolutionary: str | None = None
    #: seat → targets of each 够级 play he made / players of each he suffered
    gouji_made: dict[str, list[str]] = field(default_factory=dict)
    gouji_suffered: dict[str, list[str]] = field(default_factory=dict)
    burns_won: dict[str, int] = field(default_factory=dict)
    burns_lost: dict[str, int] = field(default_factory=dict)
    lets: dict[str, int] = field(default_factory=dict)
    cards_left: dict[str, int | None] = field(default_factory=dict)
    #: 打点: who ended 不开点 (None when not known)
    bukaidian: dict[str, bool] | None = None
    actions: int = 0
    #: every 够级 play and every burn, in order
    gouji_plays: list[PlayRef] = field(default_factory=list)
    burns: list[PlayRef] = field(default_factory=list)
    timeline: list[Step] = field(default_factory=list)
    #: cards per seat when the play starts (after tribute, 买3, 会3/4; 0 for one out of play, e.g.
    #: the revolutionary, as in ``cards_left``), None where unknown
    start_counts: tuple[int | None, ...] = ()

    def to_dict(self) -> GameResultDict:
        return {
            "game": self.number, "line": self.line, "kind": self.kind, "complete": self.complete,
            "places": self.places, "score": self.score, "sweep": self.sweep, "leader": self.leader,
            "revolutionary": self.revolutionary, "gouji_made": self.gouji_made,
            "gouji_suffered": self.gouji_suffered, "burns_won": self.burns_won,
            "burns_lost": self.burns_lost, "lets": self.lets, "cards_left": self.cards_left,
            "bukaidian": self.bukaidian, "actions": self.actions,
            "gouji_plays": [_play_ref_dict(p) for p in self.gouji_plays],
            "burns": [_play_ref_dict(p) for p in self.burns],
        }


@dataclass
class GoujiReplay:
    rules: GoujiRuleset
    diagnostics: list[Diagnostic] = field(default_factory=list)
    games: list[GameResult] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


def score_of(places: list[int], rules: GoujiRuleset) -> tuple[int, int, bool]:
    """(odd, even, 串三户) for a full set of places (§6)."""
    sums = [0, 0]
    for s in range(6):
        sums[s & 1] += PLACE_POINTS[places[s]] if 1 <= places[s] <= 6 else 0
    sweep = False
    for t in (0, 1):
        if {places[s] for s in TEAMS[t]} == {1, 2, 3}:
            sums[t], sums[1 - t] = 12, -12
            sweep = True
    if rules.score == "positive":
        sums = [max(0, x) for x in sums]
    return sums[0], sums[1], sweep


