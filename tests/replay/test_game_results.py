"""The result building of :mod:`replay.game` made cheaper in issue 22 gives
what the straightforward code gives: the holdings before and after every
trick (the start hands read directly at trick 1), each trick's plays, the
start hands (a seat that neither buried nor was rebuilt keeps its seat line),
and :func:`replay.friends.needs_friends` in one pass. Checked on every sample
record and on generated matches (fixed partners and finding friends), plus
partly known hands (NOTATION.md "Omissions") and a seat written as ``P2``."""

from collections import Counter
from pathlib import Path

import pytest

from analyzer.play.generate import generate_match
from notation import parse
from replay.friends import needs_friends
from replay.game import replay

SAMPLES = sorted(Path(__file__).resolve().parents[2].joinpath("samples").rglob("*.sjn"))


def _records():
    for path in SAMPLES:
        records, _ = parse(path.read_text(encoding="utf-8"))
        yield from records
    for seed in range(3):
        yield generate_match("standard", hands=2, seed=seed)
        yield generate_match("shengji-io-friends", hands=1, seed=seed, players=5)


RECORDS = list(_records())


def _hands_at(hr, k):
    """The holdings after ``k`` tricks, as the code before issue 22 worked them out."""
    hands = {s: Counter(hr.start_hands.get(s, ())) for s in hr.seats}
    for t in hr.tricks[:k]:
        for p in t.plays:
            h = hands.get(p.seat)
            if h is not None:
                h.subtract(p.cards)
    return tuple(tuple(sorted(c for c, n in hands[s].items() for _ in range(max(n, 0)))) for s in hr.seats)


def _needs_friends(record):
    """needs_friends as written before issue 22 (each seat tested in turn)."""
    compass = {"N", "W", "S", "E"}
    for hand in record.hands:
        if hand.friends or (hand.levels is not None and hasattr(hand.levels, "levels")):
            return True
        if hand.dealer not in compass and hand.dealer not in (None, "?"):
            return True
        if hand.first is not None and hand.first not in compass:
            return True
        seats = ([sc.seat for sc in hand.deal] + [ev.seat for ev in hand.events]
                 + [p.seat for t in hand.tricks for p in t.plays])
        if any(s not in compass for s in seats):
            return True
    return False


def test_the_corpus_is_not_empty():
    assert len(SAMPLES) > 5 and len(RECORDS) > 10
    assert any(h.tricks for r in RECORDS for h in replay(r).hands)


@pytest.mark.parametrize("index", range(len(RECORDS)))
def test_holdings_plays_and_start_hands(index):
    record = RECORDS[index]
    assert needs_friends(record) == _needs_friends(record)
    for hr in replay(record).hands:
        for k, t in enumerate(hr.tricks):
            assert t.hands_before == _hands_at(hr, k)
            assert t.hands_after == _hands_at(hr, k + 1)
            assert [p.seat for p in t.plays] == [p.seat for p in t.source]
            assert [p.cards for p in t.plays] == [tuple(c) for c in t.cards_played]
            assert [p.attempted for p in t.plays] == [tuple(p.attempted) if p.attempted else None
                                                     for p in t.source]
            assert [p.span for p in t.plays] == [p.span for p in t.source]
        assert hr.hands_at(0) == _hands_at(hr, 0)
        for cards in hr.start_hands.values():
            assert list(cards) == sorted(cards)


def _one_hand(deal: str, buries: str = "") -> str:
    return ("[Rules \"standard\"]\n\nhand 1\nlevels NS 2 EW 2\ndealer N\ntrump S\n" + deal + buries
            + "1. N: SA  W: S3  S: S4  E: S5\n")


def test_start_hands_of_a_seat_that_buried_and_of_seats_that_did_not():
    deal = "N: SA HA\nW: S3 H3\nS: S4 H4\nE: S5 H5\n"
    record = parse(_one_hand(deal, "kitty D2 D3\nbury N: HA D2\n"))[0][0]
    hr = replay(record).hands[0]
    assert hr.start_hands["W"] == tuple(sorted(record.hands[0].deal[1].cards))
    # N took the kitty (D2 D3) and buried HA D2: SA D3 remain
    hand = record.hands[0]
    assert Counter(hr.start_hands["N"]) == (Counter(hand.deal[0].cards) + Counter(hand.kitty)
                                            - Counter(hand.buries[0].cards))
    assert len(hr.start_hands["N"]) == 2
    assert hr.tricks[0].hands_before == _hands_at(hr, 0)


def test_start_hands_of_seats_rebuilt_from_their_plays():
    # W's and E's seat lines are left out: they held what they play
    record = parse(_one_hand("N: SA HA\nS: S4 H4\n"))[0][0]
    hr = replay(record).hands[0]
    assert hr.start_hands["W"] == tuple(record.hands[0].tricks[0].plays[1].cards)
    assert hr.tricks[0].hands_before == _hands_at(hr, 0)


def test_a_numbered_seat_anywhere_needs_friends():
    text = _one_hand("N: SA HA\nW: S3 H3\nS: S4 H4\nE: S5 H5\n")
    assert not needs_friends(parse(text)[0][0])
    for old, new in (("W: S3  S", "P2: S3  S"), ("E: S5 H5\n", "P5: S5 H5\n")):
        record = parse(text.replace(old, new))[0][0]
        assert needs_friends(record) and _needs_friends(record)


_DEAL = "N: SA HA\nW: S3 H3\nS: S4 H4\nE: S5 H5\n"


def _codes(text: str) -> list[tuple[str, str]]:
    hr = replay(parse(text)[0][0]).hands[0]
    return [(d.code, d.message) for d in hr.diagnostics if d.code in ("SJ202", "SJ203", "SJ204")]


@pytest.mark.parametrize(("extra", "played"), [
    # RULES §3 (two decks: at most two copies of a card): a card played three times
    ("", "1. N: HA  W: HA  S: HA  E: H5\n"),
    # a bury of cards not held hands them to nobody: the plays are checked all the same
    ("kitty D2 D3\nbury N: HA HA\n", "1. N: HA  W: HA  S: HA  E: H5\n"),
])
def test_a_card_played_more_often_than_the_decks_allow(extra, played):
    codes = _codes(_one_hand(_DEAL, extra).replace("1. N: SA  W: S3  S: S4  E: S5\n", played))
    # SJ202 comes where the copies are counted: after the deal's checks, before the bury's and the plays'
    assert [c for c, _ in codes].count("SJ202") == 1
    assert codes[0] == ("SJ202", "♥A is played more than 2 time(s)")
    assert [c for c, _ in codes[1:]].count("SJ203") == 2 + ("HA HA" in extra)


def test_a_seat_rebuilt_from_its_plays_is_checked_for_copies_too():
    # E has no seat line: it held what it plays, so only the copy count can tell
    text = _one_hand(_DEAL.replace("E: S5 H5\n", ""), "").replace(
        "1. N: SA  W: S3  S: S4  E: S5\n", "1. N: HA  W: H3  S: H4  E: HA\n2. N: SA  W: S3  S: S4  E: HA\n")
    # no seat plays a card it is not known to hold (E held both of its ♥A), yet ♥A is played three times
    assert _codes(text) == [("SJ202", "♥A is played more than 2 time(s)")]


def test_plays_within_the_holdings_raise_no_copy_diagnostic():
    assert _codes(_one_hand(_DEAL)) == []


def test_players_own_levels_need_friends_and_team_levels_do_not():
    # NOTATION.md: `levels N 2 W 3 …` are the players' own levels (finding friends)
    text = _one_hand(_DEAL)
    assert not needs_friends(parse(text)[0][0])
    record = parse(text.replace("levels NS 2 EW 2", "levels N 2 W 3 S 2 E 3"))[0][0]
    assert type(record.hands[0].levels).__name__ == "PlayerLevels"
    assert needs_friends(record) and _needs_friends(record)
