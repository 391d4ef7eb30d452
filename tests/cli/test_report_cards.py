"""The report's card texts (``analyzer.report.cardtext``: a per-order rank table, a
memo of short groups, a table-driven formatter) are exactly
``format_cards(order.sorted(cards))`` — or ``format_cards(cards)`` without an
order — for any cards, in any order, under any level and trump."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from analyzer.report.cardtext import _format, card_text, report_cards
from primitives.cards import format_cards
from replay.order import NT, Order

_cards_st = st.lists(st.integers(0, 53), max_size=30)
_orders = st.builds(Order, st.integers(2, 15), st.sampled_from([0, 1, 2, 3, NT]), st.booleans())


@given(_cards_st)
def test_format_is_format_cards(cards):
    assert _format(cards) == format_cards(cards)
    assert _format(sorted(cards)) == format_cards(sorted(cards))


@given(_cards_st, _orders)
def test_sorted_text_is_format_cards_of_order_sorted(cards, order):
    want = format_cards(order.sorted(cards))
    assert report_cards(cards, order) == want
    assert report_cards(tuple(cards), order) == want  # again: from the memo when short
    assert card_text(order)(tuple(cards)) == want
    assert report_cards(cards) == format_cards(cards)
    assert report_cards(None, order) is None


def test_every_two_card_group_in_some_orders():
    # the two-card texts are made apart (a comparison of ranks, no sort): every pair of cards,
    # both ways round, in a plain suit, a trump suit, no trump and with the 2s as trumps
    for order in (Order(2, 0, False), Order(7, 2, True), Order(14, NT, False), Order(2, NT, True)):
        text = card_text(order)
        text.memo.clear()  # not the singles and pairs known in every order: made again
        for a in range(54):
            for b in range(54):
                assert text((a, b)) == format_cards(order.sorted((a, b)))
