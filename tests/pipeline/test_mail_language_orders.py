"""The orders reader's words in a French reader's mail: each problem of refused orders
keeps its code, its template and its values, and the refusal says it in the reader's
language (line and column as they are); the receipt's notes too (a name read from
its first letters, an order that cannot be carried out). The English mail is as it
was, word for word."""

from __future__ import annotations

from dataclasses import replace

from adjudicator.i18n import said
from adjudicator.orders import OrdersError

from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    DEADLINE_HOURS,
    HOUR,
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
