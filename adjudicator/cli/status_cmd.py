"""``adjudicator status``: where a campaign stands, kept free of the command-line library
so that a referee's or a script's look at a campaign starts fast. The Typer command (for
``--help``) and the direct path (argparse, :func:`direct`) share :func:`status`.

Exit codes: 0 the status is printed; 1 stored orders have problems; 2 no such store or
campaign, or the command was misused.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

EXIT_OK, EXIT_PROBLEM, EXIT_UNUSABLE = 0, 1, 2
DEFAULT_STORE = "adjudicator.sqlite3"
FORMATS = ("text", "json")


def status(campaign: str | None, store: Any, format: str, out: TextIO, err: TextIO) -> int:
    """Print where ``campaign`` stands (none: list every campaign); return the exit code.
    ``store`` is a path, or a ``postgresql://`` URL (as a string or a StoreURL)."""
    from adjudicator.store.pg import is_url

    if not is_url(str(store)) and not Path(store).exists():
        print(f"adjudicator: no campaign store at {store}: give --store (or ADJUDICATOR_STORE), "
              "or create a campaign with 'adjudicator new'", file=err)
        return EXIT_UNUSABLE
    from adjudicator.campaign.errors import CampaignError
    from adjudicator.engine.errors import EngineError
    from adjudicator.fairdice import FairDiceError
    from adjudicator.orders import OrdersError
    from adjudicator.store import StoreError

    try:
        lines = _status_lines(campaign, str(store) if is_url(str(store)) else Path(store), format)
    except OrdersError as error:
        for problem in error.problems:
            print(problem.render(), file=err)
        return EXIT_PROBLEM
    except (CampaignError, StoreError, FairDiceError, EngineError, OSError) as error:
        print(f"adjudicator: {error}", file=err)
        return EXIT_UNUSABLE
    except ValueError as error:
        print(f"adjudicator: unreadable input: {error}", file=err)
        return EXIT_UNUSABLE
    for line in lines:
        print(line, file=out)
    return EXIT_OK


def _status_lines(campaign: str | None, store: Any, format: str) -> list[str]:
    from adjudicator.campaign import Campaigns
    from adjudicator.store import Store

    with Store.open(store) as opened:
        campaigns = Campaigns(opened)
        if campaign is None:
            rows = [{"campaign": c.id, "game": c.game, "records": c.entry_count} for c in opened.campaigns()]
            if format == "json":
                return [json.dumps(rows, indent=2)]
            return [f"{row['campaign']}\t{row['game']}\t{row['records']} records" for row in rows]
        log, match = campaigns.match(campaign)
        deadline = campaigns.deadline(campaign)
        on_file = campaigns.orders_on_file(campaign)
    state = match.state
    decision = match.decision
    info = {"campaign": campaign, "game": log.charter["game"], "turn": getattr(state, "turn", None),
            "phase": getattr(state, "phase", None), "next_step": log.next_batch,
            "waiting": None if decision is None else {"side": decision.side, "ask": decision.kind},
            "deadline": deadline.isoformat(), "result": getattr(state, "result", None),
            "orders": {side: None if o is None else {"received_at": o.received_at, "sender": o.sender,
                                                     "sha256": o.sha256}
                       for side, o in on_file.items()}}
    if format == "json":
        return [json.dumps(info, indent=2)]
    lines = [f"{campaign} ({info['game']}): turn {info['turn']}, {info['phase']}; next step {info['next_step']}"]
    if info["result"]:
        lines.append(f"ended: {info['result']}")
    elif decision is not None:
        lines.append(f"waiting for {decision.side}: {decision.prompt}")
        lines.append(f"deadline: {info['deadline']}")
    if not info["result"]:
        for side, orders in on_file.items():
            lines.append(f"orders for step {log.next_batch} from {side}: "
                         + ("none yet" if orders is None else "on file," + submission(orders)))
    return lines


def submission(orders: Any) -> str:
    """Who sent a submission and when (when it came by mail), for 'status' and 'history'."""
    sender = f" from {orders.sender}" if orders.sender else " by hand ('submit')"
    return sender + (f" at {orders.received_at}" if orders.received_at else "")


class _Misused(Exception):
    """Arguments the direct path does not take: the full command line answers them."""


class _Arguments(argparse.ArgumentParser):
    def error(self, message: str):
        raise _Misused(message)


def direct(argv: list[str]) -> int | None:
    """``adjudicator status ARGS`` without loading the rest of the command line; None
    when the arguments are misused (the full command line then says how, as always)."""
    parser = _Arguments(prog="adjudicator status", add_help=False, allow_abbrev=False)
    parser.add_argument("campaign", nargs="?")
    parser.add_argument("--store", default=os.environ.get("ADJUDICATOR_STORE") or DEFAULT_STORE)
    parser.add_argument("--format", choices=FORMATS, default="text")
    try:
        args = parser.parse_args(argv)
    except _Misused:
        return None
    return status(args.campaign, args.store, args.format, sys.stdout, sys.stderr)
