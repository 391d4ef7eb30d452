"""The tricks and plays tables as the export builds them (the plays' match, hand, trick and
position derived from the tricks table by the exporting process; the structures of plays of
different cards found without the engine's decomposition) are the rows read back from the
replay's own results, one play at a time: on every preset, finding friends of 4 to 8
players, a failed throw and hostile tricks (a follower's throw, a trick short of plays, a
seat not at the table, a play of more cards than the lead)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")

from analyzer.play.generate import generate_match  # noqa: E402
from analyzer.store.rows import (  # noqa: E402
    PackedStrings,
    PackedValues,
    Rows,
    TricksDerived,
    _structure,
    add_record,
    arrow_tables,
    match_id_of,
)
from notation import parse, write  # noqa: E402
from notation._records import split_lines  # noqa: E402
from primitives.cards import to_str  # noqa: E402
from replay.game import replay  # noqa: E402
from replay.ruleset import PRESETS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

_HOSTILE = """[Rules "standard"]

hand 1
levels NS 2 EW 2
dealer S
trump H
1. S: SA  W: S3  N: S4  E: S5
2. S: SK  W: S6 -> S6  N: S7  E: S8 S9
3. S: SQ  W: S10
4. N: SJ  E: C3  S: D3  W: C4

[Rules "standard"]

hand 1
levels NS 2 EW 2
dealer S
trump H
1. S: SA  W: S3  N: S4  E: S5
2. S: SK  W: S6 -> S6  N: S7  E: S8 S9
3. S: SQ  W: S10
4. N: SJ  E: C3  S: D3  W: C4  P5: D4
"""


def _texts() -> list[tuple[str, str]]:
    out = [(f"{p} seed {s}", write(generate_match(p, hands=2, seed=s))) for p in PRESETS for s in (1, 2)]
    out += [(f"friends {n}p", write(generate_match("shengji-io-friends", hands=3, seed=n, players=n)))
            for n in (4, 5, 6, 7, 8)]
    out += [(p.name, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "samples" / "matches").glob("*.sjn"))]
    out += [("match.sjn", (ROOT / "samples" / "docs" / "match.sjn").read_text(encoding="utf-8")),
            ("hostile", _HOSTILE)]
    return out


_TEXTS = _texts()


def _reference_structure(cards: tuple[int, ...], order: object) -> str | None:
    """A play's structure by the engine's decomposition, every time (no shortcut, no cache)."""
    from replay.shapes import shape_name
    from replay.units import decompose
    if len(cards) == 1:
        return "single"
    if order is None or not cards:
        return None
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(order.eff[c], []).append(c)  # type: ignore[attr-defined]
    return " + ".join(shape_name(u.width, u.length) for suit_cards in by_suit.values()
                      for u in decompose(suit_cards, order))  # type: ignore[arg-type]


def _reference_plays(text: str) -> list[dict]:
    """The plays rows read back from the replay's results, play by play."""
    records, _ = parse(text)
    out: list[dict] = []
    for record in records:
        if not record.tags and not record.hands:
            continue
        match_id = match_id_of(split_lines(write([record])))
        match = replay(record)
        for i, hr in enumerate(match.hands, 1):
            for t in hr.tricks:
                for position, (p, cards) in enumerate(t.play_rows()):
                    out.append({"match_id": match_id, "hand": i, "trick": t.number, "position": position,
                                "seat": p.seat, "cards": [to_str(c) for c in cards],
                                "structure": _reference_structure(cards, hr.order),
                                "n_cards": len(cards)})
    return out


@pytest.mark.parametrize("name,text", _TEXTS, ids=[n for n, _ in _TEXTS])
def test_the_plays_table_is_the_replays_plays(name, text):
    records, diags = parse(text)
    rows = Rows()
    for r in records:
        add_record(rows, r, diags, "f.sjn")       # (lines None: the key is that of the record as written)
    columns = pickle.loads(pickle.dumps(rows.columns()))
    plays = columns["plays"]
    assert all(isinstance(plays[c], TricksDerived) for c in ("match_id", "hand", "trick", "position"))
    assert isinstance(columns["tricks"]["match_id"], PackedStrings)
    assert isinstance(columns["tricks"]["hand"], PackedValues)
    tables = arrow_tables(columns)
    for table in tables.values():
        table.validate(full=True)
    want = _reference_plays(text)
    assert want, name
    got = tables["plays"].select(list(want[0])).to_pylist()
    assert got == want, name
    # each trick row's plays, in order: the trick's key and number are its plays'
    tricks = tables["tricks"].to_pylist()
    assert len(tricks) == len({(p["match_id"], p["hand"], p["trick"]) for p in want}) or name == "hostile"
    # and the tables are those of the columns as plain lists (the worker's own values)
    plain = {t: {c: col.plain() if hasattr(col, "plain") else col.packed() if hasattr(col, "packed") else list(col)
                 for c, col in cols.items()} for t, cols in rows.cols.items()}
    for t, table in arrow_tables(plain).items():
        assert table.equals(tables[t]), (name, t)


def _orders() -> list[object]:
    """The orders of the hands of every preset's generated matches (each level and trump met)."""
    seen: dict[int, object] = {}
    for _, text in _TEXTS:
        records, _ = parse(text)
        for r in records:
            for hr in replay(r).hands:
                if hr.order is not None:
                    seen.setdefault(id(hr.order), hr.order)
    return list(seen.values())


_ORDERS = _orders()


def _one_suit(order: object, k: int) -> list[int]:
    """The cards of one effective suit of an order (the k-th it has), in its order of strength."""
    suits = [cards for cards in order.suit_cards if cards]  # type: ignore[attr-defined]
    return sorted(suits[k % len(suits)], key=order.key.__getitem__)  # type: ignore[attr-defined]


@settings(max_examples=600, deadline=None)
@given(st.integers(0, len(_ORDERS) - 1), st.integers(0, 4),
       st.lists(st.tuples(st.integers(0, 30), st.integers(1, 3)), min_size=1, max_size=8),
       st.lists(st.integers(0, 53), max_size=12), st.sampled_from(["suit", "any", "distinct"]))
def test_a_plays_structure_is_the_engines_decomposition_property(k, suit, picks, cards, kind):
    """Any play under any preset's order: cards of one suit met once, twice or three times (runs
    of adjacent pairs, off-suit level cards of one key), any cards, different cards: the export's
    structure is the engine's decomposition's."""
    order = _ORDERS[k]
    if kind == "suit":      # (the k-th card of the suit by strength, so many times: adjacent pairs often)
        ladder = _one_suit(order, suit)
        cards = [ladder[i % len(ladder)] for i, m in picks for _ in range(m)]
    elif kind == "distinct":
        cards = list(dict.fromkeys(cards))
    if not cards:
        return
    play = tuple(cards)
    cache: dict[tuple[int, ...], str] = {}
    assert _structure(play, order, cache) == _reference_structure(play, order)
    assert _structure(play, order, cache) == _reference_structure(play, order)     # (from the cache)


def test_the_derived_columns_past_their_fast_paths():
    """A trick of more plays than an int8 position holds is refused as a list of values would be;
    tricks columns sent as lists (a value out of the packed range) are repeated all the same."""
    from analyzer.store.rows import _FromTricks, _TrickCounts, _tricks_derived_array
    counts = _TrickCounts([2, 0, 3])
    tricks = {"hand": [1, 2, 40000], "trick": [1, 2, 3]}
    for what, kind, want in (("hand", pa.int32(), [1, 1, 40000, 40000, 40000]),
                             ("trick", pa.int16(), [1, 1, 3, 3, 3]), ("position", pa.int8(), [0, 1, 0, 1, 2])):
        col = _FromTricks(counts, tricks.get(what), what)
        assert col.plain() == want
        got = _tricks_derived_array(pa, kind, col.packed(), tricks)
        got.validate(full=True)
        assert got.to_pylist() == want, what
    big = _TrickCounts([200])
    with pytest.raises((pa.ArrowInvalid, OverflowError)):
        _tricks_derived_array(pa, pa.int8(), _FromTricks(big, None, "position").packed(), {})


def test_a_plays_structure_in_the_corners():
    """Two tractors of different lengths in one play (longest first); pairs of off-suit level cards
    (one key) between the trump ace and the trump-suit level card; the shengji.io reading."""
    from analyzer.store.rows import _pairs_structure
    checked = ladders = 0
    for order in _ORDERS:
        for k in range(len(order.suit_cards)):  # type: ignore[attr-defined]
            if not order.suit_cards[k]:  # type: ignore[attr-defined]
                continue
            ladder = _one_suit(order, k)
            ladders += 1
            plays = []
            if len(ladder) >= 6:
                plays.append(tuple(c for i in (0, 1, 3, 4, 5) for c in (ladder[i], ladder[i])))
            key = order.key  # type: ignore[attr-defined]
            for i in range(1, len(ladder) - 2):     # cards of one key, with the cards either side
                if key[ladder[i]] == key[ladder[i + 1]]:
                    j = i + 1
                    while j + 1 < len(ladder) and key[ladder[j + 1]] == key[ladder[i]]:
                        j += 1
                    if j + 1 < len(ladder):
                        plays.append(tuple(c for x in range(i - 1, j + 2) for c in (ladder[x], ladder[x])))
                    break
            for play in plays:
                assert _structure(play, order, {}) == _reference_structure(play, order), play
                checked += 1
            if order.split == "shengji_io":  # type: ignore[attr-defined]
                assert all(_pairs_structure(play, order) is None for play in plays)
    assert checked > ladders
