"""Who may bid what, preset by preset (RULES.md §4, §8b; seeds 000, 001,
002, 004): each policy reads the declaration state and a new unit and
accepts it (a :class:`~replay.bids.Bid`) or refuses it (the reason, a str).
:mod:`replay.declare` applies the one of ``ruleset.declaration``.

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
"""

from __future__ import annotations

from collections.abc import Callable

from replay.bids import Bid, DeclareGroup, bid_key, card_name, describe, partner_of, who
from replay.declare_state import DeclState


def _standard(st: DeclState, seat: str, u: DeclareGroup, extends: bool) -> Bid | str:
    rs, cur = st.ruleset, st.standing
    if cur is not None and st.closed:
        return f"the bidding ended with {who(cur)}"
    if u.is_joker_tuple:
        return Bid(seat, u)
    if u.copies == 1:
        if cur is None:
            return Bid(seat, u)
        mate = partner_of(seat)
        p = st.bid_of(mate)
        if p is not None and p.how == "declare" and p.unit.copies == 1 and p.unit.card == u.card:
            if not rs.partner_reinforce:
                return (f"{card_name(u.card)} cannot reinforce {mate}'s {card_name(u.card)}: "
                        f"partner_reinforce (对家保) is off")
            if cur is not p and not rs.reinforce_after_overridden:
                return (f"{mate}'s {card_name(u.card)} was overridden by {who(cur)}; "
                        f"reinforce_after_overridden is off")
            bid = Bid(seat, DeclareGroup(u.card, p.unit.copies + 1), "partner")
            if bid_key(bid, "standard") > bid_key(cur, "standard"):
                return bid
            return f"{describe(bid.unit)} (对家保) cannot override {who(cur)} under standard rules"
        return (f"{describe(u)} cannot override {who(cur)} under standard rules: "
                f"an override needs a pair")
    mine = st.bid_of(seat)
    if (mine is not None and extends and not mine.unit.is_joker_tuple
            and mine.unit.card == u.card and u.copies > mine.unit.copies):
        how = "reinforce"
        if cur is not None and cur.seat != seat and not rs.reinforce_after_overridden:
            return (f"{seat} was overridden by {who(cur)} and may not reinforce "
                    f"(reinforce_after_overridden is off)")
    else:
        how = "declare"
        if cur is not None and cur.seat == seat and not rs.self_override:
            return f"{seat} may not override its own {describe(cur.unit).removeprefix('a ')} (self_override is off)"
    bid = Bid(seat, u, how)
    if cur is None or bid_key(bid, "standard") > bid_key(cur, "standard"):
        return bid
    why = ""
    if cur.how != "declare" and cur.unit.copies >= u.copies:
        why = ": a reinforced declaration can only be beaten by a joker pair"
    elif cur.unit.copies == u.copies:
        why = ": equal strength"
    word = "reinforced " if how == "reinforce" else ""
    return f"{word}{describe(u)} cannot override {who(cur)} under standard rules{why}"


def _tractor97(st: DeclState, seat: str, u: DeclareGroup, extends: bool) -> Bid | str:
    rs, cur = st.ruleset, st.standing
    if u.is_joker_tuple:
        if not rs.joker_override:
            return "joker_override (反无将) is off: a joker pair cannot declare NT"
        if cur is not None and st.closed:
            return f"the bidding ended with {who(cur)}"
        return Bid(seat, u)
    if cur is not None and st.fixed:
        tail = "only a joker pair can change it" if rs.joker_override else \
            "nothing can change it (joker_override is off)"
        return f"the trump is fixed by {who(cur)}; {tail}"
    if u.copies == 1:
        if cur is None:
            return Bid(seat, u)
        if cur.seat == partner_of(seat) and cur.unit.card == u.card and cur.unit.copies == 1:
            if rs.partner_reinforce:
                return Bid(seat, DeclareGroup(u.card, 2), "partner")
            return (f"{card_name(u.card)} cannot reinforce {cur.seat}'s {card_name(u.card)}: "
                    f"partner_reinforce (对家保) is off")
        return f"the first declared suit stands: {describe(u)} cannot override {who(cur)}"
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
    if cur is None or bid_key(bid, "ladder") > bid_key(cur, "ladder"):
        return bid
    return (f"{describe(u)} is not stronger than {who(cur)} under ladder rules "
            f"(single < level pair < LJ pair < BJ pair)")


def _titanic(st: DeclState, seat: str, u: DeclareGroup, extends: bool) -> Bid | str:
    cur = st.standing
    bid = Bid(seat, u)
    if cur is None or bid_key(bid, "titanic") > bid_key(cur, "titanic"):
        return bid
    return (f"{describe(u)} is not stronger than {who(cur)} under titanic rules "
            f"(single < pair < joker pair < triple < joker triple)")


def campus(st: DeclState, seat: str, u: DeclareGroup, extends: bool, after_bury: bool) -> Bid | str:
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
        return (f"{who(cur)} stands; only an override (a level pair + its joker, or a joker pair) "
                f"can change it, not {describe(u)}")
    if cur.seat == seat:
        return (f"{seat} may override only after someone else has: its own {describe(cur.unit).removeprefix('a ')} "
                f"still stands")
    if bid_key(cur, "campus")[0] == 1 and bid_key(Bid(seat, u), "campus") <= bid_key(cur, "campus"):
        return (f"{describe(u)} is not higher than {who(cur)} "
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
        return f"the first declaration stands (first come, first served): {who(cur)}"
    return Bid(seat, u)


#: the policies but ``campus`` (which also takes ``after_bury``), by ``ruleset.declaration``
POLICIES: dict[str, Callable[[DeclState, str, DeclareGroup, bool], Bid | str]] = {
    "standard": _standard, "tractor97": _tractor97, "ladder": _ladder, "titanic": _titanic,
    "botzone": _botzone, "first": _first}
