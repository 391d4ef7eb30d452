"""A declaration at a finding-friends table (5–8 players ``P1``…``Pn``) as a
decision valued from the declarer's own view: the four-seat way
(:mod:`analyzer.review.mistakes.declarations`) with the steps that differ at
such a table.

*The fold.* The engine resolves a table of friends' declarations with
stand-ins (:func:`replay.friends.declare_at_table`): the declarers stand in
for the compass seats ``N W S E`` in the order of their first ``declare``
line (a fifth declarer's lines are refused), under the table's rules with
no partner reinforcement, no draw timing (``@k`` is not read) and no deal.
:class:`replay.friends.StandIns` and :func:`replay.friends.stand_in_rules`
are the engine's own: the draw of every play-out claims the stand-ins line by
line as the engine's fold does for the whole hand (a test checks every record
line's act, the trump and the dealer against the engine's).

*The draw.* One card at a time round the table from the first drawer: the
dealer on a later hand (as the generator deals,
:func:`analyzer.play.generate.generate_match`), on the match's first hand
(no dealer written: the declarations decide who deals) the seat written on
``first``, else ``P1``. A line's draw ``@k`` is its seat's ``k``-th card.
Each seat is offered a declaration by the bot as it draws
(:meth:`analyzer.play.bot.Bot.declaration`, the generator's policy and
offers as :class:`analyzer.play.generate.DrawLoop`: a level card or joker
drawn, or the standing changed since it last looked; a last chance once all
is drawn), through the stand-ins.

*The hand begun* (:func:`begin_friends_option`): the engine's conclusion
(:func:`replay.declare.conclude`: the trump; on the first hand the dealer,
the first declarer; a redeal drops the deal for every option), the dealer
takes the kitty and the bot buries, the dealer calls friends by the bots'
policy (:func:`analyzer.play.generate.call_friends`, the generator's), and
the hand is played out by the bots seeing the team as revealed
(:func:`analyzer.review.mistakes.decisions.play_to_end` with
``friends=True``). The value of an option in a deal: the attackers' final
total with the play-out's final teams, and the declarer's side's points as
that play-out's teams formed (``total − line`` as an attacker, ``line −
total`` on the dealer's team; the level outcome,
:func:`replay.friend_calls.friends_outcome`, signed the same way), as the
finding-friends plays are valued (:class:`analyzer.review.mistakes.friends.SignedRows`).

*The bots' declaring.* The generator deals a table of friends without
declarations (the dealer picks the trump), so the bots' declaring here is the
four-seat policy seen through the stand-ins, with no seat a partner
(``Bot.declaration(..., partners=False)``: the stand-in opposite is overridden
as any other declarer).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Protocol

from analyzer.review.mistakes.decisions import outcome_score, play_to_end
from primitives.cards import LJ, points
from replay.declare import advance, conclude
from replay.declare_state import DeclEvent, DeclState, start
from replay.friend_calls import friends_outcome
from replay.friends import StandIns, stand_in_rules
from replay.order import Order
from replay.state import HandState
from replay.teams import Teams, assign_holders

if TYPE_CHECKING:  # pragma: no cover
    from analyzer.play.bot import Bot
    from analyzer.review.mistakes.context import HandContext
    from notation.model import Declaration


class DeclarationSetting(Protocol):
    """What is read here of :class:`analyzer.review.mistakes.declarations.DeclarationSetting`
    (that module calls this one; a protocol keeps the import one way)."""

    ctx: HandContext
    lines: list[Declaration]
    order: list[str]
    first: bool
    start_level: int

    def position(self, line: Declaration) -> int | None: ...


#: how a friends declaration was valued (``Decision.friends["valued"]``)
VALUED = ("by the bots' play-outs from the declarer's draw (finding friends: the rest of the draw, the bury, "
          "the calls and the play by the bots; no exact window)")
#: what a friends declaration says about how its play-outs' sides were formed
SIDES = ("the teams follow from each play-out (finding friends: the dealer's calls, by the bots' policy, "
         "answered in its play)")


def fold_start(st: DeclarationSetting) -> DeclState:
    """The engine's fold before any line (stand-in rules, no deal, no timing)."""
    return start(stand_in_rules(st.ctx.ruleset), st.start_level, first_hand=st.first, dealer=None,
                 first_drawer="N", deal=None)


def friends_state_before(st: DeclarationSetting, j: int) -> tuple[DeclState, StandIns]:
    """The fold and the stand-ins just before line ``j`` (every earlier line
    read as the engine reads it, a refused one too: it claims its stand-in)."""
    state = fold_start(st)
    ins = StandIns()
    for line in st.lines[:j]:
        if line.seat not in st.order:
            continue                             # not at the table: the engine does not read it
        si = ins.get(line.seat)
        if si is not None:
            state, _ok, _ = advance(state, DeclEvent(si, tuple(line.cards), None))
    return state, ins


class FriendsDrawLoop:
    """The draw at a table of friends, one card at a time round the table, each
    seat offered a declaration by the bot as it draws (the offers of
    :class:`analyzer.play.generate.DrawLoop`), folded through the stand-ins."""

    def __init__(self, st: DeclarationSetting, bot: Bot, full: dict[str, tuple[int, ...]]) -> None:
        self.bot = bot
        self.full = full
        self.level = st.start_level
        self.hs = st.ctx.ruleset.hand_size
        self.order = list(st.order)
        self.state = fold_start(st)
        self.ins = StandIns()
        self.written = 0                         # lines written (a refused one too: the engine reads it)
        self.version = 0                         # bumps when a declaration is accepted
        self.seen = {s: 0 for s in self.order}   # the version each seat last looked at
        self.useful = {s: 0 for s in self.order}  # level cards and jokers drawn so far

    def position(self, i: int) -> tuple[str, int]:
        """The seat that draws the ``i``-th card (0-based) and its count of cards then."""
        n = len(self.order)
        return self.order[i % n], i // n + 1

    def draw(self, i: int) -> tuple[str, int, bool]:
        """The ``i``-th card is drawn: (seat, its count, whether the card can be declared)."""
        seat, k = self.position(i)
        c = self.full[seat][k - 1]
        new = c >= LJ or c % 13 + 2 == self.level
        self.useful[seat] += new
        return seat, k, new

    def write(self, seat: str, cards: tuple[int, ...] | None) -> None:
        """``seat`` writes ``cards`` (None: it passes)."""
        self.seen[seat] = self.version
        if cards is None:
            return
        self.written += 1
        si = self.ins.get(seat)
        if si is None:
            return                               # a fifth declarer: the engine refuses it
        self.state, ok, _ = advance(self.state, DeclEvent(si, tuple(cards), None))
        self.version += ok

    def offer(self, seat: str, k: int, **kw: bool) -> None:
        si = self.ins.get(seat, claim=False)
        if si is None:
            self.seen[seat] = self.version
            return
        self.write(seat, self.bot.declaration(self.state, si, self.full[seat][:k], partners=False, **kw))

    def run(self, begin: int = 0) -> None:
        for i in range(begin, len(self.order) * self.hs):
            seat, k, new = self.draw(i)
            if new or (self.useful[seat] and self.seen[seat] != self.version):
                self.offer(seat, k)

    def last_chance(self) -> None:
        for seat in self.order:
            if self.useful[seat] and (self.seen[seat] != self.version or self.state.standing is None):
                self.offer(seat, self.hs, last_chance=True)


def begin_friends_option(st: DeclarationSetting, j: int, full: dict[str, tuple[int, ...]], kitty: tuple[int, ...],
                         option: tuple[int, ...], seed: str) -> tuple[HandState, Bot, str] | None:
    """Line ``j`` replaced by ``option`` in the deal ``full``/``kitty``: the draw
    finished by the bots, the trump (and on the first hand the dealer) the
    engine concludes, the kitty, the bury and the calls (the generator's
    policy): the state before trick 1, the bots that play on, and the dealer.
    None for a redeal or what the engine or the bots cannot finish."""
    from analyzer.play.bot import Bot
    from analyzer.play.generate import GenerationError, call_friends
    ctx, h = st.ctx, st.ctx.hand
    rs = ctx.ruleset
    bot = Bot(rs, random.Random(seed))
    bot.new_hand()
    line = st.lines[j]
    dec = st.position(line)
    assert dec is not None
    at: dict[int, list[int]] = {}
    last = 0
    for i, prev in enumerate(st.lines[:j]):
        if prev.seat not in st.order:
            continue                             # not at the table: the engine does not read it
        p = st.position(prev)
        last = min(dec, max(last, p if p is not None else last))   # an untimed line: with the one before it
        at.setdefault(last, []).append(i)
    try:
        loop = FriendsDrawLoop(st, bot, full)
        for i in range(dec + 1):
            seat, _k, _new = loop.draw(i)
            for x in at.get(i, ()):
                loop.write(st.lines[x].seat, tuple(st.lines[x].cards))
            loop.seen[seat] = loop.version   # the record shows what the drawing seat did: passed, or its line
        loop.write(line.seat, option or None)
        loop.run(dec + 1)
        loop.last_chance()
        res = conclude(loop.state, kitty=kitty, declare_none=not loop.written, recorded=bool(loop.written))
        if res.redeal or res.trump is None:
            return None
        dealer = loop.ins.back(res.dealer) if st.first else h.dealer
        if dealer is None or dealer not in h.levels:
            return None
        level = h.levels[dealer]
        order = Order.for_ruleset(level, res.trump, rs)
        holdings = {s: Counter(full[s]) for s in st.order}
        holdings[dealer].update(kitty)
        buried = bot.bury(list(holdings[dealer].elements()), order, rs.kitty)
        holdings[dealer].subtract(buried)
        holdings = {s: +c for s, c in holdings.items()}
        calls = call_friends(rs, bot.rng, order, level, holdings[dealer], buried)
        seats = tuple(h.seats)
        held = rs.friend_rule == "held"
        if held:   # seed 001: the holder nearest the dealer
            i0 = seats.index(dealer)
            assign_holders(calls, list(seats[i0:] + seats[:i0]), holdings)
        state = HandState(rs, order, holdings, leader=dealer, dealer=dealer, seats=seats,
                          kitty_points=points(buried), teams=Teams.forming(dealer, calls, held=held))
    except (GenerationError, ValueError, IndexError, KeyError, AssertionError):
        return None
    return state, bot, dealer


def play_friends_option(st: DeclarationSetting, j: int, full: dict[str, tuple[int, ...]], kitty: tuple[int, ...],
                        option: tuple[int, ...], seed: str) -> tuple[int, bool, float] | None:
    """(attackers' final total, the declarer on the dealer's team at the end,
    the level score from the dealers' side) of line ``j`` replaced by
    ``option`` in the deal ``full``/``kitty``, played out by the bots; None
    for a redeal or a continuation that cannot be finished."""
    got = begin_friends_option(st, j, full, kitty, option, seed)
    if got is None:
        return None
    state, bot, dealer = got
    end = play_to_end(state, None, bot, friends=True)
    if end is None:
        return None
    h = st.ctx.hand
    try:
        o = friends_outcome(st.ctx.ruleset, h.levels, dealer, tuple(end.team), tuple(h.seats), end.final_points)
        level = outcome_score(o)
    except (KeyError, ValueError):
        level = 0.0
    return end.final_points, end.defends(st.lines[j].seat), level


__all__ = ["fold_start", "friends_state_before", "FriendsDrawLoop",
           "begin_friends_option", "play_friends_option", "SIDES", "VALUED"]
