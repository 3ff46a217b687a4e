"""Campaigns driven by written orders: authentication, steps, replacement, standing
orders, defaults for silence, and a whole game by orders files that verifies."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from adjudicator.campaign.errors import AuthenticationFailed, StepOver, UnknownSide
from adjudicator.campaign.verify import verify_text
from adjudicator.games.port_arthur.commander import AutoCommander
from adjudicator.orders import OrdersError
from tests.campaign.conftest import PLAYERS

PASSWORDS = {p.side: p.password for p in PLAYERS}


def orders(side="japan", step=1, turn=1, password=None, body="sortie:\n  Mikasa to Tsushima\n", campaign="c1"):
    password = PASSWORDS[side] if password is None else password
    return (f"campaign: {campaign}\nside: {side}\nturn: {turn}\nstep: {step}\npassword: {password}\n{body}")


@pytest.fixture
def campaign(campaigns, referee_key):
    campaigns.create("c1", "port-arthur", PLAYERS, referee_key,
                     now=datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc))
    return campaigns


def test_orders_with_a_wrong_password_are_refused_and_change_nothing(campaign, referee_key):
    before = campaign.export_public("c1")
    with pytest.raises(AuthenticationFailed, match="wrong password"):
        campaign.submit("c1", orders(password="Makarov1904"), referee_key)
    assert campaign.export_public("c1") == before


def test_orders_without_a_password_are_refused(campaign, referee_key):
    text = "campaign: c1\nside: japan\nturn: 1\nstep: 1\nsortie:\n  Mikasa to Tsushima\n"
    with pytest.raises(AuthenticationFailed, match="password"):
        campaign.submit("c1", text, referee_key)


def test_orders_for_a_side_not_in_the_campaign_are_refused(campaign, referee_key):
    with pytest.raises((UnknownSide, OrdersError)):
        campaign.submit("c1", orders().replace("side: japan", "side: china"), referee_key)


def test_orders_for_a_step_that_is_over_are_refused(campaign, referee_key):
    campaign.submit("c1", orders(), referee_key)
    campaign.adjudicate("c1", referee_key)
    with pytest.raises(StepOver, match="step 1 is over; the current step is 2"):
        campaign.submit("c1", orders(step=1), referee_key)


def test_orders_without_a_step_line_sent_again_after_their_step_are_refused_not_used_for_the_next(
        campaign, referee_key):
    text = f"campaign: c1\nside: japan\nturn: 1\npassword: {PASSWORDS['japan']}\nsortie:\n  Mikasa to Tsushima\n"
    assert campaign.submit("c1", text, referee_key)
    campaign.adjudicate("c1", referee_key)
    before = campaign.export_public("c1")

    with pytest.raises(StepOver, match=r"accepted for step 1.*add 'step: 2'"):
        campaign.submit("c1", text, referee_key)

    assert campaign.export_public("c1") == before
    changed = text.replace("Tsushima", "Pacific Ocean")
    campaign.submit("c1", changed, referee_key)  # new orders without 'step:' count for the step open now
    log, _ = campaign.match("c1")
    assert [o.step for o in log.orders] == [1, 2]


def test_a_newer_submission_for_the_step_replaces_the_older(campaign, referee_key):
    campaign.submit("c1", orders(body="sortie:\n  Mikasa to Tsushima\n"), referee_key)
    campaign.submit("c1", orders(body="sortie:\n  Mikasa to Pacific Ocean\n"), referee_key)
    campaign.adjudicate("c1", referee_key)
    _, match = campaign.match("c1")
    assert match.state.ships["Mikasa"].at == "Pacific Ocean"


def test_a_step_stops_at_the_first_question_no_order_answers(campaign, referee_key):
    campaign.submit("c1", orders(), referee_key)
    step = campaign.adjudicate("c1", referee_key)
    assert (step.waiting.side, step.waiting.kind) == ("russia", "sortie")
    assert campaign.adjudicate("c1", referee_key).batch is None  # nothing new to go on


def test_a_silent_side_gets_the_defaults_after_the_deadline(campaign, referee_key):
    campaign.submit("c1", orders(), referee_key)
    campaign.adjudicate("c1", referee_key, now=datetime(2026, 12, 1, 13, 0, tzinfo=timezone.utc))
    late = campaign.deadline("c1") + timedelta(minutes=1)
    step = campaign.adjudicate("c1", referee_key, now=late)
    assert "russia" in step.defaults
    _, match = campaign.match("c1")
    assert all(s.at in ("Port Arthur", "Vladivostok", "turn 4", "turn 5")
               for s in match.state.ships.values() if s.side == "russia")


def test_standing_orders_answer_later_questions(campaign, referee_key):
    body = "sortie:\n  Mikasa to Tsushima\ndice: 3\nhits: auto\ncriticals: auto\nseize: yes\nreroll: no\n"
    campaign.submit("c1", orders(body=body), referee_key)
    campaign.adjudicate("c1", referee_key)
    log, match = campaign.match("c1")
    from adjudicator.campaign.running import orders_in_force as _orders_in_force
    in_force = _orders_in_force(log, log.next_batch, match.state.turn, "port-arthur")
    assert {"dice", "hits", "criticals", "seize", "reroll"} <= set(in_force["japan"].kinds)
    assert "sortie" in in_force["japan"].kinds  # one-off orders last for the turn they were sent in


def test_a_whole_game_by_orders_files_needs_few_messages_and_verifies(campaign, referee_key):
    rng = random.Random(11)
    commanders = {side: AutoCommander(side, rng) for side in PASSWORDS}
    messages = 0
    for _ in range(200):
        log, match = campaign.match("c1")
        if match.finished:
            break
        decision = match.decision
        header = {"campaign": "c1", "side": decision.side, "turn": match.state.turn, "step": log.next_batch,
                  "password": PASSWORDS[decision.side], "entropy": f"{rng.getrandbits(40):010x}"}
        campaign.submit("c1", commanders[decision.side].orders(decision, match.state, header), referee_key)
        messages += 1
        campaign.adjudicate("c1", referee_key)
    assert match.finished and match.state.result in ("japan", "russia", "draw")
    # at most one message per side for each sortie and one operations plan per turn
    assert messages <= 6 * 4
    verdict = verify_text(campaign.export_public("c1"))
    assert verdict.verified and verdict.result == match.state.result


def test_a_player_who_signs_is_authenticated_by_the_signature_not_a_password(campaigns, referee_key):
    from adjudicator.campaign import Player
    from adjudicator.campaign.signing import sign_orders
    from adjudicator.fairdice import generate_keypair, public_key_to_text

    player_key, player_public = generate_keypair()
    players = [Player("japan", "togo@example.org", public_key=public_key_to_text(player_public)), PLAYERS[1]]
    campaigns.create("signed", "port-arthur", players, referee_key)
    text = "campaign: signed\nside: japan\nturn: 1\nstep: 1\nsortie:\n  Mikasa to Tsushima\n"
    signed = sign_orders(text, player_key, "port-arthur")
    assert campaigns.submit("signed", signed, referee_key).sha256
    with pytest.raises(AuthenticationFailed, match="does not verify"):
        campaigns.submit("signed", signed.replace("Tsushima", "Yellow Sea"), referee_key)
    with pytest.raises(AuthenticationFailed, match="signed"):
        campaigns.submit("signed", text + "password: Togo1904\n", referee_key)
    other_key = generate_keypair()[0]
    with pytest.raises(AuthenticationFailed, match="does not verify"):
        campaigns.submit("signed", sign_orders(text, other_key, "port-arthur"), referee_key)


def test_the_step_says_what_each_default_did(campaign, referee_key):
    campaign.submit("c1", orders(), referee_key)
    campaign.adjudicate("c1", referee_key, now=datetime(2026, 12, 1, 13, 0, tzinfo=timezone.utc))
    step = campaign.adjudicate("c1", referee_key, now=campaign.deadline("c1") + timedelta(minutes=1))
    assert "Russia: no ship sorties and no troops land" in step.default_notes


def test_orders_that_cannot_be_carried_out_are_reported_and_the_question_asked_again(campaign, referee_key):
    campaign.submit("c1", orders(body="sortie:\n  Mikasa to shipyard\n"), referee_key)  # Mikasa is intact
    step = campaign.adjudicate("c1", referee_key)
    assert step.batch is None and (step.waiting.side, step.waiting.kind) == ("japan", "sortie")
    assert any(note.startswith("japan: the sortie orders on file leave this question open") for note in step.refused)


def test_the_receipt_warns_when_the_orders_do_not_answer_the_open_question(campaign, referee_key):
    receipt = campaign.submit("c1", orders(body="sortie:\n  Mikasa to shipyard\n"), referee_key)
    assert any("do not answer the question now open for japan (sortie)" in note for note in receipt.notes)
    assert "do not answer" in receipt.render()
    good = campaign.submit("c1", orders(), referee_key)
    assert good.notes == ()
