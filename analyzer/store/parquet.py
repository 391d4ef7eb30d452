"""The Parquet store: a corpus of records as five tables (``shengji export --to parquet``).

Layout of a store directory (``OUTDIR``)::

    OUTDIR/matches/batch=B/part-00000.parquet
    OUTDIR/hands/batch=B/…      OUTDIR/tricks/batch=B/…
    OUTDIR/plays/batch=B/…      OUTDIR/diagnostics/batch=B/…
    OUTDIR/_batches/B.json      the batch's manifest: its parts, files, row counts

Each export run is one batch ``B`` (a hive partition: readers see a
``batch`` column). Running the export again with more files appends a new
batch; files already in the store (same path, size and modification time) are
skipped.

**Crash safety.** A batch's parts are written (and fsynced) under
``OUTDIR/.staging-B``, moved into the table directories, and the batch is
*committed* by writing its manifest ``_batches/B.json`` last (atomically,
fsynced). Readers (:mod:`analyzer.store.stats`) see committed batches only (the
parts their manifests list). An export holds ``OUTDIR/.lock`` while it runs
and first rolls back what an interrupted one left (a ``.staging-*``
directory, ``batch=B`` directories without a manifest): re-running an
interrupted export neither loses nor duplicates rows.

**Compaction.** Each table of a batch is written as few files as its size
allows: row groups of about :data:`ROW_GROUP_ROWS` rows, a new part file once
one holds :data:`PART_BYTES` bytes — not one file per chunk.

Rows are extracted from the engine's replay results (``MatchResult``,
``HandResult``, ``TrickResult``) — nothing is recomputed here — into column
lists, and turned into Arrow arrays per chunk (card lists as flat card numbers
taken from one array of card names). Work goes chunk by chunk (the chunks of
``shengji lint --jobs``), in this process, in ``--jobs`` worker processes, or
on a Dask cluster (``--cluster``).

The schemas (:data:`SCHEMAS`) are documented in ``docs/store.md`` (a test
keeps the two in step). ``pyarrow`` is an optional dependency (``pip install
'shengji[stats]'``), imported only when a store is written; reading it
(``shengji stats``) needs DuckDB alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain, islice
from pathlib import Path
from types import ModuleType
from typing import IO, TYPE_CHECKING, Any, NotRequired, TypedDict

if TYPE_CHECKING:
    import pyarrow as pa  # untyped: Any to mypy (pyproject's ignore_missing_imports)
    from distributed import Client

    from analyzer.lint import FileResult
    from analyzer.store.cluster import Job
    from notation.model import Hand, Record
    from primitives.diagnostics import Diagnostic
    from replay.game import HandResult

#: chunks of at most this many bytes of SJN (about 500 hands): bounds the memory per chunk
CHUNK_BYTES = 1024 * 1024
#: files at least this large are cut into chunks
SPLIT_BYTES = 1024 * 1024
#: rows buffered per table before they are written as one Parquet row group
ROW_GROUP_ROWS = 128 * 1024
#: a table's part file is closed (and the next one started) once it holds this many bytes
PART_BYTES = 256 * 1024 * 1024
#: the store's schema version, written in each manifest (1: before cards were lists)
STORE_FORMAT = 2

TABLES: tuple[str, ...] = ("matches", "hands", "tricks", "plays", "diagnostics")

#: the type of ``hands.declarations`` as docs/store.md names it
DECLARATIONS = "list<struct<seat:string,cards:list<string>,at:int16>>"

#: table → ((column, type, meaning), …). Types: string, bool, int8, int16, int32, date32,
#: list<string>, map<string,string> and :data:`DECLARATIONS`.
SCHEMAS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "matches": (
        ("match_id", "string", "a hash of the record's text (20 hex digits): the key every table joins on, "
                               "the same wherever and whenever the record is exported"),
        ("file", "string", "the input file as named on the command line"),
        ("line", "int32", "the record's first line in the file"),
        ("rules", "string", "the ruleset the record was replayed by (its `[Rules]` preset, or `--rules`)"),
        ("event", "string", "the `[Event]` tag"),
        ("date", "date32", "the `[Date]` tag as a date (`2026.11.24` or `2026-11-24`), null when not a whole date"),
        ("tags", "map<string,string>", "every tag of the record (the first value of a repeated one)"),
        ("seats", "list<string>", "the table's seats in play order: `[N, W, S, E]`, or `[P1, …, Pn]` (5–8 players)"),
        ("players", "list<string>", "the players' names (the seats' tags: `[North]`…, `[P1]`…), in the order of `seats`; "
                                    "null where a seat has no name"),
        ("north", "string", "the `[North]` tag (player name)"),
        ("west", "string", "the `[West]` tag"),
        ("south", "string", "the `[South]` tag"),
        ("east", "string", "the `[East]` tag"),
        ("hands", "int32", "hands in the record (redeals included)"),
        ("hands_played", "int32", "hands that were played (not redealt)"),
        ("winner", "string", "the team that won the match (`NS`/`EW`), null while it goes on"),
        ("errors", "int32", "error-severity diagnostics of the record"),
    ),
    "hands": (
        ("match_id", "string", "the match"),
        ("hand", "int32", "1-based place of the hand in the record"),
        ("number", "int32", "the number written after `hand`, null when none"),
        ("rules", "string", "the ruleset (the match's, repeated for grouping)"),
        ("ns_level", "int8", "North–South's level before the hand (2–14, 15 = Joker)"),
        ("ew_level", "int8", "East–West's level before the hand"),
        ("level", "int8", "the hand's level rank"),
        ("dealer", "string", "the dealer's seat (N, W, S, E; P1…P8), null when unknown"),
        ("dealer_team", "list<string>", "the dealer's team as seats: `[N, S]`, `[E, W]`; finding friends the seats "
                                        "of the dealer's team as it ended the hand"),
        ("attackers", "list<string>", "the attacking seats (the other team)"),
        ("declarer", "string", "the seat whose declaration set the trump, null when none"),
        ("trump", "string", "`S`, `H`, `D`, `C` or `NT`; null when unknown"),
        ("declarations", DECLARATIONS, "the declarations as written: seat, cards, and the card count it was made at"),
        ("n_declarations", "int16", "how many declarations were written"),
        ("redeal", "bool", "the hand was redealt (not played)"),
        ("complete", "bool", "every card was played"),
        ("kitty", "list<string>", "the kitty as dealt (cards)"),
        ("bury", "list<string>", "the cards buried (the final kitty)"),
        ("bury_points", "int16", "points in the buried cards"),
        ("card_points", "int16", "the attackers' points won in tricks"),
        ("penalties", "int16", "failed-throw penalties added to the attackers' total (signed)"),
        ("kitty_points", "int16", "kitty points × multiplier won by the attackers"),
        ("multiplier", "int16", "the kitty multiplier applied (0 when the dealers won the last trick)"),
        ("last_trick_multiplier", "int16", "the multiplier the last trick carried, whoever won it"),
        ("last_trick_attackers", "bool", "the attackers won the last trick (the kitty was not protected)"),
        ("attacker_points", "int32", "the attackers' total (tricks + penalties + kitty)"),
        ("next_ns_level", "int8", "North–South's level after the hand (null when not complete)"),
        ("next_ew_level", "int8", "East–West's level after the hand"),
        ("next_dealer", "string", "the next hand's dealer"),
        ("dealers_keep", "bool", "the dealers held the deal"),
        ("levels_gained", "int8", "levels the winning side rose"),
        ("level_change", "string", "who rose how far: `NS +2`, `EW +0`…"),
        ("match_over", "bool", "the match was decided by this hand"),
    ),
    "tricks": (
        ("match_id", "string", "the match"),
        ("hand", "int32", "the hand (its place in the record)"),
        ("trick", "int16", "1-based trick number"),
        ("leader", "string", "the seat that led"),
        ("leader_player", "string", "the leader's name from the tags (the seat when none)"),
        ("lead", "list<string>", "the lead's cards (a failed throw: the unit it was forced to play)"),
        ("lead_structure", "string", "the lead's units: `pair`, `tractor of 2 pairs + single`…"),
        ("winner", "string", "the seat that won the trick"),
        ("points", "int16", "point cards in the trick"),
        ("to_attackers", "bool", "the attackers won the trick"),
        ("is_throw", "bool", "the lead was a throw (several units)"),
        ("failed_throw", "bool", "the throw failed"),
        ("penalty", "int16", "signed change to the attackers' total from a failed throw"),
        ("failed_throw_cost", "int16", "a failed throw's cost to the thrower's side: the penalty, plus the trick's points when the opponents won it"),
        ("ruffed", "bool", "a plain-suit lead won by trumps"),
        ("attacker_points", "int32", "the attackers' running total after the trick"),
    ),
    "plays": (
        ("match_id", "string", "the match"),
        ("hand", "int32", "the hand"),
        ("trick", "int16", "the trick"),
        ("position", "int8", "0 for the lead, then 1, 2… in turn order"),
        ("seat", "string", "the seat that played"),
        ("player", "string", "its name from the tags (the seat when none)"),
        ("cards", "list<string>", "the cards played (a failed throw: the forced unit)"),
        ("n_cards", "int16", "how many cards"),
        ("attempted", "list<string>", "a failed throw's attempted cards, else null"),
        ("structure", "string", "the play's units by effective suit (`pair + single`)"),
        ("points", "int16", "point cards in the play"),
    ),
    "diagnostics": (
        ("match_id", "string", "the match, null for a finding outside any record"),
        ("file", "string", "the input file"),
        ("line", "int32", "1-based line (0: no position)"),
        ("column", "int32", "1-based column"),
        ("end_line", "int32", "end of the span"),
        ("end_column", "int32", "end of the span (exclusive)"),
        ("code", "string", "the diagnostic code (docs/diagnostics.md)"),
        ("severity", "string", "error, warning or info"),
        ("message", "string", "the message"),
        ("hand", "int32", "the hand it is about, when known"),
        ("trick", "int16", "the trick it is about, when known"),
    ),
}

#: the DuckDB type of each schema type (an empty table's view; docs/store.md)
DUCKDB_TYPES = {"string": "VARCHAR", "bool": "BOOLEAN", "int8": "TINYINT", "int16": "SMALLINT",
                "int32": "INTEGER", "date32": "DATE", "list<string>": "VARCHAR[]",
                "map<string,string>": "MAP(VARCHAR, VARCHAR)",
                DECLARATIONS: 'STRUCT(seat VARCHAR, cards VARCHAR[], "at" SMALLINT)[]'}

#: the pandas dtype each nullable type is read as (pandas metadata in every part file)
_PANDAS_DTYPES = {"int8": ("int8", "Int8"), "int16": ("int16", "Int16"), "int32": ("int32", "Int32"),
                  "bool": ("boolean", "boolean")}


class StoreError(RuntimeError):
    """The store cannot be written or read (the message says why)."""


def require_pyarrow() -> ModuleType:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise StoreError("writing the Parquet store needs pyarrow, an optional extra: "
                         "pip install 'shengji[stats]'") from None
    return pyarrow


def _arrow_type(pa: ModuleType, t: str) -> Any:
    cards = pa.list_(pa.string())
    return {"string": pa.string(), "bool": pa.bool_(), "int8": pa.int8(), "int16": pa.int16(),
            "int32": pa.int32(), "date32": pa.date32(), "list<string>": cards,
            "map<string,string>": pa.map_(pa.string(), pa.string()),
            DECLARATIONS: pa.list_(pa.struct([("seat", pa.string()), ("cards", cards), ("at", pa.int16())]))}[t]


def arrow_schema(table: str) -> pa.Schema:
    """The Arrow schema of ``table``, with pandas metadata so that ``pandas.read_parquet``
    reads nullable integers and booleans as ``Int8``…``Int32`` and ``boolean``."""
    pa = require_pyarrow()
    columns = SCHEMAS[table]
    pandas_columns = [{"name": name, "field_name": name, "pandas_type": _PANDAS_DTYPES[t][0],
                       "numpy_type": _PANDAS_DTYPES[t][1], "metadata": None}
                      for name, t, _ in columns if t in _PANDAS_DTYPES]
    meta = {"index_columns": [], "column_indexes": [], "columns": pandas_columns,
            "creator": {"library": "shengji"}, "pandas_version": "2.0.0"}
    return pa.schema([(name, _arrow_type(pa, t)) for name, t, _ in columns],
                     metadata={b"pandas": json.dumps(meta).encode()})


def duckdb_empty_select(table: str) -> str:
    """A query giving ``table``'s columns with no rows (the view of a table no batch has rows in)."""
    cols = ", ".join(f'CAST(NULL AS {DUCKDB_TYPES[t]}) AS "{name}"' for name, t, _ in SCHEMAS[table])
    return f"SELECT {cols}, CAST(NULL AS VARCHAR) AS batch WHERE false"


# -- rows from replay results -----------------------------------------------------------------

_TRUMP: dict[int | None, str] = {0: "S", 1: "H", 2: "D", 3: "C", 4: "NT"}
_SEAT_TAG = {"N": "North", "W": "West", "S": "South", "E": "East"}
_TEAM_SEATS = {"NS": ["N", "S"], "EW": ["E", "W"]}
_DATE = re.compile(r"\s*(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})\s*\Z")


def _date(text: str | None) -> Any:
    """A ``[Date]`` tag as a date, or None (``2026.??.??``, a bad day)."""
    import datetime
    if not text:
        return None
    m = _DATE.match(text)
    if m is None:
        return None
    try:
        return datetime.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def match_id_of(lines: Iterable[str]) -> str:
    """The content-derived key of a record: BLAKE2b (80 bits, hex) of its lines
    as written (cut as the reader cuts them), each without its line end and
    trailing blanks, joined by ``\\n``; blank and ``;`` comment lines before its
    first tag and blank lines at its end left out."""
    kept = [line.rstrip() for line in lines]
    start = 0
    while start < len(kept) and (not kept[start] or kept[start].lstrip().startswith(";")):
        start += 1                  # comments and blank lines before the tags: not the game
    while len(kept) > start and not kept[-1]:
        kept.pop()
    canon = "\n".join(kept[start:])
    return hashlib.blake2b(canon.encode("utf-8"), digest_size=10).hexdigest()


def _structure(cards: tuple[int, ...], order: Any, cache: dict[tuple[int, ...], str]) -> str | None:
    """The units of a play, by effective suit, largest first (the engine's decomposition)."""
    n = len(cards)
    if n == 1:
        return "single"
    if order is None or not n:
        return None
    if n == 2:               # one unit (a pair of the same card) or two singles, whatever the suits
        return "pair" if cards[0] == cards[1] else "single + single"
    got = cache.get(cards)
    if got is None:
        from replay.units import decompose, shape_name
        by_suit: dict[int, list[int]] = {}
        for c in cards:
            by_suit.setdefault(order.eff[c], []).append(c)
        got = cache[cards] = " + ".join(shape_name(u.width, u.length) for suit_cards in by_suit.values()
                                        for u in decompose(suit_cards, order))
    return got


def _points_table() -> tuple[int, ...]:
    from primitives.cards import NUM_CARDS, points
    return tuple(points((c,)) for c in range(NUM_CARDS))


def _card_names() -> list[str]:
    from primitives.cards import NUM_CARDS, to_str
    return [to_str(c) for c in range(NUM_CARDS)]


class _CardLists:
    """A ``list<string>`` column of card lists, kept as flat card numbers and offsets."""

    __slots__ = ("flat", "offsets", "valid")

    def __init__(self) -> None:
        self.flat: list[int] = []
        self.offsets: list[int] = [0]
        self.valid: list[bool] = []

    def add(self, cards: Iterable[int] | None) -> None:
        if cards is None:
            self.valid.append(False)
        else:
            self.flat.extend(cards)
            self.valid.append(True)
        self.offsets.append(len(self.flat))

    def array(self, pa: ModuleType, names: Any) -> Any:
        values = names.take(pa.array(self.flat, pa.int8())) if self.flat else pa.array([], pa.string())
        mask = None if all(self.valid) else pa.array([not v for v in self.valid], pa.bool_())
        return pa.ListArray.from_arrays(pa.array(self.offsets, pa.int32()), values, mask=mask)


class Rows:
    """The columns of the five tables for one chunk."""

    def __init__(self) -> None:
        self.cols: dict[str, dict[str, Any]] = {}
        for t in TABLES:
            self.cols[t] = {c: (_CardLists() if ty == "list<string>" and t in ("tricks", "plays", "hands")
                                and c not in ("dealer_team", "attackers") else [])
                            for c, ty, _ in SCHEMAS[t]}
        self.counts: dict[str, int] = dict.fromkeys(TABLES, 0)
        #: id(order) → (order, {cards: structure}) (the order is held: its id stays its own)
        self.structures: dict[int, tuple[Any, dict[tuple[int, ...], str]]] = {}

    def add(self, table: str, **values: Any) -> None:
        """One row given by name (the rarer tables; tricks and plays are filled column by column)."""
        for name, column in self.cols[table].items():
            column.add(values.get(name)) if isinstance(column, _CardLists) else column.append(values.get(name))
        self.counts[table] += 1

    def tables(self) -> dict[str, pa.Table]:
        pa = require_pyarrow()
        names = pa.array(_card_names(), pa.string())
        out = {}
        for t in TABLES:
            schema = arrow_schema(t)
            arrays = []
            for (name, _ty, _), f in zip(SCHEMAS[t], schema):
                col = self.cols[t][name]
                arrays.append(col.array(pa, names) if isinstance(col, _CardLists) else pa.array(col, f.type))
            out[t] = pa.Table.from_arrays(arrays, schema=schema)
        return out


def add_record(rows: Rows, record: Record | None, parse_diags: Iterable[Diagnostic], path: str, *,
               rules: str | None = None, fallback_line: int = 1, lines: Sequence[str] | None = None) -> None:
    """The rows of one record (and its reading diagnostics), from one replay. ``lines``:
    the record as written (its ``match_id`` is a hash of them); None: the record as
    :func:`notation.write` writes it (a JSON record, an imported log)."""
    from replay.game import replay
    line = record.span.line if record is not None and record.span.line else fallback_line
    diags = list(parse_diags)
    match_id = None
    if record is not None:
        if lines is None:
            from notation import write
            from notation._records import split_lines
            lines = split_lines(write([record]))
        match_id = match_id_of(lines)
        match = replay(record, rules=rules)
        diags.extend(match.diagnostics)
        tags: dict[str, str] = {}
        for t in record.tags:
            tags.setdefault(t.name, t.value)
        names = {s: tags.get(tag) or s for s, tag in _SEAT_TAG.items()}
        names.update({f"P{k}": tags.get(f"P{k}") or f"P{k}" for k in range(1, 9)})   # finding friends
        seats = list(match.hands[0].seats) if match.hands else ["N", "W", "S", "E"]
        played = sum(1 for h in match.hands if not h.redeal)
        rows.add("matches", match_id=match_id, file=path, line=line, rules=match.ruleset.name,
                 event=tags.get("Event"), date=_date(tags.get("Date")), tags=list(tags.items()),
                 seats=seats, players=[tags.get(_SEAT_TAG.get(s, s)) for s in seats],
                 north=tags.get("North"), west=tags.get("West"), south=tags.get("South"), east=tags.get("East"),
                 hands=len(match.hands), hands_played=played, winner=match.winner,
                 errors=sum(1 for d in diags if d.severity == "error"))
        for i, (hr, hand) in enumerate(zip(match.hands, record.hands), 1):
            _add_hand(rows, match_id, i, hr, hand, match.ruleset.name, names)
    cols = rows.cols["diagnostics"]
    for d in diags:
        cols["match_id"].append(match_id)
        cols["file"].append(path)
        cols["line"].append(d.line)
        cols["column"].append(d.column)
        cols["end_line"].append(d.end_line)
        cols["end_column"].append(d.end_column)
        cols["code"].append(d.code)
        cols["severity"].append(d.severity)
        cols["message"].append(d.message)
        cols["hand"].append(d.hand)
        cols["trick"].append(d.trick)
    rows.counts["diagnostics"] += len(diags)


_POINTS: tuple[int, ...] = ()


def _add_hand(rows: Rows, match_id: str, i: int, hr: HandResult, hand: Hand, rules: str,
              names: dict[str, str]) -> None:
    global _POINTS
    if not _POINTS:
        _POINTS = _points_table()
    pts = _POINTS
    out = hr.outcome
    team = hr.team
    friends = team is not None      # finding friends: the dealer's team (seats) as it ended the hand
    if team is not None:
        dealer_team: list[str] | None = list(team) or None
        side = " ".join(team) or None
        attackers: list[str] | None = [s for s in hr.seats if s not in team]
    elif hr.dealer in _SEAT_TAG:
        from replay.scoring import other_team, team_of
        side = team_of(hr.dealer)
        dealer_team, attackers = _TEAM_SEATS[side], _TEAM_SEATS[other_team(side)]
    else:
        side = dealer_team = attackers = None
    change = None
    if out is not None and friends:
        change = f"{side if out.dealers_keep else hr.attackers} +{out.gained}"
    elif out is not None and side is not None:
        change = f"{side if out.dealers_keep else ('EW' if side == 'NS' else 'NS')} +{out.gained}"
    from primitives.cards import to_str
    decls = hand.declarations
    last = hr.tricks[-1] if hr.tricks else None
    rows.add("hands", match_id=match_id, hand=i, number=hand.number, rules=rules,
             ns_level=hr.levels.get("NS") if hr.levels else None,
             ew_level=hr.levels.get("EW") if hr.levels else None, level=hr.level, dealer=hr.dealer,
             dealer_team=dealer_team, attackers=attackers, declarer=hr.declarer, trump=_TRUMP.get(hr.trump),
             declarations=[{"seat": d.seat, "cards": [to_str(c) for c in d.cards], "at": d.at} for d in decls],
             n_declarations=len(decls), redeal=hr.redeal, complete=hr.complete, kitty=hr.kitty,
             bury=hr.bury, bury_points=sum(pts[c] for c in hr.bury) if hr.bury is not None else None,
             card_points=hr.card_points, penalties=hr.penalties, kitty_points=hr.kitty_points,
             multiplier=hr.multiplier, last_trick_multiplier=hr.last_trick_multiplier or None,
             last_trick_attackers=(last.to_attackers if (last is not None and hr.complete) else None),
             attacker_points=hr.attacker_points if hr.complete else None,
             next_ns_level=out.levels.get("NS") if out else None,
             next_ew_level=out.levels.get("EW") if out else None,
             next_dealer=out.next_dealer if out else None, dealers_keep=out.dealers_keep if out else None,
             levels_gained=out.gained if out else None, level_change=change,
             match_over=out.match_over if out else None)
    tricks = hr.tricks
    if not tricks:
        return
    has_attackers = hr.attackers is not None
    order = hr.order
    # the orders are the engine's shared ones: each keeps its plays' structures for the chunk
    kept = rows.structures.get(id(order))
    if kept is None:
        kept = rows.structures[id(order)] = (order, {})
    cache = kept[1]
    teams = None if friends else {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
    T = rows.cols["tricks"]
    P = rows.cols["plays"]
    # column by column, each a comprehension over the hand's tricks or plays
    per_trick = [list(t.play_rows()) for t in tricks]
    plays = [pr for prs in per_trick for pr in prs]
    n_tricks, n_plays = len(tricks), len(plays)
    cards = [c for _, c in plays]
    lens = [len(c) for c in cards]
    seats = [p.seat for p, _ in plays]
    P["match_id"].extend([match_id] * n_plays)
    P["hand"].extend([i] * n_plays)
    P["trick"].extend([t.number for t, prs in zip(tricks, per_trick) for _ in prs])
    P["position"].extend([k for prs in per_trick for k in range(len(prs))])
    P["seat"].extend(seats)
    P["player"].extend([names.get(s, s) for s in seats])
    P["n_cards"].extend(lens)
    P["structure"].extend(["single" if n == 1 else _structure(c, order, cache) for n, c in zip(lens, cards)])
    P["points"].extend([pts[c[0]] if n == 1 else sum([pts[x] for x in c]) for n, c in zip(lens, cards)])
    pc = P["cards"]
    pc.flat.extend(chain.from_iterable(cards))
    pc.offsets.extend(islice(accumulate(lens, initial=pc.offsets[-1]), 1, None))
    pc.valid.extend([True] * n_plays)
    pa_ = P["attempted"]
    attempts = [p.attempted for p, _ in plays]
    if any(attempts):
        for a in attempts:
            pa_.add(a or None)
    else:
        pa_.valid.extend([False] * n_plays)
        pa_.offsets.extend([len(pa_.flat)] * n_plays)
    leads = [prs[0][1] if prs else None for prs in per_trick]
    T["match_id"].extend([match_id] * n_tricks)
    T["hand"].extend([i] * n_tricks)
    T["trick"].extend([t.number for t in tricks])
    T["leader"].extend([t.leader for t in tricks])
    T["leader_player"].extend([names.get(t.leader, t.leader) for t in tricks])
    for lead in leads:
        T["lead"].add(lead)
    T["lead_structure"].extend([_structure(c, order, cache) if c else None for c in leads])
    T["winner"].extend([t.winner for t in tricks])
    T["points"].extend([t.points for t in tricks])
    T["to_attackers"].extend([t.to_attackers for t in tricks] if has_attackers else [None] * n_tricks)
    T["is_throw"].extend([t.is_throw for t in tricks])
    T["failed_throw"].extend([t.failed_throw for t in tricks])
    T["penalty"].extend([t.penalty for t in tricks])
    T["failed_throw_cost"].extend([_failed_throw_cost(t, teams) if t.failed_throw else None for t in tricks])
    T["ruffed"].extend([t.ruffed for t in tricks])
    T["attacker_points"].extend([t.attacker_points for t in tricks])
    rows.counts["tricks"] += n_tricks
    rows.counts["plays"] += n_plays


def _failed_throw_cost(t: Any, teams: dict[str, str] | None) -> int | None:
    """A failed throw's cost to the thrower's side: the size of the engine's penalty
    (signed for the attackers), plus the trick's points when the opponents won it."""
    if teams is None or t.leader not in teams:
        return None
    won_by_opponents = teams.get(t.winner, teams[t.leader]) != teams[t.leader]
    return int(abs(t.penalty) + (t.points if won_by_opponents else 0))


# -- one chunk ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExportOptions:
    """What the chunks need (picklable: sent to worker processes and cluster workers)."""

    rules: str | None = None
    source_format: str | None = None


class ChunkExport(TypedDict):
    """What :func:`export_chunk` sends back."""

    tables: dict[str, pa.Table]
    records: int
    error: str | None
    #: why the file is not exported though it could be read (a record of a game that has
    #: no store tables: its :attr:`analyzer.games.Game.store_note`), else None
    refused: NotRequired[str | None]


class _Recorder:
    """Wraps a line iterator and keeps the lines it gave (one chunk's: the records' texts)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = lines
        self.lines: list[str] = []

    def __iter__(self) -> Iterator[str]:
        keep = self.lines.append
        for line in self._lines:
            keep(line)
            yield line


def _export_sjn(rows: Rows, job: Job, options: ExportOptions) -> tuple[int, str | None]:
    """The records of an SJN chunk: its text read whole (as lint reads it) when it
    reads cleanly and is not too big, else streamed line by line."""
    from analyzer import lint as L
    from analyzer.lint.check import _small_text
    from notation._records import split_lines
    from notation.detect import read
    records = 0
    first = job.start_line
    text = _small_text(job.path, job.start, job.end)
    if text is not None:
        lines = split_lines(text)
        for record, parse_diags in read(text, "sjn", start_line=first):
            if record is not None and not record.tags and not record.hands:
                record = None
            own = lines[record.span.line - first:record.span.end_line - first + 1] \
                if record is not None and record.span.line else None
            add_record(rows, record, parse_diags, job.display, rules=options.rules, fallback_line=first,
                       lines=own)
            records += record is not None
        return records, None
    # the lint reader's line wrapper: it stops at bytes that are not UTF-8 and says why
    seen = _Recorder(L._open_lines(job.path, job.start, job.end))
    stream = L._NoqaLines(seen, first)
    for record, parse_diags in read(stream, "sjn", start_line=job.start_line):
        if record is not None and not record.tags and not record.hands:
            record = None
        own = None
        if record is not None and record.span.line:
            own = split_lines("".join(seen.lines[record.span.line - first:record.span.end_line - first + 1]))
        add_record(rows, record, parse_diags, job.display, rules=options.rules, fallback_line=job.start_line,
                   lines=own)
        records += record is not None
        if len(seen.lines) > 4096:          # keep only the lines of the records still being read
            keep = max(0, (record.span.end_line if record is not None else first) - first)
            del seen.lines[:keep]
            first += keep
    return records, stream.error


def export_chunk(job: Job, options: ExportOptions) -> ChunkExport:
    """One chunk (an :class:`analyzer.lint._Job`) → ``{"tables": {table: pyarrow.Table}, "records": n,
    "error": str | None}``. Runs in a worker; reads the file itself."""
    from analyzer.io.gamekit import UNKNOWN, by_kind
    from analyzer.io.sources import Reading, decode_utf8, describe_decode_error, input_kind
    rows = Rows()
    records = 0
    error = None
    try:
        # what the file is: the one rule of every command (``shengji lint`` reads it the same;
        # a byte range of a big file: record chunks of a notation its game splits)
        kind, fmt = input_kind(job.path, Reading(options.source_format))
        game = by_kind(kind) if kind != UNKNOWN else None
        if game is None:
            from analyzer.io.sources import unknown_format_message
            error = unknown_format_message()
        elif not game.store_tables:     # a game the store holds no table of: its plug-in says why
            return {"tables": rows.tables(), "records": 0, "error": None, "refused": game.store_note}
        elif fmt is not None:
            from analyzer.io.importers import import_log, is_binary
            raw = Path(job.path).read_bytes()
            # import_log reads a binary format's bytes as they are, though its annotation says str
            imported = import_log(fmt, raw if is_binary(fmt) else decode_utf8(raw),  # type: ignore[arg-type]
                                  source=job.display)
            first = True
            for record in imported.records:
                add_record(rows, record, imported.diagnostics if first else [], job.display,
                           rules=options.rules)
                first = False
                records += 1
        elif kind == "json":
            from notation.detect import read
            text = decode_utf8(Path(job.path).read_bytes())
            for record, diags in read(text, "json"):
                add_record(rows, record, diags, job.display, rules=options.rules)
                records += record is not None
        else:
            records, error = _export_sjn(rows, job, options)
    except UnicodeDecodeError as exc:
        error = describe_decode_error(exc)
    except OSError as exc:
        error = exc.strerror or str(exc)
    if error is not None:        # an unreadable file gives its error only (as lint does)
        rows, records = Rows(), 0
    return {"tables": rows.tables(), "records": records, "error": error}


# -- writing a batch ---------------------------------------------------------------------------

def _fsync_dir(path: str | os.PathLike[str]) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class _TableWriter:
    """One table of a batch: chunks' rows buffered into row groups of about
    :data:`ROW_GROUP_ROWS`, written to ``part-NNNNN.parquet`` files of at most
    about :data:`PART_BYTES` each, each fsynced when closed."""

    def __init__(self, directory: Path, table: str, *, row_group_rows: int, part_bytes: int) -> None:
        self.dir = directory
        self.schema = arrow_schema(table)
        self.row_group_rows = row_group_rows
        self.part_bytes = part_bytes
        self.pending: list[Any] = []
        self.pending_rows = 0
        self.parts: list[dict[str, Any]] = []       # {"file", "rows", "bytes"} of each closed part
        self._file: IO[bytes] | None = None
        self._writer: Any = None
        self._rows = 0

    def add(self, table: Any) -> None:
        if not table.num_rows:
            return
        self.pending.append(table)
        self.pending_rows += table.num_rows
        if self.pending_rows >= self.row_group_rows:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq
        if not self.pending:
            return
        data = pa.concat_tables(self.pending)
        self.pending, self.pending_rows = [], 0
        if self._writer is None:
            name = f"part-{len(self.parts):05d}.parquet"
            self._file = open(self.dir / name, "wb")
            self._writer = pq.ParquetWriter(self._file, self.schema, compression="zstd")
            self._rows = 0
        self._writer.write_table(data, row_group_size=max(self.row_group_rows, data.num_rows))
        self._rows += data.num_rows
        assert self._file is not None
        if self._file.tell() >= self.part_bytes:
            self._close_part()

    def _close_part(self) -> None:
        if self._writer is None or self._file is None:
            return
        self._writer.close()
        self._file.flush()
        os.fsync(self._file.fileno())
        size = self._file.tell()
        name = os.path.basename(self._file.name)
        self._file.close()
        self.parts.append({"file": name, "rows": self._rows, "bytes": size})
        self._writer = self._file = None

    def close(self) -> None:
        self._flush()
        self._close_part()

    def abort(self) -> None:
        with contextlib.suppress(Exception):
            if self._writer is not None:
                self._writer.close()
        with contextlib.suppress(Exception):
            if self._file is not None:
                self._file.close()


# -- a whole export ----------------------------------------------------------------------------

@dataclass
class ExportReport:
    batch: str
    outdir: str
    files: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: what an interrupted export had left and this one removed
    recovered: list[str] = field(default_factory=list)
    records: int = 0
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))

    @property
    def exit_code(self) -> int:
        return 2 if self.errors or self.missing else 0

    def summary(self) -> str:
        if not self.batch:
            return f"nothing new to export into {self.outdir}"
        counts = ", ".join(f"{self.rows[t]} {t if self.rows[t] != 1 else _SINGULAR.get(t, t)}" for t in TABLES)
        return (f"batch {self.batch}: {self.records} record{'s' if self.records != 1 else ''} from "
                f"{len(self.files)} file{'s' if len(self.files) != 1 else ''} ({counts}) in {self.outdir}")


#: a table's name for one row, in the export's summary line ("1 match, 3 hands")
_SINGULAR = {"matches": "match", "hands": "hand", "tricks": "trick", "plays": "play", "diagnostics": "diagnostic"}


class FileKey(TypedDict):
    """A file as a batch's manifest records it (with ``records`` added there)."""

    path: str
    size: int
    mtime_ns: int


def _file_key(path: str) -> FileKey:
    st = os.stat(path)
    return {"path": os.path.abspath(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def manifests(outdir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The committed batches of a store (their manifests, oldest first); unreadable ones raise StoreError."""
    out = []
    for manifest in sorted(Path(outdir, "_batches").glob("*.json")):
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"{manifest}: a damaged batch manifest ({exc}); remove it and that batch's "
                             f"batch={manifest.stem} directories, then export its files again") from None
        if not isinstance(data, dict):
            raise StoreError(f"{manifest}: a damaged batch manifest (not a JSON object)")
        data.setdefault("batch", manifest.stem)
        out.append(data)
    return out


def stored_files(outdir: str | os.PathLike[str]) -> dict[tuple[str, int, int], str]:
    """``(abs path, size, mtime_ns)`` → batch, for every file already in the store."""
    out: dict[tuple[str, int, int], str] = {}
    for data in manifests(outdir):
        for f in data.get("files", []):
            out[(f.get("path"), f.get("size"), f.get("mtime_ns"))] = data["batch"]
    return out


@contextlib.contextmanager
def _locked(out: Path) -> Iterator[None]:
    """``OUTDIR/.lock`` held for the whole export: one writer at a time."""
    try:
        import fcntl
    except ImportError:         # no advisory locks here: one writer at a time is up to the user
        yield
        return
    fd = os.open(out / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise StoreError(f"another export is writing into {out} (it holds {out / '.lock'}); "
                             f"wait for it to finish") from None
        yield
    finally:
        os.close(fd)


def recover(out: Path) -> list[str]:
    """Roll back what an interrupted export left in ``out`` (under its lock): its
    ``.staging-*`` directory, and ``batch=B`` directories that no manifest commits."""
    done = []
    committed = {m["batch"] for m in manifests(out)}
    for p in sorted(out.glob(".staging-*")):
        shutil.rmtree(p, ignore_errors=True)
        done.append(f"removed {p.name} (an interrupted export's staging directory)")
    for t in TABLES:
        for p in sorted((out / t).glob("batch=*")) if (out / t).is_dir() else []:
            if p.is_dir() and p.name[len("batch="):] not in committed:
                shutil.rmtree(p, ignore_errors=True)
                done.append(f"removed {t}/{p.name} (a batch an interrupted export had not committed)")
    for p in sorted((out / "_batches").glob(".*.tmp")) if (out / "_batches").is_dir() else []:
        with contextlib.suppress(OSError):
            p.unlink()
    return done


def export_paths(paths: Iterable[str], outdir: str, *, options: ExportOptions = ExportOptions(),
                 jobs: int = 1, client: Client | None = None, on_chunk: Callable[[Job], None] | None = None,
                 chunk_bytes: int = CHUNK_BYTES, split_bytes: int = SPLIT_BYTES,
                 row_group_rows: int = ROW_GROUP_ROWS, part_bytes: int = PART_BYTES) -> ExportReport:
    """Export files (directories give their ``*.sjn``) into the store ``outdir`` as one new batch.

    ``client``: a ``distributed.Client`` to run the chunks on; else ``jobs``
    worker processes (1: in this process). Raises :class:`StoreError`.
    """
    from analyzer import lint as L
    require_pyarrow()
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise StoreError(f"{outdir} exists and is not a directory")
    files, missing = L.expand_paths(paths)
    if any(p == L.STDIN for p, _ in files):
        raise StoreError("export reads files, not standard input (the chunks are read by the workers)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot write into {outdir}: {exc.strerror or exc}") from None
    old = [m for m in manifests(out) if m.get("format", 1) != STORE_FORMAT]
    if old:
        raise StoreError(f"{outdir} was written by an older shengji (store format {old[0].get('format', 1)}, "
                         f"now {STORE_FORMAT}); export into a new directory (docs/store.md: migrating)")
    with _locked(out):
        return _export_locked(out, files, missing, options, jobs, client, on_chunk, chunk_bytes, split_bytes,
                              row_group_rows, part_bytes)


def _export_locked(out: Path, files: list[tuple[str, str]], missing: list[str], options: ExportOptions,
                   jobs: int, client: Client | None, on_chunk: Callable[[Job], None] | None,
                   chunk_bytes: int, split_bytes: int, row_group_rows: int, part_bytes: int) -> ExportReport:
    from analyzer import lint as L
    outdir = str(out)
    batch = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "-" + uuid.uuid4().hex[:6]
    report = ExportReport(batch=batch, outdir=outdir, missing=missing)
    report.recovered = recover(out)
    known = stored_files(out)
    todo: list[tuple[str, str]] = []
    keys: list[FileKey] = []
    from analyzer.io.sources import is_stream
    for p, display in files:
        if is_stream(p):
            report.errors.append(f"{display}: not a regular file (a pipe, a FIFO or a device): export reads "
                                 f"files, which its workers open themselves; write it to a file first")
            continue
        try:
            key = _file_key(p)
        except OSError as exc:
            report.errors.append(f"{display}: {exc.strerror or exc}")
            continue
        if (key["path"], key["size"], key["mtime_ns"]) in known:
            report.skipped.append(f"{display} (already in batch {known[(key['path'], key['size'], key['mtime_ns'])]})")
            continue
        todo.append((p, display))
        keys.append(key)
    if not todo:
        report.batch = ""
        return report
    staging = out / f".staging-{batch}"
    writers: dict[str, _TableWriter] = {}
    try:
        for t in TABLES:
            (staging / t / f"batch={batch}").mkdir(parents=True, exist_ok=True)
            writers[t] = _TableWriter(staging / t / f"batch={batch}", t, row_group_rows=row_group_rows,
                                      part_bytes=part_bytes)
    except OSError as exc:
        raise StoreError(f"cannot write into {outdir}: {exc.strerror or exc}") from None
    sizes = {}
    for i, (p, _) in enumerate(todo):
        try:
            sizes[i] = os.path.getsize(p)
        except OSError:
            sizes[i] = 0
    results: dict[int, dict[int, FileResult]] = {i: {} for i in range(len(todo))}   # files failed while split
    lint_options = L.LintOptions(rules=options.rules, source_format=options.source_format)
    per_file_records = [0] * len(todo)

    refused: set[int] = set()

    def on_result(job: Job, result: ChunkExport) -> None:
        if result.get("refused"):
            report.skipped.append(f"{job.display} ({result.get('refused')})")
            refused.add(job.index)
        if result["error"]:
            report.errors.append(f"{job.display}: {result['error']}")
        per_file_records[job.index] += result["records"]
        for t, table in result["tables"].items():
            writers[t].add(table)
            report.rows[t] += table.num_rows
        if on_chunk is not None:
            on_chunk(job)

    try:
        if client is not None:
            from analyzer.store.cluster import threads
            jobs = threads(client)
        job_iter = L.iter_jobs(todo, sizes, lint_options, max(1, jobs), results, None, chunk_bytes, split_bytes)
        if client is not None:
            from analyzer.store.cluster import run_jobs
            run_jobs(client, job_iter, export_chunk, (options,), on_result, in_flight=2 * jobs,
                     key_prefix="shengji-export")
        elif jobs > 1:
            _run_processes(job_iter, options, jobs, on_result)
        else:
            for job in job_iter:
                on_result(job, export_chunk(job, options))
        for split_parts in results.values():            # files that failed while being split
            for r in split_parts.values():
                if r.error:
                    report.errors.append(f"{r.path}: {r.error}")
        for w in writers.values():
            w.close()
        # commit: the parts move into the table directories, then the manifest is written last
        parts = {}
        for t in TABLES:
            if not writers[t].parts:
                continue
            _fsync_dir(staging / t / f"batch={batch}")
            (out / t).mkdir(parents=True, exist_ok=True)
            os.replace(staging / t / f"batch={batch}", out / t / f"batch={batch}")
            _fsync_dir(out / t)
            parts[t] = [dict(p, file=f"{t}/batch={batch}/{p['file']}") for p in writers[t].parts]
        report.files = [d for i, (_, d) in enumerate(todo) if i not in refused]
        report.records = sum(per_file_records)
        manifest = {"batch": batch, "format": STORE_FORMAT,
                    "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "rules": options.rules,
                    "files": [dict(k, records=n) for i, (k, n) in enumerate(zip(keys, per_file_records))
                              if i not in refused],
                    "rows": report.rows, "parts": parts}
        (out / "_batches").mkdir(parents=True, exist_ok=True)
        from analyzer.io.atomic import write_text_atomic
        write_text_atomic(out / "_batches" / f"{batch}.json", json.dumps(manifest, indent=2) + "\n")
        _fsync_dir(out / "_batches")
    except OSError as exc:
        raise StoreError(f"cannot write into {outdir}: {exc.strerror or exc}") from None
    finally:
        for w in writers.values():
            w.abort()
        shutil.rmtree(staging, ignore_errors=True)
    return report


def _run_processes(job_iter: Iterator[Job], options: ExportOptions, jobs: int,
                   on_result: Callable[[Job, ChunkExport], None]) -> None:
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    pending: dict[Future[ChunkExport], Job] = {}

    def collect(block: bool) -> None:
        done, _ = wait(list(pending), timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for fut in done:
            on_result(pending.pop(fut), fut.result())

    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        for job in job_iter:
            while len(pending) >= 2 * jobs:
                collect(True)
            pending[pool.submit(export_chunk, job, options)] = job
        while pending:
            collect(True)
