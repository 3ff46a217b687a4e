"""Every registered game can be played as a tournament: each offers the tournament
interface, and for each an event is paired, ruled on, closed and audited; played by
email to the end, each event's audit verifies (the long runs are
soaks, run with ADJUDICATOR_SOAK=1: a Russo-Japanese War game by email takes about 40 s)."""

from __future__ import annotations

import re
import random

import pytest

from adjudicator import games
from adjudicator.campaign.games import support
from adjudicator.engine import Match
from adjudicator.fairdice import records_to_jsonl
from adjudicator.tournament.audit import audit_bundle
from adjudicator.tournament.charter import charter_from_toml
from adjudicator.tournament.demo import run_tournament_demo
from adjudicator.tournament.export import read_bundle
from adjudicator.tournament.gameplay import positions_by_turn, tournament_games, tournament_support

from .conftest import T0


def event(game: str, players: int = 2):
    return charter_from_toml({
        "tournament": {"name": "cup", "game": game, "rounds": 1},
        "player": [{"name": f"p{i}", "address": f"p{i}@fleet.example", "password": f"secret-{i}"}
                   for i in range(players)]})


def play_until(tournaments, key, game_name, game, passwords, until):
    rng = random.Random(11)
    plugin = support(game_name)
    players = {side: plugin.commander(side, rng) for side in plugin.game().sides}
    for _ in range(400):
        log, match = tournaments.campaigns.match(game)
        if until(match) or match.finished:
            return match
        if match.decision is None and not log.batches:   # step 1 draws once every side has confirmed
            for side in plugin.game().sides:
                tournaments.campaigns.submit(game, f"campaign: {game}\nside: {side}\nturn: 1\nstep: 1\n"
                                                   f"password: {passwords[side]}\nentropy: confirm-{side}\n", key)
        on_file = log.orders_for(log.next_batch)
        for decision in match.decisions:   # (a stop may ask several sides: each writes its own orders)
            if decision.side in on_file:
                continue
            side = decision.side
            header = {"campaign": game, "side": side, "turn": getattr(match.state, "turn", None),
                      "step": log.next_batch, "password": passwords[side]}
            tournaments.campaigns.submit(game, players[side].orders(decision, match.state, header), key)
        tournaments.campaigns.adjudicate(game, key, T0)
    raise AssertionError("the game did not get there")


def test_every_registered_game_offers_the_tournament_interface():
    assert tournament_games() == games.names()


@pytest.mark.parametrize("game", games.names())
def test_a_game_before_its_end_secures_neither_side_anything_and_adjudicates_to_a_side_or_a_draw(game):
    plugin = support(game)
    position = Match(plugin.game(), {}, {}).state.to_json()
    interface = tournament_support(game)
    for side in plugin.game().sides:
        assert interface.secured(position, side)[0] == "loss"
    result, why = interface.adjudicate(position)
    assert result in (*plugin.game().sides, "draw") and why


@pytest.mark.parametrize("game", games.names())
def test_every_game_is_paired_adjudicated_after_a_completed_turn_closed_and_audited(tournaments, referee_key, game):
    tournaments.create(event(game, players=3), referee_key, T0)
    body = tournaments.pair("cup", referee_key, T0)
    (slot,) = body["games"]
    assert body["byes"]
    with tournaments.store.transaction("cup") as tx:
        passwords = tx.get_secret(f"game:{slot['game']}")
    play_until(tournaments, referee_key, game, slot["game"], passwords,
               lambda match: positions_by_turn(match))
    done = tournaments.rule("cup", slot["game"], "adjudicate", "the round is over", referee_key, T0)
    assert re.match(r"adjudicate: adjudication at the end of turn \d+: ", done)
    tournaments.close("cup", referee_key, T0)
    records = tournaments.records("cup")
    bundle = {slot["game"]: tournaments.campaigns.export_public(slot["game"])}
    audit = audit_bundle(records_to_jsonl(records), bundle, head=records[-1].hash)
    assert audit.verified, audit.problems
    assert [r["rung"] for r in audit.rulings] == ["adjudicate"]


@pytest.mark.soak   # a whole game by email per game
@pytest.mark.parametrize("game", [g for g in games.names() if g != "port-arthur"])   # Port Arthur's: test_audit
def test_a_tournament_of_every_game_runs_by_email_to_standings_whose_audit_verifies(tmp_path, game):
    summary = run_tournament_demo(tmp_path / "demo", 7, {}, rounds=1, entrants=2, game=game)
    assert summary.verified and summary.games == 1
    audit = audit_bundle(*read_bundle(tmp_path / "demo" / "public"))
    assert audit.verified and all(g["result"]["result"] is not None for g in audit.games)


def test_a_result_recorded_as_more_than_a_side_is_rated_as_the_side_that_won():
    from adjudicator.tournament.ratings import _outcome

    tsushima = {"winner": "japan", "victory": "marginal", "score": {"japan": 30, "russia": 20}}
    assert _outcome("tsushima-1905", tsushima) == "japan"
    assert _outcome("tsushima-1905", {**tsushima, "winner": "draw"}) == "draw"
    assert _outcome("port-arthur", "russia") == "russia"
