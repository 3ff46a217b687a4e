"""The ``adjudicator`` command's application object and shared conventions.

Exit codes, for scripts: 0 success; 1 the work was done and found a problem (a case
failed, orders have errors, a record does not verify); 2 unusable input or usage.
Results go to stdout, diagnostics to stderr.
"""

from __future__ import annotations

from enum import Enum
from typing import Optional

import typer

from adjudicator import __version__, games

EXIT_OK, EXIT_PROBLEM, EXIT_UNUSABLE = 0, 1, 2

app = typer.Typer(
    name="adjudicator",
    help="Play-by-email referee for Russo-Japanese War wargames, with verifiable dice.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


def fail(message: str, code: int = EXIT_UNUSABLE) -> typer.Exit:
    """Print ``message`` to stderr and return the Exit to raise."""
    typer.echo(f"adjudicator: {message}", err=True)
    return typer.Exit(code)


GAME_HELP = f"The game: {', '.join(games.names())} (default: {games.names()[0]})."


def game_option() -> Optional[str]:
    """A ``--game`` option; its choices come from the game registry."""
    return typer.Option(None, "--game", help=GAME_HELP)


def chosen_game(name: Optional[str]) -> str:
    """The game named with ``--game``; left out, the first game of the registry (Port
    Arthur), so that the commands written before other games were added keep working."""
    if name is None:
        return games.only_game() or games.names()[0]
    if name not in games.names():
        raise fail(f"unknown game {name!r}; the games are: {', '.join(games.names())}")
    return name


@app.callback(invoke_without_command=True)
def main(version: bool = typer.Option(False, "--version", help="Print the version and exit.")) -> None:
    if version:
        typer.echo(__version__)
        raise typer.Exit(EXIT_OK)
