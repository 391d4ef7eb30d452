"""The output formats of ``shengji lint``: each one a function registered once
with :func:`register` (its name is the ``--format`` value; the order here is
the order ``--help`` lists them in).

A formatter gets the :class:`~analyzer.lint.findings.LintReport` and returns
the whole text to print. This module is imported when the command line starts:
keep its top-level imports light (import what a formatter needs inside it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .findings import Finding, LintReport

#: severity → SARIF level / GitHub annotation kind (``replay.diagnostics`` ERROR, WARNING, INFO)
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_GH_KIND = {"error": "error", "warning": "warning", "info": "notice"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass(frozen=True)
class Formatter:
    """One ``--format``: ``render(report, version=…, quiet=…)`` → the text to print."""

    name: str
    render: Callable[..., str]


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


def formatter(name: str) -> Formatter:
    """The formatter registered as ``name`` (KeyError when there is none)."""
    return FORMATTERS[name]


# -- the formats ----------------------------------------------------------------------------

@register("text")
def _text(report: LintReport, *, version: str = "0", quiet: bool = False) -> str:
    """``path:line:col: CODE message`` per finding, then the summary line (unless ``quiet``)."""
    return to_text(report.findings) + ("" if quiet else report.summary() + "\n")


@register("json")
def _json(report: LintReport, *, version: str = "0", quiet: bool = False) -> str:
    """A JSON array of the findings (:meth:`Finding.to_dict`)."""
    return to_json(report.findings)


@register("sarif")
def _sarif(report: LintReport, *, version: str = "0", quiet: bool = False) -> str:
    """A SARIF 2.1.0 log (code scanning)."""
    return to_sarif(report.findings, version=version)


@register("github")
def _github(report: LintReport, *, version: str = "0", quiet: bool = False) -> str:
    """GitHub Actions workflow commands (annotations on the pull request)."""
    return to_github(report.findings)


def to_text(findings: Sequence[Finding]) -> str:
    return "".join(f.text() + "\n" for f in findings)


def to_json(findings: Sequence[Finding]) -> str:
    # json.dumps(…, indent=2, ensure_ascii=False) + "\n", faster
    from ..jsonout import dumps
    return dumps([f.to_dict() for f in findings])


def to_sarif(findings: Sequence[Finding], *, version: str = "0") -> str:
    """A minimal valid SARIF 2.1.0 log: one run, the rules used, one result per finding."""
    import json

    from replay.diagnostics import CODES
    used = sorted({f.code for f in findings})
    index = {code: i for i, code in enumerate(used)}
    rules = []
    for code in used:
        info = CODES.get(code)
        rule: dict[str, Any] = {"id": code}
        if info:
            rule.update({"name": info.name, "shortDescription": {"text": info.summary},
                         "defaultConfiguration": {"level": _SARIF_LEVEL.get(info.severity, "error")}})
        rules.append(rule)
    results = []
    for f in findings:
        loc: dict[str, Any] = {"artifactLocation": {"uri": _uri(f.path)}}
        if f.line > 0:
            region = {"startLine": f.line}
            if f.column > 0:
                region["startColumn"] = f.column
            if f.end_line >= f.line and f.end_line > 0:
                region["endLine"] = f.end_line
                if f.end_column > 0 and (f.end_line > f.line or f.end_column > f.column):
                    region["endColumn"] = f.end_column
            loc["region"] = region
        res: dict[str, Any] = {"ruleId": f.code, "ruleIndex": index[f.code],
                               "level": _SARIF_LEVEL.get(f.severity, "error"),
                               "message": {"text": f.message}, "locations": [{"physicalLocation": loc}]}
        props = {k: v for k, v in (("hand", f.hand), ("trick", f.trick), ("record", f.record)) if v is not None}
        if props:
            res["properties"] = props
        results.append(res)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "shengji", "version": version, "rules": rules}},
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _uri(path: str) -> str:
    if path == "-":
        return "stdin"
    return Path(path).as_posix()


def _gh_escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_escape_prop(s: str) -> str:
    return _gh_escape_data(s).replace(":", "%3A").replace(",", "%2C")


def to_github(findings: Sequence[Finding]) -> str:
    """GitHub Actions workflow commands: ``::error file=…,line=…,col=…,title=CODE::message``."""
    lines = []
    for f in findings:
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
        lines.append(f"::{_GH_KIND.get(f.severity, 'error')} {','.join(props)}::"
                     f"{_gh_escape_data(f.code + ' ' + f.message)}")
    return "".join(line + "\n" for line in lines)


#: the format names, in registration order
FORMATS = tuple(FORMATTERS)

#: the ``--format`` choices of ``shengji lint`` (one member per registered formatter)
LintFormat = Enum("LintFormat", {name: name for name in FORMATTERS}, type=str)  # type: ignore[misc]  # built from the registry
