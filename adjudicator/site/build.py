"""Write a campaign's public archive: a static site drawn from its public record alone.

``index.html`` (the campaign, its sides, its state, its result), one page per step
(``step-NNN.html``: what happened, the dice, the position as the public record lets
anyone replay it; after the end, ``step-NNN-SIDE.html``: the position as each side saw
it), ``history.html`` (every record), ``dice.html`` (each side's dice statistics),
``record.jsonl`` (the public record itself), ``feed.json`` (the signed feed, when the
referee's key is given) and ``verify.html`` (the browser verifier, with the site's own
record in it: opening it verifies the record). Plain files with relative links: they work from ``file://`` and from any
static web host.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.campaign.verifier import PAGE_NAME as VERIFIER_NAME, verifier_page
from adjudicator.campaign.verify import UnusableRecord, read_public_record, render_verdict, verify_records
from adjudicator.campaign.errors import CampaignError
from adjudicator.files import write_atomically
from adjudicator.site.feed import FEED_NAME, signed_feed
from adjudicator.site.replay import PublicCampaign, asked_sides, public_campaign

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

RECORD_NAME = "record.jsonl"


class SiteError(CampaignError):
    """The public archive cannot be written."""


class RecordDoesNotVerify(SiteError):
    """The public record given does not verify: no archive is drawn from it."""


@dataclass(frozen=True)
class SiteWritten:
    folder: Path
    pages: int
    steps: int
    feed: bool
    sealed: int
    finished: bool


def build_site(record_text: str, folder: Path, key: "Ed25519PrivateKey | None" = None) -> SiteWritten:
    """Write the site of the campaign whose public record (JSON Lines) is
    ``record_text`` into ``folder``. The record is verified first; a record that does
    not verify gives no site. With ``key`` (the referee's) the signed feed is written too."""
    try:
        records = read_public_record(record_text)
    except UnusableRecord as err:
        raise SiteError(str(err)) from err
    verdict = verify_records(records)
    if not verdict.verified:
        raise RecordDoesNotVerify(f"the public record does not verify (record {verdict.bad_record}: "
                                  f"{verdict.reason}); no archive is written from it")
    public = public_campaign(records, verdict)
    pages = _pages(public)
    files: dict[str, str] = dict(pages)
    # written as given: records_from_jsonl takes canonical lines only, so the text is
    # records_to_jsonl(records) already, bar a final newline it may lack
    files[RECORD_NAME] = record_text if record_text.endswith("\n") else record_text + "\n"
    if key is not None:
        files[FEED_NAME] = signed_feed(public, key)
    files[VERIFIER_NAME] = verifier_page(files[RECORD_NAME])
    write_files(folder, files)
    return SiteWritten(folder, len(pages), len(public.steps), key is not None, verdict.sealed, public.finished)


def _pages(public: PublicCampaign) -> dict[str, str]:
    from adjudicator.reports.render import template_environment

    environment = template_environment(True)
    common: dict[str, Any] = {"c": public, "verdict_text": render_verdict(public.verdict), "asked": asked_sides}
    pages = {"index.html": environment.get_template("site/index.html.j2").render(**common),
             "history.html": environment.get_template("site/history.html.j2").render(**common),
             "dice.html": environment.get_template("site/dice.html.j2").render(**common)}
    step_template = environment.get_template("site/step.html.j2")
    steps = public.steps
    for index, step in enumerate(steps):
        around = {"previous": steps[index - 1] if index else None,
                  "next": steps[index + 1] if index + 1 < len(steps) else None}
        pages[f"{step.name}.html"] = step_template.render(step=step, seen_by=None, position=step.position,
                                                         **around, **common)
        for position in step.side_positions:
            pages[f"{step.name}-{position.side}.html"] = step_template.render(
                step=step, seen_by=position.side, position=position, **around, **common)
    return pages


def write_files(folder: Path, files: dict[str, str]) -> None:
    """Each file written whole (to a temporary name, then renamed over the old one), so
    that a web server publishing the folder never serves half a page."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            write_atomically(folder / name, text.encode("utf-8"), mode=0o644)
    except OSError as err:
        raise SiteError(f"cannot write the site into {folder}: {err.strerror or err}") from err
