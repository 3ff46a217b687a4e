"""A Russo-Japanese War club campaign by mail with the naval option, with the mistakes
real players make: a misspelt ship and unit (refused, with "did you mean"), orders with
an unreachable move, an attack by a unit that will not be adjacent and a support card not
in hand (accepted, each line named in the receipt), late orders (the documented default,
said so). Every mail is answered and the record verifies."""

from __future__ import annotations

from adjudicator.campaign.verify import verify_text
from tests.pipeline.pipeline_helpers import (
    ADDRESSES, CAMPAIGN, DEADLINE_HOURS, HOUR, PLAYERS, REFEREE, T0, deliver, email, orders_text, outgoing,
)


def receipt(store, message_id: str) -> str:
    (reply,) = [m for m in outgoing(store) if str(m.message["In-Reply-To"] or "").strip() == message_id]
    return reply.words   # (a phrase is found whichever space the 78-column lines broke it at)


def test_an_rjw_club_campaign_with_the_naval_option(campaigns, store, mailroom, referee_key, inbox):
    campaigns.create(CAMPAIGN, "russo-japanese-war", PLAYERS, referee_key, options={"naval": True},
                     referee_address=REFEREE, deadline_hours=DEADLINE_HOURS, now=T0)
    for number, side in enumerate(("japan", "russia")):   # the opening asks each side to confirm step 1
        confirmation = orders_text(side, step=1, body="", entropy=f"club-{side}")
        deliver(inbox, email(confirmation, sender=ADDRESSES[side], message_id=f"<c-{side}@club.test>"), 100 + number)
    assert [t.outcome for t in mailroom.receive(inbox.path, referee_key)] == ["accepted", "accepted"]
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    assert (step.waiting.side, step.waiting.kind) == ("russia", "flagship")
    russia = ADDRESSES["russia"]

    misspelt = orders_text("russia", step=2, body="naval:\n  flagship Petropavlosk\n")
    deliver(inbox, email(misspelt, sender=russia, message_id="<r-1@russia.test>"), 1_000)
    standing = orders_text("russia", step=2, body=("naval:\n  flagship Petropavlovsk\n  sortie port-arthur\n"
                                                   "events:\n  Kuropatkin if defending and differential >= 4\n"
                                                   "retreat: toward 2417\nchain: weakest first\n"))
    deliver(inbox, email(standing, sender=russia, message_id="<r-2@russia.test>"), 2_000)
    taken = mailroom.receive(inbox.path, referee_key)
    assert [t.outcome for t in taken[-2:]] == ["refused", "accepted"]
    refusal = receipt(store, "<r-1@russia.test>")
    assert "E504" in refusal and "Petropavlovsk" in refusal
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR, after=mailroom.queue_reports)
    assert (step.waiting.side, step.waiting.kind) == ("japan", "move")

    misspelt = orders_text("japan", step=3, body="move:\n  Gsd korea-1015-1114\n")
    deliver(inbox, email(misspelt, message_id="<j-1@japan.test>"), 3_000)
    body = ("move:\n"
            "  Gds korea-1015-1114\n"
            "  12 korea-1015-1115-1215-1216\n"
            "  2 korea-1015-1115-1215\n"
            "attack:\n"
            "  1214 with Gds, 2, 12 support using Kodama\n"
            "cards: done\n")
    mistaken = orders_text("japan", step=3, body=body)
    deliver(inbox, email(mistaken, message_id="<j-2@japan.test>"), 4_000)
    taken = mailroom.receive(inbox.path, referee_key)
    assert [t.outcome for t in taken[-2:]] == ["refused", "accepted"]
    assert "E501" in receipt(store, "<j-1@japan.test>") and "Gds" in receipt(store, "<j-1@japan.test>")
    notes = receipt(store, "<j-2@japan.test>")
    lines = mistaken.splitlines()
    move = lines.index("  12 korea-1015-1115-1215-1216") + 1
    attack = lines.index("  1214 with Gds, 2, 12 support using Kodama") + 1
    assert f"line {move}: 12 cannot reach 1216: 4 hexes, movement allowance 3 (8.0), " \
           "so 12 does not move" in notes
    assert f"line {attack}: 12 cannot attack 1214: it is in the korea box, not adjacent (9.1, A10)" in notes

    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 3 * HOUR, after=mailroom.queue_reports)
    _log, match = campaigns.match(CAMPAIGN)
    units = match.state["units"]
    assert units["Gds"]["at"] in ("1114", "eliminated") and units["12"]["at"] == "korea"
    assert all(m.message["In-Reply-To"] or m.recipient in ADDRESSES.values() for m in outgoing(store))

    defaulted = 0
    for hours in (200, 400, 600):                           # nobody answers in time: the defaults, said so
        if step.result is not None or step.waiting is None:
            break
        step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + hours * HOUR, after=mailroom.queue_reports)
        assert step.default_notes
        defaulted += 1
    assert defaulted, "the campaign was not waiting for anyone: no deadline passed"
    verdict = verify_text(campaigns.export_public(CAMPAIGN))
    assert verdict.verified, verdict.reason


def test_step_sends_the_receipt_of_a_first_confirmation_while_the_other_side_is_awaited(
        campaigns, store, referee_key, inbox, tmp_path):
    """The one-command step (for cron) on a new campaign whose set-up draws: one side's
    confirmation is taken in and its receipt sent, and the step says whom it waits for."""
    from adjudicator.fairdice.keys import save_private_key
    from tests.pipeline.pipeline_helpers import assert_no_traceback, cli, parse_eml

    campaigns.create(CAMPAIGN, "russo-japanese-war", PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    key = tmp_path / "referee.key"
    save_private_key(key, referee_key, None)
    confirmation = orders_text("japan", step=1, body="", entropy="club-japan")
    deliver(inbox, email(confirmation, message_id="<c-japan@club.test>"), 100)
    done = cli("step", CAMPAIGN, inbox.path, "--store", store.path, "--key", key, "--outbox", tmp_path / "outbox",
               "--now", (T0 + HOUR).isoformat(), cwd=tmp_path)
    assert_no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert "1 orders accepted" in done.stdout and "waiting for russia" in done.stdout
    written = [parse_eml(path.read_bytes()) for path in (tmp_path / "outbox").glob("*.eml")]
    assert any(str(m["In-Reply-To"] or "").strip() == "<c-japan@club.test>" for m in written)  # the receipt
    assert campaigns.log(CAMPAIGN).batches == []
