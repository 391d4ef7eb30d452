"""Helpers shared by the generator tests (imported by name: pytest puts this
directory on ``sys.path``; there are no packages under ``tests/``)."""

from __future__ import annotations

from collections import Counter

from notation.model import Hand, Record
from primitives.cards import full_deck, points
from replay.friends import table_seats
from replay.game import replay, ruleset_for


def played_hands(record: Record) -> list[Hand]:
    return [h for h in record.hands if h.redeal is None]


def codes(match) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in match.diagnostics]


def check_accounting(record: Record) -> None:
    """Every card dealt once per copy; each seat plays exactly what it holds after
    the kitty exchange; the points of the tricks and the final kitty add up to
    100 per deck."""
    rs, _ = ruleset_for(record)
    seats = table_seats(record, rs)
    for hand in played_hands(record):
        dealt = {sc.seat: Counter(sc.cards) for sc in hand.deal}
        assert set(dealt) == set(seats)
        assert all(sum(c.values()) == rs.hand_size for c in dealt.values())
        assert len(hand.kitty) == rs.kitty
        total = Counter(hand.kitty)
        for c in dealt.values():
            total.update(c)
        assert total == full_deck(rs.decks)
        held = {s: Counter(c) for s, c in dealt.items()}
        kitty = tuple(hand.kitty)
        assert hand.buries, "a played hand has a bury"
        for b in hand.buries:
            held[b.seat].update(kitty)
            held[b.seat].subtract(b.cards)
            assert all(v >= 0 for v in held[b.seat].values())
            kitty = tuple(b.cards)
        played = {s: Counter() for s in held}
        for t in hand.tricks:
            assert len(t.plays) == len(seats)
            n = len(t.plays[0].cards)
            for p in t.plays:
                assert len(p.cards) == n
                played[p.seat].update(p.cards)
        for s in held:
            assert +held[s] == played[s], f"hand {hand.number}: {s} does not play what it holds"
        in_tricks = sum(points(p.cards) for t in hand.tricks for p in t.plays)
        assert in_tricks + points(kitty) == 100 * rs.decks


def check_clean(record: Record) -> None:
    """Replays with no diagnostics, every played hand complete and scored as written."""
    m = replay(record)
    assert codes(m) == [], [(d.code, d.message) for d in m.diagnostics][:5]
    results = [r for r in m.hands if not r.redeal]
    hands = played_hands(record)
    assert len(results) == len(hands)
    for r, h in zip(results, hands):
        assert r.complete
        assert r.attacker_points == h.points
        assert h.levels is not None and h.dealer in r.seats
