"""Mail commands: receive orders, send reports, remind players, and the demo that runs a
whole campaign through the real pipeline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from adjudicator.cli.app import EXIT_PROBLEM, OutputFormat, app, chosen_game, fail, game_option
from adjudicator.cli.campaign_cmds import KEY_OPTION, NOW_OPTION, STORE_OPTION, load_key, open_store, parse_now, user_errors

OUTBOX_OPTION = typer.Option(Path("outbox"), "--outbox", envvar="ADJUDICATOR_OUTBOX",
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
    format: OutputFormat = typer.Option(OutputFormat.text, "--format"),
) -> None:
    """Take in orders by mail; answer each with a receipt or every error (queued for 'send')."""
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.mail import MailError

    with user_errors():
        private = load_key(key)
        with open_store(store) as opened:
            try:
                taken = Mailroom(Campaigns(opened), Path("outbox")).receive(source, private, campaign, own_address)
            except MailError as err:
                raise fail(str(err))
    if format is OutputFormat.json:
        typer.echo(json.dumps([t.__dict__ for t in taken], indent=2))
        return
    for item in taken:
        typer.echo(f"{item.outcome:<9} {item.campaign or '-':<16} {item.origin}: {item.detail}")
    counts = {o: sum(t.outcome == o for t in taken) for o in ("accepted", "refused", "duplicate", "ignored")}
    typer.echo(", ".join(f"{n} {o}" for o, n in counts.items()), err=True)


@app.command()
def send(
    campaign: str = typer.Argument(..., help="The campaign whose queued mail to send."),
    outbox: Path = OUTBOX_OPTION,
    mark_sent: bool = typer.Option(False, "--mark-sent", envvar="ADJUDICATOR_MARK_SENT",
                                   help="Without SMTP: record the mail written to the outbox as delivered "
                                   "(you send the .eml files yourself). Env: ADJUDICATOR_MARK_SENT=1."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Send mail queued before the current step too, "
                             "without asking."),
    requeue: bool = typer.Option(False, "--requeue", help="First put back mail that an interrupted 'send' "
                                 "left half-sent (done by itself when no other 'send' runs)."),
    store: Path = STORE_OPTION,
) -> None:
    """Write unsent mail as .eml files to the outbox; send it too when SMTP is configured
    (ADJUDICATOR_SMTP_HOST, _PORT, _SECURITY, _USER, _PASSWORD). Failed mail stays queued;
    mail a killed 'send' left half-sent is sent again (at least once, same Message-ID).
    Mail queued before the current step is sent only after a confirmation (or --yes)."""
    import os
    import sys

    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.mail import MailError, SmtpSettings

    with user_errors():
        try:
            smtp = SmtpSettings.from_env() if os.environ.get("ADJUDICATOR_SMTP_HOST") else None
        except MailError as err:
            raise fail(str(err))
        with open_store(store) as opened:
            mailroom = Mailroom(Campaigns(opened), outbox)
            if requeue:
                typer.echo(f"{mailroom.requeue_interrupted(campaign)} half-sent message(s) queued again", err=True)
            hold = mailroom.backlog(campaign) if (smtp or mark_sent) and not yes else []
            if hold and sys.stdin.isatty() and typer.confirm(
                    f"{len(hold)} message(s) were queued before the current step (older receipts or "
                    "reports never sent). Send them too?", default=False, err=True):
                hold = []
            files, sent, failures = mailroom.send(campaign, smtp, mark_sent=mark_sent, hold=hold)
    done = (f"{sent} sent by SMTP ({smtp.describe()})" if smtp else
            f"{sent} marked sent" if mark_sent else "SMTP not configured, none sent (--mark-sent records "
            "them as delivered)")
    typer.echo(f"{len(files)} new message(s) written to {outbox}; {done}")
    if hold:
        typer.echo(f"held back: {len(hold)} message(s) queued before the current step; "
                   "'send --yes' sends them", err=True)
    for failure in failures:
        typer.echo(f"not sent, still queued: {failure}", err=True)
    if failures:
        raise typer.Exit(EXIT_PROBLEM)


@app.command()
def step(
    campaign: str = typer.Argument(..., help="The campaign."),
    source: Optional[str] = typer.Argument(None, help="Mail to take in first (as for 'receive'); none: skip."),
    outbox: Path = OUTBOX_OPTION,
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    now: Optional[str] = NOW_OPTION,
) -> None:
    """One whole step in one command (for cron): receive, adjudicate, send."""
    import os

    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.errors import CampaignOver, FreshOrdersNeeded
    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.mail import MailError, SmtpSettings

    with user_errors():
        private = load_key(key)
        with open_store(store) as opened:
            campaigns = Campaigns(opened)
            mailroom = Mailroom(campaigns, outbox)
            try:
                taken = mailroom.receive(source, private, campaign) if source else []
                smtp = SmtpSettings.from_env() if os.environ.get("ADJUDICATOR_SMTP_HOST") else None
            except MailError as err:
                raise fail(str(err))
            try:
                result = campaigns.adjudicate(campaign, private, parse_now(now), after=mailroom.queue_reports)
                done = (f"step {result.batch} adjudicated" if result.batch else "nothing to adjudicate") + (
                    f"; waiting for {result.waiting.side} ({result.waiting.kind})" if result.waiting else
                    f"; the game is over: {result.result}" if result.result else "")
            except (CampaignOver, FreshOrdersNeeded) as err:  # the undo notices still go out
                done = str(err)
            files, sent, failures = mailroom.send(campaign, smtp)
    typer.echo(f"{sum(t.outcome == 'accepted' for t in taken)} orders accepted, "
               f"{sum(t.outcome == 'refused' for t in taken)} refused; {done}; "
               f"{len(files)} new message(s) in {outbox}, {sent} sent")
    for failure in failures:
        typer.echo(f"not sent, still queued: {failure}", err=True)


@app.command()
def remind(
    campaign: str = typer.Argument(..., help="The campaign."),
    hours: float = typer.Option(12.0, help="Remind when the deadline is at most this many hours away."),
    store: Path = STORE_OPTION,
    now: Optional[str] = NOW_OPTION,
) -> None:
    """For cron: queue a reminder to the side the game waits for, once per step."""
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.mailroom import Mailroom

    with user_errors():
        with open_store(store) as opened:
            side = Mailroom(Campaigns(opened), Path("outbox")).remind(campaign, hours, parse_now(now))
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
