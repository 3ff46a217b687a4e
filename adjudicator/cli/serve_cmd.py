"""``adjudicator serve`` (the resident mail service) and ``adjudicator health`` (its
health line, for process supervisors)."""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path
from typing import Any, Optional

import typer

from adjudicator.cli.app import EXIT_PROBLEM, app, fail
from adjudicator.cli.campaign_cmds import KEY_OPTION, STORE_OPTION, load_key, user_errors
from adjudicator.cli.mail_cmds import OUTBOX_OPTION


@app.command()
def serve(
    lmtp: Optional[str] = typer.Option(None, "--lmtp", envvar="ADJUDICATOR_LMTP",
                                       help="Take mail by LMTP on a Unix socket (unix:/run/adjudicator/lmtp) "
                                       "or HOST:PORT (127.0.0.1:2424). Env: ADJUDICATOR_LMTP."),
    imap: Optional[str] = typer.Option(None, "--imap", help="Wait on an IMAP mailbox: HOST or HOST:PORT. "
                                       "Env: ADJUDICATOR_IMAP_HOST; the password only from ADJUDICATOR_IMAP_PASSWORD."),
    imap_user: Optional[str] = typer.Option(None, "--imap-user", help="IMAP login. Env: ADJUDICATOR_IMAP_USER."),
    imap_folder: Optional[str] = typer.Option(None, "--imap-folder", help="IMAP folder (default INBOX). "
                                              "Env: ADJUDICATOR_IMAP_FOLDER."),
    imap_security: Optional[str] = typer.Option(None, "--imap-security", help="ssl (default, port 993), "
                                                "starttls (143) or none. Env: ADJUDICATOR_IMAP_SECURITY."),
    maildir: list[Path] = typer.Option([], "--maildir", help="Watch a Maildir (repeatable)."),
    campaign: Optional[str] = typer.Option(None, help="The campaign for mail whose orders name none."),
    own_address: Optional[str] = typer.Option(None, "--own-address", help="The adjudicator's own address "
                                              "(its mail is ignored)."),
    tick: float = typer.Option(30.0, help="Seconds between two looks at the clock (deadlines, reminders, "
                               "mail to retry)."),
    remind_hours: float = typer.Option(12.0, "--remind-hours", help="Remind the side a campaign waits for "
                                       "this many hours before its deadline (0: never)."),
    poll: float = typer.Option(1.0, help="Seconds between two looks at each Maildir."),
    health_file: Optional[Path] = typer.Option(None, "--health-file", help="Keep a one-line health status "
                                               "in this file (see 'adjudicator health')."),
    requeue: bool = typer.Option(False, "--requeue", help="At start, settle mail that a killed run left "
                                 "half-sent even if another host's lease on it looks alive (a restart on the "
                                 "same host does this by itself)."),
    site_dir: Optional[Path] = typer.Option(None, "--site-dir", help="Rebuild each campaign's public archive "
                                            "(as 'adjudicator site') in DIR/CAMPAIGN after each step."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log every detail (debug)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
    outbox: Path = OUTBOX_OPTION,
) -> None:
    """Run as a resident service: take mail as it arrives (LMTP, IMAP IDLE, Maildir), answer at
    once (receipt, adjudication, reports), keep deadlines and reminders; stop with SIGTERM.
    Replies go to the outbox and, when ADJUDICATOR_SMTP_HOST is set, by SMTP. Logs go to stderr."""
    from adjudicator.mail import MailError, SmtpSettings
    from adjudicator.service.service import Service, ServiceFailed
    from adjudicator.service.settings import ImapSettings, LmtpEndpoint, ServiceSettings, SettingsError

    configure_logging(verbose)
    if not store.exists():
        raise fail(f"no campaign store at {store}: give --store (or ADJUDICATOR_STORE)")
    try:
        settings = ServiceSettings(
            store=store, outbox=outbox, lmtp=LmtpEndpoint.parse(lmtp) if lmtp else None,
            imap=ImapSettings.from_values(imap, imap_user, imap_folder, imap_security, os.environ),
            maildirs=tuple(maildir), default_campaign=campaign, own_address=own_address, tick=tick,
            remind_hours=remind_hours, poll=poll, health_file=health_file, requeue=requeue, site_dir=site_dir)
        smtp = SmtpSettings.from_env() if os.environ.get("ADJUDICATOR_SMTP_HOST") else None
    except (SettingsError, MailError) as err:
        raise fail(str(err))
    keep_out_of_the_log(settings, smtp)
    with user_errors():
        private = load_key(key)
    try:
        Service(settings, private, smtp).run()
    except (ServiceFailed, OSError) as err:
        raise fail(str(err), EXIT_PROBLEM)


@app.command()
def health(
    path: Path = typer.Argument(..., help="The file given to 'serve --health-file'."),
    max_age: float = typer.Option(60.0, "--max-age", help="Seconds after which the line counts as stale."),
) -> None:
    """For process supervisors: exit 0 if the service's health line is 'ok' and recent, 1 if not."""
    from adjudicator.service.health import check_health

    healthy, line = check_health(path, max_age)
    typer.echo(line, err=not healthy)
    if not healthy:
        raise typer.Exit(EXIT_PROBLEM)


class Redacting(logging.Filter):
    """Replaces each of the service's passwords with ``***`` in every log line, even
    in what another program said (an IMAP server that quotes the LOGIN command back)."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(secret in message for secret in self.secrets):
            for secret in self.secrets:
                message = message.replace(secret, "***")
            record.msg, record.args = message, None
        return True


def keep_out_of_the_log(settings: Any, smtp: Any) -> None:
    """Give the log handler the passwords the service was given: IMAP, SMTP, the
    store URL's and the key's passphrase."""
    from adjudicator.store.pg import url_passwords

    secrets = [*url_passwords(str(settings.store)), os.environ.get("ADJUDICATOR_KEY_PASSPHRASE", ""),
               settings.imap.password if settings.imap else "", smtp.password if smtp else ""]
    redacting = Redacting(secrets)  # the empty ones (a password not given) left out there
    for handler in logging.getLogger("adjudicator").handlers:
        handler.addFilter(redacting)


def configure_logging(verbose: bool) -> None:
    """Readable log lines on stderr, times in UTC."""
    handler = logging.StreamHandler(sys.stderr)
    formatter = logging.Formatter("%(asctime)sZ %(levelname)-7s %(message)s", "%Y-%m-%dT%H:%M:%S")
    formatter.converter = time.gmtime
    handler.setFormatter(formatter)
    root = logging.getLogger("adjudicator")
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's per-connection chatter
    if not verbose:
        logging.getLogger("adjudicator.mail").setLevel(logging.WARNING)  # one line per message sent
