"""At a stop that asks both sides at once, a side whose orders on file already answer
its question (sent early, with its confirmation of step 1) is told so in its report:
it need send nothing, and the template would replace the orders on file."""

from __future__ import annotations

from tests.pipeline.pipeline_helpers import (
    ADDRESSES, CAMPAIGN, DEADLINE_HOURS, HOUR, PLAYERS, REFEREE, T0, deliver, email, orders_text, reports,
)


def test_a_side_whose_orders_on_file_answer_the_stop_is_told_it_need_send_nothing(
        campaigns, store, mailroom, referee_key, inbox):
    for attempt in range(12):   # the set-up's cards decide the first question: come to the stop that asks both
        name = f"{CAMPAIGN}-early-{attempt}"
        campaigns.create(name, "tsushima-1905", PLAYERS, referee_key,
                         referee_address=REFEREE, deadline_hours=DEADLINE_HOURS, now=T0)
        early = orders_text("japan", step=1, body="move:\n  Mikasa: port 90\n", entropy="early", campaign=name)
        confirm = orders_text("russia", step=1, body="", entropy="confirm", campaign=name)
        deliver(inbox, email(early, sender=ADDRESSES["japan"], message_id=f"<e-{attempt}@japan.test>"), 100 + attempt)
        deliver(inbox, email(confirm, sender=ADDRESSES["russia"], message_id=f"<c-{attempt}@russia.test>"),
                200 + attempt)
        taken = [t.outcome for t in mailroom.receive(inbox.path, referee_key) if t.campaign == name]
        assert taken == ["accepted", "accepted"]   # the earlier attempts' mails are read again as duplicates
        campaigns.adjudicate(name, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
        _log, match = campaigns.match(name)
        if sorted((d.side, d.kind) for d in match.decisions) == [("japan", "orders"), ("russia", "orders")]:
            break
    else:
        raise AssertionError("no campaign of twelve came to the stop that asks both sides first")
    japan, russia = ([r for r in reports(store, name) if r.recipient == ADDRESSES[side]][-1]
                     for side in ("japan", "russia"))
    assert "Your orders on file answer this question" in japan.words
    assert "Your orders on file answer this question" in japan.html
    assert "Your orders on file answer this question" not in russia.words
