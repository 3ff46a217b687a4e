"""A Tsushima campaign by mail in which Japan's player reads French and Russia's
English: Japan's reports tell the battle, the table and the question in French (no
English words of Tsushima's messages left, every line within 78 columns, the HTML in
French), Russia's in English as before; Japan's French template, sent back as it
stands, is accepted as orders, and the record verifies."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.campaign.verify import verify_text
from tests.conftest import soak_size
from tests.games.tsushima_1905.test_report_french import english_phrases
from tests.pipeline.pipeline_helpers import (
    ADDRESSES, CAMPAIGN, DEADLINE_HOURS, HOUR, PASSWORDS, PLAYERS, REFEREE, T0, deliver, email, orders_text,
    outgoing,
)

#: Deadlines passed after the first stop (more with ADJUDICATOR_SOAK=1).
DEADLINES = soak_size(1, 8)


def template_of(report_text: str, side: str) -> str:
    """The orders between BEGIN ORDERS and END ORDERS of a report, as a player keeps
    them, the password filled in."""
    lines = report_text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "BEGIN ORDERS")
    end = next(i for i, line in enumerate(lines) if line.strip() == "END ORDERS" and i > start)
    kept = [line[4:] for line in lines[start:end + 1]]
    return "\n".join(f"password: {PASSWORDS[side]}" if line.startswith("password:") else line for line in kept)


def salvo_told(store) -> bool:
    """Whether a salvo has been told to each side, in its language."""
    mail = outgoing(store)
    return (any(" tire " in " ".join(m.text.split()) for m in mail if m.recipient == ADDRESSES["japan"])
            and any(" fires " in " ".join(m.text.split()) for m in mail if m.recipient == ADDRESSES["russia"]))


@pytest.mark.soak("sized")
def test_japan_reads_tsushima_in_french_and_sends_its_french_template_back(
        campaigns, store, mailroom, referee_key, inbox):
    players = [replace(p, language="fr") if p.side == "japan" else p for p in PLAYERS]
    campaigns.create(CAMPAIGN, "tsushima-1905", players, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    for number, side in enumerate(("japan", "russia")):
        deliver(inbox, email(orders_text(side, step=1, body="", entropy=f"fr-{side}"), sender=ADDRESSES[side],
                             message_id=f"<c-{side}@club.test>"), 100 + number)
    assert [t.outcome for t in mailroom.receive(inbox.path, referee_key)][-2:] == ["accepted", "accepted"]
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    sent, late = False, 1
    while late <= 40 and not (sent and late > DEADLINES and salvo_told(store)):
        _log, match = campaigns.match(CAMPAIGN)
        if match.finished:
            break
        if not sent and any(d.side == "japan" for d in match.decisions):
            asking = [m for m in outgoing(store) if m.recipient == ADDRESSES["japan"] and "BEGIN ORDERS" in m.text]
            kept = template_of(asking[-1].text, "japan")     # Japan keeps its French template as it stands
            assert "# ou: follow" in kept or "#   (" in kept or "Les ordres en vigueur" in kept, kept
            deliver(inbox, email(kept, sender=ADDRESSES["japan"], message_id="<kept@japan.test>"), 1_000 + late)
            taken = [t for t in mailroom.receive(inbox.path, referee_key) if t.outcome != "duplicate"]
            assert [t.outcome for t in taken] == ["accepted"], [t.detail for t in taken]
            sent = True
        late += 1      # a deadline passes: the orders on file and the defaults play on
        campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 100 * late * HOUR, after=mailroom.queue_reports)
    assert sent
    mail = outgoing(store)
    japan = [m for m in mail if m.recipient == ADDRESSES["japan"] and "rapport pour le camp Japon" in m.subject]
    russia = [m for m in mail if m.recipient == ADDRESSES["russia"] and "report for Russia" in m.subject]
    assert len(japan) >= 2 and len(russia) >= 2
    french = " ".join(" ".join(m.text.split()) for m in japan)
    english = " ".join(" ".join(m.text.split()) for m in russia)
    for said in ("Tour 1 : phase d'initiative.", "LA TABLE", "navire cl x y cap", "Japon (majuscules)"):
        assert said in french, said
    assert "Turn 1: initiative phase." in english and "Tour 1 :" not in english
    assert " tire " in french and " fires " in english       # a salvo, told in each reader's language
    assert [phrase for phrase in sorted(english_phrases()) if phrase in french] == []
    for message in mail:
        assert [line for line in message.text.splitlines() if len(line) > 78] == [], message.subject
    assert all('<html lang="fr">' in m.html for m in japan)
    assert verify_text(campaigns.export_public(CAMPAIGN)).verified
