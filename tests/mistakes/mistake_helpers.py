"""Small hand-made records for the mistake rules.

A ruleset override ``kitty_size`` leaves each seat 2 or 3 cards, so a whole
hand is a few tricks. Records hold only the tricks: the engine reconstructs
the four hands from a complete hand (all known), and the kitty is the rest of
the decks. ``bury=True`` writes the dealer's bury line too (every card not
played, which is the kitty), so SJ603 has a bury to look at.
"""

from collections import Counter

from notation.model import Bury, Hand, Levels, Play, Record, Tag, Trick
from primitives.cards import deck_list
from primitives.cards import parse_cards as C
from primitives.diagnostics import Span
from replay.game import replay


def trick(*plays, line=0):
    """``trick("N: SA", "W: S5", …)``; ``"W: SA SQ -> SQ"`` for a failed throw."""
    out = []
    for i, p in enumerate(plays):
        seat, _, cards = p.partition(":")
        attempted = None
        if "->" in cards:
            a, _, cards = cards.partition("->")
            attempted = C(a)
        out.append(Play(seat=seat.strip(), cards=C(cards), attempted=attempted,
                        span=Span(line, 1 + 12 * i, line, 11 + 12 * i)))
    return Trick(plays=out, span=Span(line, 1, line, 50))


def record(tricks, *, dealer="N", trump=1, level=2, rules="standard", bury=False, **rule_tags):
    """One hand (trump ♥ = 1 by default, NS at level 2, N deals)."""
    tags = [Tag(name="Rules", value=rules)] + [Tag(name=f"Rule.{k}", value=str(v)) for k, v in rule_tags.items()]
    tricks = [trick(*t, line=10 + i) if isinstance(t, (list, tuple)) else t for i, t in enumerate(tricks)]
    events = []
    if bury:
        decks = int(rule_tags.get("decks", 1 if rules == "one-deck" else 3 if rules == "titanic" else 2))
        left = Counter(deck_list(decks))
        for t in tricks:
            for p in t.plays:
                left.subtract(p.cards)
        events.append(Bury(seat=dealer, cards=tuple(sorted(left.elements())), span=Span(8, 1, 8, 20)))
    hand = Hand(number=1, levels=Levels(ns=level, ew=level), dealer=dealer, trump=trump, tricks=tricks,
                events=events, span=Span(1, 1, 1, 7))
    return Record(tags=tags, hands=[hand])


def replayed(tricks, **kw):
    rec = record(tricks, **kw)
    match = replay(rec)
    return rec, match


#: 2 cards per seat with two decks
TWO = {"kitty_size": 100}
#: 3 cards per seat with two decks
THREE = {"kitty_size": 96}


def tiny_deal(draw, presets, max_cards=3):
    """A hypothesis draw of a tiny endgame deal: ``(ruleset, order, n, cards)``,
    ``4 * n`` cards from a narrow deck (few suits and ranks), so pairs,
    tractors, throws and ties are likely; seat ``i`` gets ``cards[i*n:(i+1)*n]``."""
    from hypothesis import strategies as st

    from replay.order import NT, Order
    from replay.ruleset import preset

    rs = preset(draw(st.sampled_from(presets)))
    level = draw(st.integers(2, 14))
    trump = draw(st.sampled_from([0, 1, 2, 3, NT]))
    order = Order.for_ruleset(level, trump, rs)
    n = draw(st.integers(1, max_cards))
    suits = draw(st.lists(st.sampled_from([0, 1, 2, 3, 4]), min_size=1, max_size=3, unique=True))
    ranks = draw(st.lists(st.integers(2, 14), min_size=2, max_size=6, unique=True))
    pool = [c for c in deck_list(rs.decks)
            if (c >= 52 and 4 in suits) or (c < 52 and c // 13 in suits and c % 13 + 2 in ranks)]
    if len(pool) < 4 * n:
        pool = deck_list(rs.decks)
    return rs, order, n, draw(st.permutations(pool))[: 4 * n]


def swapped_context(hand, match, t_index, a, b, x, y):
    """A :class:`HandContext` of ``hand`` in which, from trick ``t_index``
    (0-based) on as the holdings are asked, card ``x`` of seat ``a`` and card
    ``y`` of seat ``b`` have changed hands: another deal consistent with what a
    third player saw (the hidden-information properties ask that nothing
    they value moves)."""
    from analyzer.review.mistakes.context import HandContext

    class Swapped(HandContext):
        def hands_before(self, ti):
            got = list(super().hands_before(ti))
            if ti == t_index:
                ia, ib = hand.seats.index(a), hand.seats.index(b)
                ha, hb = list(got[ia]), list(got[ib])
                ha.remove(x)
                hb.remove(y)
                got[ia], got[ib] = tuple(sorted(ha + [y])), tuple(sorted(hb + [x]))
            return tuple(got)

    return Swapped(hand, match=match, samples=0)
