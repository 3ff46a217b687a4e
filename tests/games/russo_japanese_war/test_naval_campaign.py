"""Makarov's secret flagship (11.5, A47) in a campaign: sealed in the public record while
the game goes on, opened and verified after the end."""

from __future__ import annotations

import random

import pytest

from adjudicator import games
from adjudicator.campaign import Campaigns, Player
from adjudicator.campaign.protocol import OPENING
from adjudicator.campaign.verify import verify_text
from adjudicator.fairdice import records_from_jsonl
from adjudicator.fairdice import generate_keypair
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.players import RandomPlayer
from adjudicator.store import Store
from tests.campaign.conftest import answer_automatically, automatic_answers, confirm

GAME_NAME = "russo-japanese-war"
PLAYERS = [Player("japan", "togo@example.org", "Togo1904"), Player("russia", "makarov@example.org", "Makarov1904")]


@pytest.fixture
def campaigns(tmp_path, monkeypatch):
    """A real store; each side's orders answer at random, except that every Card Play
    Phase waits for an email once (so the game takes many adjudication steps)."""
    player = RandomPlayer(RussoJapaneseWar(), rng=random.Random(4))

    def card_play_held(decision, state):
        return (decision.side, state["turn"], state["phase"]) if decision.kind == "card-play" else None

    answer_automatically(monkeypatch, lambda plugin: automatic_answers(plugin, player, card_play_held),
                         names=(GAME_NAME,))
    with Store.open(tmp_path / "campaigns.sqlite3") as store:
        yield Campaigns(store)


def flagship_of(campaigns, campaign):
    log = campaigns.log(campaign)
    chosen = [e for entries in log.clear_entries.values() for e in entries if e.get("kind") == "flagship"]
    assert len(chosen) == 1
    return chosen[0]["answer"]["ship"]


def test_makarovs_flagship_is_sealed_mid_game_and_verifies_after_the_end(campaigns):
    key = generate_keypair()[0]
    campaigns.create("naval-1", GAME_NAME, PLAYERS, key, options={"naval": True})
    confirm(campaigns, key, "naval-1", passwords={p.side: p.password for p in PLAYERS})  # before the set-up's draws
    for _ in range(4):
        step = campaigns.adjudicate("naval-1", key)
    assert step.result is None
    flagship = flagship_of(campaigns, "naval-1")
    exported = campaigns.export_public("naval-1")
    assert '"kind":"flagship"' not in exported
    for text in (f'"ship":"{flagship}"', f'"ship": "{flagship}"', f'"flagship":"{flagship}"',
                 f'"flagship": "{flagship}"', f"flagship was {flagship}"):
        assert text not in exported
    verdict = verify_text(exported)
    assert verdict.verified, verdict.reason
    assert verdict.sealed > 0 and verdict.result is None
    for _ in range(400):
        step = campaigns.adjudicate("naval-1", key)
        if step.result is not None:
            break
    assert step.result is not None
    exported = campaigns.export_public("naval-1")
    records = records_from_jsonl(exported)
    assert records[-1].kind == OPENING
    opened = [o["open"] for o in records[-1].body["openings"] if o["open"].get("kind") == "flagship"]
    assert [o["answer"] for o in opened] == [{"ship": flagship}]
    verdict = verify_text(exported)
    assert verdict.verified, verdict.reason
    assert verdict.sealed == 0 and verdict.result == step.result
