"""shengji.io's own rules under the ``shengji-io`` presets (issue 29), table by table.

Every expected result is read from shengji.io's engine (rbtying/shengji); each
case names the file and function it comes from:

* the fallback orderings: ``mechanics/src/ordered_card.rs`` (its own unit tests'
  values: ``test_find_tuple_partitions``, ``test_compute_adjacent_assignments``,
  ``test_full_decomposition_ordering``, ``test_subsequent_decomposition_ordering``);
* the split of a lead: ``mechanics/src/trick.rs`` ``find_plays`` (its
  ``test_play_formats`` values) and ``TrickFormat::from_cards``;
* the follow: ``trick.rs`` ``TrickFormat::is_legal_play``;
* the throw check and the forced unit: ``trick.rs`` ``Trick::play_cards``;
* the top rank: ``mechanics/src/player.rs`` ``Player::advance`` and
  ``core/src/game_state/play_phase.rs`` ``compute_player_level_deltas``;
* bids: ``mechanics/src/bidding.rs`` ``Bid::valid_bids`` and
  ``core/src/game_state/draw_phase.rs`` ``reveal_card`` / ``advance``.

Tables with 3, 4 and 5 copies of a card (the engine allows up to two decks
a player; the functions of ``replay.sjio`` take any counts) and 4–8 players.
"""

from __future__ import annotations

import pytest

from primitives.cards import ACE, JOKER_LEVEL, KING, QUEEN, parse_cards
from replay import sjio, sjio_fallbacks, sjio_winner
from replay.declare import resolve_declarations
from replay.declare_state import DeclEvent
from replay.follow import follow_error
from replay.friend_calls import friends_outcome
from replay.order import NT, Order
from replay.ruleset import PRESETS, Ruleset
from replay.scoring import hand_outcome
from replay.trick import check_throw
from replay.units import decompose

S, H, D, C = 0, 1, 2, 3
JOKER = JOKER_LEVEL


def rules(name: str = "shengji-io-friends", **over) -> Ruleset:
    return Ruleset(**{"name": name, **PRESETS[name], **over})


def counts(text: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for c in parse_cards(text):
        out[c] = out.get(c, 0) + 1
    return out


def shapes(req) -> list[list[int]]:
    return [list(s) for s in req]


# -- ordered_card.rs: the orderings, as its own unit tests give them ---------------------------------

def test_tuple_partitions():   # ordered_card.rs test_find_tuple_partitions
    assert sjio_fallbacks.tuple_partitions(4) == ((4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1))
    assert sjio_fallbacks.tuple_partitions(6) == ((6,), (5, 1), (4, 2), (4, 1, 1), (3, 3), (3, 2, 1), (3, 1, 1, 1),
                                        (2, 2, 2), (2, 2, 1, 1), (2, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1))


def test_adjacent_assignments():   # ordered_card.rs test_compute_adjacent_assignments
    assert sjio_fallbacks.adjacent_assignments(3) == (((0, 1, 2),), ((0, 1), (2,)), ((0, 2), (1,)), ((0,), (1, 2)),
                                           ((0,), (1,), (2,)))
    assert sjio_fallbacks.adjacent_assignments(4)[4:8] == (((0,), (1, 2, 3)), ((0, 1), (2, 3)), ((0, 2), (1, 3)),
                                                ((0, 3), (1, 2)))
    assert len(sjio_fallbacks.adjacent_assignments(4)) == 15


def test_full_ordering():   # ordered_card.rs test_full_decomposition_ordering
    assert [shapes(r) for r in sjio_fallbacks.full_ordering(5)] == [
        [[5]], [[4], [1]], [[3, 2]], [[2, 3]], [[3], [2]], [[3], [1], [1]], [[2, 2], [1]], [[2], [2], [1]],
        [[2], [1], [1], [1]], [[1], [1], [1], [1], [1]]]
    six = [shapes(r) for r in sjio_fallbacks.full_ordering(6)]
    assert six[:9] == [[[6]], [[5], [1]], [[4, 2]], [[2, 4]], [[4], [2]], [[4], [1], [1]], [[3, 3]], [[3], [3]],
                       [[3, 2], [1]]]
    assert len(six) == 19


FALLBACKS = [
    # (lead shape, the shapes after it) — ordered_card.rs test_subsequent_decomposition_ordering
    ([[1]], []),
    ([[2]], [[[1], [1]]]),
    ([[3]], [[[2], [1]], [[1], [1], [1]]]),
    ([[4]], [[[3], [1]], [[2, 2]], [[2], [2]], [[2], [1], [1]], [[1], [1], [1], [1]]]),
    ([[2, 2]], [[[2], [2]], [[2], [1], [1]], [[1], [1], [1], [1]]]),
    ([[2], [2]], [[[2], [1], [1]], [[1], [1], [1], [1]]]),
    ([[2, 2], [3], [2]], [[[3], [2], [2], [2]], [[3], [2], [2], [1], [1]], [[2], [2], [2], [1], [1], [1]],
                          [[2], [2], [1], [1], [1], [1], [1]], [[2], [1], [1], [1], [1], [1], [1], [1]],
                          [[1]] * 9]),
    # issue 29: ♦777 ♦QQ (units in the engine's order: the pair first) → two pairs + one, a pair +
    # three singles, five singles; never a triple + singles
    ([[2], [3]], [[[2], [2], [1]], [[2], [1], [1], [1]], [[1]] * 5]),
]


@pytest.mark.parametrize("lead,expect", FALLBACKS)
def test_fallbacks(lead, expect):
    assert [shapes(r) for r in sjio_fallbacks.fallbacks(tuple(tuple(s) for s in lead))] == expect


def test_fallbacks_of_a_double_quadruple_tractor():
    # ordered_card.rs test_subsequent_decomposition_ordering, f(vec![vec![4, 4]]): 47 shapes
    got = [shapes(r) for r in sjio_fallbacks.fallbacks(((4, 4),))]
    assert len(got) == 47
    assert got[:5] == [[[4], [4]], [[4, 3], [1]], [[3, 4], [1]], [[4], [3], [1]], [[4, 2, 2]]]
    assert got[15:18] == [[[3, 3, 2]], [[3, 2, 3]], [[2, 3, 3]]]
    assert got[-1] == [[1]] * 8


def test_fallbacks_of_triples():
    # ordered_card.rs test_subsequent_decomposition_ordering (the loop over all-3s): each step
    # breaks one triple into a pair and a single, the last triple first
    got = [shapes(r) for r in sjio_fallbacks.fallbacks(((3,), (3,), (3,)))]
    assert got[0] == [[3], [3], [2], [1]]
    assert got[1] == [[3], [2], [2], [1], [1]]
    assert got[2] == [[2], [2], [2], [1], [1], [1]]


# -- trick.rs find_plays / from_cards: the split of a lead -------------------------------------------

O4S = Order(4, S)   # trick.rs tests: Trump::Standard { number: Four, suit: Spades }

READINGS = [
    # trick.rs test_play_formats (TractorRequirements::default())
    ("H2 H3 H7", [["H7", "H3", "H2"]]),
    ("H2 H2 H2", [["H2 H2 H2"]]),
    ("H2 H2 H3 H3", [["H3 H3 H2 H2"]]),
    ("H2 H2 H2 H3 H3", [["H2", "H3 H3 H2 H2"], ["H3 H3", "H2 H2 H2"]]),
    ("H2 H2 H3 H3 H3", [["H3", "H3 H3 H2 H2"], ["H3 H3 H3", "H2 H2"]]),
    ("H4 H4 S4 S4", [["S4 S4 H4 H4"]]),
    ("H4 H4 SA SA", [["H4 H4 SA SA"]]),
    ("SQ SQ SK SK SA", [["SA", "SK SK SQ SQ"]]),
    ("H3 H3 H3 H5 H5 H5", [["H5 H5 H5 H3 H3 H3"]]),
    ("H2 H2 H3 H3 H3 H5 H5 H5", [["H5 H5 H5", "H3", "H3 H3 H2 H2"], ["H5", "H3", "H5 H5 H3 H3 H2 H2"],
                                 ["H5 H5 H5 H3 H3 H3", "H2 H2"]]),
]


@pytest.mark.parametrize("cards,expect", READINGS)
def test_readings(cards, expect):
    got = sorted(sorted(sorted(sjio._as_unit(r, O4S.key).cards) for r in reading)
                 for reading in sjio.readings(parse_cards(cards), O4S))
    want = sorted(sorted(sorted(parse_cards(u)) for u in reading) for reading in expect)
    assert got == want


SPLITS = [
    # (level, trump, cards, units as (width, length) with their cards) — trick.rs from_cards: the
    # largest unit (cards, then tractor) is kept, and of those readings the last one found
    (10, S, "S9 S9 S9 SJ SJ SA SA H10 H10",   # issue 29: 8 players, 4 decks
     [(2, 2, "SA SA H10 H10"), (3, 1, "S9 S9 S9"), (2, 1, "SJ SJ")]),
    (4, S, "H2 H2 H3 H3 H3 H5 H5 H5",          # Titanic 333555 + pair 22, not tractor 223355 + singles
     [(3, 2, "H5 H5 H5 H3 H3 H3"), (2, 1, "H2 H2")]),
    (4, S, "H2 H2 H2 H3 H3",                   # a tractor (4 cards) before a triple
     [(2, 2, "H3 H3 H2 H2"), (1, 1, "H2")]),
    (2, S, "D5 D5 D5 D5 D6 D6 D6",             # 4 decks: the quadruple + triple reading is not the
     [(3, 2, "D6 D6 D6 D5 D5 D5"), (1, 1, "D5")]),   # last; the Titanic (6 cards) is largest
    (2, H, "D7 D7 D7 D7 D7 D8 D8",             # 5 copies (the engine allows 2 decks a player): the
     [(5, 1, "D7 D7 D7 D7 D7"), (2, 1, "D8 D8")]),   # quintuple (5 cards) outranks the tractor (4)
]


@pytest.mark.parametrize("level,trump,cards,expect", SPLITS)
def test_split(level, trump, cards, expect):
    o = Order(level, trump, split="shengji_io")
    got = sorted((u.width, u.length, tuple(sorted(u.cards))) for u in decompose(parse_cards(cards), o))
    want = sorted((w, length, tuple(sorted(parse_cards(cs)))) for w, length, cs in expect)
    assert got == want


def test_split_is_the_ruleset_option():
    # the other presets keep the longest-tractor split (Titanic fallback order of seed 004 and all)
    cards = parse_cards("S9 S9 S9 SJ SJ SA SA H10 H10")
    old = decompose(cards, Order.for_ruleset(10, S, rules("titanic")))
    assert sorted(u.shape for u in old) == [(1, 1), (2, 2), (2, 2)]
    new = decompose(cards, Order.for_ruleset(10, S, rules(players=8)))
    assert sorted(u.shape for u in new) == [(2, 1), (2, 2), (3, 1)]


# -- trick.rs is_legal_play: the follow --------------------------------------------------------------

FOLLOWS = [
    # (players, decks, level, trump, lead, holding of the led suit, play, legal)
    # issue 29: P6 leads ♦777 ♦QQ (6 players, 3 decks, ♠ trump, level 2); P3 holds ♦555
    (6, 3, 2, S, "D7 D7 D7 DQ DQ", "D4 D5 D5 D5 D9 DQ DK", "D4 D5 D5 D9 DQ", True),
    (6, 3, 2, S, "D7 D7 D7 DQ DQ", "D4 D5 D5 D5 D9 DQ DK", "D4 D5 D9 DQ DK", False),   # owes a pair
    (6, 3, 2, S, "D7 D7 D7 DQ DQ", "D4 D5 D5 D5 D9 D9 DK", "D5 D5 D5 D9 D9", True),
    (6, 3, 2, S, "D7 D7 D7 DQ DQ", "D4 D5 D5 D5 D9 D9 DK", "D5 D5 D9 D9 DK", False),  # triple + pair held
    (6, 3, 2, S, "D7 D7 D7 DQ DQ", "D4 D5 D5 D9 D9 DJ DK", "D5 D5 D9 D9 DK", True),   # two pairs + one
    (6, 3, 2, S, "D7 D7 D7 DQ DQ", "D4 D5 D5 D5 D9 D9 DK", "D5 D5 D5 D9 DK", False),  # triple + pair held
    # a triple led: a pair and a single, never two pairs' worth (5 players, 3 decks)
    (5, 3, 5, H, "C9 C9 C9", "C2 C3 C3 C4 C4", "C3 C3 C4", True),
    (5, 3, 5, H, "C9 C9 C9", "C2 C3 C3 C4 C4", "C2 C3 C4", False),
    # a quadruple led (4 decks, 8 players): triple + single comes before a tractor of two pairs
    (8, 4, 2, S, "H9 H9 H9 H9", "H5 H5 H6 H6 HJ HJ HJ HK", "H5 H5 H6 H6", False),
    (8, 4, 2, S, "H9 H9 H9 H9", "H5 H5 H6 H6 HJ HJ HJ HK", "HJ HJ HJ H5", True),
    (8, 4, 2, S, "H9 H9 H9 H9", "H5 H5 H6 H6 HK", "H5 H5 H6 H6", True),                # then the tractor
    (8, 4, 2, S, "H9 H9 H9 H9", "H5 H5 H6 H6 HK", "H5 H5 HK H6", False),
    # a Titanic led (7 players, 3 decks): a triple followed by a pair on adjacent ranks is owed
    # before two triples apart ([3, 2] is the third shape after [3, 3])
    (7, 3, 2, D, "C7 C7 C7 C8 C8 C8", "C4 C4 C4 C5 C5 CJ CJ CJ", "C4 C4 C4 CJ CJ CJ", True),   # [[3],[3]]
    (7, 3, 2, D, "C7 C7 C7 C8 C8 C8", "C4 C4 C4 C5 C5 CJ CQ", "C4 C4 C4 C5 C5 CJ", True),
    (7, 3, 2, D, "C7 C7 C7 C8 C8 C8", "C4 C4 C4 C5 C5 CJ CQ", "C4 C4 C4 C5 CJ CQ", False),
    # 4 players, 2 decks: the walk gives what `strict` gave (a tractor led, a shorter one owed)
    (4, 2, 2, S, "H7 H7 H8 H8 H9 H9", "H3 H3 H4 H4 HK HA", "H3 H3 H4 H4 HK HA", True),
    (4, 2, 2, S, "H7 H7 H8 H8 H9 H9", "H3 H3 H4 H4 HJ HK HA", "H3 H3 H4 HJ HK HA", False),
]


@pytest.mark.parametrize("players,decks,level,trump,lead,held,play,legal", FOLLOWS)
def test_follow(players, decks, level, trump, lead, held, play, legal):
    rs = rules(players=players, decks=decks) if players != 4 else rules("shengji-io", decks=decks)
    o = Order.for_ruleset(level, trump, rs)
    lead_cards = parse_cards(lead)
    units = decompose(lead_cards, o)
    err = follow_error(units, o.eff[lead_cards[0]], counts(held), parse_cards(play), o, rs, explain=True)
    assert (err is None) == legal, err
    if not legal:
        assert err is not None and err.code == "SJ404" and "shengji.io" in err.message


def test_follow_issue_example_names_the_owed_shape():
    rs = rules(players=6, decks=3)
    o = Order.for_ruleset(2, S, rs)
    lead = parse_cards("D7 D7 D7 DQ DQ")
    err = follow_error(decompose(lead, o), o.eff[lead[0]], counts("D4 D5 D5 D5 D9 DQ DK"),
                       parse_cards("D4 D5 D9 DQ DK"), o, rs, explain=True)
    assert err is not None and "a pair + three singles" in err.message
    # the former reading (strict obligations) asked for the triple: SJ404 on the engine's legal play
    strict = rs.model_copy(update={"follow_policy": "strict"})
    assert follow_error(decompose(lead, o), o.eff[lead[0]], counts("D4 D5 D5 D5 D9 DQ DK"),
                        parse_cards("D4 D5 D5 D9 DQ"), o, strict) is not None


FITS_FIVE = [
    # 5 copies of a card (the engine allows up to two decks a player): format_match.rs — a card of
    # k copies fills k // w tuples of width w
    ("D7 D7 D7 D7 D7", ((2,), (2,), (1,)), True),
    ("D7 D7 D7 D7 D7", ((3,), (2,)), True),
    ("D7 D7 D7 D7 D7", ((3,), (3,)), False),
    ("D7 D7 D7 D7 D7 D8 D8", ((5, 2),), True),
    ("D7 D7 D7 D7 D7 D8 D8", ((2, 5),), False),
]


@pytest.mark.parametrize("cards,req,ok", FITS_FIVE)
def test_fits_five_copies(cards, req, ok):
    assert sjio.fits(counts(cards), req, Order(2, H)) == ok


# -- trick.rs Trick::play_cards: the throw check and the forced unit ------------------------------------

def _throw(rs, level, trump, lead, others):
    o = Order.for_ruleset(level, trump, rs)
    seats = ["P1"] + [f"P{k + 2}" for k in range(len(others))]
    holdings = [counts(lead)] + [counts(h) for h in others]
    return check_throw(parse_cards(lead), 0, holdings, seats, o, rs)


def test_issue_throw_stands():
    # issue 29: P8 throws ♠999 ♠JJ ♠AA ♥10♥10 (8 players, 4 decks, ♠ trump, level 10); the others
    # hold single spades above 9 but no higher triple, pair or tractor: the throw stands
    rs = rules(players=8, decks=4)
    others = ["SQ SK D3", "C4 C4 C5", "SQ", "H2 H3", "DK", "S2 S3", "C9"]
    chk = _throw(rs, 10, S, "S9 S9 S9 SJ SJ SA SA H10 H10", others)
    assert chk.forced is None and not chk.blockers
    # the longest-tractor split reads a single ♠9 that ♠Q beats
    old = rs.model_copy(update={"unit_split": "longest"})
    assert _throw(old, 10, S, "S9 S9 S9 SJ SJ SA SA H10 H10", others).forced is not None


def test_forced_unit_is_the_first_the_first_blocker_beats():
    # 6 players, 3 decks: the second player cannot beat anything, the third beats the triple and
    # the pair; the pair (fewest cards) is forced
    rs = rules(players=6, decks=3)
    chk = _throw(rs, 2, S, "H5 H5 H5 H9 H9 HA", ["H3 H4", "H6 H6 H6 HK HK", "HQ HQ HQ"])
    assert chk.forced is not None and sorted(chk.forced.cards) == sorted(parse_cards("H9 H9"))
    assert chk.blockers[0].seat == "P3" and len(chk.allowed) == 1


def test_forced_unit_of_equal_singles_is_the_first_in_card_order():
    # off-suit level cards ♥2 and ♦2 are equal; the engine's unit order puts ♥ before ♦ (its card
    # order ♠ ♥ ♦ ♣ breaks the tie), and only that one is forced (5 players, 3 decks)
    rs = rules(players=5, decks=3)
    chk = _throw(rs, 2, S, "H2 D2", ["S2", "C3"])
    assert chk.forced is not None and chk.forced.cards == tuple(parse_cards("H2"))
    assert chk.allowed == (chk.forced,)
    assert not chk.accepts(parse_cards("D2"))


def test_tractor_blocks_only_from_the_lead_tractors_second_card():
    # level 2, ♥ trump: the lead tractor ♥A♥A ♦2♦2 (second card ♦2) + BJ; P2 holds ♠2♠2 ♥2♥2, a
    # tractor starting at ♠2, which the engine's card order puts below ♦2: not a blocker
    rs = rules(players=4, decks=3)
    chk = _throw(rs, 2, H, "HA HA D2 D2 BJ", ["S2 S2 H2 H2", "C3", "C4"])
    assert chk.forced is None
    # starting at ♣2 (above ♦2) it blocks
    chk = _throw(rs, 2, H, "HA HA D2 D2 BJ", ["C2 C2 H2 H2", "C3", "C4"])
    assert chk.forced is not None and chk.forced.length == 2


def test_titanic_blocked_by_a_higher_titanic():
    # 7 players, 3 decks: ♦777888 + ♦A; a higher Titanic ♦999 ♦10♦10♦10 beats it
    rs = rules(players=7, decks=3)
    chk = _throw(rs, 2, S, "D7 D7 D7 D8 D8 D8 DA", ["D9 D9 D9 D10 D10 D10"] + ["C3"] * 5)
    assert chk.forced is not None and chk.forced.shape == (3, 2)


# -- player.rs advance, play_phase.rs compute_player_level_deltas: the top rank --------------------------

RAISES = [
    # (level, steps, dealers, expected) — Unrestricted advancement, max rank NoTrump (written Joker)
    (ACE, 1, True, JOKER),        # the dealers at A rise to NoTrump
    (ACE, 3, True, JOKER),        # and no further in one hand (bump_idx > 0 at the top)
    (KING, 3, True, ACE),         # a jump stops at A
    (QUEEN, 3, False, ACE),       # attackers stop at A
    (ACE, 2, False, ACE),         # and do not leave it
    (JOKER, 3, False, JOKER),     # nor NoTrump
    (JOKER, 1, True, 2),          # the dealers at NoTrump start again at 2
    (JOKER, 3, True, 4),          # and go on rising in the same hand
]


@pytest.mark.parametrize("level,steps,dealers,expect", RAISES)
def test_top_rank_four_players(level, steps, dealers, expect):
    from replay.scoring import raise_level
    rs = rules("shengji-io")
    assert raise_level(rs, level, steps, defended=dealers) == expect


def test_top_rank_hand_outcome():
    rs = rules("shengji-io")
    out = hand_outcome(rs, {"NS": ACE, "EW": 9}, "N", 75)          # dealers keep: A → NoTrump
    assert out.levels["NS"] == JOKER and not out.match_over
    out = hand_outcome(rs, {"NS": JOKER, "EW": 9}, "N", 0)         # +3 at NoTrump: 2, 3, 4
    assert out.levels["NS"] == 4 and not out.match_over


def test_top_rank_friends():
    # 6 players: the dealer P1 at 10 with friend P3 at NoTrump and P5 at A wins by 2 levels: P3
    # stays (leaving NoTrump needs the dealer at NoTrump too), P5 rises to NoTrump only
    rs = rules(players=6)
    seats = ("P1", "P2", "P3", "P4", "P5", "P6")
    levels = {"P1": 10, "P2": 5, "P3": JOKER, "P4": 5, "P5": ACE, "P6": 5}
    out = friends_outcome(rs, levels, "P1", ("P1", "P3", "P5"), seats, 10 * 3)
    assert out.levels["P1"] == QUEEN and out.levels["P3"] == JOKER and out.levels["P5"] == JOKER
    # with the dealer at NoTrump the friend at NoTrump starts again at 2 and goes on (2 levels and
    # the bonus level of a team smaller than called: scoring.rs BonusLevelForSmallerLandlordTeam)
    levels["P1"] = JOKER
    out = friends_outcome(rs, levels, "P1", ("P1", "P3"), seats, 10 * 3)
    assert out.levels["P1"] == 4 and out.levels["P3"] == 4


def test_joker_level_hand_is_no_trump_without_level_cards():
    # draw_phase.rs advance: a dealer at NoTrump plays Trump::NoTrump { number: None }
    o = Order.for_ruleset(JOKER, S, rules())
    assert o.trump == NT and sorted(o.trump_cards) == [52, 53]


# -- bidding.rs valid_bids, draw_phase.rs reveal_card: bids ---------------------------------------------

def ev(seat: str, cards: str) -> DeclEvent:
    return DeclEvent(seat, parse_cards(cards))


BIDS = [
    # (decks, events, trump, declarer, accepted) — JokerOrGreaterLength, ReinforceWhileWinning,
    # BothTwoOrMore; 4 players, level 2
    (3, [ev("N", "LJ LJ"), ev("W", "BJ BJ")], NT, "W", [True, True]),          # BJ pair over LJ pair
    (3, [ev("N", "LJ LJ"), ev("W", "H2 H2 H2")], H, "W", [True, True]),        # more copies
    (3, [ev("N", "BJ BJ"), ev("W", "LJ LJ")], NT, "N", [True, False]),
    (3, [ev("N", "S2"), ev("N", "H2 H2")], S, "N", [True, False]),             # the winner only reinforces
    (3, [ev("N", "S2"), ev("N", "S2 S2")], S, "N", [True, True]),
    (3, [ev("N", "S2"), ev("W", "H2 H2"), ev("N", "S2 S2")], H, "W", [True, True, False]),  # equal count
    (3, [ev("N", "S2"), ev("W", "H2 H2"), ev("N", "S2 S2 S2")], S, "N", [True, True, True]),
    (3, [ev("N", "LJ LJ"), ev("N", "LJ LJ LJ")], NT, "N", [True, True]),       # a joker bid reinforced
    (4, [ev("N", "LJ"), ev("W", "S2")], S, "W", [False, True]),                # one joker bids nothing
    (4, [ev("N", "H2 H2 H2"), ev("W", "BJ BJ BJ"), ev("S", "C2 C2 C2 C2")], C, "S", [True, True, True]),
]


@pytest.mark.parametrize("decks,events,trump,declarer,accepted", BIDS)
def test_bids(decks, events, trump, declarer, accepted):
    rs = rules("shengji-io", decks=decks)
    res = resolve_declarations(rs, 2, events, first_hand=True, dealer=None, first_drawer="N", deal=None,
                               kitty=None, declare_none=False)
    assert (res.trump, res.declarer, res.accepted) == (trump, declarer, accepted)


@pytest.mark.parametrize("kitty,trump", [
    ("H7 S3 C4 D5 S6 S8", H),      # the kitty's first card (draw_phase.rs KittyBidPolicy::FirstCard)
    ("LJ H7 S3 C4 D5 S6", NT),     # a joker there: no trump (Card::SmallJoker → Trump::NoTrump)
    ("C9 LJ S3 C4 D5 S6", C),
])
def test_no_bid_takes_the_kittys_first_card(kitty, trump):
    rs = rules("shengji-io")
    res = resolve_declarations(rs, 5, [], first_hand=False, dealer="E", first_drawer="E", deal=None,
                               kitty=tuple(parse_cards(kitty)), declare_none=True)
    assert res.trump == trump and res.dealer == "E"


def test_first_hand_without_a_bid_is_dealt_again():
    # draw_phase.rs reveal_card needs a landlord: on the first hand, no bid means no game (a redeal)
    rs = rules("shengji-io")
    res = resolve_declarations(rs, 2, [], first_hand=True, dealer=None, first_drawer="N", deal=None,
                               kitty=tuple(parse_cards("H7 S3 C4 D5 S6 S8")), declare_none=True)
    assert res.redeal and res.trump is None


# -- trick.rs compute_winner with format_match.rs find_format_matches: who wins a throw ------------------

def test_ruff_over_ruff_compares_with_the_reading_the_engine_found_first():
    # 5 players, ♠ trump: ♦AA ♦K ♦Q stands; P2 ruffs ♠77 ♠99, which the engine's matcher reads
    # first as singles ♠9 ♠9 + pair ♠77 (the singles are filled first, from the highest card);
    # P3's ♠JJ ♠Q ♠8 must then beat ♠9 with both singles: ♠8 does not, P2 keeps the trick
    from replay.trick import trick_winner
    rs = rules(players=5, decks=2)
    o = Order.for_ruleset(2, S, rs)
    plays = [parse_cards(p) for p in ("DA DA DK DQ", "S7 S7 S9 S9", "SJ SJ SQ S8", "D3 D4 D5 D6", "D7 D8 D9 D10")]
    w = trick_winner(plays, o, rs)
    assert w.index == 1 and w.ruffed
    assert sorted(u.shape for u in w.units) == [(1, 1), (1, 1), (2, 1)]
    # a third ruff whose every unit is higher wins
    plays[4] = parse_cards("SK SK SA SQ")
    assert trick_winner(plays, o, rs).index == 4
    # the former comparison (each shape's units sorted high to low) gave the trick to P3
    old = rs.model_copy(update={"unit_split": "longest"})
    assert trick_winner(plays[:4], o, old).index == 2


def test_matcher_order():
    # format_match.rs: the first reading of ♠7799 as single + single + pair
    o = Order(2, S, split="shengji_io")
    first = next(sjio_winner.matches(parse_cards("S7 S7 S9 S9"), [(1,), (1,), (2,)], o))
    assert first == [((parse_cards("S9")[0], 1),), ((parse_cards("S9")[0], 1),), ((parse_cards("S7")[0], 2),)]
    # multiset_iter.rs: the lowest kinds filled first
    assert list(sjio_winner._multiset_k([1, 1, 1], 2)) == [[(0, 1), (1, 1)], [(0, 1), (2, 1)], [(1, 1), (2, 1)]]
