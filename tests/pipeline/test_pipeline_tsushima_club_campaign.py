"""A Tsushima club campaign by mail, with the mistakes real players make: both sides
confirm step 1, then a misspelt ship (refused, with "did you mean"), a move beyond its
class's limits (refused at its line and column), an order line that activates a
follower first (accepted, the line named in the receipt), the side asked second at the stop that
asks both sides, sending after the first side's orders were adjudicated (accepted, under
the step number its report gave), late orders (the documented default, said so in the
report, for the stop missed only: the next stop asks both sides again), and a concession. Every mail is answered, and the record verifies."""

from __future__ import annotations

from adjudicator.campaign.verify import render_verdict, verify_text
from tests.pipeline.pipeline_helpers import (
    ADDRESSES, CAMPAIGN, DEADLINE_HOURS, HOUR, PLAYERS, REFEREE, T0, deliver, email, orders_text, outgoing,
)
from tests.games.tsushima_1905.standing_orders import AHEAD


def receipt(store, campaign: str, message_id: str) -> str:
    (reply,) = [m for m in outgoing(store, campaign) if str(m.message["In-Reply-To"] or "").strip() == message_id]
    return reply.words   # (a phrase is found whichever space the 78-column lines broke it at)


def test_a_tsushima_club_campaign_by_mail_answers_every_mail(campaigns, store, mailroom, referee_key, inbox):
    sent: list[tuple[str, str]] = []   # (the campaign, the Message-ID) of every mail sent

    def send(text: str, side: str, message_id: str, at: int) -> None:
        deliver(inbox, email(text, sender=ADDRESSES[side], message_id=message_id), at)
        sent.append((name, message_id))

    # The set-up's card draw decides what is asked first: about one game in seven opens with a
    # torpedo question before the stop that asks both sides, so campaigns are opened until one
    # comes to that stop first (each with its confirmations by mail, each answered).
    for attempt in range(12):
        name = f"{CAMPAIGN}-{attempt}"
        campaigns.create(name, "tsushima-1905", PLAYERS, referee_key,
                         referee_address=REFEREE, deadline_hours=DEADLINE_HOURS, now=T0)
        for number, side in enumerate(("japan", "russia")):   # the opening asks each side to confirm step 1
            send(orders_text(side, step=1, body="", entropy=f"club-{side}", campaign=name), side,
                 f"<c-{attempt}-{side}@club.test>", 100 + 2 * attempt + number)
        assert [t.outcome for t in mailroom.receive(inbox.path, referee_key)][-2:] == ["accepted", "accepted"]
        step = campaigns.adjudicate(name, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
        assert step.batch == 1
        _log, match = campaigns.match(name)
        if sorted((d.side, d.kind) for d in match.decisions) == [("japan", "orders"), ("russia", "orders")]:
            break
    else:
        raise AssertionError("no campaign of twelve came to the stop that asks both sides first")
    turn = match.state.turn

    misspelt = orders_text("japan", step=2, turn=turn, body="move:\n  Shikishma: ahead\n", campaign=name)
    send(misspelt, "japan", "<j-1@japan.test>", 1_000)
    beyond = orders_text("japan", step=2, turn=turn, body="move:\n  Fuji: P90, P90, P90\n", campaign=name)
    send(beyond, "japan", "<j-2@japan.test>", 2_000)
    accepted = orders_text("japan", step=2, turn=turn, body="order: Mikasa, Fuji, Shikishima, others\n" + AHEAD,
                           campaign=name)
    send(accepted, "japan", "<j-3@japan.test>", 3_000)
    taken = mailroom.receive(inbox.path, referee_key)
    assert [t.outcome for t in taken[-3:]] == ["refused", "refused", "accepted"]
    refusal = receipt(store, name, "<j-1@japan.test>")
    assert "Shikishma" in refusal and "did you mean" in refusal.lower() and "Shikishima" in refusal
    line = beyond.splitlines().index("  Fuji: P90, P90, P90") + 1
    refusal = receipt(store, name, "<j-2@japan.test>")
    assert f"line {line}" in refusal and "column" in refusal and "not 3 times" in refusal
    line = accepted.splitlines().index("order: Mikasa, Fuji, Shikishima, others") + 1
    notes = receipt(store, name, "<j-3@japan.test>")     # accepted, the line not carried out as written named
    assert f"line {line}: order: Fuji activates before Shikishima" in notes

    alone = campaigns.adjudicate(name, referee_key, now=T0 + 2 * HOUR, after=mailroom.queue_reports)
    assert alone.batch is None                            # half a stop is not a step
    send(orders_text("russia", step=2, turn=turn, body=AHEAD, campaign=name), "russia", "<r-1@russia.test>", 4_000)
    taken = mailroom.receive(inbox.path, referee_key)
    assert [t.outcome for t in taken[-1:]] == ["accepted"]   # the second side, after the first was adjudicated
    step = campaigns.adjudicate(name, referee_key, now=T0 + 3 * HOUR, after=mailroom.queue_reports)
    assert step.batch == 2
    batch = campaigns.log(name).batches[-1].body
    assert {e["side"] for e in batch["entries"] if e.get("kind") == "orders"} == {"japan", "russia"}

    reports = len(outgoing(store, name))
    late = campaigns.adjudicate(name, referee_key, now=T0 + 300 * HOUR, after=mailroom.queue_reports)
    assert late.batch == 3 and late.default_notes   # nobody answered in time: the documented default
    said = [m.words for m in outgoing(store, name)[reports:]]
    assert said and all(any(note in words for note in late.default_notes) for words in said)
    batch = campaigns.log(name).batches[-1].body
    assert sum(e.get("kind") == "orders" for e in batch["entries"]) == 2   # the stop missed, and no other:
    _log, match = campaigns.match(name)                 # silence kept the orders on file for that stop only,
    assert sorted((d.side, d.kind) for d in match.decisions) == [("japan", "orders"), ("russia", "orders")]
    assert all("orders for turn" in words and "carry on: yes" in words for words in said)   # and both are asked
    assert "waiting for japan and russia at once (orders)" in render_verdict(verify_text(campaigns.export_public(name)))
    concession = orders_text("russia", step=4, turn=match.state.turn, body="concede: yes\n", campaign=name)
    send(concession, "russia", "<r-2@russia.test>", 5_000)
    send(orders_text("japan", step=4, turn=match.state.turn, body=AHEAD, campaign=name), "japan",
         "<j-4@japan.test>", 6_000)
    assert [t.outcome for t in mailroom.receive(inbox.path, referee_key)][-2:] == ["accepted", "accepted"]
    end = campaigns.adjudicate(name, referee_key, now=T0 + 301 * HOUR, after=mailroom.queue_reports)
    assert end.result is not None and "japan" in str(end.result).lower()   # the other side wins (R-END-2)

    for campaign, message_id in sent:                       # every mail answered
        assert [m for m in outgoing(store, campaign)
                if str(m.message["In-Reply-To"] or "").strip() == message_id], message_id
    verdict = verify_text(campaigns.export_public(name))
    assert verdict.verified, verdict.reason
    assert "(result: Japan wins, conceded)" in render_verdict(verdict)   # in words, not a raw mapping
