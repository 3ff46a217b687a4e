"""Mail commands: receive orders, send reports, remind players, and the demo that runs a
whole campaign through the real pipeline."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from adjudicator.cli import step_core
from adjudicator.cli.app import EXIT_PROBLEM, OutputFormat, app, chosen_game, fail, format_option, game_option
from adjudicator.cli.campaign_cmds import (
    KEY_OPTION,
    NOW_OPTION,
    STORE_OPTION,
    open_store,
    parse_now,
    passphrase_for,
    told_code,
    user_errors,
)
from adjudicator.cli.plain import DEFAULT_OUTBOX, run_told

OUTBOX_OPTION = typer.Option(Path(DEFAULT_OUTBOX), "--outbox", envvar="ADJUDICATOR_OUTBOX",
                             help="Folder for outgoing mail as .eml files. Env: ADJUDICATOR_OUTBOX.")


@app.command()
def receive(
    source: str = typer.Argument(..., help="A Maildir, an mbox file, a folder of .eml files, one .eml file, "
                                 "or '-' for one message on standard input."),
    campaign: Optional[str] = typer.Option(None, help="The campaign for mail whose orders name none."),
    own_address: Optional[str] = typer.Option(None, "--own-address", help="The adjudicator's own address "
                                              "(its mail is ignored)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """Take in orders by mail; answer each with a receipt or every error (queued for 'send')."""
    told_code(run_told(lambda: step_core.receive(source, campaign, own_address, store, key, format.value, sys.stdout,
                                                 sys.stderr, passphrase_for), sys.stderr))


@app.command()
def send(
    campaign: str = typer.Argument(..., help="The campaign whose queued mail to send."),
    outbox: Path = OUTBOX_OPTION,
    mark_sent: bool = typer.Option(False, "--mark-sent", envvar="ADJUDICATOR_MARK_SENT",
                                   help="Without SMTP: record the mail written to the outbox as delivered "
                                   "(you send the .eml files yourself). Env: ADJUDICATOR_MARK_SENT=1."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Send mail queued before the current step too, "
                             "without asking."),
    requeue: bool = typer.Option(False, "--requeue", help="First settle mail that an interrupted 'send' "
                                 "left half-sent, even if its lease looks alive (done by itself when no other "
                                 "'send' runs)."),
    store: Path = STORE_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """Write unsent mail as .eml files to the outbox; send it too when SMTP is configured
    (ADJUDICATOR_SMTP_HOST, _PORT, _SECURITY, _USER, _PASSWORD). Failed mail stays queued.
    Of the mail a killed 'send' left half-sent, what the server had taken is recorded as
    sent and the rest is sent again (same Message-ID).
    Mail queued before the current step is sent only after a confirmation (or --yes)."""
    told_code(run_told(lambda: step_core.send(campaign, outbox, mark_sent, yes, requeue, store, sys.stdout, sys.stderr,
                                              confirm, format.value), sys.stderr))


def confirm(question: str) -> bool:
    """Asked on the terminal; no by default."""
    return typer.confirm(question, default=False, err=True)


@app.command()
def step(
    campaign: str = typer.Argument(..., help="The campaign."),
    source: Optional[str] = typer.Argument(None, help="Mail to take in first (as for 'receive'); none: skip."),
    outbox: Path = OUTBOX_OPTION,
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
    format: OutputFormat = format_option(),
) -> None:
    """One whole step in one command (for cron): receive, adjudicate, send. Exit 1 when
    some mail could not be sent (it stays queued)."""
    told_code(run_told(lambda: step_core.step(campaign, source, outbox, store, key, now, sys.stdout, sys.stderr,
                                              passphrase_for, format.value), sys.stderr))


@app.command()
def remind(
    campaign: str = typer.Argument(..., help="The campaign."),
    hours: float = typer.Option(12.0, help="Remind when the deadline is at most this many hours away."),
    store: Path = STORE_OPTION,
    now: Optional[str] = NOW_OPTION,
    again: bool = typer.Option(False, "--again", help="Send again, at once, each reminder of this step that was "
                               "refused or bounced (once the player's address is right)."),
    format: OutputFormat = format_option(),
) -> None:
    """For cron: queue a reminder to the side the game waits for, once per step."""
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.mailroom import Mailroom

    with user_errors():
        with open_store(store) as opened:
            side = Mailroom(Campaigns(opened), Path("outbox")).remind(campaign, hours, parse_now(now), again=again)
    if format is OutputFormat.json:
        typer.echo(json.dumps({"reminded": side.split(", ") if side else []}))
        return
    typer.echo(f"reminder queued for {side}" if side else "no reminder due")


@app.command()
def demo(
    folder: Path = typer.Argument(Path("demo-campaign"), help="Where the demo's store, mail and record go."),
    seed: int = typer.Option(1905, help="Seed of the automatic players' choices."),
    option: list[str] = typer.Option([], "--option", "-o", help="Campaign option NAME=VALUE (repeatable)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the summary."),
    game: Optional[str] = game_option(),
    tournament: bool = typer.Option(False, "--tournament", help="Instead: a small Swiss tournament of automatic "
                                    "players by email, to the final standings and the dice audit "
                                    "(folder default: demo-tournament)."),
    store: Optional[str] = typer.Option(None, "--store", help="Hold the demo's campaign in this store instead "
                                        "of FOLDER/campaigns.sqlite3: another SQLite file, or a postgresql:// URL."),
) -> None:
    """Play a whole campaign by email between two automatic players:
    orders as emails into a Maildir, receive, adjudicate, reports as .eml, then verify."""
    from adjudicator.campaign.demo import run_demo
    from adjudicator.cli.games_cmds import parse_options

    try:
        options = parse_options(option)
    except ValueError as err:
        raise fail(str(err))
    if tournament:
        from adjudicator.tournament.demo import run_tournament_demo
        from adjudicator.tournament.gameplay import tournament_games

        playable = tournament_games()
        if game is None and len(playable) == 1:
            game = playable[0]   # the one game that can be played as a tournament
        with user_errors():
            event = run_tournament_demo(Path("demo-tournament") if folder == Path("demo-campaign") else folder,
                                        seed, options, progress=None if quiet else typer.echo,
                                        game=chosen_game(game, first_by_default=True))
        typer.echo(event.text)
        raise typer.Exit(0 if event.verified else EXIT_PROBLEM)
    with user_errors():
        summary = run_demo(folder, seed, options, progress=None if quiet else typer.echo,
                           game=chosen_game(game, first_by_default=True), store_location=store)
    typer.echo(summary.text)
    if not summary.verified:
        raise typer.Exit(EXIT_PROBLEM)


def register_check() -> None:
    from adjudicator.cli.check_cmd import check

    app.command("check")(check)


register_check()
