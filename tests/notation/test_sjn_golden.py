"""Golden test: the messages and positions of typical typos, and what is
recovered around them (the rest of the hand still reads).

Each case replaces one line of a small, valid record. The golden file
``golden/typos.golden`` holds, per case, the input, the diagnostics
(``line:column-end_line:end_column CODE message``) and the canonical SJN of
what was recovered. After an intended change, rewrite it with::

    UPDATE_GOLDEN=1 python -m pytest tests/notation/test_sjn_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

from notation import parse, write

GOLDEN = Path(__file__).with_name("golden") / "typos.golden"

TEMPLATE = """\
[Event "typo"]
hand 1
levels NS 2 EW 2
dealer S
N: SA SK H2
kitty C3 C4
declare S H2 @3
trump H
1. S: HA  E: H6  N: H5  W: H3
2. S: SA  E: S9
points 5
"""

#: name -> (line of TEMPLATE replaced, or None to insert after `hand 1`; new text)
CASES = {
    "missing colon after a seat": ("N: SA SK H2", "N SA SK H2"),
    "bad rank": ("N: SA SK H2", "N: SA SK H11"),
    "unknown suit": ("kitty C3 C4", "kitty XA C4"),
    "trick cut short": ("1. S: HA  E: H6  N: H5  W: H3", "1. S: HA HA W"),
    "unknown keyword": ("dealer S", "dealr S"),
    "keyword in capitals": ("dealer S", "Dealer S"),
    "unterminated commentary": ("levels NS 2 EW 2", "levels NS 2 EW 2 {oops"),
    "tag without quotes": ('[Event "typo"]', "[Event typo]"),
    "tag not closed": ('[Event "typo"]', '[Event "typo"'),
    "levels missing a level": ("levels NS 2 EW 2", "levels NS 2 EW"),
    "bad level": ("levels NS 2 EW 2", "levels NS 1 EW 2"),
    "bad trump": ("trump H", "trump X"),
    "draw count not a number": ("declare S H2 @3", "declare S H2 @x"),
    "trick number not a number": ("2. S: SA  E: S9", "x. S: SA  E: S9"),
    "arrow without cards": ("1. S: HA  E: H6  N: H5  W: H3", "1. S: CAKK ->  E: H6  N: H5  W: H3"),
    "arrow at the end": ("2. S: SA  E: S9", "2. S: CAKK ->"),
    "seat without cards": ("2. S: SA  E: S9", "2. S: SA  E:"),
    "ranks without a suit": ("N: SA SK H2", "N: 10 9"),
    "two suits in one group": ("N: SA SK H2", "N: SAHK"),
    "duplicate dealer": (None, "dealer N"),
    "duplicate seat line": (None, "N: D2"),
    "stray closing brace": ("dealer S", "dealer S }"),
    "bad hand number": ("hand 1", "hand one"),
    "bury with two seats": (None, "bury S: C3 E: C4"),
}


def run_case(name: str, replaced: str | None, new: str) -> str:
    if replaced is None:
        text = TEMPLATE.replace("hand 1\n", f"hand 1\n{new}\n", 1)
    else:
        assert replaced + "\n" in TEMPLATE, name
        text = TEMPLATE.replace(replaced + "\n", new + "\n", 1)
    records, diags = parse(text)
    out = [f"=== {name}"]
    out += [f"  {i:2d} | {line}" for i, line in enumerate(text.splitlines(), 1)]
    out.append("  -- diagnostics")
    out += [f"  {d.line}:{d.column}-{d.end_line}:{d.end_column} {d.code} {d.message}" for d in diags]
    out.append("  -- recovered")
    out += [f"  {line}" for line in write(records).splitlines()]
    return "\n".join(out) + "\n"


def render() -> str:
    return "\n".join(run_case(name, *case) for name, case in CASES.items())


def test_typos_golden():
    got = render()
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(got, encoding="utf-8")
    want = GOLDEN.read_text(encoding="utf-8")
    assert got == want, "typo diagnostics changed: check, then rewrite with UPDATE_GOLDEN=1"


def test_every_typo_is_reported_and_the_rest_still_reads():
    """Each case gives at least one diagnostic, and every line of the template
    that was not touched (and is not a duplicate) is still in the record."""
    for name, (replaced, new) in CASES.items():
        text = (TEMPLATE.replace("hand 1\n", f"hand 1\n{new}\n", 1) if replaced is None
                else TEMPLATE.replace(replaced + "\n", new + "\n", 1))
        records, diags = parse(text)
        assert diags, name
        assert all(d.code.startswith("SJ1") for d in diags), name
        (record,) = records
        hand = record.hands[0]
        assert len(hand.tricks) >= 1, name
        if replaced != "points 5":
            assert hand.points == 5, name
