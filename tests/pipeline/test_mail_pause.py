"""Pauses by consent: 'pause: until DATE' from one side pauses nothing (that side gets a
receipt, the others are asked); once every side has asked the campaign is paused until
the earliest day asked, everybody is told, deadlines move by the time paused and no
reminder is sent; the referee may rule a pause with a reason that goes into the public
record, which 'adjudicator verify' and the browser verifier accept; 'pause: none'
withdraws a request."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest

from adjudicator.campaign.pause import REQUESTS, pause_records
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice.keys import save_private_key
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    DEADLINE_HOURS,
    PLAYERS,
    REFEREE,
    assert_no_traceback,
    cli,
    command_env,
)
from tests.pipeline.test_mail_desk import answers, ask, command

RUSSIA = f"Stepan Makarov <{ADDRESSES['russia']}>"


def today() -> date:
    return datetime.now(timezone.utc).date()


def midnight(day: date) -> datetime:
    return datetime.combine(day, datetime.min.time(), timezone.utc)


def pause(until: date | str, side: str = "japan", campaign: str = CAMPAIGN) -> str:
    return command(f"pause: until {until}", side, campaign=campaign)


def to(store, side: str, campaign: str = CAMPAIGN):
    return [m for m in answers(store, campaign) if m.recipient == ADDRESSES[side]]


def pauses(store, campaign: str = CAMPAIGN):
    return pause_records(store.entries(campaign))


def fitted(*mails) -> bool:
    return all(len(line) <= 78 for mail in mails for line in mail.text.splitlines())


@pytest.fixture
def running(campaigns, referee_key):
    """Campaign c2, opened an hour ago: its deadline is still to come."""
    campaigns.create("c2", "port-arthur", PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=datetime.now(timezone.utc) - timedelta(hours=1))
    return "c2"


def status_json(store_location, campaign: str) -> dict:
    done = cli("status", campaign, "--store", str(store_location), "--format", "json", env=command_env())
    assert_no_traceback(done)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_pause_without_every_sides_consent_pauses_nothing_and_the_other_side_is_asked(
        running, campaigns, store, store_location, mailroom, referee_key, inbox):
    before = campaigns.deadline(running)
    until = today() + timedelta(days=10)
    taken = ask(mailroom, referee_key, inbox, pause(until, campaign=running), 1)
    assert taken.outcome == "answered", taken.detail
    (receipt,) = to(store, "japan", running)
    assert "Pause asked" in receipt.subject
    assert "is not paused" in receipt.words and "waits for russia" in receipt.words
    assert f"stays {before.strftime('%Y-%m-%d %H:%M UTC')}" in receipt.words
    (notice,) = to(store, "russia", running)
    assert "Japan asks for a pause" in notice.subject
    assert f"pause: until {until}" in notice.text and "side: russia" in notice.text
    assert ADDRESSES["japan"] not in notice.message.as_string() and "Togo-1904" not in notice.text
    assert fitted(receipt, notice)

    quoted = "No, thank you.\n\n" + "".join(f"> {line}\n" for line in notice.text.splitlines())
    ask(mailroom, referee_key, inbox, quoted, 2, sender=RUSSIA, subject=f"Re: {notice.subject}")
    assert store.campaign(running).meta[REQUESTS] == {"japan": str(until)}  # a quoted line agrees to nothing
    assert pauses(store, running) == [] and campaigns.deadline(running) == before  # nothing paused
    assert mailroom.remind(running, 24, now=before - timedelta(hours=12)) is not None  # reminders go on
    assert ask(mailroom, referee_key, inbox, command("status", "russia", campaign=running), 3,
               sender=RUSSIA).outcome == "answered"
    assert f"Pause asked by japan until {until}: it waits for every side" in to(store, "russia", running)[-1].words
    shown = status_json(store_location, running)
    assert shown["pause"] == {"in_force": None, "requests": {"japan": str(until)}}
    assert "japan" in " ".join(campaigns.adjudicate(running, referee_key, now=before + timedelta(hours=1)).defaults)


def test_a_pause_every_side_asks_for_stops_the_clock_until_the_earliest_day_and_everybody_is_told(
        running, campaigns, store, store_location, mailroom, referee_key, inbox, tmp_path):
    before = campaigns.deadline(running)
    japans, russias = today() + timedelta(days=10), today() + timedelta(days=7)
    assert ask(mailroom, referee_key, inbox, pause(japans, campaign=running), 1).outcome == "answered"
    taken = ask(mailroom, referee_key, inbox, pause(russias, "russia", campaign=running), 2, sender=RUSSIA)
    assert taken.outcome == "answered", taken.detail

    (held,) = pauses(store, running)
    assert held.until == russias and held.by == "sides"
    assert held.reason == f"every side asked: japan until {japans}, russia until {russias}"
    moved = campaigns.deadline(running)
    assert moved == midnight(russias) + (before - held.began)  # the time left when the pause began
    for side in ("japan", "russia"):
        told = to(store, side, running)[-1]
        assert f"Paused until {russias}" in told.subject, told.subject
        assert f"until {russias} 00:00 UTC" in told.words and moved.strftime("%Y-%m-%d %H:%M UTC") in told.words
        assert fitted(told)
    assert REQUESTS not in store.campaign(running).meta

    assert mailroom.remind(running, 24 * 30, now=held.began + timedelta(hours=1)) is None  # paused: no reminder
    waiting = campaigns.adjudicate(running, referee_key, now=before + timedelta(hours=1))
    assert waiting.batch is None and waiting.defaults == ()  # the old deadline did not pass
    shown = status_json(store_location, running)
    assert shown["pause"]["in_force"]["until"] == str(russias) and shown["deadline"] == moved.isoformat()
    assert ask(mailroom, referee_key, inbox, pause(japans, campaign=running), 3).outcome == "refused"
    assert "paused already" in to(store, "japan", running)[-1].words

    over = midnight(russias) + timedelta(hours=1)
    assert mailroom.remind(running, 24 * 30, now=over) is not None  # over: told, then reminded
    for side in ("japan", "russia"):
        subjects = [m.subject for m in to(store, side, running)]
        assert any("The pause is over" in s for s in subjects)
    verdict = verify_text(campaigns.export_public(running))
    assert verdict.verified, verdict.reason
    assert [p["by"] for p in verdict.to_json()["pauses"]] == ["sides"]


def test_a_referees_pause_needs_no_consent_and_its_reason_is_verified_in_the_public_record(
        running, campaigns, store, store_location, mailroom, referee_key, tmp_path):
    from tests.campaign.browser_verifier import browser_verdicts
    from tests.campaign.tampering import resign

    key = tmp_path / "referee.key"
    save_private_key(key, referee_key, None)
    until, reason = today() + timedelta(days=5), "the Russian player's house moves; both asked me by phone"
    before = campaigns.deadline(running)
    assert mailroom.remind(running, 24, now=before - timedelta(hours=12)) is not None  # reminded before the pause
    done = cli("pause", running, "--until", str(until), "--reason", reason, "--store", str(store_location),
               "--key", key, cwd=tmp_path, env=command_env())
    assert_no_traceback(done)
    assert done.returncode == 0, done.stderr
    (held,) = pauses(store, running)
    assert held.by == "referee" and held.reason == reason
    assert campaigns.deadline(running) == midnight(until) + (before - held.began)
    for side in ("japan", "russia"):
        told = to(store, side, running)[-1]
        assert f"by the referee's ruling: {reason}" in told.words and fitted(told)

    record = tmp_path / "public.jsonl"
    record.write_text(campaigns.export_public(running), encoding="utf-8")
    checked = cli("verify", record, env=command_env())
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"reason {reason!r}" in checked.stdout and "paused by the referee" in checked.stdout
    listed = cli("history", running, "--store", str(store_location), env=command_env())
    assert f"pause    paused by the referee until {until}: {reason}" in listed.stdout, listed.stdout
    from adjudicator.site import build_site

    build_site(record.read_text(encoding="utf-8"), tmp_path / "site", referee_key)  # the archive takes it too
    feed = json.loads((tmp_path / "site" / "feed.json").read_text(encoding="utf-8"))
    assert {"kind": "pause", "until": str(until), "by": "referee", "reason": reason}.items() <= next(
        event for event in feed["body"]["events"] if event["kind"] == "pause").items()

    ended = cli("pause", running, "--end", "--reason", "the move went faster", "--store", str(store_location),
                "--key", key, cwd=tmp_path, env=command_env())
    assert ended.returncode == 0, ended.stderr
    resumed = campaigns.deadline(running)
    assert resumed < midnight(until)  # the clock runs again from the end
    assert mailroom.remind(running, 24, now=resumed - timedelta(hours=12)) is not None  # reminded again
    assert "The pause is over" in to(store, "russia", running)[-1].subject
    text = campaigns.export_public(running)
    forged = text.replace(json.dumps(reason)[1:-1], "the referee felt like it")
    assert forged != text
    assert not verify_text(forged).verified  # the reason is signed: changing it breaks the record
    backwards = resign(text, referee_key, lambda pairs: [  # re-signed: the end dated before the pause
        (kind, {**body, "from": "2000-01-01T00:00:00+00:00"} if kind == "pause" and body["by"] == "referee"
         and body["reason"].startswith("the move") else body) for kind, body in pairs])
    malformed = resign(text, referee_key, lambda pairs: [
        (kind, {**body, "until": "someday"} if kind == "pause" else body) for kind, body in pairs])
    impossible = resign(text, referee_key, lambda pairs: [  # a day no calendar has, as both verifiers read it
        (kind, {**body, "until": "2099-02-30"} if kind == "pause" else body) for kind, body in pairs])
    extra = resign(text, referee_key, lambda pairs: [
        (kind, {**body, "note": "x"} if kind == "pause" else body) for kind, body in pairs])
    assert "pauses follow each other in time" in verify_text(backwards).reason
    assert "pause record does not follow its schema" in verify_text(malformed).reason
    assert not verify_text(impossible).verified and not verify_text(extra).verified
    found = browser_verdicts([("paused", text, ""), ("forged", forged, ""), ("backwards", backwards, ""),
                              ("malformed", malformed, ""), ("impossible", impossible, ""), ("extra", extra, "")],
                             tmp_path / "browser")
    assert found["paused"]["status"] == "verified", found["paused"]
    assert found["forged"]["status"] == "failed"
    assert "pauses follow each other in time" in found["backwards"]["reason"]
    for bad in ("malformed", "impossible", "extra"):
        assert "a pause without its time, date" in found[bad]["reason"], (bad, found[bad])


def test_a_referees_pause_is_refused_without_a_reason_or_with_a_day_already_past(
        running, store, store_location, referee_key, tmp_path):
    key = tmp_path / "referee.key"
    save_private_key(key, referee_key, None)
    for args, said in (((today() + timedelta(days=3)).isoformat(), "needs its reason"),
                       (today().isoformat(), "would be over already"), ("2027-02-30", "'2027-02-30' is not a date")):
        done = cli("pause", running, "--until", args, "--reason", "" if "reason" in said else "why",
                   "--store", str(store_location), "--key", key, cwd=tmp_path, env=command_env())
        assert_no_traceback(done)
        assert done.returncode != 0 and said in done.stderr, done.stderr
    done = cli("pause", running, "--end", "--reason", "why", "--store", str(store_location), "--key", key,
               cwd=tmp_path, env=command_env())
    assert done.returncode != 0 and "is not paused" in done.stderr
    assert pauses(store, running) == []


def test_pause_none_withdraws_a_request_and_the_other_side_is_told(
        running, campaigns, store, mailroom, referee_key, inbox):
    until = today() + timedelta(days=4)
    assert ask(mailroom, referee_key, inbox, pause(until, campaign=running), 1).outcome == "answered"
    taken = ask(mailroom, referee_key, inbox, command("pause: none", campaign=running), 2)
    assert taken.outcome == "answered", taken.detail
    withdrawn = to(store, "japan", running)[-1]
    assert "Pause request withdrawn" in withdrawn.subject
    assert f"your request to pause campaign {running} until {until}" in withdrawn.words
    assert "the other side is told" in withdrawn.words
    assert "Japan withdrew its pause request" in to(store, "russia", running)[-1].subject
    assert REQUESTS not in store.campaign(running).meta
    assert ask(mailroom, referee_key, inbox, pause(until, "russia", campaign=running), 3,
               sender=RUSSIA).outcome == "answered"
    assert pauses(store, running) == []  # Japan's consent was withdrawn: Russia's request waits alone
    taken = ask(mailroom, referee_key, inbox, command("pause: none", campaign=running), 4)
    assert taken.outcome == "refused" and "withdraws no request" in to(store, "japan", running)[-1].words


def test_a_malformed_or_past_pause_is_refused_quoting_the_line(running, store, mailroom, referee_key, inbox):
    for n, (line, said) in enumerate((("pause: next week", "'pause: next week' is not a pause"),
                                      ("pause: until 2026-13-01", "'2026-13-01' is not a date"),
                                      (f"pause: until {today()}", "would be over already"),
                                      ("pause: until 9999-12-31", "longer than a campaign may pause at once")),
                                     start=1):
        taken = ask(mailroom, referee_key, inbox, command(line, campaign=running), n)
        assert taken.outcome == "refused"
        assert said in to(store, "japan", running)[-1].words
    assert REQUESTS not in store.campaign(running).meta and not to(store, "russia", running)
    taken = ask(mailroom, referee_key, inbox, command(f"pause: until {today() + timedelta(days=2)}", password="x",
                                                      campaign=running), 9)
    assert taken.outcome == "refused" and "wrong password" in to(store, "japan", running)[-1].words


def test_an_ended_campaign_cannot_be_paused(demo_run, tmp_path):
    import shutil

    store = tmp_path / "campaigns.sqlite3"
    shutil.copy(demo_run.folder / "campaigns.sqlite3", store)  # the demo's, played to its end
    done = cli("pause", "demo", "--until", str(today() + timedelta(days=3)), "--reason", "why", "--store", store,
               "--key", demo_run.folder / "referee.key", cwd=tmp_path, env=command_env())
    assert_no_traceback(done)
    assert done.returncode == 2 and "has ended: there is nothing to pause" in done.stderr, done.stderr


def test_serves_clock_tells_every_player_once_when_a_pause_is_over(
        running, store, store_location, referee_key, tmp_path):
    from adjudicator.campaign.pause import rule_pause
    from adjudicator.service.desk import Desk, Tally
    from adjudicator.service.settings import ServiceSettings

    until = today() + timedelta(days=2)
    rule_pause(store, running, referee_key, until, "a storm on the line")
    desk = Desk(ServiceSettings(store=store_location, outbox=tmp_path / "outbox"), referee_key, None, Tally())
    try:
        desk.tick(now=midnight(until) - timedelta(hours=1))
        assert not any("The pause is over" in m.subject for m in answers(store, running))
        desk.tick(now=midnight(until) + timedelta(minutes=1))
        desk.tick(now=midnight(until) + timedelta(minutes=2))
    finally:
        desk.close()
    over = [m for m in answers(store, running) if "The pause is over" in m.subject]
    assert sorted(m.recipient for m in over) == sorted(ADDRESSES.values())  # each player, once
    assert "the clock runs again" in over[0].words and fitted(*over)


def test_a_request_whose_day_has_come_agrees_to_nothing_any_more(running, store, mailroom, referee_key, inbox):
    with store.transaction(running) as tx:  # Japan asked, long ago, for a pause until yesterday
        tx.set_meta({**tx.campaign().meta, REQUESTS: {"japan": str(today() - timedelta(days=1))}})
    later = today() + timedelta(days=3)
    taken = ask(mailroom, referee_key, inbox, pause(later, "russia", campaign=running), 1, sender=RUSSIA)
    assert taken.outcome == "answered", taken.detail
    assert pauses(store, running) == [] and "waits for japan" in to(store, "russia", running)[-1].words
    assert store.campaign(running).meta[REQUESTS] == {"russia": str(later)}


def test_help_by_mail_tells_how_to_ask_for_a_pause(campaign, store, mailroom, referee_key, inbox):
    assert ask(mailroom, referee_key, inbox, f"campaign: {CAMPAIGN}\nhelp\n", 1).outcome == "answered"
    (reply,) = answers(store)
    assert "pause: until" in reply.text and "every side has asked" in reply.words and "pause: none" in reply.text
    assert fitted(reply)


def test_the_step_command_of_cron_tells_every_player_when_a_pause_is_over(
        running, store, store_location, referee_key, tmp_path):
    from adjudicator.campaign.pause import rule_pause

    key = tmp_path / "referee.key"
    save_private_key(key, referee_key, None)
    until = today() + timedelta(days=2)
    rule_pause(store, running, referee_key, until, "the referee travels")

    def step(at: datetime):
        done = cli("step", running, "--store", str(store_location), "--key", key, "--outbox", tmp_path / "outbox",
                   "--now", at.isoformat(), cwd=tmp_path, env=command_env())
        assert_no_traceback(done)
        assert done.returncode == 0, done.stderr
        return [m for m in answers(store, running) if "The pause is over" in m.subject]

    assert step(midnight(until) - timedelta(minutes=5)) == []
    assert len(step(midnight(until) + timedelta(minutes=5))) == 2
    assert len(step(midnight(until) + timedelta(minutes=10))) == 2  # told once


def test_a_pause_line_beside_orders_is_not_carried_out_and_the_receipt_says_so(campaign, store, mailroom,
                                                                               referee_key, inbox):
    from tests.pipeline.pipeline_helpers import orders_text

    later = today() + timedelta(days=3)
    text = f"BEGIN ORDERS\n{orders_text()}END ORDERS\n\npause: until {later}\n"
    taken = ask(mailroom, referee_key, inbox, text, 1)
    assert taken.outcome == "accepted", taken.detail
    assert REQUESTS not in store.campaign(CAMPAIGN).meta  # no request recorded
    (receipt,) = [m for m in answers(store) if "Orders accepted" in m.subject]
    words = " ".join(receipt.words.split())
    assert f"Not carried out: the line 'pause: until {later}' of your mail, beside your orders" in words
    assert fitted(receipt)
