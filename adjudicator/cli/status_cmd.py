"""``adjudicator status``: where a campaign stands, kept free of the command-line library
so that a referee's or a script's look at a campaign starts fast. The Typer command (for
``--help``) and the direct path (:func:`direct`) share :func:`status`.

Exit codes: 0 the status is printed; 1 stored orders have problems; 2 no such store or
campaign, or the command was misused.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from adjudicator.cli.plain import DEFAULT_STORE, EXIT_OK, EXIT_UNUSABLE, FORMATS, told


def status(campaign: str | None, store: Any, format: str, out: TextIO, err: TextIO) -> int:
    """Print where ``campaign`` stands (none: list every campaign); return the exit code.
    ``store`` is a path, or a ``postgresql://`` URL (as a string or a StoreURL)."""
    from adjudicator.store.pg import is_url

    if not is_url(str(store)) and not Path(store).exists():
        print(f"adjudicator: no campaign store at {store}: give --store (or ADJUDICATOR_STORE), "
              "or create a campaign with 'adjudicator new'", file=err)
        return EXIT_UNUSABLE
    try:
        lines = _status_lines(campaign, str(store) if is_url(str(store)) else Path(store), format)
    except Exception as error:  # noqa: BLE001 - told to the user when it is a known failure, else raised
        code = told(error, err)
        if code is None:
            raise
        return code
    for line in lines:
        print(line, file=out)
    return EXIT_OK


def _status_lines(campaign: str | None, store: Any, format: str) -> list[str]:
    from adjudicator.i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES
    from adjudicator.campaign.replacement import stored_tenures, tenure_lines
    from adjudicator.store import Store

    with Store.open(store) as opened:
        if campaign is None:
            rows = [{"campaign": c.id, "game": c.game, "records": c.entry_count} for c in opened.campaigns()]
            if format == "json":
                return [json.dumps(rows, indent=2)]
            return [f"{row['campaign']}\t{row['game']}\t{row['records']} records" for row in rows]
        game, log, deadline, position, on_file = _where_it_stands(opened, campaign)
        meta = opened.campaign(campaign).meta
        away = _absences(meta)
        languages = _languages(meta)
        paused = _pause(opened, campaign)
        from adjudicator.campaign.press import press_status, press_status_lines

        press = press_status(opened, campaign)
        holds = _holds(opened, campaign)
        played = stored_tenures(opened, campaign)
    waiting = position["waiting"]
    info = {"campaign": campaign, "game": game, "turn": position["turn"], "phase": position["phase"],
            "phase_title": position.get("phase_title") or str(position["phase"]).replace("-", " "),
            "next_step": log.next_batch,
            "waiting": None if waiting is None else {"side": waiting["side"], "ask": waiting["ask"],
                                                     **({"sides": waiting["sides"]} if "sides" in waiting else {})},
            "deadline": deadline.isoformat(), "result": position["result"],
            "orders": {side: None if o is None else {"received_at": o.received_at, "sender": o.sender,
                                                     "sha256": o.sha256}
                       for side, o in on_file.items()},
            "away": away, "pause": paused, "press": press, "reminders_not_delivered": holds,
            "tenures": {side: [t.to_json() for t in held] for side, held in played.items()},
            "languages": languages}
    if format == "json":
        return [json.dumps(info, indent=2)]
    lines = [f"{campaign} ({info['game']}): turn {info['turn']}, {info['phase_title']}"
             + ("" if info["result"] else f"; next step {info['next_step']}")]
    if info["result"]:
        lines.append(f"ended: {info['result']}")
    elif waiting is not None:
        if "sides" in waiting:
            lines.append(f"waiting for {' and '.join(waiting['sides'])} at once: {waiting['prompt']}")
        else:
            lines.append(f"waiting for {waiting['side']}: {waiting['prompt']}")
    if not info["result"]:  # (step 1 of a set-up that draws first asks nothing: its deadline still holds)
        lines.append(f"deadline: {info['deadline']}")
        for side, orders in on_file.items():
            lines.append(f"orders for step {log.next_batch} from {side}: "
                         + ("none yet" if orders is None else "on file," + submission(orders)))
    lines += [f"away: {item['side']} from {item['from']} to {item['to']} (UTC)" for item in away]
    if paused["in_force"] is not None:
        held = paused["in_force"]
        lines.append(f"paused until {held['until']} 00:00 UTC (by the {held['by']}, from {held['from']}): "
                     f"{held['reason']}")
    lines += [f"pause asked by {side} until {day}: waits for every side" for side, day in paused["requests"].items()]
    lines += [f"players of {line}" for line in tenure_lines(played)]  # sides given a new player
    lines += [f"mail to {side} in {LANGUAGE_NAMES[language]} (language = {language!r})"
              for side, language in languages.items() if language != DEFAULT_LANGUAGE]
    return lines + press_status_lines(press) + _hold_lines(holds)


def _languages(meta: Any) -> dict[str, str]:
    """The language of each side's mail (players.toml's ``language``, or a player's
    ``language:`` line by mail)."""
    from adjudicator.i18n import language_of

    return {side: language_of(player) for side, player in meta["players"].items()}


def _pause(store: Any, campaign: str) -> dict[str, Any]:
    """The pause in force and the requests waiting (:mod:`adjudicator.campaign.pause`)."""
    from datetime import datetime, timezone

    from adjudicator.campaign.pause import pause_status

    return pause_status(store.entries(campaign, verify=False), store.campaign(campaign).meta,
                        datetime.now(timezone.utc))  # the entries were checked by _where_it_stands


def _hold_lines(holds: list[dict[str, Any]]) -> list[str]:
    """The same, in words."""
    from adjudicator.campaign.delivery import hold_status_lines

    return hold_status_lines(holds)


def _holds(store: Any, campaign: str) -> list[dict[str, Any]]:
    """The sides whose reminder for the open step did not arrive (:mod:`adjudicator.campaign.delivery`)."""
    from adjudicator.campaign.delivery import hold_status

    return hold_status(store.entries(campaign, verify=False), store.campaign(campaign).meta)


def _absences(meta: Any) -> list[dict[str, str]]:
    """The absences not yet over (:mod:`adjudicator.campaign.absence`), earliest first."""
    from datetime import datetime, timezone

    from adjudicator.campaign.absence import absences_to_come

    return [{"side": side, **absence.stored()}
            for side, absence in absences_to_come(meta, datetime.now(timezone.utc).date())]


def _where_it_stands(store: Any, campaign: str) -> tuple[str, Any, Any, dict[str, Any], dict[str, Any]]:
    """The campaign's game, history, step deadline, the game's position (turn, phase,
    result, the question asked) and each side's orders on file for the open step.

    The position comes from the summary the last step kept (no game loaded, nothing
    replayed) while it still holds (:mod:`adjudicator.campaign.summary`), else from
    the game run to where the campaign stands."""
    from adjudicator.campaign.log import read_log
    from adjudicator.campaign.summary import STATUS_SUMMARY, kept_position, position_of, step_deadline

    entries = store.entries(campaign)
    meta = store.campaign(campaign).meta
    log = read_log(campaign, entries)
    game = log.charter["game"]
    position = kept_position(entries, game, store.derived(campaign, STATUS_SUMMARY))
    if position is None:
        from adjudicator.campaign import Campaigns

        position = position_of(Campaigns(store).match(campaign)[1], game)
    on_file = log.orders_for(log.next_batch)
    return game, log, step_deadline(entries, meta), position, {side: on_file.get(side) for side in meta["players"]}


def submission(orders: Any) -> str:
    """Who sent a submission and when (when it came by mail), for 'status' and 'history'."""
    sender = f" from {orders.sender}" if orders.sender else " by hand ('submit')"
    return sender + (f" at {orders.received_at}" if orders.received_at else "")


def direct(argv: list[str]) -> int | None:
    """``adjudicator status ARGS`` without loading the rest of the command line; None
    when the arguments are misused (the full command line then says how, as always)."""
    from adjudicator.cli.direct import read_arguments

    args = read_arguments(argv, ["campaign"], {"--store": os.environ.get("ADJUDICATOR_STORE") or DEFAULT_STORE,
                                               "--format": "text"}, required=0)
    if args is None or args["format"] not in FORMATS:
        return None
    return status(args["campaign"], args["store"], args["format"], sys.stdout, sys.stderr)
