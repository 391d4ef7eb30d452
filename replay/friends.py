"""Finding friends (找朋友): tables of 4–8 players whose teams form during the hand.

Seed 001 §4 (選對家) has the dealer name a card: its holder is the dealer's
partner (two holders: the one nearest the dealer in play order; the dealer
holding both plays alone). shengji.io's "Finding Friends" generalises it: the
dealer calls friends as "the k-th ♥A played"; whoever plays that copy joins
(the dealer playing it uses the call up), every player has a level of their
own, the attackers' points are those of the tricks won by the players outside
the dealer's team *as it stands at the end*, each player advances on their own,
and a dealer team left smaller than called that wins earns a bonus level.

:func:`needs_friends` tells such a record, :func:`table_seats` its table; a
hand is replayed by the one hand replay of every table (:func:`replay.hand.replay_hand`,
driven by the match flow, :func:`replay.match.replay_match`), the teams a
:class:`replay.teams.Teams` that forms as the calls are answered
(:mod:`replay.friend_calls`: the calls, reveals and score). The steps that
differ at such a table are here: each player's level (:func:`player_levels`)
and the declarations resolved with stand-ins (:func:`declare_at_table`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from primitives.cards import rank_name
from primitives.diagnostics import Diagnostic
from replay.declare import resolve_declarations
from replay.declare_state import Declared, DeclEvent, take_declarations
from replay.hand_tricks import trump_text
from replay.order import TRUMP, Order
from replay.results import DiagFn
from replay.ruleset import Ruleset, preset
from replay.seats import NUMBERED_SEATS, SEATS
from replay.trick import lead_suit
from replay.units import decompose

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Declaration, Hand, Play, Record
    from replay.declare_state import DeclResult

#: the table's seat names (the engine's one seat definition, replay.seats)
COMPASS = SEATS
NUMBERED = NUMBERED_SEATS


def table_seats(record: Record, rs: Ruleset) -> tuple[str, ...]:
    """The seats of the record's table in play order: ``N W S E`` for four
    players written with compass seats, else ``P1``…``Pn``."""
    if rs.players == 4 and not _uses_numbered(record):
        return COMPASS
    return NUMBERED[:rs.players]


def _uses_numbered(record: Record) -> bool:
    for hand in record.hands:
        for sc in hand.deal:
            return sc.seat.startswith("P")
        for t in hand.tricks:
            for p in t.plays:
                return p.seat.startswith("P")
        if hand.dealer and hand.dealer != "?":
            return hand.dealer.startswith("P")
    return False


def _players_levels(lv: object) -> bool:
    """Is a hand's ``levels`` line the players' own levels (``PlayerLevels``, with a
    ``levels`` map) rather than the teams'? A pydantic model answers from its
    fields (``hasattr`` of a missing field costs a raised error, ~1.8 µs a hand)."""
    if lv is None:
        return False
    kind = type(lv)
    got = _PLAYER_LEVELS.get(kind)
    if got is None:  # (a pydantic class's model_fields costs ~1 µs a read: asked once per class)
        fields = getattr(kind, "model_fields", None)
        got = "levels" in fields if isinstance(fields, dict) else hasattr(lv, "levels")
        if isinstance(fields, dict):
            _PLAYER_LEVELS[kind] = got
    return got


_PLAYER_LEVELS: dict[type, bool] = {}


def needs_friends(record: Record) -> bool:
    """Does the record hold finding-friends content (a numbered seat anywhere,
    players' own levels, friend lines)? Such a record is replayed here even
    under fixed-partner rules (with SJ526)."""
    compass = _COMPASS_SET
    for hand in record.hands:
        if hand.friends or _players_levels(hand.levels):
            return True
        if hand.dealer not in compass and hand.dealer not in (None, "?"):
            return True
        if hand.first is not None and hand.first not in compass:
            return True
        # every seat written in the hand, gathered in one pass (the plays are most of them)
        if not compass.issuperset([p.seat for t in hand.tricks for p in t.plays]):
            return True
        if not compass.issuperset([sc.seat for sc in hand.deal]) or not compass.issuperset(
                [ev.seat for ev in hand.events]):
            return True
    return False


_COMPASS_SET = frozenset(COMPASS)


# -- the steps of a hand that differ at a table of friends (the hand: replay.hand) ------------

def _levels_text(levels: dict[str, int], seats: Sequence[str]) -> str:
    return " ".join(f"{s} {rank_name(levels[s])}" for s in seats if s in levels)


def player_levels(hand: Hand, number: int, rs: Ruleset, seats: tuple[str, ...], levels: dict[str, int] | None,
                  diag: DiagFn) -> dict[str, int]:
    """Each player's level the hand is played at: as the previous hands leave
    them, else as written (SJ524 where the two disagree, or the levels line
    does not list the table's players; SJ502 for hand 1 without one)."""
    written = _written_levels(hand, seats, diag)
    if levels is None:
        if written is None:
            levels = {s: rs.first_level for s in seats}
            if number == 1:
                diag("SJ502", hand.span, f"hand 1 gives no `levels` line; assuming every player at "
                                         f"{rank_name(rs.first_level)}")
        else:
            levels = written
    elif written is not None and written != levels:
        wrong = [s for s in seats if written.get(s) != levels.get(s)]
        diag("SJ524", hand.levels.span if hand.levels else None,
             "levels written wrong: " + ", ".join(f"{s} {rank_name(written[s])} (the previous hands give "
                                                  f"{rank_name(levels[s])})" for s in wrong))
        levels = written
    return levels


def _written_levels(hand: Hand, seats: tuple[str, ...], diag: DiagFn) -> dict[str, int] | None:
    lv = hand.levels
    if lv is None:
        return None
    if hasattr(lv, "levels"):
        written = dict(lv.levels)
        strangers = [s for s in written if s not in seats]
        missing = [s for s in seats if s not in written]
        if strangers or missing:
            parts = []
            if strangers:
                parts.append(f"{', '.join(strangers)} {'does' if len(strangers) == 1 else 'do'} not sit here")
            if missing:
                parts.append(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing")
            diag("SJ524", lv.span, f"the levels line does not list the table's players "
                                   f"({' '.join(seats)}): {'; '.join(parts)}")
        return {s: written.get(s, 2) for s in seats}
    if seats == COMPASS:
        return {"N": lv.ns, "S": lv.ns, "W": lv.ew, "E": lv.ew}
    diag("SJ524", lv.span, "team levels (`NS`/`EW`) at a table of numbered seats: write each "
                           "player's level, like `levels P1 2 P2 2 …`")
    return {s: lv.ns for s in seats}


def declare_at_table(hand: Hand, number: int, rs: Ruleset, seats: tuple[str, ...], levels: dict[str, int],
                     dealer: str | None, written_dealer: str | None, first: bool, diags: list[Diagnostic],
                     diag: DiagFn) -> Declared:
    """The declarations at a table of friends (:func:`_declarations`) and the
    dealer they make (else the first player to play; the hand is played at
    the dealer's own level). No rebury at such a table."""
    seat_set = set(seats)
    level = levels[dealer] if dealer is not None else None
    declarer = None
    trump = hand.trump
    redeal = False
    decl_events = [ev for ev in hand.events if ev.kind == "declare" and ev.seat in seat_set]
    acts: tuple[str, ...] = ()
    if decl_events or hand.declare_none is not None:
        if level is None:
            level = levels[decl_events[0].seat] if decl_events else levels[seats[0]]
        res = _declarations(rs, hand, decl_events, level, first, dealer, seats)
        declarer = res.declarer
        acts = tuple(res.acts)
        dealer = take_declarations(res, number, diags, diag, hand.dealer_span, first, dealer, written_dealer)
        redeal = res.redeal
        if res.trump is not None:
            if trump is not None and trump != res.trump:
                diag("SJ303", hand.trump_span, f"trump written as {trump_text(trump)} but the "
                                               f"declarations make it {trump_text(res.trump)}")
            elif trump is None:
                trump = res.trump
    if dealer is None:
        dealer = next((p.seat for t in hand.tricks for p in t.plays if p.seat in seat_set), None)
    level = levels[dealer] if dealer is not None else levels[seats[0]]
    return Declared(level, dealer, declarer, trump, redeal, None, acts, hand.buries, bool(decl_events))


# -- declarations -------------------------------------------------------------------------------

def stand_in_rules(rs: Ruleset) -> Ruleset:
    """The rules a table of friends' declarations are folded under: four stand-in
    compass seats (:class:`StandIns`), no partner reinforcement."""
    return rs.model_copy(update={"partner_reinforce": False, "partners": "fixed", "players": 4})


class StandIns:
    """Each declarer's stand-in compass seat, in the order of their first line (at most
    four: a fifth declarer has none and is refused). The review's draw of a friends
    hand claims them line by line as this fold does for the whole hand."""

    def __init__(self) -> None:
        self.of: dict[str, str] = {}

    def get(self, seat: str, *, claim: bool = True) -> str | None:
        """``seat``'s stand-in (a new one claimed when it writes a line, if ``claim``); None past four."""
        got = self.of.get(seat)
        if got is not None or len(self.of) >= 4:
            return got
        new = COMPASS[len(self.of)]
        if claim:
            self.of[seat] = new
        return new

    def back(self, stand_in: str | None) -> str | None:
        """The seat a stand-in stands for (None: none does)."""
        return next((s for s, x in self.of.items() if x == stand_in), None)


def _declarations(rs: Ruleset, hand: Hand, events: list[Declaration], level: int, first: bool, dealer: str | None,
                  seats: tuple[str, ...]) -> DeclResult:
    """The declarations of a table of any size, resolved by :func:`replay.declare.resolve_declarations`.

    That resolver knows four seats; only a seat's identity matters to it here
    (no partner reinforcement, no ``@k`` draw order at a table of friends), so
    the declarers stand in for the first four compass seats in order of their
    first declaration and the answer is mapped back."""
    stand_ins = StandIns()
    for ev in events:
        stand_ins.get(ev.seat)
    mapping = stand_ins.of
    back = {v: k for k, v in mapping.items()}
    local = stand_in_rules(rs)
    decl: list[DeclEvent] = []
    after_bury = False
    included: list[bool] = []        # each declare line of the hand: read by the resolver?
    for e in hand.events:
        if e.kind == "bury":
            after_bury = True
        elif e in events and e.seat in mapping:
            decl.append(DeclEvent(mapping[e.seat], tuple(e.cards), None, e.span, after_bury))
            included.append(True)
        else:
            included.append(False)
    stand_in_dealer = mapping.get(dealer) if dealer is not None else None
    if dealer is not None and stand_in_dealer is None:
        free = [c for c in COMPASS if c not in back]
        if free:
            stand_in_dealer = free[0]
            back[stand_in_dealer] = dealer
    res = resolve_declarations(local, level, decl, first_hand=first, dealer=stand_in_dealer,
                               first_drawer=stand_in_dealer or "N", deal=None, kitty=hand.kitty,
                               declare_none=hand.declare_none is not None)
    seat_word = re.compile(r"\b([NWSE])\b")

    def rename(text: str) -> str:
        return seat_word.sub(lambda m: back.get(m.group(1), m.group(1)), text)

    res.diagnostics[:] = [Diagnostic(d.code, rename(d.message), d.line, d.column, d.end_line, d.end_column,
                                     d.severity) for d in res.diagnostics]
    read = iter(res.acts)
    res.acts = [next(read, "refused") if inc else "refused" for inc in included]
    res.declarer = back.get(res.declarer, res.declarer) if res.declarer else None
    res.dealer = back.get(res.dealer, res.dealer) if res.dealer else None
    return res


# -- friend calls -------------------------------------------------------------------------------

# -- score and levels ---------------------------------------------------------------------------------

__all__ = ["table_seats", "needs_friends", "player_levels", "declare_at_table", "infer_trump", "stand_in_rules",
           "StandIns", "COMPASS", "NUMBERED"]


def infer_trump(said: Iterable[tuple[Sequence[Play], str]], level: int) -> int | None:
    """The one trump (0..3, NT = 4) at ``level`` under which every stated trick
    winner could win at all — their play is of the led suit or all trump, with
    the lead's structure (a log that names winners but not the trump); None
    when no trump or several fit. ``said``: ``(plays, winner seat)`` per trick."""
    from replay.units import cover
    fits = []
    for trump in range(5):
        order = Order.for_ruleset(level, trump, _INFER_RULES)
        ok = True
        for plays, winner in said:
            lead = tuple(plays[0].cards)
            win = next((p for p in plays if p.seat == winner), None)
            if win is None or not lead:
                continue
            if win is plays[0]:
                continue
            suit = lead_suit(lead, order)
            got = lead_suit(tuple(win.cards), order)
            if suit is None or got is None or (got != suit and got != TRUMP) or len(win.cards) != len(lead):
                ok = False
                break
            shape = [u.shape for u in decompose(lead, order)]
            if cover(shape, win.cards, order) is None:
                ok = False
                break
        if ok:
            fits.append(trump)
    return fits[0] if len(fits) == 1 else None


#: the rules :func:`infer_trump` orders the cards by
_INFER_RULES = preset("shengji-io-friends")
