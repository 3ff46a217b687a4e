"""A campaign can never be bricked by accepted orders: the limits hold for the orders
as stored (their canonical text), and the campaign adjudicates after every accepted
fuzzed orders file (FUZZ_ORDERS=10000 runs many more files)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from adjudicator.campaign.errors import CampaignError
from adjudicator.orders import OrdersError
from tests.campaign.conftest import PLAYERS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "orders"))
from fuzz_orders import FUZZ_COUNT, mutated_files  # noqa: E402

PASSWORDS = {p.side: p.password for p in PLAYERS}
HEADER = "campaign: c1\nside: japan\nturn: 1\npassword: Togo1904\n"


def test_orders_whose_stored_form_is_over_the_limits_are_refused_and_the_campaign_goes_on(
        campaigns, referee_key):
    campaigns.create("c1", "port-arthur", PLAYERS, referee_key)
    long_plan = HEADER + "operations:\n" + "  pass, else pass, else pass\n" * 2000
    with pytest.raises(OrdersError) as caught:
        campaigns.submit("c1", long_plan, referee_key)
    assert [p.code for p in caught.value.problems] == ["E107"]
    campaigns.submit("c1", HEADER + "sortie: Mikasa to Tsushima\n", referee_key)
    step = campaigns.adjudicate("c1", referee_key)
    assert step.batch == 1


def for_campaign(text: str, campaign: str) -> str:
    """A sample's header made to fit ``campaign``: its name, any step (the current one)."""
    text = re.sub(r"(?im)^(\s*campaign\s*:?\s*)demo-1904", rf"\g<1>{campaign}", text)
    return re.sub(r"(?im)^(\s*turn\s+\d+)\s*,\s*step\s+\d+|^\s*step\s*:?\s*\d+\s*(#.*)?$", r"\1", text)


@pytest.mark.soak("sized")
def test_the_campaign_adjudicates_after_every_accepted_fuzzed_orders_file(campaigns, referee_key):
    number = 1
    campaigns.create(f"fuzz-{number}", "port-arthur", PLAYERS, referee_key)
    accepted = 0
    for text in mutated_files(seed=22, count=max(FUZZ_COUNT // 5, 60)):
        try:
            campaigns.submit(f"fuzz-{number}", for_campaign(text, f"fuzz-{number}"), referee_key)
        except (OrdersError, CampaignError):
            continue
        accepted += 1
        step = campaigns.adjudicate(f"fuzz-{number}", referee_key)  # never raises: nothing bricks it
        if step.result is not None:
            number += 1
            campaigns.create(f"fuzz-{number}", "port-arthur", PLAYERS, referee_key)
    assert accepted
