"""Coverage-guided fuzzing of every reader with atheris (issue 35).

``pip install atheris`` (an optional tool, not a dependency of shengji), then::

    python bench/fuzz_atheris.py sjn  -atheris_runs=100000
    python bench/fuzz_atheris.py json -max_len=20000 corpus/json/
    python bench/fuzz_atheris.py log:80fen-v2 -max_total_time=600

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
    from analyzer.store.stats import run, store_parts
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

    def run_part(data: bytes) -> None:
        part.write_bytes(data)
        entry["bytes"] = len(data)
        manifest.write_text(json.dumps(meta), encoding="utf-8")
        try:
            run(tmp / "store")
        except StoreError:
            pass
    if name == "store-part":
        print(f"seed corpus: {part}", file=sys.stderr)
        return run_part
    return run_manifest


def main() -> None:
    try:
        import atheris  # type: ignore[import-not-found]  # optional: pip install atheris
    except ImportError:
        raise SystemExit("atheris is not installed: pip install atheris (an optional fuzzing tool)") from None
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        raise SystemExit(__doc__)
    name = sys.argv.pop(1)
    with atheris.instrument_imports():
        import analyzer.io.importers
        import analyzer.io.inputs
        import analyzer.store.stats  # noqa: F401
        import notation.detect  # noqa: F401
        import replay.game  # noqa: F401
    run = target(name)
    atheris.Setup(sys.argv, run)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
