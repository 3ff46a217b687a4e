"""``adjudicator check FILE``: check an orders file offline, as the adjudicator reads it.

The check runs the very code adjudication runs (:func:`adjudicator.orders.check_orders`):
the syntax, the names (against the board and the counter sheet) and every check that
needs no game state. It prints the receipt (the orders in canonical form and their
SHA-256), or every problem found.

Exit codes: 0 the orders are clean; 1 they have errors; 2 the input is unusable (no
such file, not UTF-8 text, too large) or the command was misused.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from adjudicator.cli.app import chosen_game, game_option

if TYPE_CHECKING:  # the orders reader (lark, the grammar) is imported only when 'check' runs
    from adjudicator.orders import OrdersError

EXIT_OK, EXIT_ERRORS, EXIT_UNUSABLE = 0, 1, 2
FORMATS = ("text", "json")


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
    from adjudicator.orders import OrdersError, check_orders

    if format not in FORMATS:
        _stop(f"--format is one of {', '.join(FORMATS)}, not {format!r}")
    data = _read(file)
    if store is not None and campaign is not None:
        _check_against_campaign(data, store, campaign, format)  # the campaign knows its game
    game = chosen_game(game, text=data, path=None if str(file) == "-" else file)
    try:
        receipt = check_orders(data, game, campaign=campaign)
    except OrdersError as err:
        _print_problems(err, format)
        raise typer.Exit(EXIT_UNUSABLE if err.unusable else EXIT_ERRORS)
    except ValueError as err:  # an unknown game
        _stop(str(err))
    if format == "json":
        typer.echo(json.dumps({"ok": True, **receipt.to_json()}, indent=2))
    else:
        typer.echo(receipt.render())
    raise typer.Exit(EXIT_OK)


def _check_against_campaign(data: bytes, store: Path, campaign: str, format: str) -> None:
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.errors import CampaignError
    from adjudicator.orders import OrdersError
    from adjudicator.store import Store, StoreError

    try:
        with Store.open(store) as opened:
            receipt, problems = Campaigns(opened).check(campaign, data)
    except OrdersError as err:
        _print_problems(err, format)
        raise typer.Exit(EXIT_UNUSABLE if err.unusable else EXIT_ERRORS)
    except (CampaignError, StoreError) as err:
        _stop(str(err))
    if format == "json":
        typer.echo(json.dumps({"ok": not problems, **receipt.to_json(), "position": problems}, indent=2))
    else:
        typer.echo(receipt.render())
        for problem in problems:
            typer.echo(f"Against the current position: {problem}")
    raise typer.Exit(EXIT_ERRORS if problems else EXIT_OK)


def _read(file: Path) -> bytes:
    if str(file) == "-":
        return sys.stdin.buffer.read()
    try:
        return file.read_bytes()
    except FileNotFoundError:
        _stop(f"no such file: {file}")
    except IsADirectoryError:
        _stop(f"{file} is a folder, not an orders file")
    except OSError as err:
        _stop(f"cannot read {file}: {err.strerror or err}")
    raise AssertionError("unreachable")


def _print_problems(err: OrdersError, format: str) -> None:
    if format == "json":
        typer.echo(json.dumps({"ok": False, "problems": [p.to_json() for p in err.problems]}, indent=2))
        return
    count = len(err.problems)
    typer.echo(f"{count} problem{'s' if count != 1 else ''} in the orders:")
    for problem in err.problems:
        typer.echo("")
        typer.echo(problem.render())


def _stop(message: str) -> None:
    typer.echo(f"adjudicator: {message}", err=True)
    raise typer.Exit(EXIT_UNUSABLE)
