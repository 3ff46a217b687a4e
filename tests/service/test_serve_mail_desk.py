"""The referee's desk by mail through ``adjudicator serve``: a command delivered by LMTP
(as a mail server delivers) is answered at once by SMTP (the loopback server), and
records nothing."""

from __future__ import annotations

from adjudicator.campaign import Campaigns
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import CAMPAIGN, PASSWORDS, email
from tests.service.conftest import Mailbag, wait_for


def test_status_and_help_by_mail_are_answered_at_once_by_serve(referee, smtp_capture, start_serve):
    handler, port = smtp_capture
    serve = start_serve(smtp_port=port)
    serve.deliver(email(f"campaign: {CAMPAIGN}\nside: japan\npassword: {PASSWORDS['japan']}\nstatus\n",
                        message_id="<status@japan.test>"))
    serve.deliver(email(f"campaign: {CAMPAIGN}\nhelp\n", message_id="<help@japan.test>"))
    mail = Mailbag(handler)
    wait_for(lambda: mail.replies_to("<status@japan.test>") and mail.replies_to("<help@japan.test>"), 20,
             serve.log)
    [status] = mail.replies_to("<status@japan.test>")
    assert str(status["Subject"]) == f"[{CAMPAIGN}] Status" and str(status["To"]) == "togo@japan.test"
    text = status.get_body(("plain",)).get_content()
    assert "Asked of Japan" in text and "Deadline:" in text
    [help_answer] = mail.replies_to("<help@japan.test>")
    assert "status" in help_answer.get_body(("plain",)).get_content()
    assert "answered togo@japan.test -> c1" in serve.log()
    assert PASSWORDS["japan"] not in serve.log()
    with Store.open(referee.store) as store:
        assert [r.kind for r in Campaigns(store).log(CAMPAIGN).records] == ["charter"]
