"""``status`` (the referee's, and the desk's by mail) names the phase in the game's
words, as its reports do, never by the phase's id, and shows the step's deadline also
in step 1, while the sides confirm a set-up that draws first (nothing is asked yet)."""

from __future__ import annotations

import io

from adjudicator.campaign import Player
from adjudicator.campaign.mail_desk import status_text
from adjudicator.campaign.summary import STATUS_SUMMARY
from adjudicator.cli.status_cmd import status
from adjudicator.games.port_arthur.rules.sequence import PHASE_TITLES
from tests.campaign.conftest import PLAYERS

RJW_PLAYERS = [Player("japan", "japan@example.org", "pw-japan-1904"),
               Player("russia", "russia@example.org", "pw-russia-1904")]


def referee_status(campaigns, name: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert status(name, campaigns.store.path, "text", out, err) == 0, err.getvalue()
    return out.getvalue()


def test_the_referees_status_in_step_1_of_a_set_up_that_draws_first_shows_its_deadline(campaigns, referee_key):
    campaigns.create("rjw", "russo-japanese-war", RJW_PLAYERS, referee_key)
    assert campaigns.match("rjw")[1].decision is None  # nothing asked: the sides confirm step 1
    shown = referee_status(campaigns, "rjw")
    assert f"deadline: {campaigns.deadline('rjw').isoformat()}" in shown
    assert "rjw (russo-japanese-war): turn 1, Set-up; next step 1" in shown


def test_the_referees_status_names_the_phase_as_the_reports_do(campaigns, referee_key):
    campaigns.create("pa", "port-arthur", PLAYERS, referee_key)
    phase = campaigns.match("pa")[1].state.phase
    assert "-" in phase  # an id players never read
    for kept in (True, False):  # from the step's summary, and from the game run again
        if not kept:
            with campaigns.store.transaction("pa") as tx:
                tx.set_secret(STATUS_SUMMARY, None)
        first = referee_status(campaigns, "pa").splitlines()[0]
        assert f", {PHASE_TITLES[phase]};" in first and phase not in first


def test_the_status_by_mail_names_the_phase_as_the_reports_do(campaigns, referee_key):
    campaigns.create("pa", "port-arthur", PLAYERS, referee_key)
    log, match = campaigns.match("pa")
    first = status_text("pa", log, match, campaigns.deadline("pa"), ["japan", "russia"]).splitlines()[0]
    assert first == (f"Campaign pa: turn {match.state.turn}, {PHASE_TITLES[match.state.phase]}; "
                     f"next step {log.next_batch}.")
