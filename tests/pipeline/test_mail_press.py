"""Press: a player's mail with 'press:' and a message below it is relayed to the other
side from the referee's address, naming the sender by side only; the message's SHA-256
goes into the public record (its text never), which 'adjudicator verify' and the
browser verifier accept; it is delivered at once or after the campaign's courier
delay, by the next 'step' once due; press in a campaign without it, or with a wrong
password, is refused and nothing is relayed."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta, timezone

import pytest

from adjudicator.campaign.press import WAITING, deliver
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice.keys import save_private_key
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    DEADLINE_HOURS,
    PASSWORDS,
    PLAYERS,
    REFEREE,
    assert_no_traceback,
    cli,
    command_env,
)
from tests.pipeline.test_mail_desk import answers, ask

RUSSIA = f"Stepan Makarov <{ADDRESSES['russia']}>"
MESSAGE = ("Admiral,\n\nMy destroyers will keep to the Yellow Sea tonight; yours may keep to the harbour\n"
           "and nobody need get wet. Sealed by the Golden Kite.   \n"
           "  An indented line, and one far too long for any mail program to keep whole on a single "
           "line of seventy-eight columns, which the relayed mail wraps.\n\n")
SIGNATURE = "-- \nHeihachiro Togo\ntogo@japan.test, +81 3 0000 0000\n"
#: The message as relayed and hashed: trailing spaces off, no blank lines at either
#: end, one newline at the end, no signature.
RELAYED = ("Admiral,\n\nMy destroyers will keep to the Yellow Sea tonight; yours may keep to the harbour\n"
           "and nobody need get wet. Sealed by the Golden Kite.\n"
           "  An indented line, and one far too long for any mail program to keep whole on a single "
           "line of seventy-eight columns, which the relayed mail wraps.\n")


def press_mail(text: str = MESSAGE + SIGNATURE, side: str = "japan", password: str | None = None,
               campaign: str = "p1", line: str = "press:") -> str:
    return "\n".join([f"campaign: {campaign}", f"side: {side}",
                      f"password: {PASSWORDS[side] if password is None else password}", line, text])


def make(campaigns, referee_key, name: str, delay: float | None) -> str:
    """Campaign ``name``, opened an hour ago, with press (courier ``delay`` hours) or without (None)."""
    campaigns.create(name, "port-arthur", PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=datetime.now(timezone.utc) - timedelta(hours=1),
                     press=None if delay is None else {"on": True, "delay_hours": delay})
    return name


def to(store, side: str, campaign: str):
    return [m for m in answers(store, campaign) if m.recipient == ADDRESSES[side]]


def press_records(store, campaign: str):
    return [json.loads(e.body_json)["record"]["body"] for e in store.entries(campaign) if e.kind == "press"]


def salts(store, campaign: str) -> list[str]:
    """Each press record's salt, kept in the entry's private part."""
    return [json.loads(e.body_json)["private"]["salt"] for e in store.entries(campaign) if e.kind == "press"]


def as_hashed(text: str, salt: str) -> bytes:
    """The text as the record's SHA-256 is of it, and as the relayed mail attaches it."""
    return f"{text}salt: {salt}\n".encode("utf-8")


def fitted(*mails) -> bool:
    return all(len(line) <= 78 for mail in mails for line in mail.text.splitlines())


def raw(store, campaign: str, outbox_id: int) -> bytes:
    return next(m.eml for m in store.outbox(campaign) if m.id == outbox_id)


def attachment(mail) -> tuple[str, bytes]:
    (part,) = list(mail.message.iter_attachments())
    return part.get_filename(), part.get_content() if isinstance(part.get_content(), bytes) else part.get_payload(
        decode=True)


def test_press_is_relayed_to_the_other_side_without_any_address_and_only_its_hash_is_public(
        campaigns, store, store_location, mailroom, referee_key, inbox, tmp_path):
    press = make(campaigns, referee_key, "p1", 0)
    taken = ask(mailroom, referee_key, inbox, press_mail(), 1)
    assert taken.outcome == "answered", taken.detail

    (salt,) = salts(store, press)
    assert len(salt) == 32 and salt not in campaigns.export_public(press)  # private: never in the record
    digest = hashlib.sha256(as_hashed(RELAYED, salt)).hexdigest()
    assert digest != hashlib.sha256(RELAYED.encode("utf-8")).hexdigest()  # the text alone does not give it
    (record,) = press_records(store, press)
    assert record["side"] == "japan" and record["to"] == ["russia"] and record["sha256"] == digest
    assert record["deliver_at"] == record["at"]

    (relayed,) = to(store, "russia", press)
    assert relayed.subject == f"[{press}] Press from Japan"
    assert str(relayed.message["From"]) == REFEREE and relayed.message["In-Reply-To"] is None
    whole = raw(store, press, relayed.id)
    for secret in (b"japan.test", b"Togo-1904", b"Heihachiro", b"+81 3"):  # no address, password or signature
        assert secret not in whole, secret
    assert all(len(line) <= 78 for line in whole.decode("ascii").splitlines())  # the wire form too
    assert "Sealed by the Golden Kite." in relayed.text and "which the relayed mail wraps." in relayed.words
    assert "| Admiral,\n|\n| My destroyers" in relayed.text.replace("\r\n", "\n")  # the sender's words, marked
    assert digest in relayed.text and f"sha256sum press-{digest[:12]}.txt" in relayed.words
    assert "side: russia" in relayed.text and "press:" in relayed.text  # how to answer
    name, data = attachment(relayed)
    assert name == f"press-{digest[:12]}.txt" and data == as_hashed(RELAYED, salt)
    assert hashlib.sha256(data).hexdigest() == digest  # what 'sha256sum' of the file prints

    (receipt,) = to(store, "japan", press)
    assert receipt.subject == f"[{press}] Press recorded" and receipt.message["In-Reply-To"] == "<ask-1@japan.test>"
    assert digest in receipt.text and "went to Russia at once" in receipt.words
    assert "never your address" in receipt.words and "Not relayed: your mail's lines from the line '--'" in receipt.words
    assert fitted(relayed, receipt)

    public = campaigns.export_public(press)
    assert digest in public
    for private in ("Golden Kite", "destroyers", "Admiral"):  # the text stays out of the public record
        assert private not in public
    verdict = verify_text(public)
    assert verdict.verified, verdict.reason
    assert [(p["side"], p["sha256"]) for p in verdict.to_json()["press"]] == [("japan", digest)]
    path = tmp_path / "public.jsonl"
    path.write_text(public, encoding="utf-8")
    checked = cli("verify", path, env=command_env())
    assert_no_traceback(checked)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"press from japan to russia (record 1), delivered {record['at']}: SHA-256 {digest}" in checked.stdout
    listed = cli("history", press, "--store", str(store_location), env=command_env())
    assert f"press    press from japan to russia: SHA-256 {digest[:16]}..." in listed.stdout, listed.stdout
    from adjudicator.site import build_site

    build_site(public, tmp_path / "site", referee_key)  # the archive takes it, and no text of it
    feed = json.loads((tmp_path / "site" / "feed.json").read_text(encoding="utf-8"))
    assert {"kind": "press", "side": "japan", "to": ["russia"], "sha256": digest}.items() <= next(
        event for event in feed["body"]["events"] if event["kind"] == "press").items()
    assert not any("Golden Kite" in page.read_text(encoding="utf-8") for page in (tmp_path / "site").glob("*.*"))

    answer = ask(mailroom, referee_key, inbox, press_mail("Nobody gets wet.\n", "russia", line="press: japan"), 2,
                 sender=RUSSIA)
    assert answer.outcome == "answered", answer.detail
    back = to(store, "japan", press)[-1]
    assert back.subject == f"[{press}] Press from Russia" and b"russia.test" not in raw(store, press, back.id)
    stepped = campaigns.adjudicate(press, referee_key, now=campaigns.deadline(press) + timedelta(hours=1))
    assert stepped.batch == 1  # the game goes on past the press records, and the whole record verifies
    after = verify_text(campaigns.export_public(press))
    assert after.verified and after.batches == 1 and len(after.press) == 2, after.reason


def test_the_browser_verifier_accepts_press_and_refuses_a_malformed_one(
        campaigns, store, mailroom, referee_key, inbox, tmp_path):
    from tests.campaign.browser_verifier import browser_verdicts
    from tests.campaign.tampering import resign

    press = make(campaigns, referee_key, "p1", 0)
    assert ask(mailroom, referee_key, inbox, press_mail(), 1).outcome == "answered"
    text = campaigns.export_public(press)
    to_itself = resign(text, referee_key, lambda pairs: [
        (kind, {**body, "to": ["japan"]} if kind == "press" else body) for kind, body in pairs])
    early = resign(text, referee_key, lambda pairs: [
        (kind, {**body, "deliver_at": "2000-01-01T00:00:00+00:00"} if kind == "press" else body)
        for kind, body in pairs])
    no_hash = resign(text, referee_key, lambda pairs: [
        (kind, {**body, "sha256": "the text itself"} if kind == "press" else body) for kind, body in pairs])
    assert "a message goes from one side of the charter to others" in verify_text(to_itself).reason
    assert "before it arrived" in verify_text(early).reason
    assert "press record does not follow its schema" in verify_text(no_hash).reason
    found = browser_verdicts([("press", text, ""), ("to_itself", to_itself, ""), ("early", early, ""),
                              ("no_hash", no_hash, "")], tmp_path / "browser")
    assert found["press"]["status"] == "verified", found["press"]
    assert "a press record without its sides, hash or times" in found["to_itself"]["reason"]
    assert "press delivered before it arrived" in found["early"]["reason"]
    assert "a press record without its sides, hash or times" in found["no_hash"]["reason"]


def test_press_waits_for_the_courier_and_the_step_of_cron_delivers_it_once_due(
        campaigns, store, store_location, mailroom, referee_key, inbox, tmp_path):
    press = make(campaigns, referee_key, "p2", 6)
    sent = datetime.now(timezone.utc).replace(microsecond=0)
    taken = ask(mailroom, referee_key, inbox, press_mail(campaign=press), 1)
    assert taken.outcome == "answered", taken.detail
    (record,) = press_records(store, press)
    due = datetime.fromisoformat(record["deliver_at"])
    assert timedelta(hours=6) <= due - sent < timedelta(hours=6, minutes=1)
    (receipt,) = to(store, "japan", press)
    assert "waits for the courier" in receipt.subject
    assert f"delay has passed, at {due.strftime('%Y-%m-%d %H:%M UTC')}" in receipt.words
    assert to(store, "russia", press) == [] and store.campaign(press).meta[WAITING] == [1]
    assert deliver(store, press, due - timedelta(minutes=1)) == 0 and to(store, "russia", press) == []

    key = tmp_path / "referee.key"
    save_private_key(key, referee_key, None)

    def step(at: datetime):
        done = cli("step", press, "--store", str(store_location), "--key", key, "--outbox", tmp_path / "outbox",
                   "--now", at.isoformat(), cwd=tmp_path, env=command_env())
        assert_no_traceback(done)
        assert done.returncode == 0, done.stderr
        return to(store, "russia", press)

    (relayed,) = step(due + timedelta(minutes=1))
    assert relayed.subject == f"[{press}] Press from Japan" and record["sha256"] in relayed.text
    assert list((tmp_path / "outbox").glob("*.eml"))  # written out by the same step
    assert WAITING not in store.campaign(press).meta
    assert len(step(due + timedelta(hours=1))) == 1  # delivered once


@pytest.mark.parametrize("why", ["no press", "wrong password", "password in the message", "own side"])
def test_press_that_cannot_be_relayed_is_refused_saying_why_and_nothing_is_recorded(
        campaigns, store, mailroom, referee_key, inbox, why):
    press = make(campaigns, referee_key, "p3", None if why == "no press" else 0)
    mail = {"no press": press_mail(campaign=press),
            "wrong password": press_mail(campaign=press, password="Togo-1905"),
            "password in the message": press_mail(f"Hello.\npassword: {PASSWORDS['japan']}\n", campaign=press),
            "own side": press_mail(campaign=press, line="press: japan")}[why]
    taken = ask(mailroom, referee_key, inbox, mail, 1)
    assert taken.outcome == "refused"
    (reply,) = to(store, "japan", press)
    said = {"no press": f"campaign {press} has no press: the referee has not allowed messages between players",
            "wrong password": "wrong password for japan",
            "password in the message": "a 'password:' line is below the 'press:' line",
            "own side": "names your own side"}[why]
    assert said in reply.words and "nothing was recorded" in reply.words and fitted(reply)
    assert to(store, "russia", press) == [] and press_records(store, press) == []
    assert "Golden Kite" not in reply.text and PASSWORDS["japan"] not in reply.text


def test_the_players_file_turns_press_on_with_its_courier_delay_and_help_tells_it(
        store, store_location, mailroom, referee_key, inbox, tmp_path):
    key = tmp_path / "referee.key"
    save_private_key(key, referee_key, None)
    players = tmp_path / "players.toml"
    base = "".join(f'[[player]]\nside = "{p.side}"\naddress = "{p.address}"\npassword = "{p.password}"\n\n'
                   for p in PLAYERS)
    players.write_text("press = true\npress_delay_hours = 12\n\n" + base, encoding="utf-8")
    done = cli("new", "p4", "--game", "port-arthur", "--players", players, "--from", REFEREE, "--store",
               str(store_location), "--key", key, cwd=tmp_path, env=command_env())
    assert_no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert store.campaign("p4").meta["press"] == {"on": True, "delay_hours": 12}
    assert ask(mailroom, referee_key, inbox, "campaign: p4\nhelp\n", 1).outcome == "answered"
    assert "delivered 12 hours after it arrives" in to(store, "japan", "p4")[-1].words

    players.write_text("press = true\npress_delay_hours = -3\n\n" + base, encoding="utf-8")
    bad = cli("new", "p5", "--game", "port-arthur", "--players", players, "--from", REFEREE, "--store",
              str(store_location), "--key", key, cwd=tmp_path, env=command_env())
    assert_no_traceback(bad)
    assert bad.returncode != 0 and "press_delay_hours = -3" in bad.stderr + bad.stdout


def test_a_roster_campaign_may_have_press(tmp_path):
    from adjudicator.campaign.roster import BadRoster, read_roster

    roster = ('[[player]]\nname = "a"\naddress = "a@x.test"\npassword = "pw-a-1904"\n'
              '[[player]]\nname = "b"\naddress = "b@x.test"\npassword = "pw-b-1904"\n'
              '[[campaign]]\nid = "r1"\nplayers = { japan = "a", russia = "b" }\npress = true\n'
              '[[campaign]]\nid = "r2"\nplayers = { japan = "b", russia = "a" }\n')
    read = read_roster(roster, "league.toml", ["japan", "russia"])
    assert [c.press for c in read.campaigns] == [{"on": True, "delay_hours": 0}, None]
    with pytest.raises(BadRoster, match="press = 'yes'"):
        read_roster(roster.replace("press = true", 'press = "yes"'), "league.toml", ["japan", "russia"])


def test_serves_clock_relays_press_once_its_courier_delay_has_passed(
        campaigns, store, store_location, mailroom, referee_key, inbox, tmp_path):
    from adjudicator.service.desk import Desk, Tally
    from adjudicator.service.settings import ServiceSettings

    press = make(campaigns, referee_key, "p6", 2)
    assert ask(mailroom, referee_key, inbox, press_mail(campaign=press), 1).outcome == "answered"
    (record,) = press_records(store, press)
    due = datetime.fromisoformat(record["deliver_at"])
    desk = Desk(ServiceSettings(store=store_location, outbox=tmp_path / "outbox"), referee_key, None, Tally())
    try:
        desk.tick(now=due - timedelta(minutes=1))
        assert to(store, "russia", press) == []
        desk.tick(now=due + timedelta(seconds=30))
        desk.tick(now=due + timedelta(minutes=1))
    finally:
        desk.close()
    (relayed,) = to(store, "russia", press)  # once
    assert relayed.subject == f"[{press}] Press from Japan" and b"japan.test" not in raw(store, press, relayed.id)


def test_a_message_is_relayed_whole_even_with_lines_that_look_like_commands_orders_or_a_quoted_template(
        campaigns, store, mailroom, referee_key, inbox):
    press = make(campaigns, referee_key, "p7", 0)
    text = "status\nturn: 3\n> BEGIN ORDERS\nsortie:\n  Mikasa to Tsushima\n"
    assert ask(mailroom, referee_key, inbox, press_mail(text, campaign=press), 1).outcome == "answered"
    (relayed,) = to(store, "russia", press)
    _, data = attachment(relayed)
    assert data == as_hashed(text, salts(store, press)[0])
    (receipt,) = to(store, "japan", press)
    assert "Not carried out" not in receipt.words and "Press recorded" in receipt.subject

    quoted = "".join(f"> {line}\n" for line in relayed.text.splitlines())  # a reply quoting the relayed mail
    answer = ask(mailroom, referee_key, inbox, press_mail("Agreed.\n\n" + quoted, "russia", campaign=press), 2,
                 sender=RUSSIA, subject=f"Re: {relayed.subject}")
    assert answer.outcome == "answered", answer.detail
    (back,) = [m for m in to(store, "japan", press) if "Press from Russia" in m.subject]
    assert attachment(back)[1].startswith(b"Agreed.\n\n> A message from the Japan player")
    assert len(press_records(store, press)) == 2


def test_press_sent_from_another_address_is_told_to_the_sides_registered_address(
        campaigns, store, mailroom, referee_key, inbox):
    press = make(campaigns, referee_key, "p8", 0)
    taken = ask(mailroom, referee_key, inbox, press_mail(campaign=press), 1, sender="someone@elsewhere.test")
    assert taken.outcome == "answered", taken.detail
    (copy,) = to(store, "japan", press)
    assert "press as japan from someone@elsewhere.test" in copy.subject
    assert "If you did not send it, tell the referee" in copy.words and fitted(copy)
    (relayed,) = to(store, "russia", press)
    assert b"elsewhere.test" not in raw(store, press, relayed.id)  # never the sender's address


def test_the_referees_status_tells_press_and_what_waits_for_the_courier(
        campaigns, store, store_location, mailroom, referee_key, inbox):
    press = make(campaigns, referee_key, "p9", 6)
    assert ask(mailroom, referee_key, inbox, press_mail(campaign=press), 1).outcome == "answered"
    (record,) = press_records(store, press)
    shown = cli("status", press, "--store", str(store_location), env=command_env())
    assert_no_traceback(shown)
    assert "press: on, courier delay 6 hours" in shown.stdout, shown.stdout
    assert f"press waiting for the courier: record 1 from japan to russia, due {record['deliver_at']}" in shown.stdout
    data = json.loads(cli("status", press, "--store", str(store_location), "--format", "json",
                          env=command_env()).stdout)
    assert data["press"] == {"on": True, "delay_hours": 6.0, "waiting": [
        {"record": 1, "side": "japan", "to": ["russia"], "deliver_at": record["deliver_at"]}]}
    assert "Golden Kite" not in shown.stdout


def test_the_send_command_relays_press_whose_courier_delay_has_passed(
        campaigns, store, store_location, mailroom, referee_key, inbox, tmp_path):
    import time

    press = make(campaigns, referee_key, "p10", 1 / 3600)  # a courier of one second
    assert ask(mailroom, referee_key, inbox, press_mail(campaign=press), 1).outcome == "answered"
    assert to(store, "russia", press) == []
    (record,) = press_records(store, press)
    time.sleep(max(0.0, (datetime.fromisoformat(record["deliver_at"]) - datetime.now(timezone.utc)).total_seconds())
               + 0.2)
    done = cli("send", press, "--store", str(store_location), "--outbox", tmp_path / "outbox", cwd=tmp_path,
               env=command_env())
    assert_no_traceback(done)
    assert done.returncode == 0, done.stderr
    (relayed,) = to(store, "russia", press)
    assert relayed.subject == f"[{press}] Press from Japan"
    assert any(b"Press from Japan" in path.read_bytes() for path in (tmp_path / "outbox").glob("*.eml"))


def test_press_with_orders_in_it_is_refused_and_nothing_is_relayed(campaigns, store, mailroom, referee_key, inbox):
    """A player who writes press and orders in one mail would have the orders relayed to
    the other side: the mail is refused instead, saying orders go in a mail of their own."""
    press = make(campaigns, referee_key, "p9", 0)
    text = "Good luck, Admiral.\n\nBEGIN ORDERS\nsortie:\n  Mikasa to Tsushima\nEND ORDERS\n"
    taken = ask(mailroom, referee_key, inbox, press_mail(text, campaign=press), 1)
    assert taken.outcome != "accepted"
    assert to(store, "russia", press) == [] and press_records(store, press) == []
    (answer,) = to(store, "japan", press)
    assert "BEGIN ORDERS" in answer.words and "mail of their own" in " ".join(answer.words.split())
