"""Every rung of the abandonment ladder, the clocks (reminders, silence, the round's
end), each with a logged, mailed reason."""

from __future__ import annotations

import random
from email import message_from_bytes, policy
from datetime import timedelta

import pytest

from adjudicator.campaign.errors import AuthenticationFailed
from adjudicator.campaign.games import support
from adjudicator.tournament.errors import LadderRefused
from adjudicator.tournament.ratings import survey
from adjudicator.tournament.service import CHAIN_SECRET

from .conftest import T0, charter


def mail_to(tournaments, name, address):
    return [message_from_bytes(m.eml, policy=policy.default).get_body(("plain",)).get_content()
            for m in tournaments.store.outbox(name) if m.recipient == address]


def one_game(tournaments, key, **event):
    tournaments.create(charter(players=2, rounds=1, **event), key, T0)
    body = tournaments.pair("cup", key, T0)
    return body["games"][0]


def play_steps(tournaments, key, game, passwords, until):
    """Orders from automatic players until ``until(match)`` holds."""
    rng = random.Random(3)
    players = {side: support("port-arthur").commander(side, rng) for side in ("japan", "russia")}
    for _ in range(200):
        log, match = tournaments.campaigns.match(game)
        if until(match):
            return match
        side = match.decision.side
        header = {"campaign": game, "side": side, "turn": match.state.turn, "step": log.next_batch,
                  "password": passwords[side]}
        tournaments.campaigns.submit(game, players[side].orders(match.decision, match.state, header), key)
        tournaments.campaigns.adjudicate(game, key, T0)
    raise AssertionError("the game did not get there")


def passwords_of(tournaments, game):
    with tournaments.store.transaction("cup") as tx:
        return tx.get_secret(f"game:{game}")


def test_forfeit_gives_the_game_to_the_other_side_with_the_reason_mailed(tournaments, referee_key):
    game = one_game(tournaments, referee_key)
    done = tournaments.rule("cup", game["game"], "forfeit", "no orders for three weeks", referee_key, T0,
                            silent="japan")
    result = tournaments.state("cup").results[game["game"]]
    assert result.result == "russia" and "forfeit" in done
    winner, loser = game["sides"]["russia"], game["sides"]["japan"]
    assert result.points == {winner: 2.0, loser: 0.0}
    assert any("no orders for three weeks" in " ".join(m.split())   # (whichever space the 78 columns broke at)
               for m in mail_to(tournaments, "cup", f"{loser}@fleet.example"))


def test_no_result_scores_nothing_for_either_player(tournaments, referee_key):
    game = one_game(tournaments, referee_key)
    tournaments.rule("cup", game["game"], "no-result", "both players vanished", referee_key, T0)
    result = tournaments.state("cup").results[game["game"]]
    assert result.result is None and set(result.points.values()) == {0.0}
    assert all(line.points == 0 for line in tournaments.standings("cup"))


def test_replace_hands_the_side_to_the_standby_who_can_then_play_it(tournaments, referee_key):
    game = one_game(tournaments, referee_key)
    tournaments.rule("cup", game["game"], "replace", "the player left", referee_key, T0, silent="japan")
    state = tournaments.state("cup")
    assert state.replacements[game["game"]] == {"japan": "reserve"}
    mail = "\n".join(mail_to(tournaments, "cup", "reserve@fleet.example"))
    password = passwords_of(tournaments, game["game"])["japan"]
    assert "You take over japan" in mail and password in mail
    with pytest.raises(LadderRefused, match="already been replaced"):
        tournaments.rule("cup", game["game"], "replace", "again", referee_key, T0, silent="japan")
    tournaments.rule("cup", game["game"], "forfeit", "the standby left too", referee_key, T0, silent="russia")
    points = tournaments.state("cup").results[game["game"]].points
    assert points[game["sides"]["japan"]] == 1.0 and points["reserve"] == 1.0   # the credit split 0.5 / 0.5


def test_a_game_a_standby_took_over_is_not_rated_but_its_result_stands(tournaments, referee_key):
    game = one_game(tournaments, referee_key)
    tournaments.rule("cup", game["game"], "replace", "the player left", referee_key, T0, silent="japan")
    tournaments.rule("cup", game["game"], "forfeit", "the standby left too", referee_key, T0, silent="russia")

    assert tournaments.state("cup").results[game["game"]].result == "japan"
    assert survey(tournaments.store).games == 0   # neither the player who left nor the standby is rated


def test_adjudication_needs_a_completed_turn_then_applies_the_victory_conditions(tournaments, referee_key):
    game = one_game(tournaments, referee_key)
    with pytest.raises(LadderRefused, match="no completed turn"):
        tournaments.rule("cup", game["game"], "adjudicate", "round over", referee_key, T0)
    play_steps(tournaments, referee_key, game["game"], passwords_of(tournaments, game["game"]),
               lambda match: match.state.turn >= 2)
    done = tournaments.rule("cup", game["game"], "adjudicate", "round over", referee_key, T0)
    result = tournaments.state("cup").results[game["game"]]
    assert result.how.startswith("adjudication at the end of turn 1")
    assert result.result in ("japan", "russia", "draw") and "adjudicate" in done


def test_a_silent_player_is_defaulted_reminded_twice_then_forfeits(tournaments, referee_key):
    game = one_game(tournaments, referee_key, abandonment={"ladder": ["forfeit", "no-result"]},
                    clocks={"deadline_hours": 72, "reminders": 2, "silent_days": 7, "round_days": 60})
    first = tournaments.campaigns.match(game["game"])[1].decision.side
    actions = tournaments.clock("cup", referee_key, T0 + timedelta(days=1))
    assert actions == []
    actions = [a.what for a in tournaments.clock("cup", referee_key, T0 + timedelta(days=4))]
    assert any("defaults for " + first in a for a in actions)
    assert any(a == f"reminder 1 to {game['sides'][first]}" for a in actions)
    actions = [a.what for a in tournaments.clock("cup", referee_key, T0 + timedelta(days=5))]
    assert f"reminder 2 to {game['sides'][first]}" in actions
    assert game["game"] not in tournaments.state("cup").results
    tournaments.clock("cup", referee_key, T0 + timedelta(days=12, hours=1))
    result = tournaments.state("cup").results[game["game"]]
    assert result.how.startswith(f"forfeit by {game['sides'][first]}")
    assert "silent since" in result.how


def test_a_game_running_at_the_round_end_goes_down_the_ladder(tournaments, referee_key):
    game = one_game(tournaments, referee_key, abandonment={"ladder": ["adjudicate", "no-result"]},
                    clocks={"round_days": 14, "deadline_hours": 400})
    actions = tournaments.clock("cup", referee_key, T0 + timedelta(days=15))
    result = tournaments.state("cup").results[game["game"]]
    assert result.result is None and "round 1 ended" in result.how   # no turn completed: no result
    assert [a.what for a in actions][-1].startswith("round ended: no-result")


def test_the_game_password_is_the_games_alone(tournaments, referee_key):
    game = one_game(tournaments, referee_key)
    log, match = tournaments.campaigns.match(game["game"])
    side = match.decision.side
    orders = support("port-arthur").commander(side, random.Random(1)).orders(
        match.decision, match.state, {"campaign": game["game"], "side": side, "turn": 1, "step": 1, "password": "secret-0"})
    with pytest.raises(AuthenticationFailed):
        tournaments.campaigns.submit(game["game"], orders, referee_key)
    with tournaments.store.transaction("cup") as tx:
        assert "final_seed" in tx.get_secret(CHAIN_SECRET)
