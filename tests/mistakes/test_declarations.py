"""Declarations as decisions (analyzer.review.mistakes.declarations): valued
from the declarer's view at its draw (@k), options = the engine's
legal_declarations + passing; source: docs/diagnostics.md, "The full review"."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.play.generate import generate_match
from analyzer.review.mistakes import review_full
from analyzer.review.mistakes.context import HandContext
from analyzer.review.mistakes.declarations import PASS, DeclarationSetting, sample_deck, state_before, value_declaration
from notation.reader import read_records
from notation.writer import write_record
from replay.deck import deck_cards
from replay.game import replay
from replay.scoring import other_team, team_of


def _match(rules: str = "standard", hands: int = 4, seed: int = 3):
    """A generated match, written and read back (so its lines have positions)."""
    rec, _diags = next(read_records(write_record(generate_match(rules, hands=hands, seed=seed))))
    return rec, replay(rec)


def _settings(rec, match):
    for h in match.hands:
        ctx = HandContext(h, record_hand=rec.hands[h.number - 1], match=match, samples=0)
        yield DeclarationSetting(ctx)


@pytest.fixture(scope="module")
def standard():
    return _match()


def test_first_hand_sides_follow_the_declaration(standard):
    """The match's first hand: who deals follows from the declarations, so each
    play-out's sides follow from it (valued from the declarer's side, as finding friends)."""
    rec, match = standard
    first = next(_settings(rec, match))
    assert first.why is None and first.first
    d = value_declaration(first, len(first.lines) - 1, samples=4)
    assert d.reason is None and d.considered is not None and "sides" in d.considered


def _attacker_level_match(monkeypatch, seed: int = 3, hands: int = 4):
    """A standard match generated and replayed with ``attacker_level`` on (正常报主; no preset has it)."""
    import analyzer.play.generate as gen
    from notation.model import Tag
    orig = gen.preset
    monkeypatch.setattr(gen, "preset", lambda n: orig(n).model_copy(update={"attacker_level": True}))
    rec = generate_match("standard", hands=hands, seed=seed)
    rec.tags.append(Tag(name="Rule.attacker_level", value="true"))
    rec, _diags = next(read_records(write_record(rec)))
    match = replay(rec)
    assert match.ruleset.attacker_level and not match.diagnostics
    return rec, match


def _reproduces_the_engine(s):
    """The setting's draw (first drawer, dealer, levels) reads the record's
    declarations as the engine did: every act, the dealer, the trump, the level."""
    from replay.declare import conclude
    h = s.ctx.hand
    state = state_before(s, len(s.lines), s.dealt)
    assert state.accepted_count == sum(a != "refused" for a in s.acts)
    res = conclude(state, kitty=h.kitty, declare_none=False, recorded=True)
    assert (res.dealer, res.trump) == (h.dealer, h.trump)
    assert (res.level if res.level is not None else h.levels[team_of(res.dealer)]) == h.level


def test_declarer_deals_valued():
    """shengji-godot (``declarer_deals``): each seat declares its own team's
    level and the declarer deals; the draw starts from the previous hand's
    dealer (HandResult.declared_from, .first_drawer), each play-out's dealer
    follows from the option, valued from the declarer's side."""
    from analyzer.review.mistakes.declarations import play_option, review_declarations
    from analyzer.review.mistakes.summary import hand_review
    rec, match = _match("shengji-godot", hands=4, seed=2)
    moved = later = 0
    for s in _settings(rec, match):
        if not s.lines:
            continue
        h = s.ctx.hand
        assert s.why is None and s.moves and s.team_levels == h.levels
        assert (s.first_drawer, s.start_dealer) == (h.first_drawer, h.declared_from)
        _reproduces_the_engine(s)
        if s.first:
            continue
        later += 1
        moved += h.declared_from != h.dealer
        hr = hand_review(s.ctx, s.ctx.endgame_tricks)
        hr.decisions = []
        review_declarations(s.ctx, hr, [], None, samples=4)
        assert hr.decisions and all(d.kind == "declare" and d.reason is None and d.samples == 4
                                    for d in hr.decisions)
        assert all("the declarer deals" in d.considered["sides"] for d in hr.decisions)
        for d in hr.decisions:   # the attackers differ by option: each option's value for the declarer's side, ordered by it
            if d.forced:
                continue
            sides = [o.side for o in d.options]
            assert None not in sides and sides == sorted(sides, reverse=True), sides
            alts = d.as_dict(None)["alternatives"]
            assert all("side" in a and "side_stderr" in a for a in alts)
        # the line written (the first declaration stands under godot): its declarer deals every play-out
        line = s.lines[0]
        for t in range(3):
            deal = sample_deck(s, 0, random.Random(t))
            assert deal is not None
            got = play_option(s, 0, *deal, tuple(sorted(line.cards)), f"godot:{t}")
            assert got is not None and got[2] == line.seat
    assert later >= 2 and moved >= 1     # a declaration moved the deal from the previous hand's dealer


def test_attacker_level_valued(monkeypatch):
    """``attacker_level`` (正常报主): on a later hand an attacker may declare its
    own team's level (an option, as the engine would take it) and so take the
    deal, at its level; the play-outs follow it."""
    from analyzer.review.mistakes.declarations import play_option
    rec, match = _attacker_level_match(monkeypatch)
    own = 0
    for s in list(_settings(rec, match))[1:]:
        h = s.ctx.hand
        assert s.why is None and s.moves and not s.first
        _reproduces_the_engine(s)
        alt = h.levels[other_team(team_of(h.declared_from))]
        assert s.attacker_level == alt
        for j, line in enumerate(s.lines):
            d = value_declaration(s, j, samples=4)
            assert d.reason is None and d.samples == 4 and "an attacker" in d.considered["sides"]
            if team_of(line.seat) == team_of(h.declared_from) or alt == h.levels[team_of(h.declared_from)]:
                continue
            mine = [o for o in d.options if any(c < 52 and c % 13 + 2 == alt for c in o.play)]
            assert mine, d.considered["options"]          # the attacker's own-level declaration was valued
            o = mine[0].play
            deal = sample_deck(s, j, random.Random(j))
            assert deal is not None
            got = play_option(s, j, *deal, o, "att")
            assert got is not None and got[2] in (line.seat, h.declared_from)
            own += got[2] == line.seat != h.declared_from
    assert own >= 1                                       # a play-out where the deal passed to the attacker


def test_later_hands_valued_with_pass_and_chosen(standard):
    rec, match = standard
    seen = 0
    for s in list(_settings(rec, match))[1:]:
        assert s.why is None and not s.first
        for j in range(len(s.lines)):
            d = value_declaration(s, j, samples=4)
            assert d.kind == "declare" and d.trick == 0 and d.index == j
            assert d.reason is None and d.samples == 4
            plays = {o.play for o in d.options} | {p for o in d.options for p in o.same}
            assert d.chosen in plays and PASS in plays   # the line written and passing are both valued
            assert d.considered is not None and "pass" in d.considered["options"]
            # the sides are fixed here: no side column (the attackers' final says it all)
            assert all(o.side is None for o in d.options)
            assert all("side" not in a for a in d.as_dict(None)["alternatives"])
            seen += 1
    assert seen >= 2


def test_full_review_puts_declarations_first(standard):
    rec, match = standard
    _findings, hands = review_full(match, record=rec, samples=4)
    for hr in hands:
        kinds = [d.kind for d in hr.decisions or ()]
        n = kinds.count("declare")
        assert kinds[:n] == ["declare"] * n          # before the bury and the plays
        if n and hr.decisions[0].hand > 1:
            assert any(d.judged for d in hr.decisions if d.kind == "declare")


def test_deterministic(standard):
    rec, match = standard
    s = list(_settings(rec, match))[2]
    a, b = value_declaration(s, 0, samples=4), value_declaration(s, 0, samples=4)
    assert a.options == b.options and a.loss == b.loss


@pytest.mark.parametrize("rules", ["standard", "tractor97", "one-deck", "titanic", "80fen", "shengji-fly",
                                   "shengji-godot"])
def test_sampled_deck_is_consistent(rules):
    """The declarer's first k cards stay in place, each card another seat showed
    earlier is within that seat's first @k draws, the deck is whole."""
    rec, match = _match(rules, hands=3, seed=5)
    checked = 0
    for s in _settings(rec, match):
        if s.why is not None:
            continue
        rs = s.ctx.ruleset
        for j, line in enumerate(s.lines):
            if line.at is None:
                continue
            got = sample_deck(s, j, random.Random(j))
            assert got is not None
            full, kitty = got
            assert Counter(c for cs in full.values() for c in cs) + Counter(kitty) == Counter(deck_cards(rs))
            assert full[line.seat][:line.at] == s.dealt[line.seat][:line.at]
            for prev, act in zip(s.lines[:j], s.acts[:j]):
                if act != "refused" and prev.seat != line.seat:
                    assert not Counter(prev.cards) - Counter(full[prev.seat][:prev.at])
            checked += 1
    assert checked


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), swap=st.integers(0, 10_000))
def test_no_leak_of_unseen_cards(standard, seed, swap):
    """Moving a card the declarer has not seen (another seat's card not shown)
    to another unseen place changes no sampled deal: the hidden cards enter
    only as a pool."""
    rec, match = standard
    s = list(_settings(rec, match))[1]
    j = 0
    line = s.lines[j]
    others = [x for x in s.order if x != line.seat]
    a, b = others[swap % 3], others[(swap + 1) % 3]
    shown = Counter(c for p in s.lines[:j] for c in p.cards)
    ia = next((i for i, c in enumerate(s.dealt[a]) if c not in shown), None)
    ib = next((i for i, c in enumerate(s.dealt[b]) if c not in shown), None)
    if ia is None or ib is None:
        return
    before = sample_deck(s, j, random.Random(seed))
    da, db = list(s.dealt[a]), list(s.dealt[b])
    da[ia], db[ib] = db[ib], da[ia]
    s2 = DeclarationSetting(s.ctx)
    s2.dealt = {**s.dealt, a: tuple(da), b: tuple(db)}
    after = sample_deck(s2, j, random.Random(seed))
    assert before == after



def test_finding_on_the_declare_line():
    """A declaration worse than passing beyond noise is an SJ612 finding on its
    line, its cost the expected loss (standard, seed 1, hand 5: E's second
    line; the bots' play decides the values, so this is a fixed case)."""
    from analyzer.review.mistakes.declarations import declaration_finding
    rec, match = _match("standard", hands=6, seed=1)
    s = list(_settings(rec, match))[4]
    d = value_declaration(s, 1, samples=24)
    assert d.band in ("inaccuracy", "mistake", "blunder") and d.loss > 0
    f = declaration_finding(s, d)
    assert f is not None and f.code == "SJ612" and f.target == "declare" and f.seat == d.seat
    assert f.cost == round(d.loss) and f.best == PASS and "passing was better" in f.message
    span = s.lines[1].span
    assert (f.line, f.column) == (span.line, span.column) and f.line > 0
    from analyzer.review.mistakes.declarations import review_declarations
    from analyzer.review.mistakes.summary import hand_review
    hr = hand_review(s.ctx, s.ctx.endgame_tricks)
    hr.decisions = []
    out: list = []
    review_declarations(s.ctx, hr, out, None, samples=24)
    assert [x.code for x in out] == ["SJ612"] and out[0].line == f.line
    assert [d.kind for d in hr.decisions] == ["declare", "declare"]
    out.clear()
    review_declarations(s.ctx, hr, out, ["SJ61"], samples=24)   # --select SJ61 keeps it
    assert [x.code for x in out] == ["SJ612"]
    out.clear()
    review_declarations(s.ctx, hr, out, ["SJ603"], samples=24)  # --select SJ603 drops it
    assert out == []


def test_campus_play_out_has_the_after_bury_step():
    """Campus: an option's play-out begins as the generator begins a hand
    (analyzer.play.generate.start_play), so the opponents may declare over the
    kitty after the bury (反主抄底) and re-bury; seen in some play-outs of a
    later hand's declaration. Every play-out starts under the trump it ends
    with and with the last bury's points at stake."""
    from analyzer.review.mistakes.declarations import begin_option
    from notation.model import Bury, Declaration
    from primitives.cards import points
    rec, match = _match("campus", hands=5, seed=9)
    after = 0
    for s in list(_settings(rec, match))[1:]:
        assert s.why is None and not s.first
        for j, line in enumerate(s.lines):
            if s.position(line) is None:
                continue                      # the record's own after-bury line: not a decision
            rng = random.Random(f"campus:{j}")
            for t in range(4):
                deal = sample_deck(s, j, rng)
                assert deal is not None
                for option in (tuple(sorted(line.cards)), PASS):
                    got = begin_option(s, j, *deal, option, f"campus:{j}:{t}")
                    if got is None:
                        continue
                    begun, _bot = got
                    kinds = [type(e) for e in begun.events]
                    assert kinds in ([Bury], [Bury, Declaration, Bury]), kinds
                    assert begun.state.order.trump == begun.trump and begun.state.dealer == s.ctx.hand.dealer
                    assert begun.state.kitty_points == points(begun.buried)
                    assert tuple(begun.events[-1].cards) == begun.buried
                    if len(kinds) == 3:
                        after += 1
                        assert begun.events[1].seat == begun.events[2].seat != begun.state.dealer
    assert after >= 1


def test_the_tables_give_the_sides_value():
    """Markdown/terminal/text: an alternative with the seat's side's value says it."""
    from analyzer.report.text import decision_rows
    d = {"hand": 1, "trick": 0, "kind": "declare", "seat": "S", "chosen": "♣2", "loss": 21.0, "loss_stderr": 6.0,
         "band": "inaccuracy", "exact": False, "explanation": [],
         "alternatives": [{"play": "pass", "expected": 85.6, "stderr": 12.3, "side": 12.4, "side_stderr": 5.0},
                          {"play": "♣2", "expected": 60.0, "stderr": 14.7, "side": -8.6, "side_stderr": 6.1}]}
    (row,) = decision_rows({"hands": [{"decisions": [d]}]})
    assert row[1] == "declare" and row[6] == "pass 86 ± 12 (S's side +12); ♣2 60 ± 15 (S's side -9)"
    for a in d["alternatives"]:
        del a["side"]
    (row,) = decision_rows({"hands": [{"decisions": [d]}]})
    assert row[6] == "pass 86 ± 12; ♣2 60 ± 15"
