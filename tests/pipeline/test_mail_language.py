"""A player's language: ``language = "fr"`` in the players file, a ``language:`` line
beside orders or alone with the side and password; kept in the campaign's store,
shown by ``status``, and refused clearly when there is no such language."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from adjudicator.campaign.roster import BadRoster, read_roster
from adjudicator.i18n import UnknownLanguage, check_language
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    DEADLINE_HOURS,
    HOUR,
    PASSWORDS,
    PLAYERS,
    REFEREE,
    T0,
    cli,
    command_env,
    deliver,
    email,
    orders_text,
    outgoing,
)


def french_japan(players=PLAYERS):
    return [replace(p, language="fr") if p.side == "japan" else p for p in players]


def mail_to(store, side: str):
    return [m for m in outgoing(store) if m.recipient == ADDRESSES[side]]


def test_an_unknown_language_is_refused_naming_the_languages_there_are():
    assert check_language("FR") == "fr"
    with pytest.raises(UnknownLanguage) as raised:
        check_language("de")
    assert "'de'" in str(raised.value) and "'en', 'fr'" in str(raised.value)


def test_a_players_file_with_an_unknown_language_is_refused_by_new_saying_which_there_are(tmp_path):
    players = tmp_path / "players.toml"
    players.write_text('[[player]]\nside = "japan"\naddress = "togo@japan.test"\npassword = "Togo-1904"\n'
                       'language = "jp"\n\n[[player]]\nside = "russia"\naddress = "makarov@russia.test"\n'
                       'password = "Makarov-1904"\n')
    done = cli("new", "c9", "--game", "port-arthur", "--players", str(players), "--from", REFEREE,
               env=command_env(ADJUDICATOR_STORE=str(tmp_path / "s.sqlite3"), ADJUDICATOR_KEY=str(tmp_path / "k"),
                               ADJUDICATOR_KEY_PASSPHRASE="x"))
    assert done.returncode == 2
    assert "language = 'jp' is not a language of the adjudicator; it is one of 'en', 'fr'" in done.stderr
    assert "for japan" in done.stderr and "Traceback" not in done.stderr


def test_a_roster_with_an_unknown_language_is_refused():
    roster = '[[player]]\nname = "Togo"\naddress = "togo@japan.test"\npassword = "p"\nlanguage = "de"\n'
    with pytest.raises(BadRoster, match="language = 'de' is not a language of the adjudicator.*for Togo"):
        read_roster(roster, "league.toml", ("japan", "russia"))
    french = ('[[player]]\nname = "Togo"\naddress = "togo@japan.test"\npassword = "p"\nlanguage = "fr"\n\n'
              '[[player]]\nname = "Makarov"\naddress = "makarov@russia.test"\npassword = "q"\n\n'
              '[[campaign]]\nid = "c1"\nplayers = { japan = "Togo", russia = "Makarov" }\n')
    players = read_roster(french, "league.toml", ("japan", "russia")).players
    assert players["Togo"].language == "fr" and players["Makarov"].language == "en"


def test_the_players_files_language_is_kept_in_the_store_and_the_opening_mail_is_in_it(
        campaigns, store, mailroom, referee_key):
    campaigns.create(CAMPAIGN, "port-arthur", french_japan(), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0, after=mailroom.queue_opening)
    players = store.campaign(CAMPAIGN).meta["players"]
    assert players["japan"]["language"] == "fr" and "language" not in players["russia"]
    (japan,), (russia,) = mail_to(store, "japan"), mail_to(store, "russia")
    assert "la campagne commence - vous jouez le camp Japon" in japan.subject
    assert "Vous jouez le camp Japon." in japan.words and "CE QUI VOUS EST DEMANDÉ" in japan.text
    assert "the campaign opens - you play Russia" in russia.subject and "WAITING FOR JAPAN" in russia.text


def test_a_language_line_beside_orders_is_carried_out_with_them_and_changes_no_hash(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    plain = orders_text()
    with_line = plain.replace("step: 1\n", "step: 1\nlanguage: fr\n")
    deliver(inbox, email(with_line, message_id="<fr-1@japan.test>"), 1_000)
    deliver(inbox, email(plain, message_id="<en-1@japan.test>"), 2_000)
    first, second = mailroom.receive(inbox.path, referee_key)
    assert first.outcome == second.outcome == "accepted"
    assert first.detail == second.detail  # the same canonical orders, the same SHA-256
    assert store.campaign(CAMPAIGN).meta["players"]["japan"]["language"] == "fr"
    receipts = [m for m in mail_to(store, "japan") if "Ordres acceptés" in m.subject]
    assert len(receipts) == 2
    assert "Voici ce que l'arbitre a compris" in receipts[0].words
    assert "Désormais, le courrier de l'arbitre à votre camp est en français" in receipts[0].words
    assert "language: fr" not in receipts[0].text.split("SHA-256")[0]  # not among the orders understood


def test_an_unknown_language_line_is_named_on_the_receipt_and_the_orders_are_taken(
        campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email(orders_text().replace("step: 1\n", "step: 1\nlanguage: klingon\n")), 1_000)
    (taken,) = mailroom.receive(inbox.path, referee_key)
    assert taken.outcome == "accepted"
    (receipt,) = [m for m in mail_to(store, "japan") if "Orders accepted" in m.subject]
    assert ("The line 'language: klingon' of your mail names no language the referee writes in (en, fr): "
            "your mail stays in English.") in receipt.words
    assert "language" not in store.campaign(CAMPAIGN).meta["players"]["japan"]


def test_a_language_line_beside_refused_orders_is_not_carried_out_and_the_refusal_says_so(
        campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email(orders_text(body="sortie:\n  Mikasa to Atlantis\n").replace("step: 1\n",
                                                                                     "step: 1\nlanguage: fr\n")), 1)
    (taken,) = mailroom.receive(inbox.path, referee_key)
    assert taken.outcome == "refused"
    (refusal,) = [m for m in mail_to(store, "japan") if "not accepted" in m.subject]
    assert "Not carried out: the line 'language: fr' of your mail, as your orders were not accepted." in refusal.words
    assert "language" not in store.campaign(CAMPAIGN).meta["players"]["japan"]


def test_the_language_command_by_mail_needs_the_password_and_answers_in_the_language_chosen(
        campaign, store, mailroom, referee_key, inbox):
    wrong = f"campaign: {CAMPAIGN}\nside: japan\npassword: nope\nlanguage: fr\n"
    deliver(inbox, email(wrong, message_id="<l-1@japan.test>"), 1)
    assert mailroom.receive(inbox.path, referee_key)[-1].outcome == "refused"
    assert "language" not in store.campaign(CAMPAIGN).meta["players"]["japan"]
    right = f"campaign: {CAMPAIGN}\nside: japan\npassword: {PASSWORDS['japan']}\nlanguage: fr\n"
    deliver(inbox, email(right, message_id="<l-2@japan.test>"), 2)
    assert mailroom.receive(inbox.path, referee_key)[-1].outcome == "answered"
    assert store.campaign(CAMPAIGN).meta["players"]["japan"]["language"] == "fr"
    (answer,) = [m for m in mail_to(store, "japan") if "Langue de votre courrier" in m.subject]
    assert "Désormais, le courrier de l'arbitre au camp japan est en français" in answer.words
    status = f"campaign: {CAMPAIGN}\nside: japan\npassword: {PASSWORDS['japan']}\nstatus\n"
    deliver(inbox, email(status, message_id="<l-3@japan.test>"), 3)
    mailroom.receive(inbox.path, referee_key)
    (reply,) = [m for m in mail_to(store, "japan") if m.subject.endswith("] État")]
    assert "Courrier au camp japan en français (language: fr)." in reply.words
    assert "Échéance :" in reply.text and all(len(line) <= 78 for line in reply.text.splitlines())
    helped = f"campaign: {CAMPAIGN}\nside: japan\nhelp\n"
    deliver(inbox, email(helped, message_id="<l-5@japan.test>"), 5)
    mailroom.receive(inbox.path, referee_key)
    (help_answer,) = [m for m in mail_to(store, "japan") if "Le bureau de l'arbitre" in m.subject]
    assert "Les commandes :" in help_answer.text and "language: fr" in help_answer.text
    assert [line for line in help_answer.text.splitlines() if len(line) > 78] == []
    back = right.replace("language: fr", "language: en")
    deliver(inbox, email(back, message_id="<l-4@japan.test>"), 4)
    mailroom.receive(inbox.path, referee_key)
    assert "language" not in store.campaign(CAMPAIGN).meta["players"]["japan"]
    assert any("From now on the referee's mail to japan is in English" in m.words for m in mail_to(store, "japan"))


def test_an_unknown_language_command_is_refused_naming_the_languages(campaign, store, mailroom, referee_key, inbox):
    text = f"campaign: {CAMPAIGN}\nside: japan\npassword: {PASSWORDS['japan']}\nlanguage: de\n"
    deliver(inbox, email(text), 1)
    assert mailroom.receive(inbox.path, referee_key)[-1].outcome == "refused"
    (refusal,) = mail_to(store, "japan")[-1:]
    assert "names no language the referee writes in: it is one of en, fr" in refusal.words


def test_status_on_the_command_line_shows_each_sides_language(tmp_path):
    players = tmp_path / "players.toml"
    players.write_text('[[player]]\nside = "japan"\naddress = "togo@japan.test"\npassword = "Togo-1904"\n'
                       'language = "fr"\n\n[[player]]\nside = "russia"\naddress = "makarov@russia.test"\n'
                       'password = "Makarov-1904"\n')
    env = command_env(ADJUDICATOR_STORE=str(tmp_path / "s.sqlite3"), ADJUDICATOR_KEY=str(tmp_path / "k"),
                      ADJUDICATOR_KEY_PASSPHRASE="passphrase-1904")
    assert cli("keys", "new", str(tmp_path / "k"), env=env).returncode == 0
    made = cli("new", "c9", "--game", "port-arthur", "--players", str(players), "--from", REFEREE, env=env)
    assert made.returncode == 0, made.stderr
    done = cli("status", "c9", env=env)
    assert "mail to japan in French (language = 'fr')" in done.stdout
    assert "mail to russia" not in done.stdout
    assert '"languages": {\n    "japan": "fr",\n    "russia": "en"\n  }' in cli("status", "c9", "--format", "json",
                                                                             env=env).stdout


@pytest.mark.parametrize("game, heading, english", [
    ("russo-japanese-war", "LÉGENDE DE LA CARTE", "MAP KEY"),
    ("tsushima-1905", "LES PAQUETS (pioches face cachée", "THE DECKS"),
])
def test_the_other_games_opening_mail_in_french_has_their_headings_in_french_within_78_columns(
        game, heading, english, campaigns, store, mailroom, referee_key):
    campaigns.create(CAMPAIGN, game, french_japan(), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0, after=mailroom.queue_opening)
    (japan,), (russia,) = mail_to(store, "japan"), mail_to(store, "russia")
    assert heading in japan.text and english not in japan.text and "CE QUI S'EST PASSÉ" in japan.text
    assert english in russia.text and heading not in russia.text
    assert [line for line in japan.text.splitlines() if len(line) > 78] == []
    assert '<html lang="fr">' in japan.html and '<html lang="en">' in russia.html


def test_an_undo_notice_reaches_a_french_player_in_french(campaigns, store, mailroom, referee_key, inbox):
    campaigns.create(CAMPAIGN, "port-arthur", french_japan(), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    deliver(inbox, email(orders_text()), 1)
    mailroom.receive(inbox.path, referee_key)
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    campaigns.undo(CAMPAIGN, referee_key, "lost mail")
    (japan,) = [m for m in mail_to(store, "japan") if "annulée par l'arbitre" in m.subject]
    (russia,) = [m for m in mail_to(store, "russia") if "voided by the referee" in m.subject]
    assert "L'arbitre a annulé l'étape 1 de la campagne c1" in japan.words and "Motif : lost mail" in japan.words
    assert "The referee voided step 1 of campaign c1" in russia.words
    assert [line for line in japan.text.splitlines() if len(line) > 78] == []


def test_a_french_player_naming_a_wrong_campaign_is_answered_in_french(campaigns, store, mailroom, referee_key,
                                                                       inbox):
    campaigns.create(CAMPAIGN, "port-arthur", french_japan(), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    deliver(inbox, email(orders_text(campaign="c2")), 1)
    (taken,) = mailroom.receive(inbox.path, referee_key)
    assert taken.outcome == "refused"
    (reply,) = mail_to(store, "japan")
    assert reply.subject.endswith("Votre courriel n'a pas été pris comme des ordres")
    assert "il n'y a pas de campagne 'c2' ici ; vouliez-vous dire 'c1' ?" in reply.words


def test_the_notes_of_a_french_receipt_are_in_french(campaigns, store, mailroom, referee_key, inbox):
    campaigns.create(CAMPAIGN, "port-arthur", french_japan(), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    deliver(inbox, email("pause: until 2027-01-04\n\nBEGIN ORDERS\n" + orders_text() + "END ORDERS\n"), 1)
    (taken,) = mailroom.receive(inbox.path, referee_key)
    assert taken.outcome == "accepted"
    (receipt,) = mail_to(store, "japan")
    assert ("Remarque : Non exécutée : la ligne 'pause: until 2027-01-04' de votre courriel, à côté de vos "
            "ordres.") in receipt.words


def test_an_absence_is_recorded_in_french_for_a_french_player_and_told_in_english_to_the_other(
        campaigns, store, mailroom, referee_key, inbox):
    campaigns.create(CAMPAIGN, "port-arthur", french_japan(), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    away = f"campaign: {CAMPAIGN}\nside: japan\npassword: {PASSWORDS['japan']}\naway: 2099-03-01 to 2099-03-03\n"
    deliver(inbox, email(away), 1)
    assert mailroom.receive(inbox.path, referee_key)[-1].outcome == "answered"
    (receipt,) = mail_to(store, "japan")
    assert receipt.subject.endswith("Absence enregistrée")
    assert ("Enregistré : le camp japan est absent du 2099-03-01 au 2099-03-03 (UTC, les deux jours comptés), "
            "3 jours.") in receipt.words
    (notice,) = mail_to(store, "russia")
    assert notice.subject.endswith("Japan will be away")
    assert "The Japan player will be away from 2099-03-01 to 2099-03-03" in notice.words


def test_a_pause_asked_by_an_english_player_is_told_in_french_to_a_french_one_and_so_is_the_pause(
        campaigns, store, mailroom, referee_key, inbox):
    campaigns.create(CAMPAIGN, "port-arthur", french_japan(), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    day = (datetime.now(timezone.utc).date() + timedelta(days=10)).isoformat()
    for n, side in enumerate(("russia", "japan"), start=1):
        asked = f"campaign: {CAMPAIGN}\nside: {side}\npassword: {PASSWORDS[side]}\npause: until {day}\n"
        deliver(inbox, email(asked, sender=ADDRESSES[side], message_id=f"<p-{n}@club.test>"), n)
        assert mailroom.receive(inbox.path, referee_key)[-1].outcome == "answered"
    japan, russia = mail_to(store, "japan"), mail_to(store, "russia")
    assert japan[0].subject.endswith("Le camp Russie demande une pause")
    assert "envoyez un courriel avec ces lignes :" in japan[0].words and "password: VOTRE-MOT-DE-PASSE" in japan[0].text
    assert russia[0].subject.endswith("Pause asked")
    assert japan[-1].subject.endswith(f"En pause jusqu'au {day}")
    assert "Pendant la pause, aucune échéance ne passe" in japan[-1].words
    assert russia[-1].subject.endswith(f"Paused until {day}")
    for message in japan:
        assert [line for line in message.text.splitlines() if len(line) > 78] == []


def test_orders_whose_header_is_written_in_french_reach_their_campaign_without_a_subject_tag(
        campaign, store, mailroom, referee_key, inbox):
    french = (orders_text().replace("campaign:", "Campagne :").replace("side: japan", "camp: Japon")
              .replace("turn:", "tour:").replace("step:", "étape:").replace("password:", "mot de passe:"))
    assert "campaign" not in french and "password" not in french
    deliver(inbox, email("DÉBUT DES ORDRES\n" + french + "FIN DES ORDRES\n", subject="Mes ordres"), 1)
    (taken,) = mailroom.receive(inbox.path, referee_key)
    assert (taken.campaign, taken.outcome) == (CAMPAIGN, "accepted")
