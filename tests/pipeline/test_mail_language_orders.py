"""The orders reader's words in a French reader's mail: each problem of refused orders
keeps its code, its template and its values, and the refusal says it in the reader's
language (line and column as they are); the receipt's notes too (a name read from
its first letters, an order that cannot be carried out). The English mail is as it
was, word for word."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from adjudicator.i18n import said
from adjudicator.orders import OrdersError

from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    DEADLINE_HOURS,
    HOUR,
    PASSWORDS,
    PLAYERS,
    REFEREE,
    T0,
    deliver,
    email,
    orders_text,
    outgoing,
)


def french(side: str, players=PLAYERS):
    return [replace(p, language="fr") if p.side == side else p for p in players]


def mail_to(store, side: str):
    return [m for m in outgoing(store) if m.recipient == ADDRESSES[side]]


def open_with_french(side, campaigns, referee_key):
    campaigns.create(CAMPAIGN, "port-arthur", french(side), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)


MISTAKES = "sortie:\n  Mikasa to Atlantis\n  Asahi to Yelow Sea\nblokade:\n  keep\n"


def test_the_problems_of_refused_orders_are_said_in_french_to_a_french_player(
        campaigns, store, mailroom, referee_key, inbox):
    open_with_french("japan", campaigns, referee_key)
    deliver(inbox, email(orders_text(body=MISTAKES)), 1)
    (taken,) = mailroom.receive(inbox.path, referee_key)
    assert taken.outcome == "refused"
    (refusal,) = mail_to(store, "japan")
    words = refusal.words
    assert 'ligne 7, colonne 13 : E203 zone inconnue "Atlantis"' in words
    assert 'ligne 8, colonne 12 : E203 zone inconnue "Yelow Sea" ; vouliez-vous dire "Yellow Sea" ?' in words
    assert ('ligne 9, colonne 1 : E104 titre inconnu "blokade" ; les lignes qui le suivent sont ignorées '
            "jusqu'au titre suivant ; vouliez-vous dire \"blockade\" ?") in words
    assert ("Remarque : authentification : le mot de passe du camp japan est juste ; seuls les problèmes "
            "ci-dessus ont empêché d'accepter les ordres") in words
    assert "      Mikasa to Atlantis\r\n                ^" in refusal.text  # the line quoted as it was read
    for english in ("line ", "unknown", "did you mean", "authentication", "password"):
        assert english not in refusal.text
    assert [line for line in refusal.text.splitlines() if len(line) > 78] == []


def test_the_same_refused_orders_are_said_in_english_to_an_english_player_as_the_orders_reader_says_them(
        campaign, campaigns, store, mailroom, referee_key, inbox):
    text = orders_text(body=MISTAKES)
    deliver(inbox, email(text), 1)
    assert mailroom.receive(inbox.path, referee_key)[-1].outcome == "refused"
    (refusal,) = mail_to(store, "japan")
    try:
        campaigns.prepare(CAMPAIGN, text)
    except OrdersError as err:
        problems = [problem.render() for problem in err.problems]
    assert 'line 7, column 13: E203 unknown zone "Atlantis"' in problems[0]
    assert len(problems) == 3
    for problem in problems:
        assert problem.splitlines()[0] in refusal.words


def test_the_notes_of_a_receipt_are_said_in_french_to_a_french_player(campaigns, store, mailroom, referee_key,
                                                                      inbox):
    open_with_french("russia", campaigns, referee_key)
    deliver(inbox, email(orders_text()), 1)
    assert mailroom.receive(inbox.path, referee_key)[-1].outcome == "accepted"
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    body = "sortie:\n  Asko to Yellow Sea\n  Novik to Pacific Ocean\n"
    deliver(inbox, email(orders_text("russia", step=2, body=body), sender="Makarov <makarov@russia.test>",
                         message_id="<novik@russia.test>"), 2)
    assert mailroom.receive(inbox.path, referee_key)[-1].outcome == "accepted"
    receipt = [m for m in mail_to(store, "russia") if "Ordres acceptés" in m.subject][-1]
    words = receipt.words
    assert "Remarque : ligne 7 : 'Asko' lu comme Askold" in words
    assert "Remarque : ligne 8 : Novik ne peut pas atteindre Pacific Ocean depuis Port Arthur" in words
    assert "Remarque : ces ordres ne répondent pas à la question posée maintenant à russia (sortie) :" in words
    for english in ("read as", "cannot reach", "do not answer"):
        assert english not in words


def test_a_note_said_again_in_english_is_the_note_as_written_and_a_note_of_no_template_stays_as_it_is():
    from adjudicator.i18n import say_in, words

    note = said("line %(line)s: %(note)s", line=8, note=said("%(ship)s is not one of your ships", ship="Fuji"))
    assert note == "line 8: Fuji is not one of your ships"
    assert say_in(note, words("en").gettext) == note
    assert say_in(note, words("fr").gettext) == "ligne 8 : Fuji n'est pas un de vos navires"
    assert say_in("a plain text", words("fr").gettext) == "a plain text"


def test_a_french_players_report_asks_its_question_in_french_with_a_template_in_french(
        campaigns, store, mailroom, referee_key):
    campaigns.create(CAMPAIGN, "port-arthur", french("japan"), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0, after=mailroom.queue_opening)
    (japan,), (russia,) = mail_to(store, "japan"), mail_to(store, "russia")
    assert "Japon : quels navires sortent, et vers où ?" in japan.words
    assert "    # ou une ligne par navire qui sort (les navires non nommés restent au\r\n    #     port) :" in japan.text
    assert "    sortie: none" in japan.text and "which ships sortie" not in japan.text
    assert "Japan: which ships sortie, and where?" in russia.words and "Japon" not in russia.text
    assert [line for line in japan.text.splitlines() if len(line) > 78] == []


def test_what_a_default_did_is_said_in_french_in_a_french_players_report_and_in_english_in_the_others(
        campaigns, store, mailroom, referee_key, inbox):
    campaigns.create(CAMPAIGN, "port-arthur", french("russia"), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    deliver(inbox, email(orders_text()), 1)
    assert mailroom.receive(inbox.path, referee_key)[-1].outcome == "accepted"
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=campaigns.deadline(CAMPAIGN) + timedelta(minutes=1),
                                after=mailroom.queue_reports)
    assert "Russia: no ship sorties and no troops land" in step.default_notes
    russia, japan = mail_to(store, "russia")[-1], mail_to(store, "japan")[-1]  # the reports of the step
    assert "(par défaut) Russie : aucun navire ne sort et aucune troupe ne débarque" in russia.words
    assert "(default) Russia: no ship sorties and no troops land" in japan.words


def test_press_is_relayed_in_french_to_a_french_player_and_its_receipt_is_in_the_senders_language(
        campaigns, store, mailroom, referee_key, inbox):
    from tests.pipeline.test_mail_desk import ask
    from tests.pipeline.test_mail_press import MESSAGE, RUSSIA, SIGNATURE, fitted, press_mail, to

    campaigns.create("p1", "port-arthur", french("russia"), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=datetime.now(timezone.utc) - timedelta(hours=1),
                     press={"on": True, "delay_hours": 0})
    assert ask(mailroom, referee_key, inbox, press_mail(), 1).outcome == "answered"
    (relayed,) = to(store, "russia", "p1")
    assert relayed.subject == "[p1] Message du camp Japon"
    assert "Un message du joueur du camp Japon de la campagne p1, reçu par l'arbitre le" in relayed.words
    assert "----- fin du message -----" in relayed.text and "Sealed by the Golden Kite." in relayed.text
    assert "Pour répondre, envoyez à l'arbitre un courriel avec ces lignes" in relayed.words
    assert "password: VOTRE-MOT-DE-PASSE" in relayed.text and "side: russia" in relayed.text
    (receipt,) = to(store, "japan", "p1")
    assert receipt.subject == "[p1] Press recorded" and "went to Russia at once" in receipt.words
    assert fitted(relayed, receipt)
    french_sender = press_mail(side="russia", line="press: japan", text=MESSAGE + SIGNATURE)
    assert ask(mailroom, referee_key, inbox, french_sender, 2, sender=RUSSIA).outcome == "answered"
    french_receipt = to(store, "russia", "p1")[-1]
    assert french_receipt.subject == "[p1] Message enregistré"
    assert "Il est parti aussitôt vers Japon." in french_receipt.words
    assert to(store, "japan", "p1")[-1].subject == "[p1] Press from Russia"


def test_the_reason_a_command_was_refused_is_said_in_french_to_a_french_player(
        campaigns, store, mailroom, referee_key, inbox):
    from tests.pipeline.test_mail_desk import ask
    from tests.pipeline.test_mail_press import RUSSIA, press_mail, to

    campaigns.create("p1", "port-arthur", french("japan"), referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=datetime.now(timezone.utc) - timedelta(hours=1))
    assert ask(mailroom, referee_key, inbox, press_mail(), 1).outcome == "refused"
    (refusal,) = to(store, "japan", "p1")
    assert ("la campagne p1 n'a pas de messages : l'arbitre n'a pas permis les messages entre joueurs, donc "
            "rien n'a été transmis ni enregistré") in refusal.words
    assert ask(mailroom, referee_key, inbox, press_mail(password="wrong"), 2).outcome == "refused"
    assert "mauvais mot de passe pour japan : la commande 'press' n'a pas reçu de réponse" in \
        to(store, "japan", "p1")[-1].words
    assert ask(mailroom, referee_key, inbox, press_mail(side="russia", password="wrong"), 3,
               sender=RUSSIA).outcome == "refused"
    assert "wrong password for russia: the command 'press' was not answered" in to(store, "russia", "p1")[-1].words


def test_history_by_mail_is_told_in_french_to_a_french_player_and_in_english_to_the_other(
        campaigns, store, mailroom, referee_key, inbox):
    from tests.pipeline.test_mail_desk import ask

    open_with_french("japan", campaigns, referee_key)
    deliver(inbox, email(orders_text()), 1)
    assert mailroom.receive(inbox.path, referee_key)[-1].outcome == "accepted"
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR)
    for n, side in enumerate(("japan", "russia"), start=2):
        command = f"campaign: {CAMPAIGN}\nside: {side}\npassword: {PASSWORDS[side]}\nhistory\n"
        sender = "Heihachiro Togo <togo@japan.test>" if side == "japan" else "Makarov <makarov@russia.test>"
        assert ask(mailroom, referee_key, inbox, command, n, sender=sender).outcome == "answered"
    japan, russia = mail_to(store, "japan")[-1], mail_to(store, "russia")[-1]
    assert "options de la règle" in japan.text and "japan étape 1 " in japan.text
    assert "lot 1 :" in japan.text and "en attente de russia (sortie)" in japan.text
    assert "rulebook options" in russia.text and "japan step 1 " in russia.text
    assert "waiting for russia (sortie)" in russia.text


def test_a_replacement_is_told_in_french_to_a_french_player_and_to_a_french_former_player(
        campaigns, store, mailroom, referee_key):
    from adjudicator.campaign.replacement import replace_player

    campaigns.create(CAMPAIGN, "port-arthur", [replace(p, language="fr") for p in PLAYERS], referee_key,
                     referee_address=REFEREE, deadline_hours=DEADLINE_HOURS, now=T0)
    replace_player(store, CAMPAIGN, "russia", "Ivan Petrov <ivan@russia.test>", "Petrov-1905", referee_key)
    (told,) = [m for m in mail_to(store, "japan") if "a un nouveau joueur" in m.subject]
    assert told.subject.endswith("Le camp Russie a un nouveau joueur")
    assert ("L'arbitre a confié le camp Russie de la campagne c1 à un nouveau joueur, Ivan Petrov, à partir de "
            "l'étape 1.") in told.words
    (farewell,) = [m for m in mail_to(store, "russia") if "Vous ne jouez plus" in m.subject]
    assert "Votre mot de passe pour ce camp ne fonctionne plus" in farewell.words


def test_the_reason_an_absence_or_a_pause_by_mail_is_refused_is_said_in_french_to_a_french_player(
        campaigns, store, mailroom, referee_key, inbox):
    from tests.pipeline.test_mail_desk import ask

    open_with_french("japan", campaigns, referee_key)
    lines = f"campaign: {CAMPAIGN}\nside: japan\npassword: {PASSWORDS['japan']}\n"
    assert ask(mailroom, referee_key, inbox, lines + "away: 2099-03-05 to 2099-03-01\n", 1).outcome == "refused"
    assert ("dans la ligne 'away: 2099-03-05 to 2099-03-01', le dernier jour précède le premier : écrivez le "
            "premier jour d'absence, puis 'to', puis le dernier") in mail_to(store, "japan")[-1].words
    assert ask(mailroom, referee_key, inbox, lines + "pause: tomorrow\n", 2).outcome == "refused"
    assert ("la ligne 'pause: tomorrow' n'est pas une pause : écrivez 'pause: until 2027-01-04' (le jeu "
            "reprend ce jour-là, à 00:00 UTC) ou 'pause: none'") in mail_to(store, "japan")[-1].words
    russia = f"campaign: {CAMPAIGN}\nside: russia\npassword: {PASSWORDS['russia']}\npause: tomorrow\n"
    assert ask(mailroom, referee_key, inbox, russia, 3, sender="Makarov <makarov@russia.test>").outcome == "refused"
    assert ("the line 'pause: tomorrow' is not a pause: write 'pause: until 2027-01-04' (play starts again "
            "that day, 00:00 UTC) or 'pause: none'") in mail_to(store, "russia")[-1].words


def test_what_an_ended_absence_changed_is_said_in_french_to_a_french_player_and_in_english_to_the_other(
        campaigns, store, mailroom, referee_key, inbox):
    from tests.pipeline.test_mail_desk import ask

    open_with_french("japan", campaigns, referee_key)
    lines = f"campaign: {CAMPAIGN}\nside: japan\npassword: {PASSWORDS['japan']}\n"
    soon = datetime.now(timezone.utc).date() + timedelta(days=40)
    away = lines + f"away: {soon} to {soon + timedelta(days=1)}\n"
    assert ask(mailroom, referee_key, inbox, away, 1).outcome == "answered"
    assert ask(mailroom, referee_key, inbox, lines + "away: none\n", 2).outcome == "answered"
    withdrawn = f"l'absence du {soon} au {soon + timedelta(days=1)} est retirée"
    assert withdrawn in mail_to(store, "japan")[-1].words
    assert f"the absence {soon} to {soon + timedelta(days=1)} is withdrawn" in mail_to(store, "russia")[-1].words
