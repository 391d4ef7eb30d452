"""憋3 / 打点 preset (GOUJI.md §2.3 买3, §7 点贡/明点): mutations of generated
legal records give GJ206/GJ207 (点贡) and GJ209 (买3) where §9 puts them."""

from __future__ import annotations

from functools import cache

import pytest

from analyzer.games.gouji.generate import generate_match
from notation import gjn
from replay.gouji import replay


@cache
def text_with(kind: str) -> str:
    for seed in range(200):
        rec = generate_match("gouji-bie3", 3, seed)
        if any(p.kind == kind for g in rec.games for p in g.preplay):
            return gjn.write(rec)
    raise AssertionError(f"no generated record with a {kind} line")


def lint(text: str) -> list[tuple[str, int]]:
    (rec,), diags = gjn.parse(text)
    assert diags == []
    return [(d.code, d.line) for d in replay(rec).diagnostics]


def lines_starting(text: str, word: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines(), 1) if line.startswith(word + " ")]


def game_line_before(text: str, line: int) -> int:
    rows = text.splitlines()
    for i in range(line, 0, -1):
        if rows[i - 1].startswith("game "):
            return i
    raise AssertionError


@pytest.mark.parametrize("kind,code", [("dian", "GJ206"), ("buy", "GJ209")])
def test_generated_lines_are_clean_and_required(kind, code):
    text = text_with(kind)
    assert lint(text) == []
    line = lines_starting(text, kind)[0]
    rows = text.splitlines()
    payer = rows[line - 1].split()[1]
    dropped = "\n".join(r for i, r in enumerate(rows, 1) if i != line) + "\n"
    got = lint(dropped)
    assert (code, game_line_before(text, line)) in got, (rows[line - 1], got)
    del payer


def test_dian_not_highest():
    from primitives.gjcards import make
    (rec,), _ = gjn.parse(text_with("dian"))
    gi, pi = next((gi, pi) for gi, g in enumerate(rec.games) for pi, p in enumerate(g.preplay) if p.kind == "dian")
    line = rec.games[gi].preplay[pi]
    rec.games[gi].preplay[pi] = line.model_copy(update={"cards": (make(3),) * len(line.cards)})
    (again,), _ = gjn.parse(gjn.write(rec))
    where = again.games[gi].preplay[pi].span.line
    got = [(d.code, d.line) for d in replay(again).diagnostics]
    assert ("GJ207", where) in got or ("GJ203", where) in got, got


def test_buy_wrong_payment():
    text = text_with("buy")
    line = lines_starting(text, "buy")[0]
    rows = text.splitlines()
    head, _, _ = rows[line - 1].partition(": ")
    rows[line - 1] = head + ": A"
    got = lint("\n".join(rows) + "\n")
    assert ("GJ209", line) in got


def test_point_allowed_under_dadian_and_fanche():
    from replay.gouji.rules import GoujiRuleset
    from replay.gouji.tribute import owed_dian
    bukai = [False, True, False, False, False, False]        # P2 ended 不开点
    rs = GoujiRuleset(dadian="on")
    assert owed_dian(bukai, [], rs) == {(1, 4): 1}
    assert owed_dian(bukai, [(4, False)], rs) == {(1, 4): 2}          # right 明点 by P5
    assert owed_dian(bukai, [(4, True)], rs) == {(1, 4): 4}           # right 预点
    assert owed_dian(bukai, [(0, False)], rs) == {(1, 4): 1, (0, 3): 2}   # 翻车: P1 pays P4
    assert owed_dian(bukai, [(0, True)], GoujiRuleset(dadian="on", fanche="double")) == {(1, 4): 1, (0, 3): 8}
