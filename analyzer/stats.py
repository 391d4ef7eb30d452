"""``shengji stats STORE``: named analyses over the Parquet store, run by DuckDB.

DuckDB runs embedded (no server). Each table of the store (``docs/store.md``)
is a view over its Parquet files (every batch; a ``batch`` column tells them
apart), so ``--sql`` queries see the documented tables by name. The analyses
are plain SQL over the columns the export took from the engine's results;
nothing is recomputed from the rules here.

``duckdb`` (and ``pyarrow``) are optional (``pip install 'shengji[stats]'``),
imported only here.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, SupportsFloat, cast

if TYPE_CHECKING:
    from duckdb import DuckDBPyConnection
    from rich.console import Console

from .store import TABLES, StoreError, arrow_schema, require_pyarrow

_LEVEL = ("CASE {c} WHEN 11 THEN 'J' WHEN 12 THEN 'Q' WHEN 13 THEN 'K' WHEN 14 THEN 'A' "
          "WHEN 15 THEN 'Joker' ELSE CAST({c} AS VARCHAR) END")


@dataclass(frozen=True)
class Analysis:
    name: str
    title: str
    about: str
    sql: str


ANALYSES: dict[str, Analysis] = {a.name: a for a in (
    Analysis("failed-throws", "Failed throws by player",
             "Throws led, how many failed, the failure rate, and the average cost of a failed throw "
             "(its penalty, plus the trick's points when the opponents won it).",
             """
             SELECT leader_player AS player,
                    count(*) FILTER (WHERE is_throw) AS throws,
                    count(*) FILTER (WHERE failed_throw) AS failed,
                    round(count(*) FILTER (WHERE failed_throw) / count(*) FILTER (WHERE is_throw), 3)
                        AS failed_rate,
                    round(avg(failed_throw_cost) FILTER (WHERE failed_throw), 1) AS avg_cost
             FROM tricks
             GROUP BY leader_player
             HAVING count(*) FILTER (WHERE is_throw) > 0
             ORDER BY failed DESC, throws DESC, player
             """),
    Analysis("kitty-protection", "Kitty protection by multiplier",
             "Complete hands by the multiplier their last trick carried: how often the attackers won "
             "the last trick (the kitty was lost), and the kitty points they took then.",
             """
             SELECT rules, last_trick_multiplier AS multiplier, count(*) AS hands,
                    count(*) FILTER (WHERE last_trick_attackers) AS attackers_won_last,
                    round(1 - count(*) FILTER (WHERE last_trick_attackers) / count(*), 3) AS protected_rate,
                    round(avg(kitty_points) FILTER (WHERE last_trick_attackers), 1) AS avg_kitty_points_lost
             FROM hands
             WHERE complete AND NOT redeal AND last_trick_multiplier IS NOT NULL
             GROUP BY rules, last_trick_multiplier
             ORDER BY rules, multiplier
             """),
    Analysis("dealer-hold", "Dealer hold rate by level and preset",
             "Played hands by preset and the hand's level: how often the dealers kept the deal.",
             f"""
             SELECT rules, {_LEVEL.format(c='level')} AS level, count(*) AS hands,
                    count(*) FILTER (WHERE dealers_keep) AS held,
                    round(count(*) FILTER (WHERE dealers_keep) / count(*), 3) AS hold_rate
             FROM hands
             WHERE dealers_keep IS NOT NULL
             GROUP BY rules, hands.level
             ORDER BY rules, hands.level
             """),
    Analysis("attacker-points", "Attackers' points",
             "How the attackers' totals of complete hands are spread, in steps of 10 points "
             "(kitty and penalties included).",
             """
             SELECT CAST(floor(attacker_points / 10) * 10 AS INTEGER) AS points_from, count(*) AS hands,
                    round(count(*) / sum(count(*)) OVER (), 3) AS share
             FROM hands
             WHERE complete AND NOT redeal AND attacker_points IS NOT NULL
             GROUP BY points_from
             ORDER BY points_from
             """),
    Analysis("diagnostics", "Most common diagnostics",
             "The 20 most frequent diagnostic codes, with the number of matches they occur in and one message.",
             """
             SELECT code, severity, count(*) AS findings, count(DISTINCT match_id) AS matches,
                    min(message) AS example
             FROM diagnostics
             GROUP BY code, severity
             ORDER BY findings DESC, code
             LIMIT 20
             """),
)}


#: a value of a result row, made JSON-friendly by :func:`_plain`
Value = int | float | str | bool | None


@dataclass
class Result:
    """One analysis (or ``--sql`` query): its name, title and rows."""

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


def connect(store: str | Path) -> DuckDBPyConnection:
    """An in-memory DuckDB connection with the store's tables as views."""
    duckdb = require_duckdb()
    require_pyarrow()
    root = Path(store)
    if not root.is_dir():
        raise StoreError(f"{store}: no such store (a directory written by shengji export --to parquet)")
    if not (root / "_batches").is_dir() and not any((root / t).is_dir() for t in TABLES):
        raise StoreError(f"{store}: not a store (no _batches/ or table directories); "
                         f"write one with shengji export --to parquet")
    con = duckdb.connect(":memory:")
    for t in TABLES:
        files = sorted((root / t).glob("batch=*/*.parquet")) if (root / t).is_dir() else []
        if files:
            pattern = str(root.resolve() / t / "batch=*" / "*.parquet").replace("'", "''")
            con.execute(f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{pattern}', "
                        f"hive_partitioning = true, union_by_name = true)")
        else:
            empty = arrow_schema(t).empty_table()
            con.register(f"_empty_{t}", empty)
            con.execute(f"CREATE VIEW {t} AS SELECT *, CAST(NULL AS VARCHAR) AS batch FROM _empty_{t}")
    return con


def run(store: str | Path, names: list[str] | None = None, sql: str | None = None) -> list[Result]:
    """The named analyses (default: all), or one ``sql`` query. Raises StoreError."""
    duckdb = require_duckdb()
    con = connect(store)
    try:
        if sql is not None:
            return [_query(con, "sql", "Query", sql, duckdb)]
        out = []
        for name in names or list(ANALYSES):
            a = ANALYSES[name]
            out.append(_query(con, a.name, a.title, a.sql, duckdb))
        return out
    finally:
        con.close()


def _query(con: DuckDBPyConnection, name: str, title: str, sql: str, duckdb: ModuleType) -> Result:
    try:
        cur = con.execute(sql)
        rows = cur.fetchall()
        columns = [d[0] for d in cur.description] if cur.description else []
    except duckdb.Error as exc:
        raise StoreError(f"the query failed: {' '.join(str(exc).split())}") from None
    return Result(name, title, columns, [tuple(_plain(v) for v in r) for r in rows])


def _plain(v: object) -> Value:
    """DuckDB values as JSON-friendly Python values."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if hasattr(v, "is_integer") and not isinstance(v, (float, int)):   # Decimal
        return float(cast(SupportsFloat, v))
    if v is None or isinstance(v, (int, float, str, bool)):
        return v
    return str(v)


# -- output ------------------------------------------------------------------------------------

def to_csv(results: list[Result]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for k, r in enumerate(results):
        if len(results) > 1:
            if k:
                buf.write("\n")
            buf.write(f"# {r.name}\n")
        w.writerow(r.columns)
        w.writerows(["" if v is None else v for v in row] for row in r.rows)
    return buf.getvalue()


def to_json(results: list[Result]) -> str:
    data = {r.name: {"title": r.title, "columns": r.columns, "rows": r.dicts()} for r in results}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def render_tables(console: Console, results: list[Result]) -> None:
    from rich.table import Table
    for k, r in enumerate(results):
        if k:
            console.print()
        table = Table(title=r.title, title_justify="left")
        for c in r.columns:
            table.add_column(c, justify="right" if _numeric(r, c) else "left")
        for row in r.rows:
            table.add_row(*("" if v is None else str(v) for v in row))
        if not r.rows:
            console.print(f"{r.title}: no rows")
            continue
        console.print(table)


def _numeric(r: Result, column: str) -> bool:
    i = r.columns.index(column)
    vals = [row[i] for row in r.rows if row[i] is not None]
    return bool(vals) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals)


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
