"""Fuzzing as a test (issue 35): hypothesis mutations of a small sample of
every reader — SJN, GJN, the tool's JSON (Shengji and Gouji), each importer's
log, GAME.SAV, the Parquet store — through the reader and what every command
runs next (the replay; for a log, writing the imported records as SJN; for
the store, its queries). Never an exception, never an internal error (SJ901).
An SJ901 found here becomes a table test (tests/cli/test_hostile_inputs.py).

``SHENGJI_FUZZ_EXAMPLES`` sets the examples *per reader* (default 25; a reader
read as JSON splits them between its two strategies, the store between its
manifest and its part); each test checks that hypothesis ran them all.
``SHENGJI_FUZZ_RECORD=FILE`` appends one JSON line per test (reader, strategy,
examples run, seconds) to FILE. `.ci/run` runs ``tests/fuzz`` once with 2,000
a reader; the 10,000-a-reader run and its figures are in docs/security.md.
Each example calls the reader functions in this process (no CLI) on a sample
of one hand or one game, so an example costs milliseconds.
``bench/fuzz_atheris.py`` is the coverage-guided harness.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "importers"))

EXAMPLES = int(os.environ.get("SHENGJI_FUZZ_EXAMPLES", "25"))
RECORD = os.environ.get("SHENGJI_FUZZ_RECORD")


def fuzz_settings(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, derandomize=EXAMPLES <= 25,
                    suppress_health_check=list(HealthCheck))


def run_counted(name: str, strategy: str, examples: int, check: Callable[[Callable[[], None]], None]) -> None:
    """Run ``check`` (a hypothesis test taking a counter), check that it ran at least
    ``examples`` examples, and record the count and the time (``SHENGJI_FUZZ_RECORD``)."""
    count = [0]

    def tick() -> None:
        count[0] += 1
    t = time.perf_counter()
    check(tick)
    seconds = time.perf_counter() - t
    if RECORD:
        with open(RECORD, "a", encoding="utf-8") as f:
            f.write(json.dumps({"reader": name, "strategy": strategy, "examples": count[0],
                                "seconds": round(seconds, 1)}) + "\n")
    assert count[0] >= examples, f"{name}/{strategy}: hypothesis ran {count[0]} of {examples} examples"


def _first(text: str, unit: str) -> str:
    """The text up to its second hand (``unit`` "hand") or game: one record, small."""
    return text.split(f"\n{unit} 2\n")[0].rstrip("\n") + "\n"


def _samples() -> dict[str, str | bytes]:
    from importer_testlib import text_samples

    from notation import gjn, parse
    from notation.jsonio import to_json
    sjn = _first((ROOT / "samples" / "matches" / "standard.sjn").read_text(encoding="utf-8"), "hand")
    gouji = _first((ROOT / "samples" / "matches" / "gouji.gjn").read_text(encoding="utf-8"), "game")
    records, _ = parse(sjn)
    out: dict[str, str | bytes] = {
        "sjn": sjn,
        "gjn": gouji,
        "json": to_json(records[0], indent=1),
        "gjn-json": gjn.to_json(gjn.parse(gouji)[0][0], indent=1),
        "game-sav": (ROOT / "samples" / "docs" / "GAME.SAV").read_bytes(),
    }
    logs = text_samples()
    godot = json.loads(logs["shengji-godot"])
    small = {  # a smaller log keeps each example fast
        "fly": "\n".join(str(logs["fly"]).split("\n")[:24]),
        "botzone": json.dumps({"log": json.loads(logs["botzone"])["log"][:120],
                               "initdata": json.loads(logs["botzone"])["initdata"]}, indent=1),
        "80fen-v2": json.dumps({**json.loads(logs["80fen-v2"]),
                                "events": json.loads(logs["80fen-v2"])["events"][:60]}, indent=1),
        "shengji-godot": json.dumps({**godot, "rounds": godot["rounds"][:1]}, indent=1, ensure_ascii=False),
    }
    for name, text in logs.items():
        out[f"log:{name}"] = small.get(name, text)
    return out


SAMPLES = _samples()


def _no_sj901(diags: Any, where: str) -> None:
    bad = [d for d in diags if getattr(d, "code", "") == "SJ901"]
    assert not bad, f"{where}: {bad[0].message}"


def read_sjn(text: str) -> None:
    from notation.detect import read
    from replay.game import replay
    for record, diags in read(text, "sjn"):
        _no_sj901(diags, "reader")
        if record is not None and record.hands:
            _no_sj901(replay(record).diagnostics, "replay")


def read_json(text: str) -> None:
    from notation.detect import read
    from replay.game import replay
    for record, diags in read(text, "json"):
        _no_sj901(diags, "reader")
        if record is not None and record.hands:
            _no_sj901(replay(record).diagnostics, "replay")


def read_gjn(text: str) -> None:
    from analyzer.games.gouji.analysis import run_engine
    from analyzer.io.inputs import load_game_records
    records, diags = load_game_records(text, "fuzz.gjn", "gjn")
    _no_sj901(diags, "reader")
    for r in records[:2]:
        _no_sj901(run_engine(r).diagnostics, "engine")


def read_gjn_json(text: str) -> None:
    from analyzer.games.gouji.analysis import run_engine
    from analyzer.io.inputs import load_game_records
    try:
        json.loads(text)
    except ValueError:
        return  # not JSON: load_game_records is only called on what detection calls Gouji JSON
    records, diags = load_game_records(text, "fuzz.json", "gjn-json")
    _no_sj901(diags, "reader")
    for r in records[:2]:
        _no_sj901(run_engine(r).diagnostics, "engine")


def import_log(fmt: str) -> Callable[[str | bytes], None]:
    def run(text: str | bytes) -> None:
        from analyzer.io.importers import import_text
        from notation import write
        records, diags = import_text(fmt, text, check=True)
        _no_sj901(diags, f"import {fmt}")
        write(records)  # every imported record can be written (import, annotate)
    return run


TARGETS: dict[str, Callable[[Any], None]] = {"sjn": read_sjn, "gjn": read_gjn, "json": read_json,
                                              "gjn-json": read_gjn_json, "game-sav": import_log("game-sav")}
for _name in SAMPLES:
    if _name.startswith("log:"):
        TARGETS[_name] = import_log(_name[4:])

#: tokens that broke readers before: structure, escapes, markup, huge or odd numbers
TOKENS = ['"\\ud800"', "\\ud800", "[]", "{}", "[", "{", "}", "]", '"', "\\", "null", "-1", "0", "1e999",
          "99999999999999999999", '""', "[/b]", "\x1b]0;x\x07", "\u202e", "\x00", "\r", "\n", ";", ":", "->",
          "hand 1\n", "1. N: ", "\ufeff", "\u2028", "BJ", "LJ", "S10", "@99", "true", "NaN"]
TEXT_CHARS = st.characters(blacklist_categories=("Cs",))


@st.composite
def mutated(draw: Any, base: str | bytes) -> str | bytes:
    """``base`` with 1–4 edits: a character replaced, a range deleted or doubled,
    the text cut, a token inserted."""
    data = base
    for _ in range(draw(st.integers(1, 4))):
        n = len(data)
        op = draw(st.sampled_from(["replace", "delete", "double", "cut", "token"]))
        i = draw(st.integers(0, max(n - 1, 0)))
        j = min(n, i + draw(st.integers(1, 64)))
        if isinstance(data, bytes):
            piece = bytes([draw(st.integers(0, 255))]) if op in ("replace", "token") else b""
        else:
            piece = draw(TEXT_CHARS) if op == "replace" else draw(st.sampled_from(TOKENS)) if op == "token" else ""
        if op == "replace":
            data = data[:i] + piece + data[i + 1:]
        elif op == "delete":
            data = data[:i] + data[j:]
        elif op == "double":
            data = data[:j] + data[i:j] + data[j:]
        elif op == "cut":
            data = data[:i]
        else:
            data = data[:i] + piece + data[i:]
    return data


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-2**64, 2**64) | st.floats(allow_nan=False)
                           | st.text(TEXT_CHARS, max_size=8) | st.sampled_from(["S10", "BJ", "\ud800", "", "[/b]"]),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                       max_size=4),
                           max_leaves=8)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, path + (k,))
    elif isinstance(value, list):
        for k, v in enumerate(value):
            out += _paths(v, path + (k,))
    return out


#: a base text → its lines, each line's JSON value (None: not JSON) and the paths into it
_PARSED: dict[str, tuple[list[str], list[Any], list[list[tuple]]]] = {}


def _parsed(base: str) -> tuple[list[str], list[Any], list[list[tuple]]]:
    if base not in _PARSED:
        lines = base.split("\n") if not base.lstrip().startswith(("{", "[")) or "\n{" in base[:2000] else [base]
        values: list[Any] = []
        for line in lines:
            try:
                values.append(json.loads(line))
            except ValueError:
                values.append(None)
        _PARSED[base] = lines, values, [_paths(v)[:5000] if v is not None else [] for v in values]
    return _PARSED[base]


def _replaced(value: Any, path: tuple, new: Any) -> Any:
    """``value`` with the value at ``path`` replaced by ``new`` (only the containers on the path copied)."""
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copy


@st.composite
def json_mutated(draw: Any, base: str) -> str:
    """``base`` (JSON or JSON lines) with one value somewhere replaced by a random
    JSON value (an empty card list, a string for a number, a lone surrogate …)."""
    lines, values, paths = _parsed(base)
    k = draw(st.integers(0, len(lines) - 1))
    if values[k] is None:
        return base
    path = draw(st.sampled_from(paths[k]))
    value = _replaced(values[k], path, draw(JSON_VALUES))
    return "\n".join(lines[:k] + [json.dumps(value, indent=None if len(lines) > 1 else 1)] + lines[k + 1:])


def _json_like(name: str) -> bool:
    """A JSON document or JSON lines (SJN and GJN open with `[` too: not these)."""
    base = SAMPLES[name]
    if not isinstance(base, str):
        return False
    try:
        json.loads(base.split("\n")[0] if "\n{" in base[:2000] else base)
    except ValueError:
        return False
    return True


def _strategies(name: str) -> list[tuple[str, Any]]:
    base = SAMPLES[name]
    out = [("mutated", mutated(base))]
    if _json_like(name):
        out.append(("json-value", json_mutated(str(base))))
    return out


CASES = [(name, label, strategy, EXAMPLES // len(_strategies(name)) + (EXAMPLES % len(_strategies(name)) if i == 0 else 0))
         for name in sorted(TARGETS) for i, (label, strategy) in enumerate(_strategies(name))]


@pytest.mark.parametrize("name, label, strategy, examples", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_mutations_never_crash_a_reader(name, label, strategy, examples):
    target = TARGETS[name]

    def check(tick: Callable[[], None]) -> None:
        @fuzz_settings(examples)
        @given(strategy)
        def one(data: Any) -> None:
            tick()
            target(data)
        one()
    run_counted(name, label, examples, check)


# -- the Parquet store: its manifests (our reader) and its parts (DuckDB's, through our checks) -------


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("pyarrow")
    pytest.importorskip("duckdb")
    from analyzer.store.parquet import export_paths
    tmp = tmp_path_factory.mktemp("fuzz-store")
    (tmp / "one.sjn").write_text(str(SAMPLES["sjn"]), encoding="utf-8")
    export_paths([str(tmp / "one.sjn")], str(tmp / "store"))
    return tmp / "store"


def _store_files(store: Path) -> tuple[Path, Path]:
    manifest = next((store / "_batches").glob("*.json"))
    part = next(store.glob("hands/batch=*/*.parquet"))
    return manifest, part


@pytest.mark.parametrize("what", ["manifest", "part"])
def test_a_mutated_store_is_a_store_error_never_a_crash(store, what):
    """A damaged manifest or part: ``stats`` says so (StoreError: exit 2, one line),
    or reads what is there; never another exception. The part's queries run on one
    session opened before (opening one costs a quarter of a second)."""
    from analyzer.store.schema import StoreError
    from analyzer.store.stats import open_store, queries, store_parts
    manifest, part = _store_files(store)
    path = manifest if what == "manifest" else part
    original = path.read_bytes()
    examples = EXAMPLES // 2 + EXAMPLES % 2 if what == "manifest" else EXAMPLES // 2
    strategy = (st.one_of(mutated(original.decode("utf-8")), json_mutated(original.decode("utf-8")))
                if what == "manifest" else mutated(original))

    def check(tick: Callable[[], None]) -> None:
        with open_store(store) as session:
            @fuzz_settings(examples)
            @given(strategy)
            def one(data: Any) -> None:
                tick()
                path.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
                try:
                    store_parts(store)
                    if what == "part":
                        for q in queries():
                            session.result(q)
                except StoreError:
                    pass
                finally:
                    path.write_bytes(original)
            one()
    run_counted("store", what, examples, check)
