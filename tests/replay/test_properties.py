"""Hypothesis properties of the engine's building blocks (RULES §3, §6)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from primitives.cards import NUM_CARDS
from replay.follow import check_follow
from replay.legal import is_legal_follow, legal_follows, multisets
from replay.obligation import obligation
from replay.order import NT, TRUMP, Order
from replay.ruleset import LINKS, preset
from replay.trick import trick_winner
from replay.units import cover, decompose

orders = st.builds(
    Order,
    level=st.integers(2, 14),
    trump=st.sampled_from([0, 1, 2, 3, NT]),
    two_is_trump=st.booleans(),
    links=st.frozensets(st.sampled_from(LINKS)),
)


@st.composite
def suit_cards(draw, max_size=10, decks=2):
    """Cards of one effective suit under some order."""
    order = draw(orders)
    suit = draw(st.sampled_from([0, 1, 2, 3, TRUMP]))
    pool = [c for c in range(NUM_CARDS) if order.eff[c] == suit for _ in range(decks)]
    if not pool:
        pool = [c for c in range(NUM_CARDS) if order.eff[c] == TRUMP for _ in range(decks)]
    cards = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=max_size))
    cards = list((Counter(cards) & Counter(pool)).elements())
    return order, cards


@given(suit_cards(max_size=14, decks=3))
@settings(deadline=None)
def test_decompose_partitions_the_cards(oc):
    order, cards = oc
    units = decompose(cards, order)
    assert Counter(c for u in units for c in u.cards) == Counter(cards)
    for u in units:
        assert len(u.cards) == u.width * u.length


@given(suit_cards(max_size=12))
@settings(deadline=None)
def test_a_play_matches_its_own_structure(oc):
    order, cards = oc
    shape = [u.shape for u in decompose(cards, order)]
    assert cover(shape, cards, order) is not None


@given(suit_cards(max_size=8))
@settings(deadline=None)
def test_leader_wins_against_discards(oc):
    order, cards = oc
    # followers discard cards of a plain suit that is neither the led suit nor trump
    lead_suit = order.eff[cards[0]]
    other = next(s for s in (0, 1, 2, 3) if s != lead_suit and any(
        order.eff[c] == s for c in range(52)))
    discards = [c for c in range(52) if order.eff[c] == other][: len(cards)]
    if len(discards) < len(cards):
        return
    plays = [tuple(cards), tuple(discards), tuple(discards), tuple(discards)]
    assert trick_winner(plays, order, preset("standard")).index == 0


@given(suit_cards(max_size=6), st.data())
@settings(max_examples=60, deadline=None)
def test_legal_follows_are_legal_and_exist(oc, data):
    order, lead = oc
    rs = preset("standard")
    pool = [c for c in range(NUM_CARDS) for _ in range(2)]
    hand = data.draw(st.lists(st.sampled_from(pool), min_size=len(lead), max_size=len(lead) + 5))
    hand = Counter(hand) & Counter(pool)
    if sum(hand.values()) < len(lead):
        return
    follows = legal_follows(lead, hand, order, rs, limit=50)
    assert follows, "a player holding enough cards always has a legal follow"
    for f in follows:
        assert is_legal_follow(lead, hand, f, order, rs)


@given(suit_cards(max_size=6), st.data())
@settings(max_examples=60, deadline=None)
def test_obligation_of_a_subset_never_exceeds_the_holding(oc, data):
    order, lead = oc
    units = decompose(lead, order)
    suit = order.eff[lead[0]]
    pool = [c for c in range(NUM_CARDS) if order.eff[c] == suit for _ in range(2)]
    hand = Counter(data.draw(st.lists(st.sampled_from(pool), max_size=12))) & Counter(pool)
    n = min(len(lead), sum(hand.values()))
    for sub in list(multisets(hand, n))[:30]:
        assert obligation(units, sub, order) <= obligation(units, list(hand.elements()), order)
    # and some subset reaches it: the holding's best is achievable
    if n == len(lead):
        best = obligation(units, list(hand.elements()), order)
        assert any(check_follow(units, suit, hand, sub, order, preset("standard")) is None
                   for sub in multisets(hand, n)) or best == ()
