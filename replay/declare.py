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
Each policy (``standard``, ``tractor97``, ``campus``, ``titanic``, ``ladder``,
``botzone``, ``first``) is described where it is written: :mod:`replay.bid_policies`.
What a unit is and how strong: :mod:`replay.bids`; the events, the state and
the card and timing checks: :mod:`replay.declare_state`.

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
from dataclasses import replace
from typing import TYPE_CHECKING

from primitives.cards import JOKER_LEVEL, LJ, suit_of
from primitives.diagnostics import Diagnostic
from replay.bid_policies import POLICIES, campus
from replay.bids import (
    Bid,
    DeclareGroup,
    declaration_units,
    is_level_card,
    joker_mode,
    partner_of,
    read_cards,
)
from replay.declare_state import DeclEvent, DeclResult, DeclState, card_checks, evolve, start
from replay.order import NT
from replay.seats import SEATS

if TYPE_CHECKING:  # pragma: no cover
    from replay.ruleset import Ruleset


# ---------------------------------------------------------------------------
# reading and deciding one declaration
# ---------------------------------------------------------------------------

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
            is_level_card(c, alt) for c in cards):
        level = alt           # attacker_level: an attacker shows their own team's level card
    return read_cards(cards, shown, seat, level, rs.declaration, rs.decks, joker_mode(rs))


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
        got = campus(st, seat, u, extends, after_bury)
    else:
        got = POLICIES[policy](st, seat, u, extends)
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
    return evolve(st, standing=bid, first=st.first or bid, bids=tuple(bids), shown=tuple(shown),
                  accepted_count=st.accepted_count + 1, fixed=fixed, closed=closed,
                  dealer=dealer, rebury=rebury,
                  last_time=st.last_time if last_time is None else last_time), ""


# ---------------------------------------------------------------------------
# the fold
# ---------------------------------------------------------------------------

def advance(state: DeclState, event: DeclEvent) -> tuple[DeclState, bool, list[Diagnostic]]:
    """Apply one declaration → ``(new_state, accepted, diagnostics)``.

    A refused event leaves the state unchanged except for the draw-time clock.
    """
    bad, t = card_checks(state, event)
    if bad is not None:
        return state, False, [bad]
    last_time = max(state.last_time, t)
    new, why = _decide(state, event.seat, tuple(event.cards), event.after_bury, last_time)
    if new is None:
        return evolve(state, last_time=last_time), False, [Diagnostic.at("SJ301", event.span, why)]
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
        if alt is not None and not bid.unit.is_joker_tuple and is_level_card(bid.unit.card, alt):
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
    Under ``attacker_level`` an attacker's own-level declarations are among them.
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
    levels = [level]
    alt = st.alt_level
    if alt is not None and alt != level and seat != st.dealer and partner_of(seat) != st.dealer:
        levels.append(alt)            # attacker_level (正常报主): an attacker may show its own team's level
    for lv in levels:
        for u in declaration_units(have, lv, ruleset.declaration, joker_mode(ruleset)):
            written = prev | Counter(u.cards)
            if not written <= have:
                continue
            cards = tuple(sorted(written.elements()))
            if cards not in out and _decide(st, seat, cards, after_bury)[0] is not None:
                out.add(cards)
    return sorted(out)


__all__ = ["advance", "conclude", "resolve_declarations", "can_declare", "legal_declarations", "kitty_trump",
           "ACTS", "act_text"]
