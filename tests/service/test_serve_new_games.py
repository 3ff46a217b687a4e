"""Every game starts at ``new``, also while ``serve`` runs: a Tsushima campaign created
with the ``new`` command while the service is up gets its opening mails sent, each
asking for the one-line confirmation that step 1 waits for (its set-up draws, and
nothing is drawn before every side has spoken), with its template and deadline; once
both sides have confirmed by LMTP, the set-up is drawn and each side's report asks its
first question; then the side that answers the both-sides stop first gets its receipt
and nothing else, and the side that answers second is accepted under the same step,
after which both get the turn's reports."""

from __future__ import annotations

import pytest

from adjudicator.campaign import Campaigns
from adjudicator.store import Store
from tests.pipeline.pipeline_helpers import REFEREE, cli, email, orders_text, part_text
from tests.service.conftest import Mailbag, wait_for
from tests.games.tsushima_1905.standing_orders import AHEAD

ADDRESSES = {"japan": "togo@japan.test", "russia": "makarov@russia.test"}
SENDERS = {"japan": "Heihachiro Togo <togo@japan.test>", "russia": "Stepan Makarov <makarov@russia.test>"}


def test_a_campaign_made_by_new_while_serve_runs_asks_for_confirmations_then_plays_both_sides_stop(
        referee, smtp_capture, start_serve, tmp_path):
    handler, port = smtp_capture
    serve = start_serve("--tick", "0.2", "--remind-hours", "0", smtp_port=port)
    players = tmp_path / "players.toml"
    players.write_text('[[player]]\nside = "japan"\naddress = "togo@japan.test"\npassword = "Togo-1904"\n'
                       '[[player]]\nside = "russia"\naddress = "makarov@russia.test"\npassword = "Makarov-1904"\n')
    mail = Mailbag(handler)

    def of_campaign(messages, name):
        return [m for m in messages if f"[{name}]" in str(m["Subject"])]

    for attempt in range(10):  # the set-up's cards are random: an ace first asks about torpedoes
        name = f"tsu-{attempt}"
        made = cli("new", name, "--game", "tsushima-1905", "--players", players, "--store", referee.store,
                   "--key", referee.key_file, "--from", REFEREE, cwd=tmp_path)
        assert made.returncode == 0, made.stderr
        with Store.open(referee.store) as store:
            log, match = Campaigns(store).match(name)
        assert log.batches == [] and not match.decisions  # 'new' draws nothing before both sides confirm
        wait_for(lambda: len(of_campaign(mail.messages(), name)) >= 2, 20, serve.log)
        openings = of_campaign(mail.messages(), name)
        assert {str(m["To"]) for m in openings} == set(ADDRESSES.values())
        for opening in openings:
            text = part_text(opening, "plain")
            words = " ".join(text.split())   # (whichever space the 78-column lines broke a sentence at)
            assert "the campaign opens" in str(opening["Subject"])
            assert "step 1 waits for every side's confirmation" in words and "BEGIN ORDERS" in text, text
            assert "step: 1" in text and "entropy: " in text and "confirmation (deadline " in words, text
        for side, address in ADDRESSES.items():
            serve.deliver(email(orders_text(side, 1, 1, "", campaign=name, entropy=f"{side}-{attempt}"),
                                sender=SENDERS[side], message_id=f"<confirm-{attempt}@{side}.test>"),
                          sender=address)
        wait_for(lambda: len(of_campaign(mail.reports(), name)) >= 4, 20, serve.log)
        with Store.open(referee.store) as store:
            log, match = Campaigns(store).match(name)
        assert len(log.batches) == 1  # the set-up's draws, step 1
        asked = {ADDRESSES[decision.side] for decision in match.decisions}
        for report in of_campaign(mail.reports(), name)[2:]:
            if str(report["To"]) in asked:  # its first question, for step 2
                text = part_text(report, "plain")
                assert "WHAT IS ASKED OF YOU (deadline " in text and "step: 2" in text, text
        if len(match.decisions) == 2:
            break
    else:
        pytest.fail("none of 10 Tsushima set-ups reached a stop that asks both sides at once")

    serve.deliver(email(orders_text("russia", 2, 1, AHEAD, campaign=name), sender=SENDERS["russia"],
                        message_id="<first@russia.test>"), sender="makarov@russia.test")
    wait_for(lambda: mail.replies_to("<first@russia.test>"), 20, serve.log)
    [receipt] = mail.replies_to("<first@russia.test>")
    assert "Orders accepted" in str(receipt["Subject"])
    serve.deliver(email(orders_text("japan", 2, 1, AHEAD, campaign=name), sender=SENDERS["japan"],
                        message_id="<second@japan.test>"))
    wait_for(lambda: len(of_campaign(mail.reports(), name)) >= 6, 20, serve.log)
    [accepted] = mail.replies_to("<second@japan.test>")
    assert "Orders accepted" in str(accepted["Subject"]), part_text(accepted, "plain")
    reports = of_campaign(mail.reports(), name)[4:]
    assert sorted(str(m["To"]) for m in reports) == ["makarov@russia.test", "togo@japan.test"]
    for report in reports:
        assert "Nothing since the last report" not in part_text(report, "plain")
    with Store.open(referee.store) as store:
        batch = Campaigns(store).log(name).batches[-1].body
    assert batch["batch"] == 2
    assert {e["side"] for e in batch["entries"][:2]} == {"japan", "russia"}
