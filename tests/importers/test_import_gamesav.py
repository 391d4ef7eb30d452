"""The 1997 Tractor game's save file (``game-sav``): bytes 0–2 are NS's level, EW's
level and the dealer (seed 001). Every save here is built byte by byte.

Seed 001's table: level bytes 01 = A, 02–0A = 2–10, 0B–0D = J–K, 12h = Joker;
dealer bytes 01 = South, 02 = East, 03 = North, 04 = West.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.io.export import gamesav as X
from analyzer.io.importers import (
    FORMATS,
    RULES,
    detect_format,
    import_log,
    import_text,
    is_binary,
)
from analyzer.io.importers import gamesav as G
from notation import parse, write

# seed 001, written out: byte → level name (the SJN spelling)
LEVEL_TABLE = [
    (0x01, "A"), (0x02, "2"), (0x03, "3"), (0x04, "4"), (0x05, "5"), (0x06, "6"), (0x07, "7"),
    (0x08, "8"), (0x09, "9"), (0x0A, "10"), (0x0B, "J"), (0x0C, "Q"), (0x0D, "K"), (0x12, "Joker"),
]
DEALER_TABLE = [(0x01, "S"), (0x02, "E"), (0x03, "N"), (0x04, "W")]
RANK = {"A": 14, "J": 11, "Q": 12, "K": 13, "Joker": 15, **{str(n): n for n in range(2, 11)}}
TAIL = bytes([0x00, 0xFF, 0x7F, 0x80, 0x12, 0x01]) * 20        # what the rest of a save might hold


def save(ns: int, ew: int, dealer: int, tail: bytes = TAIL) -> bytes:
    return bytes([ns, ew, dealer]) + tail


def sjn(data: bytes, source: str = "GAME.SAV") -> str:
    records, _ = import_text("game-sav", data, source=source)
    return write(records)


# -- reading: every value of the table ------------------------------------------------------

@pytest.mark.parametrize("byte,name", LEVEL_TABLE)
def test_every_level_byte_on_both_teams(byte, name):
    ns_save = read_ok(save(byte, 0x02, 0x01))
    assert (ns_save.ns, ns_save.ew) == (RANK[name], 2)
    ew_save = read_ok(save(0x02, byte, 0x01))
    assert (ew_save.ns, ew_save.ew) == (2, RANK[name])
    assert f"levels NS {name} EW 2\n" in sjn(save(byte, 0x02, 0x01))
    assert f"levels NS 2 EW {name}\n" in sjn(save(0x02, byte, 0x01))


@pytest.mark.parametrize("byte,seat", DEALER_TABLE)
def test_every_dealer_byte(byte, seat):
    assert read_ok(save(0x05, 0x0B, byte)).dealer == seat
    assert f"\ndealer {seat}\n" in sjn(save(0x05, 0x0B, byte))


def read_ok(data: bytes) -> G.SaveState:
    state = G.read_state(data)
    assert state.findings == () and state.complete and state.size == len(data)
    return state


def test_the_tables_are_the_seeds():
    assert {b: G.LEVEL_OF_BYTE[b] for b, _ in LEVEL_TABLE} == {b: RANK[n] for b, n in LEVEL_TABLE}
    assert set(G.LEVEL_OF_BYTE) == {b for b, _ in LEVEL_TABLE}
    assert G.SEAT_OF_BYTE == dict(DEALER_TABLE)


def test_import_gives_the_start_of_a_tractor97_record():
    text = sjn(save(0x0C, 0x12, 0x02, b"\x99" * 5), source="saves/GAME.SAV")
    records, diags = parse(text)
    assert not diags and len(records) == 1
    r = records[0]
    assert r.tag("Rules") == "tractor97" == RULES["game-sav"]
    assert r.tag("Source") == "saves/GAME.SAV"
    assert len(r.header_comments) == 1 and "saves/GAME.SAV" in r.header_comments[0]
    assert "0C 12 02" in r.header_comments[0] and "5 bytes" in r.header_comments[0]
    (hand,) = r.hands
    assert (hand.levels.ns, hand.levels.ew, hand.dealer) == (12, 15, "E")
    assert hand.deal == [] and hand.tricks == [] and hand.number is None
    # the engine takes it as a hand of a match under way (the dealer is known), not a first hand
    from replay.game import replay
    m = replay(r)
    assert m.hands[0].levels == {"NS": 12, "EW": 15} and m.hands[0].dealer == "E"
    assert [d.code for d in m.diagnostics] == ["SJ503"]          # only: the hand is not played yet


def test_text_input_is_read_back_as_its_bytes():
    data = save(0x0D, 0x01, 0x04, b"")
    assert write(import_log("game-sav", data.decode("utf-8")).records) == write(import_log("game-sav", data).records)


# -- bad values and short files: findings, never a crash -----------------------------------

@pytest.mark.parametrize("value", range(256))
@pytest.mark.parametrize("offset", [0, 1])
def test_every_level_byte_value(offset, value):
    data = bytearray(save(0x02, 0x02, 0x01))
    data[offset] = value
    state = G.read_state(bytes(data))
    if value in G.LEVEL_OF_BYTE:
        assert state.findings == ()
        return
    (f,) = state.findings
    assert (f.code, f.offset, f.value) == ("SJ711", offset, value)
    assert f"offset {offset}" in f.message and f"{value:02X}" in f.message and f.expected in f.message
    d = f.diagnostic()
    assert (d.line, d.column, d.severity) == (1, offset + 1, "error")
    records, diags = import_text("game-sav", bytes(data))
    assert [x.code for x in diags] == ["SJ711"]
    assert records[0].hands[0].levels is None                 # no levels line: the byte says nothing
    assert records[0].hands[0].dealer == "S"


@pytest.mark.parametrize("value", range(256))
def test_every_dealer_byte_value(value):
    state = G.read_state(save(0x02, 0x02, value))
    if value in (1, 2, 3, 4):
        assert state.findings == ()
        return
    (f,) = state.findings
    assert (f.code, f.offset, f.value) == ("SJ712", 2, value)
    assert f.diagnostic().column == 3 and f"{value:02X}" in f.message and "South" in f.message
    records, diags = import_text("game-sav", save(0x02, 0x02, value))
    assert [x.code for x in diags] == ["SJ712"]
    assert records[0].hands[0].dealer is None and records[0].hands[0].levels.ns == 2


@pytest.mark.parametrize("data,codes,ns,ew", [
    (b"", ["SJ710"], None, None),
    (b"\x05", ["SJ710"], 5, None),
    (b"\x05\x0b", ["SJ710"], 5, 11),
    (b"\x13\x0b", ["SJ710", "SJ711"], None, 11),
    (b"\x00\x00\x00", ["SJ711", "SJ711", "SJ712"], None, None),
])
def test_short_and_empty_files(data, codes, ns, ew):
    state = G.read_state(data)
    assert [f.code for f in state.findings] == codes
    assert (state.ns, state.ew, state.dealer) == (ns, ew, None)
    records, diags = import_text("game-sav", data, source="GAME.SAV")
    assert sorted(d.code for d in diags) == sorted(codes)
    assert len(records) == 1 and records[0].tag("Rules") == "tractor97"
    short = [f for f in state.findings if f.code == "SJ710"]
    if short:
        assert short[0].offset == len(data) and f"{len(data)} byte" in short[0].message


@given(st.binary(max_size=40))
def test_any_bytes_never_crash(data):
    records, diags = import_text("game-sav", data)
    assert len(records) == 1
    assert all(d.code in ("SJ710", "SJ711", "SJ712") and d.line == 1 for d in diags)
    parse(write(records))


def test_registered_like_the_other_importers():
    assert "game-sav" in FORMATS and is_binary("game-sav") and is_binary("gamesav")
    assert not any(is_binary(f) for f in FORMATS if f != "game-sav")
    assert detect_format(save(1, 1, 1).decode("latin-1"), "GAME.SAV") is None   # never guessed: named
    assert import_text("game-sav", 12345)[1][0].code == "SJ701"


# -- writing: encode, patch, the byte-level round trip -------------------------------------

@pytest.mark.parametrize("byte,name", LEVEL_TABLE)
@pytest.mark.parametrize("dbyte,seat", DEALER_TABLE)
def test_encode_every_level_and_dealer(byte, name, dbyte, seat):
    assert G.encode_state({"NS": RANK[name], "EW": 2}, seat) == bytes([byte, 0x02, dbyte])
    assert G.encode_state({"NS": 13, "EW": RANK[name]}, seat) == bytes([0x0D, byte, dbyte])


@given(st.sampled_from(LEVEL_TABLE), st.sampled_from(LEVEL_TABLE), st.sampled_from(DEALER_TABLE),
       st.binary(min_size=3, max_size=64))
def test_byte_level_round_trip(ns, ew, dealer, old):
    levels = {"NS": RANK[ns[1]], "EW": RANK[ew[1]]}
    new = G.patch(old, levels, dealer[1])
    assert len(new) == len(old) and new[3:] == old[3:]                 # only bytes 0–2 change
    assert new[:3] == bytes([ns[0], ew[0], dealer[0]])
    state = G.read_state(new)
    assert (state.levels, state.dealer, state.findings) == (levels, dealer[1], ())
    # and back: the imported record, written and read again, holds the same state
    (rec,), _ = parse(sjn(new))
    h = rec.hands[0]
    assert G.encode_state({"NS": h.levels.ns, "EW": h.levels.ew}, h.dealer) == new[:3]


@pytest.mark.parametrize("levels,dealer,what", [
    ({"NS": 16, "EW": 2}, "S", "NS's level"),
    ({"NS": 2, "EW": 1}, "S", "EW's level"),
    ({"NS": 2, "EW": 0}, "S", "EW's level"),
    ({"NS": None, "EW": 2}, "S", "NS's level"),
    ({"NS": 2, "EW": 2}, "?", "dealer"),
    ({"NS": 2, "EW": 2}, None, "dealer"),
])
def test_states_the_game_cannot_hold_are_refused(levels, dealer, what):
    with pytest.raises(G.SaveEncodingError, match=what):
        G.encode_state(levels, dealer)


def test_patch_refuses_a_file_too_short():
    with pytest.raises(G.SaveEncodingError, match="2 bytes"):
        G.patch(b"\x01\x01", {"NS": 2, "EW": 2}, "S")


# -- export planning: the engine's state after the last hand -------------------------------

class _Outcome:
    def __init__(self, levels, dealer):
        self.levels, self.next_dealer = levels, dealer


class _Hand:
    def __init__(self, levels, dealer, outcome, *, redeal=False, number=1):
        self.levels, self.dealer, self.outcome, self.redeal, self.number = levels, dealer, outcome, redeal, number
        self.tricks = []


class _Rules:
    name = "tractor97"


class _Match:
    def __init__(self, *hands):
        self.hands, self.diagnostics, self.ruleset = list(hands), [], _Rules()


def _record(dealer="S"):
    from notation.model import Hand, Levels, Record, Tag
    return Record(tags=[Tag(name="Rules", value="tractor97")],
                  hands=[Hand(levels=Levels(ns=2, ew=2), dealer=dealer)])


def test_a_level_beyond_jokers_encoding_is_refused():
    # a preset whose levels went past Joker (no preset does today): the engine's state is refused
    match = _Match(_Hand({"NS": 2, "EW": 2}, "S", _Outcome({"NS": 16, "EW": 2}, "W")))
    with pytest.raises(X.ExportRefused, match="cannot be written into the save"):
        X.plan(_record(), save(2, 2, 1), match=match)


def test_plan_takes_the_engines_state_and_compares_the_start():
    match = _Match(_Hand({"NS": 2, "EW": 2}, "S", _Outcome({"NS": 15, "EW": 14}, "W")))
    p = X.plan(_record(), save(2, 2, 1), match=match)
    assert (p.before, p.after, p.mismatch) == (b"\x02\x02\x01", b"\x12\x01\x04", None)
    assert p.data[3:] == TAIL and p.changes
    p = X.plan(_record(), save(2, 3, 1), match=match)
    assert "EW 3" in p.mismatch
    p = X.plan(_record(), save(2, 2, 2), match=match)
    assert "dealer E" in p.mismatch
    p = X.plan(_record(), save(0x30, 2, 1), match=match)                 # an unreadable save differs
    assert "30" in p.mismatch
    p = X.plan(_record(dealer="?"), save(2, 2, 2), match=match)          # dealer ?: levels only
    assert p.mismatch is None and any("only the levels" in n for n in p.notes)


@pytest.mark.parametrize("match,why", [
    (_Match(), "no hand"),
    (_Match(_Hand({"NS": 2, "EW": 2}, "S", None)), "not complete"),
    (_Match(_Hand({"NS": 2, "EW": 2}, None, None, redeal=True)), "redealt"),
])
def test_no_state_after_the_record(match, why):
    with pytest.raises(X.ExportRefused, match=why):
        X.plan(_record(), save(2, 2, 1), match=match)


def test_a_redeal_keeps_levels_and_dealer():
    match = _Match(_Hand({"NS": 2, "EW": 2}, "S", _Outcome({"NS": 3, "EW": 2}, "N")),
                   _Hand({"NS": 3, "EW": 2}, "N", None, redeal=True, number=2))
    assert X.plan(_record(), save(2, 2, 1), match=match).after == b"\x03\x02\x03"


def test_a_save_too_short_is_refused():
    match = _Match(_Hand({"NS": 2, "EW": 2}, "S", _Outcome({"NS": 3, "EW": 2}, "N")))
    with pytest.raises(X.ExportRefused, match="2 bytes"):
        X.plan(_record(), b"\x02\x02", match=match)
