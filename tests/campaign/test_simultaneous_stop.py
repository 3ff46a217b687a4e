"""A stop that asks several sides at once (Tsushima's "both sides' orders are due"):
each side's orders are taken under the step number of the report that asked, in any
order, whatever was adjudicated meanwhile; the stop is recorded in one batch once both
are in; nobody gets a report in between; the record verifies."""

from __future__ import annotations

import pytest

from adjudicator.campaign import Campaigns, Player
from adjudicator.campaign.mailroom import Mailroom
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import generate_keypair
from adjudicator.store import Store
from tests.campaign.conftest import confirm
from tests.games.tsushima_1905.standing_orders import AHEAD

PLAYERS = [Player("japan", "togo@example.org", "Togo1905"), Player("russia", "rozhd@example.org", "Suvorov1905")]
PASSWORDS = {p.side: p.password for p in PLAYERS}


@pytest.fixture
def campaigns(tmp_path):
    with Store.open(tmp_path / "campaigns.sqlite3") as store:
        yield Campaigns(store)


def orders(side: str, turn: int, step: int, note: str = "", campaign: str = "tsu") -> str:
    return (f"campaign: {campaign}\nside: {side}\nturn: {turn}\nstep: {step}\npassword: {PASSWORDS[side]}\n"
            f"{AHEAD}{note}")


def at_the_both_sides_stop(campaigns, key, tmp_path):
    """A Tsushima campaign at the stop of its second turn that asks both sides; returns
    the mailroom, the campaign's name and the game turn."""
    mailroom = Mailroom(campaigns, tmp_path / "outbox")
    for attempt in range(40):  # the set-up's cards are random: an ace first asks about torpedoes
        name = f"tsu-{attempt}"
        campaigns.create(name, "tsushima-1905", PLAYERS, key, after=mailroom.queue_opening)
        log, match = campaigns.match(name)
        assert log.next_batch == 1 and not match.decisions  # the set-up draws nothing before both confirm
        confirm(campaigns, key, name, passwords=PASSWORDS)
        assert campaigns.adjudicate(name, key, after=mailroom.queue_reports).batch == 1  # the set-up, step 1
        log, match = campaigns.match(name)
        assert log.next_batch == 2
        if len(match.decisions) == 2:
            break
    else:
        pytest.fail("none of 40 Tsushima set-ups reached a stop that asks both sides at once")
    for side in ("japan", "russia"):
        campaigns.submit(name, orders(side, 1, 2, campaign=name), key)
    step = campaigns.adjudicate(name, key, after=mailroom.queue_reports)
    assert step.batch == 2
    log, match = campaigns.match(name)
    assert {d.side for d in match.decisions} == {"japan", "russia"}
    assert log.batches[-1].body["waiting"]["sides"] == [d.side for d in match.decisions]
    return mailroom, name, match.state.turn


@pytest.mark.parametrize("first,second", [("japan", "russia"), ("russia", "japan")])
def test_the_side_asked_second_is_accepted_after_the_first_sides_orders_were_adjudicated(
        campaigns, tmp_path, first, second):
    key = generate_keypair()[0]
    mailroom, name, turn = at_the_both_sides_stop(campaigns, key, tmp_path)
    queued = len(campaigns.store.outbox(name))
    campaigns.submit(name, orders(first, turn, 3, "# new orders\n", name), key)
    alone = campaigns.adjudicate(name, key, after=mailroom.queue_reports)
    assert alone.batch is None                          # half a stop is not a step
    assert len(campaigns.store.outbox(name)) == queued  # no "nothing since the last report" mail
    _, match = campaigns.match(name)
    assert {d.side for d in match.decisions} == {first, second}  # the half answer is not kept in the game
    receipt = campaigns.submit(name, orders(second, turn, 3, "# new orders\n", name), key)  # the same step
    assert receipt.sha256
    both = campaigns.adjudicate(name, key, after=mailroom.queue_reports)
    assert both.batch == 3
    batch = campaigns.log(name).batches[-1].body
    answered = [(e["side"], e["kind"]) for e in batch["entries"] if e.get("kind") == "orders"]
    assert sorted(answered[:2]) == [("japan", "orders"), ("russia", "orders")]  # the stop's answers, one batch
    _, match = campaigns.match(name)
    assert match.state.turn > turn
    verdict = verify_text(campaigns.export_public(name))
    assert verdict.verified, verdict.reason


def test_each_side_is_asked_its_own_question_in_its_report(campaigns, tmp_path):
    key = generate_keypair()[0]
    _, name, _ = at_the_both_sides_stop(campaigns, key, tmp_path)
    last = campaigns.store.outbox(name)[-2:]  # the reports of the step that reached the stop
    assert sorted(m.recipient for m in last) == sorted(p.address for p in PLAYERS)
    for mail in last:
        assert b"WHAT IS ASKED OF YOU" in mail.eml, mail.recipient


def test_at_the_deadline_only_the_silent_side_gets_the_default_and_the_stop_is_one_batch(campaigns, tmp_path):
    from datetime import datetime, timedelta, timezone

    key = generate_keypair()[0]
    mailroom, name, turn = at_the_both_sides_stop(campaigns, key, tmp_path)
    campaigns.submit(name, orders("russia", turn, 3, "# new orders\n", name), key)
    assert campaigns.adjudicate(name, key, after=mailroom.queue_reports).batch is None
    late = datetime.now(timezone.utc) + timedelta(days=30)
    step = campaigns.adjudicate(name, key, now=late, after=mailroom.queue_reports)
    assert step.batch == 3 and step.defaults == ("japan",)
    batch = campaigns.log(name).batches[-1].body
    assert {e["side"] for e in batch["entries"] if e.get("kind") == "orders"} == {"japan", "russia"}
    assert verify_text(campaigns.export_public(name)).verified


def test_a_side_silent_at_one_stop_is_asked_again_at_the_next_and_the_campaign_waits_for_it(campaigns, tmp_path):
    """Silence at a stop keeps the orders on file for that stop only (rules-notes.md,
    R-AUTO-2a): Japan, silent at turn 2's stop, carries on there with its orders on file,
    and at turn 3's stop is asked again, in its report, with the template; the step
    waits for it, and its 'carry on: yes' answers the stop."""
    from datetime import datetime, timedelta, timezone
    from email import policy
    from email.parser import BytesParser

    key = generate_keypair()[0]
    mailroom, name, turn = at_the_both_sides_stop(campaigns, key, tmp_path)
    campaigns.submit(name, orders("russia", turn, 3, "# new orders\n", name), key)
    late = datetime.now(timezone.utc) + timedelta(days=30)
    step = campaigns.adjudicate(name, key, now=late, after=mailroom.queue_reports)
    assert step.batch == 3 and step.defaults == ("japan",)
    log, match = campaigns.match(name)
    assert match.state.turn > turn and match.decision.kind == "orders"
    assert sorted(d.side for d in match.decisions) == ["japan", "russia"]   # the next stop asks Japan again
    assert log.batches[-1].body["waiting"]["sides"] == [d.side for d in match.decisions]
    (report,) = [m for m in campaigns.store.outbox(name)[-2:] if m.recipient == "togo@example.org"]
    text = BytesParser(policy=policy.default).parsebytes(report.eml).get_body(("plain",)).get_content()
    asked = text[text.index("WHAT IS ASKED OF YOU"):]
    assert f"orders for turn {match.state.turn}" in " ".join(asked.split())
    template = [line.strip() for line in asked.splitlines()]
    assert "carry on: yes" in template[template.index("BEGIN ORDERS"):template.index("END ORDERS")]

    campaigns.submit(name, orders("russia", match.state.turn, 4, "# newer orders\n", name), key)
    waiting = campaigns.adjudicate(name, key, now=late + timedelta(hours=1), after=mailroom.queue_reports)
    assert waiting.batch is None                        # the stop waits for Japan
    campaigns.submit(name, f"campaign: {name}\nside: japan\nturn: {match.state.turn}\nstep: 4\n"
                           f"password: {PASSWORDS['japan']}\ncarry on: yes\n", key)
    answered = campaigns.adjudicate(name, key, now=late + timedelta(hours=2), after=mailroom.queue_reports)
    assert answered.batch == 4 and answered.defaults == ()
    assert verify_text(campaigns.export_public(name)).verified


def test_status_by_mail_names_every_side_asked_at_the_stop(campaigns, tmp_path):
    from adjudicator.campaign.mail_desk import status_text

    key = generate_keypair()[0]
    _mailroom, name, _turn = at_the_both_sides_stop(campaigns, key, tmp_path)
    log, match = campaigns.match(name)
    text = status_text(name, log, match, campaigns.deadline(name), ["japan", "russia"])
    asked = [line for line in text.splitlines() if line.startswith("Asked of ")]
    assert [line.split(":")[0] for line in asked] == [f"Asked of {d.side.capitalize()}" for d in match.decisions]
    assert len(asked) == 2
