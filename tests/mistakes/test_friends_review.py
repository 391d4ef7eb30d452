"""The finding-friends review (analyzer/review/mistakes/friends.py): table cases
and the property that nothing hidden from the player leaks into their view.

The hand-made hand (five players, one deck, three cards each: the kitty,
buried by the dealer P1, holds no point card; trump ♠, level 2; the call
"1st ♣A", answered by P3 in trick 1):

1. P1 ♥5, P2 ♥K, P3 ♣A (void in ♥: P3 is revealed P1's friend), P4 ♥10, P5 ♦5 (void in ♥): P2 wins 30.
2. P2 ♠K, P3 ♠5, P4 LJ, P5 ♦K (void in trumps), P1 ♠10: the blunder. P1, last to
   play, holds BJ and ♠10: BJ wins the trick (25 points kept from the
   attackers, and P1 leads the ♠10 in the last trick, which no card left can
   beat); ♠10 gives the attackers 35 and the deal (65 ≥ 40, one deck).
   From P1's view (the four cards left, ♣5 ♣10 ♣K ♦10, dealt any way) the
   loss is 35 in every deal.
3. P4 ♣K, P5 ♦10, P1 BJ, P2 ♣5, P3 ♣10: every play forced (one card each).
"""

from __future__ import annotations

from collections import Counter

import pytest

from analyzer.review.mistakes import review_full
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.friends import FriendsHand, sample_states
from notation import parse
from primitives.cards import deck_list, points, to_str
from primitives.cards import parse_cards as C
from replay.game import replay

HEAD = '[Rules "shengji-io-friends"] [Rule.decks "1"] [Rule.kitty_size "39"]\n'
TRICKS = ["1. P1: H5  P2: HK  P3: CA  P4: H10  P5: D5",
          "2. P2: SK  P3: S5  P4: LJ  P5: DK  P1: {p1}",
          "3. {t3}"]
T3_BLUNDER = "P4: CK  P5: D10  P1: BJ  P2: C5  P3: C10"


def friends_text(p1: str = "S10", t3: str = T3_BLUNDER, tricks: list[str] | None = None) -> str:
    tricks = tricks or [TRICKS[0], TRICKS[1].format(p1=p1), TRICKS[2].format(t3=t3)]
    played: Counter[int] = Counter()
    for t in tricks:
        played.update(C(" ".join(w for w in t.split()[1:] if not w.startswith("P"))))
    left = Counter(deck_list(1))
    left.subtract(played)
    kitty = sorted(left.elements())
    assert len(kitty) == 39
    bury = " ".join(to_str(c) for c in kitty)
    return (f"{HEAD}\nhand 1\nlevels P1 2 P2 2 P3 2 P4 2 P5 2\ndealer P1\ntrump S\n"
            f"bury P1: {bury}\nfriend 1st CA\n" + "\n".join(tricks) + "\n")


def reviewed(text: str, samples: int = 8):
    records, diags = parse(text)
    assert diags == []
    m = replay(records[0])
    assert [d.code for d in m.diagnostics if d.severity == "error"] == []
    return m, review_full(m, record=records[0], samples=samples)


def decision(rv, trick: int, seat: str):
    return next(d for h in rv.hands for d in h.decisions if d.trick == trick and d.seat == seat)


def test_the_hand_replays_as_described():
    m, _ = reviewed(friends_text())
    h = m.hands[0]
    assert h.team == ("P1", "P3") and h.attacker_points == 65


def test_feeding_the_attackers_trick_is_a_blunder_from_the_dealers_view():
    _, rv = reviewed(friends_text())
    d = decision(rv, 2, "P1")
    assert d.judged and not d.forced and not d.exact
    assert d.band == "blunder"
    assert d.loss == pytest.approx(35) and d.loss_se == pytest.approx(0)
    assert d.friends is not None and d.friends["dealer_team_deals"] == d.samples == 8
    assert "play-outs" in d.friends["valued"]
    assert C("BJ") == d.options[0].play
    f = [f for f in rv.findings if f.trick == 2 and f.seat == "P1"]
    assert len(f) == 1 and f[0].band == "blunder" and f[0].cost == 35
    assert "friends not yet revealed" in f[0].message and "no exact window" in f[0].message


def test_winning_the_trick_is_no_mistake():
    _, rv = reviewed(friends_text(p1="BJ", t3="P1: S10  P2: C5  P3: C10  P4: CK  P5: D10"))
    d = decision(rv, 2, "P1")
    assert d.judged and d.band is None and d.loss == 0
    assert not [f for f in rv.findings if f.seat == "P1" and f.target == "play"]   # (the bury: below)


def test_forced_plays_are_not_decisions():
    _, rv = reviewed(friends_text())
    last = [d for h in rv.hands for d in h.decisions if d.trick == 3]
    assert len(last) == 5 and all(d.forced and not d.judged for d in last)
    summary = rv.summary["players"]
    # P1 decided twice in the tricks (trick 1's lead of three cards, trick 2's follow), and buried;
    # trick 3 is not counted
    assert summary["P1"]["forced"] >= 1
    assert sum(1 for h in rv.hands for d in h.decisions if d.seat == "P1" and d.judged and d.kind != "bury") <= 2


def test_accuracy_per_p_seat_in_the_summary():
    _, rv = reviewed(friends_text())
    s = rv.summary
    assert list(s["players"]) == ["P1", "P2", "P3", "P4", "P5"]
    assert s["players"]["P1"]["accuracy"] is not None and s["players"]["P1"]["accuracy"] < 100
    hand = s["hands"][0]
    assert "skipped" not in hand
    assert all("friends" in d for d in hand["decisions"])


def test_an_incomplete_friends_hand_says_why():
    text = friends_text().rsplit("3.", 1)[0]
    records, _ = parse(text)
    m = replay(records[0])
    rv = review_full(m, record=records[0])
    assert rv.hands[0].skipped == "finding friends: the hand is incomplete"
    assert rv.hands[0].decisions is None or rv.hands[0].decisions == []


# -- nothing hidden leaks into the player's view -----------------------------------------------------

def _states(text: str, seat: str, ti: int, k: int):
    records, _ = parse(text)
    m = replay(records[0])
    ctx = HandContext(m.hands[0], record_hand=records[0].hands[0], endgame_tricks=0, search_budget=None)
    fh = FriendsHand(ctx)
    real = fh.replayed(dict(zip(fh.seats, m.hands[0].tricks[0].hands_before, strict=True)),
                       points(ctx.kitty_cards or ()), ti, k)
    assert real is not None
    got = sample_states(fh, real, seat, ti, k, 8)
    return [tuple(tuple(sorted(st.holding(s).elements())) for s in fh.seats) for st in got]


@pytest.mark.parametrize("t3", [
    "P4: CK  P5: D10  P1: BJ  P2: C5  P3: C10",     # the record above
    "P4: C10  P5: D10  P1: BJ  P2: C5  P3: CK",     # P3 and P4 swap their last cards
    "P4: C5  P5: D10  P1: BJ  P2: CK  P3: C10",     # P2 and P4 swap theirs
])
def test_samples_do_not_depend_on_who_really_holds_the_hidden_cards(t3):
    base = _states(friends_text(), "P1", 1, 4)
    assert len(base) == 8
    assert _states(friends_text(t3=t3), "P1", 1, 4) == base


def test_samples_do_not_depend_on_who_holds_an_unrevealed_called_card():
    # the called ♣A is not played before P1's decision (trick 2, last play): P3 answers the call
    # in one record, P4 in the other; P1 saw the same, so P1's deals are the same
    head = ["1. P1: H5  P2: HK  P3: D10  P4: H10  P5: D5", "2. P2: SK  P3: S5  P4: LJ  P5: C10  P1: S10"]
    a = friends_text(tricks=head + ["3. P4: CK  P5: DK  P1: BJ  P2: C5  P3: CA"])
    b = friends_text(tricks=head + ["3. P4: CA  P5: DK  P1: BJ  P2: C5  P3: CK"])
    assert replay(parse(a)[0][0]).hands[0].team == ("P1", "P3")
    assert replay(parse(b)[0][0]).hands[0].team == ("P1", "P4")
    sa, sb = _states(a, "P1", 1, 4), _states(b, "P1", 1, 4)
    assert len(sa) == 8 and sa == sb
    # the called card's holder (the friend to be) varies over the deals: it follows from each deal
    seats = ("P1", "P2", "P3", "P4", "P5")
    ca = C("CA")[0]
    assert len({seats[i] for hold in sa for i in range(5) if ca in hold[i]}) >= 2


def test_the_sampled_deals_keep_what_the_player_saw():
    records, _ = parse(friends_text())
    m = replay(records[0])
    ctx = HandContext(m.hands[0], record_hand=records[0].hands[0], endgame_tricks=0, search_budget=None)
    fh = FriendsHand(ctx)
    real = fh.replayed(dict(zip(fh.seats, m.hands[0].tricks[0].hands_before, strict=True)), 0, 1, 4)
    for st in sample_states(fh, real, "P1", 1, 4, 8):
        assert st.holding("P1") == real.holding("P1")                   # their own cards
        assert st.team == ("P1", "P3")                                  # the friend revealed in trick 1
        for s in ("P3", "P5"):                                          # the voids shown
            assert st.shown_voids(s) == real.shown_voids(s)
        assert {s: sum(st.holding(s).values()) for s in fh.seats} == {
            s: sum(real.holding(s).values()) for s in fh.seats}


def test_generated_friends_hands_are_reviewed():
    # six players, two calls: the last tricks' decisions of a generated hand (the whole hand: the bench)
    from analyzer.play.generate import generate_match
    from analyzer.review.mistakes.friends import value_friends_decision
    m = replay(generate_match("shengji-io-friends", hands=1, seed=3, players=6))
    hand = m.hands[0]
    ctx = HandContext(hand, endgame_tricks=0, search_budget=None)
    fh = FriendsHand(ctx)
    assert fh.why_not() is None and len(hand.friends) == 2
    start = dict(zip(fh.seats, hand.tricks[0].hands_before, strict=True))
    n = len(hand.tricks)
    got = []
    for ti in range(n - 3, n):
        for k in range(len(hand.tricks[ti].plays)):
            real = fh.replayed(start, points(ctx.kitty_cards or ()), ti, k)
            assert real is not None
            got.append(value_friends_decision(fh, real, ti, k, samples=4))
    assert all(d.judged or d.forced or d.reason for d in got)
    assert any(d.judged for d in got)
    assert all(d.forced for d in got[-6:])   # the last trick: one card each


# -- the bury, from the burier's view (analyzer.review.mistakes.bury on finding friends) ----------------

def _bury(rv):
    (d,) = [d for h in rv.hands for d in h.decisions if d.kind == "bury"]
    return d


def test_the_dealers_bury_is_a_valued_decision():
    """P1 buries every 2 (trumps at level 2) and keeps ♥5 ♠10 BJ; the bots' own bury
    keeps trumps: from P1's view (their hand and the kitty, the other hands and so
    the friend to be dealt again) it is worth more, beyond noise: an SJ603 finding
    counted in P1's decisions, the pattern rule's note gone."""
    _, rv = reviewed(friends_text())
    d = _bury(rv)
    assert (d.kind, d.trick, d.seat) == ("bury", 0, "P1")
    assert d.judged and d.samples == 8 and d.band is not None and not d.exact
    assert d.friends is not None and d.friends["dealer_team_deals"] == 8   # the dealer is always on the team
    assert set(d.considered["candidates"]) >= {"made", "bot"}
    assert rv.hands[0].judged["P1"] == 1 + sum(1 for x in rv.hands[0].decisions
                                              if x.seat == "P1" and x.kind != "bury" and x.judged)
    (f,) = [f for f in rv.findings if f.target == "bury"]
    assert f.code == "SJ603" and f.band == d.band and f.cost == round(d.loss) and f.seat == "P1"
    assert "so of who the friends are" in f.message
    out = d.as_dict(None)
    assert (out["trick"], out["play_index"], out["kind"]) == (0, None, "bury")


HELD = '[Rule.friend_rule "held"]\n'


@pytest.mark.parametrize("rule", ["", HELD], ids=["played", "held"])
@pytest.mark.parametrize("t3", [
    "P4: C10  P5: D10  P1: BJ  P2: C5  P3: CK",     # P3 and P4 swap their last cards
    "P4: C5  P5: D10  P1: BJ  P2: CK  P3: C10",     # P2 and P4 swap theirs
])
def test_the_bury_never_reads_the_hidden_hands(t3, rule):
    """Before trick 1 every other hand is hidden from the burier: records that differ
    only in who holds those cards give the bury the same values (a sampler that
    read the real hands would not)."""
    base, other = (_bury(reviewed(friends_text(t3=x).replace(HEAD, HEAD + rule))[1])
                   for x in (T3_BLUNDER, t3))
    assert base.judged and other.judged
    assert [(o.play, o.expected, o.stderr) for o in base.options] == \
        [(o.play, o.expected, o.stderr) for o in other.options]
    assert (base.band, base.loss) == (other.band, other.loss)


@pytest.mark.parametrize("rule", ["", HELD], ids=["played", "held"])
def test_the_bury_does_not_know_who_holds_the_called_card(rule):
    """P3 holds the called ♣A in one record, P4 in the other (the friend each time): the
    burier saw the same (their hand and the kitty), so the bury is valued the same."""
    head = ["1. P1: H5  P2: HK  P3: D10  P4: H10  P5: D5", "2. P2: SK  P3: S5  P4: LJ  P5: C10  P1: S10"]
    a = friends_text(tricks=head + ["3. P4: CK  P5: DK  P1: BJ  P2: C5  P3: CA"]).replace(HEAD, HEAD + rule)
    b = friends_text(tricks=head + ["3. P4: CA  P5: DK  P1: BJ  P2: C5  P3: CK"]).replace(HEAD, HEAD + rule)
    ma, ra = reviewed(a)
    mb, rb = reviewed(b)
    assert ma.hands[0].team != mb.hands[0].team
    da, db = _bury(ra), _bury(rb)
    assert da.judged and [(o.play, o.expected, o.stderr) for o in da.options] == \
        [(o.play, o.expected, o.stderr) for o in db.options]


def _bury_deals(text: str):
    from analyzer.review.mistakes.bury import friends_deals
    records, _ = parse(text)
    m = replay(records[0])
    ctx = HandContext(m.hands[0], record_hand=records[0].hands[0], endgame_tricks=0, search_budget=None)
    fh = FriendsHand(ctx)
    real = {s: sorted(x) for s, x in zip(fh.seats, m.hands[0].tricks[0].hands_before, strict=True) if s != "P1"}
    return friends_deals(fh, "P1", 8), real


@pytest.mark.parametrize("rule", ["", HELD], ids=["played", "held"])
def test_the_burier_is_dealt_the_same_deals_whoever_holds_the_hidden_cards(rule):
    """The bury's deals of the other hands: the same for records that differ only in
    who holds the cards hidden from the burier (every other hand before trick 1),
    each holding its real size, and not the real hands every time."""
    head = ["1. P1: H5  P2: HK  P3: D10  P4: H10  P5: D5", "2. P2: SK  P3: S5  P4: LJ  P5: C10  P1: S10"]
    texts = [friends_text().replace(HEAD, HEAD + rule)] + [
        friends_text(t3=t3).replace(HEAD, HEAD + rule) for t3 in (
            "P4: C10  P5: D10  P1: BJ  P2: C5  P3: CK", "P4: C5  P5: D10  P1: BJ  P2: CK  P3: C10")] + [
        friends_text(tricks=head + [t]).replace(HEAD, HEAD + rule) for t in (
            "3. P4: CK  P5: DK  P1: BJ  P2: C5  P3: CA", "3. P4: CA  P5: DK  P1: BJ  P2: C5  P3: CK")]
    got = [_bury_deals(t) for t in texts]
    base, real = got[0]
    assert len(base) == 8
    for deal in base:
        assert {s: len(x) for s, x in deal.items()} == {s: len(x) for s, x in real.items()}
        assert Counter(c for x in deal.values() for c in x) == Counter(c for x in real.values() for c in x)
    assert any(deal != real for deal in base)
    assert [g[0] for g in got[1:3]] == [base, base]                      # the same pool: the same deals
    assert got[3][0] == got[4][0] and len(got[3][0]) == 8                # the called ♣A's holder unknown
    assert {s for deal in got[3][0] for s, x in deal.items() if C("CA")[0] in x} != {"P3"}
