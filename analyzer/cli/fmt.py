"""``shengji fmt``: canonical SJN / GJN (a thin layer over :mod:`analyzer.io.formatting`)."""

from typing import Annotated

import typer

from analyzer.cli._core import command, exit_if_closed
from analyzer.io.echo import PROG, echo_err, usage


@command(epilog="""Examples:

  shengji fmt match.sjn                 print the canonical form

  shengji fmt games/*.sjn --check       exit 1 if a file would change

  shengji fmt games/*.sjn --write       rewrite the files in place

Files with syntax errors (SJ1xx) are never rewritten: the writer would drop the bad lines.""")
def fmt(
    files: Annotated[list[str], typer.Argument(metavar="FILE", help="SJN or GJN files (- for stdin); directories give every *.sjn and *.gjn below.")],
    check: Annotated[bool, typer.Option("--check", help="Write nothing; exit 1 if a file would change, and list it.")] = False,
    write_back: Annotated[bool, typer.Option("--write", "-w", help="Rewrite the files in place.")] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Print a unified diff instead of the canonical text.")] = False,
    unicode: Annotated[bool, typer.Option("--unicode", help="Write suits as ♠ ♥ ♦ ♣.")] = False,
) -> None:
    """Rewrite records in canonical SJN or GJN (like black)."""
    from analyzer.io.formatting import Unreadable, format_file
    from analyzer.lint import expand_paths
    if check and write_back:
        usage("--check and --write cannot be used together")
    targets, missing = expand_paths(files)
    changed: list[str] = []
    unchanged = 0
    refused = 0
    unread = 0
    for m in missing:
        echo_err(f"{PROG}: error: {m}: no such file or directory")
        unread += 1
    for path, _ in targets:
        try:
            result = format_file(path, unicode=unicode, check=check, diff=diff, write_back=write_back,
                                 err=echo_err)
        except Unreadable as exc:
            if str(exc):
                echo_err(f"{PROG}: error: {exc}")
            unread += 1
            continue
        if result is None:
            refused += 1
        elif result:
            changed.append(path)
        else:
            unchanged += 1
        exit_if_closed(2 if unread else 1 if refused or (check and changed) else 0)
    if check or write_back or diff:
        echo_err_summary(len(changed), unchanged, refused, unread, would=check or diff)
    if unread:
        raise typer.Exit(2)
    if refused or (check and changed):
        raise typer.Exit(1)


def echo_err_summary(changed: int, unchanged: int, refused: int, unread: int, *, would: bool) -> None:
    """``2 files would be reformatted, 1 file would be left unchanged.`` on stderr."""
    verb = "would be reformatted" if would else "reformatted"
    parts = []
    if changed:
        parts.append(f"{changed} file{'s' if changed != 1 else ''} {verb}")
    if unchanged:
        parts.append(f"{unchanged} file{'s' if unchanged != 1 else ''} "
                     f"{'would be left' if would else 'left'} unchanged")
    if refused:
        parts.append(f"{refused} file{'s' if refused != 1 else ''} not formatted (reading errors)")
    if unread:
        parts.append(f"{unread} file{'s' if unread != 1 else ''} could not be read")
    if parts:
        echo_err(", ".join(parts) + ".")
