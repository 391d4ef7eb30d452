"""Coverage-guided fuzzing of every reader with atheris (issue 35).

``pip install atheris`` (an optional tool, not a dependency of shengji), then::

    python bench/fuzz_atheris.py sjn  -atheris_runs=100000
    python bench/fuzz_atheris.py json -max_len=20000 corpus/json/
    python bench/fuzz_atheris.py log:80fen-v2 -max_total_time=600
    python bench/fuzz_atheris.py log:fly --seeds seeds/fly    # the seeds: the project's files, cut small
    python bench/fuzz_atheris.py log:fly -max_len=8192 -atheris_runs=10001 seeds/fly
    python bench/fuzz_atheris.py store-part --seeds seeds/store-part   # parts of 13-17 KB:
    python bench/fuzz_atheris.py store-part -max_len=20000 -atheris_runs=10001 seeds/store-part

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


def _compact(value: object) -> bytes:
    import json
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _shrink_to(value: object, budget: int) -> object:
    """``value`` (JSON) with the list that holds the most bytes halved, again and again, until
    it is written in ``budget`` bytes or no list has two elements: a log of many rounds becomes
    its first round with its first tricks (the godot log's longest list by count is a hand of
    33 cards; its rounds and tricks are what make it 35 KB)."""
    import copy
    value = copy.deepcopy(value)
    while len(_compact(value)) > budget:
        best: list[object] | None = None
        size = 0
        todo = [value]
        while todo:
            v = todo.pop()
            if isinstance(v, list):
                n = len(_compact(v))
                if len(v) > 1 and n > size:
                    best, size = v, n
                todo.extend(v)
            elif isinstance(v, dict):
                todo.extend(v.values())
        if best is None:
            break
        del best[(len(best) + 1) // 2:]
    return value


def _cut_html(text: str, k: int) -> str:
    """A shengji-godot HTML report cut to its first round (``<section>``) and that round's first
    ``k`` tricks, without the hand snapshots after each trick (the importer does not read them)."""
    import re
    sections = [m.start() for m in re.finditer(r"<section\b", text)]
    if len(sections) > 1:
        text = text[:sections[1]] + "</main>\n</body>\n</html>\n"
    text = re.sub(r'<div class="hand-snapshots">.*?</details>\s*</div>\s*(?=</details>)', "", text, flags=re.S)
    tricks = [m.start() for m in re.finditer(r'<details class="trick-card"', text)]
    if len(tricks) > k:
        close = text.find("</section>", tricks[k])
        close = len(text) if close < 0 else close
        last = text.rfind("</details>", tricks[k], close)
        text = text[:tricks[k]] + text[last + len("</details>"):]
    return text


def _store_part_seeds(put: Callable[[bytes], None]) -> None:
    """The hands part of a store of one hand (the part ``store-part`` starts from) and of
    stores of a whole sample match (3 hands) of several rule sets."""
    import tempfile

    import pyarrow.parquet as pq

    from analyzer.store.parquet import export_paths
    tmp = Path(tempfile.mkdtemp(prefix="shengji-fuzz-seeds-"))
    sample = (ROOT / "samples" / "matches" / "standard.sjn").read_text(encoding="utf-8")
    (tmp / "one.sjn").write_text(sample.split("\nhand 2\n")[0] + "\n", encoding="utf-8")
    inputs = [tmp / "one.sjn"] + [ROOT / "samples" / "matches" / f"{m}.sjn"
                                  for m in ("standard", "one-deck", "shengji-io-friends", "titanic")]
    for i, path in enumerate(inputs):
        export_paths([str(path)], str(tmp / f"store{i}"))
        for part in sorted((tmp / f"store{i}" / "hands").glob("*/*.parquet")):
            put(part.read_bytes())
            # the same rows written without compression or dictionaries: a mutation of a data
            # page then changes the values the analyses read, not zstd's compressed bytes
            plain = tmp / f"plain{i}.parquet"
            pq.write_table(pq.read_table(part), plain, compression="NONE", use_dictionary=False,
                           write_statistics=False)
            put(plain.read_bytes())


def write_seeds(name: str, out: Path) -> int:
    """The seeds of ``name``: the project's files of its format as they are, and smaller
    valid versions of them — JSON written compactly, with its longest list cut to 1, 2, 4…
    elements and shrunk to 1, 2, 4 and 8 KB (:func:`_shrink_to`), JSON Lines cut to their
    first lines, an HTML report cut to its first round's first tricks — so that libFuzzer
    (with ``-max_len``) works on inputs of a few KB: a whole 33–100 KB log costs 0.1 s an
    input in the importers' JSON reader, too slow for 10,000 inputs, and ``-max_len`` cuts a
    longer seed at that length (no longer valid JSON). The same bytes are written once."""
    import json
    out.mkdir(parents=True, exist_ok=True)
    seen: set[bytes] = set()

    def put(data: bytes) -> None:
        if data not in seen:
            (out / f"seed-{len(seen):03d}").write_bytes(data)
            seen.add(data)
    if name == "store-part":
        _store_part_seeds(put)
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
            if path.suffix == ".html":
                for k in (1, 2, 4, 8):
                    put(_cut_html(text, k).encode())
                continue
            try:
                value = json.loads(text)
            except ValueError:
                continue
            put(_compact(value))
            for k in (1, 2, 4, 8, 16, 32):
                put(_compact(_cut_largest_list(value, k)))
            for budget in (1024, 2048, 4096, 8192):
                put(_compact(_shrink_to(value, budget)))
    return len(seen)


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
