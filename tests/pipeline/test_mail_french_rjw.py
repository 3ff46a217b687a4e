"""A Russo-Japanese War campaign by mail in which Japan's player reads French: the
opening mail tells the set-up and asks the first question in French (its prompt and its
template's comments), within 78 columns; the French template sent back as it stands,
its password filled in, is accepted and carried out as the English one would be."""

from __future__ import annotations

from dataclasses import replace

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

GAME = "russo-japanese-war"


def mail_to(store, side: str):
    return [m for m in outgoing(store) if m.recipient == ADDRESSES[side]]


def template_sent_back(text: str, password: str) -> str:
    """The lines between BEGIN ORDERS and END ORDERS of a report, as a player keeps
    them, the password filled in."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "BEGIN ORDERS")
    end = next(i for i, line in enumerate(lines) if line.strip() == "END ORDERS" and i > start)
    kept = [line.strip() if not line.strip().startswith("password:") else f"password: {password}"
            for line in lines[start:end + 1]]
    return "\n".join(kept) + "\n"


def confirm(side: str) -> str:
    """Step 1's confirmation (the game draws its set-up once each side has spoken)."""
    return (f"BEGIN ORDERS\ncampaign: {CAMPAIGN}\nside: {side}\nturn: 1\nstep: 1\n"
            f"password: {PASSWORDS[side]}\nentropy: {side}-words\nEND ORDERS\n")


def test_a_french_player_reads_the_question_in_french_and_its_template_works_as_it_stands(
        campaigns, store, mailroom, referee_key, inbox):
    players = [replace(p, language="fr") if p.side == "japan" else p for p in PLAYERS]
    campaigns.create(CAMPAIGN, GAME, players, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0, after=mailroom.queue_opening)
    for moment, side in enumerate(("japan", "russia"), 1):
        deliver(inbox, email(confirm(side), sender=ADDRESSES[side], message_id=f"<confirm-{side}@club.test>"),
                moment)
    assert [t.outcome for t in mailroom.receive(inbox.path, referee_key)] == ["accepted", "accepted"]
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    japan = [m for m in mail_to(store, "japan") if "phase de mouvement japonaise" in m.subject][-1]
    russia = [m for m in mail_to(store, "russia") if "Japanese Movement Phase" in m.subject][-1]
    french = " ".join(japan.text.split())
    for sentence in ("Mise en place", "cartes sont mélangées en une nouvelle pioche",
                     "Tour 1 : phase de mouvement japonaise", "Japon, phase de mouvement : déplacer une unité",
                     "une ligne par unité, dans l'ordre", "peuvent se déplacer :"):
        assert sentence in french, sentence
    for english in ("Set-up", "Movement Phase", "one line per unit", "may move:", "cards are shuffled"):
        assert english not in french, english
    assert "Japan Movement Phase: move a unit" in " ".join(russia.text.split())
    assert [line for line in japan.text.splitlines() if len(line) > 78] == []

    kept = template_sent_back(japan.text, PASSWORDS["japan"])
    assert "# une ligne par unité" in kept and "move:" in kept
    deliver(inbox, email(kept, sender=ADDRESSES["japan"], message_id="<fr-template@japan.test>",
                         subject=f"Re: {japan.subject}"), 1_000)
    taken = [t for t in mailroom.receive(inbox.path, referee_key) if t.outcome != "duplicate"]
    assert [t.outcome for t in taken] == ["accepted"], [t.detail for t in taken]
    receipt = [m for m in mail_to(store, "japan") if m.message["In-Reply-To"] == "<fr-template@japan.test>"]
    assert receipt and "Ordres acceptés" in receipt[0].subject
    step = campaigns.match(CAMPAIGN)[0].next_batch
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR)
    assert campaigns.match(CAMPAIGN)[0].next_batch == step + 1  # the step the template answered is carried out
