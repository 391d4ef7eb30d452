"""What linting gives: a :class:`Finding` per diagnostic, per file a
:class:`FileResult`, over all files a :class:`LintReport` (and its summary line)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from primitives.diagnostics import ERROR, INFO, WARNING, Diagnostic


@dataclass(frozen=True, slots=True)
class Finding:
    """One diagnostic located in a file (the unit of ``shengji lint`` output)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    severity: str
    message: str
    name: str = ""
    hand: int | None = None
    trick: int | None = None
    #: 1-based index of the record in its file (chunk-independent)
    record: int | None = None

    @classmethod
    def from_diagnostic(cls, d: Diagnostic, path: str, record: int | None = None,
                        fallback_line: int = 0) -> Finding:
        line, col, end_line, end_col = d.line, d.column, d.end_line, d.end_column
        if line <= 0:  # a finding without a position: put it on the record's first line
            line, col, end_line, end_col = fallback_line, 1 if fallback_line else 0, fallback_line, 0
        return cls(path, line, col, end_line, end_col, d.code, d.severity, d.message, d.name,
                   d.hand, d.trick, record)

    def sort_key(self) -> tuple[int, int, str, int, int, str]:
        return (self.line, self.column, self.code, self.end_line, self.end_column, self.message)

    def to_dict(self) -> dict[str, Any]:
        # asdict(self), which copies every value deeply: a third of a JSON output's time
        return {"path": self.path, "line": self.line, "column": self.column, "end_line": self.end_line,
                "end_column": self.end_column, "code": self.code, "severity": self.severity,
                "message": self.message, "name": self.name, "hand": self.hand, "trick": self.trick,
                "record": self.record}

    def text(self) -> str:
        """``path:line:col: CODE message`` (control characters shown escaped)."""
        from notation.reader import escape_controls
        return escape_controls(f"{self.path}:{self.line}:{self.column}: {self.code} {self.message}")


@dataclass
class FileResult:
    """What linting one file (or stdin) gave."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    records: int = 0
    #: an I/O or decoding error: the file could not be read (exit status 2)
    error: str | None = None
    #: findings already written out and let go (a streamed run): ``(code, name, severity)`` → count
    dropped: dict[tuple[str, str, str], int] = field(default_factory=dict)

    def drop_findings(self) -> None:
        """Let the findings go, keeping their counts (for the summary, the exit status, --statistics)."""
        for f in self.findings:
            key = (f.code, f.name, f.severity)
            self.dropped[key] = self.dropped.get(key, 0) + 1
        self.findings = []

    def tally(self) -> dict[tuple[str, str, str], int]:
        """``(code, name, severity)`` → count, of the findings held and dropped."""
        out = dict(self.dropped)
        for f in self.findings:
            key = (f.code, f.name, f.severity)
            out[key] = out.get(key, 0) + 1
        return out


@dataclass
class LintReport:
    """All files, in input order; findings sorted by position within each file."""

    files: list[FileResult] = field(default_factory=list)
    #: path arguments that named nothing (no such file, a glob that matched nothing)
    missing: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.files for f in r.findings]

    def iter_findings(self) -> Iterator[Finding]:
        """The findings, in order, without building their list."""
        for r in self.files:
            yield from r.findings

    def codes(self) -> list[str]:
        """The codes found, sorted, each once."""
        return sorted({f.code for r in self.files for f in r.findings} | {k[0] for r in self.files for k in r.dropped})

    def tally(self) -> dict[tuple[str, str, str], int]:
        """``(code, name, severity)`` → count over every file (the findings dropped by a streamed run too)."""
        out: dict[tuple[str, str, str], int] = {}
        for r in self.files:
            for key, n in r.tally().items():
                out[key] = out.get(key, 0) + n
        return out

    @property
    def streamed(self) -> bool:
        """Were findings let go after being written (:func:`analyzer.lint.lint_paths` ``on_file``)?"""
        return any(r.dropped for r in self.files)

    @property
    def records(self) -> int:
        return sum(r.records for r in self.files)

    @property
    def errors(self) -> list[str]:
        """One line per file that could not be read or path that named nothing."""
        out = [f"{p}: no such file or directory" for p in self.missing]
        out += [f"{r.path}: {r.error}" for r in self.files if r.error]
        return out

    def count(self, severity: str) -> int:
        return sum(n for (_, _, sev), n in self.tally().items() if sev == severity) if self.streamed \
            else sum(1 for f in self.findings if f.severity == severity)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 with an error-severity finding, 2 when something could not be read."""
        if self.errors:
            return 2
        return 1 if self.count(ERROR) else 0

    def summary(self) -> str:
        """``Found 3 errors, 1 warning in 2 files (57 records).`` / ``All checks passed (12 records).``;
        with files that could not be read: ``… 1 file could not be read.`` (never "All checks passed")."""
        unread = len(self.missing) + sum(1 for r in self.files if r.error)
        counts: dict[str, int] | None = None
        if self.streamed:
            counts = {}
            for (_, _, sev), n in self.tally().items():
                counts[sev] = counts.get(sev, 0) + n
        return summary_line(self.findings, sum(1 for r in self.files if not r.error), self.records, unread,
                            counts=counts)


def _plural(n: int, word: str) -> str:
    if word == "info":
        return f"{n} info"
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary_line(findings: Sequence[Finding], files: int, records: int, unread: int = 0, *,
                 counts: dict[str, int] | None = None) -> str:
    """The summary line; ``counts`` (severity → count) stands for ``findings`` when given."""
    recs = _plural(records, "record")
    tally = {ERROR: 0, WARNING: 0, INFO: 0}
    if counts is not None:
        for sev, n in counts.items():
            tally[sev if sev in tally else ERROR] += n
    else:
        for f in findings:
            tally[f.severity if f.severity in tally else ERROR] += 1
    found = sum(tally.values())
    if unread:
        tail = f"; {_plural(unread, 'file')} could not be read."
        if not found:
            return f"No findings in {_plural(files, 'file')} read ({recs}){tail}"
    elif not found:
        return f"All checks passed ({recs})."
    counts = tally
    parts = [_plural(counts[s], s) for s in (ERROR, WARNING, INFO) if counts[s]]
    return f"Found {', '.join(parts)} in {_plural(files, 'file')} ({recs})" + (tail if unread else ".")
