"""``shengji generate``: legal random matches played by bots (the game of the preset: :meth:`analyzer.games.Game.generate`)."""

from enum import Enum
from typing import Annotated

import typer

from analyzer.cli._core import command
from analyzer.io.echo import echo_err, usage, wrote


class BotKind(str, Enum):
    plain = "plain"
    strong = "strong"
    view = "view"
    review = "review"


@command(epilog="""Examples:

  shengji generate --rules standard --hands 3 --seed 7

  shengji generate --rules one-deck --hands 1 --seed 1 -o games/

  shengji generate --rules shengji-io-friends --players 6 --hands 3 --seed 2

  shengji generate --rules standard --hands 3 --seed 7 --bot strong""")
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
    bot: Annotated[BotKind, typer.Option("--bot", help="The bots: plain (the default); strong: the plain bots "
                                                        "with an exact endgame in the last tricks; view: every "
                                                        "play chosen from the bot's own view, each option played "
                                                        "out on sampled deals (slower); review: every "
                                                        "play the option the review values best from the bot's "
                                                        "own view (slowest: seconds a hand). Shengji presets, "
                                                        "fixed partners.")] = BotKind.plain,
) -> None:
    """Generate a legal random match (bots play every seat)."""
    from analyzer.io.gamekit import by_preset
    from analyzer.io.inputs import check_preset
    game = by_preset(rules_name)
    if game is None:
        check_preset(rules_name)
        return
    extra = {}
    if bot is not BotKind.plain:     # (a game plugin's generate need not know --bot: only asked when given)
        import inspect
        if "bot" not in inspect.signature(game.generate).parameters:
            usage(f"--bot {bot.value}: the {rules_name} rules have one kind of bot")
        extra["bot"] = bot.value
    text, name, notes = game.generate(rules_name, hands, seed, players=players, games=games, **extra)
    _write_match(text, output, name, force)
    for note in notes:
        echo_err(note)


def _write_match(text: str, output: str | None, default_name: str, force: bool) -> None:
    """The generated match's text to ``output`` (a directory: ``default_name`` in it;
    None or ``-``: standard output), ending in a newline; says where it went."""
    from analyzer.io.outputs import output_in_dir, write_output
    if not text.endswith("\n"):
        text += "\n"
    output = output_in_dir(output, default_name)
    write_output(output, text, force=force)
    wrote(output)
