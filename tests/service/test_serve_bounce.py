"""``adjudicator serve``: a delivery status notification delivered by LMTP about a
reminder the service sent is recorded as a bounce (the deadline waits, the referee is
told at once) and never answered."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from adjudicator.campaign import Campaigns
from adjudicator.campaign.delivery import DELIVERY
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import CAMPAIGN, REFEREE, parse_eml
from tests.pipeline.test_mail_bounce import dsn
from tests.service.conftest import Mailbag, wait_for


def test_a_bounce_delivered_by_lmtp_holds_the_deadline_and_gets_no_answer(referee, smtp_capture, start_serve):
    with Store.open(referee.store) as store:
        campaigns = Campaigns(store)
        deadline = campaigns.deadline(CAMPAIGN)
        assert Mailroom(campaigns, referee.outbox).remind(CAMPAIGN, 100, datetime.now(timezone.utc)) == "japan"
    handler, port = smtp_capture
    serve = start_serve(smtp_port=port)
    mail = Mailbag(handler)
    wait_for(lambda: [m for m in mail.messages() if "Reminder" in str(m["Subject"])], 20, serve.log)
    (reminder,) = [item for item in handler.received if "Reminder" in str(item.message["Subject"])]

    refused = serve.deliver(dsn(reminder.content), sender="")

    assert refused == {}
    wait_for(lambda: "bounced" in serve.log(), 20, serve.log)
    with Store.open(referee.store) as store:
        assert store.campaign(CAMPAIGN).meta[DELIVERY]["japan"]["status"] == "bounced"
        assert Campaigns(store).deadline(CAMPAIGN) == deadline + timedelta(hours=48)
        told = [parse_eml(m.eml) for m in store.outbox(CAMPAIGN) if m.recipient == REFEREE]
    assert len(told) == 1 and "did not arrive" in str(told[0]["Subject"])
    wait_for(lambda: [m for m in mail.messages() if "did not arrive" in str(m["Subject"])], 20, serve.log)
    assert [item.rcpt_tos for item in handler.received] == [["togo@japan.test"], [REFEREE]]  # no answer to it
    assert serve.terminate() == 0
