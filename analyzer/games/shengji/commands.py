"""The Shengji side of ``replay``, ``report``, ``convert`` and ``generate``: what
the commands of :mod:`analyzer.cli` do with a Shengji input, once the registry
has told it is one (messages and exits by :mod:`analyzer.io.echo`)."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterator
from typing import Any

import typer

from analyzer.io.echo import PROG, echo_err, fail, usage, wrote


def replay_records(src: Any, file: str, *, hand: int | None, trick: int | None, step: bool,
                   record: int | None, rules: str | None) -> None:
    """``shengji replay``: the records, hand by hand, trick by trick."""
    from analyzer.io.inputs import diag_line
    from analyzer.io.safetext import styled
    from analyzer.report.console import make_console
    from analyzer.report.terminal_replay import record_title, render_replay
    from replay.game import replay as run_replay
    console = make_console()
    waiter: Callable[[str], None] | None = None
    if step:
        if sys.stdin.isatty():
            def waiter(prompt: str) -> None:
                shown: Any = styled((prompt, "dim"), " ")    # (Rich takes Text too)
                console.input(shown)
        else:
            def waiter(prompt: str) -> None:
                return None

    reading_errors = 0

    def records() -> Iterator[Any]:
        """The records, one at a time (with ``--record N``: only up to N, unreplayed)."""
        nonlocal reading_errors
        for rec, diags in src.records():
            for d in diags:
                echo_err(diag_line(file, d))
                reading_errors += d.severity == "error" and d.code.startswith(("SJ1", "SJ7", "SJ9"))
            if rec is not None:
                yield rec

    count = 0
    shown = 0
    it = records()
    nxt = next(it, None)
    while nxt is not None:
        rec, nxt = nxt, next(it, None)
        count += 1
        if record is not None and count != record:
            if count > record:
                break
            continue
        if shown:
            console.print()
        if count > 1 or nxt is not None:
            console.print(record_title(rec, count, file))
        shown += 1
        match = run_replay(rec, rules=rules)
        try:
            render_replay(console, rec, match, hand=hand, trick=trick, step=waiter)
        except IndexError as exc:
            fail(str(exc))
        except (KeyboardInterrupt, EOFError):
            raise typer.Exit(130) from None
        if record is not None:
            break
    src.check()
    if not count:
        # reading errors (shown above) are findings: 1, as lint and convert say; an input that held nothing, 2
        fail(f"{file}: no record found", 1 if reading_errors else 2)
    if record is not None and not shown:
        fail(f"{file} has {count} record(s); there is no record {record}")
    if reading_errors:
        # a part could not be read (shown above): 1, as lint, report and convert say
        fail(f"{file}: {reading_errors} reading error{'s' if reading_errors != 1 else ''}", 1)


def report_records(src: Any, file: str, form: str, output: str | None, *, rules: str | None, mistakes: bool,
                   progress: bool, jobs: int = 1) -> None:
    """``shengji report``: the report model of every record, in ``form``; ``jobs``:
    the review's worker processes (``--mistakes``)."""
    from analyzer import lint as L
    from analyzer.io.outputs import open_output
    from analyzer.report.formats import WRITERS
    from analyzer.report.reading import iter_matches
    annotate = None
    bar = None
    if mistakes:
        annotate, bar = _reviewed(L.mistake_hook(L.REVIEW_ENTRY), progress, jobs)
    seen = {"records": 0, "reading_errors": 0}

    def pairs() -> Iterator[tuple[Any, list[Any]]]:
        for rec, diags in src.records():
            seen["reading_errors"] += sum(1 for d in diags if d.severity == "error"
                                          and d.code.startswith(("SJ1", "SJ7", "SJ9")))
            if rec is None:  # what held no record: its diagnostics go on the report
                yield None, diags
            else:
                seen["records"] += 1
                yield rec, diags

    matches = iter(iter_matches(pairs(), rules=rules, annotate=annotate, fmt=form))
    first = next(matches, None)
    src.check()
    if first is None:
        fail(f"{file}: no record found")
    matches = itertools.chain([first], matches)
    name = src.name
    try:
        with open_output(output, inert=form != "text") as out:  # (text: the console escapes)
            WRITERS[form](out, name, matches)
            src.check()
    finally:
        if bar is not None:
            bar.stop()
    wrote(output)
    if seen["reading_errors"]:
        # a part could not be read: the report shows where, and the exit status says so (as lint's does)
        n = seen["reading_errors"]
        echo_err(f"{PROG}: error: {name}: {n} reading error{'s' if n != 1 else ''}"
                 f"{'; no record could be read' if not seen['records'] else ''}")
        raise typer.Exit(1)


def _reviewed(hook: Any, shown: bool, jobs: int = 1) -> tuple[Any, Any]:
    """The mistake review (the slow part of ``report --mistakes``) with its
    progress in hands, in ``jobs`` worker processes: ``(annotate, progress)``."""
    import inspect

    from analyzer.io.progress import Progress
    progress = Progress(f"{PROG} report: reviewing", "hands", enabled=shown)
    params = inspect.signature(hook).parameters if hook is not None else {}
    if hook is None or "on_hand" not in params:
        return hook, None
    more = {"jobs": jobs} if "jobs" in params else {}

    def annotate(record: Any, match: Any) -> Any:
        progress.add_total(len(match.hands))
        return hook(record, match, on_hand=progress.advance, **more)
    return annotate, progress


def convert_file(src: Any, to: str, output: str | None, *, spans: bool, unicode: bool) -> None:
    """``shengji convert`` of Shengji records: SJN or JSON, streamed."""
    from analyzer.io.converting import convert_records
    from analyzer.io.outputs import open_output
    if to not in ("sjn", "json"):
        fail(f"{src.path}: a Shengji record converts to sjn or json, not {to}", 2)
    with open_output(output, spool=True, inert=True) as out:
        convert_records(src, to, out, name=src.path, spans=spans, unicode=unicode, err=echo_err)
    wrote(output)


def generate_match(rules_name: str, hands: int, seed: int, *, players: int | None,
                   games: int | None, bot: str = "plain") -> tuple[str, str, list[str]]:
    """``shengji generate`` of a Shengji preset: ``(SJN text, file name, notes)``;
    ``bot="strong"``: the bots play the last tricks exactly (:class:`analyzer.play.strong.StrongBot`);
    ``bot="view"``: every play from the bot's own view (:class:`analyzer.review.mistakes.rollouts.ViewRollouts`)."""
    from notation import write
    from replay.ruleset import preset
    if games is not None:
        usage(f"--games is for the Gouji presets; a {rules_name} match is counted in hands: use --hands {games}")
    try:
        from analyzer.play import generate as gen
    except ImportError:
        fail("generate is not available: analyzer.play.generate is not installed yet")
    try:
        if players is not None and players != 4 and preset(rules_name).partners != "friends":
            fail(f"--players {players}: the {rules_name} rules have fixed partners (four players); "
                 f"use a finding-friends preset such as shengji-io-friends")
        make_bot = None
        if bot == "strong":
            from analyzer.play.strong import StrongBot
            from analyzer.review.search.endgame import ExactEndgame
            make_bot = StrongBot.factory(ExactEndgame())
        elif bot == "view":
            from analyzer.play.strong import StrongBot
            from analyzer.review.mistakes.rollouts import ALL_TRICKS, ViewRollouts
            make_bot = StrongBot.factory(ViewRollouts(), tricks=ALL_TRICKS)
        elif bot == "review":
            from analyzer.play.review_bot import ReviewBot
            from analyzer.review.mistakes.policy import ReviewChoice
            make_bot = ReviewBot.factory(ReviewChoice())
        record = gen.generate_match(rules_name, hands, seed, players=players, make_bot=make_bot)
        friends_table = preset(rules_name).partners == "friends"
        if make_bot is not None and not friends_table:   # (a record says which bots played it: the seed alone does not replay it)
            from notation.model import Tag
            at = next((i for i, t in enumerate(record.tags) if t.name == "Seed"), len(record.tags) - 1) + 1
            record = record.model_copy(update={"tags": [*record.tags[:at], Tag(name="Bot", value=bot),
                                                        *record.tags[at:]]})
    except getattr(gen, "GenerationError", RuntimeError) as exc:
        fail(f"generation failed: {exc}", 1)
    notes = []
    if bot != "plain" and friends_table:
        notes.append(f"note: --bot {bot} plays as the plain bot at a finding-friends table "
                     f"(it needs fixed partners)")
    played = _played_hands(record)
    if played < hands:
        notes.append(f"note: the match was won after {played} of the {hands} hands asked: "
                     f"the record stops there")
    return write(record), f"{rules_name}-{hands}h-seed{seed}.sjn", notes


def _played_hands(record: Any) -> int:
    """The hands of a generated record that were played (not redealt)."""
    from replay.game import replay
    return sum(1 for h in replay(record).hands if not h.redeal)
