"""The output formats of ``shengji stats``: each one a function registered once
with :func:`register`, writing the results of the analyses (or of ``--sql``)
to the command's output. The order here is the order ``--help`` lists them in;
the first is the default. Imported when the command line starts: keep the
top-level imports light (the formatting itself is in :mod:`analyzer.stats`).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .stats import Result

#: ``write(results, store, output, force)``: the results of ``store`` written to
#: ``output`` (a file, written atomically; None or ``-``: stdout)
Writer = Callable[["list[Result]", str, "str | None", bool], None]

#: name → writer, in registration order
WRITERS: dict[str, Writer] = {}


def register(name: str) -> Callable[[Writer], Writer]:
    """Decorator: register ``write(results, store, output, force)`` as stats format ``name``."""
    def add(write: Writer) -> Writer:
        if name in WRITERS:
            raise ValueError(f"stats format {name!r} is registered twice")
        WRITERS[name] = write
        return write
    return add


def _to_stdout(output: str | None) -> bool:
    return output in (None, "-")


@register("text")
def _text(results: list[Result], store: str, output: str | None, force: bool) -> None:
    """Rich tables (colours on a terminal only)."""
    from . import render
    from .stats import render_tables
    if _to_stdout(output):
        render_tables(render.make_console(), results)
        return
    import io

    from .outputs import write_output
    buf = io.StringIO()
    render_tables(render.make_console(file=buf, color=False), results)
    write_output(output, buf.getvalue(), force=force)


@register("csv")
def _csv(results: list[Result], store: str, output: str | None, force: bool) -> None:
    """CSV: one block per analysis (``# name`` before each when there are several)."""
    from .outputs import write_output
    from .stats import to_csv
    write_output(output, to_csv(results), force=force)


@register("json")
def _json(results: list[Result], store: str, output: str | None, force: bool) -> None:
    """JSON: ``{name: {title, columns, rows}}``."""
    from .outputs import write_output
    from .stats import to_json
    write_output(output, to_json(results), force=force)


@register("html")
def _html(results: list[Result], store: str, output: str | None, force: bool) -> None:
    """One self-contained page: the tables and the attackers' points chart."""
    from .outputs import write_output
    from .stats import to_html
    write_output(output, to_html(results, store), force=force)


#: older names still accepted (``table``: the readable format is ``text`` in every command)
ALIASES = {"table": "text"}

#: the ``--format`` choices of ``shengji stats`` (one member per registered writer, then
#: the aliases, which ``--help`` leaves out)
StatsFormat = Enum("StatsFormat", {name: name for name in [*WRITERS, *ALIASES]}, type=str)  # type: ignore[misc]  # built from the registry
StatsFormat.aliases = ALIASES  # type: ignore[attr-defined]


def canonical(name: str) -> str:
    """The format ``name`` stands for (``table`` → ``text``)."""
    return ALIASES.get(name, name)
