"""The save file (``GAME.SAV``) of the 1997 PC game 拖拉機大賽 (Tractor), format ``game-sav``.

Seed 001 documents the first three bytes of the file; nothing else in it is
read or written here:

=======  ==========================  ==========================================
offset   what                        values
=======  ==========================  ==========================================
0        North–South's level (V1)    01 = A, 02–0A = 2–10, 0B–0D = J–K, 12 = Joker
1        East–West's level (V2)      the same
2        the dealer (FA)             01 = S, 02 = E, 03 = N, 04 = W
=======  ==========================  ==========================================

Reading (:func:`read_state`, :func:`import_log`) never raises: a byte that
holds no value the game uses, or a file that ends before offset 2, is a
finding (SJ710–SJ712) with its offset, the value found and what was
expected; line 1, column ``offset + 1`` in the diagnostic. Writing
(:func:`encode_state`, :func:`patch`) changes those three bytes only and
refuses, with :class:`SaveEncodingError`, a state the game cannot hold.

The game plays ``tractor97`` (seed 001 is that preset's source), so an
imported record carries ``[Rules "tractor97"]``. Its dealer seats are the
importers' source seats 0–3 (S, E, N, W) counted from 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from analyzer.io.importers._common import SOURCE_SEATS, CompassSeat, ImportResult, tags_for
from notation.model import Hand, Levels, Record
from primitives.cards import JOKER_LEVEL, rank_name
from primitives.diagnostics import Diagnostic, Span

RULES = "tractor97"
#: (a binary format: declared so in analyzer.io.importers.registry; import_log gets the bytes)

#: offsets of the three state bytes
NS_OFFSET, EW_OFFSET, DEALER_OFFSET = 0, 1, 2
STATE_SIZE = 3

#: level byte → level (rank int: 2..14, 15 = Joker)
LEVEL_OF_BYTE: dict[int, int] = {0x01: 14, **{b: b for b in range(0x02, 0x0B)},
                                 0x0B: 11, 0x0C: 12, 0x0D: 13, 0x12: JOKER_LEVEL}
#: level → its byte
BYTE_OF_LEVEL: dict[int, int] = {level: b for b, level in LEVEL_OF_BYTE.items()}
#: dealer byte → SJN seat (the importers' source seats 0..3, S E N W, plus one)
SEAT_OF_BYTE: dict[int, CompassSeat] = {i + 1: seat for i, seat in enumerate(SOURCE_SEATS)}
BYTE_OF_SEAT: dict[str, int] = {seat: b for b, seat in SEAT_OF_BYTE.items()}

LEVELS_EXPECTED = "01 (A), 02–0A (2–10), 0B–0D (J–K) or 12 (Joker)"
DEALER_EXPECTED = "01 (South), 02 (East), 03 (North) or 04 (West)"
_WHAT = {NS_OFFSET: "North–South's level", EW_OFFSET: "East–West's level", DEALER_OFFSET: "the dealer"}


class SaveEncodingError(ValueError):
    """A state the game's save file cannot hold (a level or seat without a byte)."""


@dataclass(frozen=True)
class SaveFinding:
    """A byte of the save that cannot be read: where, what was found, what was expected."""

    code: str
    offset: int
    value: int | None          # None: the file ends before ``offset``
    expected: str
    message: str

    def diagnostic(self) -> Diagnostic:
        """As a diagnostic: line 1, column ``offset + 1`` (one column per byte)."""
        return Diagnostic.at(self.code, Span(1, self.offset + 1, 1, self.offset + 2), self.message)


@dataclass(frozen=True)
class SaveState:
    """The match state a save holds; None where the byte cannot be read."""

    ns: int | None
    ew: int | None
    dealer: CompassSeat | None
    size: int                                     # the file's length in bytes
    findings: tuple[SaveFinding, ...] = field(default=())

    @property
    def levels(self) -> dict[str, int | None]:
        return {"NS": self.ns, "EW": self.ew}

    @property
    def complete(self) -> bool:
        return self.ns is not None and self.ew is not None and self.dealer is not None

    def text(self) -> str:
        """``NS 5 EW J, dealer E`` (``?`` where a byte cannot be read)."""
        def lv(v: int | None) -> str:
            return rank_name(v) if v is not None else "?"
        return f"NS {lv(self.ns)} EW {lv(self.ew)}, dealer {self.dealer or '?'}"


def hex_bytes(data: bytes) -> str:
    """``b"\\x05\\x0b"`` → ``05 0B``."""
    return " ".join(f"{b:02X}" for b in data)


def read_state(data: bytes) -> SaveState:
    """The levels and dealer in the first three bytes of ``data``. Never raises."""
    data = bytes(data)
    findings: list[SaveFinding] = []
    if len(data) < STATE_SIZE:
        findings.append(SaveFinding(
            "SJ710", len(data), None, f"{STATE_SIZE} bytes at least",
            f"the save file is {len(data)} byte{'s' if len(data) != 1 else ''} long; the game keeps "
            f"{_WHAT[len(data)]} at offset {len(data)} (the state takes bytes 0–2)"))
    levels: list[int | None] = []
    for off in (NS_OFFSET, EW_OFFSET):
        if off >= len(data):
            levels.append(None)
            continue
        b = data[off]
        level = LEVEL_OF_BYTE.get(b)
        if level is None:
            findings.append(SaveFinding(
                "SJ711", off, b, LEVELS_EXPECTED,
                f"offset {off} ({_WHAT[off]}) holds {b:02X}; expected {LEVELS_EXPECTED}"))
        levels.append(level)
    dealer = None
    if DEALER_OFFSET < len(data):
        b = data[DEALER_OFFSET]
        dealer = SEAT_OF_BYTE.get(b)
        if dealer is None:
            findings.append(SaveFinding(
                "SJ712", DEALER_OFFSET, b, DEALER_EXPECTED,
                f"offset {DEALER_OFFSET} ({_WHAT[DEALER_OFFSET]}) holds {b:02X}; expected {DEALER_EXPECTED}"))
    return SaveState(levels[0], levels[1], dealer, len(data), tuple(findings))


def encode_state(levels: dict[str, int], dealer: str) -> bytes:
    """The three state bytes for ``levels`` (``{"NS": …, "EW": …}``) and ``dealer``.

    Raises :class:`SaveEncodingError` for a level or seat the game cannot hold.
    """
    out = []
    for team in ("NS", "EW"):
        level = levels.get(team)
        b = BYTE_OF_LEVEL.get(level) if isinstance(level, int) and not isinstance(level, bool) else None
        if b is None:
            raise SaveEncodingError(
                f"{team}'s level {_level_text(level)} cannot be written into the save: the game holds "
                f"only A, 2–10, J–K and Joker")
        out.append(b)
    b = BYTE_OF_SEAT.get(dealer) if isinstance(dealer, str) else None
    if b is None:
        raise SaveEncodingError(f"the dealer {dealer!r} cannot be written into the save: "
                                f"it holds a seat, S, E, N or W")
    out.append(b)
    return bytes(out)


def patch(data: bytes, levels: dict[str, int], dealer: str) -> bytes:
    """``data`` with its three state bytes replaced; every other byte kept as it is.

    Raises :class:`SaveEncodingError` when the state cannot be encoded or
    ``data`` is shorter than the three bytes.
    """
    state = encode_state(levels, dealer)
    data = bytes(data)
    if len(data) < STATE_SIZE:
        raise SaveEncodingError(f"the save file is {len(data)} byte{'s' if len(data) != 1 else ''} long; "
                                f"it has no room for the state (bytes 0–2)")
    return state + data[STATE_SIZE:]


def _level_text(level: Any) -> str:
    try:
        return rank_name(level)
    except (KeyError, TypeError):
        return repr(level)


# -- the importer ------------------------------------------------------------------------

def looks_like(text: str | bytes) -> bool:
    """A save file has no signature the content could be told by: never detected."""
    return False


def import_log(data: bytes | str, source: str = "") -> ImportResult:
    """The start of a ``tractor97`` record from a save's bytes (``str``: UTF-8 encoded back).

    The record has the tags, a commentary naming the file and the state bytes,
    and one hand with the ``levels`` and ``dealer`` lines the save holds (a
    line is left out when its byte cannot be read; the finding says why).
    """
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogateescape")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return ImportResult(diagnostics=[Diagnostic.at("SJ701", Span(1, 1, 1, 2), "the save file is not bytes")])
    data = bytes(data)
    state = read_state(data)
    result = ImportResult(diagnostics=[f.diagnostic() for f in state.findings])
    name = source or "the save file"
    head = data[:STATE_SIZE]
    comment = (f"From {name}, a save of the 1997 game Tractor (拖拉機大賽): bytes 0–2 are "
               f"{hex_bytes(head) or 'missing'} ({state.text()}); the other "
               f"{max(0, len(data) - STATE_SIZE)} bytes of the file are not read")
    hand = Hand()
    if state.ns is not None and state.ew is not None:
        hand.levels = Levels(ns=state.ns, ew=state.ew)
    if state.dealer is not None:
        hand.dealer = state.dealer
    record = Record(tags=tags_for(event="Tractor (1997) saved game", site="Tractor (1997 PC game)",
                                  rules=RULES, source=source),
                    header_comments=[comment.replace("{", "(").replace("}", ")")], hands=[hand])
    result.records.append(record)
    return result
