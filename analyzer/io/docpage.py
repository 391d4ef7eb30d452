"""A docs page with a generated section between two marker lines: the one
place that cuts the page and puts the section in (``analyzer.lint.explain``
and ``analyzer.review.mistakes.docs`` generate theirs)."""

from __future__ import annotations


def with_section(text: str, start: str, end: str, section: str) -> str:
    """``text`` with what stands between ``start`` and ``end`` replaced by ``section``."""
    if start not in text or end not in text:
        raise ValueError(f"the page has no {start} … {end} section")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return head + start + section + end + tail
