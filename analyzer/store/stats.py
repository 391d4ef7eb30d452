"""``shengji stats STORE``: named analyses over the Parquet store, run by DuckDB.

DuckDB runs embedded (no server). Each table of the store (``docs/store.md``)
is a view over the Parquet parts of the store's committed batches (a ``batch``
column tells them apart), so ``--sql`` queries see the documented tables by
name. The analyses are plain SQL over the columns the export took from the
engine's results; nothing is recomputed from the rules here.

Results are written by DuckDB itself (``COPY … TO``: CSV, JSON, Parquet; its
box renderer for the terminal): no row of a result goes through Python, except
for the HTML page (the analyses' small tables). Reading a store needs
``duckdb`` alone (``pip install 'shengji[stats]'``), imported only here.

**What a query can touch** (:func:`open_store`). By default a query runs on
a read-only connection with DuckDB's external access off
(``enable_external_access = false``), the store's directory (and the
command's own temporary directory) the only files it may open, no extension
installed or loaded, the configuration locked, and ``--sql`` must be one
``SELECT`` statement (``COPY``, ``ATTACH``, ``INSTALL``, ``SET``… are
refused). ``allow_external_access=True`` (``--sql-allow-external-access``)
gives DuckDB's defaults: any statement, any file, extensions, the network.
"""

from __future__ import annotations

import contextlib
import html
import io
import math
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import IO, TYPE_CHECKING, Any, SupportsFloat, cast

if TYPE_CHECKING:
    from duckdb import DuckDBPyConnection

from analyzer.store.analyses import ANALYSES as ANALYSES
from analyzer.store.analyses import DEFAULT as DEFAULT
from analyzer.store.analyses import Analysis as Analysis
from analyzer.store.parquet import manifests
from analyzer.store.schema import STORE_FORMAT, StoreError, duckdb_empty_select, tables

#: a value of a result row, made JSON-friendly by :func:`_plain`
Value = int | float | str | bool | None


@dataclass(frozen=True)
class Query:
    """One analysis, or the ``--sql`` query: a name, a title and one SELECT statement."""

    name: str
    title: str
    sql: str


@dataclass
class Result:
    """One query's rows in Python (the HTML page, tests)."""

    name: str
    title: str
    columns: list[str]
    rows: list[tuple[Value, ...]]

    def dicts(self) -> list[dict[str, Value]]:
        return [dict(zip(self.columns, r)) for r in self.rows]


def require_duckdb() -> ModuleType:
    try:
        import duckdb
    except ImportError:
        raise StoreError("shengji stats needs duckdb, an optional extra: pip install 'shengji[stats]'") from None
    return duckdb


_MAGIC = b"PAR1"


def store_parts(store: str | Path) -> dict[str, list[Path]]:
    """Table → the Parquet parts of the store's committed batches (their
    manifests list them), each checked: present, of the size its manifest
    says, with Parquet's magic bytes at both ends. A part that is not gives a
    :class:`StoreError` naming it (never a query's error later)."""
    root = Path(store)
    if not root.is_dir():
        raise StoreError(f"{store}: no such store (a directory written by shengji export --to parquet)")
    if not (root / "_batches").is_dir():
        raise StoreError(f"{store}: not a store (no _batches/ directory); write one with shengji export --to parquet")
    parts: dict[str, list[Path]] = {t: [] for t in tables()}
    for m in manifests(root):
        batch = m["batch"]
        if m.get("format", 1) != STORE_FORMAT or not isinstance(m.get("parts"), dict):
            raise StoreError(f"{store}: batch {batch} was written by an older shengji (store format "
                             f"{m.get('format', 1)}, now {STORE_FORMAT}); export the corpus into a new store "
                             f"(docs/store.md: migrating an old store)")
        for t in parts:
            for p in m["parts"].get(t, []):
                path = root / str(p.get("file", ""))
                try:
                    problem = _part_problem(path, p.get("bytes"))
                except OSError as exc:   # unreadable (EACCES, EIO), not damaged: nothing to remove
                    raise StoreError(f"{store}: store part {p.get('file')} cannot be read: "
                                     f"{exc.strerror or exc}") from None
                if problem is not None:
                    raise StoreError(f"{store}: a damaged store part {p.get('file')}: {problem}; batch {batch} "
                                     f"cannot be read: remove _batches/{batch}.json and the batch={batch} "
                                     f"directories, then export its files again")
                parts[t].append(path)
    return parts


def _part_problem(path: Path, size: object) -> str | None:
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if isinstance(size, int) and st.st_size != size:
                return f"{st.st_size} bytes where its manifest says {size}"
            if st.st_size < 12:
                return "too short for a Parquet file"
            head = f.read(4)
            f.seek(-4, os.SEEK_END)
            tail = f.read(4)
    except FileNotFoundError:
        return "missing"
    if head != _MAGIC or tail != _MAGIC:
        return "not a Parquet file (no magic bytes)"
    return None


def _sql_string(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _create_views(con: DuckDBPyConnection, parts: dict[str, list[Path]]) -> None:
    for t, files in parts.items():
        if files:
            listed = ", ".join(_sql_string(str(p.resolve())) for p in files)
            con.execute(f"CREATE VIEW {t} AS SELECT * FROM read_parquet([{listed}], hive_partitioning = true, "
                        f"hive_types = {{'batch': VARCHAR}})")
        else:
            con.execute(f"CREATE VIEW {t} AS {duckdb_empty_select(t)}")


def connect(store: str | Path) -> DuckDBPyConnection:
    """An in-memory DuckDB connection with the store's tables as views, for Python
    code (DuckDB's defaults: it can do what the calling program can)."""
    duckdb = require_duckdb()
    parts = store_parts(store)
    con: DuckDBPyConnection = duckdb.connect(":memory:")
    _create_views(con, parts)
    return con


#: the characters that make a spreadsheet read a CSV cell as a formula (OWASP: CSV injection)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class Session:
    """An open store: the DuckDB connection and a private temporary directory
    (DuckDB's outputs are written there, then copied where they go)."""

    store: str
    con: DuckDBPyConnection
    tmp: Path
    locked: bool
    duckdb: ModuleType

    def _error(self, exc: BaseException) -> StoreError:
        if isinstance(exc, UnicodeDecodeError):
            # DuckDB quotes a damaged file's bytes in its message, and its Python side then
            # fails to decode that message (found by tests/fuzz on a mutated part)
            return StoreError("the query failed: a file of the store is damaged "
                              f"(DuckDB's error message was not valid UTF-8: {_one_line(exc)})")
        return StoreError(f"the query failed: {_one_line(exc)}")

    def check(self, sql: str) -> str:
        """The ``--sql`` text as one query; locked: it must be one SELECT statement
        (StoreError). Unlocked, statements before the last are run, and a last one
        that is not a query is run too (then the answer is "")."""
        try:
            statements = self.con.extract_statements(sql)
        except (self.duckdb.Error, UnicodeDecodeError) as exc:
            raise self._error(exc) from None
        if not statements:
            raise StoreError("--sql is empty")
        last = statements[-1]
        select = self.duckdb.StatementType.SELECT
        if self.locked and (len(statements) > 1 or last.type != select):
            what = "several statements" if len(statements) > 1 else f"a statement of type {last.type.name}"
            raise StoreError(f"--sql runs one SELECT query, read-only, on the store alone (got {what}); "
                             f"--sql-allow-external-access lifts this (docs/store.md)")
        if not self.locked:
            for st in statements[:-1]:
                self._run(st.query)
            if last.type != select:
                self._run(last.query)
                return ""
        return _strip(last.query)

    def _run(self, sql: str) -> Any:
        try:
            return self.con.execute(sql)
        except (self.duckdb.Error, UnicodeDecodeError) as exc:
            raise self._error(exc) from None

    def relation(self, sql: str) -> Any:
        try:
            return self.con.sql(sql)
        except (self.duckdb.Error, UnicodeDecodeError) as exc:
            raise self._error(exc) from None

    def copy(self, q: Query, options: str, *, csv_safe: bool = False) -> Path:
        """DuckDB writes the result of ``q`` into a file of the temporary directory
        (``COPY (…) TO … (options)``); its path."""
        sql = self.neutralised(q.sql) if csv_safe else q.sql
        out = self.tmp / "out" / f"{sum(1 for _ in (self.tmp / 'out').iterdir())}.out"
        self._run(f"COPY (\n{sql}\n) TO {_sql_string(str(out))} ({options})")
        return out

    def neutralised(self, sql: str) -> str:
        """``sql`` with each text cell (and column name) that starts with ``=``, ``+``,
        ``-``, ``@``, a tab or a carriage return prefixed with ``'`` (OWASP's advice
        for CSV files opened in a spreadsheet)."""
        rel = self.relation(sql)
        exprs = []
        for name, typ in zip(rel.columns, rel.types):
            col = _ident(name)
            alias = _ident("'" + name if name.startswith(FORMULA_STARTS) else name)
            if str(typ) == "VARCHAR":
                exprs.append(f"CASE WHEN regexp_matches({col}, '^[=+@\\t\\r-]') THEN '''' || {col} "
                             f"ELSE {col} END AS {alias}")
            else:
                exprs.append(f"{col} AS {alias}")
        return f"SELECT {', '.join(exprs)} FROM (\n{sql}\n) AS q"

    def box(self, q: Query, *, max_width: int, max_rows: int) -> str:
        """DuckDB's own table rendering of ``q`` (it shows control characters escaped)."""
        buf = io.StringIO()
        rel = self.relation(q.sql)
        try:
            with contextlib.redirect_stdout(buf):
                rel.show(max_width=max_width, max_rows=max_rows, null_value="")
        except (self.duckdb.Error, UnicodeDecodeError) as exc:
            raise self._error(exc) from None
        return buf.getvalue()

    def result(self, q: Query) -> Result:
        """The rows of ``q`` in Python (small results: the analyses, the HTML page)."""
        cur = self._run(q.sql)
        try:
            rows = cur.fetchall()
        except (self.duckdb.Error, UnicodeDecodeError) as exc:
            raise self._error(exc) from None
        columns = [d[0] for d in cur.description] if cur.description else []
        return Result(q.name, q.title, columns, [tuple(_plain(v) for v in r) for r in rows])


def _strip(sql: str) -> str:
    sql = sql.strip()
    while sql.endswith(";"):
        sql = sql[:-1].rstrip()
    return sql


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


@contextlib.contextmanager
def open_store(store: str | Path, *, allow_external_access: bool = False) -> Iterator[Session]:
    """The store opened for queries (the module's doc says what they can touch)."""
    duckdb = require_duckdb()
    parts = store_parts(store)
    root = Path(store).resolve()
    tmp = Path(tempfile.mkdtemp(prefix="shengji-stats-"))
    con = None
    try:
        (tmp / "out").mkdir()
        try:
            if allow_external_access:
                con = duckdb.connect(":memory:")
                _create_views(con, parts)
            else:
                catalog = tmp / "store.duckdb"
                quiet = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
                with contextlib.closing(duckdb.connect(str(catalog), config=quiet)) as build:
                    _create_views(build, parts)
                con = duckdb.connect(str(catalog), read_only=True,
                                     config={**quiet, "python_enable_replacements": False})
                dirs = ", ".join(_sql_string(str(d) + os.sep) for d in (root, tmp / "out"))
                con.execute(f"SET allowed_directories = [{dirs}]")
                con.execute("SET enable_external_access = false")
                con.execute("SET lock_configuration = true")
        except (duckdb.Error, UnicodeDecodeError) as exc:
            raise StoreError(f"{store}: cannot open the store: {_one_line(exc)}") from None
        yield Session(str(store), con, tmp, not allow_external_access, duckdb)
    finally:
        if con is not None:
            con.close()
        shutil.rmtree(tmp, ignore_errors=True)


def queries(names: list[str] | None = None, sql: str | None = None) -> list[Query]:
    """The named analyses (default: :data:`DEFAULT`), or the ``--sql`` query."""
    if sql is not None:
        return [Query("sql", "Query", sql)]
    return [Query(a.name, a.title, a.sql.strip()) for a in (ANALYSES[n] for n in (names or list(DEFAULT)))]


def other_games_note(s: Session) -> str | None:
    """What the default analyses leave out of a store that holds another game's
    records (Gouji): said on standard error, so that a mixed store's results are
    not read as the whole store's."""
    try:
        n = s.con.execute("SELECT count(*) FROM gouji_matches").fetchone()
    except (s.duckdb.Error, UnicodeDecodeError):   # (no such view: a game whose plug-in is absent)
        return None
    if not n or not n[0]:
        return None
    return (f"note: the analyses above are of the Shengji records; this store also holds {n[0]} Gouji "
            f"record{'s' if n[0] != 1 else ''}: name gouji-places or gouji-burns, or query gouji_matches, "
            f"gouji_games and gouji_plays with --sql (docs/store.md)")


def checked(s: Session, qs: list[Query]) -> list[Query]:
    """The queries to write: ``--sql`` checked (:meth:`Session.check`), dropped when it was not a query."""
    out = []
    for q in qs:
        if q.name == "sql":
            q = Query(q.name, q.title, s.check(q.sql))
            if not q.sql:
                continue
        out.append(q)
    return out


def run(store: str | Path, names: list[str] | None = None, sql: str | None = None, *,
        allow_external_access: bool = False) -> list[Result]:
    """The named analyses (default: :data:`DEFAULT`), or one ``sql`` query, as Python rows. Raises StoreError."""
    with open_store(store, allow_external_access=allow_external_access) as s:
        return [s.result(q) for q in checked(s, queries(names, sql))]


def _plain(v: object) -> Value:
    """DuckDB values as JSON-friendly Python values."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if hasattr(v, "is_integer") and not isinstance(v, (float, int)):   # Decimal
        return float(cast(SupportsFloat, v))
    if v is None or isinstance(v, (int, float, str, bool)):
        return v
    return str(v)


def copy_to(path: Path, out: IO[bytes]) -> None:
    """A file DuckDB wrote, copied to ``out`` in blocks (no row read into Python)."""
    with open(path, "rb") as f:
        shutil.copyfileobj(f, out, 1 << 20)


def points_chart(result: Result) -> str:
    """An inline SVG bar chart of the attacker-points distribution (no script, no external file)."""
    if not result.rows:
        return "<p>No complete hands.</p>"
    i_from, i_n = result.columns.index("points_from"), result.columns.index("hands")
    # both columns are integers: CAST(… AS INTEGER) and count(*) in the attacker-points query
    counts = cast("dict[int, int]", {row[i_from]: row[i_n] for row in result.rows if row[i_from] is not None})
    if not counts:
        return "<p>No complete hands.</p>"
    lo, hi = min(counts), max(counts)          # every step from the lowest to the highest, empty ones too
    data = [(p, counts.get(p, 0)) for p in range(lo, hi + 10, 10)]
    top = max(n for _, n in data) or 1
    bar, gap, h, left, bottom = 22, 4, 220, 48, 40
    width = left + len(data) * (bar + gap) + 20
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h + bottom + 20}" '
              f'role="img" aria-label="Attackers\' points: hands per 10-point step">'),
             f'<line x1="{left}" y1="{h + 10}" x2="{width - 10}" y2="{h + 10}" stroke="#444"/>',
             f'<text x="4" y="20" font-size="11">{top}</text>',
             f'<text x="4" y="{h + 10}" font-size="11">0</text>']
    for k, (p, n) in enumerate(data):
        x = left + k * (bar + gap)
        bh = round(h * n / top)
        parts.append(f'<rect x="{x}" y="{h + 10 - bh}" width="{bar}" height="{bh}" fill="#3b6ea5">'
                     f'<title>{p}–{p + 9} points: {n} hands</title></rect>')
        parts.append(f'<text x="{x + bar / 2}" y="{h + 26}" font-size="10" text-anchor="middle">{p}</text>')
    parts.append(f'<text x="{left}" y="{h + bottom + 12}" font-size="11">attackers\' points (steps of 10); '
                 f'bar height: hands</text></svg>')
    return "".join(parts)


def to_html(results: list[Result], store: str) -> str:
    """One self-contained page: every result as a table, and the points chart."""
    esc = html.escape
    body = []
    for r in results:
        body.append(f"<h2 id=\"{esc(r.name)}\">{esc(r.title)}</h2>")
        about = ANALYSES[r.name].about if r.name in ANALYSES else ""
        if about:
            body.append(f"<p>{esc(about)}</p>")
        if r.name == "attacker-points":
            body.append(f'<figure>{points_chart(r)}</figure>')
        if not r.rows:
            body.append("<p>No rows.</p>")
            continue
        head = "".join(f"<th>{esc(c)}</th>" for c in r.columns)
        rows = "".join(("<tr>" + "".join(f"<td>{'' if v is None else esc(str(v))}</td>" for v in row)
                        + "</tr>") for row in r.rows)
        body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
    style = ("body{font-family:system-ui,sans-serif;margin:2em;max-width:60em}"
             "table{border-collapse:collapse;margin:.5em 0 1.5em}"
             "th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left}"
             "th{background:#f3f3f3}td{font-variant-numeric:tabular-nums}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>shengji stats: {esc(store)}</title><style>{style}</style></head><body>"
            f"<h1>shengji stats: {esc(store)}</h1>" + "".join(body) + "</body></html>\n")
