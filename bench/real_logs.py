"""Import and lint every log under a directory: how the importers and the
rules presets fare on other programs' real logs. Prints a table, asserts
nothing, never stops at a file it cannot read.

    python bench/real_logs.py DIR [--details]

For each file (documentation, ``*.md``, is skipped): the format detected from
its content (``shengji import auto``), the hands and plays imported, and the
errors and warnings of the import (positions in the log: unreadable parts,
claims the rules contradict) and of the replay of every imported record under
its platform preset. ``--details`` prints every finding under the table.
A file holding no log of a known format is listed with format ``-``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.io.importers import check_claims, detect_format, import_log
from primitives.diagnostics import CODES
from replay.game import replay

SKIP_SUFFIXES = {".md"}
LIMIT = 64 << 20   # bytes read from one file


def severity(d) -> str:
    if d.severity:
        return d.severity
    info = CODES.get(d.code)
    return getattr(info, "severity", "error") if info is not None else "error"


def examine(path: Path) -> tuple[dict, list[str]]:
    """One row of the table and the findings as text lines."""
    row = {"file": str(path), "format": "-", "hands": 0, "plays": 0, "errors": 0, "warnings": 0}
    lines: list[str] = []
    try:
        with open(path, "rb") as f:
            text = f.read(LIMIT).decode("utf-8", errors="replace")
    except OSError as exc:
        row["format"] = "unreadable"
        row["errors"] = 1
        lines.append(f"{path}: cannot read: {exc.strerror or exc}")
        return row, lines
    try:
        fmt = detect_format(text, str(path))
        if fmt is None:
            lines.append(f"{path}: not a log of a known format")
            return row, lines
        row["format"] = fmt
        res = import_log(fmt, text, source=str(path))
        matches = []
        for rec in res.records:
            try:
                matches.append(replay(rec))
            except Exception as exc:  # an engine bug must not hide the other files
                matches.append(None)
                row["errors"] += 1
                lines.append(f"{path}: the replay failed ({type(exc).__name__}: {exc})")
        diags = list(res.diagnostics) + check_claims(res.records, res.claims,
                                                    [m for m in matches if m is not None]
                                                    if all(m is not None for m in matches) else None)
        for m in matches:
            if m is not None:
                diags.extend(m.diagnostics)
        for rec in res.records:
            row["hands"] += len(rec.hands)
            row["plays"] += sum(len(t.plays) for h in rec.hands for t in h.tricks)
        for d in diags:
            sev = severity(d)
            row["errors" if sev == "error" else "warnings"] += 1
            lines.append(f"{path}:{d.line}:{d.column}: {d.code} [{sev}] {d.message}")
    except Exception as exc:  # the table goes on
        row["errors"] += 1
        lines.append(f"{path}: failed ({type(exc).__name__}: {exc})")
    return row, lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="directory of logs (searched recursively)")
    ap.add_argument("--details", action="store_true", help="print every finding under the table")
    args = ap.parse_args(argv)
    root = Path(args.dir)
    if not root.is_dir():
        print(f"real_logs: {root}: not a directory", file=sys.stderr)
        return 2
    try:
        everything = [p for p in root.rglob("*") if p.is_file()]
    except OSError as exc:      # a directory that cannot be listed
        print(f"real_logs: {root}: {exc}", file=sys.stderr)
        return 2
    files = sorted(p for p in everything if p.suffix.lower() not in SKIP_SUFFIXES)
    skipped = sum(1 for p in everything if p.suffix.lower() in SKIP_SUFFIXES)
    rows, details = [], []
    for p in files:
        row, lines = examine(p)
        row["file"] = str(p.relative_to(root))
        rows.append(row)
        details.extend(lines)
    head = ("file", "format", "hands", "plays", "errors", "warnings")
    width = [max([len(h)] + [len(str(r[h])) for r in rows]) for h in head]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, width)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in width) + "|")
    for r in rows:
        cells = [str(r[h]).ljust(w) if i < 2 else str(r[h]).rjust(w) for i, (h, w) in enumerate(zip(head, width))]
        print("| " + " | ".join(cells) + " |")
    total = {h: sum(r[h] for r in rows) for h in head[2:]}
    print(f"{len(rows)} files ({skipped} documentation files skipped): {total['hands']} hands, "
          f"{total['plays']} plays, {total['errors']} errors, {total['warnings']} warnings")
    if args.details and details:
        print()
        print("\n".join(details))
    return 0


if __name__ == "__main__":
    sys.exit(main())
