"""Rows of the Parquet store from the engine's replay results (nothing recomputed):
one record's matches, hands, tricks, plays and diagnostics rows (:mod:`analyzer.store.parquet`)."""

from __future__ import annotations

import hashlib
import re
from array import array
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate, chain, islice, pairwise, repeat
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import pyarrow as pa  # untyped: Any to mypy (pyproject's ignore_missing_imports)

    from notation.model import Hand, Record
    from primitives.diagnostics import Diagnostic
    from replay.results import HandResult

from analyzer.store.schema import (
    SCHEMAS,
    TABLES,
    arrow_schema,
    require_pyarrow,
)

# -- rows from replay results -----------------------------------------------------------------

_TRUMP: dict[int | None, str] = {0: "S", 1: "H", 2: "D", 3: "C", 4: "NT"}
_SEAT_TAG = {"N": "North", "W": "West", "S": "South", "E": "East"}
_TEAM_SEATS = {"NS": ["N", "S"], "EW": ["E", "W"]}
#: the numbered seats of a table of friends (their names are the tags of the same name)
_NUMBERED = tuple(f"P{k}" for k in range(1, 9))
_DATE = re.compile(r"\s*(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})\s*\Z")


def tag_date(text: str | None) -> Any:
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
        if len(set(cards)) == n:    # no card twice: singles, whatever the suits and the rules (half the plays)
            return _SINGLES[n] if n < len(_SINGLES) else " + ".join(["single"] * n)
        got = _pairs_structure(cards, order)
        if got is not None:
            cache[cards] = got
            return got
        from replay.shapes import shape_name
        from replay.units import decompose
        by_suit: dict[int, list[int]] = {}
        for c in cards:
            by_suit.setdefault(order.eff[c], []).append(c)
        got = cache[cards] = " + ".join(shape_name(u.width, u.length) for suit_cards in by_suit.values()
                                        for u in decompose(suit_cards, order))
    return got


def _pairs_structure(cards: tuple[int, ...], order: Any) -> str | None:
    """The structure of a play of one effective suit, no card more than twice and no two pairs
    of one key, as :func:`replay.units.decompose` makes it (the runs of pairs of adjacent keys
    as tractors, longest first, then the other pairs, then the singles) without making its
    units; None for any other play (the engine's decomposition then), and under
    ``unit_split: shengji_io`` (that engine's own reading)."""
    eff = order.eff
    e = eff[cards[0]]
    if order.split == "shengji_io" or any(eff[c] != e for c in cards):
        return None
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    key = order.key
    pair_keys = [key[c] for c, m in counts.items() if m == 2]
    if len(pair_keys) != len(cards) - len(counts) or len(set(pair_keys)) != len(pair_keys):
        return None             # a card three times or more, or two pairs of one key
    pair_keys.sort(reverse=True)
    runs: list[int] = []
    prev = -10
    for k in pair_keys:
        if k == prev - 1:
            runs[-1] += 1
        else:
            runs.append(1)
        prev = k
    tractors = sorted([r for r in runs if r > 1], reverse=True)
    names = [f"tractor of {r} pairs" for r in tractors]
    names += ["pair"] * (len(runs) - len(tractors))
    names += ["single"] * (len(counts) - len(pair_keys))
    return " + ".join(names)


#: the structure of n different cards (singles), by n
_SINGLES = tuple(" + ".join(["single"] * n) for n in range(64))


def _points_table() -> tuple[int, ...]:
    from primitives.cards import NUM_CARDS, points
    return tuple(points((c,)) for c in range(NUM_CARDS))


def _card_names() -> list[str]:
    from primitives.cards import NUM_CARDS, to_str
    return [to_str(c) for c in range(NUM_CARDS)]


#: the array typecode of a 32-bit integer (Arrow's list offsets)
_INT32 = next(code for code in "ilh" if array(code).itemsize == 4)


class PackedCards(NamedTuple):
    """A ``list<string>`` column of card lists as plain bytes, as a worker sends it (no
    pyarrow there): the card numbers (int8), the offsets (int32, one more than the rows)
    and, when some list is null, which ones. :func:`arrow_tables` makes the Arrow array."""

    flat: bytes
    offsets: bytes
    nulls: list[bool] | None


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

    def extend(self, lists: Sequence[Sequence[int]]) -> None:
        """Several card lists, none null."""
        self.flat.extend(chain.from_iterable(lists))
        self.offsets.extend(islice(accumulate(map(len, lists), initial=self.offsets[-1]), 1, None))
        self.valid.extend([True] * len(lists))

    def extend_maybe(self, lists: Sequence[Sequence[int] | None]) -> None:
        """Several card lists, None (or empty) for a null one."""
        if not any(lists):
            self.valid.extend([False] * len(lists))
            self.offsets.extend([self.offsets[-1]] * len(lists))
            return
        self.flat.extend(chain.from_iterable([c for c in lists if c]))
        self.offsets.extend(islice(accumulate([len(c) if c else 0 for c in lists], initial=self.offsets[-1]),
                                   1, None))
        self.valid.extend([bool(c) for c in lists])

    def packed(self) -> PackedCards:
        return PackedCards(array("b", self.flat).tobytes(), array(_INT32, self.offsets).tobytes(),
                           None if all(self.valid) else [not v for v in self.valid])


def _name_table(names: list[bytes]) -> tuple[Any, Any]:
    """Names (UTF-8 bytes) as a numpy table, one row a name padded with zeros to the
    longest, and each name's length: what :func:`_gathered` picks from."""
    import numpy as np
    width = max(map(len, names), default=0)
    padded = b"".join([name.ljust(width, b"\0") for name in names])     # (one buffer: no loop over numpy rows)
    table = np.frombuffer(padded, np.uint8).reshape(len(names), width) if width else np.zeros((len(names), 0), np.uint8)
    return table, np.array(list(map(len, names)), np.int32)


def _card_name_table() -> tuple[Any, Any]:
    """The card names as UTF-8 bytes by card number, for :func:`_card_list_array` (:func:`_name_table`)."""
    if not _CARD_NAME_TABLE:
        _CARD_NAME_TABLE.append(_name_table([name.encode("utf-8") for name in _card_names()]))
    return _CARD_NAME_TABLE[0]


_CARD_NAME_TABLE: list[tuple[Any, Any]] = []


def _gathered(table: Any, lengths: Any, codes: Any, encoded: list[bytes] | None = None) -> tuple[Any, Any]:
    """The UTF-8 bytes of the strings ``codes`` pick from a table of names (:func:`_name_table`),
    gathered with numpy into the buffers of an Arrow string array: (offsets, data).
    ``encoded``: the names as bytes, joined instead when the table is mostly padding (names
    of very different widths, as the plays' structures: 4 to 100 bytes; a fifth of the cost)."""
    import numpy as np
    n = len(codes)
    widths = lengths[codes]
    ends = np.zeros(n + 1, np.int32)
    np.cumsum(widths, out=ends[1:])
    if not n:
        return ends, np.zeros(0, np.uint8)
    if encoded is not None and n * table.shape[1] > 4 * int(ends[-1]):
        return ends, np.frombuffer(b"".join(np.array(encoded, dtype=object)[codes]), np.uint8)
    picked = table[codes]
    if int(widths.min()) == table.shape[1]:       # every name as wide as the table: no padding to drop
        return ends, picked.ravel()
    return ends, picked[np.arange(table.shape[1]) < widths[:, None]]    # each name's bytes, in order


def _card_list_array(pa: ModuleType, names: tuple[Any, Any], col: PackedCards) -> Any:
    """The Arrow ``list<string>`` array of a packed card-list column: the card names
    (:func:`_card_name_table`) gathered by number into the strings' own buffers with numpy
    (pyarrow's ``take``, as a mask given to ``ListArray.from_arrays``, would import
    ``pyarrow.compute``, a tenth of a second of the command's CPU, for this alone)."""
    import numpy as np
    table, lengths = names
    codes = np.frombuffer(col.flat, np.int8)
    n = len(codes)
    if n:
        ends, data = _gathered(table, lengths, codes)
        values = pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(ends), pa.py_buffer(data)])
    else:
        values = pa.array([], pa.string())
    rows = len(col.offsets) // 4 - 1
    valid = None        # (a validity bitmap made here: ListArray.from_arrays's mask imports pyarrow.compute)
    if col.nulls is not None:
        valid = pa.py_buffer(np.packbits(~np.array(col.nulls, np.bool_), bitorder="little"))
    return pa.Array.from_buffers(pa.list_(pa.string()), rows, [valid, pa.py_buffer(col.offsets)],
                                 null_count=-1 if valid is not None else 0, children=[values])


class PackedStrings(NamedTuple):
    """A string column of the tricks and plays tables as a worker sends it: its distinct
    values (None for a null), in the order first met, and each row's value as a code into
    them (int32). :func:`arrow_tables` gathers the strings with numpy (:func:`_string_array`)."""

    values: list[str | None]
    codes: bytes


class _Codes(dict):  # type: ignore[type-arg]  # str | None → int
    """Each value's code, a new value given the next one (``d[value]``, as ``d.__getitem__`` in ``map``)."""

    __slots__ = ()

    def __missing__(self, value: str | None) -> int:
        code = self[value] = len(self)
        return code


class _Strings:
    """A string column of few distinct values (the match's key, seats, names, structures),
    kept as codes: a row costs an integer, and the exporting process builds the Arrow
    array from the distinct values rather than from a Python string a row."""

    __slots__ = ("codes", "index")

    def __init__(self) -> None:
        self.codes: list[int] = []
        self.index = _Codes()

    def append(self, value: str | None) -> None:
        self.codes.append(self.index[value])

    def extend(self, values: Iterable[str | None]) -> None:
        self.codes.extend(map(self.index.__getitem__, values))

    def repeat(self, value: str | None, n: int) -> None:
        """``value`` in ``n`` rows."""
        self.codes.extend([self.index[value]] * n)

    def plain(self) -> list[str | None]:
        """The rows' values."""
        values = list(self.index)
        return [values[c] for c in self.codes]

    def packed(self) -> PackedStrings:
        return PackedStrings(list(self.index), array(_INT32, self.codes).tobytes())


#: the most bytes a coded string column is gathered through with numpy: a table of its distinct
#: values padded to the widest is made, then one row of it a row (more: ``pa.array`` of the values)
_GATHERED_BYTES = 1 << 24


def _string_array(pa: ModuleType, col: PackedStrings) -> Any:
    """The Arrow string array of a :class:`PackedStrings` column, the same as ``pa.array`` of
    its rows' values."""
    import numpy as np
    codes = np.frombuffer(col.codes, np.int32)
    try:
        encoded = [b"" if v is None else v.encode("utf-8") for v in col.values]
    except UnicodeEncodeError:      # (a lone surrogate: pa.array says what it says of it)
        encoded = None
    if encoded is None or max(map(len, encoded), default=0) * len(codes) > _GATHERED_BYTES:
        values = col.values
        return pa.array([values[c] for c in codes.tolist()], pa.string())
    table, lengths = _name_table(encoded)
    ends, data = _gathered(table, lengths, codes, encoded)
    valid = None
    if None in col.values:
        valid = pa.py_buffer(np.packbits(codes != col.values.index(None), bitorder="little"))
    return pa.Array.from_buffers(pa.string(), len(codes), [valid, pa.py_buffer(ends), pa.py_buffer(data)],
                                 null_count=-1 if valid is not None else 0)


class CardsDerived(NamedTuple):
    """A plays column the exporting process derives from the table's ``cards`` column
    (:class:`PackedCards`) with numpy, as a worker sends it (nothing but its name):
    ``n_cards`` (each list's length) or ``points`` (the points of its cards)."""

    what: str


class _FromCards:
    """A worker's plays column derived from its ``cards`` (:class:`CardsDerived`): nothing kept a row."""

    __slots__ = ("cards", "what")

    def __init__(self, cards: _CardLists, what: str) -> None:
        self.cards, self.what = cards, what

    def plain(self) -> list[int]:
        """The rows' values (the list the worker would otherwise send)."""
        flat, offsets = self.cards.flat, self.cards.offsets
        if self.what == "n_cards":
            return [b - a for a, b in pairwise(offsets)]
        pts = _points_table()
        return [sum(pts[c] for c in flat[a:b]) for a, b in pairwise(offsets)]

    def packed(self) -> CardsDerived:
        return CardsDerived(self.what)


def _derived_array(pa: ModuleType, kind: Any, what: str, cards: PackedCards) -> Any:
    """A :class:`CardsDerived` column's array (of type ``kind``) from the table's packed cards."""
    import numpy as np
    offsets = np.frombuffer(cards.offsets, np.int32).astype(np.int64)
    if what == "n_cards":
        values = np.diff(offsets)
    else:
        pts = np.array(_points_table(), np.int64)[np.frombuffer(cards.flat, np.int8)]
        total = np.zeros(len(pts) + 1, np.int64)
        np.cumsum(pts, out=total[1:])
        values = total[offsets[1:]] - total[offsets[:-1]]
    dtype = kind.to_pandas_dtype()
    if len(values) and (values.min() < np.iinfo(dtype).min or values.max() > np.iinfo(dtype).max):
        return pa.array(values.tolist(), kind)      # (out of the column's range: pyarrow says so, as before)
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(values.astype(dtype))],
                                 null_count=0)


class TricksDerived(NamedTuple):
    """A plays column the exporting process derives from the tricks table, as a worker sends
    it: which (``match_id``, ``hand``, ``trick``: each trick's value repeated for its plays;
    ``position``: 0, 1, … within each trick) and each trick row's number of plays (int32;
    the plays rows are the tricks' plays in order: :func:`_add_hand`)."""

    what: str
    counts: bytes


class _TrickCounts(list):  # type: ignore[type-arg]  # int
    """Each trick row's number of plays (the plays rows are the tricks' plays, in order)."""

    __slots__ = ("_packed",)

    def packed(self) -> bytes:
        """As int32 bytes (one object for the four derived columns: pickled once)."""
        got = getattr(self, "_packed", None)
        if got is None or got[0] != len(self):
            got = self._packed = (len(self), array(_INT32, self).tobytes())
        return got[1]


class _FromTricks:
    """A worker's plays column derived from the tricks table (:class:`TricksDerived`): nothing kept a row."""

    __slots__ = ("counts", "tricks", "what")

    def __init__(self, counts: _TrickCounts, tricks: Any, what: str) -> None:
        self.counts, self.tricks, self.what = counts, tricks, what

    def plain(self) -> list[Any]:
        """The rows' values (the list the worker would otherwise send)."""
        if self.what == "position":
            return list(chain.from_iterable(map(range, self.counts)))
        values = self.tricks.plain() if isinstance(self.tricks, _Strings) else self.tricks
        return list(chain.from_iterable(map(repeat, values, self.counts)))

    def packed(self) -> TricksDerived:
        return TricksDerived(self.what, self.counts.packed())


def _tricks_derived_array(pa: ModuleType, kind: Any, col: TricksDerived, tricks: Mapping[str, Any]) -> Any:
    """A :class:`TricksDerived` column's array (of type ``kind``) from the chunk's tricks columns."""
    import numpy as np
    counts = np.frombuffer(col.counts, np.int32)
    if col.what == "position":
        starts = np.zeros(len(counts), np.int64)
        np.cumsum(counts[:-1], out=starts[1:])
        values = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(starts, counts)
        dtype = kind.to_pandas_dtype()
        if len(values) and values.max() > np.iinfo(dtype).max:
            return pa.array(values.tolist(), kind)      # (out of the column's range: pyarrow says so, as before)
        return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(values.astype(dtype))], null_count=0)
    src = tricks[col.what]
    if isinstance(src, PackedStrings):
        return _string_array(pa, PackedStrings(src.values, np.repeat(np.frombuffer(src.codes, np.int32),
                                                                     counts).tobytes()))
    if isinstance(src, PackedValues):
        values = np.repeat(np.frombuffer(src.data, kind.to_pandas_dtype()), counts)
        return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(values)], null_count=0)
    return pa.array(list(chain.from_iterable(map(repeat, src, counts.tolist()))), kind)


class PackedValues(NamedTuple):
    """A column of integers or booleans without a null, as a worker sends it: the values
    as machine integers of the column's width (booleans one byte each)."""

    data: bytes


#: an integer or boolean column's array typecode (its Arrow type's width; booleans one byte)
_TYPECODES = {"int8": "b", "int16": "h", "int32": _INT32, "bool": "b"}


def _pack(col: list[Any], kind: str) -> Any:
    """A column as a worker sends it: integers and booleans without a null as
    :class:`PackedValues` (pickled as one bytes object, made an Arrow array without a
    conversion), anything else as it is."""
    code = _TYPECODES.get(kind)
    if code is None or not col:
        return col
    try:
        return PackedValues(array(code, col).tobytes())
    except (TypeError, OverflowError):          # a null, or out of the column's range: as before
        return col


def _values_array(pa: ModuleType, kind: Any, col: PackedValues) -> Any:
    """The Arrow array (of type ``kind``) of a :class:`PackedValues` column."""
    if pa.types.is_boolean(kind):
        import numpy as np
        bits = np.packbits(np.frombuffer(col.data, np.int8) != 0, bitorder="little")
        return pa.Array.from_buffers(kind, len(col.data), [None, pa.py_buffer(bits)], null_count=0)
    # (bit_width: DataType.byte_width is newer than the pyarrow floor, 15)
    return pa.Array.from_buffers(kind, len(col.data) // (kind.bit_width // 8), [None, pa.py_buffer(col.data)],
                                 null_count=0)


#: a chunk's rows as plain Python data: table → column → a list of values (or a
#: :class:`PackedCards`); what a worker sends back, pickled (:func:`arrow_tables`)
Columns = dict[str, dict[str, Any]]


def arrow_tables(columns: Mapping[str, Mapping[str, Any]]) -> dict[str, pa.Table]:
    """``{table: pyarrow.Table}`` of a chunk's plain columns (:meth:`Rows.columns`, or a game's
    row builder's ``columns()``), each with its table's schema (:func:`~analyzer.store.schema.arrow_schema`).
    Runs in the exporting process only: the workers never import pyarrow (issue 35: about
    30 MB a worker)."""
    pa = require_pyarrow()
    names = None
    out = {}
    for t, cols in columns.items():
        schema = arrow_schema(t)
        arrays = []
        for f in schema:
            col = cols[f.name]
            if isinstance(col, PackedCards):
                if names is None:
                    names = _card_name_table()
                arrays.append(_card_list_array(pa, names, col))
            elif isinstance(col, PackedValues):
                arrays.append(_values_array(pa, f.type, col))
            elif isinstance(col, PackedStrings):
                arrays.append(_string_array(pa, col))
            elif isinstance(col, CardsDerived):
                arrays.append(_derived_array(pa, f.type, col.what, cols["cards"]))
            elif isinstance(col, TricksDerived):
                arrays.append(_tricks_derived_array(pa, f.type, col, columns["tricks"]))
            else:
                arrays.append(pa.array(col, f.type))
        out[t] = pa.Table.from_arrays(arrays, schema=schema)
    return out


#: the worker's columns that pack themselves
_PACKS = (_CardLists, _Strings, _FromCards, _FromTricks)


class Rows:
    """The columns of the five tables for one chunk."""

    def __init__(self) -> None:
        self.cols: dict[str, dict[str, Any]] = {}
        for t in TABLES:
            self.cols[t] = {c: (_CardLists() if ty == "list<string>" and t in ("tricks", "plays", "hands")
                                and c not in ("dealer_team", "attackers")
                                else _Strings() if ty == "string" and t in ("tricks", "plays") else [])
                            for c, ty, _ in SCHEMAS[t]}
        plays = self.cols["plays"]
        for c in ("n_cards", "points"):     # (the exporting process derives them from the cards)
            plays[c] = _FromCards(plays["cards"], c)
        #: each trick row's number of plays: the plays' match, hand, trick and position are
        #: derived from the tricks table by the exporting process
        self.trick_plays = _TrickCounts()
        for c in ("match_id", "hand", "trick", "position"):
            plays[c] = _FromTricks(self.trick_plays, self.cols["tricks"].get(c), c)
        self.counts: dict[str, int] = dict.fromkeys(TABLES, 0)
        #: table → its columns in order, each with whether it is a card list
        self._order = {t: [(name, col, isinstance(col, _CardLists)) for name, col in self.cols[t].items()]
                       for t in TABLES}
        #: table → column → its type (schema.SCHEMAS)
        self._kinds = {t: {c: ty for c, ty, _ in SCHEMAS[t]} for t in TABLES}
        #: id(order) → (order, {cards: structure}) (the order is held: its id stays its own)
        self.structures: dict[int, tuple[Any, dict[tuple[int, ...], str]]] = {}

    def add(self, table: str, **values: Any) -> None:
        """One row given by name (the rarer tables; tricks and plays are filled column by column)."""
        get = values.get
        for name, column, cards in self._order[table]:
            column.add(get(name)) if cards else column.append(get(name))
        self.counts[table] += 1

    def columns(self) -> Columns:
        """The chunk's rows as plain data (picklable, no pyarrow): :func:`arrow_tables` makes the tables."""
        return {t: {name: col.packed() if isinstance(col, _PACKS) else _pack(col, self._kinds[t][name])
                    for name, col in cols.items()} for t, cols in self.cols.items()}

    def tables(self) -> dict[str, pa.Table]:
        return arrow_tables(self.columns())


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
        names.update({p: tags.get(p) or p for p in _NUMBERED})   # finding friends
        seats = list(match.hands[0].seats) if match.hands else ["N", "W", "S", "E"]
        played = sum(1 for h in match.hands if not h.redeal)
        rows.add("matches", match_id=match_id, file=path, line=line, rules=match.ruleset.name,
                 event=tags.get("Event"), date=tag_date(tags.get("Date")), tags=list(tags.items()),
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
    # column by column, each a comprehension (or a map) over the hand's tricks or plays
    # (a trick's record plays and their cards as played pair up one for one: the replay's trick
    # loop makes one card list a play it keeps, TrickResult.play_rows)
    played = [t.cards_played for t in tricks]
    counts = list(map(len, played))
    cards = list(chain.from_iterable(played))
    plays = list(chain.from_iterable([t.source for t in tricks]))
    n_tricks, n_plays = len(tricks), len(cards)
    lens = list(map(len, cards))
    seats = [p.seat for p in plays]
    rows.trick_plays.extend(counts)     # (the plays' match, hand, trick and position: from the tricks)
    P["seat"].extend(seats)
    P["player"].extend(map(names.get, seats, seats))
    # (_structure's answers inlined for the common plays: a single, a pair or two singles, one seen before)
    structures = ["single" if n == 1 else None if order is None else
                  ("pair" if c[0] == c[1] else "single + single") if n == 2 else
                  cache.get(c) or _structure(c, order, cache) for n, c in zip(lens, cards)]
    P["structure"].extend(structures)
    P["cards"].extend(cards)
    P["attempted"].extend_maybe([p.attempted for p in plays])
    leads = [c[0] if c else None for c in played]
    T["match_id"].repeat(match_id, n_tricks)
    T["hand"].extend([i] * n_tricks)
    T["trick"].extend([t.number for t in tricks])
    T["leader"].extend([t.leader for t in tricks])
    T["leader_player"].extend([names.get(t.leader, t.leader) for t in tricks])
    tl = T["lead"]
    if None in leads:
        for lead in leads:
            tl.add(lead)
    else:
        tl.extend(leads)  # (no None: checked)
    # a lead's structure is its trick's first play's (found above)
    T["lead_structure"].extend([structures[k] if n else None for k, n in zip(accumulate(counts, initial=0), counts)])
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
