"""The output formats of ``shengji lint``: each one a function registered once
with :func:`register` (its name is the ``--format`` value; the order here is
the order ``--help`` lists them in).

A formatter gets the :class:`~analyzer.lint.findings.LintReport` and either
returns the whole text to print (``register``) or writes it to a stream as it
goes (``register_writer``: ``json``, ``jsonl`` and ``sarif`` write in batches of
findings, so their memory does not grow with the output). Either kind has both
``render`` and ``write``. This module is imported when the command line starts:
keep its top-level imports light (import what a formatter needs inside it).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analyzer.lint.findings import FileResult, Finding, LintReport

#: severity → GitHub annotation kind (``primitives.diagnostics`` ERROR, WARNING, INFO)
_GH_KIND = {"error": "error", "warning": "warning", "info": "notice"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass(frozen=True)
class Formatter:
    """One ``--format``: ``render(report, version=…, quiet=…)`` → the text to print, and
    ``write(report, out, version=…, quiet=…)``, which writes that text to ``out``."""

    name: str
    render: Callable[..., str]
    writer: Callable[..., None] | None = None
    #: a format that can be written file by file, as the files are linted (:class:`Stream`)
    stream: type[Stream] | None = None

    def write(self, report: LintReport, out: IO[str], **kwargs: Any) -> None:
        if self.writer is not None:
            self.writer(report, out, **kwargs)
        else:
            out.write(self.render(report, **kwargs))


#: name → formatter, in registration order
FORMATTERS: dict[str, Formatter] = {}


def register(name: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Decorator: register ``render(report, *, version, quiet) -> str`` as format ``name``."""
    def add(render: Callable[..., str]) -> Callable[..., str]:
        if name in FORMATTERS:
            raise ValueError(f"lint format {name!r} is registered twice")
        FORMATTERS[name] = Formatter(name, render)
        return render
    return add


def register_writer(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Decorator: register ``write(report, out, *, version, quiet)`` as format ``name``
    (a format that streams its output)."""
    def add(write: Callable[..., None]) -> Callable[..., None]:
        if name in FORMATTERS:
            raise ValueError(f"lint format {name!r} is registered twice")

        def render(report: LintReport, **kwargs: Any) -> str:
            buf = io.StringIO()
            write(report, buf, **kwargs)
            return buf.getvalue()
        FORMATTERS[name] = Formatter(name, render, write)
        return write
    return add


def formatter(name: str) -> Formatter:
    """The formatter registered as ``name`` (KeyError when there is none)."""
    return FORMATTERS[name]


# -- the formats ----------------------------------------------------------------------------

class Stream:
    """A format written file by file: ``file(result)`` as each file is done (in input
    order), then ``end(report)``. ``shengji lint`` hands the files over as they are
    linted and lets their findings go (:func:`analyzer.lint.lint_paths` ``on_file``),
    so a streamed format's memory does not grow with the findings."""

    def __init__(self, out: IO[str], *, version: str = "0", quiet: bool = False) -> None:
        self.out = out
        self.version = version
        self.quiet = quiet

    def file(self, result: FileResult) -> None:  # pragma: no cover - overridden
        pass

    def end(self, report: LintReport) -> None:
        pass


def register_stream(name: str) -> Callable[[type[Stream]], type[Stream]]:
    """Decorator: register a :class:`Stream` subclass as format ``name``."""
    def add(cls: type[Stream]) -> type[Stream]:
        def write(report: LintReport, out: IO[str], **kwargs: Any) -> None:
            stream = cls(out, **kwargs)
            for result in report.files:
                stream.file(result)
            stream.end(report)
        register_writer(name)(write)
        FORMATTERS[name] = Formatter(name, FORMATTERS[name].render, write, cls)
        return cls
    return add


@register_stream("text")
class _Text(Stream):
    """``path:line:col: CODE message`` per finding, then the summary line (unless ``quiet``)."""

    def file(self, result: FileResult) -> None:
        _write_lines((f.text() for f in result.iter_findings()), self.out)

    def end(self, report: LintReport) -> None:
        if not self.quiet:
            self.out.write(report.summary() + "\n")


@register_stream("json")
class _Json(Stream):
    """A JSON array of the findings (:meth:`Finding.to_dict`): ``to_json`` character for character."""

    wrote = False

    def file(self, result: FileResult) -> None:
        from analyzer.io.jsonout import dumps
        batch: list[dict[str, Any]] = []
        for f in result.iter_findings():
            batch.append(f.to_dict())
            if len(batch) >= BATCH:
                self.out.write(("[\n" if not self.wrote else ",\n") + dumps(batch)[2:-3])
                self.wrote = True
                batch.clear()
        if batch:
            self.out.write(("[\n" if not self.wrote else ",\n") + dumps(batch)[2:-3])
            self.wrote = True

    def end(self, report: LintReport) -> None:
        self.out.write("\n]\n" if self.wrote else "[]\n")


@register_writer("sarif")
def _sarif(report: LintReport, out: IO[str], *, version: str = "0", quiet: bool = False) -> None:
    """A SARIF 2.1.0 log (code scanning), written in batches (:mod:`.sarif`; not streamed:
    its rules, listed before the results, are the codes of every finding)."""
    from analyzer.lint.sarif import write_sarif
    write_sarif(report.iter_findings(), out, codes=report.codes(), version=version, errors=report.errors,
                exit_code=report.exit_code)


@register_stream("github")
class _GitHub(Stream):
    """GitHub Actions workflow commands (annotations on the pull request)."""

    def file(self, result: FileResult) -> None:
        _write_lines(map(_github_line, result.iter_findings()), self.out)


@register_stream("jsonl")
class _JsonLines(Stream):
    """JSON Lines: one finding (:meth:`Finding.to_dict`) per line, compact, as they come."""

    def file(self, result: FileResult) -> None:
        write_jsonl(result.iter_findings(), self.out)


#: findings encoded at once by the formats written in batches
BATCH = 2000


def _write_lines(lines: Iterable[str], out: IO[str]) -> None:
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) >= BATCH:
            out.write("\n".join(batch) + "\n")
            batch.clear()
    if batch:
        out.write("\n".join(batch) + "\n")


def write_json(findings: Iterable[Finding], out: IO[str]) -> None:
    """``to_json(findings)``, character for character, written in batches."""
    from analyzer.io.jsonout import dumps
    batch: list[dict[str, Any]] = []
    wrote = False
    for f in findings:
        batch.append(f.to_dict())
        if len(batch) >= BATCH:
            out.write(("[\n" if not wrote else ",\n") + dumps(batch)[2:-3])
            wrote = True
            batch.clear()
    if batch:
        out.write(("[\n" if not wrote else ",\n") + dumps(batch)[2:-3])
        wrote = True
    out.write("\n]\n" if wrote else "[]\n")


def write_jsonl(findings: Iterable[Finding], out: IO[str]) -> None:
    """One compact JSON object per finding and line."""
    import json
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    lines: list[str] = []
    for f in findings:
        lines.append(encode(f.to_dict()))
        if len(lines) >= BATCH:
            out.write("\n".join(lines) + "\n")
            lines.clear()
    if lines:
        out.write("\n".join(lines) + "\n")


def to_text(findings: Sequence[Finding]) -> str:
    return "".join(f.text() + "\n" for f in findings)


def to_json(findings: Sequence[Finding]) -> str:
    # json.dumps(…, indent=2, ensure_ascii=False) + "\n", faster
    from analyzer.io.jsonout import dumps
    return dumps([f.to_dict() for f in findings])


def to_sarif(findings: Sequence[Finding], *, version: str = "0") -> str:
    """A SARIF 2.1.0 log: one run, the rules used, one result per finding (:mod:`.sarif`)."""
    from analyzer.lint.sarif import write_sarif
    buf = io.StringIO()
    write_sarif(findings, buf, codes=[f.code for f in findings], version=version)
    return buf.getvalue()


def _uri(path: str) -> str:
    if path == "-":
        return "stdin"
    return Path(path).as_posix()


def _gh_escape_data(s: str) -> str:
    """A workflow command's data: control characters (ESC, CR, C1, bidi) shown escaped, as in
    the text format (an Actions log renders ANSI sequences), then GitHub's own escapes."""
    from notation.reader import escape_controls
    return escape_controls(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_escape_prop(s: str) -> str:
    return _gh_escape_data(s).replace(":", "%3A").replace(",", "%2C")


def _github_line(f: Finding) -> str:
    props = [f"file={_gh_escape_prop(_uri(f.path))}"]
    if f.line > 0:
        props.append(f"line={f.line}")
        if f.column > 0:
            props.append(f"col={f.column}")
        if f.end_line > 0:
            props.append(f"endLine={f.end_line}")
            if f.end_column > 0:
                props.append(f"endColumn={f.end_column}")
    props.append(f"title={_gh_escape_prop(f.code)}")
    return f"::{_GH_KIND.get(f.severity, 'error')} {','.join(props)}::{_gh_escape_data(f.code + ' ' + f.message)}"


def to_github(findings: Sequence[Finding]) -> str:
    """GitHub Actions workflow commands: ``::error file=…,line=…,col=…,title=CODE::message``."""
    return "".join(_github_line(f) + "\n" for f in findings)


#: the format names, in registration order
FORMATS = tuple(FORMATTERS)

#: the ``--format`` choices of ``shengji lint`` (one member per registered formatter)
LintFormat = Enum("LintFormat", {name: name for name in FORMATTERS}, type=str)  # type: ignore[misc]  # built from the registry


def statistics(report: LintReport) -> list[tuple[str, str, str, int]]:
    """``(code, name, severity, count)`` per code found, most frequent first (then by code)."""
    counts: dict[str, int] = {}
    names: dict[str, tuple[str, str]] = {}
    for (code, name, severity), n in report.tally().items():
        counts[code] = counts.get(code, 0) + n
        names.setdefault(code, (name, severity))
    return [(code, *names[code], n) for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def write_statistics(report: LintReport, out: IO[str], fmt: str = "text", *, quiet: bool = False) -> None:
    """``--statistics``: a count per code (text: ``  12  SJ403  revoke``, then the summary line;
    json: a list of ``{code, name, severity, count}``; jsonl: one such object per line)."""
    import json
    rows = statistics(report)
    dicts = [{"code": c, "name": n, "severity": s, "count": k} for c, n, s, k in rows]
    if fmt == "json":
        from analyzer.io.jsonout import dumps
        out.write(dumps(dicts))
    elif fmt == "jsonl":
        out.write("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in dicts))
    else:
        width = max((len(str(k)) for *_, k in rows), default=1)
        out.write("".join(f"{k:>{width}}  {c}  {n}\n" for c, n, _, k in rows))
        if not quiet:
            out.write(report.summary() + "\n")
