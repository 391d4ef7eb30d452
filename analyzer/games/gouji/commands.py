"""The Gouji side of ``replay``, ``report``, ``convert`` and ``generate``: what
the commands of :mod:`analyzer.cli` do with a Gouji input (GJN, or the tool's
JSON of Gouji records), once the registry has told it is one."""

from __future__ import annotations

from typing import Any

import typer

from analyzer.io.echo import PROG, echo_err, fail, wrote
from analyzer.io.errors import UserError
from analyzer.io.inputs import diag_line


def _rules(rules: str | None) -> str | None:
    from analyzer.games.gouji import analysis as gouji
    return rules if gouji.is_gouji_preset(rules) else None


def replay_records(src: Any, file: str, *, game: int | None, record: int | None, rules: str | None) -> None:
    """``replay`` of a GJN file (or the JSON of Gouji records): every game, play by play,
    a record at a time (:mod:`analyzer.games.gouji.stream`)."""
    from analyzer.games.gouji import analysis as gouji
    from analyzer.games.gouji import render as gouji_render
    from analyzer.games.gouji import stream
    from analyzer.io.safetext import styled
    from analyzer.report.console import make_console
    reading = stream.Reading()
    console = make_console()
    shown = 0
    several = False
    for index, (rec, diags, last) in enumerate(stream.records_of(src, reading), 1):
        for d in diags:
            echo_err(diag_line(file, d))
        several = several or not last
        if record is not None and index != record:
            continue
        if shown:
            console.print()
        shown += 1
        if several:
            console.print(styled((f"Record {index}", "bold"), f" {rec.tag('Event') or ''}"))
        result = gouji.run_engine(rec, _rules(rules))
        for d in result.diagnostics:
            echo_err(diag_line(file, d))
        try:
            gouji_render.render_replay(console, rec, result, game=game)
        except IndexError as exc:
            fail(str(exc))
    src.check()
    for d in reading.orphans:
        echo_err(diag_line(file, d))
    bad = reading.bad
    if not reading.records:
        fail(f"{file}: no record found", 1 if bad else 2)
    if record is not None and record > reading.records:
        fail(f"{file} has {reading.records} record(s); there is no record {record}")
    if bad:
        fail(f"{file}: {bad} reading error{'s' if bad != 1 else ''}", 1)


def report_records(src: Any, file: str, fmt: str, output: str | None, *, force: bool, rules: str | None,
                   mistakes: bool) -> None:
    """``report`` of a GJN file (or the JSON of Gouji records): places, score, 够级 plays and burns
    per game, a record at a time (:mod:`analyzer.games.gouji.stream`)."""
    from analyzer.games.gouji import stream
    from analyzer.games.gouji.analysis import SCHEMA
    from analyzer.io.outputs import check_output, open_output
    from analyzer.report.console import make_console
    if mistakes:
        typer.echo(f"{PROG}: the mistake review of Gouji (GJN) records is not available yet; "
                   "--mistakes is ignored", err=True)
    if fmt not in ("text", "md", "json", "html"):
        raise ValueError(f"the Gouji report has no {fmt!r} format (text, md, json, html)")
    name = "<stdin>" if file == "-" else file
    reading = stream.Reading()
    matches = stream.matches_of(src, reading, path=name, rules=_rules(rules))
    first = next(matches, None)
    if first is None:
        src.check()
        for d in reading.orphans:
            typer.echo(diag_line(file, d), err=True)
        fail(f"{file}: no record found", 1 if reading.bad else 2)

    def each() -> Any:
        yield first
        yield from matches
    head = {"schema": SCHEMA, "game": "gouji", "path": name}
    if fmt == "text" and output in (None, "-"):
        stream.write_text(make_console(), each())
        src.check()
    else:
        check_output(output, force=force)
        # (on stdout the page or document waits in a temporary file: nothing is printed
        # when a later stretch of the file cannot be read)
        with open_output(output, spool=True, inert=fmt != "text") as f:
            if fmt == "text":
                stream.write_text(make_console(file=f, color=False), each())
            elif fmt == "md":
                stream.write_markdown(f, each())
            elif fmt == "json":
                stream.write_json_report(f, head, each())
            else:
                stream.write_html(f, head, each())
            src.check()  # (an unreadable stretch: the output file is not written)
        wrote(output)
    if reading.bad:
        # a part could not be read: the report shows where, and the exit status says so (as lint's does)
        echo_err(f"{PROG}: error: {file}: {reading.bad} reading error{'s' if reading.bad != 1 else ''}")
        raise typer.Exit(1)


def convert_file(src: Any, to: str, output: str | None, *, spans: bool, unicode: bool) -> None:
    """``shengji convert`` of Gouji records (GJN or JSON) to ``gjn`` or ``json``, a record at a
    time; nothing is written when a part of the file could not be read (the output
    waits in a temporary file)."""
    from analyzer.games.gouji import stream
    from analyzer.io.outputs import Discard, open_output
    name = src.path
    if to not in ("gjn", "json"):
        raise UserError(f"{name}: a Gouji record converts to gjn or json, not {to}", 2)
    errors = 0

    def records() -> Any:
        nonlocal errors
        for record, diags, last in stream.records_of(src, reading):
            for d in diags:
                echo_err(diag_line(name, d))
                if d.severity == "error" and d.code.startswith(("SJ1", "SJ9")):
                    errors += 1
            yield record, diags, last
        for d in reading.orphans:
            echo_err(diag_line(name, d))
            if d.severity == "error" and d.code.startswith(("SJ1", "SJ9")):
                errors += 1
    reading = stream.Reading()
    problem: str | None = None
    try:
        with open_output(output, spool=True, inert=True) as f:
            read = records()
            try:
                stream.write_converted(f, read, to, spans=spans, unicode=unicode)
            except ValueError as exc:
                problem = f"{name}: not converted: {exc}"
            for _ in read:  # (the rest of the file read: its reading errors count)
                pass
            src.check()
            if problem is not None or errors or not reading.records:
                raise Discard
    except Discard:
        if problem is not None and not errors:
            raise UserError(problem, 1) from None
        if errors:
            raise UserError(f"{name}: not converted: {errors} reading error(s)", 1) from None
        raise UserError(f"{name}: no record found", 1) from None
    wrote(output)


def generate_match(rules_name: str, games: int, seed: int) -> tuple[str, str, list[str]]:
    """``shengji generate --rules gouji|gouji-bie3|gouji-online``: ``(GJN text, file name, notes)``."""
    from analyzer.games.gouji import generate as ggen
    from notation.gjn import write as write_gjn
    try:
        record = ggen.generate_match(rules_name, games, seed)
    except ggen.GenerationError as exc:
        fail(f"generation failed: {exc}", 1)
    notes = []
    if len(record.games) < games:
        notes.append(f"note: the match ended after {len(record.games)} of the {games} games asked")
    return write_gjn(record), f"{rules_name}-{games}g-seed{seed}.gjn", notes
