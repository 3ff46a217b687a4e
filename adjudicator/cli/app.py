"""The ``adjudicator`` command's application object and shared conventions.

Exit codes, for scripts: 0 success; 1 the work was done and found a problem (a case
failed, orders have errors, a record does not verify); 2 unusable input or usage.
Results go to stdout, diagnostics to stderr.
"""

from __future__ import annotations

import inspect
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import click
import typer
from typer.core import TyperGroup

from adjudicator import __version__, games

EXIT_OK, EXIT_PROBLEM, EXIT_UNUSABLE = 0, 1, 2


class WholeSentences(TyperGroup):
    """A command group whose commands' help is shown in whole sentences wrapped to the
    terminal: the line breaks of a docstring would otherwise break the lines of the
    help mid-sentence. The list of commands gives each one's first paragraph."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in self.commands.values():
            if command.help:
                command.help = whole_sentences(command.help)
                if command.short_help is None:
                    command.short_help = command.help.split("\n\n")[0]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command named ``cmd_name``, its arguments' help given back (the one
        command about to run or show its help: nothing is done for the others)."""
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            give_arguments_their_help(command)
        return command


def give_arguments_their_help(command: click.Command) -> None:
    """Give each argument of ``command`` the help it was declared with. Click 8.5 sets an
    argument's help after Typer (before 0.25) has set it, to nothing, so that ``--help``
    listed every argument without a word on it."""
    if not command.callback or getattr(command, "_arguments_helped", False):
        return
    declared = None
    for param in command.params:
        if isinstance(param, click.Argument) and not getattr(param, "help", None):
            if declared is None:
                from typer.utils import get_params_from_function

                declared = get_params_from_function(command.callback)
            meta = declared.get(param.name or "")
            param.help = getattr(meta.default, "help", None) if meta is not None else None
    command._arguments_helped = True  # type: ignore[attr-defined]


def whole_sentences(text: str) -> str:
    """``text`` with the line breaks inside each paragraph made spaces (a paragraph of
    list items or indented lines is kept as it is)."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if any(line.startswith((" ", "-", "*", "\b")) for line in p.splitlines())
                       else " ".join(p.split()) for p in paragraphs)


def command_group(**settings: Any) -> typer.Typer:
    """A Typer application (the command or one of its groups) listing whole sentences."""
    return typer.Typer(cls=WholeSentences, no_args_is_help=True, **settings)


app = command_group(
    name="adjudicator",
    help="Play-by-email referee for Russo-Japanese War wargames, with verifiable dice.",
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


def format_option() -> Any:
    """A ``--format`` option: text for a reader, or JSON for a script."""
    return typer.Option(OutputFormat.text, "--format",
                        help="text, lines for reading; or json, one JSON document for scripts.")


def fail(message: str, code: int = EXIT_UNUSABLE) -> typer.Exit:
    """Print ``message`` to stderr and return the Exit to raise."""
    typer.echo(f"adjudicator: {message}", err=True)
    return typer.Exit(code)


GAME_HELP = (f"The game: {', '.join(games.names())}. Left out: the game an orders file names or its folder "
             f"is named after; for new, play and demo, {games.names()[0]}.")


def game_option() -> Optional[str]:
    """A ``--game`` option; its choices come from the game registry."""
    return typer.Option(None, "--game", help=GAME_HELP)


def chosen_game(name: Optional[str], *, text: bytes | str | None = None, path: Optional[Path] = None,
                first_by_default: bool = False) -> str:
    """The game a command is about (see :func:`adjudicator.cli.game_choice.choose_game`);
    else a usage error that lists the games."""
    from adjudicator.cli.game_choice import GameNotChosen, choose_game

    try:
        return choose_game(name, text=text, path=path, first_by_default=first_by_default)
    except GameNotChosen as err:
        raise fail(str(err))


@app.callback(invoke_without_command=True)
def main(version: bool = typer.Option(False, "--version", help="Print the version and exit.")) -> None:
    if version:
        typer.echo(__version__)
        raise typer.Exit(EXIT_OK)
