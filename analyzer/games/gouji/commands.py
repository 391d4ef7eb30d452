"""The Gouji side of ``replay``, ``report``, ``convert`` and ``generate``: what
the commands of :mod:`analyzer.cli` do with a Gouji input (GJN, or the tool's
JSON of Gouji records), once the registry has told it is one."""

from __future__ import annotations

import json
from typing import Any

import typer

from analyzer.io.echo import PROG, echo_err, fail, wrote
from analyzer.io.errors import UserError
from analyzer.io.inputs import diag_line, reading_errors


def _rules(rules: str | None) -> str | None:
    from analyzer.games.gouji import analysis as gouji
    return rules if gouji.is_gouji_preset(rules) else None


def replay_records(src: Any, file: str, *, game: int | None, record: int | None, rules: str | None) -> None:
    """``replay`` of a GJN file (or the JSON of Gouji records): every game, play by play."""
    from analyzer.games.gouji import analysis as gouji
    from analyzer.games.gouji import render as gouji_render
    from analyzer.io.safetext import styled
    from analyzer.report.console import make_console
    records, diags = src.load()
    for d in diags:
        echo_err(diag_line(file, d))
    bad = reading_errors(diags)
    if not records:
        fail(f"{file}: no record found", 1 if bad else 2)
    chosen = list(enumerate(records, 1))
    if record is not None:
        if record > len(records):
            fail(f"{file} has {len(records)} record(s); there is no record {record}")
        chosen = [(record, records[record - 1])]
    console = make_console()
    for n, (index, rec) in enumerate(chosen):
        if n:
            console.print()
        if len(records) > 1:
            console.print(styled((f"Record {index}", "bold"), f" {rec.tag('Event') or ''}"))
        result = gouji.run_engine(rec, _rules(rules))
        for d in result.diagnostics:
            echo_err(diag_line(file, d))
        try:
            gouji_render.render_replay(console, rec, result, game=game)
        except IndexError as exc:
            fail(str(exc))
    if bad:
        fail(f"{file}: {bad} reading error{'s' if bad != 1 else ''}", 1)


def report_records(src: Any, file: str, fmt: str, output: str | None, *, force: bool, rules: str | None,
                   mistakes: bool) -> None:
    """``report`` of a GJN file (or the JSON of Gouji records): places, score, 够级 plays and burns per game."""
    if mistakes:
        typer.echo(f"{PROG}: the mistake review of Gouji (GJN) records is not available yet; "
                   "--mistakes is ignored", err=True)
    records, diags = src.load()
    bad = reading_errors(diags)
    if not records:
        for d in diags:
            typer.echo(diag_line(file, d), err=True)
        fail(f"{file}: no record found", 1 if bad else 2)
    _write_report(records, diags, file, fmt, output, force, rules)
    if bad:
        # a part could not be read: the report shows where, and the exit status says so (as lint's does)
        typer.echo(f"{PROG}: error: {file}: {bad} reading error{'s' if bad != 1 else ''}", err=True)
        raise typer.Exit(1)


def _write_report(records: list[Any], diags: list[Any], file: str, fmt: str, output: str | None, force: bool,
                  rules: str | None) -> None:
    from analyzer.games.gouji import analysis as gouji
    from analyzer.games.gouji import render as gouji_render
    from analyzer.io.outputs import write_output
    from analyzer.report.console import make_console
    name = "<stdin>" if file == "-" else file
    rep = gouji.build_report([(r, diags if k == 0 else []) for k, r in enumerate(records)], name,
                             rules=_rules(rules))
    if fmt == "html":
        from analyzer.games.gouji.viewer import render_html
        write_output(output, render_html(rep), force=force, inert=True)
    elif fmt == "text":
        if output in (None, "-"):
            gouji_render.render_report(make_console(), rep)
            return
        import io
        buf = io.StringIO()
        gouji_render.render_report(make_console(file=buf, color=False), rep)
        write_output(output, buf.getvalue(), force=force)
    else:
        write_output(output, gouji_render.render(rep, fmt), force=force, inert=True)
    wrote(output)


def convert_file(src: Any, to: str, output: str | None, *, spans: bool, unicode: bool) -> None:
    """``shengji convert`` of Gouji records: GJN or JSON (read whole)."""
    from analyzer.io.outputs import open_output
    text = convert_text(src, to, name=src.path, spans=spans, unicode=unicode)
    with open_output(output, inert=True) as f:
        f.write(text)
    wrote(output)


def convert_text(src: Any, to: str, *, name: str, spans: bool = False, unicode: bool = False) -> str:
    """A Gouji record (GJN, or JSON written from GJN) as ``gjn`` or ``json`` text."""
    from notation import gjn
    if to not in ("gjn", "json"):
        raise UserError(f"{name}: a Gouji record converts to gjn or json, not {to}", 2)
    records, diags = src.load()
    errors = [d for d in diags if d.severity == "error" and d.code.startswith(("SJ1", "SJ9"))]
    for d in diags:
        echo_err(diag_line(name, d))
    if errors:
        raise UserError(f"{name}: not converted: {len(errors)} reading error(s)", 1)
    if not records:
        raise UserError(f"{name}: no record found", 1)
    if to == "gjn":
        try:
            text = gjn.write(records, unicode=unicode)
        except ValueError as exc:
            raise UserError(f"{name}: not converted: {exc}", 1) from None
        return text if text.endswith("\n") else text + "\n"
    dumped = [json.loads(gjn.to_json(r, spans=spans)) for r in records]
    data = dumped[0] if len(dumped) == 1 else dumped
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


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
