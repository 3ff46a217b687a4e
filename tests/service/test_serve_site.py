"""``serve --site-dir``: each campaign's public archive is rebuilt after each step, into
a folder a web server publishes."""

from __future__ import annotations

import mailbox

from adjudicator.mail import SmtpSettings
from adjudicator.service.desk import Desk, DeskThread, Tally
from adjudicator.service.settings import ServiceSettings
from adjudicator.site.feed import feed_is_signed
from tests.pipeline.pipeline_helpers import CAMPAIGN, PASSWORDS, email, orders_text
from tests.service.conftest import Mailbag, wait_for
from tests.smtp_loopback import HOST


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


def test_a_site_build_that_fails_leaves_the_desk_serving_and_the_step_s_mail_already_sent(
        referee, smtp_capture, tmp_path, monkeypatch):
    """A fault in the archive's build (here a KeyError, as a template or a record the
    build does not expect would raise) is logged and counted; the step's mail was sent
    before the build began, and the next message is answered."""
    import adjudicator.site

    handler, port = smtp_capture
    received_when_built: list[int] = []

    def faulty_build(record_text, folder, key=None):
        received_when_built.append(len(handler.received))
        raise KeyError("a name the archive's build does not know")

    monkeypatch.setattr(adjudicator.site, "build_site", faulty_build)
    settings = ServiceSettings(store=referee.store, outbox=referee.outbox, site_dir=tmp_path / "public",
                               tick=3600)
    tally = Tally()
    desk = DeskThread(lambda: Desk(settings, referee.key, SmtpSettings(HOST, port, security="none", timeout=5),
                                   tally), settings.tick)
    desk.start()
    try:
        assert desk.ready.wait(30) and desk.failed is None
        assert desk.submit(email(orders_text(), message_id="<orders-1@japan.test>"), "test").result(30).outcome \
            == "accepted"
        mail = Mailbag(handler)
        wait_for(lambda: received_when_built, 30, "the site was never rebuilt")
        assert received_when_built[0] >= 1 and mail.reports(), "the step's mail waited for the site"
        status = email(f"campaign: {CAMPAIGN}\nside: japan\npassword: {PASSWORDS['japan']}\nstatus\n",
                       message_id="<status@japan.test>")
        desk.submit(status, "test").result(30)
        wait_for(lambda: mail.replies_to("<status@japan.test>"), 30, "the desk stopped answering")
        assert desk.is_alive()
        assert tally.errors == 1 and "site not rebuilt" in tally.last_error
    finally:
        desk.stop()
        desk.join(30)
