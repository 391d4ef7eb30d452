"""Coverage-guided fuzzing of every reader with atheris (issue 35).

``pip install atheris`` (an optional tool, not a dependency of shengji), then::

    python bench/fuzz_atheris.py sjn  -atheris_runs=100000
    python bench/fuzz_atheris.py json -max_len=20000 corpus/json/
    python bench/fuzz_atheris.py log:80fen-v2 -max_total_time=600
    python bench/fuzz_atheris.py log:fly --seeds seeds/fly    # the seeds: the project's files, cut small
    python bench/fuzz_atheris.py log:fly -max_len=8192 -atheris_runs=10001 seeds/fly

The reader names: ``sjn``, ``sjn-review`` (``sjn`` and then the mistakes review, whose
endgame search is the one place the native core runs: use it with ``SHENGJI_NATIVE=1``), ``gjn``, ``json``, ``gjn-json``, ``game-sav``,
``log:FORMAT`` for each importer (``shengji import --help`` lists them) and
``store-manifest``, ``store-part`` (a Parquet store's batch manifest, its hands
part read by every default analysis; need the ``stats`` extra). Each
input goes through the reader and what the commands run next (the replay, or
writing the imported records as SJN); an exception or an internal error
(SJ901) is a crash, kept by libFuzzer as ``crash-*`` for a table test in
tests/cli/test_hostile_inputs.py. The hypothesis version of the same targets
runs in the test suite (tests/fuzz/test_readers_fuzz.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


class InternalError(Exception):
    """An SJ901: the reader met a bug of ours."""


def _check(diags: object) -> None:
    for d in diags:  # type: ignore[attr-defined]
        if d.code == "SJ901":
            raise InternalError(d.message)


def target(name: str) -> Callable[[bytes], None]:
    if name == "game-sav" or name.startswith("log:"):
        fmt = "game-sav" if name == "game-sav" else name[4:]

        def run_log(data: bytes) -> None:
            from analyzer.io.importers import import_text
            from notation import write
            text: str | bytes = data if fmt == "game-sav" else data.decode("utf-8", "replace")
            records, diags = import_text(fmt, text)
            _check(diags)
            write(records)
        return run_log
    if name in ("gjn", "gjn-json"):
        def run_gjn(data: bytes) -> None:
            from analyzer.games.gouji.analysis import run_engine
            from analyzer.io.inputs import load_game_records
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                return  # the commands stop on bytes that are not UTF-8 (a one-line error)
            records, diags = load_game_records(text, "fuzz.gjn" if name == "gjn" else "fuzz.json", name)
            _check(diags)
            for r in records[:2]:
                _check(run_engine(r).diagnostics)
        return run_gjn
    if name in ("store-manifest", "store-part"):
        return _store(name)
    review = name == "sjn-review"
    if review:
        name = "sjn"
    if name not in ("sjn", "json"):
        raise SystemExit(f"unknown reader {name!r}: sjn, sjn-review, gjn, json, gjn-json, game-sav, log:FORMAT, "
                         f"store-manifest, store-part")

    def run_notation(data: bytes) -> None:
        from notation.detect import read
        from replay.game import replay
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return
        for record, diags in read(text, name):
            _check(diags)
            if record is not None and record.hands:
                result = replay(record)
                _check(result.diagnostics)
                if review:   # the endgame search: where the native core (SHENGJI_NATIVE=1) is used
                    from analyzer.review.mistakes import find_mistakes
                    _check(find_mistakes(record, result))
    return run_notation


def _store(name: str) -> Callable[[bytes], None]:
    """A store of one hand in a temporary directory; each input is its batch manifest
    (``store-manifest``, read by ``store_parts``) or its hands part (``store-part``,
    its size written into the manifest so that DuckDB reads it: every default analysis)."""
    import json
    import tempfile

    from analyzer.store.parquet import export_paths
    from analyzer.store.schema import StoreError
    from analyzer.store.stats import store_parts
    tmp = Path(tempfile.mkdtemp(prefix="shengji-fuzz-"))
    sample = (ROOT / "samples" / "matches" / "standard.sjn").read_text(encoding="utf-8")
    (tmp / "one.sjn").write_text(sample.split("\nhand 2\n")[0] + "\n", encoding="utf-8")
    export_paths([str(tmp / "one.sjn")], str(tmp / "store"))
    manifest = next((tmp / "store" / "_batches").glob("*.json"))
    meta = json.loads(manifest.read_text(encoding="utf-8"))
    entry = meta["parts"]["hands"][0]
    part = tmp / "store" / entry["file"]

    def run_manifest(data: bytes) -> None:
        manifest.write_bytes(data)
        try:
            store_parts(tmp / "store")
        except StoreError:
            pass

    import duckdb

    from analyzer.store.stats import Session, _create_views, checked, queries
    con = duckdb.connect(":memory:", config={"threads": 1})
    session = Session(str(tmp / "store"), con, tmp, False, duckdb)

    def run_part(data: bytes) -> None:
        # what `stats STORE` does with the part (analyzer.store.stats.run), on one in-memory
        # connection kept between inputs: the checks of every part (store_parts), the views made
        # again (each binds its parts: the part's footer is read), then every default analysis.
        # Not made again for each input: the DuckDB database and the locked mode's on-disk
        # catalogue, which do not depend on the part's bytes and cost most of an input's 0.4 s
        part.write_bytes(data)
        entry["bytes"] = len(data)
        manifest.write_text(json.dumps(meta), encoding="utf-8")
        try:
            parts = store_parts(tmp / "store")
            for t in parts:
                con.execute(f"DROP VIEW IF EXISTS {t}")
            try:
                _create_views(con, parts)
            except (duckdb.Error, UnicodeDecodeError):
                return        # open_store: "cannot open the store" (a StoreError)
            for q in checked(session, queries()):
                session.result(q)
        except StoreError:
            pass
    if name == "store-part":
        print(f"seed corpus: {part}", file=sys.stderr)
        return run_part
    return run_manifest


#: the project's own files of each importer's format: the seeds ``--seeds DIR`` writes
SEED_FILES = {
    "log:fly": ["tests/importers/fixtures/fly/*.jsonl", "tests/cli/fixtures/logs/room.jsonl"],
    "log:botzone": ["tests/importers/fixtures/botzone/*.json"],
    "log:shengji-io-chat": ["tests/importers/fixtures/chat/*.txt", "tests/cli/fixtures/logs/chat.txt"],
    "log:shengji-godot": ["tests/importers/fixtures/godot/*"],
    "log:80fen-v2": ["tests/importers/fixtures/80fen/*.json"],
}


def _cut_largest_list(value: object, k: int) -> object:
    """``value`` (JSON) with its longest list (the log's events, a game's rounds…) cut to its first ``k``."""
    import copy
    value = copy.deepcopy(value)
    best: list[object] | None = None
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, list):
            if best is None or len(v) > len(best):
                best = v
            todo.extend(v)
        elif isinstance(v, dict):
            todo.extend(v.values())
    if best is not None:
        del best[k:]
    return value


def write_seeds(name: str, out: Path) -> int:
    """The seeds of ``name``: the project's files of its format as they are, and smaller
    valid versions of them — JSON written compactly and with its longest list cut to 1, 2, 4…
    elements, JSON Lines cut to their first lines — so that libFuzzer (with ``-max_len``)
    works on inputs of a few KB: a whole 33–100 KB log costs 0.1 s an input in the
    importers' JSON reader, too slow for 10,000 inputs."""
    import json
    out.mkdir(parents=True, exist_ok=True)
    n = 0

    def put(data: bytes) -> None:
        nonlocal n
        (out / f"seed-{n:03d}").write_bytes(data)
        n += 1
    for pattern in SEED_FILES.get(name, []):
        for path in sorted(ROOT.glob(pattern)):
            data = path.read_bytes()
            put(data)
            text = data.decode("utf-8", "replace")
            if path.suffix == ".jsonl":
                lines = text.splitlines(keepends=True)
                for k in (5, 20, 60, 150, 400):
                    if k < len(lines):
                        put("".join(lines[:k]).encode())
                continue
            try:
                value = json.loads(text)
            except ValueError:
                continue
            put(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
            for k in (1, 2, 4, 8, 16, 32):
                put(json.dumps(_cut_largest_list(value, k), ensure_ascii=False, separators=(",", ":")).encode())
    return n


def instrumented(name: str) -> tuple[str, ...]:
    """The packages whose code is instrumented for target ``name`` (coverage-guided): its
    reader, and the engine or the store code it runs next (not every package: instrumenting
    a module costs time at start, a minute or more for all of them on a loaded machine)."""
    if name.startswith("log:") or name == "game-sav":
        return ("analyzer.io.importers", "notation", "replay", "primitives")
    if name in ("gjn", "gjn-json"):
        return ("analyzer.games.gouji", "analyzer.io.inputs", "notation", "replay.gouji", "primitives")
    if name.startswith("store-"):
        return ("analyzer.store.stats", "analyzer.store.parquet")
    return ("notation", "replay", "primitives")


def _import_instrumented(packages: tuple[str, ...]) -> None:
    """Import every module of ``packages`` (in the instrumenting block): the importers
    and readers are imported lazily by the code they serve, so importing the packages alone
    left them uninstrumented (no coverage feedback from ``analyzer.io.importers.fly``…)."""
    import importlib
    import pkgutil
    for package in packages:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(getattr(module, "__path__", []), package + "."):
            try:
                importlib.import_module(info.name)
            except Exception:        # an optional extra missing (dask…): not a reader
                pass


def main() -> None:
    try:
        import atheris  # type: ignore[import-not-found]  # optional: pip install atheris
    except ImportError:
        raise SystemExit("atheris is not installed: pip install atheris (an optional fuzzing tool)") from None
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        raise SystemExit(__doc__)
    name = sys.argv.pop(1)
    if len(sys.argv) == 3 and sys.argv[1] == "--seeds":
        print(f"{write_seeds(name, Path(sys.argv[2]))} seeds in {sys.argv[2]}")
        return
    packages = instrumented(name)
    with atheris.instrument_imports(include=list(packages)):
        _import_instrumented(packages)
    run = target(name)
    atheris.Setup(sys.argv, run)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
