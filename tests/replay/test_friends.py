"""Finding friends (找朋友): table tests for each rule, citing seed 001 §4 (選對家)
or the shengji.io behaviour (rbtying/shengji, core/src/game_state/*.rs,
mechanics/src/scoring.rs) they come from."""

from __future__ import annotations

import pytest

from notation import parse
from primitives.cards import parse_cards as C
from replay.friend_calls import friends_bonus, friends_outcome
from replay.friends import table_seats
from replay.game import replay
from replay.order import Order
from replay.ruleset import preset, resolve
from replay.trick import trick_winner
from replay.units import decompose

#: five players, one deck, two cards each (54 − 44): a whole hand in two tricks
SMALL = '[Rules "shengji-io-friends"] [Rule.decks "1"] [Rule.kitty_size "44"]\n'


def run(text: str):
    records, diags = parse(text)
    assert diags == []
    return replay(records[0])


def codes(m) -> list[str]:
    return [d.code for d in m.diagnostics]


def hand(body: str, head: str = SMALL, levels: str = "levels P1 2 P2 2 P3 2 P4 2 P5 2",
         dealer: str = "P1", trump: str = "S") -> str:
    return f"{head}\nhand 1\n{levels}\ndealer {dealer}\ntrump {trump}\n{body}\n"


# -- the table: decks, kitty, hand size, calls (shengji.io settings.rs / initialize_phase.rs) ---------

@pytest.mark.parametrize("players, decks, kitty, cards, calls", [
    (4, 2, 8, 25, 1), (5, 2, 8, 20, 1), (6, 3, 6, 26, 2), (7, 3, 8, 22, 2), (8, 4, 8, 26, 3)])
def test_decks_kitty_and_calls_by_players(players, decks, kitty, cards, calls):
    # shengji.io: one deck per two players; kitty = deck mod players (a round when 0), + a round below 5;
    # FindingFriends calls players / 2 − 1 friends
    rs, diags = resolve("shengji-io-friends", {"players": (str(players), None)})
    assert diags == []
    assert (rs.decks, rs.kitty, rs.hand_size, rs.friend_calls) == (decks, kitty, cards, calls)


def test_fixed_partners_need_four_players():
    _, diags = resolve("standard", {"players": ("6", None)})
    assert [d.code for d in diags] == ["SJ152"]


def test_four_player_presets_unchanged():
    for name in ("standard", "shengji-io", "tractor97", "titanic", "one-deck"):
        rs = preset(name)
        assert (rs.players, rs.partners, rs.friend_calls) == (4, "fixed", 0)


# -- reveals (shengji.io play_phase.rs: the k-th copy played, in play order) ------------------------

def test_friend_joins_when_the_called_copy_is_played():
    m = run(hand("friend 1st HA\n"
                 "1. P1: HK  P2: HA  P3: H3  P4: H4  P5: H5\n"
                 "2. P2: C3  P3: C4  P4: C5  P5: C6  P1: C7"))
    h = m.hands[0]
    assert [(f.seat, f.trick) for f in h.friends] == [("P2", 1)]
    assert h.team == ("P1", "P2") and h.attackers == "P3 P4 P5"
    assert h.team_at(0) == ("P1",) and h.team_at(1) == ("P1", "P2")


def test_second_copy_counts_every_copy_played_before_it():
    # two decks: the 1st ♥A played by P3 does not answer "2nd ♥A"; P5's (later in the trick) does
    head = '[Rules "shengji-io-friends"] [Rule.kitty_size "98"]\n'     # 108 − 98: two cards each
    m = run(hand("friend 2nd HA\n"
                 "1. P1: HK  P2: H3  P3: HA  P4: H4  P5: HA\n"
                 "2. P3: C3  P4: C4  P5: C5  P1: C6  P2: C7", head=head))
    assert [(f.seat, f.trick) for f in m.hands[0].friends] == [("P5", 1)]


def test_dealer_playing_the_called_card_uses_the_call_up():
    # shengji.io MultipleJoinPolicy::Unrestricted: a player already on the team answers the call
    # without anyone joining; the dealer then plays alone (and earns the bonus level by winning)
    m = run(hand("friend 1st HA P1 @1\n"
                 "1. P1: HA  P2: H3  P3: H4  P4: H5  P5: H6\n"
                 "2. P1: SA  P2: C3  P3: C4  P4: C6  P5: C7\n"
                 "points 0"))
    h = m.hands[0]
    assert codes(m) == []
    assert h.team == ("P1",) and h.bonus
    # 0 points: +3 (shengji.io's table), +1 bonus for a team smaller than called (1 + 1)
    assert h.outcome.levels == {"P1": 6, "P2": 2, "P3": 2, "P4": 2, "P5": 2}
    assert h.outcome.next_dealer == "P1"          # the next winner after the dealer: the dealer again


def test_never_answered_call():
    m = run(hand("friend 1st HA none\n"
                 "1. P1: SK  P2: S3  P3: S4  P4: S5  P5: S6\n"
                 "2. P1: SA  P2: C3  P3: C4  P4: C6  P5: C7"))
    h = m.hands[0]
    assert codes(m) == [] and h.team == ("P1",) and h.friends[0].seat is None


# -- seed 001 §4: the holder nearest the dealer in play order; the dealer holding both plays alone ---

SEED001 = ('[Rules "tractor97"] [Rule.partners "friends"] [Rule.friend_rule "held"] '
           '[Rule.decks "2"] [Rule.kitty_size "100"]\n')     # four players, two cards each


def test_seed001_partner_is_the_holder_nearest_the_dealer():
    # W and E both hold ♠A; W plays right after the dealer N: W is the partner, though E plays it first
    m = run(hand("friend SA\n"
                 "1. N: HK  W: H3  S: H4  E: SA\n"
                 "2. N: C3  W: SA  S: C4  E: C5", head=SEED001, levels="levels N 2 W 2 S 2 E 2",
                 dealer="N", trump="D"))
    h = m.hands[0]
    assert [(f.seat, f.trick) for f in h.friends] == [("W", 2)]
    assert h.team == ("N", "W")


def test_seed001_dealer_holding_both_plays_alone():
    m = run(hand("friend SA N\n"
                 "1. N: SA  W: S3  S: S4  E: S5\n"
                 "2. N: SA  W: C3  S: C4  E: C5", head=SEED001, levels="levels N 2 W 2 S 2 E 2",
                 dealer="N", trump="D"))
    h = m.hands[0]
    assert h.team == ("N",) and h.attackers == "W S E"
    assert [d.code for d in m.diagnostics] == []


def test_seed001_holder_who_never_shows_the_card_is_not_revealed():
    # W holds ♠A (its seat line; E holds it too) but the record stops before W plays it:
    # the partner is named by holding, revealed only by playing (seed 001 §4); nobody yet
    m = run(hand("W: SA S3 C7\nfriend SA\n"
                 "1. N: HK  W: S3  S: H4  E: SA", head=SEED001, levels="levels N 2 W 2 S 2 E 2",
                 dealer="N", trump="D"))
    h = m.hands[0]
    assert [(f.seat, f.trick) for f in h.friends] == [(None, None)]
    assert h.team == ("N",) and not h.complete


def test_seed001_forbidding_the_self_call():
    head = SEED001 + '[Rule.friend_self_call "no"]\n'
    m = run(hand("friend SA\n"
                 "1. N: SA  W: S3  S: S4  E: S5\n"
                 "2. N: SA  W: C3  S: C4  E: C5", head=head, levels="levels N 2 W 2 S 2 E 2",
                 dealer="N", trump="D"))
    assert codes(m) == ["SJ520"] and "holds every copy" in m.diagnostics[0].message


# -- impossible calls (shengji.io exchange_phase.rs set_friends) -----------------------------------------

@pytest.mark.parametrize("call, policy, why", [
    ("friend 1st SA", "unrestricted", "trump suit"),        # ♠ is trump
    ("friend 1st H2", "unrestricted", "level card"),        # level 2
    ("friend 1st BJ", "unrestricted", "joker"),
    ("friend 1st HA", "highest_not_allowed", "highest card"),
    ("friend 1st HK", "points_not_allowed", "point card"),
])
def test_forbidden_calls(call, policy, why):
    head = SMALL + f'[Rule.friend_cards "{policy}"]\n'
    m = run(hand(call + "\n1. P1: HK  P2: H3  P3: H4  P4: H5  P5: H6\n"
                        "2. P1: HQ  P2: C3  P3: C4  P4: C6  P5: C7", head=head))
    assert "SJ520" in codes(m)
    assert why in next(d.message for d in m.diagnostics if d.code == "SJ520")


def test_trumps_included_allows_a_trump():
    head = SMALL + '[Rule.friend_cards "trumps_included"]\n'
    m = run(hand("friend 1st SA\n1. P1: HK  P2: H3  P3: H4  P4: H5  P5: H6\n"
                 "2. P1: HQ  P2: C3  P3: C4  P4: C6  P5: C7", head=head))
    assert "SJ520" not in codes(m)


def test_ordinal_beyond_the_decks():
    # shengji.io: "need to pick a card that exists!" (initial_skip >= num_decks)
    m = run(hand("friend 2nd HA\n1. P1: HK  P2: H3  P3: H4  P4: H5  P5: H6\n"
                 "2. P1: HQ  P2: C3  P3: C4  P4: C6  P5: C7"))
    assert "SJ521" in codes(m)


def test_wrong_number_of_calls():
    m = run(hand("friend 1st HA\nfriend 1st DA\n1. P1: HK  P2: H3  P3: H4  P4: H5  P5: H6\n"
                 "2. P1: HQ  P2: C3  P3: C4  P4: C6  P5: C7"))
    assert "SJ522" in codes(m)


# -- reveals written wrong -----------------------------------------------------------------------------------

@pytest.mark.parametrize("written, fragment", [
    ("friend 1st HA P3 @1", "not by P3"),
    ("friend 1st HA P2 @2", "not at trick 2"),
    ("friend 1st HA none", "never answered"),
])
def test_reveal_written_wrong(written, fragment):
    m = run(hand(written + "\n1. P1: HK  P2: HA  P3: H3  P4: H4  P5: H5\n"
                           "2. P2: C3  P3: C4  P4: C5  P5: C6  P1: C7"))
    assert codes(m) == ["SJ523"] and fragment in m.diagnostics[0].message


# -- points by the final teams (shengji.io calculate_points) --------------------------------------------------

def test_points_count_by_the_teams_at_the_end():
    # P2 wins ♥K (10) in trick 1 before anyone knows; P2 then reveals (plays ♥A) in trick 2:
    # at the end P2 is the dealer's friend, so those 10 points are not the attackers'
    m = run(hand("friend 1st HA P2 @2\n"
                 "1. P1: H3  P2: HK  P3: H4  P4: H6  P5: H7\n"
                 "2. P2: HA  P3: H8  P4: H9  P5: HJ  P1: HQ\n"
                 "points 0", trump="C"))
    h = m.hands[0]
    assert codes(m) == []
    assert [t.to_attackers for t in h.tricks] == [False, False]
    assert h.attacker_points == 0


def test_attackers_score_their_tricks_and_the_kitty():
    m = run(hand("friend 1st HA P2 @1\n"
                 "1. P1: HK  P2: HA  P3: H3  P4: H4  P5: H5\n"
                 "2. P2: D3  P3: DK  P4: D5  P5: D4  P1: D6", trump="C"))
    h = m.hands[0]
    # P3 (an attacker) wins trick 2: ♦K 10 + ♦5 5 = 15, and the last trick: the kitty × 2 (a single)
    assert h.tricks[1].winner == "P3" and h.card_points == 15 and h.multiplier == 2
    assert h.attacker_points == 15 + h.kitty_points


# -- levels per player ---------------------------------------------------------------------------------------

def test_each_winning_player_rises_on_their_own_level():
    rs = preset("shengji-io-friends")
    seats = ("P1", "P2", "P3", "P4", "P5")
    levels = {"P1": 5, "P2": 2, "P3": 9, "P4": 3, "P5": 2}
    # 120 with two decks: attackers +1, the deal passes to the first attacker after the dealer
    o = friends_outcome(rs, levels, "P1", ("P1", "P3"), seats, 120)
    assert o.levels == {"P1": 5, "P2": 3, "P3": 9, "P4": 4, "P5": 3} and o.next_dealer == "P2"
    # 50: the dealer's team +1 each; P3 is the next team member after the dealer
    o = friends_outcome(rs, levels, "P1", ("P1", "P3"), seats, 50)
    assert o.levels == {"P1": 6, "P2": 2, "P3": 10, "P4": 3, "P5": 2} and o.next_dealer == "P3"
    assert not friends_bonus(rs, ("P1", "P3"), True) and o.gained == 1      # a full team: no bonus


def test_bonus_level_for_a_smaller_team():
    rs, _ = resolve("shengji-io-friends", {"players": ("6", None)})     # two calls: a team of 3
    seats = table_seats(parse("hand\n")[0][0], rs)
    levels = dict.fromkeys(seats, 2)
    o = friends_outcome(rs, levels, "P1", ("P1", "P4"), seats, 60)    # 3 decks: 60 < 120 → +1
    assert friends_bonus(rs, ("P1", "P4"), True) and not friends_bonus(rs, ("P1", "P4"), False)
    assert o.gained == 2 and not o.hooked_back
    assert o.levels["P1"] == 4 and o.levels["P4"] == 4 and o.levels["P2"] == 2


def test_levels_written_wrong_per_player():
    text = hand("friend 1st HA P2 @1\n"
                "1. P1: HK  P2: HA  P3: H3  P4: H4  P5: H5\n"
                "2. P2: SA  P3: C4  P4: C5  P5: C6  P1: C7\npoints 0")
    text += "\nhand 2\nlevels P1 5 P2 5 P3 2 P4 3 P5 2\ndealer P2\ntrump S\n"
    m = run(text)
    # hand 1: the dealer's team (P1, P2) kept everything: +3 each → P1 5 P2 5; P4 is written 3
    [d] = [d for d in m.diagnostics if d.code == "SJ524"]
    assert "P4 3 (the previous hands give 2)" in d.message


def test_seat_not_at_the_table():
    m = run(hand("1. P1: HK  P2: HA  P3: H3  P4: H4  P6: H5"))
    assert "SJ525" in codes(m)


def test_friend_lines_under_fixed_partner_rules():
    m = run("hand 1\nlevels NS 2 EW 2\ndealer N\ntrump S\nfriend 1st HA\n1. N: HK  W: HA  S: H3  E: H4\n")
    assert codes(m)[0] == "SJ526"


# -- shengji.io's all_units reading (the five-player trick of shengji.io issue #397) -------------------------

def test_all_units_tries_every_reading_of_a_follow():
    rs = preset("shengji-io-friends")
    order = Order.for_ruleset(2, 3, rs)          # trump ♣, level 2
    plays = [C(s) for s in ("D88JQ", "C55A S2", "SQ CJJK", "S33 C78", "C6622")]
    w = trick_winner(plays, order, rs, decompose(plays[0], order))
    assert w.index == 4                           # ♣66 + ♣2 ♣2 beats ♣55 + ♣A + ♠2
    # under largest_unit the pairs decide: ♣22 (read as the pair) beats ♣55 as well
    w = trick_winner(plays, order, preset("standard"), decompose(plays[0], order))
    assert w.index == 4


def test_all_units_still_needs_every_unit_to_beat():
    rs = preset("shengji-io")
    order = Order.for_ruleset(2, 3, rs)
    plays = [C(s) for s in ("D88JQ", "C55A S2", "C6643")]
    assert trick_winner(plays, order, rs, decompose(plays[0], order)).index == 1
