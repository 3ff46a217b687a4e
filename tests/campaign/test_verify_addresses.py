"""Every draw is published with its full address and ``verify`` checks each address
against the rules and the seed, before and after the opening; it checks a sealed
entry's label against its opening, a batch's defaults and whom a forfeit blames
(docs/dice.md §8.1, §8.2)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import records_from_jsonl
from tests.campaign.conftest import PLAYERS
from tests.campaign.test_sealed import JAPAN_SORTIE, START, chains, orders, sealed  # noqa: F401 (fixtures)
from tests.campaign.test_secrets import FOG, play_to_end
from tests.campaign.tampering import first_draw, resign
from tests.campaign.test_verify import finished  # noqa: F401 (fixture)


def tampered(text, key, change):
    return verify_text(resign(records_from_jsonl(text), key, change))


def test_every_draw_of_an_open_campaign_carries_its_full_address(finished):
    text, _ = finished
    batches = [r.body for r in records_from_jsonl(text) if r.kind == "batch"]
    for body in batches:
        index = 0
        for entry in body["entries"]:
            if "dice" in entry:
                at = entry["at"]
                assert set(at) == {"batch", "step", "turn", "phase", "kind", "stream", "index", "n", "side"}
                assert (at["batch"], at["step"], at["kind"], at["stream"], at["n"]) == (
                    body["batch"], body["batch"], "dice", "public", 6)
                assert at["index"] == index and at["phase"]
                index += len(entry["dice"])


@pytest.mark.parametrize("field, value", [("phase", "bogus"), ("turn", 99), ("index", 7), ("side", "nobody"),
                                          ("batch", 0), ("step", 0), ("n", 2), ("kind", "draw"),
                                          ("stream", "hidden")])
def test_a_finished_record_with_a_relabelled_die_is_not_verified(finished, referee_key, field, value):
    text, _ = finished

    def change(pairs):
        first_draw(pairs)["at"][field] = value
        return pairs

    verdict = tampered(text, referee_key, change)
    assert not verdict.verified and field in verdict.reason and (
        "address" in verdict.reason or "schema" in verdict.reason)


def test_a_die_published_without_its_address_is_not_verified(finished, referee_key):
    text, _ = finished

    def change(pairs):
        del first_draw(pairs)["at"]
        return pairs

    verdict = tampered(text, referee_key, change)
    assert not verdict.verified and "'at' missing" in verdict.reason


def finished_fog(campaigns, referee_key):
    campaigns.create("fog-1", "port-arthur", PLAYERS, referee_key, options=FOG)
    play_to_end(campaigns, referee_key, "fog-1")
    return campaigns.export_public("fog-1")


def test_a_relabelled_public_die_is_caught_after_the_opening(campaigns, referee_key, auto_orders):
    text = finished_fog(campaigns, referee_key)
    assert verify_text(text).verified

    def change(pairs):
        first_draw(pairs)["at"]["phase"] = "bogus"
        return pairs

    verdict = tampered(text, referee_key, change)
    assert not verdict.verified and "phase 'bogus'" in verdict.reason


def test_a_sealed_entry_labelled_as_something_else_is_caught_after_the_opening(campaigns, referee_key,
                                                                                 auto_orders):
    text = finished_fog(campaigns, referee_key)

    def change(pairs):
        entry = next(e for kind, body in pairs if kind == "batch" for e in body["entries"] if "sealed" in e)
        entry["what"] = "dice"
        return pairs

    verdict = tampered(text, referee_key, change)
    assert not verdict.verified and "opens to a 'answer'" in verdict.reason


def test_defaults_given_to_a_side_the_game_did_not_wait_for_are_caught(finished, referee_key):
    text, _ = finished

    def change(pairs):
        body = next(body for kind, body in pairs if kind == "batch" and body["batch"] > 1)
        body["defaults"] = ["japan", "russia"]
        return pairs

    verdict = tampered(text, referee_key, change)
    assert not verdict.verified and "defaults for silence" in verdict.reason


def test_a_forfeit_that_blames_the_side_that_revealed_is_caught(sealed, referee_key, chains):  # noqa: F811
    sealed.submit("sealed", orders("japan", 1, chains, JAPAN_SORTIE), referee_key)
    sealed.adjudicate("sealed", referee_key, now=START + timedelta(hours=73))
    text = sealed.export_public("sealed")
    assert verify_text(text).verified

    def change(pairs):
        forfeit = next(body for kind, body in pairs if kind == "forfeit")
        forfeit["forfeited"], forfeit["result"] = ["japan"], "russia"
        return pairs

    verdict = tampered(text, referee_key, change)
    assert not verdict.verified and "the forfeit blames japan" in verdict.reason


@pytest.mark.parametrize("spoil, reason", [
    (lambda opening: opening["hidden_seeds"].update({"1": "not hex"}), "hidden_seeds/1: must match pattern"),
    (lambda opening: opening["openings"][0].pop("entry"), "openings/0: 'entry' missing"),
])
def test_an_opening_that_does_not_follow_its_schema_is_refused_before_it_is_read(spoil, reason):
    from pathlib import Path

    from adjudicator.campaign.examples import example_key

    text = (Path(__file__).resolve().parents[2] / "docs" / "examples" / "port-arthur-fog-of-war.jsonl").read_text()

    def change(pairs):
        spoil(next(body for kind, body in pairs if kind == "opening"))
        return pairs

    verdict = tampered(text, example_key(), change)
    assert not verdict.verified and "the opening record does not follow its schema" in verdict.reason, verdict.reason
    assert reason in verdict.reason, verdict.reason
