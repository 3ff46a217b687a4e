"""Secrets in a verifiable game (DESIGN §5, docs/dice.md "Secrets"): hidden answers
are sealed in the public record during play and opened at the end; hidden draws come
from the hidden seed chain; verify says how much is sealed, then checks everything."""

from __future__ import annotations

import json
import random

import pytest

from adjudicator import games
from adjudicator.campaign.protocol import OPENING, seal
from adjudicator.campaign.verify import render_verdict, verify_text
from adjudicator.fairdice import records_from_jsonl
from tests.campaign.conftest import PLAYERS, answer_automatically, automatic_answers, confirm
from tests.campaign.test_verify import resign

FOG = {"fog_of_war": True}


def play_to_end(campaigns, key, campaign, options=FOG, max_steps=200):
    steps = []
    for _ in range(max_steps):
        steps.append(campaigns.adjudicate(campaign, key))
        if steps[-1].result is not None:
            return steps
    raise AssertionError("the campaign did not end")


@pytest.fixture
def fog_campaign(campaigns, referee_key, auto_orders):
    campaigns.create("fog-1", "port-arthur", PLAYERS, referee_key, options=FOG)
    return "fog-1"


def clear_sorties(campaigns, campaign):
    """The sortie answers as the referee keeps them (private)."""
    log = campaigns.log(campaign)
    return [e for entries in log.clear_entries.values() for e in entries if e.get("kind") == "sortie"]


def test_a_fog_of_war_record_exported_mid_game_holds_no_hidden_sortie(campaigns, referee_key, fog_campaign):
    for _ in range(6):
        campaigns.adjudicate(fog_campaign, referee_key)
    sorties = [s for s in clear_sorties(campaigns, fog_campaign) if s["answer"]["moves"]]
    assert sorties, "the automatic players sortied"
    exported = campaigns.export_public(fog_campaign)
    assert '"kind":"sortie"' not in exported and '"moves"' not in exported
    for sortie in sorties:
        for ship, zone in sortie["answer"]["moves"].items():
            assert json.dumps({ship: zone})[1:-1] not in exported
    charter = records_from_jsonl(exported)[0].body
    assert "hidden_chain" in charter and "final_seed" not in exported


def test_verify_during_play_checks_what_is_public_and_counts_what_is_sealed(campaigns, referee_key,
                                                                           fog_campaign):
    for _ in range(6):
        campaigns.adjudicate(fog_campaign, referee_key)
    verdict = verify_text(campaigns.export_public(fog_campaign))
    assert verdict.verified, verdict.reason
    assert verdict.sealed > 0 and verdict.result is None
    assert f"{verdict.sealed} hidden items committed, to be opened at the end" in render_verdict(verdict)


def test_a_changed_public_die_is_caught_during_play(campaigns, referee_key, fog_campaign):
    for _ in range(12):
        campaigns.adjudicate(fog_campaign, referee_key)
    records = records_from_jsonl(campaigns.export_public(fog_campaign))

    def change(pairs):
        entry = next(e for kind, body in pairs if kind == "batch" for e in body["entries"] if "dice" in e)
        entry["dice"][0] = entry["dice"][0] % 6 + 1
        return pairs

    verdict = verify_text(resign(records, referee_key, change))
    assert not verdict.verified and "the seed gives" in verdict.reason


def test_a_fog_of_war_campaign_verifies_fully_after_the_end(campaigns, referee_key, fog_campaign):
    steps = play_to_end(campaigns, referee_key, fog_campaign)
    records = records_from_jsonl(campaigns.export_public(fog_campaign))
    assert records[-1].kind == OPENING
    verdict = verify_text(campaigns.export_public(fog_campaign))
    assert verdict.verified, verdict.reason
    assert verdict.sealed == 0 and verdict.result == steps[-1].result
    assert "VERIFIED: every signature" in render_verdict(verdict)


def test_a_tampered_opening_is_detected(campaigns, referee_key, fog_campaign):
    play_to_end(campaigns, referee_key, fog_campaign)
    records = records_from_jsonl(campaigns.export_public(fog_campaign))

    def change(pairs):
        kind, body = pairs[-1]
        assert kind == OPENING
        opened = next(o for o in body["openings"] if o["open"].get("kind") == "sortie" and o["open"]["answer"]["moves"])
        ship = next(iter(opened["open"]["answer"]["moves"]))
        opened["open"]["answer"]["moves"].pop(ship)  # "that ship never sortied"
        return pairs

    verdict = verify_text(resign(records, referee_key, change))
    assert not verdict.verified
    assert verdict.bad_record == len(records) - 1 and "does not match the commitment" in verdict.reason


def test_a_tampered_hidden_seed_is_detected(campaigns, referee_key, fog_campaign):
    play_to_end(campaigns, referee_key, fog_campaign)
    records = records_from_jsonl(campaigns.export_public(fog_campaign))

    def change(pairs):
        seeds = pairs[-1][1]["hidden_seeds"]
        seeds["1"] = "00" * 32
        return pairs

    verdict = verify_text(resign(records, referee_key, change))
    assert not verdict.verified and "hidden chain" in verdict.reason


def test_each_player_gets_the_openings_of_its_own_hidden_items(campaigns, referee_key, fog_campaign):
    found = {}
    for _ in range(8):
        step = campaigns.adjudicate(fog_campaign, referee_key)
        for side, items in step.openings.items():
            found.setdefault(side, []).extend(items)
    records = records_from_jsonl(campaigns.export_public(fog_campaign))
    published = {r.body["batch"]: r.body["entries"] for r in records if r.kind == "batch"}
    assert set(found) == {"japan", "russia"}
    for side, items in found.items():
        for item in items:
            shown = published[item["batch"]][item["entry"] - 1]
            assert shown["side"] == side and item["open"]["side"] == side
            assert seal("fog-1", item["batch"], item["entry"], bytes.fromhex(item["salt"]), item["open"]) \
                == shown["sealed"] == item["sealed"]


def test_a_campaign_without_secrets_seals_nothing_and_addresses_every_draw(campaigns, referee_key, auto_orders):
    campaigns.create("open-1", "port-arthur", PLAYERS, referee_key)
    for _ in range(5):
        campaigns.adjudicate("open-1", referee_key)
    records = records_from_jsonl(campaigns.export_public("open-1"))
    assert "hidden_chain" not in records[0].body
    for record in records:
        assert record.kind != OPENING
        for entry in record.body.get("entries", []):
            assert "sealed" not in entry
            if "dice" in entry:
                assert entry["at"]["stream"] == "public" and entry["at"]["batch"] == record.body["batch"]


@pytest.fixture
def toy_campaigns(campaigns, monkeypatch):
    """The toy card game (hidden shuffle, hidden hands, hidden draws), registered,
    with orders that answer at random."""
    monkeypatch.setitem(games.GAMES, "toy-hand", "tests.games.toy_hand.plugin")
    answer_automatically(monkeypatch, lambda plugin: automatic_answers(plugin, plugin.player(random.Random(3))),
                         names=("toy-hand",))
    return campaigns


def test_a_card_game_with_hidden_hands_keeps_them_secret_and_verifies(toy_campaigns, referee_key):
    players = [PLAYERS[0].__class__("red", "r@example.org", "pw-red-1"),
               PLAYERS[0].__class__("blue", "b@example.org", "pw-blue-1")]
    toy_campaigns.create("toy-1", "toy-hand", players, referee_key)
    confirm(toy_campaigns, referee_key, "toy-1", passwords={p.side: p.password for p in players})
    toy_campaigns.adjudicate("toy-1", referee_key)
    log = toy_campaigns.log("toy-1")
    batch = log.batches[0].body
    assert batch["result"] is not None  # the automatic orders answer everything: one batch plays it out
    kinds = [e.get("what") for e in batch["entries"] if "sealed" in e]
    assert "shuffle" in kinds and "answer" in kinds and "draw" in kinds
    verdict = verify_text(toy_campaigns.export_public("toy-1"))
    assert verdict.verified and verdict.sealed == 0, verdict.reason


def test_the_deck_of_the_toy_game_is_not_computable_before_the_opening(toy_campaigns, referee_key, monkeypatch):
    """The shuffle comes from the hidden stream: the public seed of its batch does not give it."""
    from adjudicator.campaign.protocol import BatchDice, contribution
    from adjudicator.engine import Shuffle

    players = [PLAYERS[0].__class__("red", "r@example.org", "pw-red-1"),
               PLAYERS[0].__class__("blue", "b@example.org", "pw-blue-1")]
    toy_campaigns.create("toy-2", "toy-hand", players, referee_key)
    confirm(toy_campaigns, referee_key, "toy-2", passwords={p.side: p.password for p in players})
    toy_campaigns.adjudicate("toy-2", referee_key)
    log = toy_campaigns.log("toy-2")
    batch = log.batches[0].body
    real_order = log.clear_entries[1][0]["shuffle"]
    contributions = {side: contribution(text, None) for side, text in batch["contributions"].items()}
    public = BatchDice("toy-2", 1, bytes.fromhex(batch["seed"]), contributions)
    assert list(public(Shuffle(9, "the deck", None, 0, "deal", True))) != real_order


def test_a_players_report_prints_its_own_openings_and_not_the_enemys(campaigns, referee_key, fog_campaign):
    from adjudicator.reports.render import render
    from adjudicator.reports.context import report_context

    plugin = games.get("port-arthur")
    for _ in range(8):
        step = campaigns.adjudicate(fog_campaign, referee_key)
        if step.openings.get("japan") and step.openings.get("russia"):
            break
        if step.openings.get("japan"):
            break
    log, match = campaigns.match(fog_campaign)
    texts = {}
    for side in ("japan", "russia"):
        context = report_context(log=log, match=match, events=step.events, side=side, player=side,
                                 deadline=campaigns.deadline(fog_campaign), game_support=plugin,
                                 batch=log.batches[-1], openings=step.openings.get(side, ()))
        texts[side] = render(context).text
    item = step.openings["japan"][0]
    assert "Your hidden items in this batch" in texts["japan"]
    assert item["salt"] in texts["japan"] and item["sealed"] in texts["japan"]
    assert item["salt"] not in texts["russia"]
