"""``shengji rule CODE``: what a diagnostic code means, an example and how to fix it
(like ``ruff rule``; the text is :mod:`analyzer.lint.explain`'s, as in docs/diagnostics.md)."""

from typing import Annotated

import typer

from analyzer.cli._core import command
from analyzer.io.echo import usage


@command(epilog="""Examples:

  shengji rule SJ403            what a revoke is, an example, how to fix it

  shengji rule --all            every code

  shengji rule GJ303 --format json""")
def rule(
    code: Annotated[str | None, typer.Argument(metavar="CODE", help="A diagnostic code (SJ403, GJ303 …).")] = None,
    every: Annotated[bool, typer.Option("--all", help="Explain every code.")] = False,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="text|json", help="Output format.")] = "text",
) -> None:
    """Explain a diagnostic code: what it means, an example, and how to fix it."""
    import json
    import sys

    from analyzer.lint.explain import explanation
    from primitives.diagnostics import CODES
    if fmt not in ("text", "json"):
        usage(f"--format {fmt!r}: expected text or json")
    if every == (code is not None):
        usage("give one CODE, or --all")
    codes = list(CODES) if every else [(code or "").strip().upper()]
    for c in codes:
        if c not in CODES:
            near = [k for k in CODES if k[:4] == c[:4]][:5]
            hint = f"; near: {', '.join(near)}" if near else "; 'shengji rule --all' lists them"
            usage(f"unknown code {code!r}{hint}")
    rows = []
    for c in codes:
        info, ex = CODES[c], explanation(c)
        rows.append({"code": c, "name": info.name, "severity": info.severity, "summary": info.summary,
                     "explanation": ex.text if ex else info.summary, "example": ex.example if ex else "",
                     "fix": ex.fix if ex else ""})
    if fmt == "json":
        sys.stdout.write(json.dumps(rows if every else rows[0], indent=2, ensure_ascii=False) + "\n")
        return
    out = []
    for r in rows:
        block = [f"{r['code']} {r['name']} ({r['severity']})", "", r["summary"], "", r["explanation"]]
        if r["example"]:
            block += ["", "Example:", *("    " + ln for ln in r["example"].splitlines())]
        if r["fix"]:
            block += ["", "How to fix:", "    " + r["fix"]]
        block += ["", f"See docs/diagnostics.md#{r['code'].lower()}"]
        out.append("\n".join(block))
    sys.stdout.write(("\n\n" + "-" * 60 + "\n\n").join(out) + "\n")
