"""annotate(): findings written back as ``{SJ6xx …}`` commentaries, and the
round trip through the canonical writer and the parser."""

from mistake_helpers import TWO, replayed

from analyzer.play.generate import generate_match
from analyzer.review.mistakes import annotate, comment_text, review
from notation import content_equal, parse_record, write
from primitives.diagnostics import Diagnostic
from replay.game import replay

LOST_KITTY = [["N: HA", "W: S4", "S: S6", "E: S8"], ["N: S3", "W: SA", "S: S7", "E: S9"]]


def annotations(node):
    return [c for c in node.comments if c.startswith("SJ6")]


def test_findings_go_to_their_plays_and_the_bury():
    rec, match = replayed(LOST_KITTY, bury=True, **TWO)
    findings = review(match, record=rec)
    out = annotate(rec, findings)
    hand = out.hands[0]
    n_play = hand.tricks[0].plays[0]
    # one finding per play: SJ602 (the specific pattern) is kept, not SJ610 too
    assert sorted(c[:5] for c in annotations(n_play)) == ["SJ602"]
    assert [c[:5] for c in annotations(hand.buries[0])] == ["SJ603"]
    assert all(c == " ".join(c.split()) and "{" not in c and "}" not in c for c in annotations(n_play))
    # the input record is not changed
    assert all(not p.comments for t in rec.hands[0].tricks for p in t.plays)


def test_annotating_twice_gives_the_same_record():
    rec, match = replayed(LOST_KITTY, bury=True, **TWO)
    findings = review(match, record=rec)
    once = annotate(rec, findings)
    assert content_equal(annotate(once, findings), once)
    # replace=False keeps the earlier annotations but does not duplicate them
    assert content_equal(annotate(once, findings, replace=False), once)


def test_round_trip_through_writer_and_parser():
    rec, match = replayed(LOST_KITTY, bury=True, **TWO)
    out = annotate(rec, review(match, record=rec))
    text = write(out)
    assert "{SJ602 blunder (" in text and "{SJ603 blunder (" in text
    back, diags = parse_record(text)
    assert [d for d in diags if d.severity == "error"] == []
    for t_out, t_back in zip(out.hands[0].tricks, back.hands[0].tricks):
        for p_out, p_back in zip(t_out.plays, t_back.plays):
            assert p_back.comments == p_out.comments
    assert back.hands[0].buries[0].comments == out.hands[0].buries[0].comments
    # the parsed record replays the same; annotating it again changes nothing
    again = review(replay(back), record=back)
    assert [(f.code, f.trick, f.seat, f.message) for f in again] == \
        [(f.code, f.trick, f.seat, f.message) for f in review(match, record=rec)]
    assert write(annotate(back, again)) == text


def test_plain_diagnostics_are_placed_by_position():
    rec, _match = replayed(LOST_KITTY, **TWO)
    text = write(rec)
    parsed, _ = parse_record(text)
    play = parsed.hands[0].tricks[1].plays[1]  # W's ♠A
    d = Diagnostic.at("SJ604", play.span, "a note {with braces}\nand a line break", hand=1, trick=2)
    out = annotate(parsed, [d])
    assert annotations(out.hands[0].tricks[1].plays[1]) == ["SJ604 a note (with braces) and a line break"]
    assert comment_text(d) == "SJ604 a note (with braces) and a line break"
    # no position, no seat: the trick holds it; an unknown hand is skipped
    loose = Diagnostic("SJ610", "somewhere in trick 1", hand=1, trick=1)
    out = annotate(parsed, [loose, Diagnostic("SJ610", "nowhere", hand=9)])
    assert annotations(out.hands[0].tricks[0]) == ["SJ610 somewhere in trick 1"]


def test_generated_match_round_trip():
    rec = generate_match("standard", hands=2, seed=5)
    match = replay(rec)
    findings = review(match, record=rec, endgame_tricks=3)
    assert findings
    out = annotate(rec, findings)
    back, diags = parse_record(write(out))
    assert [d for d in diags if d.severity == "error"] == []
    assert content_equal(annotate(back, findings), back)
    # comments never change the replay
    assert [(d.code, d.line) for d in replay(back).diagnostics] == \
        [(d.code, d.line) for d in replay(parse_record(write(rec))[0]).diagnostics]
    placed = sum(len(annotations(p)) for h in back.hands for t in h.tricks for p in t.plays)
    placed += sum(len(annotations(b)) for h in back.hands for b in h.buries)
    assert placed == len({(f.code, f.hand, f.trick, f.seat, f.message) for f in findings})
