"""No draw before every side has spoken (docs/dice.md §8.1): the first step draws
nothing until every side has sent orders or a one-line confirmation with its entropy;
a voided step runs again only with a fresh contribution from every side; ``verify``
refuses a draw in a batch without a contribution from every side that was due."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from adjudicator.campaign import Player
from adjudicator.campaign.campaign import DEFAULT_DEADLINE_HOURS
from adjudicator.campaign.errors import ContributionsDue, FreshOrdersNeeded
from adjudicator.campaign.examples import example_key
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import records_from_jsonl
from tests.campaign.conftest import PLAYERS, confirm
from tests.campaign.tampering import drop_russias_first_orders, resign
from tests.campaign.test_sealed import chains, sealed  # noqa: F401 (fixtures)

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
RJW_PLAYERS = [Player("japan", "japan@example.org", "pw-japan-1904"), Player("russia", "russia@example.org",
                                                                             "pw-russia-1904")]
RJW_PASSWORDS = {p.side: p.password for p in RJW_PLAYERS}


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

    verdict = verify_text(resign(text, example_key(), drop_russias_first_orders))
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
    monkeypatch.setattr(campaign_module, "_check_fresh_orders", lambda *args: None)
    confirm(campaigns, referee_key, "u2", ["russia"])
    campaigns.adjudicate("u2", referee_key, reuse_orders=True)
    text = campaigns.export_public("u2")
    redo = records_from_jsonl(text)[-1].body
    assert any("dice" in e for e in redo["entries"]), "the redo should draw for this test to mean anything"
    verdict = verify_text(text)
    assert not verdict.verified and "without a contribution from japan" in verdict.reason
    assert "voided step run again" in verdict.reason


START = datetime(1904, 2, 8, 12, tzinfo=timezone.utc)
PAST_DEADLINE = START + timedelta(hours=DEFAULT_DEADLINE_HOURS, minutes=1)


def draws(entries):
    """Whether a batch's published entries draw anything (in clear or sealed)."""
    return any({"dice", "shuffle", "draw"} & set(e) or e.get("what", "answer") != "answer" for e in entries)


def first_step_with_russia_silent(campaigns, key, name="late"):
    """An open RJW campaign whose step 1 draws, japan confirmed and russia silent, run
    once the deadline has passed: the public record."""
    campaigns.create(name, "russo-japanese-war", RJW_PLAYERS, key, now=START)
    confirm(campaigns, key, name, ["japan"], RJW_PASSWORDS)
    return campaigns.adjudicate(name, key, now=PAST_DEADLINE)


def test_before_the_deadline_a_silent_side_still_holds_back_the_first_draw(campaigns, referee_key):
    campaigns.create("early", "russo-japanese-war", RJW_PLAYERS, referee_key, now=START)
    confirm(campaigns, referee_key, "early", ["japan"], RJW_PASSWORDS)
    with pytest.raises(ContributionsDue, match="waiting for russia"):
        campaigns.adjudicate("early", referee_key, now=PAST_DEADLINE - timedelta(minutes=2))
    assert campaigns.log("early").batches == []


def test_past_the_deadline_the_first_step_draws_with_the_sides_that_spoke_and_names_the_silent(campaigns,
                                                                                              referee_key):
    step = first_step_with_russia_silent(campaigns, referee_key)
    batch = campaigns.log("late").batches[0].body
    assert step.batch == 1 and draws(batch["entries"])
    assert list(batch["contributions"]) == ["japan"] and "russia" in batch["defaults"]
    assert "russia" in step.defaults
    assert any(note.startswith("Russia: no orders or confirmation for step 1 by the deadline")
               and "keyed by the entropy of japan only" in note for note in step.default_notes)
    assert verify_text(campaigns.export_public("late")).verified


def test_past_the_deadline_with_no_side_heard_the_first_step_still_waits(campaigns, referee_key):
    campaigns.create("mute", "russo-japanese-war", RJW_PLAYERS, referee_key, now=START)
    with pytest.raises(ContributionsDue, match="no side has spoken by the deadline.*waiting for japan, russia"):
        campaigns.adjudicate("mute", referee_key, now=PAST_DEADLINE)
    assert campaigns.log("mute").batches == []


def test_a_redo_runs_with_the_sides_that_spoke_once_its_own_deadline_from_the_undo_has_passed(campaigns,
                                                                                             referee_key,
                                                                                             auto_orders):
    campaigns.create("u3", "port-arthur", PLAYERS, referee_key, now=START)
    for _ in range(4):
        confirm(campaigns, referee_key, "u3")
        campaigns.adjudicate("u3", referee_key, now=START)
    undone_at = START + timedelta(days=30)  # long after the voided step's own deadline
    campaigns.undo("u3", referee_key, "a ruling was wrong", now=undone_at)
    with pytest.raises(FreshOrdersNeeded, match="no side has sent anything for it by the deadline"):
        campaigns.adjudicate("u3", referee_key, now=undone_at + timedelta(hours=DEFAULT_DEADLINE_HOURS + 1))
    confirm(campaigns, referee_key, "u3", ["russia"])
    with pytest.raises(FreshOrdersNeeded, match="waiting for japan"):
        campaigns.adjudicate("u3", referee_key, now=undone_at + timedelta(hours=1), reuse_orders=True)
    step = campaigns.adjudicate("u3", referee_key, now=undone_at + timedelta(hours=DEFAULT_DEADLINE_HOURS + 1),
                                reuse_orders=True)
    redo = campaigns.log("u3").batches[-1].body
    assert list(redo["contributions"]) == ["russia"] and "japan" in redo["defaults"] and "japan" in step.defaults
    assert draws(redo["entries"]), "the redo should draw for this test to mean anything"
    assert verify_text(campaigns.export_public("u3")).verified


def test_verify_refuses_a_late_first_batch_that_drops_a_contribution_without_naming_the_side(campaigns,
                                                                                             referee_key):
    first_step_with_russia_silent(campaigns, referee_key)
    text = campaigns.export_public("late")

    def unnamed(pairs):
        next(body for kind, body in pairs if kind == "batch")["defaults"].remove("russia")
        return pairs

    def nobody(pairs):  # every side named, none contributed: the referee's seed alone
        index = next(i for i, (kind, body) in enumerate(pairs) if kind == "orders" and body["side"] == "japan")
        del pairs[index]
        batch = next(body for kind, body in pairs if kind == "batch")
        batch["contributions"], batch["orders"], batch["defaults"] = {}, [], ["japan", "russia"]
        return pairs

    verdict = verify_text(resign(text, referee_key, unnamed))
    assert not verdict.verified and "without a contribution from russia" in verdict.reason
    verdict = verify_text(resign(text, referee_key, nobody))
    assert not verdict.verified and "without a contribution from japan, russia" in verdict.reason


def test_verify_refuses_a_sealed_batch_without_a_sides_orders_and_reveal(sealed, referee_key, chains):
    """In sealed mode every batch, not only the first, needs every side's contribution."""
    from tests.campaign.test_sealed import JAPAN_SORTIE, orders
    from tests.campaign.test_sealed import START as SEALED_START

    sealed.submit("sealed", orders("japan", 1, chains, JAPAN_SORTIE), referee_key)
    sealed.submit("sealed", orders("russia", 1, chains), referee_key)
    sealed.adjudicate("sealed", referee_key, now=SEALED_START + timedelta(hours=1))
    text = sealed.export_public("sealed")
    assert verify_text(text).verified

    def drop_russia(pairs):
        index = next(i for i, (kind, body) in enumerate(pairs) if kind == "orders" and body["side"] == "russia")
        del pairs[index]
        batch = next(body for kind, body in pairs if kind == "batch")
        for field in ("contributions", "reveals"):
            batch[field].pop("russia", None)
        batch["orders"] = [s - (s > index) for s in batch["orders"] if s != index]
        return pairs

    verdict = verify_text(resign(text, referee_key, drop_russia))
    assert not verdict.verified and "a sealed campaign's batch needs every side's orders and reveal" in verdict.reason
