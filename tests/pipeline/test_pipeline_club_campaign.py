"""A club campaign by mail, with the mistakes real players make: a resend A, B, A; a
stranger's mail; a malformed message; a reply below the quoted report; orders in an
attachment with a cover note; an undo; a missed question. Every incoming mail is
answered, the orders in force are always the last ones sent, and verify names the
voided step."""

from __future__ import annotations

from email.message import EmailMessage

from adjudicator.campaign.verify import verify_text
from tests.pipeline.malformed_mail import UTF7_LONE_SURROGATE
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    HOUR,
    T0,
    deliver,
    email,
    orders_text,
    outgoing,
    reports,
)


def ships(campaigns, side):
    _, match = campaigns.match(CAMPAIGN)
    return {name: ship.at for name, ship in match.state.ships.items() if ship.side == side}


def attached(cover: str, orders: str, message_id: str) -> bytes:
    message = EmailMessage()
    message["From"] = f"Makarov <{ADDRESSES['russia']}>"
    message["To"] = "referee@adjudicator.test"
    message["Subject"] = "orders attached"
    message["Message-ID"] = message_id
    message.set_content(cover)
    message.add_attachment(orders.encode(), maintype="text", subtype="plain", filename="orders.txt")
    return bytes(message)


def answered(store, message_id: str) -> bool:
    return any(str(m.message["In-Reply-To"] or "").strip() == message_id for m in outgoing(store))


def test_a_club_campaign_by_mail_answers_every_mail_and_plays_the_last_orders(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    a = orders_text(body="sortie:\n  Mikasa to Tsushima\n")
    b = orders_text(body="sortie:\n  Mikasa to Pacific Ocean\n")
    deliver(inbox, email(a, message_id="<j-a@japan.test>"), 1_000)
    deliver(inbox, email(b, message_id="<j-b@japan.test>"), 2_000)
    deliver(inbox, email(a, message_id="<j-a-again@japan.test>"), 3_000)
    deliver(inbox, email("campaign: c1\nCheap watches at spam.example\n", sender="spam@elsewhere.test",
                         message_id="<spam@elsewhere.test>"), 4_000)
    deliver(inbox, UTF7_LONE_SURROGATE, 5_000)

    taken = mailroom.receive(inbox.path, referee_key)
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)

    assert [t.outcome for t in taken] == ["accepted", "accepted", "accepted", "refused", "refused"]
    assert step.batch == 1 and ships(campaigns, "japan")["Mikasa"] == "Tsushima"  # A, B, A: A
    for message_id in ("<j-a@japan.test>", "<j-b@japan.test>", "<j-a-again@japan.test>",
                       "<spam@elsewhere.test>", "<utf7@japan.test>"):
        assert answered(store, message_id), message_id
    assert all("watches" not in m.text for m in outgoing(store))

    (report,) = [m for m in reports(store) if m.recipient == ADDRESSES["russia"]]
    quoted = "".join(f"> {line}\n" for line in report.text.splitlines())
    novik_at_start = ships(campaigns, "russia")["Novik"]
    below = orders_text("russia", step=2, body="sortie:\n  Novik to Yellow Sea\n")
    deliver(inbox, email(f"On Mon, 8 Feb 1904, Referee wrote:\n{quoted}\n{below}", sender=ADDRESSES["russia"],
                         message_id="<r-below@russia.test>", subject=f"Re: {report.subject}"), 6_000)
    deliver(inbox, attached("Admiral, my final orders are attached.\nMakarov\n",
                            orders_text("russia", step=2, body="sortie: none\n"), "<r-attached@russia.test>"), 7_000)

    taken = mailroom.receive(inbox.path, referee_key)
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR, after=mailroom.queue_reports)
    files, marked, failures = mailroom.send(CAMPAIGN, None, mark_sent=True)

    assert [t.outcome for t in taken[-2:]] == ["accepted", "accepted"]
    assert answered(store, "<r-below@russia.test>") and answered(store, "<r-attached@russia.test>")
    attachment_receipt = [m for m in outgoing(store) if "<r-attached@russia.test>" in str(m.message["In-Reply-To"])]
    assert "the message body was ignored" in attachment_receipt[0].text
    assert step.batch == 2
    assert "Russia keeps its ships in port." in [e.text for e in step.events]
    assert ships(campaigns, "russia")["Novik"] == novik_at_start  # the last orders: no sortie
    assert failures == [] and marked == len(outgoing(store)) and len(files) == marked
    assert {m.status for m in outgoing(store)} == {"sent"}

    # The referee voids step 2: every player is told why; the step is played again on fresh
    # orders (every side sends something: russia orders, japan a confirmation); a missed
    # question gets its default only; verify names the voided step.
    reason = "Russia says the attachment was sent by mistake"
    campaigns.undo(CAMPAIGN, referee_key, reason, now=T0 + 2 * HOUR)  # the clock of the other steps
    notices = [m for m in outgoing(store) if "voided" in m.subject]
    assert sorted(m.recipient for m in notices) == sorted(ADDRESSES.values()) and reason in notices[0].text
    fresh = orders_text("russia", step=3, body="sortie:\n  Novik to Yellow Sea\n")
    deliver(inbox, email(fresh, sender=ADDRESSES["russia"], message_id="<r-fresh@russia.test>"), 8_000)
    turn = campaigns.match(CAMPAIGN)[1].state.turn
    confirmed = orders_text("japan", step=3, turn=turn, body="", entropy="japan-confirms-step-3")  # a fresh contribution
    deliver(inbox, email(confirmed, message_id="<j-confirms@japan.test>"), 8_500)
    mailroom.receive(inbox.path, referee_key)
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 3 * HOUR, after=mailroom.queue_reports)
    assert step.batch == 3 and answered(store, "<r-fresh@russia.test>")

    if step.result is None:
        late = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 500 * HOUR, after=mailroom.queue_reports)
        assert len(late.default_notes) == 1  # the missed question only

    verdict = verify_text(campaigns.export_public(CAMPAIGN))
    assert verdict.verified, verdict.reason
    assert [(v["batch"], v["reason"]) for v in verdict.voided] == [(2, reason)]
