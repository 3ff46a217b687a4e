"""No draw before every side has spoken (docs/dice.md §8.1): the first step draws
nothing until every side has sent orders or a one-line confirmation with its entropy;
a voided step runs again only with a fresh contribution from every side; ``verify``
refuses a draw in a batch without a contribution from every side that was due."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.campaign import Player
from adjudicator.campaign.errors import ContributionsDue, FreshOrdersNeeded
from adjudicator.campaign.examples import example_key
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import records_from_jsonl, records_to_jsonl, sign_record
from tests.campaign.conftest import PLAYERS, confirm

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
RJW_PLAYERS = [Player("japan", "japan@example.org", "pw-japan-1904"), Player("russia", "russia@example.org",
                                                                             "pw-russia-1904")]
RJW_PASSWORDS = {p.side: p.password for p in RJW_PLAYERS}


def resigned(text, key, change):
    pairs = change([(r.kind, json.loads(json.dumps(r.body))) for r in records_from_jsonl(text)])
    out, prev = [], "0" * 64
    for seq, (kind, body) in enumerate(pairs):
        out.append(sign_record(key, seq, kind, body, prev))
        prev = out[-1].hash
    return records_to_jsonl(out)


def test_the_first_step_draws_nothing_until_every_side_has_confirmed(campaigns, referee_key):
    campaigns.create("rjw", "russo-japanese-war", RJW_PLAYERS, referee_key)
    confirm(campaigns, referee_key, "rjw", ["japan"], RJW_PASSWORDS)
    with pytest.raises(ContributionsDue, match="waiting for russia .*'entropy:' line"):
        campaigns.adjudicate("rjw", referee_key)
    assert campaigns.log("rjw").batches == []  # nothing recorded
    confirm(campaigns, referee_key, "rjw", ["russia"], RJW_PASSWORDS)
    step = campaigns.adjudicate("rjw", referee_key)
    batch = campaigns.log("rjw").batches[0].body
    assert step.batch == 1 and sorted(batch["contributions"]) == ["japan", "russia"]
    assert verify_text(campaigns.export_public("rjw")).verified


def test_a_voided_step_runs_again_only_with_a_fresh_contribution_from_every_side(campaigns, referee_key,
                                                                                   auto_orders):
    campaigns.create("u1", "port-arthur", PLAYERS, referee_key)
    for _ in range(3):
        confirm(campaigns, referee_key, "u1")
        campaigns.adjudicate("u1", referee_key)
    campaigns.undo("u1", referee_key, "a lost email")
    for reuse in (False, True):
        with pytest.raises(FreshOrdersNeeded, match="fresh contribution from every side"):
            campaigns.adjudicate("u1", referee_key, reuse_orders=reuse)
    confirm(campaigns, referee_key, "u1", ["japan"])
    with pytest.raises(FreshOrdersNeeded, match="waiting for russia"):
        campaigns.adjudicate("u1", referee_key, reuse_orders=True)
    confirm(campaigns, referee_key, "u1", ["russia"])
    campaigns.adjudicate("u1", referee_key, reuse_orders=True)
    log = campaigns.log("u1")
    redo = log.batches[-1].body
    voided = log.voided()
    assert sorted(redo["contributions"]) == ["japan", "russia"]
    reused = {o.record_seq for o in log.orders if o.step in voided}
    assert redo["reused_orders"] and set(redo["reused_orders"]) <= reused  # the orders it was told to use, named
    assert verify_text(campaigns.export_public("u1")).verified


def test_verify_refuses_a_first_batch_drawn_without_a_sides_contribution(referee_key):
    text = (EXAMPLES / "russo-japanese-war.jsonl").read_text(encoding="utf-8")

    def drop_russia(pairs):
        index = next(i for i, (kind, body) in enumerate(pairs) if kind == "orders" and body["side"] == "russia")
        del pairs[index]
        batch = next(body for kind, body in pairs if kind == "batch")
        batch["contributions"].pop("russia", None)
        batch["orders"] = [s - (s > index) for s in batch["orders"] if s != index]
        return pairs

    verdict = verify_text(resigned(text, example_key(), drop_russia))
    assert not verdict.verified and "without a contribution from russia" in verdict.reason
    assert "batch 1" in verdict.reason


def test_verify_refuses_a_redo_drawn_without_every_sides_fresh_contribution(campaigns, referee_key, auto_orders,
                                                                           monkeypatch):
    """A referee whose program skips the check runs the voided step again with russia's
    contribution only (its dice consistent with that): verify refuses the batch."""
    from adjudicator.campaign import campaign as campaign_module

    campaigns.create("u2", "port-arthur", PLAYERS, referee_key)
    for _ in range(4):
        confirm(campaigns, referee_key, "u2")
        campaigns.adjudicate("u2", referee_key)
    campaigns.undo("u2", referee_key, "a ruling was wrong")
    monkeypatch.setattr(campaign_module, "_check_fresh_orders", lambda log, sides: None)
    confirm(campaigns, referee_key, "u2", ["russia"])
    campaigns.adjudicate("u2", referee_key, reuse_orders=True)
    text = campaigns.export_public("u2")
    redo = records_from_jsonl(text)[-1].body
    assert any("dice" in e for e in redo["entries"]), "the redo should draw for this test to mean anything"
    verdict = verify_text(text)
    assert not verdict.verified and "without a contribution from japan" in verdict.reason
    assert "voided step run again" in verdict.reason
