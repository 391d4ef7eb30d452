"""The Parquet store's tables: their schemas (documented in docs/store.md), their
Arrow and DuckDB types, and the store's constants (:mod:`analyzer.store.parquet`)."""

from __future__ import annotations

import json
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa  # untyped: Any to mypy (pyproject's ignore_missing_imports)





#: chunks of at most this many bytes of SJN (about 250 hands): bounds the memory per chunk (a
#: worker's rows and the exporting process's unpacked chunk: about 11 MB of Python lists a MB
#: of SJN; at 1 MB the export with two workers went over 200 MB in all, issue 35)
CHUNK_BYTES = 256 * 1024
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


def check_pyarrow() -> None:
    """Raise :class:`StoreError` (as :func:`require_pyarrow`) when pyarrow is not installed,
    without importing it: an export imports it only once its workers have their chunks
    (a third of a second of CPU, and a thread, before the first row)."""
    import importlib.util
    try:
        found = importlib.util.find_spec("pyarrow") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        require_pyarrow()


def require_pyarrow() -> ModuleType:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise StoreError("writing the Parquet store needs pyarrow, an optional extra: "
                         "pip install 'shengji[stats]'") from None
    module: ModuleType = pyarrow
    return module


def tables() -> tuple[str, ...]:
    """Every table of the store: Shengji's (:data:`TABLES`), then the tables each other
    game's plug-in defines (its :attr:`~analyzer.games.Game.store_tables`), in the
    registry's order."""
    from analyzer.io.gamekit import games
    out = list(TABLES)
    for game in games():
        out.extend(t for t in game.store_tables if t not in out)
    return tuple(out)


def columns(table: str) -> tuple[tuple[str, str, str], ...]:
    """The columns ``(name, type, meaning)`` of ``table``: :data:`SCHEMAS`, or its game's
    (:meth:`~analyzer.games.Game.store_schemas`)."""
    got = SCHEMAS.get(table)
    if got is not None:
        return got
    from analyzer.io.gamekit import games
    for game in games():
        if table in game.store_tables and table in game.store_schemas():
            return game.store_schemas()[table]
    raise KeyError(table)


def _arrow_type(pa: ModuleType, t: str) -> Any:
    cards = pa.list_(pa.string())
    return {"string": pa.string(), "bool": pa.bool_(), "int8": pa.int8(), "int16": pa.int16(),
            "int32": pa.int32(), "date32": pa.date32(), "list<string>": cards,
            "map<string,string>": pa.map_(pa.string(), pa.string()),
            DECLARATIONS: pa.list_(pa.struct([("seat", pa.string()), ("cards", cards), ("at", pa.int16())]))}[t]


def arrow_schema(table: str) -> pa.Schema:
    """The Arrow schema of ``table``, with pandas metadata so that ``pandas.read_parquet``
    reads nullable integers and booleans as ``Int8``…``Int32`` and ``boolean`` (made once a
    table: an export asks for it for every chunk)."""
    got = _SCHEMAS_MADE.get(table)
    if got is None:
        got = _SCHEMAS_MADE[table] = _arrow_schema(table)
    return got


#: table → its Arrow schema (:func:`arrow_schema`)
_SCHEMAS_MADE: dict[str, Any] = {}


def _arrow_schema(table: str) -> pa.Schema:
    pa = require_pyarrow()
    cols = columns(table)
    pandas_columns = [{"name": name, "field_name": name, "pandas_type": _PANDAS_DTYPES[t][0],
                       "numpy_type": _PANDAS_DTYPES[t][1], "metadata": None}
                      for name, t, _ in cols if t in _PANDAS_DTYPES]
    meta = {"index_columns": [], "column_indexes": [], "columns": pandas_columns,
            "creator": {"library": "shengji"}, "pandas_version": "2.0.0"}
    return pa.schema([(name, _arrow_type(pa, t)) for name, t, _ in cols],
                     metadata={b"pandas": json.dumps(meta).encode()})


def duckdb_empty_select(table: str) -> str:
    """A query giving ``table``'s columns with no rows (the view of a table no batch has rows in)."""
    cols = ", ".join(f'CAST(NULL AS {DUCKDB_TYPES[t]}) AS "{name}"' for name, t, _ in columns(table))
    return f"SELECT {cols}, CAST(NULL AS VARCHAR) AS batch WHERE false"
