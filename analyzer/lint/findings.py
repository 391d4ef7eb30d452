"""What linting gives: a :class:`Finding` per diagnostic, per file a
:class:`FileResult`, over all files a :class:`LintReport` (and its summary line).

A file's findings are held in memory up to :data:`SPILL_FINDINGS`; beyond, they
are sorted into runs in a temporary file (:class:`Runs`) and merged back in
position order when read (:meth:`FileResult.iter_findings`), so one huge file
(``lint --mistakes`` on 100,000 hands: some 270,000 findings of ~500
characters) does not hold them all in memory (issue 35)."""

from __future__ import annotations

import heapq
import pickle
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

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


#: a file's findings held in memory before they are sorted into a run on disk
SPILL_FINDINGS = 4096
#: findings pickled together in a run (what a merge holds of each run)
_BLOCK = 32


def _count(findings: Iterable[Finding], into: dict[tuple[str, str, str], int]) -> None:
    for f in findings:
        key = (f.code, f.name, f.severity)
        into[key] = into.get(key, 0) + 1


class Runs:
    """Sorted runs of a file's findings in a temporary file (pickled blocks), with their counts."""

    def __init__(self) -> None:
        self.file: IO[bytes] = tempfile.TemporaryFile()
        self.runs: list[int] = []   # where each run starts
        self.counts: dict[tuple[str, str, str], int] = {}
        self.size = 0

    def add(self, run: list[Finding]) -> None:
        """Keep ``run`` (sorted) as the next run."""
        f = self.file
        f.seek(0, 2)
        self.runs.append(f.tell())
        for k in range(0, len(run), _BLOCK):
            pickle.dump(run[k:k + _BLOCK], f, pickle.HIGHEST_PROTOCOL)
        pickle.dump(None, f)
        _count(run, self.counts)
        self.size += len(run)

    def _run(self, start: int) -> Iterator[Finding]:
        f, pos = self.file, start
        while True:
            f.seek(pos)
            block = pickle.load(f)
            if block is None:
                return
            pos = f.tell()
            yield from block

    def merged(self, tail: list[Finding]) -> Iterator[Finding]:
        """Every run and ``tail`` (sorted), merged in position order (equal keys: in the order they came)."""
        return heapq.merge(*(self._run(start) for start in self.runs), tail, key=Finding.sort_key)

    def close(self) -> None:
        self.file.close()


@dataclass
class FileResult:
    """What linting one file (or stdin) gave."""

    path: str
    #: the findings held in memory (all of them, sorted, unless :attr:`spilled`)
    findings: list[Finding] = field(default_factory=list)
    records: int = 0
    #: an I/O or decoding error: the file could not be read (exit status 2)
    error: str | None = None
    #: findings already written out and let go (a streamed run): ``(code, name, severity)`` → count
    dropped: dict[tuple[str, str, str], int] = field(default_factory=dict)
    #: the findings beyond :data:`SPILL_FINDINGS`, on disk (sorted runs, before :attr:`findings`)
    spilled: Runs | None = field(default=None, repr=False, compare=False)

    def add(self, found: Iterable[Finding]) -> None:
        """More findings (sorted when the file is done: :meth:`sort`); past
        :data:`SPILL_FINDINGS` in memory, the held ones go to disk as a sorted run."""
        self.findings += found
        if len(self.findings) >= SPILL_FINDINGS:
            if self.spilled is None:
                self.spilled = Runs()
            self.findings.sort(key=Finding.sort_key)
            self.spilled.add(self.findings)
            self.findings = []

    def sort(self) -> None:
        """Put the findings in position order (a stable sort: records never overlap
        in lines, but a reader may report a record's trailing diagnostics late)."""
        self.findings.sort(key=Finding.sort_key)

    def iter_findings(self) -> Iterator[Finding]:
        """Every finding, in position order (read back from disk when spilled)."""
        if self.spilled is None:
            return iter(self.findings)
        return self.spilled.merged(self.findings)

    def held(self) -> FileResult:
        """This result with every finding in memory (to send to another process)."""
        if self.spilled is not None:
            self.findings = list(self.iter_findings())
            self.spilled.close()
            self.spilled = None
        return self

    def drop_findings(self) -> None:
        """Let the findings go, keeping their counts (for the summary, the exit status, --statistics)."""
        self.dropped = self.tally()
        self.findings = []
        if self.spilled is not None:
            self.spilled.close()
            self.spilled = None

    def tally(self) -> dict[tuple[str, str, str], int]:
        """``(code, name, severity)`` → count, of the findings held, spilled and dropped."""
        out = dict(self.dropped)
        if self.spilled is not None:
            for key, n in self.spilled.counts.items():
                out[key] = out.get(key, 0) + n
        _count(self.findings, out)
        return out

    def __getstate__(self) -> dict[str, Any]:  # (a worker's result: its findings travel in memory)
        self.held()
        return dict(self.__dict__)


@dataclass
class LintReport:
    """All files, in input order; findings sorted by position within each file."""

    files: list[FileResult] = field(default_factory=list)
    #: path arguments that named nothing (no such file, a glob that matched nothing)
    missing: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return list(self.iter_findings())

    def iter_findings(self) -> Iterator[Finding]:
        """The findings, in order, without building their list."""
        for r in self.files:
            yield from r.iter_findings()

    def codes(self) -> list[str]:
        """The codes found, sorted, each once."""
        return sorted({k[0] for r in self.files for k in r.tally()})

    def tally(self) -> dict[tuple[str, str, str], int]:
        """``(code, name, severity)`` → count over every file (the findings dropped by a streamed run too)."""
        out: dict[tuple[str, str, str], int] = {}
        for r in self.files:
            for key, n in r.tally().items():
                out[key] = out.get(key, 0) + n
        return out

    @property
    def streamed(self) -> bool:
        """Were findings let go after being written (:func:`analyzer.lint.lint_paths` ``on_file``),
        or are some on disk (then counted, not read back)?"""
        return any(r.dropped or r.spilled is not None for r in self.files)

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
            else sum(1 for f in self.iter_findings() if f.severity == severity)

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
