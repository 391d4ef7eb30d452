"""``shengji lint --format sarif``: a complete SARIF 2.1.0 log, written as a stream.

One run: the tool (``informationUri``, every rule used with its
``shortDescription``, ``fullDescription``, ``help`` and ``helpUri``), one
invocation (did it succeed, the files that could not be read as
notifications) and one result per finding, with a percent-encoded artifact URI
(RFC 3986: a space, ``#`` or a CJK name are escaped) and a stable fingerprint
(``partialFingerprints``: the same finding in the same file gets the same
value from run to run, whatever lines were added above it).

The results are written in batches of :data:`BATCH` findings: nothing holds
the whole log, so memory stays flat however many findings there are.
``tests/cli/test_sarif.py`` validates the output against the 2.1.0 schema.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:
    from analyzer.lint.findings import Finding

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
#: the project's home and its published docs/ directory when the installed package's
#: metadata does not say (the ``Homepage`` and ``Documentation`` of pyproject's
#: ``[project.urls]``, which a test keeps equal to these)
HOMEPAGE = "https://github.com/shengji-dev/shengji"
DOCUMENTATION = "https://github.com/shengji-dev/shengji/blob/main/docs/"
#: the page of the docs every code's ``helpUri`` points into, at the code's anchor
#: (docs/diagnostics.md, section "Every code explained": ``#### SJ403`` is ``#sj403``)
DIAGNOSTICS_PAGE = "diagnostics.md"
#: the ``partialFingerprints`` key (its version changes if the way it is computed does)
FINGERPRINT = "shengjiFinding/v1"
#: findings encoded at once
BATCH = 2000
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_RESULTS = "\u0000results\u0000"


def uri(path: str) -> str:
    """A finding's path as a SARIF ``artifactLocation.uri``: relative paths as a
    percent-encoded relative reference (``my%20games/a%231.sjn``), absolute ones as
    ``file://`` URIs, standard input as ``stdin``."""
    if path == "-":
        return "stdin"
    p = path.replace(os.sep, "/") if os.sep != "/" else path
    if os.path.isabs(path):
        return "file://" + quote(p if p.startswith("/") else "/" + p, safe="/")
    text = quote(p, safe="/")
    if ":" in text.split("/", 1)[0]:          # a first segment like a:b would read as a scheme
        text = "./" + text
    return text


def project_urls() -> dict[str, str]:
    """The ``[project.urls]`` of the installed package (its ``Project-URL`` metadata),
    with :data:`HOMEPAGE` and :data:`DOCUMENTATION` where it says nothing."""
    urls = {"Homepage": HOMEPAGE, "Documentation": DOCUMENTATION}
    try:
        from importlib.metadata import PackageNotFoundError, metadata
        for entry in metadata("shengji").get_all("Project-URL") or []:
            label, _, url = entry.partition(",")
            if label.strip() in urls and url.strip().startswith(("https://", "http://")):
                urls[label.strip()] = url.strip()
    except (ImportError, PackageNotFoundError, ValueError):
        pass
    return urls


def information_uri() -> str:
    """The tool's home (``tool.driver.informationUri``)."""
    return project_urls()["Homepage"]


def help_uri(code: str, documentation: str | None = None) -> str:
    """A code's ``helpUri``: its anchor in the published docs/diagnostics.md."""
    docs = documentation if documentation is not None else project_urls()["Documentation"]
    return f"{docs.rstrip('/')}/{DIAGNOSTICS_PAGE}#{code.lower()}"


def rule_entry(code: str, documentation: str | None = None) -> dict[str, Any]:
    """``tool.driver.rules[]`` for ``code``: id, name, descriptions, help and its address."""
    from analyzer.lint.explain import explanation
    from primitives.diagnostics import CODES
    info = CODES.get(code)
    rule: dict[str, Any] = {"id": code}
    if info is None:
        return rule
    ex = explanation(code)
    rule.update({
        "name": info.name,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": ex.text if ex else info.summary},
        "helpUri": help_uri(code, documentation),  # (the anchor docs/diagnostics.md gives each code)
        "defaultConfiguration": {"level": LEVEL.get(info.severity, "error")},
    })
    if ex is not None:
        rule["help"] = {"text": ex.help_text(), "markdown": ex.help_markdown()}
    return rule


class Fingerprints:
    """Stable fingerprints: a finding's file, code, message, hand and trick (never its
    line, which moves when lines are added above), and which of the identical ones of
    its file it is. The findings come file by file: only one file's counts are kept."""

    def __init__(self) -> None:
        self.path: str | None = None
        self.seen: dict[str, int] = {}

    def __call__(self, f: Finding) -> str:
        if f.path != self.path:
            self.path = f.path
            self.seen.clear()
        key = "\u0000".join((f.path, f.code, f.message, str(f.hand), str(f.trick)))
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        n = self.seen.get(digest, 0)
        self.seen[digest] = n + 1
        return f"{digest}:{n}"


def result(f: Finding, index: dict[str, int], fingerprint: Fingerprints) -> dict[str, Any]:
    loc: dict[str, Any] = {"artifactLocation": {"uri": uri(f.path)}}
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
                           "level": LEVEL.get(f.severity, "error"),
                           "message": {"text": f.message}, "locations": [{"physicalLocation": loc}],
                           "partialFingerprints": {FINGERPRINT: fingerprint(f)}}
    props = {k: v for k, v in (("hand", f.hand), ("trick", f.trick), ("record", f.record)) if v is not None}
    if props:
        res["properties"] = props
    return res


def write_sarif(findings: Iterable[Finding], out: IO[str], *, codes: Sequence[str], version: str = "0",
                errors: Sequence[str] = (), exit_code: int = 0) -> None:
    """Write the SARIF log of ``findings`` (whose codes are ``codes``) to ``out``.

    ``errors`` are the files that could not be read (notifications of the
    invocation, which then did not succeed)."""
    from analyzer.io.jsonout import dumps
    used = sorted(set(codes))
    urls = project_urls()
    index = {code: i for i, code in enumerate(used)}
    invocation: dict[str, Any] = {"executionSuccessful": exit_code != 2 and not errors, "exitCode": exit_code}
    if errors:
        invocation["toolExecutionNotifications"] = [{"level": "error", "message": {"text": e}} for e in errors]
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "shengji", "version": version,
                                "informationUri": urls["Homepage"],
                                "rules": [rule_entry(c, urls["Documentation"]) for c in used]}},
            "invocations": [invocation],
            "columnKind": "unicodeCodePoints",
            "results": _RESULTS,
        }],
    }
    head = dumps(log)
    marker = dumps(_RESULTS).strip()
    cut = head.index(marker)
    out.write(head[:cut])
    fingerprint = Fingerprints()
    batch: list[dict[str, Any]] = []
    wrote = False
    pad = " " * 6   # the results array sits at depth 3 (runs, its run, results)

    def flush() -> None:
        nonlocal wrote
        text = dumps(batch)            # "[\n  {…},\n  {…}\n]\n"
        inner = text[2:-3].replace("\n", "\n" + pad)
        out.write(("[\n" if not wrote else ",\n") + pad + inner)
        wrote = True
        batch.clear()

    for f in findings:
        batch.append(result(f, index, fingerprint))
        if len(batch) >= BATCH:
            flush()
    if batch:
        flush()
    out.write(("\n" + pad + "]") if wrote else "[]")
    out.write(head[cut + len(marker):])
