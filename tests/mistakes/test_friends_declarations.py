"""Declarations at a finding-friends table as decisions
(analyzer.review.mistakes.friends_declarations, through
analyzer.review.mistakes.declarations): valued from the declarer's view at its
draw (@k), the engine's stand-in fold, the bots finishing the draw, burying,
calling friends by the generator's policy and playing out with the team as
revealed; source: docs/diagnostics.md, "The full review" (Declarations, at a table of friends)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.play.generate import generate_match
from analyzer.review.mistakes import review_full
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.declarations import PASS, DeclarationSetting, sample_deck, value_declaration
from analyzer.review.mistakes.friends_declarations import begin_friends_option, friends_state_before
from notation.model import Declaration
from notation.reader import read_records
from notation.writer import write_record
from primitives.cards import LJ, deck_list, to_str
from primitives.cards import parse_cards as C
from replay.deck import deck_cards
from replay.declare import conclude
from replay.game import replay


def _declared(rec, first_hand_open: bool = False):
    """``rec`` (a generated friends match: its trump chosen by the dealer, no
    declarations) with, on each hand, the first level card of the trump suit
    drawn declared by its holder at that draw (the record's trump and dealer
    unchanged; a hand nobody could declare so keeps its ``trump`` line).
    ``first_hand_open``: hand 1 written with ``dealer ?`` (the declarations
    decide who deals) when its dealer is the one who declares."""
    for h in rec.hands:
        level, t = h.levels.levels[h.dealer], h.trump
        if t is None or t == 4:
            continue
        seats = [sc.seat for sc in h.deal]
        i0 = seats.index(h.dealer)
        ring = seats[i0:] + seats[:i0]
        got = min(((k * len(ring) + ring.index(sc.seat), sc.seat, c, k + 1)
                   for sc in h.deal for k, c in enumerate(sc.cards) if c < LJ and c // 13 == t and c % 13 + 2 == level),
                  default=None)
        if got is None:
            continue
        _pos, seat, card, k = got
        h.events.insert(0, Declaration(seat=seat, cards=(card,), at=k))
        h.trump = None
        if first_hand_open and h.number == 1 and seat == h.dealer:
            h.first, h.dealer = h.dealer, "?"
    rec2, _ = next(read_records(write_record(rec)))
    return rec2, replay(rec2)


def _settings(rec, match):
    for h in match.hands:
        ctx = HandContext(h, record_hand=rec.hands[h.number - 1], match=match, samples=0)
        yield DeclarationSetting(ctx)


@pytest.fixture(scope="module")
def small():
    """Five players, one deck (9 cards each, a kitty of 9): quick play-outs."""
    return _declared(generate_match("shengji-io-friends", players=5, decks=1, hands=3, seed=4))


def test_friends_record_declarations_judged(small):
    """The full review of a friends record values each declaration: options
    (the line written and passing among them) with expected points ± s.e. and
    the declarer's side's value, the sides as each play-out's teams formed."""
    rec, match = small
    assert not [d for d in match.diagnostics if d.severity == "error"]
    _findings, hands = review_full(match, record=rec, samples=4)
    decl = [d for hr in hands for d in hr.decisions or () if d.kind == "declare"]
    assert len(decl) >= 2
    for d in decl:
        assert d.reason is None and d.samples == 4, d.reason
        plays = {o.play for o in d.options} | {p for o in d.options for p in o.same}
        assert d.chosen in plays and PASS in plays
        assert all(o.side is not None and o.side_se is not None for o in d.options)
        assert all(o.stderr >= 0 for o in d.options)
        assert d.friends is not None and "play-outs" in d.friends["valued"]
        assert 0 <= d.friends["dealer_team_deals"] <= d.samples
        assert "teams follow from each play-out" in d.considered["sides"]
        alts = d.as_dict(None)["alternatives"]
        assert all("side" in a and "side_stderr" in a for a in alts)
    for hr in hands:      # the declarations come first, before the bury and the plays
        kinds = [d.kind for d in hr.decisions or ()]
        n = kinds.count("declare")
        assert kinds[:n] == ["declare"] * n


@pytest.mark.parametrize("players, seed", [(5, 1), (6, 2), (8, 1)])
def test_the_fold_reproduces_the_engine(players, seed):
    """The stand-in fold of every line reads the record as the engine did:
    the accepted lines, the trump, and (dealer ?) the dealer."""
    rec, match = _declared(generate_match("shengji-io-friends", players=players, hands=2, seed=seed),
                           first_hand_open=True)
    checked = 0
    for s in _settings(rec, match):
        if not s.lines:
            continue
        assert s.why is None and s.friends
        h = s.ctx.hand
        state, ins = friends_state_before(s, len(s.lines))
        assert state.accepted_count == sum(a != "refused" for a in s.acts)
        res = conclude(state, kitty=h.kitty, declare_none=False, recorded=True)
        assert res.trump == h.trump
        if s.first:
            assert ins.back(res.dealer) == h.dealer
        checked += 1
    assert checked >= 2


def test_first_hand_the_declarer_deals():
    """Hand 1 written ``dealer ?``: the declarations decide who deals, so the
    dealer follows from each play-out (the line written: its declarer deals)."""
    rec, match = _declared(generate_match("shengji-io-friends", players=5, decks=1, hands=1, seed=1),
                           first_hand_open=True)
    (s,) = list(_settings(rec, match))[:1]
    assert rec.hands[0].dealer == "?" and s.why is None and s.first
    line = s.lines[0]
    assert s.order[0] == rec.hands[0].first
    others = 0
    for t in range(8):
        deal = sample_deck(s, 0, random.Random(t))
        assert deal is not None
        got = begin_friends_option(s, 0, *deal, tuple(sorted(line.cards)), f"first:{t}")
        assert got is not None and got[2] == line.seat
        passed = begin_friends_option(s, 0, *deal, PASS, f"first:{t}")
        others += passed is not None and passed[2] != line.seat     # another declarer deals
    assert others >= 1
    d = value_declaration(s, 0, samples=4)
    assert d.reason is None and "who deals follows" in d.considered["sides"]


def test_play_outs_call_friends_by_the_bots_policy(small):
    """Each play-out's hand is begun with the dealer's calls (the generator's
    policy, analyzer.play.generate.call_friends), unanswered, and the bury."""
    rec, match = small
    s = next(x for x in _settings(rec, match) if x.lines)
    rs = s.ctx.ruleset
    for t in range(4):
        deal = sample_deck(s, 0, random.Random(t))
        assert deal is not None
        for option in (tuple(sorted(s.lines[0].cards)), PASS):
            got = begin_friends_option(s, 0, *deal, option, f"calls:{t}")
            if got is None:
                continue
            state, _bot, dealer = got
            assert state.dealer == dealer == s.ctx.hand.dealer
            assert len(state.calls) == rs.friend_calls and all(c.seat is None for c in state.calls)
            assert sum(sum(state.holding(x).values()) for x in s.order) == len(s.order) * rs.hand_size


# -- a clear choice: a hand all in one suit --------------------------------------------------------

def _one_suit_text(declared: str, at: int, first: str) -> str:
    """Five players, one deck; dealer P1 (written: the dealer is fixed), holding
    eight spades with ♠2 drawn first and ``first`` as its 9th card; P1 writes
    ``declare P1 <declared> @<at>``. The other cards dealt in a fixed shuffle."""
    mine = C(f"S2 SA SK SQ SJ S10 S9 S8 {first}")
    rest = Counter(deck_list(1))
    rest.subtract(mine)
    others = sorted(rest.elements())
    random.Random(7).shuffle(others)
    seats = ["P2", "P3", "P4", "P5"]
    hands = {s: others[i * 9:(i + 1) * 9] for i, s in enumerate(seats)}
    kitty = others[36:]
    lines = [f"P1: {' '.join(to_str(c) for c in mine)}"] + [f"{s}: {' '.join(to_str(c) for c in hands[s])}"
                                                             for s in seats]
    return ('[Rules "shengji-io-friends"] [Rule.players "5"] [Rule.decks "1"]\n\nhand 1\n'
            "levels P1 2 P2 2 P3 2 P4 2 P5 2\ndealer P1\n" + "\n".join(lines)
            + f"\nkitty {' '.join(to_str(c) for c in kitty)}\ndeclare P1 {declared} @{at}\n")


def _one_suit(declared: str, at: int, first: str = "S7"):
    rec, _ = next(read_records(_one_suit_text(declared, at, first)))
    match = replay(rec)
    h = match.hands[0]
    assert h.declaration_acts == ("declare",) and h.dealer == "P1"
    return next(_settings(rec, match))


def test_declaring_the_long_suit_beats_passing():
    """P1, all nine cards drawn, holds eight spades and ♠2: declaring ♠ (every
    card of theirs a trump) is worth more to P1's side than passing (another suit or the kitty's
    card makes the trump) beyond noise, so the line written is the best
    option and no verdict falls on it."""
    s = _one_suit("S2", 9)
    d = value_declaration(s, 0, samples=16)
    assert d.reason is None and d.samples == 16
    best, worst = d.options[0], d.options[-1]
    assert best.play == C("S2") and worst.play == PASS
    gap = best.side - worst.side
    assert gap > 2 * ((best.side_se or 0) ** 2 + (worst.side_se or 0) ** 2) ** 0.5 and gap > 20
    assert d.band is None and d.loss == 0


def test_declaring_the_short_suit_is_a_mistake():
    """The same P1 with ♥2 as the 9th card declares ♥ at the last draw: ♠
    was there to declare, and the line is a verdict (an SJ612 finding), its
    loss beyond noise."""
    from analyzer.review.mistakes.declarations import declaration_finding
    s = _one_suit("H2", 9, first="H2")
    d = value_declaration(s, 0, samples=16)
    assert d.reason is None
    assert d.options[0].play == C("S2")
    assert d.band in ("inaccuracy", "mistake", "blunder") and d.loss > 2 * d.loss_se
    f = declaration_finding(s, d)
    assert f is not None and f.code == "SJ612" and f.best == C("S2") and f.seat == "P1"
    assert "declaring ♠2 was better" in f.message and "the teams following from each" in f.message
    assert "who deals" not in f.message            # the dealer is written: it does not move


def test_what_cannot_be_valued_says_why():
    """A friends declaration written without its draw (@k) says so; so does a
    refused one (a second line the engine does not take)."""
    text = _one_suit_text("S2", 1, "S7").replace("declare P1 S2 @1", "declare P1 S2\ndeclare P2 SA")
    rec, _ = next(read_records(text))
    match = replay(rec)
    s = next(_settings(rec, match))
    assert s.why is None and s.friends
    assert value_declaration(s, 0, samples=4).reason == "the declaration is written without its draw (@k)"
    assert match.hands[0].declaration_acts[1] == "refused"
    assert value_declaration(s, 1, samples=4).reason == "the engine refused this declaration"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), swap=st.integers(0, 10_000))
def test_no_leak_of_unseen_cards(small, seed, swap):
    """Moving a card the declarer has not seen between two other players changes
    no sampled deal (the hidden cards enter only as a pool), and every sampled
    deal keeps the declarer's first k cards and is the whole deck."""
    rec, match = small
    s = next(x for x in _settings(rec, match) if x.lines)
    line = s.lines[0]
    others = [x for x in s.order if x != line.seat]
    a, b = others[swap % len(others)], others[(swap + 1) % len(others)]
    before = sample_deck(s, 0, random.Random(seed))
    assert before is not None
    full, kitty = before
    assert Counter(c for cs in full.values() for c in cs) + Counter(kitty) == Counter(deck_cards(s.ctx.ruleset))
    assert full[line.seat][:line.at] == s.dealt[line.seat][:line.at]
    da, db = list(s.dealt[a]), list(s.dealt[b])
    da[0], db[-1] = db[-1], da[0]
    s2 = DeclarationSetting(s.ctx)
    s2.dealt = {**s.dealt, a: tuple(da), b: tuple(db)}
    assert sample_deck(s2, 0, random.Random(seed)) == before


# -- five declarers: the stand-ins --------------------------------------------------------------------

def _five_declarers():
    """Five players, two decks, dealer P1 (hand 2): P2 ♠2 @1, P3 ♥2♥2 (no @k),
    P4 LJ LJ @2, P5 BJ BJ @2 each override; P1, a fifth declarer, has no
    stand-in left (the engine refuses its ♦2)."""
    fixed = {"P1": C("D2"), "P2": C("S2"), "P3": C("H2 H2"), "P4": C("LJ LJ"), "P5": C("BJ BJ")}
    rest = Counter(deck_list(2))
    for v in fixed.values():
        rest.subtract(v)
    others = sorted(rest.elements())
    random.Random(3).shuffle(others)
    it = iter(others)
    seats = ["P1", "P2", "P3", "P4", "P5"]
    hands = {s: list(fixed[s]) + [next(it) for _ in range(20 - len(fixed[s]))] for s in seats}
    text = ('[Rules "shengji-io-friends"]\n\nhand 2\nlevels P1 2 P2 2 P3 2 P4 2 P5 2\ndealer P1\n'
            + "\n".join(f"{s}: {' '.join(to_str(c) for c in hands[s])}" for s in seats)
            + f"\nkitty {' '.join(to_str(c) for c in it)}\n"
            "declare P2 S2 @1\ndeclare P3 H2 H2\ndeclare P4 LJ LJ @2\ndeclare P5 BJ BJ @2\ndeclare P1 D2 @3\n")
    rec, _ = next(read_records(text))
    match = replay(rec)
    assert match.hands[0].declaration_acts == ("declare", "override", "override", "override", "refused")
    return next(_settings(rec, match))


def test_five_declarers_fold_as_the_engine():
    """Line by line, the stand-in fold accepts what the engine accepted (the
    fourth declarer's override too) and refuses the fifth declarer's line."""
    s = _five_declarers()
    assert s.why is None and s.friends and not s.first
    accepted = [friends_state_before(s, j + 1)[0].accepted_count - friends_state_before(s, j)[0].accepted_count
                for j in range(len(s.lines))]
    assert accepted == [a != "refused" for a in s.acts]
    state, ins = friends_state_before(s, 4)
    assert ins.get("P1", claim=False) is None          # no stand-in left for a fifth declarer
    assert conclude(state, kitty=s.ctx.hand.kitty, declare_none=False, recorded=True).trump == s.ctx.hand.trump == 4
    assert value_declaration(s, 4, samples=2).reason == "the engine refused this declaration"


def test_an_untimed_line_keeps_its_cards_with_its_seat():
    """P3's ♥2♥2 is written without @k: in every deal P5 pictures at its line,
    P3 holds both (somewhere in its hand), never P5's own later draws or the kitty."""
    s = _five_declarers()
    rng = random.Random(5)
    h2 = C("H2")[0]
    for _ in range(12):
        deal = sample_deck(s, 3, rng)
        assert deal is not None
        full, _kitty = deal
        assert full["P3"].count(h2) == 2


def test_a_line_by_a_seat_not_at_the_table():
    """``declare N …`` at a table of P1…P5 (the match's first hand, ``dealer ?``):
    the engine does not read it (refused, no stand-in claimed, the fold at the
    level of the first declarer at the table); the line after it is valued."""
    text = (_one_suit_text("S2", 9, "S7").replace("dealer P1", "dealer ?")
            .replace("declare P1 S2 @9", "declare N D2 @3\ndeclare P1 S2 @9"))
    rec, _ = next(read_records(text))
    match = replay(rec)
    assert match.hands[0].declaration_acts == ("refused", "declare")
    s = next(_settings(rec, match))
    assert s.why is None and s.first
    assert friends_state_before(s, 2)[1].of == {"P1": "N"}
    assert value_declaration(s, 0, samples=2).reason == "the engine refused this declaration"
    d = value_declaration(s, 1, samples=2)
    assert d.reason is None and d.samples == 2


def test_deterministic():
    """The same declaration valued twice gives the same options and loss (deals and bots seeded per decision)."""
    s = _one_suit("S2", 9)
    a, b = value_declaration(s, 0, samples=4), value_declaration(s, 0, samples=4)
    assert a.options == b.options and a.loss == b.loss and a.friends == b.friends
