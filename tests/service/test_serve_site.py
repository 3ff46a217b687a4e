"""``serve --site-dir``: each campaign's public archive is rebuilt after each step, into
a folder a web server publishes."""

from __future__ import annotations

import mailbox

from adjudicator.site.feed import feed_is_signed
from tests.pipeline.pipeline_helpers import CAMPAIGN, email, orders_text
from tests.service.conftest import wait_for


def test_serve_rebuilds_the_campaign_s_site_after_a_step(referee, start_serve, tmp_path):
    inbox = mailbox.Maildir(tmp_path / "Maildir", create=True)
    site = tmp_path / "public" / CAMPAIGN
    serve = start_serve("--maildir", str(tmp_path / "Maildir"), "--poll", "0.1", "--site-dir",
                        str(tmp_path / "public"), lmtp=False)
    assert not site.exists()
    inbox.add(email(orders_text(), message_id="<site-1@japan.test>"))
    wait_for(lambda: (site / "step-001.html").exists() and (site / "feed.json").exists(), 30, serve.log)
    record = (site / "record.jsonl").read_text(encoding="utf-8")
    assert '"kind":"batch"' in record
    charter_key = record.split('"referee_key":"', 1)[1].split('"', 1)[0]
    assert feed_is_signed((site / "feed.json").read_text(encoding="utf-8"), charter_key)
    assert "Step 1" in (site / "index.html").read_text(encoding="utf-8")
    assert serve.terminate() == 0
