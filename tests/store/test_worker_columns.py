"""The export's workers send plain columns and never import pyarrow (issue 35: about
30 MB a worker, which put the export at its default ``--jobs`` over 200 MB); the
exporting process makes the Arrow tables, the same as a chunk's tables were."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")

from worker_probe import export_and_modules  # noqa: E402

from analyzer import lint as L  # noqa: E402
from analyzer.store import workers as W  # noqa: E402
from analyzer.store.chunk import ExportOptions, export_chunk  # noqa: E402
from analyzer.store.rows import (  # noqa: E402
    CardsDerived,
    PackedCards,
    PackedStrings,
    PackedValues,
    Rows,
    TricksDerived,
    add_record,
    arrow_tables,
)
from analyzer.store.schema import arrow_schema  # noqa: E402
from notation import parse  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: a Shengji match (with a failed throw: attempted cards), finding friends, Gouji, an imported log, a bad line
INPUTS = ["samples/docs/match.sjn", "samples/matches/standard.sjn", "samples/matches/gouji.gjn",
          "tests/cli/fixtures/logs/room.jsonl"]


def jobs_of(paths: list[str]) -> list:
    files = [(str(ROOT / p), p) for p in paths]
    sizes = {i: (ROOT / p).stat().st_size for i, p in enumerate(paths)}
    results: dict = {i: {} for i in range(len(paths))}
    return list(L.iter_jobs(files, sizes, L.LintOptions(), 1, results, None))


def test_a_worker_sends_plain_columns_and_imports_no_pyarrow():
    jobs = jobs_of(INPUTS)
    with W.worker_pool(1) as pool:
        got = [(W.unpack(packed), heavy) for packed, heavy in
               (pool.submit(export_and_modules, job, ExportOptions()).result() for job in jobs)]
    for job, (result, heavy) in zip(jobs, got):
        assert heavy == [], (job.display, heavy)
        assert result["error"] is None and result["records"] >= 1, (job.display, result["error"])
        # what comes back is plain data: lists, card lists and integers as bytes, strings as codes
        for cols in result["columns"].values():
            for col in cols.values():
                assert type(col) in (list, PackedCards, PackedValues, PackedStrings, CardsDerived, TricksDerived), \
                    type(col)
        # and the tables made from it are the ones the chunk makes in this process
        here = arrow_tables(export_chunk(job, ExportOptions())["columns"])
        there = arrow_tables(result["columns"])
        assert here.keys() == there.keys()
        for t in here:
            assert there[t].equals(here[t]) and there[t].schema.equals(arrow_schema(t), check_metadata=True)
    assert sum(there["gouji_plays"].num_rows for _, there in
               [(r, arrow_tables(r["columns"])) for r, _ in got] if "gouji_plays" in there) > 0


def _old_card_lists(pa, names, flat, offsets, valid):
    """How a card-list column was made before the columns were packed (the reference)."""
    values = names.take(pa.array(flat, pa.int8())) if flat else pa.array([], pa.string())
    mask = None if all(valid) else pa.array([not v for v in valid], pa.bool_())
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), values, mask=mask)


def test_packed_card_lists_give_the_same_arrays():
    """Card lists with nulls, empty lists, no rows at all: the same arrays as built from lists."""
    from analyzer.store.rows import _card_list_array, _card_name_table, _card_names, _CardLists
    names = pa.array(_card_names(), pa.string())
    every = [list(range(len(_card_names()))), list(range(len(_card_names())))[::-1]]     # every name, both ways
    for lists in ([], [None], [[]], [[0, 53, 7], None, [], [12, 12]], [[5]] * 3, [None, None], every):
        col = _CardLists()
        for cards in lists:
            col.add(cards)
        got = _card_list_array(pa, _card_name_table(), pickle.loads(pickle.dumps(col.packed())))
        assert got.equals(_old_card_lists(pa, names, col.flat, col.offsets, col.valid)), lists
        assert got.to_pylist() == [None if c is None else [names[x].as_py() for x in c] for c in lists]


def _rows_of(path: Path) -> Rows:
    """The export's rows of a sample file."""
    records, diags = parse(path.read_text(encoding="utf-8"))
    rows = Rows()
    for r in records:
        add_record(rows, r, diags, path.name)
    return rows


def test_rows_tables_are_the_arrow_tables_of_its_columns():
    rows = _rows_of(ROOT / "samples" / "docs" / "match.sjn")
    tables = rows.tables()
    assert tables["plays"].num_rows > 0
    for t, table in arrow_tables(pickle.loads(pickle.dumps(rows.columns()))).items():
        assert table.equals(tables[t])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.none() | st.lists(st.integers(0, 53), max_size=12), max_size=30))
def test_packed_card_lists_are_the_card_names_property(lists):
    """Any card lists, null or empty: the card names by number (as ``take`` gave them)."""
    from analyzer.store.rows import _card_list_array, _card_name_table, _card_names, _CardLists
    names = pa.array(_card_names(), pa.string())
    col = _CardLists()
    for cards in lists:
        col.add(cards)
    got = _card_list_array(pa, _card_name_table(), col.packed())
    got.validate(full=True)
    assert got.equals(_old_card_lists(pa, names, col.flat, col.offsets, col.valid))


_RANGES = {"int8": (-(1 << 7), (1 << 7) - 1), "int16": (-(1 << 15), (1 << 15) - 1),
           "int32": (-(1 << 31), (1 << 31) - 1)}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["int8", "int16", "int32", "bool"]).flatmap(lambda kind: st.tuples(
    st.just(kind), st.lists(st.none() | (st.booleans() if kind == "bool" else st.integers(*_RANGES[kind])),
                            max_size=40))))
def test_packed_values_are_the_arrays_of_their_lists_property(case):
    """A worker's integer and boolean columns without a null go as machine integers; the
    arrays made of them are those of the lists (a column with a null goes as a list)."""
    from analyzer.store.rows import _pack, _values_array
    from analyzer.store.schema import _arrow_type
    kind, values = case
    ty = _arrow_type(pa, kind)
    packed = pickle.loads(pickle.dumps(_pack(values, kind)))
    assert isinstance(packed, PackedValues) == (bool(values) and None not in values)
    got = _values_array(pa, ty, packed) if isinstance(packed, PackedValues) else pa.array(packed, ty)
    got.validate(full=True)
    assert got.equals(pa.array(values, ty))


def test_a_chunks_tables_are_those_of_its_plain_lists():
    """The tables of a chunk's packed columns are the tables of its columns as plain lists."""
    rows = _rows_of(ROOT / "samples" / "matches" / "standard.sjn")
    plain = {t: {c: col.plain() if hasattr(col, "plain") else col.packed() if hasattr(col, "packed") else list(col)
                 for c, col in cols.items()} for t, cols in rows.cols.items()}
    packed = rows.columns()
    for kind in (PackedValues, PackedStrings, CardsDerived, TricksDerived):
        assert any(isinstance(col, kind) for cols in packed.values() for col in cols.values())
        assert not any(isinstance(col, kind) for cols in plain.values() for col in cols.values())
    got, want = arrow_tables(pickle.loads(pickle.dumps(packed))), arrow_tables(plain)
    assert got.keys() == want.keys() and all(got[t].num_rows for t in ("plays", "tricks"))
    for t in got:
        assert got[t].equals(want[t]), t


@settings(max_examples=300, deadline=None)
@given(st.lists(st.none() | st.sampled_from(["N", "", "pair + single", "P7", "0123456789abcdef0123", "李雷", "x" * 70])
                | st.text(max_size=8), max_size=40))
def test_coded_strings_are_the_arrays_of_their_lists_property(values):
    """A worker's string columns of the tricks and plays tables go as codes into their distinct
    values; the array made of them is that of the values (nulls, empty and wide strings, any text)."""
    from analyzer.store.rows import _string_array, _Strings
    col = _Strings()
    for k, v in enumerate(values):
        col.append(v) if k % 3 == 0 else col.extend([v]) if k % 3 == 1 else col.repeat(v, 1)
    assert col.plain() == values
    got = _string_array(pa, pickle.loads(pickle.dumps(col.packed())))
    got.validate(full=True)
    assert got.equals(pa.array(values, pa.string()))


@pytest.mark.parametrize("budget", [1 << 24, 8])
def test_coded_strings_table(monkeypatch, budget):
    """Repeated values, every value null, one wide value among narrow ones, no rows; gathered
    with numpy, or as ``pa.array`` of the values past the gather's budget of bytes."""
    from analyzer.store import rows
    from analyzer.store.rows import _string_array, _Strings
    monkeypatch.setattr(rows, "_GATHERED_BYTES", budget)
    for values in ([], [None], [None] * 3, ["N"] * 5, ["ab", "a", "", "ab"], ["a", "b" * 65, None],
                   ["é", "ab", "é"], ["0123456789abcdef0123"] * 4 + ["fedcba9876543210fedc"] * 2):
        col = _Strings()
        for v in values[:2]:
            col.append(v)
        col.extend(values[2:])
        got = _string_array(pa, col.packed())
        got.validate(full=True)
        assert got.equals(pa.array(values, pa.string())) and got.to_pylist() == values, values


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 53), max_size=12), max_size=30))
def test_derived_play_columns_are_the_card_counts_and_points_property(lists):
    """``plays.n_cards`` and ``plays.points``, derived from the packed cards by the exporting
    process, are each play's number of cards and the points of its cards."""
    from analyzer.store.rows import _CardLists, _derived_array, _FromCards
    from primitives.cards import points
    cards = _CardLists()
    cards.extend(lists)
    for what, want in (("n_cards", [len(c) for c in lists]), ("points", [points(tuple(c)) for c in lists])):
        derived = _FromCards(cards, what)
        assert derived.plain() == want
        got = _derived_array(pa, pa.int16(), what, cards.packed())
        got.validate(full=True)
        assert got.equals(pa.array(want, pa.int16())), what


@pytest.mark.parametrize("over", [None, 0])
def test_a_chunk_goes_pickled_and_compressed_past_its_size(monkeypatch, over):
    """A chunk's pickle is compressed only past ``COMPRESS_BYTES``; either way it unpacks to the chunk."""
    if over is not None:
        monkeypatch.setattr(W, "COMPRESS_BYTES", over)
    (job,) = jobs_of(["samples/matches/standard.sjn"])
    data = W.export_chunk_pickled(job, ExportOptions())
    assert (data[:1] == b"\x80") == (over is None)          # a pickle as it is, or a zlib stream
    got, want = W.unpack(data), export_chunk(job, ExportOptions())
    assert got["records"] == want["records"] > 0
    assert all(arrow_tables(got["columns"])[t].equals(table) for t, table in arrow_tables(want["columns"]).items())
