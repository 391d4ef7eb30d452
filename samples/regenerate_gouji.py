"""Rewrite the Gouji samples: ``samples/matches/gouji*.gjn`` (one generated
match per Gouji preset) and ``samples/diagnostics/GJxxx.gjn`` with their
``GJxxx.expected.json`` (each sample triggers its code; GOUJI.md §9).

Run from anywhere: ``python samples/regenerate_gouji.py``. The diagnostic
samples are written below in full (small games made for the purpose); the
script checks that each one lints to exactly the expected findings before
writing it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.games.gouji.generate import generate_match
from notation import gjn
from replay.gouji import replay
from replay.gouji.rules import PRESETS

GAMES = 3
SEED = 2026

# -- a complete game on a full deal (GOUJI.md §2–§6): odd sweeps (串三户) ---------------
DEAL = """P1: AAAAAAAAAAAAAAAA KKKKKKKKKKKKKKKK QQQQ
P2: 333333333333 444444444444 555555555555
P3: BJBJBJBJ LJLJLJLJ 2222222222222222 QQQQQQQQQQQQ
P4: 666666666666 777777777777 888888888888
P5: JJJJJJJJJJJJJJJJ 10101010101010101010101010101010 9999
P6: 3333 4444 5555 6666 7777 8888 999999999999"""
ACTIONS = [
    "P1: QQQQ", "P3: pass", "P5: pass", "P2: pass", "P6: pass", "P4: pass",
    "P1: " + "K" * 16, "P3: pass", "P5: pass", "P2: pass", "P6: pass", "P4: pass",
    "P1: " + "A" * 16 + " =1", "P3: " + "2" * 16 + " burn", "P5: pass", "P4: pass", "P2: pass", "P6: pass",
    "P3: BJBJBJBJ LJLJLJLJ QQQQQQQQQQQQ =2",
    "P4: 6", "P5: 9", "P6: pass", "P2: pass", "P4: pass",
    "P5: 999", "P6: pass", "P2: pass", "P4: pass",
    "P5: " + "10" * 16, "P6: pass", "P2: pass", "P4: pass",
    "P5: " + "J" * 16 + " =3",
]


def full_game(n: int = 1, pre: str = "lead P1", actions: list[str] | None = None,
              result: str = "result P1 P3 P5 P4 P2 P6", score: str = "score odd 12 even 0",
              deal: str = DEAL) -> str:
    lines = [f"game {n}", deal]
    if pre:
        lines.append(pre)
    lines += [f"{i}. {a}" for i, a in enumerate(ACTIONS if actions is None else actions, 1)]
    lines += [x for x in (result, score) if x]
    return "\n".join(lines) + "\n"


def with_action(k: int, text: str) -> list[str]:
    out = list(ACTIONS)
    out[k - 1] = text
    return out


ENDGAME = """game 1
position P1 P4
P2: KK 6
P3: 7
P5: AA 5
P6: QQ 4
lead P5
"""

#: code → (comment, text)
SAMPLES: dict[str, tuple[str, str]] = {
    "GJ201": ("P6 is dealt 35 cards", '[Rules "gouji"]\n' + full_game(deal=DEAL.replace("P6: 3333", "P6: 333"))),
    "GJ202": ("seventeen 3s: P2 holds 13 and P6 4", '[Rules "gouji"]\n' + full_game(
        deal=DEAL.replace("P2: 333333333333 444444444444", "P2: 3333333333333 44444444444"))),
    "GJ203": ("P5 plays a Q he does not hold", '[Rules "gouji"]\n' + full_game(actions=with_action(21, "P5: Q"))),
    "GJ204": ("P1 shows 3s he does not hold", '[Rules "gouji"]\n' + full_game(pre="show P1 S33\nlead P1")),
    "GJ205": ("P2 shows the only 3s (亮3): P2 leads, not P1", '[Rules "gouji"]\n' + full_game(
        deal=DEAL.replace("P2: 333333333333", "P2: S33 3333333333"), pre="show P2 S33\nlead P1")),
    "GJ206": ("P6's tribute goes to the 二科 P5, not to P2", '[Rules "gouji"] [Rule.tribute "on"] '
              '[Rule.tribute_cards "any"] [Rule.first_leader "given"]\n'
              "game 1\nresult P2 P5 P1 P3 P6 P4\nscore odd 2 even 0\n\n"
              + full_game(2, pre="tribute P6 P2: 9\nreturn P2 P6: 9\nlead P1")),
    "GJ207": ("P6 pays a 3 though his highest card is a 9", '[Rules "gouji"] [Rule.tribute "on"] '
              '[Rule.tribute_cards "any"] [Rule.first_leader "given"]\n'
              "game 1\nresult P2 P5 P1 P3 P6 P4\nscore odd 2 even 0\n\n"
              + full_game(2, pre="tribute P6 P5: 3\nreturn P5 P6: 3\nlead P1")),
    "GJ208": ("P3 holds jokers and 2s: he may not revolt", '[Rules "gouji"]\n' + full_game(pre="revolt P3\nlead P1")),
    "GJ209": ("买3 is played only under 憋3", '[Rules "gouji"]\n' + full_game(pre="buy P2 P5: 3\nlead P1")),
    "GJ210": ("会3 is not played under remove: none", '[Rules "gouji"] [Rule.remove "none"]\n'
              + full_game(pre="remove 3\nlead P1")),
    "GJ211": ("明点 needs 打点 (dadian: on)", '[Rules "gouji"]\n' + full_game(pre="point P1\nlead P1")),
    "GJ212": ("a lead line after the first action", '[Rules "gouji"]\n'
              + full_game(pre="lead P1").replace("2. P3: pass\n", "2. P3: pass\nlead P3\n")),
    "GJ301": ("P5 plays A and 5 as one set", '[Rules "gouji"]\n' + """game 1
position P1 P4
P2: 6
P3: 7
P5: A 5
P6: 44
lead P5
1. P5: A5 =3
2. P6: pass
3. P2: pass
4. P3: pass
5. P6: 4
6. P2: 6 =4
7. P3: 7 =5
result P1 P4 P5 P2 P3 P6
score odd 2 even 0
"""),
    "GJ302": ("P2 plays two cards on a single", '[Rules "gouji"]\n' + ENDGAME + """1. P5: 5
2. P6: pass
3. P2: KK
4. P3: pass
5. P5: AA =3
6. P6: pass
7. P2: pass
8. P3: pass
9. P6: 4
10. P2: 6 =4
11. P3: 7 =5
result P1 P4 P5 P2 P3 P6
score odd 2 even 0
"""),
    "GJ303": ("P2's 6 does not beat P6's Q", '[Rules "gouji"]\n' + ENDGAME + """1. P5: 5
2. P6: Q
3. P2: 6
4. P3: 7 =3
5. P5: pass
6. P6: pass
7. P2: pass
8. P5: AA =4
result P1 P4 P3 P5 P2 P6
score odd 4 even 0
"""),
    "GJ304": ("憋3: P5 plays a 3 while he holds other cards", '[Rules "gouji-bie3"]\n' + """game 1
position P1 P4
P2: KK 6
P3: 7
P5: AA 3
P6: QQ 4
lead P5
1. P5: 3
2. P6: 4
3. P2: 6
4. P3: 7 =3
5. P5: pass
6. P6: pass
7. P2: pass
8. P5: AA =4
result P1 P4 P3 P5 P2 P6
score odd 4 even 0
"""),
    "GJ401": ("P2 answers before P6, who is asked first", '[Rules "gouji"]\n' + ENDGAME + """1. P5: 5
2. P2: 6
3. P3: 7 =3
4. P5: pass
5. P6: pass
6. P2: pass
7. P5: AA =4
result P1 P4 P3 P5 P2 P6
score odd 4 even 0
"""),
    "GJ402": ("P2 answers P1's 够级 play before P1's teammate P5", '[Rules "gouji"]\n' + """game 1
position P3
P1: QQQ 5
P2: LJ KKK 88 7
P4: 66
P5: BJ 99 4
P6: 9
lead P1
1. P1: QQQ
2. P2: KKK burn
3. P4: pass
4. P6: pass
5. P1: pass
6. P5: pass
7. P2: LJ 88
8. P4: pass
9. P6: pass
10. P1: pass
11. P5: BJ 99
12. P5: 4 =2
13. P6: pass
14. P1: 5 =3
result P3 P5 P1 P2 P6 P4
score odd 12 even 0
"""),
    "GJ403": ("P5 passes on his own lead", '[Rules "gouji"]\n' + ENDGAME + """1. P5: pass
2. P5: 5
3. P6: pass
4. P2: 6
5. P3: 7 =3
6. P5: pass
7. P6: pass
8. P2: pass
9. P5: AA =4
result P1 P4 P3 P5 P2 P6
score odd 4 even 0
"""),
    "GJ404": ("四户乱缠: nobody may let", '[Rules "gouji"]\n' + ENDGAME + """1. P5: 5
2. P6: pass
3. P2: let
4. P3: 7 =3
5. P5: pass
6. P6: pass
7. P2: pass
8. P5: AA =4
result P1 P4 P3 P5 P2 P6
score odd 4 even 0
"""),
    "GJ405": ("P2's 6 is marked burn: it is no burn", '[Rules "gouji"]\n' + ENDGAME + """1. P5: 5
2. P6: pass
3. P2: 6 burn
4. P3: 7 =3
5. P5: pass
6. P6: pass
7. P2: pass
8. P5: AA =4
result P1 P4 P3 P5 P2 P6
score odd 4 even 0
"""),
    "GJ406": ("the burner P2 leads 88 without a joker: an unmarked failure", '[Rules "gouji"]\n' + """game 1
position P3
P1: QQQ 5
P2: LJ KKK 88 7
P4: 66
P5: BJ 99 4
P6: 9
lead P1
1. P1: QQQ
2. P5: pass
3. P2: KKK burn
4. P4: pass
5. P6: pass
6. P1: pass
7. P5: pass
8. P2: 88
9. P1: 5 =2
10. P4: pass
11. P5: pass
12. P6: pass
13. P4: 66 =3
14. P5: 99
15. P6: pass
16. P5: BJ
17. P5: 4 =4
result P3 P1 P4 P5 P6 P2
score odd 6 even 0
"""),
    "GJ407": ("action 4 is numbered 5", '[Rules "gouji"]\n' + ENDGAME + """1. P5: 5
2. P6: pass
3. P2: 6
5. P3: 7 =3
5. P5: pass
6. P6: pass
7. P2: pass
8. P5: AA =4
result P1 P4 P3 P5 P2 P6
score odd 4 even 0
"""),
    "GJ408": ("P2 plays after odd is out", '[Rules "gouji"]\n' + ENDGAME + """1. P5: 5
2. P6: pass
3. P2: 6
4. P3: 7 =3
5. P5: pass
6. P6: pass
7. P2: pass
8. P5: AA =4
9. P2: KK
result P1 P4 P3 P5 P2 P6
score odd 4 even 0
"""),
    "GJ501": ("the result puts P5 before P3", '[Rules "gouji"]\n' + ENDGAME + """1. P5: 5
2. P6: pass
3. P2: 6
4. P3: 7 =3
5. P5: pass
6. P6: pass
7. P2: pass
8. P5: AA =4
result P1 P4 P5 P3 P2 P6
score odd 4 even 0
"""),
    "GJ502": ("只记正分: even records 0, not −4", '[Rules "gouji"]\n' + ENDGAME + """1. P5: 5
2. P6: pass
3. P2: 6
4. P3: 7 =3
5. P5: pass
6. P6: pass
7. P2: pass
8. P5: AA =4
result P1 P4 P3 P5 P2 P6
score odd 4 even -4
"""),
    "GJ503": ("the game stops before a side is out", '[Rules "gouji"]\n' + ENDGAME + """1. P5: 5
2. P6: pass
3. P2: 6
"""),
}


def findings(text: str) -> list[tuple[str, int]]:
    records, diags = gjn.parse(text)
    out = [(d.code, d.line) for d in diags]
    for r in records:
        out += [(d.code, d.line) for d in replay(r).diagnostics]
    return out


def main() -> None:
    diag_dir = ROOT / "samples" / "diagnostics"
    for code, (comment, body) in SAMPLES.items():
        text = f"; {code}: {comment}\n" + body
        found = findings(text)
        if {c for c, _ in found} != {code}:
            raise SystemExit(f"{code}: the sample gives {found}")
        (diag_dir / f"{code}.gjn").write_text(text, encoding="utf-8")
        expected = [{"code": c, "line": line} for c, line in found]
        (diag_dir / f"{code}.expected.json").write_text(json.dumps(expected) + "\n", encoding="utf-8")
        print(f"wrote {code}.gjn {found}")
    out = ROOT / "samples" / "matches"
    for name in PRESETS:
        record = generate_match(name, GAMES, SEED)
        (out / f"{name}.gjn").write_text(gjn.write(record), encoding="utf-8")
        print(f"wrote {out / f'{name}.gjn'} ({len(record.games)} games)")


if __name__ == "__main__":
    main()
