"""The mistake rules' documentation, generated from their docstrings into
docs/diagnostics.md (between ``<!-- rules:start -->`` and ``<!-- rules:end -->``).

    python -m analyzer.review.mistakes.docs            rewrite the section
    python -m analyzer.review.mistakes.docs --check    exit 1 when it is out of date

tests/mistakes/test_rules_docs.py fails when the page and the docstrings disagree.
"""

from __future__ import annotations

import sys
from pathlib import Path

START, END = "<!-- rules:start -->", "<!-- rules:end -->"
PAGE = Path(__file__).resolve().parents[3] / "docs" / "diagnostics.md"


def rules_section() -> str:
    """One ``####`` section per registered rule: code, name, summary, then its docstring."""
    from analyzer.review.mistakes import RULES
    parts = []
    for code, r in RULES.items():
        parts.append(f"#### {code} {r.name}\n\n*{r.summary()}*\n\n{r.doc()}\n")
    return "\n" + "\n".join(parts)


def render(text: str) -> str:
    """``text`` (the page) with its generated section up to date."""
    from analyzer.io.docpage import with_section
    return with_section(text, START, END, rules_section())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    old = PAGE.read_text(encoding="utf-8")
    new = render(old)
    if "--check" in args:
        if new != old:
            print(f"{PAGE}: the mistake rules' section is out of date; run python -m analyzer.review.mistakes.docs",
                  file=sys.stderr)
            return 1
        return 0
    if new != old:
        from analyzer.io.atomic import write_text_atomic
        write_text_atomic(str(PAGE), new)
        print(f"rewrote {PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
