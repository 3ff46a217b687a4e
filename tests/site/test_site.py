"""The public archive (``adjudicator site``): a static site drawn from a campaign's
public record alone, its pages linked relatively so that they work from file:// and
from any static host."""

from __future__ import annotations

import html
import re

import pytest
from typer.testing import CliRunner

from adjudicator.campaign.protocol import BATCH
from adjudicator.cli.app import app
from adjudicator.cli import site_cmd  # noqa: F401 - registers the command on the app
from adjudicator.fairdice import records_from_jsonl, save_private_key
from adjudicator.site import RecordDoesNotVerify, build_site
from tests.site.conftest import PLAYERS, play

LINK = re.compile(r'(?:href|src)="([^"#]+)"')


@pytest.fixture
def finished(campaigns, referee_key):
    campaigns.create("club-1904", "port-arthur", PLAYERS, referee_key)
    play(campaigns, referee_key, "club-1904")
    return "club-1904"


def test_the_site_of_a_finished_campaign_has_its_index_steps_history_dice_and_record(
        campaigns, referee_key, finished, tmp_path):
    record = campaigns.export_public(finished)
    written = build_site(record, tmp_path / "site", referee_key)
    site = tmp_path / "site"
    batches = [r for r in records_from_jsonl(record) if r.kind == BATCH]
    assert written.steps == len(batches) > 3 and written.finished
    assert (site / "record.jsonl").read_text(encoding="utf-8") == record
    for name in ("index.html", "history.html", "dice.html", "feed.json", "verify.html"):
        assert (site / name).is_file(), name
    for batch in batches:
        assert (site / f"step-{batch.body['batch']:03d}.html").is_file()
    index = html.unescape((site / "index.html").read_text(encoding="utf-8"))
    result = batches[-1].body["result"]
    assert f"The game is over: {'a draw' if result == 'draw' else result.capitalize() + ' wins'}" in index
    assert "Japan" in index and "Russia" in index and "VERIFIED" in index
    dice = html.unescape((site / "dice.html").read_text(encoding="utf-8"))
    assert "<th scope=\"row\">Japan</th>" in dice and "<th scope=\"row\">Russia</th>" in dice
    last = (site / f"step-{len(batches):03d}.html").read_text(encoding="utf-8")
    assert "<svg" in last and "The situation" in last  # the position, drawn as the reports draw it


def test_every_link_of_the_site_is_relative_and_leads_to_a_file_of_the_site(campaigns, referee_key, finished,
                                                                            tmp_path):
    build_site(campaigns.export_public(finished), tmp_path / "site", referee_key)
    pages = sorted((tmp_path / "site").glob("*.html"))
    assert len(pages) > 5
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            assert "://" not in target and not target.startswith("/"), (page.name, target)
            assert (tmp_path / "site" / target).is_file(), (page.name, target)


def test_a_record_given_without_its_final_newline_is_published_with_it(campaigns, referee_key, tmp_path):
    campaigns.create("short", "port-arthur", PLAYERS, referee_key)
    record = campaigns.export_public("short")
    build_site(record.rstrip("\n"), tmp_path / "site")
    assert (tmp_path / "site" / "record.jsonl").read_text(encoding="utf-8") == record


def test_a_step_page_tells_what_happened_with_every_die_and_its_purpose(campaigns, referee_key, finished,
                                                                       tmp_path):
    record = campaigns.export_public(finished)
    build_site(record, tmp_path / "site")
    batch = next(r for r in records_from_jsonl(record) if r.kind == BATCH
                 and any("dice" in e for e in r.body["entries"]))
    page = html.unescape((tmp_path / "site" / f"step-{batch.body['batch']:03d}.html").read_text(encoding="utf-8"))
    for entry in batch.body["entries"]:
        if "dice" in entry:
            assert f"<code>{', '.join(map(str, entry['dice']))}</code>" in page
    assert batch.body["seed"] in page and "What happened" in page


def test_text_in_the_record_is_escaped_in_the_pages(campaigns, referee_key, tmp_path):
    campaigns.create("c1", "port-arthur", PLAYERS, referee_key)
    play(campaigns, referee_key, "c1", steps=3)
    campaigns.undo("c1", referee_key, reason='<script>alert("x")</script> & more')
    record = campaigns.export_public("c1")
    last = f"step-{[r for r in records_from_jsonl(record) if r.kind == BATCH][-1].body['batch']:03d}.html"
    build_site(record, tmp_path / "site")
    for name in ("history.html", last):
        text = (tmp_path / "site" / name).read_text(encoding="utf-8")
        assert "<script>alert" not in text and "&lt;script&gt;alert" in text, name
    assert "The referee voided this step" in (tmp_path / "site" / last).read_text(encoding="utf-8")


def test_a_record_that_does_not_verify_gives_no_site(campaigns, referee_key, finished, tmp_path):
    lines = campaigns.export_public(finished).splitlines(keepends=True)
    batch = next(i for i, line in enumerate(lines) if '"kind":"batch"' in line)
    changed = re.sub(r'"seed":"(.)', lambda m: f'"seed":"{"1" if m.group(1) == "0" else "0"}', lines[batch], 1)
    assert changed != lines[2]
    with pytest.raises(RecordDoesNotVerify, match="does not verify"):
        build_site("".join([*lines[:batch], changed, *lines[batch + 1:]]), tmp_path / "site")
    assert not (tmp_path / "site").exists()


def test_the_site_command_writes_the_site_from_the_store(campaigns, referee_key, finished, store, tmp_path):
    key_file = tmp_path / "referee.key"
    save_private_key(key_file, referee_key, None)
    runner = CliRunner()
    done = runner.invoke(app, ["site", finished, "-o", str(tmp_path / "out"), "--store",
                               str(tmp_path / "campaigns.sqlite3"), "--key", str(key_file)], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert "site of campaign club-1904 written to" in done.stdout
    assert (tmp_path / "out" / "index.html").is_file() and (tmp_path / "out" / "feed.json").is_file()
    missing = runner.invoke(app, ["site", "club-1905", "-o", str(tmp_path / "none"), "--store",
                                  str(tmp_path / "campaigns.sqlite3"), "--key", str(tmp_path / "no.key")])
    assert missing.exit_code == 2 and "club-1905" in missing.stderr and "Traceback" not in missing.output
    assert not (tmp_path / "none").exists()


def test_a_folder_that_cannot_be_written_is_a_clear_error(campaigns, referee_key, finished, tmp_path):
    from adjudicator.site import SiteError

    (tmp_path / "taken").write_text("a file, not a folder", encoding="utf-8")
    with pytest.raises(SiteError, match="cannot write the site into .*taken"):
        build_site(campaigns.export_public(finished), tmp_path / "taken")


def test_a_stop_that_asks_both_sides_is_shown_as_asking_both(campaigns, referee_key, tmp_path):
    """Tsushima asks both sides for their orders at one stop (``waiting.sides`` in the
    batch record): the running site says both are asked, in the rules' order, and the
    step that reached the stop says the same."""
    campaigns.create("battle", "tsushima-1905", PLAYERS, referee_key)
    for _ in range(30):
        play(campaigns, referee_key, "battle", steps=1)
        waiting = campaigns.log("battle").batches[-1].body["waiting"]
        if waiting and "sides" in waiting:
            break
    else:
        pytest.fail("no stop asked both sides in 30 steps")
    build_site(campaigns.export_public("battle"), tmp_path / "site")
    both = " and ".join(side.capitalize() for side in waiting["sides"])
    assert len(waiting["sides"]) == 2 and both in ("Japan and Russia", "Russia and Japan")
    index = html.unescape((tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    assert f"Running: waiting for {both} ({waiting['ask']})." in index
    assert f"{both} are asked: {waiting['ask']}" in index
    last = campaigns.log("battle").batches[-1].body["batch"]
    step = html.unescape((tmp_path / "site" / f"step-{last:03d}.html").read_text(encoding="utf-8"))
    assert f"Then {both} are asked: {waiting['ask']}." in step
