"""``adjudicator check FILE``: check an orders file offline, as the adjudicator reads it.

The check runs the very code adjudication runs (:func:`adjudicator.orders.check_orders`):
the syntax, the names (against the board and the counter sheet) and every check that
needs no game state. It prints the receipt (the orders in canonical form and their
SHA-256), or every problem found.

Exit codes: 0 the orders are clean; 1 they have errors; 2 the input is unusable (no
such file, not UTF-8 text, too large) or the command was misused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from adjudicator.cli.app import game_option
from adjudicator.cli.check_core import run_check


def check(
    file: Path = typer.Argument(..., help="The orders file to check ('-' reads standard input)."),
    campaign: Optional[str] = typer.Option(
        None, "--campaign", help="The campaign the orders must be for (checks the 'campaign:' line)."
    ),
    format: str = typer.Option("text", "--format", help="text, or json for scripts."),
    game: Optional[str] = game_option(),
    store: Optional[Path] = typer.Option(None, "--store", help="A campaign store: with --campaign, also check "
                                         "the orders against the campaign's current position."),
) -> None:
    """Check an orders file offline: print the receipt, or every error with line and column.
    With --store and --campaign, also check them against the current position."""
    raise typer.Exit(run_check(file, campaign, format, game, store))
