"""What the SJN and GJN writers share: a record's head (its ``;`` comment
lines, tags and header commentaries), an element's ``{ … }`` commentaries and
``;`` comment, and the checks that comment and tag text can be written."""

from __future__ import annotations

import re
from typing import Any, Protocol


class _Commented(Protocol):
    comments: list[str]
    line_comment: str | None


class _Tagged(_Commented, Protocol):
    """What the head of a record holds (SJN's ``Record``, GJN's ``GoujiRecord``)."""

    tags: list[Any]
    header_comments: list[str]


_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*")


def comment_lines(text: str) -> list[str]:
    """A ``;`` comment of one or more lines, as lines."""
    return [f"; {line}" if line else ";" for line in text.split("\n")]


def emit(out: list[str], text: str, node: _Commented | None) -> None:
    """Append ``text`` with the node's commentaries and ``;`` comment."""
    if node is not None:
        for comment in node.comments:
            text += f" {{{comment}}}"
        if node.line_comment is not None:
            lines = comment_lines(node.line_comment)
            out.append(f"{text}  {lines[0]}")
            out.extend(lines[1:])
            return
    out.append(text)


def write_head(out: list[str], record: _Tagged) -> None:
    """The record's ``;`` comment lines, its tags (one a line), its header commentaries."""
    if record.line_comment is not None:
        out.extend(comment_lines(record.line_comment))
    for tag in record.tags:
        value = tag.value.replace("\\", "\\\\").replace('"', '\\"')
        emit(out, f'[{tag.name} "{value}"]', tag)
    for text in record.header_comments:
        out.append(f"{{{text}}}")


# -- what the notation can hold -----------------------------------------------------------------

def text_problems(what: str, text: str, *, commentary: bool) -> list[str]:
    """Why ``text`` (a commentary, or one line of a ``;`` comment) cannot be written."""
    problems = []
    if text != text.strip():
        problems.append(f"{what} has blanks at its ends (they are not kept)")
    if commentary:
        if "{" in text or "}" in text:
            problems.append(f"{what} holds a brace")
        if any(line.lstrip().startswith("[") for line in text.split("\n")[1:]):
            problems.append(f"{what} has a line starting with `[` (it would start a tag section)")
    elif "\n" in text:
        problems.append(f"{what} has a line break")
    return problems


def node_problems(what: str, node: _Commented) -> list[str]:
    """Why the commentaries or the ``;`` comment of ``node`` cannot be written."""
    problems = []
    for c in node.comments:
        problems += text_problems(f"a commentary of {what}", c, commentary=True)
    if node.line_comment is not None:
        for line in node.line_comment.split("\n"):
            problems += text_problems(f"the comment of {what}", line, commentary=False)
    return problems


def head_problems(record: _Tagged, comments_note: str) -> list[str]:
    """Why the head of ``record`` cannot be written; ``comments_note`` is said
    when ``record.comments`` (which the notation has no form for) holds something."""
    problems: list[str] = []
    if record.comments:
        problems.append(comments_note)
    if record.line_comment is not None:
        for line in record.line_comment.split("\n"):
            problems += text_problems("the record's comment", line, commentary=False)
    for c in record.header_comments:
        problems += text_problems("a header commentary", c, commentary=True)
    for tag in record.tags:
        if not _TAG_NAME.fullmatch(tag.name):
            problems.append(f"tag name {tag.name!r} is not a valid name")
        if "\n" in tag.value or "\r" in tag.value:  # \r ends a line too (notation._records.split_lines)
            problems.append(f"tag {tag.name} has a line break in its value")
        problems += node_problems(f"tag {tag.name}", tag)
    return problems
