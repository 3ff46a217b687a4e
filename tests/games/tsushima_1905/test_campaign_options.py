"""The options ``split_fire`` and ``partial_ahead`` in a campaign by email: orders that
use them are accepted where the charter sets the option and refused with a message
naming it where it does not; a step played under both options verifies."""

from __future__ import annotations

import pytest

from adjudicator.campaign import Campaigns, Player
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import generate_keypair
from adjudicator.orders import OrdersError
from adjudicator.store import Store
from tests.campaign.conftest import confirm
from tests.games.tsushima_1905.standing_orders import AHEAD, STANDING

PLAYERS = [Player("japan", "togo@example.org", "Togo1905"), Player("russia", "rozhd@example.org", "Suvorov1905")]
PASSWORDS = {p.side: p.password for p in PLAYERS}
JAPAN = ("move:\n  all: ahead 0.5, else ahead\n"
         "fire:\n  all: at nearest in port; at nearest in starboard; at nearest in bow; dice 1\n" + STANDING)
RUSSIA = AHEAD


@pytest.fixture
def campaigns(tmp_path):
    with Store.open(tmp_path / "campaigns.sqlite3") as store:
        yield Campaigns(store)


def orders(side: str, body: str, campaign: str) -> str:
    # step 2: the set-up's card draws are step 1, once both sides have confirmed it
    return f"campaign: {campaign}\nside: {side}\nturn: 1\nstep: 2\npassword: {PASSWORDS[side]}\n{body}"


def test_orders_using_the_options_are_refused_in_a_campaign_without_them(campaigns):
    key = generate_keypair()[0]
    campaigns.create("plain", "tsushima-1905", PLAYERS, key)
    with pytest.raises(OrdersError) as refused:
        campaigns.submit("plain", orders("japan", JAPAN, "plain"), key)
    codes = sorted({problem.code for problem in refused.value.problems})
    assert codes == ["E408", "E409"]
    messages = " ".join(problem.message for problem in refused.value.problems)
    assert "partial_ahead" in messages and "split_fire" in messages


def test_a_campaign_with_split_fire_and_partial_ahead_takes_such_orders_plays_and_verifies(campaigns):
    key = generate_keypair()[0]
    campaigns.create("options", "tsushima-1905", PLAYERS, key,
                     options={"split_fire": True, "partial_ahead": True})
    confirm(campaigns, key, "options", passwords=PASSWORDS)
    assert campaigns.adjudicate("options", key).batch == 1  # the set-up, drawn once both sides confirmed
    receipt = campaigns.submit("options", orders("japan", JAPAN, "options"), key)
    assert "at nearest in port; at nearest in starboard; at nearest in bow" in receipt.text
    campaigns.submit("options", orders("russia", RUSSIA, "options"), key)
    step = campaigns.adjudicate("options", key)
    assert step.batch == 2
    moves = [e.text for e in step.events if e.kind == "move" and " A0.5" in e.text]
    japanese = [e for e in step.events if e.kind == "move" and e.data["ship"] in
                {"Mikasa", "Shikishima", "Fuji", "Asahi", "Kasuga", "Nisshin", "Idzumo", "Azuma", "Tokiwa",
                 "Yakumo", "Asama", "Iwate"}]
    torpedo_turn = any(e.kind == "phase" and e.data.get("phase") == "torpedo" for e in step.events)
    assert len(moves) == len(japanese) and (japanese or torpedo_turn)   # each Japanese move: half an ahead
    for event in step.events:
        if event.kind == "fire":
            assert ("from its" in event.text) == ("arc" in event.data)
    assert verify_text(campaigns.export_public("options")).verified
