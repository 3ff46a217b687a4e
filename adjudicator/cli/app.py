"""The ``adjudicator`` command's application object and shared conventions.

Exit codes, for scripts: 0 success; 1 the work was done and found a problem (a case
failed, orders have errors, a record does not verify); 2 unusable input or usage.
Results go to stdout, diagnostics to stderr.
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path
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


GAME_HELP = f"The game: {', '.join(games.names())} (may be left out while only one game is installed)."


def game_option() -> Optional[str]:
    """A ``--game`` option; its choices come from the game registry."""
    return typer.Option(None, "--game", help=GAME_HELP)


def chosen_game(name: Optional[str], *, text: bytes | str | None = None, path: Optional[Path] = None,
                first_by_default: bool = False) -> str:
    """The game named with ``--game``; else the one an orders text names in its header
    (``game: tsushima-1905``); else the one a folder on ``path`` is named after
    (``samples/port-arthur/``); else the only game installed; else, with
    ``first_by_default`` (the demo, a simulation), the registry's first game; else a
    usage error that lists the games."""
    if name is not None:
        if name not in games.names():
            raise fail(f"unknown game {name!r}; the games are: {', '.join(games.names())}")
        return name
    inferred = _game_named_in(text) or _game_of_folder(path) or games.only_game()
    if inferred is not None:
        return inferred
    if first_by_default:
        return games.names()[0]
    raise fail(f"say which game with --game: one of {', '.join(games.names())}")


_GAME_LINE = re.compile(r"^[ \t>]*game[ \t]*:?[ \t]*([A-Za-z0-9-]+)", re.IGNORECASE | re.MULTILINE)


def _game_named_in(text: bytes | str | None) -> Optional[str]:
    if text is None:
        return None
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    for found in _GAME_LINE.finditer(text):
        if found.group(1).lower() in games.names():
            return found.group(1).lower()
    return None


def _game_of_folder(path: Optional[Path]) -> Optional[str]:
    if path is None:
        return None
    for folder in Path(path).absolute().parents:
        if folder.name in games.names():
            return folder.name
    return None


@app.callback(invoke_without_command=True)
def main(version: bool = typer.Option(False, "--version", help="Print the version and exit.")) -> None:
    if version:
        typer.echo(__version__)
        raise typer.Exit(EXIT_OK)
