"""Declaring trump (亮主 / 反主): which declarations take effect, the trump, the dealer.

RULES.md §4 and §8b are the contract; seeds 000 (standard), 001 (tractor97),
002 (campus) and 004 (titanic) are the sources. This module is pure: no I/O,
diagnostics are collected, never raised.

Incremental API (a fold)
========================
:func:`start` builds a :class:`DeclState`; :func:`advance` applies one
:class:`DeclEvent` and returns ``(new_state, accepted, diagnostics)``;
:func:`conclude` turns the final state into a :class:`DeclResult`.
:func:`resolve_declarations` is exactly ``start`` + ``advance`` over the events
+ ``conclude``. A generator dealing one card at a time keeps a ``DeclState``,
asks :func:`legal_declarations` / :func:`can_declare` what a seat may show now,
and calls :func:`advance` with the event it chose.

Reading a ``declare`` line (cumulative sets)
============================================
A ``declare`` line lists every card the seat has shown after that act
(NOTATION "Declarations"). Let *prev* be the cards of the seat's last
**accepted** act (a refused act took no effect and is forgotten) and *new* the
cards written now.

* If *new* contains *prev* (as a multiset), the seat **adds** ``new - prev``;
  the declaration it makes is the strongest valid declaration unit inside
  *new* that contains every added card (ties: the one with more cards). So
  ``H2`` → ``H2 H2`` is the pair ``♥2♥2``; ``S9`` → ``S9 H9 H9`` is the pair
  ``♥9♥9`` (a new declaration next to the old card); campus ``H2 BJ`` →
  ``H2 BJ H2`` is ``♥2♥2 + BJ`` and ``C2 C2 LJ`` → ``C2 C2 LJ LJ`` is the
  LJ pair.
* Otherwise the whole of *new* is a fresh declaration by that seat
  (``S9`` → ``H9 H9`` is the pair ``♥9♥9``).
* A **reinforcement** (自保) is a declaration by the same seat of *more copies
  of the same level card* as the seat's own last accepted declaration, written
  as an extension of it (``S9`` → ``S9 S9``). A **partner reinforcement**
  (对家保) is a single level card equal to the partner's accepted single
  (the partner writes just ``S9``); it counts as a pair of that card declared by
  the reinforcing seat. Every other declaration is a **new declaration**
  (a first declaration, an override 反主, or a self-override 自反 when the
  seat's own declaration is standing).
* A declaration unit is ``n`` copies of one level card (rank == level), or
  ``n >= 2`` copies of one joker (LJ or BJ: NT); campus adds exactly one
  matching joker to the level card(s). A single joker declares nothing;
  ``LJ BJ`` is not a joker pair *(reading: jokers must be identical)*.

Policies (``ruleset.declaration``)
==================================
``standard`` (seed 000)
    A single level card declares its suit. A pair overrides a single (反主),
    any suit, the same suit included *(reading)*. The original declarer may
    reinforce (自保); a reinforced pair is stronger than a plain pair (seed 000:
    after B's ♥9♥9, A adding ♠9 changes back to spades), unless
    ``reinforce_after_overridden`` is off and someone else's declaration now
    stands. A joker pair declares NT and ends the bidding; it is allowed over
    any declaration, one's own included *(reading)*. A self-override
    (own single → a pair of another suit) needs ``self_override``. A pair
    cannot override a pair. ``partner_reinforce`` (a tractor97 switch) also
    works here: it has the strength of a reinforcement. Strength with 1–4
    decks *(reading: more copies = stronger)*: a level tuple of ``n`` copies
    is ``(n, 0)``, a reinforced one ``(n, 1)``, any joker tuple beats them all
    and ends the bidding. With one deck no pair exists: the first single stands.
``tractor97`` (seed 001)
    The first single sets the suit (a later single, other than the partner's
    second copy under ``partner_reinforce``, is refused). The first of
    reinforce (自保) / partner-reinforce (对家保) / override with a pair (反主)
    / self-override (自反, needs ``self_override``) / a direct pair **fixes**
    the suit; after that only a joker pair (``joker_override``, 反无将) changes
    it, to NT, and ends the bidding. A joker pair may also be the first
    declaration *(reading: "無論之前亮出的級牌花色為何")*.
``campus`` (seed 002)
    A declaration is one level card + a joker of its colour (BJ with ♥/♦, LJ
    with ♠/♣); a level pair + that joker may be declared at once (定主). An
    override is a level pair + matching joker or a joker pair (NT) in the
    strict order ♦ < ♣ < ♥ < ♠ < LJ pair < BJ pair, strictly higher than the
    standing override/定主; any override beats a plain declaration; a joker pair
    may not be the first declaration. The declarer may override only after
    someone else has *(reading, generalised: nobody overrides a declaration of
    their own that still stands)*. After the bury (``after_bury``) only an
    override is possible and only on a later hand (反主抄底: the overrider
    reburies, ``DeclResult.rebury``, the dealer stays); on the first hand it is
    refused (反主反打 must come before the kitty is taken).
``titanic`` (seed 004)
    single < pair < joker pair (NT) < triple < joker triple (NT): a level tuple
    of ``n`` is ``2n - 1``, a joker tuple of ``n`` is ``2n``; a new declaration
    must be strictly stronger; anyone may declare, the same seat included.
``ladder`` (RULES §8b: shengji.fly.dev, 80fen)
    strength ``(copies, kind)`` with kind level 0 < LJ 1 < BJ 2, so with two
    decks: single 1 < level pair 2 < LJ pair 3 < BJ pair 4; strictly stronger
    wins. ``ladder_self: any``: the standing bidder may overcall itself in any
    way; ``reinforce_only`` (80fen): the standing bidder may only add copies of
    its own level card (single → pair of the same suit); no self-counter, and
    nothing after its own joker pair; ``reinforce`` (shengji.io,
    ``mechanics/src/bidding.rs`` ``valid_bids`` under ReinforceWhileWinning):
    the standing bidder may only bid more copies of the card it bid, a joker
    pair included. With 3–4 decks a joker pair is overcalled by a big-joker
    pair or by three copies of anything.
``botzone`` (RULES §8b)
    First a call with one level card, then at most one overcall with a level
    pair or a joker pair (NT), by anyone (the Botzone judge does not restrict
    the caller; the caller's own pair is simply the one overcall, it has no
    reinforcement strength). Every accepted bid makes the bidder dealer.

Dealer and the first hand
=========================
Later hands keep the given dealer (``botzone`` too: *reading*, RULES speaks of
one-hand matches). On the first hand: ``first_dealer: last`` → the seat of the
standing declaration at the end (for a partner reinforcement that is the
reinforcing partner, *reading*: the last successful act); ``first`` → the first
accepted declarer. ``campus`` ignores the option: the first declarer deals and
every pre-bury override moves the deal to the overrider (反主反打), i.e. the
last accepted declarer. ``botzone``: every accepted bid → the bidder.
With nobody declaring on the first hand and a trump that does not need a
redeal (``kitty_card``, ``kitty_first``, ``no_trump``) the first drawer deals
*(reading; 80fen and shengji.fly.dev do so)*.

Nobody declares
===============
``declare none`` written, or events written but none accepted *(reading: an
invalid declaration takes no effect)*: ``no_declaration`` applies:
``redeal`` → ``DeclResult.redeal``; ``kitty_card`` → the suit of the kitty's
3rd card, jokers skipped to the next card; ``kitty_first`` → the first
non-joker kitty card; only jokers left (or a kitty shorter than 3 for
``kitty_card``) → NT *(reading; seed 001 mentions a variant where a joker means
NT)*; ``no_trump`` → NT. Without a kitty the kitty modes give ``trump=None``.
``first_hand_undeclared: redeal`` (shengji.io) redeals a first hand nobody
declares on whatever ``no_declaration`` says (its kitty card needs a dealer).
No events and no ``declare none``: declarations are unrecorded, ``trump=None``
and no diagnostics. At the ``Joker`` level the hand is always NT and every
declaration is refused (SJ301).

Seed variants (options, off in the presets)
===========================================
``declare_joker`` (seed 000 打法差异): every declaration shows one joker (either)
with its level card(s), overrides too; a joker pair still declares NT.
``attacker_level`` (seeds 000 and 002 正常报主): on a later hand an attacker may
declare with their own team's level card instead of the dealer's; when such a
declaration stands at the end the deal passes to that attacker and the hand is
played at the attackers' level (``DeclResult.level``); one at the dealer's
level leaves the deal where it is. *(Reading: the sources allow it only when
neither dealer can declare; the engine does not check what the dealers could
have shown.)* ``kitty_joker: no_trump`` (seed 001, 有些遊戲規定若翻到鬼牌，即視為無主):
under ``kitty_card``/``kitty_first`` a joker turned up means NT instead of
turning the next card.

Checks
======
SJ301 weak or disallowed declaration (the message says why), including cards
that are neither level cards nor jokers and ``declare none`` contradicted by
``declare`` lines; SJ203 a card the seat was not dealt (``deal`` given); SJ302
``@k`` beyond the hand size, declared cards not among the seat's first ``k``
cards (or more cards than ``k`` without a deal), and events out of draw order
(the draw index of a seat's ``k``-th card is ``(k-1)*4 + offset`` from the
first drawer; events without ``@k``, at ``@hand_size``, or after the bury
count as after the deal). An event with a diagnostic is not accepted; card
and timing checks come first and, when they fail, the policy is not consulted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from primitives.cards import (
    BJ,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JOKER_LEVEL,
    LJ,
    SPADES,
    SUIT_SYMBOLS,
    format_cards,
    rank_name,
    suit_of,
    to_str,
)
from primitives.diagnostics import NO_SPAN, Diagnostic, Span
from replay.order import NT
from replay.seats import SEATS, Seat

if TYPE_CHECKING:  # pragma: no cover
    from replay.ruleset import Ruleset

#: seats in play/deal order (counter-clockwise): the engine's one definition (replay.seats)
_AFTER_DEAL = 10**9  # draw index of events made after the deal


def partner_of(seat: str) -> str:
    """The seat opposite ``seat``."""
    return Seat[seat].partner().name


# ---------------------------------------------------------------------------
# events, results, units, bids
# ---------------------------------------------------------------------------

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


class DeclareGroup(NamedTuple):
    """One declaration unit: ``copies`` × ``card`` (+ campus ``joker``)."""

    card: int               # a level card, or LJ/BJ for a joker tuple
    copies: int
    joker: int | None = None

    @property
    def cards(self) -> tuple[int, ...]:
        extra = () if self.joker is None else (self.joker,)
        return (self.card,) * self.copies + extra

    @property
    def is_joker_tuple(self) -> bool:
        return self.card >= LJ

    @property
    def trump(self) -> int:
        return NT if self.card >= LJ else suit_of(self.card)


@dataclass(frozen=True)
class Bid:
    """An accepted declaration: who, which unit, and how it came about.

    ``how`` is ``"declare"`` (a new declaration: first, override, self-override),
    ``"reinforce"`` (自保) or ``"partner"`` (对家保; ``unit`` is then the combined
    pair, of which ``seat`` showed one card).
    """

    seat: str
    unit: DeclareGroup
    how: str = "declare"
    after_bury: bool = False

    @property
    def trump(self) -> int:
        return self.unit.trump


# ---------------------------------------------------------------------------
# state
# ---------------------------------------------------------------------------

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
    new.__dict__.update(_DECL_DEFAULTS, ruleset=ruleset, level=level, first_hand=first_hand,
                        dealer=None if first_hand else dealer, first_drawer=first_drawer, deal=deal,
                        alt_level=alt, own_levels=own)
    return new


#: every field of :class:`DeclState` in field order, with its default (None
#: for the fields without one: :func:`start` gives them)
_DECL_DEFAULTS: dict[str, object] = {f.name: None if f.default is MISSING else f.default
                                     for f in fields(DeclState)}


# ---------------------------------------------------------------------------
# spelling (messages)
# ---------------------------------------------------------------------------

def _c(card: int) -> str:
    return to_str(card, unicode=True)


def describe(unit: DeclareGroup) -> str:
    """``♠2``, ``a pair of ♠2``, ``three ♠2``, ``a pair of BJ`` (+ `` + BJ`` for campus)."""
    name = _c(unit.card)
    base = {1: name, 2: f"a pair of {name}", 3: f"three {name}", 4: f"four {name}"}.get(
        unit.copies, f"{unit.copies} × {name}")
    if unit.joker is not None:
        base += f" + {_c(unit.joker)}"
    if unit.is_joker_tuple:
        base += " (NT)"
    return base


def _who(bid: Bid) -> str:
    if bid.how == "reinforce":
        return f"{bid.seat}'s reinforced {describe(bid.unit).removeprefix('a ')}"
    if bid.how == "partner":
        return f"{bid.seat}'s {describe(bid.unit).removeprefix('a ')} (with the partner's card, 对家保)"
    return f"{bid.seat}'s {describe(bid.unit).removeprefix('a ')}"


# ---------------------------------------------------------------------------
# units: what a set of cards declares
# ---------------------------------------------------------------------------

def _is_level_card(card: int, level: int) -> bool:
    return card < LJ and card % 13 + 2 == level


def campus_joker(suit: int) -> int:
    """The joker that goes with a level card of ``suit`` under campus: BJ red, LJ black."""
    return BJ if suit in (HEARTS, DIAMONDS) else LJ


def _units(counts: Counter[int], level: int, policy: str, joker: bool | str = False) -> list[DeclareGroup]:
    """Every declaration unit the multiset ``counts`` contains under ``policy``
    (``joker``: ``declare_joker``, a level card goes with either joker; ``"colour"``:
    with the joker of its colour, ``joker_colour``)."""
    out: list[DeclareGroup] = []
    for card, n in counts.items():
        if card >= LJ:
            out.extend(DeclareGroup(card, k) for k in range(2, n + 1))
        elif _is_level_card(card, level):
            if policy == "campus":
                j = campus_joker(suit_of(card))
                if counts[j] >= 1:
                    out.extend(DeclareGroup(card, k, j) for k in range(1, n + 1))
            elif joker:
                for j in ((campus_joker(suit_of(card)),) if joker == "colour" else (LJ, BJ)):
                    if counts[j] >= 1:
                        out.extend(DeclareGroup(card, k, j) for k in range(1, n + 1))
            else:
                out.extend(DeclareGroup(card, k) for k in range(1, n + 1))
    return out


def _why_not_unit(cards: Counter[int], level: int, policy: str, joker: bool | str = False) -> str:
    """Why ``cards`` is not one declaration (they are all level cards or jokers)."""
    levels = [c for c in cards if c < LJ]
    jokers = [c for c in cards if c >= LJ]
    if joker and policy != "campus" and levels and not jokers:
        return "declare_joker is on: a level card is declared together with a joker (seed 000)"
    if joker == "colour" and policy != "campus" and len({suit_of(c) for c in levels}) == 1:
        j = campus_joker(suit_of(levels[0]))
        if cards[j] == 0:
            return (f"joker_colour is on: {SUIT_SYMBOLS[suit_of(levels[0])]} is declared with "
                    f"{to_str(j)}, the joker of its colour")
    if policy == "campus":
        if len(set(levels)) == 1 and len({suit_of(c) for c in levels}) == 1:
            s = suit_of(levels[0])
            j = campus_joker(s)
            if cards[j] == 0:
                return (f"campus needs a matching joker: {SUIT_SYMBOLS[s]} goes with "
                        f"{to_str(j)}")
        if not levels and len(jokers) == 1 and cards[jokers[0]] == 1:
            return "under campus a joker alone declares nothing (a level card goes with it)"
        return (f"{format_cards(sorted(cards.elements()), unicode=True)} is not one declaration: "
                f"campus shows a level card (or pair) + its joker, or a joker pair")
    if not levels and len(jokers) == 1 and cards[jokers[0]] == 1:
        return "a single joker declares nothing (a joker pair declares NT)"
    return (f"{format_cards(sorted(cards.elements()), unicode=True)} is not one declaration: "
            f"show copies of one level card, or a joker pair")


def _read(state: DeclState, seat: str, cards: tuple[int, ...],
          shown: tuple[int, ...]) -> tuple[DeclareGroup | None, bool, str]:
    """The unit ``seat`` declares by writing ``cards`` after its ``shown`` cards
    (``state.shown_by(seat)``) → ``(unit, extends_prev, why_not)``."""
    rs = state.ruleset
    level = state.level
    own = state.own_levels
    if own is not None:       # declarer_deals: every seat declares with its own team's level
        level = own[0] if seat in ("N", "S") else own[1]
    alt = state.alt_level
    if alt is not None and partner_of(seat) != state.dealer and seat != state.dealer and any(
            _is_level_card(c, alt) for c in cards):
        level = alt           # attacker_level: an attacker shows their own team's level card
    return _read_cards(cards, shown, seat, level, rs.declaration, rs.decks, _joker_mode(rs))


def _joker_mode(rs: Ruleset) -> bool | str:
    """How a level card goes with a joker: not at all (False), with either (True,
    ``declare_joker``), or with the joker of its colour (``"colour"``, ``joker_colour``)."""
    if rs.declare_joker and rs.joker_colour:
        return "colour"
    return rs.declare_joker


@lru_cache(maxsize=8192)
def _read_cards(cards: tuple[int, ...], shown: tuple[int, ...], seat: str, level: int, policy: str,
                decks: int, joker: bool | str = False) -> tuple[DeclareGroup | None, bool, str]:
    """:func:`_read` for ``cards`` after the seat's ``shown`` cards (a pure
    function of its arguments: cached, as the same few declarations recur)."""
    cur = Counter(cards)
    for c in cur:
        if not (c >= LJ or _is_level_card(c, level)):
            return None, False, (f"{_c(c)} is neither a level card ({rank_name(level)}) nor a joker"
                                 f" and cannot be declared")
    for c, n in cur.items():
        if n > decks:
            return None, False, (f"{n} × {_c(c)} shown, but {decks} deck"
                                 f"{'s hold' if decks > 1 else ' holds'} only {decks}")
    prev = Counter(shown)
    extends = bool(prev) and cur >= prev
    added = cur - prev if extends else cur
    if not added:
        return None, extends, f"{seat} shows nothing new ({format_cards(cards, unicode=True)} again)"
    cands = [u for u in _units(cur, level, policy, joker) if Counter(u.cards) >= added]
    if not cands:
        return None, extends, _why_not_unit(added, level, policy, joker)
    best = max(cands, key=lambda u: (_base_key(u, policy), len(u.cards)))
    return best, extends, ""


# ---------------------------------------------------------------------------
# strength keys
# ---------------------------------------------------------------------------

_CAMPUS_ORDER = {DIAMONDS: 0, CLUBS: 1, HEARTS: 2, SPADES: 3}


def _base_key(u: DeclareGroup, policy: str) -> tuple[int, ...]:
    """Strength of a fresh unit under ``policy`` (higher is stronger)."""
    if policy == "titanic":
        return (2 * u.copies,) if u.is_joker_tuple else (2 * u.copies - 1,)
    if policy == "ladder":
        return (u.copies, 0 if not u.is_joker_tuple else (1 if u.card == LJ else 2))
    if policy == "campus":
        if u.is_joker_tuple:
            return (1, 4 if u.card == LJ else 5)
        return (0, 0) if u.copies == 1 else (1, _CAMPUS_ORDER[suit_of(u.card)])
    if policy == "tractor97":
        return (3,) if u.is_joker_tuple else (min(u.copies, 2),)
    if policy == "botzone":
        return (min(u.copies, 2),)
    if policy == "first":
        return (1,) if u.is_joker_tuple else (0,)
    # standard
    return (99, 0) if u.is_joker_tuple else (u.copies, 0)


def _key(bid: Bid, policy: str) -> tuple[int, ...]:
    if policy == "standard" and not bid.unit.is_joker_tuple and bid.how != "declare":
        return (bid.unit.copies, 1)
    return _base_key(bid.unit, policy)


def declaration_strength(ruleset: Ruleset, level: int, cards: Iterable[int]) -> tuple[int, ...] | None:
    """Strength of ``cards`` read as one fresh declaration under the ruleset's policy.

    ``None`` when the cards are not one declaration. Keys compare within one
    policy (higher is stronger); context (reinforcement, campus order rules,
    tractor97 fixing, botzone's one overcall) is only in :func:`can_declare`.
    """
    if level == JOKER_LEVEL:
        return None
    cur = Counter(cards)
    if not cur:
        return None
    for u in _units(cur, level, ruleset.declaration, _joker_mode(ruleset)):
        if Counter(u.cards) == cur:
            return _base_key(u, ruleset.declaration)
    return None


# ---------------------------------------------------------------------------
# policies: accept (return a Bid) or refuse (return the reason)
# ---------------------------------------------------------------------------

def _standard(st: DeclState, seat: str, u: DeclareGroup, extends: bool) -> Bid | str:
    rs, cur = st.ruleset, st.standing
    if cur is not None and st.closed:
        return f"the bidding ended with {_who(cur)}"
    if u.is_joker_tuple:
        return Bid(seat, u)
    if u.copies == 1:
        if cur is None:
            return Bid(seat, u)
        mate = partner_of(seat)
        p = st.bid_of(mate)
        if p is not None and p.how == "declare" and p.unit.copies == 1 and p.unit.card == u.card:
            if not rs.partner_reinforce:
                return (f"{_c(u.card)} cannot reinforce {mate}'s {_c(u.card)}: "
                        f"partner_reinforce (对家保) is off")
            if cur is not p and not rs.reinforce_after_overridden:
                return (f"{mate}'s {_c(u.card)} was overridden by {_who(cur)}; "
                        f"reinforce_after_overridden is off")
            bid = Bid(seat, DeclareGroup(u.card, p.unit.copies + 1), "partner")
            if _key(bid, "standard") > _key(cur, "standard"):
                return bid
            return f"{describe(bid.unit)} (对家保) cannot override {_who(cur)} under standard rules"
        return (f"{describe(u)} cannot override {_who(cur)} under standard rules: "
                f"an override needs a pair")
    mine = st.bid_of(seat)
    if (mine is not None and extends and not mine.unit.is_joker_tuple
            and mine.unit.card == u.card and u.copies > mine.unit.copies):
        how = "reinforce"
        if cur is not None and cur.seat != seat and not rs.reinforce_after_overridden:
            return (f"{seat} was overridden by {_who(cur)} and may not reinforce "
                    f"(reinforce_after_overridden is off)")
    else:
        how = "declare"
        if cur is not None and cur.seat == seat and not rs.self_override:
            return f"{seat} may not override its own {describe(cur.unit).removeprefix('a ')} (self_override is off)"
    bid = Bid(seat, u, how)
    if cur is None or _key(bid, "standard") > _key(cur, "standard"):
        return bid
    why = ""
    if cur.how != "declare" and cur.unit.copies >= u.copies:
        why = ": a reinforced declaration can only be beaten by a joker pair"
    elif cur.unit.copies == u.copies:
        why = ": equal strength"
    word = "reinforced " if how == "reinforce" else ""
    return f"{word}{describe(u)} cannot override {_who(cur)} under standard rules{why}"


def _tractor97(st: DeclState, seat: str, u: DeclareGroup, extends: bool) -> Bid | str:
    rs, cur = st.ruleset, st.standing
    if u.is_joker_tuple:
        if not rs.joker_override:
            return "joker_override (反无将) is off: a joker pair cannot declare NT"
        if cur is not None and st.closed:
            return f"the bidding ended with {_who(cur)}"
        return Bid(seat, u)
    if cur is not None and st.fixed:
        tail = "only a joker pair can change it" if rs.joker_override else \
            "nothing can change it (joker_override is off)"
        return f"the trump is fixed by {_who(cur)}; {tail}"
    if u.copies == 1:
        if cur is None:
            return Bid(seat, u)
        if cur.seat == partner_of(seat) and cur.unit.card == u.card and cur.unit.copies == 1:
            if rs.partner_reinforce:
                return Bid(seat, DeclareGroup(u.card, 2), "partner")
            return (f"{_c(u.card)} cannot reinforce {cur.seat}'s {_c(u.card)}: "
                    f"partner_reinforce (对家保) is off")
        return f"the first declared suit stands: {describe(u)} cannot override {_who(cur)}"
    if cur is None:
        return Bid(seat, u)                       # a direct pair fixes the suit
    if cur.seat == seat:
        if cur.unit.card == u.card and extends:
            return Bid(seat, u, "reinforce")      # 自保
        if not rs.self_override:
            return f"{seat} may not override its own {describe(cur.unit).removeprefix('a ')} (self_override / 自反 is off)"
    return Bid(seat, u)                           # 反主 / 自反


def _ladder(st: DeclState, seat: str, u: DeclareGroup, extends: bool) -> Bid | str:
    rs, cur = st.ruleset, st.standing
    bid = Bid(seat, u)
    if cur is not None and cur.seat == seat and rs.ladder_self == "reinforce_only":
        if (cur.unit.is_joker_tuple or u.is_joker_tuple or u.card != cur.unit.card or not extends):
            return (f"{seat} holds the bid ({describe(cur.unit)}); with ladder_self reinforce_only "
                    f"it may only reinforce a single to a pair of the same suit")
        bid = Bid(seat, u, "reinforce")
    elif cur is not None and cur.seat == seat and rs.ladder_self == "reinforce":
        # shengji.io (mechanics/src/bidding.rs valid_bids, ReinforceWhileWinning): the
        # standing bidder may only bid more copies of the card it bid (a joker pair too)
        if u.card != cur.unit.card or not extends or u.copies <= cur.unit.copies:
            return (f"{seat} holds the bid ({describe(cur.unit)}); with ladder_self reinforce "
                    f"it may only add copies of that card")
        bid = Bid(seat, u, "reinforce")
    if cur is None or _key(bid, "ladder") > _key(cur, "ladder"):
        return bid
    return (f"{describe(u)} is not stronger than {_who(cur)} under ladder rules "
            f"(single < level pair < LJ pair < BJ pair)")


def _titanic(st: DeclState, seat: str, u: DeclareGroup, extends: bool) -> Bid | str:
    cur = st.standing
    bid = Bid(seat, u)
    if cur is None or _key(bid, "titanic") > _key(cur, "titanic"):
        return bid
    return (f"{describe(u)} is not stronger than {_who(cur)} under titanic rules "
            f"(single < pair < joker pair < triple < joker triple)")


def _campus(st: DeclState, seat: str, u: DeclareGroup, extends: bool, after_bury: bool) -> Bid | str:
    cur = st.standing
    override = u.is_joker_tuple or u.copies >= 2
    if after_bury:
        if st.first_hand:
            return ("on the first hand an override must come before the kitty is taken "
                    "(反主反打); after the bury it is not allowed")
        if cur is None:
            return "nothing to override after the bury"
        if not override:
            return (f"after the bury only an override (a level pair + its joker, or a joker pair) "
                    f"is possible (反主抄底), not {describe(u)}")
    if cur is None:
        if u.is_joker_tuple:
            return "a joker pair may not declare (对王牌不可进行报主); it can only override"
        return Bid(seat, u, after_bury=after_bury)   # 报主, or 定主 with a pair
    if not override:
        return (f"{_who(cur)} stands; only an override (a level pair + its joker, or a joker pair) "
                f"can change it, not {describe(u)}")
    if cur.seat == seat:
        return (f"{seat} may override only after someone else has: its own {describe(cur.unit).removeprefix('a ')} "
                f"still stands")
    if _key(cur, "campus")[0] == 1 and _key(Bid(seat, u), "campus") <= _key(cur, "campus"):
        return (f"{describe(u)} is not higher than {_who(cur)} "
                f"(campus order: ♦ < ♣ < ♥ < ♠ < LJ pair < BJ pair)")
    return Bid(seat, u, after_bury=after_bury)


def _botzone(st: DeclState, seat: str, u: DeclareGroup, extends: bool) -> Bid | str:
    cur = st.standing
    if u.copies > 2:
        return "botzone bids are one level card or a pair"
    if u.copies == 1:
        if cur is not None:
            return (f"botzone allows one call with a single level card; "
                    f"{st.first.seat if st.first else cur.seat} already called")
        return Bid(seat, u)
    if cur is None:
        return "botzone: an overcall with a pair needs an earlier call with a single level card"
    if st.accepted_count >= 2:
        return f"botzone allows only one overcall; {cur.seat} already overcalled"
    return Bid(seat, u)


def _first(st: DeclState, seat: str, u: DeclareGroup, extends: bool) -> Bid | str:
    cur = st.standing
    if cur is not None:
        return f"the first declaration stands (first come, first served): {_who(cur)}"
    return Bid(seat, u)


_POLICIES = {"standard": _standard, "tractor97": _tractor97, "ladder": _ladder, "titanic": _titanic,
             "botzone": _botzone, "first": _first}


def _decide(st: DeclState, seat: str, cards: tuple[int, ...], after_bury: bool,
            last_time: int | None = None) -> tuple[DeclState | None, str]:
    """Apply the policy: ``(new_state, "")`` if accepted, else ``(None, reason)``.
    ``last_time``: the draw clock of the new state (default: unchanged)."""
    rs = st.ruleset
    policy = rs.declaration
    if st.level == JOKER_LEVEL:
        return None, "at the Joker level the hand is always NT: nobody declares"
    if seat not in SEATS:
        return None, f"unknown seat {seat!r}"
    if after_bury and policy != "campus":
        return None, f"declaring after the bury is only allowed under campus (反主抄底), not {policy}"
    i = SEATS.index(seat)
    u, extends, why = _read(st, seat, cards, st.shown[i])
    if u is None:
        return None, why
    if policy == "campus":
        got = _campus(st, seat, u, extends, after_bury)
    else:
        got = _POLICIES[policy](st, seat, u, extends)
    if isinstance(got, str):
        return None, got
    bid = got
    bids = list(st.bids)
    bids[i] = bid
    shown = list(st.shown)
    shown[i] = cards
    dealer, rebury = st.dealer, st.rebury
    if st.first_hand:
        if policy in ("campus", "botzone") or rs.first_dealer == "last" or st.first is None:
            dealer = seat
    elif after_bury:
        rebury = seat
    fixed = st.fixed or (policy == "tractor97" and (bid.unit.copies >= 2 or bid.unit.is_joker_tuple))
    closed = st.closed or (policy in ("standard", "tractor97") and bid.unit.is_joker_tuple)
    return _evolve(st, standing=bid, first=st.first or bid, bids=tuple(bids), shown=tuple(shown),
                   accepted_count=st.accepted_count + 1, fixed=fixed, closed=closed,
                   dealer=dealer, rebury=rebury,
                   last_time=st.last_time if last_time is None else last_time), ""


# ---------------------------------------------------------------------------
# card and timing checks
# ---------------------------------------------------------------------------

def _draw_time(st: DeclState, ev: DeclEvent, size: int) -> int:
    """The draw index of ``ev`` (``size``: the seat's hand size, ``st.hand_size(ev.seat)``)."""
    at = ev.at
    if at is None or ev.after_bury or at >= size:
        return _AFTER_DEAL
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


def _evolve(st: DeclState, **changes: object) -> DeclState:
    """``dataclasses.replace`` for the fold's hot path: a copy of ``st`` with
    ``changes`` (DeclState has no ``__post_init__`` to run)."""
    new = object.__new__(DeclState)
    new.__dict__.update(st.__dict__, **changes)
    return new


def _card_checks(st: DeclState, ev: DeclEvent) -> tuple[Diagnostic | None, int]:
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
        when = "a declaration made after the deal" if st.last_time >= _AFTER_DEAL else \
            f"one made at draw {st.last_time + 1} of the deal"
        return Diagnostic.at("SJ302", ev.span,
                             f"declarations out of draw order: {seat}'s @{at} (draw {t + 1} of the deal)"
                             f" is written after {when}"), 0
    return None, t


# ---------------------------------------------------------------------------
# the fold
# ---------------------------------------------------------------------------

def advance(state: DeclState, event: DeclEvent) -> tuple[DeclState, bool, list[Diagnostic]]:
    """Apply one declaration → ``(new_state, accepted, diagnostics)``.

    A refused event leaves the state unchanged except for the draw-time clock.
    """
    bad, t = _card_checks(state, event)
    if bad is not None:
        return state, False, [bad]
    last_time = max(state.last_time, t)
    new, why = _decide(state, event.seat, tuple(event.cards), event.after_bury, last_time)
    if new is None:
        return _evolve(state, last_time=last_time), False, [Diagnostic.at("SJ301", event.span, why)]
    return new, True, []


def kitty_trump(kitty: Iterable[int] | None, mode: str, joker: str = "skip") -> int | None:
    """Trump from the kitty when nobody declared (``kitty_card`` / ``kitty_first``).

    ``kitty_card``: the 3rd card's suit, jokers skipped to the next; ``kitty_first``:
    the first non-joker. Only jokers left → NT. ``joker`` (``kitty_joker``):
    ``no_trump`` makes the turned card a joker mean NT (seed 001 variant).
    ``None`` without a kitty.
    """
    if kitty is None:
        return None
    cards = tuple(kitty)
    for c in cards[2 if mode == "kitty_card" else 0:]:
        if c < LJ:
            return suit_of(c)
        if joker == "no_trump":
            return NT
    return NT


def conclude(state: DeclState, *, kitty: tuple[int, ...] | None, declare_none: bool,
             recorded: bool) -> DeclResult:
    """The result of a finished fold. ``recorded``: at least one ``declare`` event was written."""
    rs = state.ruleset
    given = None if state.first_hand else state.dealer
    if state.level == JOKER_LEVEL:
        return DeclResult(trump=NT, declarer=None,
                          dealer=state.first_drawer if state.first_hand else given)
    if state.standing is not None:
        bid = state.standing
        own = state.own_levels
        if own is not None:
            # declarer_deals: the declarer deals, the hand played at its own team's level
            return DeclResult(trump=bid.trump, declarer=bid.seat, dealer=bid.seat,
                              level=own[0] if bid.seat in ("N", "S") else own[1])
        alt = state.alt_level
        if alt is not None and not bid.unit.is_joker_tuple and _is_level_card(bid.unit.card, alt):
            # attacker_level (正常报主): an attacker's own-level declaration stands: the deal passes
            return DeclResult(trump=bid.trump, declarer=bid.seat, dealer=bid.seat, level=alt)
        return DeclResult(trump=bid.trump, declarer=bid.seat,
                          dealer=state.dealer, rebury=state.rebury)
    if not recorded and not declare_none:
        return DeclResult(trump=None, declarer=None, dealer=given)
    mode = rs.no_declaration
    if mode == "redeal" or (state.first_hand and rs.first_hand_undeclared == "redeal"):
        return DeclResult(trump=None, declarer=None, dealer=given, redeal=True)
    dealer = state.first_drawer if state.first_hand else given
    trump = NT if mode == "no_trump" else kitty_trump(kitty, mode, rs.kitty_joker)
    return DeclResult(trump=trump, declarer=None, dealer=dealer)


def resolve_declarations(
    ruleset: Ruleset, level: int, events: list[DeclEvent], *,
    first_hand: bool,
    dealer: str | None,
    first_drawer: str,
    deal: dict[str, tuple[int, ...]] | None,
    kitty: tuple[int, ...] | None,
    declare_none: bool,
    attacker_level: int | None = None,
    team_levels: Mapping[str, int] | None = None,
) -> DeclResult:
    """Replay a hand's ``declare`` lines: trump, declarer, dealer, checks (a fold over :func:`advance`).
    ``attacker_level``: the attacking team's level (used by the ``attacker_level`` option);
    ``team_levels``: both teams' levels (``{"NS": …, "EW": …}``, used by ``declarer_deals``)."""
    state = start(ruleset, level, first_hand=first_hand, dealer=dealer,
                  first_drawer=first_drawer, deal=deal, attacker_level=attacker_level,
                  team_levels=team_levels)
    diags: list[Diagnostic] = []
    accepted: list[bool] = []
    acts: list[str] = []
    if declare_none and events:
        diags.append(Diagnostic.at("SJ301", events[0].span,
                                   "`declare none` says nobody declared, but declarations are recorded"))
    for ev in events:
        before = state.accepted_count
        state, ok, d = advance(state, ev)
        accepted.append(ok)
        acts.append(_act(state.standing, before) if ok else "refused")
        diags.extend(d)
    result = conclude(state, kitty=kitty, declare_none=declare_none, recorded=bool(events))
    result.accepted = accepted
    result.acts = acts
    result.diagnostics = diags
    return result


#: the words of a declaration's act (:attr:`DeclResult.acts`), for reports:
#: ``N declared ♠2``, ``S overrode with ♥2♥2``, ``N reinforced with ♠2♠2``, ``W tried ♥2 (refused)``
ACTS: dict[str, str] = {
    "declare": "declared",
    "override": "overrode with",
    "reinforce": "reinforced with",
    "partner": "reinforced the partner's declaration with",
    "refused": "tried",
}


def _act(bid: Bid | None, accepted_before: int) -> str:
    """The act of an accepted event whose bid now stands."""
    if bid is None:
        return "refused"
    if bid.how in ("reinforce", "partner"):
        return bid.how
    return "declare" if accepted_before == 0 else "override"


def act_text(act: str) -> str:
    """The words of an act of :attr:`DeclResult.acts` (``"overrode with"``)."""
    return ACTS.get(act, act)


# ---------------------------------------------------------------------------
# helpers for bots and the generator
# ---------------------------------------------------------------------------

def _with(state: DeclState, ruleset: Ruleset, level: int) -> DeclState:
    if state.ruleset is ruleset and state.level == level:
        return state
    return replace(state, ruleset=ruleset, level=level)


def can_declare(ruleset: Ruleset, level: int, state: DeclState, seat: str,
                cards: Iterable[int], *, after_bury: bool = False) -> bool:
    """Would ``seat`` writing ``declare seat <cards>`` now take effect?

    ``cards`` is the cumulative set as it would be written (see the module
    docstring). The seat is assumed to hold the cards; timing is not checked.
    ``ruleset``/``level`` normally equal the state's (they override it if not).
    """
    new, _ = _decide(_with(state, ruleset, level), seat, tuple(cards), after_bury)
    return new is not None


def legal_declarations(ruleset: Ruleset, level: int, state: DeclState, seat: str,
                       drawn_cards: Iterable[int], *, after_bury: bool = False
                       ) -> list[tuple[int, ...]]:
    """Every cumulative card set ``seat`` could write now and have accepted.

    ``drawn_cards``: the seat's cards so far (all of them after the deal).
    Each result is the seat's previously shown cards joined (multiset union)
    with one declaration unit, sorted; the list is sorted and has no duplicates.
    """
    st = _with(state, ruleset, level)
    if level == JOKER_LEVEL or seat not in SEATS:
        return []
    have = Counter(drawn_cards)
    prev = Counter(st.shown_by(seat))
    out: set[tuple[int, ...]] = set()
    own = st.own_levels
    if own is not None:               # declarer_deals: the seat's own team's level
        level = own[0] if seat in ("N", "S") else own[1]
    for u in _units(have, level, ruleset.declaration, _joker_mode(ruleset)):
        written = prev | Counter(u.cards)
        if not written <= have:
            continue
        cards = tuple(sorted(written.elements()))
        if cards not in out and _decide(st, seat, cards, after_bury)[0] is not None:
            out.add(cards)
    return sorted(out)


__all__ = [
    "SEATS", "DeclEvent", "DeclResult", "DeclState", "DeclareGroup", "Bid",
    "start", "advance", "conclude", "resolve_declarations",
    "can_declare", "legal_declarations", "declaration_strength", "kitty_trump",
    "campus_joker", "partner_of", "describe", "ACTS", "act_text",
]
