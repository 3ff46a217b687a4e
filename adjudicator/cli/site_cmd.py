"""``adjudicator site``: a campaign's public archive, a static site drawn from its
public record alone (:mod:`adjudicator.site`)."""

from __future__ import annotations

from pathlib import Path

import typer

from adjudicator.cli.app import app
from adjudicator.cli.campaign_cmds import KEY_OPTION, STORE_OPTION, open_store, passphrase_for, user_errors
from adjudicator.cli.plain import load_key


@app.command()
def site(
    campaign: str = typer.Argument(..., help="The campaign."),
    output: Path = typer.Option(..., "--output", "-o", help="The folder to write the site into (made if need be)."),
    store: Path = STORE_OPTION,
    key: Path = KEY_OPTION,
) -> None:
    """Write the campaign's public archive: index.html, a page per step, the history,
    the dice per side, record.jsonl, the signed feed.json (with the referee's key) and
    verify.html. Nothing sealed is in it before the game ends."""
    from adjudicator.campaign import Campaigns
    from adjudicator.site import build_site

    with user_errors():
        with open_store(store) as opened:
            record = Campaigns(opened).export_public(campaign)
        referee_key = load_key(key, passphrase_for) if key.is_file() else None
        written = build_site(record, output, referee_key)
    typer.echo(f"site of campaign {campaign} written to {output}: {written.pages} pages, {written.steps} steps"
               + ("" if written.finished or not written.sealed else
                  f"; {written.sealed} hidden items stay sealed until the game ends"))
    if not written.feed:
        typer.echo(f"no feed.json: no referee key at {key} (give --key or ADJUDICATOR_KEY to sign the feed)",
                   err=True)
    typer.echo(f"open {output / 'index.html'}", err=True)
