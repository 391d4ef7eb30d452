"""The declaration fold's values: an event (one ``declare`` line), the
state after some events (:class:`DeclState`, immutable, built by
:func:`start`), the result, and the card and timing checks an event passes
before any policy is asked (SJ203, SJ301, SJ302). The fold itself is
:mod:`replay.declare`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, NamedTuple

from primitives.cards import JOKER_LEVEL, format_cards
from primitives.diagnostics import NO_SPAN, Diagnostic, Span
from replay.bids import Bid
from replay.seats import SEATS

if TYPE_CHECKING:  # pragma: no cover
    from notation.model import Bury
    from replay.ruleset import Ruleset

AFTER_DEAL = 10**9  # draw index of events made after the deal


@dataclass(frozen=True)
class DeclEvent:
    """One ``declare`` line."""

    seat: str                 # "N" | "W" | "S" | "E"
    cards: tuple[int, ...]    # every card this seat has shown after this act (cumulative)
    at: int | None = None     # @k, or None
    span: Span = NO_SPAN
    after_bury: bool = False  # written after a `bury` line (campus 反主抄底)


@dataclass
class DeclResult:
    """What the declarations decide for one hand."""

    trump: int | None                  # 0..3 (S H D C) or 4 (NT); None when undecidable
    declarer: str | None               # seat whose declaration stands at the end
    dealer: str | None                 # the hand's dealer (see module docstring)
    redeal: bool = False               # nobody declared and no_declaration == "redeal"
    rebury: str | None = None          # campus 反主抄底: the seat that must bury again
    level: int | None = None           # attacker_level: the hand's level when an own-level declaration stands
    accepted: list[bool] = field(default_factory=list)
    #: each event's act as the fold read it (:data:`ACTS`): ``declare`` (the first
    #: declaration standing), ``override``, ``reinforce`` (自保), ``partner`` (对家保)
    #: or ``refused``
    acts: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


class Declared(NamedTuple):
    """What a recorded hand's declarations leave (:mod:`replay.hand`, at either
    table): the hand's level, dealer, declarer and trump, a redeal, who must
    bury again (a rebury), each declare line's act, the buries, and whether
    any declaration was read."""

    level: int
    dealer: str | None
    declarer: str | None
    trump: int | None
    redeal: bool
    rebury: str | None
    acts: tuple[str, ...]
    buries: list[Bury]
    declared: bool


@dataclass(frozen=True)
class DeclState:
    """Everything the declaration fold knows after some events (immutable).

    Per-seat tuples are indexed like :data:`SEATS`. Build with :func:`start`.
    """

    ruleset: Ruleset
    level: int
    first_hand: bool
    dealer: str | None                     # later hands: given; first hand: as decided so far
    first_drawer: str
    deal: Mapping[str, tuple[int, ...]] | None = None
    standing: Bid | None = None            # the declaration in force
    first: Bid | None = None               # the first accepted declaration
    bids: tuple[Bid | None, ...] = (None, None, None, None)        # each seat's last accepted bid
    shown: tuple[tuple[int, ...], ...] = ((), (), (), ())           # cards of each seat's last accepted act
    accepted_count: int = 0
    fixed: bool = False                    # tractor97: the suit is fixed
    closed: bool = False                   # a joker pair ended the bidding (standard, tractor97)
    last_time: int = -1                    # draw index of the latest event so far
    rebury: str | None = None              # campus 反主抄底
    alt_level: int | None = None           # attacker_level: the attackers' own level (later hands)
    own_levels: tuple[int, int] | None = None  # declarer_deals: (NS, EW) levels, each seat declares its own

    def bid_of(self, seat: str) -> Bid | None:
        return self.bids[SEATS.index(seat)]

    def shown_by(self, seat: str) -> tuple[int, ...]:
        return self.shown[SEATS.index(seat)]

    def hand_size(self, seat: str) -> int:
        if self.deal is not None and seat in self.deal:
            return len(self.deal[seat])
        return self.ruleset.hand_size


def start(ruleset: Ruleset, level: int, *, first_hand: bool, dealer: str | None,
          first_drawer: str, deal: Mapping[str, tuple[int, ...]] | None = None,
          attacker_level: int | None = None, team_levels: Mapping[str, int] | None = None) -> DeclState:
    """The state before any declaration (arguments as for :func:`resolve_declarations`)."""
    own = None
    if ruleset.declarer_deals and team_levels is not None:
        own = (team_levels["NS"], team_levels["EW"])
    alt = None
    if (ruleset.attacker_level and not first_hand and dealer is not None and attacker_level is not None
            and attacker_level != level and attacker_level != JOKER_LEVEL):
        alt = attacker_level
    # `DeclState(...)` without the frozen dataclass's __init__ (one
    # object.__setattr__ per field): the defaults, then the given fields, in
    # field order as __init__ would set them (as `_evolve` does)
    new: DeclState = object.__new__(DeclState)
    new.__dict__.update(DECL_DEFAULTS, ruleset=ruleset, level=level, first_hand=first_hand,
                        dealer=None if first_hand else dealer, first_drawer=first_drawer, deal=deal,
                        alt_level=alt, own_levels=own)
    return new


#: every field of :class:`DeclState` in field order, with its default (None
#: for the fields without one: :func:`start` gives them)
DECL_DEFAULTS: dict[str, object] = {f.name: None if f.default is MISSING else f.default
                                     for f in fields(DeclState)}


def evolve(st: DeclState, **changes: object) -> DeclState:
    """``dataclasses.replace`` for the fold's hot path: a copy of ``st`` with
    ``changes`` (DeclState has no ``__post_init__`` to run)."""
    new = object.__new__(DeclState)
    new.__dict__.update(st.__dict__, **changes)
    return new


# ---------------------------------------------------------------------------
# card and timing checks
# ---------------------------------------------------------------------------

def _draw_time(st: DeclState, ev: DeclEvent, size: int) -> int:
    """The draw index of ``ev`` (``size``: the seat's hand size, ``st.hand_size(ev.seat)``)."""
    at = ev.at
    if at is None or ev.after_bury or at >= size:
        return AFTER_DEAL
    offset = (SEATS.index(ev.seat) - SEATS.index(st.first_drawer)) % 4
    return (at - 1) * 4 + offset


def _lacking(cards: tuple[int, ...], pool: tuple[int, ...]) -> list[int]:
    """The cards of the multiset ``cards`` (a few) that ``pool`` does not hold, sorted."""
    if len(cards) == 1:  # (the usual declaration: one card)
        return [] if cards[0] in pool else list(cards)
    out: list[int] = []
    for c in set(cards):
        short = cards.count(c) - pool.count(c)
        if short > 0:
            out += [c] * short
    return sorted(out)


def card_checks(st: DeclState, ev: DeclEvent) -> tuple[Diagnostic | None, int]:
    """The first card or timing problem of ``ev`` (None: none) and its draw
    time (:func:`_draw_time`; 0 with a problem)."""
    seat, cards, at = ev.seat, ev.cards, ev.at
    if seat not in SEATS:
        return Diagnostic.at("SJ301", ev.span, f"unknown seat {seat!r} in a declaration"), 0
    if not cards:
        return Diagnostic.at("SJ301", ev.span, f"{seat} declares no cards"), 0
    deal = st.deal
    hand = deal.get(seat) if deal is not None else None
    size = len(hand) if hand is not None else st.ruleset.hand_size  # (st.hand_size(seat), read once)
    if at is not None and not 1 <= at <= size:
        return Diagnostic.at("SJ302", ev.span,
                             f"@{at} is outside {seat}'s hand of {size} cards"), 0
    if hand is not None:
        missing = _lacking(cards, hand)
        if missing:
            return Diagnostic.at("SJ203", ev.span,
                                 f"{seat} declares {format_cards(missing, unicode=True)}"
                                 f" but was not dealt {'it' if len(missing) == 1 else 'them'}"), 0
        if at is not None:
            early = _lacking(cards, hand[:at])
            if early:
                return Diagnostic.at("SJ302", ev.span,
                                     f"{seat} declares {format_cards(early, unicode=True)}"
                                     f" @{at}, before drawing {'it' if len(early) == 1 else 'them'}"
                                     f" (not among {seat}'s first {at} cards)"), 0
    elif at is not None and len(cards) > at:
        return Diagnostic.at("SJ302", ev.span,
                             f"{seat} cannot show {len(cards)} cards @{at}, having drawn only {at}"), 0
    t = _draw_time(st, ev, size)
    if t < st.last_time:
        when = "a declaration made after the deal" if st.last_time >= AFTER_DEAL else \
            f"one made at draw {st.last_time + 1} of the deal"
        return Diagnostic.at("SJ302", ev.span,
                             f"declarations out of draw order: {seat}'s @{at} (draw {t + 1} of the deal)"
                             f" is written after {when}"), 0
    return None, t

def take_declarations(res: DeclResult, number: int, diags: list[Diagnostic], diag: Callable[..., None],
                      dealer_span: Span, first: bool, dealer: str | None, written_dealer: str | None) -> str | None:
    """The declarations' diagnostics added to hand ``number``'s, and the dealer after
    them: the one they make on a first hand (or where none is known yet), unless
    another is written (SJ502); else ``dealer``. Both tables read a hand's
    declarations through this (:mod:`replay.hand`, :mod:`replay.friends`)."""
    for d in res.diagnostics:
        diags.append(Diagnostic(d.code, d.message, d.line, d.column, d.end_line, d.end_column,
                                d.severity, number, None))
    if (first or dealer is None) and res.dealer is not None:
        if written_dealer is not None and written_dealer != res.dealer:
            diag("SJ502", dealer_span, f"dealer written as {written_dealer} but the "
                                       f"declarations make {res.dealer} the dealer")
        else:
            return res.dealer
    return dealer
