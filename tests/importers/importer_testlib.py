"""Shared helpers of the importer tests (a plain module: tests/ has no packages)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from replay.game import replay

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"


def fixture(*parts: str) -> str:
    return (FIXTURES.joinpath(*parts)).read_text(encoding="utf-8")


def codes(diags) -> list[str]:
    return [d.code for d in diags]


def errors(diags) -> list:
    return [d for d in diags if d.severity == "error"]


def lint(record):
    """The engine's verdict on an imported record: its error diagnostics."""
    return [d for d in replay(record).diagnostics if d.severity == "error"]


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based number of the ``nth`` line of ``text`` containing ``needle``."""
    seen = 0
    for no, line in enumerate(text.split("\n"), 1):
        if needle in line:
            seen += 1
            if seen == nth:
                return no
    raise AssertionError(f"{needle!r} not found")


def notation_io():
    """``(write, parse)`` of the notation package, or skip while it is not there yet."""
    notation = importlib.import_module("notation")
    write, parse = getattr(notation, "write", None), getattr(notation, "parse", None)
    if write is None or parse is None:
        pytest.skip("notation.write / notation.parse are not available yet")
    return write, parse


def text_samples() -> dict[str, str]:
    """One clean sample log per text importer of the registry, found by content
    rather than listed: the first fixture file (under ``fixtures/``, sorted by
    path) that detection gives to that format and that imports without an
    error. A new importer needs no entry here, only a fixture of its own
    (tests that a text importer has one: ``test_import_api.py``)."""
    from analyzer.io.importers import detect_format, import_text
    found: dict[str, str] = {}
    for path in sorted(p for p in FIXTURES.rglob("*") if p.is_file()):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        fmt = detect_format(text, path.name)
        if fmt is None or fmt in found:
            continue
        records, diags = import_text(fmt, text)
        if records and not errors(diags):
            found[fmt] = text
    return found
