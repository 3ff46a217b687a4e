"""What ``adjudicator check`` does, with no command-line library: a player's check of an
orders file runs it directly (:func:`direct`), so that it starts fast; the
Typer command (:mod:`.check_cmd`, for ``--help``) calls :func:`run_check` too.

Exit codes: 0 the orders are clean; 1 they have errors; 2 the input is unusable (no
such file, not UTF-8 text, too large) or the command was misused.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.errors import AdjudicatorError

if TYPE_CHECKING:  # the orders reader (lark, the grammar) is imported only when a check runs
    from adjudicator.orders import OrdersError

EXIT_OK, EXIT_ERRORS, EXIT_UNUSABLE = 0, 1, 2
FORMATS = ("text", "json")


class Unusable(AdjudicatorError):
    """Input or usage the check cannot work with (exit 2; the message says why)."""


def run_check(file: Path, campaign: str | None, format: str, game: str | None, store: Path | None) -> int:
    """Check the orders file; print the receipt or every problem; return the exit code."""
    try:
        return _check(file, campaign, format, game, store)
    except Unusable as err:
        print(f"adjudicator: {err}", file=sys.stderr)
        return EXIT_UNUSABLE


def direct(argv: list[str]) -> int | None:
    """``adjudicator check ARGS`` without loading the rest of the command line; None
    when the arguments are misused (the full command line then says how)."""
    from adjudicator.cli.direct import read_arguments

    args = read_arguments(argv, ["file"], {"--campaign": None, "--format": "text", "--game": None, "--store": None})
    if args is None:
        return None
    store = None if args["store"] is None else Path(args["store"])
    return run_check(Path(args["file"]), args["campaign"], args["format"], args["game"], store)


def _check(file: Path, campaign: str | None, format: str, game: str | None, store: Path | None) -> int:
    from adjudicator.orders import OrdersError, check_orders

    from adjudicator.cli.game_choice import GameNotChosen, choose_game

    if format not in FORMATS:
        raise Unusable(f"--format is one of {', '.join(FORMATS)}, not {format!r}")
    data = _read(file)
    if store is not None and campaign is not None:  # the campaign knows its game
        return _check_against_campaign(data, store, campaign, format)
    try:
        game = choose_game(game, text=data, path=None if str(file) == "-" else file)
    except GameNotChosen as err:
        raise Unusable(str(err)) from None
    try:
        receipt = check_orders(data, game, campaign=campaign)
    except OrdersError as err:
        _print_problems(err, format)
        return EXIT_UNUSABLE if err.unusable else EXIT_ERRORS
    except ValueError as err:  # an unknown game
        raise Unusable(str(err)) from None
    print(json.dumps({"ok": True, **receipt.to_json()}, indent=2) if format == "json" else receipt.render())
    return EXIT_OK


def _check_against_campaign(data: bytes, store: Path, campaign: str, format: str) -> int:
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.errors import CampaignError
    from adjudicator.orders import OrdersError
    from adjudicator.store import Store, StoreError

    try:
        with Store.open(store) as opened:
            receipt, problems = Campaigns(opened).check(campaign, data)
    except OrdersError as err:
        _print_problems(err, format)
        return EXIT_UNUSABLE if err.unusable else EXIT_ERRORS
    except (CampaignError, StoreError) as err:
        raise Unusable(str(err)) from None
    if format == "json":
        print(json.dumps({"ok": not problems, **receipt.to_json(), "position": problems}, indent=2))
    else:
        print(receipt.render())
        for problem in problems:
            print(f"Against the current position: {problem}")
    return EXIT_ERRORS if problems else EXIT_OK


def _read(file: Path) -> bytes:
    if str(file) == "-":
        return sys.stdin.buffer.read()
    try:
        return file.read_bytes()
    except FileNotFoundError:
        raise Unusable(f"no such file: {file}") from None
    except IsADirectoryError:
        raise Unusable(f"{file} is a folder, not an orders file") from None
    except OSError as err:
        raise Unusable(f"cannot read {file}: {err.strerror or err}") from None


def _print_problems(err: OrdersError, format: str) -> None:
    if format == "json":
        print(json.dumps({"ok": False, "problems": [p.to_json() for p in err.problems]}, indent=2))
        return
    count = len(err.problems)
    print(f"{count} problem{'s' if count != 1 else ''} in the orders:")
    for problem in err.problems:
        print("")
        print(problem.render())
