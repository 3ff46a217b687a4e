"""A Port Arthur club campaign by mail in which Japan's player reads French
(``language = "fr"`` for the side) and Russia's reads English: each reads every
receipt, report and answer in their own language, every text line within 78
columns; the orders, their hashes and the public record are the same whatever the
language, and the record verifies."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from adjudicator.campaign.games import support
from adjudicator.campaign.verify import verify_text
from tests.conftest import soak_size
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
    outgoing,
)

#: Steps played by mail: the first turn's sorties and operations; with ADJUDICATOR_SOAK=1
#: a whole game (battles, scoring, the return to port, the end).
STEPS = soak_size(5, 60, "FRENCH_CAMPAIGN_STEPS")
ENGLISH_FRAME = ("WHAT HAPPENED", "FAIR DICE", "THE SITUATION", "Orders accepted", "ASK THE REFEREE BY MAIL",
                 "How to read this")
FRENCH_FRAME = ("CE QUI S'EST PASSÉ", "DÉS ÉQUITABLES", "LA SITUATION", "DEMANDER À L'ARBITRE PAR COURRIEL",
                "Comment lire ceci", "Tour 1 : phase de sortie de la flotte japonaise.")


def play_by_mail(campaigns, mailroom, referee_key, inbox, steps: int = STEPS) -> dict[str, str]:
    """Both sides answer every question by mail with an automatic commander's orders;
    the SHA-256 of each accepted orders mail, by its Message-ID."""
    rng = random.Random(27)
    commanders = {side: support("port-arthur").commander(side, rng) for side in ADDRESSES}
    accepted: dict[str, str] = {}
    moment = 1_000
    for _ in range(steps):
        log, match = campaigns.match(CAMPAIGN)
        if match.finished:
            break
        for decision in match.decisions:
            header = {"campaign": CAMPAIGN, "side": decision.side, "turn": match.state.turn,
                      "step": log.next_batch, "password": PASSWORDS[decision.side],
                      "entropy": f"{rng.getrandbits(64):016x}"}
            text = commanders[decision.side].orders(decision, match.state, header)
            message_id = f"<step-{log.next_batch}-{decision.side}@club.test>"
            moment += 1
            deliver(inbox, email(text, sender=ADDRESSES[decision.side], message_id=message_id,
                                 subject=f"[{CAMPAIGN}] orders"), moment)
        for taken in mailroom.receive(inbox.path, referee_key):
            if taken.outcome == "accepted":
                accepted[taken.origin] = taken.detail
        campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR * moment, after=mailroom.queue_reports)
    return accepted


@pytest.mark.soak("sized")
def test_japan_reads_french_and_russia_english_and_the_record_is_the_same(
        campaigns, store, mailroom, referee_key, inbox):
    players = [replace(p, language="fr") if p.side == "japan" else p for p in PLAYERS]
    campaigns.create(CAMPAIGN, "port-arthur", players, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0, after=mailroom.queue_opening)
    accepted = play_by_mail(campaigns, mailroom, referee_key, inbox)
    mail = outgoing(store)
    japan = [m for m in mail if m.recipient == ADDRESSES["japan"]]
    russia = [m for m in mail if m.recipient == ADDRESSES["russia"]]
    assert len(japan) >= 5 and len(russia) >= 5
    for message in mail:  # every line of every mail, the reports too, in both languages
        assert [line for line in message.text.splitlines() if len(line) > 78] == [], message.subject
    french = "\n".join(m.subject + "\n" + m.text for m in japan)
    english = "\n".join(m.subject + "\n" + m.text for m in russia)
    for heading in FRENCH_FRAME:
        assert heading in french and heading not in english, heading
    assert "Ordres acceptés. Voici ce que l'arbitre a compris :" in french
    assert "rapport pour le camp Japon" in french and "report for Japan" not in french
    for heading in ENGLISH_FRAME:
        assert heading not in french, heading
        assert heading in english, heading
    assert "Turn 1: Sortie Phase of the Japanese Fleet." in english
    reports = [m for m in japan if "rapport pour le camp Japon" in m.subject]
    assert reports and all('<html lang="fr">' in m.html for m in reports)
    assert all('<html lang="en">' in m.html for m in russia if m.html)
    # the canonical orders and their hash are the same in both languages: each French
    # receipt names the hash the record keeps for those orders
    log, match = campaigns.match(CAMPAIGN)
    if match.finished:  # a whole game (ADJUDICATOR_SOAK=1)
        assert "LA PARTIE EST FINIE : " in french and "THE GAME IS OVER: " in english
        assert "Fin du tour 6 :" in french and "End of turn 6:" in english
    recorded = {orders.sha256 for orders in log.orders}
    assert set(accepted.values()) <= recorded
    for receipt in (m for m in japan if m.subject.endswith("] Ordres acceptés")):
        assert any(f"SHA-256 des ordres ci-dessus : {sha}" in receipt.words for sha in recorded)
    record = campaigns.export_public(CAMPAIGN)
    assert verify_text(record).verified
    assert '"language"' not in record  # the reader's language is no part of the public record


def test_a_french_player_asking_report_n_by_mail_gets_that_french_report_again(
        campaigns, store, mailroom, referee_key, inbox):
    players = [replace(p, language="fr") if p.side == "japan" else p for p in PLAYERS]
    campaigns.create(CAMPAIGN, "port-arthur", players, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0, after=mailroom.queue_opening)
    play_by_mail(campaigns, mailroom, referee_key, inbox, steps=3)
    text = f"campaign: {CAMPAIGN}\nside: japan\npassword: {PASSWORDS['japan']}\nreport 2\n"
    deliver(inbox, email(text, sender=ADDRESSES["japan"], message_id="<again@japan.test>"), 99_999)
    taken = [t for t in mailroom.receive(inbox.path, referee_key) if t.outcome != "duplicate"][-1]
    assert taken.outcome == "answered", taken.detail
    (again,) = [m for m in outgoing(store) if m.message["In-Reply-To"] == "<again@japan.test>"]
    assert "étape 2 :" in again.subject and "CE QUI S'EST PASSÉ" in again.text
