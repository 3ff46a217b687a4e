"""The demo: a whole campaign by email between two automatic players, through the real
pipeline, ending with a verified public record; and a folder is never used twice."""

from __future__ import annotations

import mailbox
import re

import pytest

from adjudicator.campaign.verify import verify_text
from adjudicator.outcome import outcome
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import assert_no_traceback, cli, parse_eml


def test_the_demo_plays_a_whole_campaign_by_email_and_verifies(demo_run):
    done, folder = demo_run.done, demo_run.folder

    assert done.returncode == 0, done.stderr
    assert_no_traceback(done)
    assert "VERIFIED:" in done.stdout and "NOT VERIFIED" not in done.stdout
    record = (folder / "public-record.jsonl").read_text(encoding="utf-8")
    verdict = verify_text(record)
    assert verdict.verified and verdict.result in ("japan", "russia", "draw")
    assert f"(result: {outcome(verdict.result)})" in done.stdout   # in words: "Japan wins", "a draw"

    inbox = mailbox.Maildir(folder / "inbox", create=False)
    orders_mails = len(inbox)
    outbox = sorted((folder / "outbox").glob("*.eml"))
    counts = re.search(r"(\d+) orders emails in .*, (\d+) receipts and reports in", done.stdout.replace("\n", " "))
    assert counts and (int(counts[1]), int(counts[2])) == (orders_mails, len(outbox))
    subjects = [str(parse_eml(p.read_bytes())["Subject"]) for p in outbox]
    receipts = [s for s in subjects if s.endswith("Orders accepted")]
    report_subjects = [s for s in subjects if " - report for " in s]
    assert len(receipts) == orders_mails  # every email was accepted and answered
    assert len(report_subjects) == 2 * verdict.batches  # one report per player per step
    assert len(receipts) + len(report_subjects) == len(outbox)
    with Store.open(folder / "campaigns.sqlite3") as store:
        assert {m.status.value for m in store.outbox("demo")} == {"queued"}
        assert len(store.seen_mail("demo")) == orders_mails


def test_the_demo_refuses_a_folder_that_already_holds_a_campaign(demo_run):
    folder = demo_run.folder
    record = (folder / "public-record.jsonl").read_bytes()
    store = (folder / "campaigns.sqlite3").read_bytes()
    outbox = sorted(p.name for p in (folder / "outbox").iterdir())

    again = cli("demo", folder, "--quiet")

    assert again.returncode == 2
    assert_no_traceback(again)
    assert "already holds a demo campaign" in again.stderr and str(folder) in again.stderr
    assert again.stdout == ""
    assert (folder / "public-record.jsonl").read_bytes() == record
    assert (folder / "campaigns.sqlite3").read_bytes() == store
    assert sorted(p.name for p in (folder / "outbox").iterdir()) == outbox


@pytest.mark.soak   # about 10 s a game
@pytest.mark.parametrize("game", ["tsushima-1905", "russo-japanese-war"])
def test_the_demo_of_a_game_that_asks_both_sides_at_once_or_draws_at_set_up_plays_out_and_verifies(game, tmp_path):
    from adjudicator.campaign.demo import run_demo

    summary = run_demo(tmp_path / "demo", 7, {}, game=game)
    assert summary.verified and summary.result is not None, summary.text
    inbox = mailbox.Maildir(tmp_path / "demo" / "inbox", create=False)
    subjects = [str(parse_eml(p.read_bytes())["Subject"]) for p in (tmp_path / "demo" / "outbox").glob("*.eml")]
    assert sum(s.endswith("Orders accepted") for s in subjects) == len(inbox)  # every email accepted
