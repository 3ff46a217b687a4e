"""The store commands: ``adjudicator store copy FROM TO`` moves campaigns between an
SQLite file and a PostgreSQL database (either way), every history verified on arrival."""

from __future__ import annotations

import json
from typing import Optional

import typer

from adjudicator.cli.app import EXIT_PROBLEM, OutputFormat, app, command_group, fail
from adjudicator.cli.campaign_cmds import user_errors
from adjudicator.cli.plain import StoreURL, store_location

store_app = command_group(help="The campaign store: copy it between SQLite and PostgreSQL.")
app.add_typer(store_app, name="store")


@store_app.command("copy")
def copy(
    source: str = typer.Argument(..., metavar="FROM", help="The store to copy from: an SQLite file or a postgresql:// URL."),
    target: str = typer.Argument(..., metavar="TO", help="The store to copy to (created if need be): an SQLite file or a postgresql:// URL."),
    campaign: Optional[list[str]] = typer.Option(None, "--campaign", "-c", help="Copy only this campaign (repeatable); default: all."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", help="text, or json for scripts."),
) -> None:
    """Copy campaigns -- history, secrets, mail taken in, outbox -- from FROM to TO.

    Each campaign is copied in one transaction and its history verified again in TO
    and compared with FROM's, entry by entry. A campaign already in TO with the same
    history is left as it is, so an interrupted copy can be run again. Secrets are
    checked (readable, and the seed chains agreeing with the commitments the history
    published), copied and compared, but never shown.
    """
    from adjudicator.campaign.secret_check import secret_problems
    from adjudicator.store import HistoryCorrupt, SecretsDamaged, Store, copy_campaigns

    source_location, target_location = store_location(source), store_location(target)
    if not isinstance(source_location, StoreURL) and not source_location.is_file():
        raise fail(f"no campaign store at {source}: give an SQLite file or a postgresql:// URL")
    if str(source_location) == str(target_location):
        raise fail("FROM and TO are the same store: give two different stores")
    done = []
    with user_errors():
        try:
            with Store.open(source_location) as origin, Store.open(target_location) as destination:
                for copied in copy_campaigns(origin, destination, campaign, secret_problems):
                    done.append(copied)
                    if format is OutputFormat.text:
                        typer.echo(_line(copied))
        except (HistoryCorrupt, SecretsDamaged) as error:  # the source, or the copy, does not verify
            typer.echo(f"adjudicator: {error}", err=True)
            raise typer.Exit(EXIT_PROBLEM)
    if format is OutputFormat.json:
        typer.echo(json.dumps({"copied": [c.as_json() for c in done]}, indent=2))
    else:
        typer.echo(f"{len(done)} campaign(s) in {target_location}, every history verified")


def _line(copied) -> str:
    what = "copied" if copied.outcome == "copied" else "already there, same history"
    return (f"{copied.id}: {what}; {copied.entries} entries, head {copied.head[:16]}, "
            f"{copied.outbox} outgoing, {copied.seen_mail} taken in, {copied.secrets} secrets")
