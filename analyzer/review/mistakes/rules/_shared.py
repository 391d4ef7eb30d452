"""Helpers the follow rules (SJ601, SJ604, SJ605, SJ606) share.

"Certain" is exact: every hand is known, and no player still to play on
the other side has a legal follow that beats the best play so far (asked of
the engine's :class:`replay.state.HandState` at that play:
:func:`unbeatable_by`).

**The sides as the player knows them** (:func:`known_sides`). With fixed
partners they are known from the start. At a finding-friends table
(``P1``…``Pn``) a player knows a friend only once revealed (by the engine's
:class:`replay.teams.Teams`: the calls the plays so far, the play judged
included, have answered): the dealer and the revealed friends are the
dealer's side; once every call is answered the others are the attackers; a
player outside the dealer's side who holds no copy of a card still called
knows they are an attacker. Anyone else's side is *unknown* (``None``), and
a rule never fires on a guess: a player of unknown side counts as a
possible partner where a partner could spoil the pattern, and as a possible
opponent where an opponent could.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from analyzer.review.mistakes.context import HandContext

if TYPE_CHECKING:  # pragma: no cover
    from replay.results import PlayResult, TrickResult
    from replay.state import HandState

#: are two seats on one side, as a player knows it (None: unknown)
Sides = Callable[[str, str], "bool | None"]


def follows(ctx: HandContext) -> Iterator[tuple[int, TrickResult, int, PlayResult]]:
    """(trick index, trick, k, play) for every follow of a hand whose hands
    are all known (four seats, or a finding-friends table's ``P1``…``Pn``);
    a rule asks ``ctx.state(ti, k)`` (the engine's state before the play)
    once the play's own cards do not rule it out already."""
    if not (ctx.playable and ctx.clean and ctx.all_known and ctx.consistent):
        return
    n = len(ctx.hand.seats)
    for ti, t in enumerate(ctx.hand.tricks):
        if len(t.plays) != n or not t.plays[0].cards:
            continue
        for k in range(1, n):
            yield ti, t, k, t.plays[k]


def known_sides(ctx: HandContext, viewer: str, t_index: int, k: int) -> Sides:
    """Are two seats on one side, as ``viewer`` knows it at play ``k`` of
    trick ``t_index`` (0-based), that play included (see the module doc)?
    Fixed partners, or a context whose states do not carry the hand's
    calls (``ctx.reveals`` unset: only the finding-friends review's
    :class:`analyzer.review.mistakes.friends.FriendsContext` sets it):
    :meth:`HandContext.mates`."""
    if ctx.hand.team is None or not getattr(ctx, "reveals", False):
        return ctx.mates
    st = ctx.state(t_index, k)
    p = ctx.hand.tricks[t_index].plays[k]
    return _sides(st, viewer, (p.seat, tuple(p.cards)))


def _sides(st: HandState, viewer: str, play: tuple[str, tuple[int, ...]]) -> Sides:
    teams = st.teams.copy()   # the engine answers the calls: the plays so far and ``play``
    teams.answer(st.trick_number, [*st.plays, play])
    members = set(teams.members)
    open_cards = {c.card for c in teams.calls if c.trick is None}
    settled = not open_cards
    left = st.holding(viewer) - (Counter(play[1]) if play[0] == viewer else Counter())
    viewer_out = viewer not in members and not any(left[c] for c in open_cards)

    def side(seat: str) -> bool | None:
        if seat in members:
            return True
        if settled or (seat == viewer and viewer_out):
            return False
        return None

    def same(a: str, b: str) -> bool | None:
        sa, sb = side(a), side(b)
        return None if sa is None or sb is None else sa == sb

    return same


def unbeatable_by(st: HandState, seat: str, sides: Sides, *, partners: bool) -> bool:
    """No player still to play in the current trick who may be ``seat``'s
    partner (``partners``; ``seat`` included) — or who may be its opponent
    (not ``partners``) — can beat the best play so far
    (:meth:`replay.state.HandState.can_beat`). A player of unknown side may
    be either (with fixed partners every side is known)."""
    return not any(st.can_beat(s) for s in st.to_play if sides(s, seat) in ((True, None) if partners else
                                                                            (False, None)))
