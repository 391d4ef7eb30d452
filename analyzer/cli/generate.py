"""``shengji generate``: legal random matches played by bots (Shengji and Gouji)."""

from typing import Annotated

import typer

from analyzer.cli._core import command, echo_err, fail, usage, wrote


@command(epilog="""Examples:

  shengji generate --rules standard --hands 3 --seed 7

  shengji generate --rules one-deck --hands 1 --seed 1 -o games/

  shengji generate --rules shengji-io-friends --players 6 --hands 3 --seed 2""")
def generate(
    rules_name: Annotated[str, typer.Option("--rules", metavar="PRESET", help="The preset to play by.")] = "standard",
    players: Annotated[int | None, typer.Option("--players", min=4, max=8, metavar="N",
                                                help="Players at the table (4-8), for a finding-friends preset "
                                                     "such as shengji-io-friends; the decks follow the count.")] = None,
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, metavar="N", help="Hands to play.")] = 1,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="S", help="Random seed (the same seed gives the same match).")] = 0,
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="A file, or a directory to write into.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output file.")] = False,
    games: Annotated[int | None, typer.Option("--games", min=1, metavar="N", help="Games to play (Gouji presets; as --hands).")] = None,
) -> None:
    """Generate a legal random match (bots play every seat)."""
    from analyzer.io.inputs import check_preset
    from notation import write
    if rules_name.startswith("gouji"):
        _generate_gouji(rules_name, games or hands, seed, output, force)
        return
    from replay.ruleset import preset
    check_preset(rules_name)
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
        record = gen.generate_match(rules_name, hands, seed, players=players)
    except getattr(gen, "GenerationError", RuntimeError) as exc:
        fail(f"generation failed: {exc}", 1)
    _write_match(write(record), output, f"{rules_name}-{hands}h-seed{seed}.sjn", force)
    played = _played_hands(record)
    if played < hands:
        echo_err(f"note: the match was won after {played} of the {hands} hands asked: "
                 f"the record stops there")


def _played_hands(record) -> int:  # type: ignore[no-untyped-def]  # a notation Record
    """The hands of a generated record that were played (not redealt)."""
    from replay.game import replay
    return sum(1 for h in replay(record).hands if not h.redeal)


def _generate_gouji(rules_name: str, games: int, seed: int, output: str | None, force: bool) -> None:
    """``shengji generate --rules gouji|gouji-bie3|gouji-online``: a GJN match."""
    from analyzer.games.gouji import generate as ggen
    from notation.gjn import write as write_gjn
    from replay.gouji.rules import PRESETS as GOUJI_PRESETS
    if rules_name not in GOUJI_PRESETS:
        usage(f"unknown Gouji preset {rules_name!r}; known: {', '.join(GOUJI_PRESETS)}")
    try:
        record = ggen.generate_match(rules_name, games, seed)
    except ggen.GenerationError as exc:
        fail(f"generation failed: {exc}", 1)
    _write_match(write_gjn(record), output, f"{rules_name}-{games}g-seed{seed}.gjn", force)
    if len(record.games) < games:
        echo_err(f"note: the match ended after {len(record.games)} of the {games} games asked")


def _write_match(text: str, output: str | None, default_name: str, force: bool) -> None:
    """The generated match's text to ``output`` (a directory: ``default_name`` in it;
    None or ``-``: standard output), ending in a newline; says where it went."""
    from analyzer.io.outputs import output_in_dir, write_output
    if not text.endswith("\n"):
        text += "\n"
    output = output_in_dir(output, default_name)
    write_output(output, text, force=force)
    wrote(output)
