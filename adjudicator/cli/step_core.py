"""The referee's step commands, ``receive``, ``adjudicate``, ``send`` and ``step``, with no
command-line library: a cron job's step starts without loading Typer and every other
command (see :data:`adjudicator.cli.main.DIRECT`). Their Typer commands (for ``--help``,
misuse and a terminal's prompts) call the same functions, so both paths print the same
and exit with the same codes.

Each function prints its results to ``out`` and its diagnostics to ``err`` and returns
the exit code; a failure the user can mend is raised (:class:`.plain.Failed`, or the
library's errors) for :func:`.plain.run_told` to tell.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Callable, Optional, TextIO

from adjudicator.cli.plain import (
    DEFAULT_KEY,
    DEFAULT_OUTBOX,
    DEFAULT_STORE,
    EXIT_OK,
    EXIT_PROBLEM,
    FORMATS,
    Failed,
    environment,
    environment_flag,
    load_key,
    open_store,
    parse_now,
    passphrase_from_environment,
    run_told,
    store_location,
    would_ask_passphrase,
)

Passphrase = Callable[[Path], Optional[str]]


def receive(source: str, campaign: Optional[str], own_address: Optional[str], store: Path, key: Path,
            format: str, out: TextIO, err: TextIO, passphrase: Passphrase = passphrase_from_environment) -> int:
    """Take in orders by mail; answer each with a receipt or every error (queued for 'send')."""
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.mail import MailError

    private = load_key(key, passphrase)
    with open_store(store) as opened:
        try:
            taken = Mailroom(Campaigns(opened), Path(DEFAULT_OUTBOX)).receive(source, private, campaign, own_address)
        except MailError as error:
            raise Failed(str(error))
    if format == "json":
        print(json.dumps([t.__dict__ for t in taken], indent=2), file=out)
        return EXIT_OK
    for item in taken:
        print(f"{item.outcome:<9} {item.campaign or '-':<16} {item.origin}: {item.detail}", file=out)
    counts = {o: sum(t.outcome == o for t in taken) for o in ("accepted", "refused", "duplicate", "ignored", "answered")}
    print(", ".join(f"{n} {o}" for o, n in counts.items()), file=err)
    return EXIT_OK


def adjudicate(campaign: str, store: Path, key: Path, now: Optional[str], format: str, reuse_orders: bool,
               out: TextIO, err: TextIO, passphrase: Passphrase = passphrase_from_environment) -> int:
    """Run the game as far as the orders on file allow; queue each player's report."""
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.mailroom import Mailroom

    with open_store(store) as opened:
        campaigns = Campaigns(opened)
        step = campaigns.adjudicate(campaign, load_key(key, passphrase), parse_now(now),
                                    after=Mailroom(campaigns, Path(DEFAULT_OUTBOX)).queue_reports,
                                    reuse_orders=reuse_orders)
    waiting = None if step.waiting is None else {"side": step.waiting.side, "ask": step.waiting.kind,
                                                 "prompt": step.waiting.prompt}
    if format == "json":
        print(json.dumps({"batch": step.batch, "events": [e.text for e in step.events], "waiting": waiting,
                          "result": step.result, "defaults": list(step.defaults),
                          "refused": list(step.refused)}, indent=2), file=out)
        return EXIT_OK
    lines = ["Nothing to adjudicate: the orders on file answer no open question."] if step.batch is None else []
    lines += [("== " if event.kind == "phase" else "   ") + event.text for event in step.events]
    lines += [f"No orders from {side} by the deadline: the defaults were used." for side in step.defaults]
    lines += [f"   (default) {note}" for note in step.default_notes]
    lines += [f"Note: {note}" for note in step.refused]
    if step.result:
        lines.append(f"The game is over: {step.result}.")
    elif waiting:
        lines.append(f"Waiting for {waiting['side']}: {waiting['prompt']}")
    for line in lines:
        print(line, file=out)
    return EXIT_OK


def send(campaign: str, outbox: Path, mark_sent: bool, yes: bool, requeue: bool, store: Path, out: TextIO,
         err: TextIO, confirm: Callable[[str], bool] | None = None, format: str = "text") -> int:
    """Write unsent mail to the outbox, and send it when SMTP is configured; mail queued
    before the current step only after ``confirm`` (on a terminal) or ``yes``. ``format``
    json: what was done as one JSON document (the files written, how many sent, held
    back and not sent)."""
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.mailroom import Mailroom
    smtp = _smtp_settings()
    with open_store(store) as opened:
        mailroom = Mailroom(Campaigns(opened), outbox)
        if requeue:
            recorded, requeued = mailroom.settle_interrupted(campaign, force=True)
            print(f"half-sent mail: {recorded} message(s) the mail server had taken recorded as sent, "
                  f"{requeued} queued again", file=err)
        deliver_press(opened, campaign)  # the courier's: press whose delay has passed
        hold = mailroom.backlog(campaign) if (smtp or mark_sent) and not yes else []
        if hold and sys.stdin.isatty() and confirm is not None and confirm(
                f"{len(hold)} message(s) were queued before the current step (older receipts or "
                "reports never sent). Send them too?"):
            hold = []
        files, sent, failures = mailroom.send(campaign, smtp, mark_sent=mark_sent, hold=hold)
    done = (f"{sent} sent by SMTP ({smtp.describe()})" if smtp else
            f"{sent} marked sent" if mark_sent else "SMTP not configured, none sent (--mark-sent records "
            "them as delivered)")
    if format == "json":
        print(json.dumps({"written": [str(f) for f in files], "outbox": str(outbox), "sent": sent,
                          "smtp": smtp.describe() if smtp else None, "marked_sent": bool(mark_sent and not smtp),
                          "held_back": len(hold), "not_sent": list(failures)}, indent=2), file=out)
    else:
        print(f"{len(files)} new message(s) written to {outbox}; {done}", file=out)
    if hold:
        print(f"held back: {len(hold)} message(s) queued before the current step; "
              "'send --yes' sends them", file=err)
    for failure in failures:
        print(f"not sent, still queued: {failure}", file=err)
    return EXIT_PROBLEM if failures else EXIT_OK


def step(campaign: str, source: Optional[str], outbox: Path, store: Path, key: Path, now: Optional[str],
         out: TextIO, err: TextIO, passphrase: Passphrase = passphrase_from_environment, format: str = "text") -> int:
    """One whole step in one command (for cron): receive, adjudicate, send (and tell
    every player that a pause is over, when it is). ``format`` json: what was done as one
    JSON document. Exit 1 when some mail could not be sent (it stays queued)."""
    from adjudicator.campaign import Campaigns
    from adjudicator.campaign.errors import CampaignOver, ContributionsDue, FreshOrdersNeeded
    from adjudicator.campaign.mailroom import Mailroom
    from adjudicator.mail import MailError

    private = load_key(key, passphrase)
    with open_store(store) as opened:
        campaigns = Campaigns(opened)
        mailroom = Mailroom(campaigns, outbox)
        try:
            taken = mailroom.receive(source, private, campaign) if source else []
        except MailError as error:
            raise Failed(str(error))
        smtp = _smtp_settings()
        mailroom.tell_pause_over(campaign, parse_now(now))
        deliver_press(opened, campaign, parse_now(now))  # the courier's: press whose delay has passed
        result = None
        try:
            result = campaigns.adjudicate(campaign, private, parse_now(now), after=mailroom.queue_reports)
            done = (f"step {result.batch} adjudicated" if result.batch else "nothing to adjudicate") + (
                f"; waiting for {result.waiting.side} ({result.waiting.kind})" if result.waiting else
                f"; the game is over: {result.result}" if result.result else "")
        except (CampaignOver, FreshOrdersNeeded, ContributionsDue) as error:
            done = str(error)  # "waiting for ...": the undo notices and the receipts taken in still go out
        files, sent, failures = mailroom.send(campaign, smtp)
    if format == "json":
        print(json.dumps({
            "received": [t.__dict__ for t in taken],
            "batch": None if result is None else result.batch,
            "waiting": None if result is None or result.waiting is None else
            {"side": result.waiting.side, "ask": result.waiting.kind},
            "result": None if result is None else result.result, "said": done,
            "written": [str(f) for f in files], "outbox": str(outbox), "sent": sent, "not_sent": list(failures),
        }, indent=2), file=out)
    else:
        print(f"{sum(t.outcome == 'accepted' for t in taken)} orders accepted, "
              f"{sum(t.outcome == 'refused' for t in taken)} refused; {done}; "
              f"{len(files)} new message(s) in {outbox}, {sent} sent", file=out)
    for failure in failures:
        print(f"not sent, still queued: {failure}", file=err)
    return EXIT_PROBLEM if failures else EXIT_OK


def deliver_press(store, campaign: str, now=None) -> None:
    from adjudicator.campaign.press import deliver

    deliver(store, campaign, now)


def _smtp_settings():
    """The SMTP server from ADJUDICATOR_SMTP_HOST and its fellows; None when it is not set
    (mail is then written to the outbox only, and SMTP is not loaded)."""
    if not os.environ.get("ADJUDICATOR_SMTP_HOST"):
        return None
    from adjudicator.mail import MailError, SmtpSettings

    try:
        return SmtpSettings.from_env()
    except MailError as error:
        raise Failed(str(error))


# -- the direct paths: the plain forms of the arguments, else None (the full command line) --


STORE = {"--store": None}
KEY = {"--key": None}


def _locations(args: dict) -> dict:
    """The store, key and outbox options' values, with their environment variables and
    defaults as the full command line reads them."""
    found = dict(args)
    found["store"] = store_location(args["store"] or environment("ADJUDICATOR_STORE", DEFAULT_STORE))
    if "key" in args:
        found["key"] = Path(args["key"] or environment("ADJUDICATOR_KEY", DEFAULT_KEY))
    if "outbox" in args:
        found["outbox"] = Path(args["outbox"] or environment("ADJUDICATOR_OUTBOX", DEFAULT_OUTBOX))
    return found


def _read(argv: list[str], positionals: list[str], options: dict, required: int | None = None,
          flags: tuple[str, ...] = ()) -> dict | None:
    from adjudicator.cli.direct import read_arguments

    args = read_arguments(argv, positionals, options, required=required, flags=flags)
    if args is None or args.get("format", "text") not in FORMATS:
        return None
    for name in ("store", "key", "outbox"):  # an empty value is the full command line's to judge
        if args.get(name) == "":
            return None
    return _locations(args)


def direct_step(argv: list[str]) -> int | None:
    """``adjudicator step CAMPAIGN [SOURCE]`` without the rest of the command line."""
    args = _read(argv, ["campaign", "source"], {**STORE, **KEY, "--outbox": None, "--now": None, "--format": "text"},
                 required=1)
    if args is None or would_ask_passphrase():
        return None
    return run_told(lambda: step(args["campaign"], args["source"], args["outbox"], args["store"], args["key"],
                                 args["now"], sys.stdout, sys.stderr, format=args["format"]), sys.stderr)


def direct_receive(argv: list[str]) -> int | None:
    """``adjudicator receive SOURCE`` without the rest of the command line."""
    args = _read(argv, ["source"], {"--campaign": None, "--own-address": None, **STORE, **KEY, "--format": "text"})
    if args is None or would_ask_passphrase():
        return None
    return run_told(lambda: receive(args["source"], args["campaign"], args["own_address"], args["store"],
                                    args["key"], args["format"], sys.stdout, sys.stderr), sys.stderr)


def direct_adjudicate(argv: list[str]) -> int | None:
    """``adjudicator adjudicate CAMPAIGN`` without the rest of the command line."""
    args = _read(argv, ["campaign"], {**STORE, **KEY, "--now": None, "--format": "text"}, flags=("--reuse-orders",))
    if args is None or would_ask_passphrase():
        return None
    return run_told(lambda: adjudicate(args["campaign"], args["store"], args["key"], args["now"], args["format"],
                                       args["reuse_orders"], sys.stdout, sys.stderr), sys.stderr)


def direct_send(argv: list[str]) -> int | None:
    """``adjudicator send CAMPAIGN`` without the rest of the command line (not on a
    terminal, where it may ask whether to send older mail)."""
    args = _read(argv, ["campaign"], {"--outbox": None, **STORE, "--format": "text"},
                 flags=("--mark-sent", "--yes", "--requeue"))
    mark_sent = environment_flag("ADJUDICATOR_MARK_SENT")
    if args is None or mark_sent is None or sys.stdin.isatty():
        return None
    return run_told(lambda: send(args["campaign"], args["outbox"], args["mark_sent"] or mark_sent, args["yes"],
                                 args["requeue"], args["store"], sys.stdout, sys.stderr,
                                 format=args["format"]), sys.stderr)
