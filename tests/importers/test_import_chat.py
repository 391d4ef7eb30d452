"""shengji.io chat pastes: plays-only records, seats by order of play, stated results as claims."""

from importer_testlib import codes, fixture, line_of, lint

from analyzer.io.importers import check_claims, import_log, import_text, shengji_io_chat
from primitives.cards import BJ, LJ
from primitives.cards import parse_cards as C
from replay.game import replay

OK = fixture("chat", "paste_ok.txt")
WRONG = fixture("chat", "paste_wrong_winner.txt")


def test_card_spellings():
    parse = shengji_io_chat.parse_cards
    assert parse("10♠") == (C("S10"), None)
    assert parse("J♣J♣") == (C("CJ CJ"), None)
    assert parse("HJLJ") == ((BJ, LJ), None)
    assert parse("2♡2♤") == (C("H2 S2"), None)                 # the server's outline suits
    assert parse("A♠\ufe0fK♥") == (C("SA HK"), None)           # an emoji variation selector
    # the server's Unicode playing cards: ace, ten, queen (after the knight), king; jokers
    assert parse("\U0001F0A1\U0001F0BA\U0001F0CD\U0001F0DE") == (C("SA H10 DQ CK"), None)
    assert parse("\U0001F0CF\U0001F0DF") == ((BJ, LJ), None)
    assert parse("1♠")[1] == 0 and parse("A♠X")[1] == 2 and parse("\U0001F0AC")[1] == 0   # no knights
    assert parse("")[1] == 0


def test_paste_becomes_a_plays_only_record():
    res = import_log("shengji-io-chat", OK)
    assert res.diagnostics == []
    [rec] = res.records
    assert rec.tag("Rules") == "shengji-io"
    # the first trick's leader is South, then play order: East, North, West
    assert (rec.tag("South"), rec.tag("East"), rec.tag("North"), rec.tag("West")) == ("Ann", "Bo", "Cy", "Di")
    [h] = rec.hands
    assert h.deal == [] and h.kitty is None
    assert h.dealer == "S" and h.trump == 3 and (h.levels.ns, h.levels.ew) == (6, 6)
    [d] = h.declarations
    assert (d.seat, d.cards, d.at) == ("S", C("C6"), None)
    assert len(h.tricks) == 8
    m = replay(rec)
    assert [x.code for x in m.diagnostics] == ["SJ503"]        # a partial hand, nothing else
    assert check_claims(res.records, res.claims) == []


def test_take_back_and_failed_throw():
    h = import_log("shengji-io-chat", OK).records[0].hands[0]
    first = h.tricks[0]
    # "Bo played K♥" was taken back; only the replacement counts
    assert [p.seat for p in first.plays] == ["S", "E", "N", "W"] and first.plays[1].cards == C("CQ")
    throw = h.tricks[2].plays[0]
    assert throw.attempted == C("S10 SQ") and throw.cards == C("S10")
    assert throw.span.line == line_of(OK, "Ann played 10♠")


def test_the_disputed_trick_is_flagged_at_the_chat_line():
    records, diags = import_text("shengji-io-chat", WRONG)
    [d] = diags
    assert d.code == "SJ704" and d.severity == "error"
    assert d.line == line_of(WRONG, "Di wins the trick") == 47
    assert d.column == len("GAME: ") + 1 and d.trick == 5
    assert "Di (W) wins trick 5" in d.message and "Cy (N) wins it with ♥Q" in d.message
    assert lint(records[0]) == []                    # the plays themselves are legal


def test_stated_points_are_checked_too():
    text = OK.replace("GAME: Ann wins the trick and gets 5 points", "GAME: Ann wins the trick and gets 15 points")
    _records, diags = import_text("shengji-io-chat", text)
    [d] = diags
    assert d.code == "SJ704" and "holds 5 points" in d.message and d.line == line_of(text, "gets 15 points")


def test_server_strings_kitty_and_summary():
    text = "\n".join([
        "GAME: A set the number of decks to 2",
        "GAME: A set the throw penalty to 10 points per throw",
        "GAME: A bid 2 2♡",
        "GAME: A played 🂱",
        "GAME: B played 3♥",
        "GAME: C played 4♥",
        "GAME: D played 5♥",
        "GAME: 10 points were buried and are attached to the last trick, with a multiplier of 2",
        "GAME: A wins the trick and gets 25 points",
        "GAME: Landlord team won, opposing team only collected 0 points",
        "GAME: 5♠5♠ in kitty",
        "GAME: A has advanced to rank 5",
    ])
    res = import_log("shengji-io-chat", text)
    assert res.diagnostics == []
    rec = res.records[0]
    assert rec.tag("Rule.decks") == "2" and rec.tag("Rule.throw_penalty") == "per_attempt"
    h = rec.hands[0]
    assert h.declarations[0].cards == C("H2 H2") and h.trump == 1
    assert h.tricks[0].plays[0].cards == C("HA")
    assert h.points == 0 and h.buries[0].cards == C("S5 S5")
    [trick, total] = res.claims
    assert (trick.points, trick.kitty_points, total.kind) == (25, 20, "total")
    assert check_claims(res.records, res.claims) == []        # 5 in the trick + 20 from the kitty


def test_garbage_lines_are_positioned_and_skipped():
    text = OK.replace("GAME: Ann played A♦", "GAME: Ann 出牌 A♦\nGAME: Ann played A♦", 1)
    text = text.replace("GAME: Di played 5♦", "GAME: Di played 5♦Z")
    text += "random noise from somewhere\n"
    records, diags = import_text("shengji-io-chat", text)
    got = [(d.code, d.line) for d in diags]
    assert ("SJ702", line_of(text, "出牌")) in got
    assert ("SJ702", line_of(text, "random noise")) in got
    bad = next(d for d in diags if d.code == "SJ703")
    assert bad.line == line_of(text, "5♦Z") and bad.column == text.split("\n")[bad.line - 1].index("Z") + 1
    # the rest is imported: the trick with the broken play keeps its other three plays
    h = records[0].hands[0]
    assert len(h.tricks) == 8 and len(h.tricks[1].plays) == 3


def test_lines_that_need_a_missing_line():
    text = "GAME: X took back their last play\nGAME: X wins the trick and gets 5 points\nGAME: X took back their last bid\n"
    records, diags = import_text("shengji-io-chat", text)
    assert codes(diags) == ["SJ705", "SJ705", "SJ705"] and records == []


def test_empty_and_foreign_texts():
    for text in ("", "\n\n", "hello\nworld", "{\"json\": true}"):
        records, diags = import_text("shengji-io-chat", text)
        assert records == [] and diags and diags[0].code in ("SJ701", "SJ702")


def test_paste_shaped_like_issue_347():
    # the project's own paste in the shape of shengji.io issue 347: someone other than the
    # landlord bids, the landlord leads (a known dealer), a trump pair ruffs, the big joker is
    # written HJ, a trick with no points, a shadowing line
    text = "\n\n".join([
        "GAME: Ann started the game", "GAME: Cy bid 6♦",
        "GAME: Bo played J♣J♣", "GAME: Cy played A♣A♣", "GAME: Di played 4♣4♣", "GAME: Ann played 5♣9♣",
        "GAME: Cy wins the trick and gets 5 points",
        "GAME: Cy played Q♣Q♣", "GAME: Di played K♣K♣", "GAME: Ann played 7♦7♦", "GAME: Bo played 2♣2♣",
        "GAME: Ann wins the trick and gets 20 points",
        "GAME: Ann is being shadowed",
        "GAME: Ann played 2♦", "GAME: Bo played 6♠", "GAME: Cy played HJ", "GAME: Di played 3♦",
        "GAME: Cy wins the trick, but gets no points :(",
    ])
    res = import_log("shengji-io-chat", text)
    assert res.diagnostics == []
    rec = res.records[0]
    assert (rec.tag("South"), rec.tag("East"), rec.tag("North"), rec.tag("West")) == ("Bo", "Cy", "Di", "Ann")
    h = rec.hands[0]
    assert h.dealer == "S" and h.trump == 2
    assert [(d.seat, d.cards) for d in h.declarations] == [("E", C("D6"))]
    assert len(h.tricks) == 3 and h.tricks[2].plays[2].cards == C("BJ")
    assert check_claims(res.records, res.claims) == []        # the paste's stated results hold
    assert [x.code for x in replay(rec).diagnostics] == ["SJ503"]


def test_five_player_paste():
    # the structure of shengji.io issue #397 (a five-player Finding Friends trick, no bid in
    # the paste): our own fixture, not the shared log
    text = fixture("chat", "five_players.txt")
    res = import_log("shengji-io-chat", text)
    assert res.diagnostics == []
    rec = res.records[0]
    assert rec.rules_name == "shengji-io-friends" and rec.tag("Rule.players") is None   # five: the preset's
    h = rec.hands[0]
    assert h.dealer == "P1" and [p.seat for p in h.tricks[0].plays] == ["P1", "P2", "P3", "P4", "P5"]
    assert h.trump == 3                                     # ♣: the only trump under which P2's ruff can win
    assert h.levels.levels == {f"P{k}": 2 for k in range(1, 6)}
    [claim] = res.claims
    assert (claim.winner, claim.points) == ("P2", 20)
    # shengji.io's all_units rule: ♣66 + ♣2 ♣2 beats ♣55 + ♣A + ♠2 (pair over pair, each single
    # over a single), though reading it as ♣22 + ♣6 ♣6 would not
    m = replay(rec)
    assert m.hands[0].tricks[0].winner == "P5"
    [d] = check_claims(res.records, res.claims)
    assert d.code == "SJ704" and d.line == 6 and "P5 wins it" in d.message and "all_units" in d.message
    assert "pair ♣66 beats pair ♣55" in d.message


def test_five_player_paste_with_bid_and_mode_line():
    text = "\n".join([
        "GAME: Ann set the game mode to Finding Friends with 1 friends",
        "GAME: Ann bid 2♣",
        "GAME: Ann played 8♦8♦J♦Q♦", "GAME: Bo played 5♣5♣A♣2♠", "GAME: Cy played Q♠J♣J♣K♣",
        "GAME: Di played 3♠3♠7♣8♣", "GAME: Ed played 6♣6♣2♣2♣",
        "GAME: Ed wins the trick and gets 20 points",
    ])
    records, diags = import_text("shengji-io-chat", text)
    assert diags == []
    [rec] = records
    assert (rec.tag("P1"), rec.tag("P5"), rec.tag("Rule.friends")) == ("Ann", "Ed", "1")
    h = rec.hands[0]
    assert h.trump == 3 and [(d.seat, d.cards) for d in h.declarations] == [("P1", C("C2"))]


def test_several_games_in_one_paste():
    text = "\n".join([
        "GAME: A started the game", "GAME: A bid 2♠",
        "GAME: A played 3♥", "GAME: B played 4♥", "GAME: C played 5♥", "GAME: D played A♥",
        "GAME: D wins the trick and gets 5 points",
        "GAME: Landlord team lost, opposing team collected 120 points",
        "GAME: B has advanced to rank 3", "GAME: B will start the next game",
        "GAME: B started the game", "GAME: D bid 3♦",
        "GAME: B played 4♣", "GAME: C played 5♣", "GAME: D played 6♣", "GAME: A played 7♣",
        "GAME: A wins the trick and gets 5 points",
    ])
    records, diags = import_text("shengji-io-chat", text)
    assert diags == []
    [rec] = records
    h1, h2 = rec.hands
    assert (h1.dealer, h1.trump, h1.points, h1.levels.ns, h1.levels.ew) == ("S", 0, 120, 2, 2)
    # the second game: B (East) leads as landlord at rank 3; its team's rank comes from "advanced"
    assert (h2.dealer, h2.trump, h2.levels.ns, h2.levels.ew) == ("E", 2, 2, 3)
    assert [(d.seat, d.cards) for d in h2.declarations] == [("W", C("D3"))]
    assert lint(rec) == []
