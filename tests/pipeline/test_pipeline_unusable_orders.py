"""A receipt for orders that cannot answer the open question names each line that
cannot be carried out and why; an order for a sunk ship says so."""

from __future__ import annotations

import dataclasses

from adjudicator.games.port_arthur.state import SUNK
from adjudicator.mail import parse_message
from tests.pipeline.pipeline_helpers import CAMPAIGN, HOUR, PASSWORDS, T0, email, orders_text

NOVIK_TO_THE_PACIFIC = "sortie:\n  Askold to Yellow Sea\n  Novik to Pacific Ocean\n"


def russia_asked(campaigns, mailroom, referee_key):
    assert mailroom.take(parse_message(email(orders_text())), referee_key, None).outcome == "accepted"
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    assert (step.waiting.side, step.waiting.kind) == ("russia", "sortie")


def test_the_receipt_names_the_line_that_cannot_be_carried_out_and_why(campaign, campaigns, mailroom,
                                                                      referee_key):
    russia_asked(campaigns, mailroom, referee_key)
    text = orders_text("russia", step=2, body=NOVIK_TO_THE_PACIFIC)
    receipt, problems = campaigns.check(CAMPAIGN, text)
    line = text.splitlines().index("  Novik to Pacific Ocean") + 1
    assert f"line {line}: Novik cannot reach Pacific Ocean from Port Arthur" in problems
    assert any("you are asked again" in p for p in problems)


def test_an_order_for_a_sunk_ship_says_so(campaign, campaigns, mailroom, referee_key):
    russia_asked(campaigns, mailroom, referee_key)
    from adjudicator.campaign import running
    from adjudicator.games.port_arthur import plans as port_arthur_plans

    log, match = campaigns.match(CAMPAIGN)
    state = match.state
    sunk_state = dataclasses.replace(state, ships={**state.ships,
                                                   "Novik": dataclasses.replace(state.ships["Novik"], at=SUNK)})
    text = orders_text("russia", step=2, body="sortie:\n  Novik to Yellow Sea\n")
    reasons = port_arthur_plans.why_not(match.decision, sunk_state, campaigns.check(CAMPAIGN, text)[0].orders)
    assert reasons == [("Novik", "Novik has been sunk: this order is not used")]
    support = running.support("port-arthur")
    lines = running.unusable_lines(support, match.decision, sunk_state, campaigns.check(CAMPAIGN, text)[0].orders,
                                   text)
    assert lines == [f"line {len(text.splitlines())}: Novik has been sunk: this order is not used"]


def test_the_report_names_the_line_not_carried_out_and_why(campaign, campaigns, mailroom, referee_key, store):
    from tests.pipeline.pipeline_helpers import reports

    assert mailroom.take(parse_message(email(orders_text())), referee_key, None).outcome == "accepted"
    russian = email(orders_text("russia", body=NOVIK_TO_THE_PACIFIC), sender="Makarov <makarov@russia.test>",
                    message_id="<novik@russia.test>")
    assert mailroom.take(parse_message(russian), referee_key, None).outcome == "accepted"
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    assert (step.waiting.side, step.waiting.kind) == ("russia", "sortie")
    sent = orders_text("russia", body=NOVIK_TO_THE_PACIFIC)
    line = sent.splitlines().index("  Novik to Pacific Ocean") + 1
    note = f"line {line}: Novik cannot reach Pacific Ocean from Port Arthur"
    assert step.not_carried_out == {"russia": (note,)}
    by_side = {m.recipient: m for m in reports(store)}
    russia_text = by_side["makarov@russia.test"].message.get_body(("plain",)).get_content()
    assert "ORDERS NOT CARRIED OUT AS WRITTEN" in russia_text and note in russia_text
    japan_text = by_side["togo@japan.test"].message.get_body(("plain",)).get_content()
    assert "NOT CARRIED OUT" not in japan_text


def test_receipt_and_report_count_the_lines_of_the_mail_as_sent_not_of_the_echo(campaign, campaigns, mailroom,
                                                                                 referee_key):
    def sent(step: int) -> str:
        return ("Admiral Makarov's orders.\n\nBEGIN ORDERS\n"
                + orders_text("russia", step=step, body="\n" + NOVIK_TO_THE_PACIFIC) + "END ORDERS\n")

    line = sent(1).splitlines().index("  Novik to Pacific Ocean") + 1
    echoed = campaigns.check(CAMPAIGN, sent(1))[0].text.splitlines().index("  Novik to Pacific Ocean") + 1
    assert line != echoed  # (the greeting, the marker and the password line are not echoed)
    note = f"line {line}: Novik cannot reach Pacific Ocean from Port Arthur"
    assert mailroom.take(parse_message(email(orders_text())), referee_key, None).outcome == "accepted"
    mail = email(sent(1), sender="Makarov <makarov@russia.test>", message_id="<novik@russia.test>")
    assert mailroom.take(parse_message(mail), referee_key, None).outcome == "accepted"
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    assert (step.waiting.side, step.waiting.kind) == ("russia", "sortie")
    assert step.not_carried_out == {"russia": (note,)}
    assert note in campaigns.check(CAMPAIGN, sent(2))[1]  # the receipt of the same orders sent again


def test_no_password_is_kept_with_the_text_as_sent(campaign, campaigns, mailroom, referee_key):
    russia_asked(campaigns, mailroom, referee_key)
    mail = email(orders_text("russia", step=2, body=NOVIK_TO_THE_PACIFIC), sender="Makarov <makarov@russia.test>",
                 message_id="<novik-2@russia.test>")
    assert mailroom.take(parse_message(mail), referee_key, None).outcome == "accepted"
    kept = campaigns.log(CAMPAIGN).orders[-1].sent
    assert "Novik to Pacific Ocean" in kept and "password: ********" in kept
    assert PASSWORDS["russia"] not in kept
