"""Replacement players: 'adjudicator replace CAMPAIGN SIDE --player "Name <address>"'
gives a side a new player from the open step on. The newcomer's briefing is the side's
own view (fog of war respected: nothing of the other side's hidden ships or orders);
the old password is refused by the mail intake, for orders and commands alike; the
other side is told the name, never the address; the public record's signed 'replace'
record (the name only) is accepted by 'adjudicator verify' and the browser verifier,
and a tampered one is not; 'status' and 'history' show who played which steps."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from adjudicator.campaign.replacement import ReplaceRefused, replace_player, stored_tenures
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice.keys import save_private_key
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    DEADLINE_HOURS,
    PASSWORDS,
    PLAYERS,
    REFEREE,
    assert_no_traceback,
    cli,
    command_env,
    orders_text,
    outgoing,
)
from tests.pipeline.test_mail_desk import answers, ask, command

CAMPAIGN = "fog"
NEWCOMER, NEW_ADDRESS, NEW_PASSWORD = "Ivan Petrov", "ivan@russia.test", "Petrov-1905"
RUSSIA = f"Stepan Makarov <{ADDRESSES['russia']}>"
IVAN = f"{NEWCOMER} <{NEW_ADDRESS}>"
#: Japan's sortie: Mikasa on top at Tsushima, Asahi with it (hidden from Russia by the fog of war).
SORTIE = "sortie:\n  Mikasa to Tsushima\n  Asahi to Tsushima\n  Fuji to Yellow Sea\n"


def fitted(*mails) -> bool:
    return all(len(line) <= 78 for mail in mails for line in mail.text.splitlines())


def to(store, address: str):
    return [m for m in answers(store, CAMPAIGN) if m.recipient == address]


def everything(mail) -> str:
    """A mail as sent, every part decoded."""
    return "\n".join(part.get_content() for part in mail.message.walk()
                     if part.get_content_maintype() == "text")


@pytest.fixture
def fog(campaigns, mailroom, referee_key, inbox):
    """A fog-of-war campaign, opened an hour ago, where Japan's sortie is in: Russia is
    asked at step 2, and each side's report of step 1 is queued. Its value: the salts
    that open Japan's sealed entries, a secret Russia's player must never get."""
    campaigns.create(CAMPAIGN, "port-arthur", PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, options={"fog_of_war": True},
                     now=datetime.now(timezone.utc) - timedelta(hours=1))
    taken = ask(mailroom, referee_key, inbox, orders_text(campaign=CAMPAIGN, body=SORTIE), 1)
    assert taken.outcome == "accepted", taken.detail
    step = campaigns.adjudicate(CAMPAIGN, referee_key, after=mailroom.queue_reports)
    assert step.batch == 1 and step.waiting.side == "russia"
    return [item["salt"] for item in step.openings["japan"]]  # what opens Japan's sealed entries


@pytest.fixture
def key_file(referee_key, tmp_path):
    path = tmp_path / "referee.key"
    save_private_key(path, referee_key, None)
    return path


def replace(store_location, key_file, tmp_path, *args: str):
    done = cli("replace", CAMPAIGN, *args, "--store", str(store_location), "--key", key_file, cwd=tmp_path,
               env=command_env())
    assert_no_traceback(done)
    return done


def test_a_replacements_briefing_is_its_sides_own_view_and_holds_nothing_of_the_opponents_secrets(
        fog, campaigns, store, store_location, key_file, tmp_path):
    japans_report = next(m for m in store.outbox(CAMPAIGN) if m.recipient == ADDRESSES["japan"]
                         and b"report for" in m.eml)
    assert b"Asahi" in japans_report.eml  # Japan sees its hidden ship; Russia must not
    done = replace(store_location, key_file, tmp_path, "russia", "--player", IVAN, "--password", NEW_PASSWORD)
    assert done.returncode == 0, done.stderr
    assert f"russia is played by {NEWCOMER} from step 2" in done.stdout
    assert NEW_PASSWORD not in done.stdout + done.stderr

    (briefing,) = to(store, NEW_ADDRESS)
    assert "You now play Russia: your briefing" in briefing.subject
    words, sent = briefing.words, everything(briefing)
    assert f"Welcome, {NEWCOMER}" in words and "from step 2 on" in words
    assert "report for Russia" in words and "Russia: which ships sortie, and where?" in words
    assert "Mikasa 6/5 + 1 hidden" in briefing.text  # what Russia may see of the squadron, no more
    assert "No orders of russia are in force for step 2" in words
    assert "3 replace russia played by Ivan Petrov from step 2" in words  # the records, one line each
    assert "Port Arthur, step 2: turn 1, Sortie Phase of the Russian Fleet - report for Russia" in words
    for secret in ("Asahi", "report for Japan", "Asahi to Tsushima", PASSWORDS["japan"], PASSWORDS["russia"],
                   ADDRESSES["japan"], NEW_PASSWORD, *fog):
        assert secret not in sent, f"the briefing holds {secret!r}"
    assert "Asahi" not in campaigns.export_public(CAMPAIGN)  # still sealed in the public record
    assert fitted(briefing)


def test_under_hidden_hands_a_replacements_briefing_counts_the_opponents_cards_and_names_none(
        campaigns, store, mailroom, referee_key, inbox):
    import re

    from tests.pipeline.pipeline_helpers import T0, HOUR, deliver, email

    campaigns.create("rjw", "russo-japanese-war", PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0, after=mailroom.queue_opening)
    for number, side in enumerate(("japan", "russia")):  # each side confirms step 1: the set-up deals
        confirmation = orders_text(side, step=1, body="", entropy=f"club-{side}", campaign="rjw")
        deliver(inbox, email(confirmation, sender=ADDRESSES[side], message_id=f"<c-{side}@club.test>"), 100 + number)
    assert [t.outcome for t in mailroom.receive(inbox.path, referee_key)] == ["accepted", "accepted"]
    step = campaigns.adjudicate("rjw", referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    hand = campaigns.match("rjw")[1].state["cards"]["hands"]["japan"]
    japans_report = [m for m in outgoing(store, "rjw") if m.recipient == ADDRESSES["japan"]
                     and "report for Japan" in m.subject][-1]
    named = [re.search(rf"{re.escape(card)} [^:]+", japans_report.text).group(0) for card in hand]
    assert hand and len(named) == len(hand)  # Japan's report names its cards ('#11 Kuroki Tamemoto')
    salts = [item["salt"] for side, items in step.openings.items() if side != "russia" for item in items]

    replace_player(store, "rjw", "russia", IVAN, NEW_PASSWORD, referee_key)
    (briefing,) = [m for m in outgoing(store, "rjw") if m.recipient == NEW_ADDRESS]
    sent = everything(briefing)
    assert f"Opponent's hand: {len(hand)} card(s)." in briefing.text and "report for Russia" in briefing.words
    deck = campaigns.match("rjw")[1].state["cards"]["deck"]
    for secret in (*named, *salts, ", ".join(deck), PASSWORDS["japan"], ADDRESSES["japan"]):
        assert secret not in sent, f"the briefing holds {secret!r}"
    assert fitted(briefing)


def test_the_old_password_is_refused_the_new_one_answered_and_the_other_side_told_the_name_only(
        fog, campaigns, store, mailroom, referee_key, inbox):
    replaced = replace_player(store, CAMPAIGN, "russia", IVAN, NEW_PASSWORD, referee_key)
    assert (replaced.side, replaced.player, replaced.step) == ("russia", NEWCOMER, 2)

    (told,) = [m for m in to(store, ADDRESSES["japan"]) if "Russia has a new player" in m.subject]
    assert f"to a new player, {NEWCOMER}, from step 2 on" in told.words
    assert NEW_ADDRESS not in told.message.as_string() and NEW_PASSWORD not in told.message.as_string()
    (farewell,) = [m for m in to(store, ADDRESSES["russia"]) if "You no longer play Russia" in m.subject]
    assert "password for it no longer works" in farewell.words
    assert NEWCOMER not in farewell.text and NEW_ADDRESS not in farewell.message.as_string()
    assert fitted(told, farewell)

    old_orders = orders_text("russia", step=2, campaign=CAMPAIGN, body="sortie: none\n")
    taken = ask(mailroom, referee_key, inbox, old_orders, 2, sender=RUSSIA)
    assert taken.outcome == "refused"
    assert "not accepted (authentication failed)" in to(store, ADDRESSES["russia"])[-1].words
    taken = ask(mailroom, referee_key, inbox, command("status", "russia", campaign=CAMPAIGN), 3, sender=RUSSIA)
    assert taken.outcome == "refused"
    refusal = to(store, ADDRESSES["russia"])[-1]
    assert "wrong password for russia" in refusal.words and NEWCOMER not in refusal.text

    new_orders = orders_text("russia", step=2, campaign=CAMPAIGN, body="sortie: none\n", password=NEW_PASSWORD)
    taken = ask(mailroom, referee_key, inbox, new_orders, 4, sender=IVAN)
    assert taken.outcome == "accepted", taken.detail
    step = campaigns.adjudicate(CAMPAIGN, referee_key, after=mailroom.queue_reports)
    assert step.batch == 2 and step.defaults == ()  # the newcomer's orders played the step
    assert "report for Russia" in [m for m in outgoing(store, CAMPAIGN) if m.recipient == NEW_ADDRESS][-1].words
    assert not [m for m in outgoing(store, CAMPAIGN) if m.recipient == ADDRESSES["russia"]
                and "step 3" in m.subject]  # no report to the old address any more
    assert verify_text(campaigns.export_public(CAMPAIGN)).verified
    taken = ask(mailroom, referee_key, inbox, command("status", "russia", password=NEW_PASSWORD,
                                                      campaign=CAMPAIGN), 5, sender=IVAN)
    assert taken.outcome == "answered", taken.detail
    status = to(store, NEW_ADDRESS)[-1]
    assert f"Players of russia: the first player, step 1; {NEWCOMER}, from step 2." in status.words
    taken = ask(mailroom, referee_key, inbox, command("report 2", "russia", password=NEW_PASSWORD,
                                                      campaign=CAMPAIGN), 6, sender=IVAN)
    assert taken.outcome == "answered", taken.detail  # the side's report that went to the first player
    assert "report for Russia" in to(store, NEW_ADDRESS)[-1].words


def test_verify_and_the_browser_verifier_accept_the_replace_record_and_refuse_a_tampered_one(
        fog, campaigns, store, store_location, referee_key, tmp_path):
    from tests.campaign.browser_verifier import browser_verdicts
    from tests.campaign.tampering import resign

    replace_player(store, CAMPAIGN, "russia", IVAN, NEW_PASSWORD, referee_key)
    text = campaigns.export_public(CAMPAIGN)
    (body,) = [json.loads(line)["body"] for line in text.splitlines() if json.loads(line)["kind"] == "replace"]
    assert body == {"side": "russia", "step": 2, "player": NEWCOMER}
    assert NEW_ADDRESS not in text and NEW_PASSWORD not in text
    record = tmp_path / "public.jsonl"
    record.write_text(text, encoding="utf-8")
    checked = cli("verify", record, env=command_env())
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"russia played by {NEWCOMER} from step 2" in checked.stdout
    verdict = verify_text(text)
    assert verdict.verified and verdict.to_json()["replaced"] == [
        {"record": 3, "side": "russia", "step": 2, "player": NEWCOMER}]

    forged = text.replace(f'"player":"{NEWCOMER}"', '"player":"Somebody Else"')
    assert forged != text and not verify_text(forged).verified  # signed: a changed name breaks the record

    def changed(**fields):
        return resign(text, referee_key, lambda pairs: [
            (kind, {**body, **fields} if kind == "replace" else body) for kind, body in pairs])

    backdated, stranger, addressed = changed(step=1), changed(side="britain"), changed(player=IVAN)
    assert "the open one" in verify_text(backdated).reason
    assert "not a side of this campaign" in verify_text(stranger).reason
    assert "replace record does not follow its schema" in verify_text(addressed).reason
    found = browser_verdicts([("replaced", text, ""), ("forged", forged, ""), ("backdated", backdated, ""),
                              ("addressed", addressed, "")], tmp_path / "browser")
    assert found["replaced"]["status"] == "verified", found["replaced"]
    assert found["forged"]["status"] == "failed"
    for name in ("backdated", "addressed"):
        assert found[name]["status"] == "failed" and "a new player for an unknown side" in found[name]["reason"]


def test_status_and_history_show_who_played_which_steps(fog, store, store_location, referee_key):
    replace_player(store, CAMPAIGN, "russia", IVAN, NEW_PASSWORD, referee_key)
    shown = cli("status", CAMPAIGN, "--store", str(store_location), "--format", "json", env=command_env())
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["tenures"] == {
        "japan": [{"player": "the first player", "first_step": 1, "last_step": None, "record": None}],
        "russia": [{"player": "the first player", "first_step": 1, "last_step": 1, "record": None},
                   {"player": NEWCOMER, "first_step": 2, "last_step": None, "record": 3}]}
    text = cli("status", CAMPAIGN, "--store", str(store_location), env=command_env())
    assert f"players of russia: the first player, step 1; {NEWCOMER}, from step 2" in text.stdout
    listed = cli("history", CAMPAIGN, "--store", str(store_location), env=command_env())
    assert f"replace  russia played by {NEWCOMER} from step 2" in listed.stdout, listed.stdout
    assert f"russia: the first player, step 1; {NEWCOMER}, from step 2" in listed.stdout
    assert NEW_ADDRESS not in listed.stdout + text.stdout


def test_a_second_replacement_ends_the_first_ones_tenure(fog, campaigns, store, referee_key):
    replace_player(store, CAMPAIGN, "russia", IVAN, NEW_PASSWORD, referee_key)
    replace_player(store, CAMPAIGN, "russia", "Olga Ivanova <olga@russia.test>", "Ivanova-1905", referee_key)
    held = stored_tenures(store, CAMPAIGN)["russia"]
    assert [(t.player, t.steps_words()) for t in held] == [
        ("the first player", "step 1"), (NEWCOMER, "no step played"), ("Olga Ivanova", "from step 2")]
    assert store.campaign(CAMPAIGN).meta["players"]["russia"]["former"] == [ADDRESSES["russia"], NEW_ADDRESS]
    assert verify_text(campaigns.export_public(CAMPAIGN)).verified


@pytest.mark.parametrize("side, player, said", [
    ("britain", IVAN, "has no side 'britain'"),
    ("russia", NEW_ADDRESS, "has no name to put in the public record"),
    ("russia", "Ivan <not an address>", "is not one usable address"),
    ("russia", f"Heihachiro Togo <{ADDRESSES['japan']}>", "is the japan player's address"),
])
def test_a_replacement_that_cannot_be_made_is_refused_saying_why_and_records_nothing(
        fog, store, store_location, key_file, tmp_path, side, player, said):
    before = len(store.entries(CAMPAIGN))
    done = replace(store_location, key_file, tmp_path, side, "--player", player, "--password", NEW_PASSWORD)
    assert done.returncode != 0 and said in done.stderr, done.stderr
    assert len(store.entries(CAMPAIGN)) == before and not to(store, NEW_ADDRESS)


def test_an_ended_campaign_gets_no_new_player(demo_run, tmp_path):
    import shutil

    from adjudicator.fairdice import load_private_key
    from adjudicator.store import Store

    location = tmp_path / "campaigns.sqlite3"
    shutil.copy(demo_run.folder / "campaigns.sqlite3", location)  # the demo's, played to its end
    with Store.open(location) as store, pytest.raises(ReplaceRefused, match="has ended"):
        replace_player(store, "demo", "russia", IVAN, NEW_PASSWORD,
                       load_private_key(demo_run.folder / "referee.key", None))


def test_reliability_counts_per_tenure_each_step_to_the_player_who_held_the_side(
        fog, campaigns, store, mailroom, referee_key):
    from adjudicator.tournament.ratings import survey

    late = datetime.now(timezone.utc) + timedelta(hours=DEADLINE_HOURS + 1)
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=late, after=mailroom.queue_reports)
    assert step.batch == 2 and "russia" in step.defaults  # the first player missed step 2
    replaced = replace_player(store, CAMPAIGN, "russia", IVAN, NEW_PASSWORD, referee_key, now=late)
    assert replaced.step == 3
    found = survey(store).reliability
    assert found[ADDRESSES["russia"]].defaults == 1  # the step the first player held
    assert found[NEW_ADDRESS].defaults == 0
    assert found[NEW_ADDRESS].answered == 0
    assert found[ADDRESSES["japan"]].answered == 1


def test_a_finished_campaign_whose_side_had_a_new_player_is_not_rated(demo_run, tmp_path):
    import shutil

    from adjudicator.store import Store
    from adjudicator.tournament.ratings import survey

    location = tmp_path / "campaigns.sqlite3"
    shutil.copy(demo_run.folder / "campaigns.sqlite3", location)  # the demo's, played to its end
    with Store.open(location) as store:
        rated = survey(store).games
        assert rated >= 1
        with store.transaction("demo") as tx:  # as 'replace' leaves it: the side's former address kept
            meta = tx.campaign().meta
            russia = {**meta["players"]["russia"], "former": ["vanished@russia.test"]}
            tx.set_meta({**meta, "players": {**meta["players"], "russia": russia}})
        assert survey(store).games == rated - 1


def test_the_password_left_out_is_asked_for_unseen_and_works(fog, store, store_location, key_file, tmp_path,
                                                            mailroom, referee_key, inbox):
    done = cli("replace", CAMPAIGN, "russia", "--player", IVAN, "--store", str(store_location), "--key", key_file,
               cwd=tmp_path, env=command_env(), input=f"{NEW_PASSWORD}\n{NEW_PASSWORD}\n".encode())
    assert_no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert NEW_PASSWORD not in done.stdout + done.stderr  # typed, never echoed
    taken = ask(mailroom, referee_key, inbox, command("status", "russia", password=NEW_PASSWORD,
                                                      campaign=CAMPAIGN), 2, sender=IVAN)
    assert taken.outcome == "answered", taken.detail


def test_a_side_that_signs_with_a_key_is_not_given_a_new_player_with_a_password(campaigns, store, referee_key):
    from adjudicator.campaign import Player
    from adjudicator.fairdice import generate_keypair, public_key_to_text

    signer = public_key_to_text(generate_keypair()[0].public_key())
    campaigns.create("keyed", "port-arthur", [PLAYERS[0], Player("russia", ADDRESSES["russia"], public_key=signer)],
                     referee_key, referee_address=REFEREE, deadline_hours=DEADLINE_HOURS)
    with pytest.raises(ReplaceRefused, match="signs orders with a key"):
        replace_player(store, "keyed", "russia", IVAN, NEW_PASSWORD, referee_key)
    assert [e.kind for e in store.entries("keyed")] == ["charter"]


def test_the_public_archive_takes_a_replace_record(fog, campaigns, store, referee_key, tmp_path):
    from adjudicator.site import build_site

    replace_player(store, CAMPAIGN, "russia", IVAN, NEW_PASSWORD, referee_key)
    build_site(campaigns.export_public(CAMPAIGN), tmp_path / "site", referee_key)
    feed = json.loads((tmp_path / "site" / "feed.json").read_text(encoding="utf-8"))
    (event,) = [e for e in feed["body"]["events"] if e["kind"] == "replace"]
    assert {"side": "russia", "step": 2, "player": NEWCOMER}.items() <= event.items()
    assert NEW_ADDRESS not in json.dumps(feed)
