"""``adjudicator serve`` with mail delivered by LMTP (``smtplib.LMTP``, as a mail server
delivers), replies captured by the loopback SMTP server: each orders email is answered
at once with its receipt and the step's reports, taken once, and the service stops
gracefully on SIGTERM."""

from __future__ import annotations

import smtplib

from adjudicator.campaign import Campaigns
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import CAMPAIGN, email, orders_text
from tests.service.conftest import Mailbag, wait_for
from tests.smtp_loopback import HOST


def batches(referee) -> int:
    with Store.open(referee.store) as store:
        return len(Campaigns(store).log(CAMPAIGN).batches)


def test_orders_delivered_by_lmtp_are_answered_with_a_receipt_and_the_step_reports(referee, smtp_capture, start_serve):
    handler, port = smtp_capture
    serve = start_serve(smtp_port=port)
    serve.deliver(email(orders_text(), message_id="<o1@japan.test>"))
    mail = Mailbag(handler)
    wait_for(lambda: len(mail.messages()) >= 3, 20, lambda: f"replies: {len(mail.messages())}\n{serve.log()}")
    [receipt] = mail.replies_to("<o1@japan.test>")
    assert "Orders accepted" in str(receipt["Subject"])
    assert {str(m["To"]) for m in mail.reports()} == {"togo@japan.test", "makarov@russia.test"}
    assert batches(referee) == 1
    assert "accepted togo@japan.test -> c1" in serve.log()
    assert "Togo-1904" not in serve.log()  # no password in the log
