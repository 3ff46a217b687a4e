"""A silent player never wins: the default abandonment ladder forfeits a silent side
before it adjudicates, adjudication holds a silent side to what it would surely have
got by playing on, and a ruling never picks the side whose turn it merely is."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from hypothesis import given, strategies as st

from adjudicator.campaign.games import support
from adjudicator.tournament.charter import DEFAULT_LADDER
from adjudicator.tournament.errors import LadderRefused
from adjudicator.tournament.gameplay import OUTCOME_RANK, capped, outcome_for, tournament_support

from .conftest import T0, charter
from .test_abandonment import one_game, passwords_of, play_steps

TO_TURN_2 = lambda match: match.state.turn >= 2  # noqa: E731


def fall_silent(tournaments, key, game, silent, passwords, now):
    """From here on only the other side sends orders; the clock runs after each
    deadline until the tournament has a result for the game."""
    rng = random.Random(5)
    other = support("port-arthur").commander(next(s for s in ("japan", "russia") if s != silent), rng)
    for _ in range(100):
        if game in tournaments.state("cup").results:
            return tournaments.state("cup").results[game]
        log, match = tournaments.campaigns.match(game)
        if match.decision.side == silent:
            now += timedelta(hours=73)
            tournaments.clock("cup", key, now)
            continue
        header = {"campaign": game, "side": match.decision.side, "turn": match.state.turn,
                  "step": log.next_batch, "password": passwords[match.decision.side]}
        tournaments.campaigns.submit(game, other.orders(match.decision, match.state, header), key)
        tournaments.campaigns.adjudicate(game, key, now)
    raise AssertionError("the game got no result")


def test_the_default_ladder_forfeits_a_silent_side_before_it_adjudicates():
    assert DEFAULT_LADDER.index("forfeit") < DEFAULT_LADDER.index("adjudicate")
    assert charter().ladder == DEFAULT_LADDER


@pytest.mark.parametrize("ladder", [["adjudicate", "forfeit"], list(DEFAULT_LADDER)], ids=["adjudicate-first", "default"])
def test_a_silent_russia_does_not_win_where_the_position_would_give_it_the_game(tournaments, referee_key, ladder):
    game = one_game(tournaments, referee_key, abandonment={"ladder": ladder},
                    clocks={"round_days": 90, "reminders": 1, "silent_days": 3})
    passwords = passwords_of(tournaments, game["game"])
    match = play_steps(tournaments, referee_key, game["game"], passwords, TO_TURN_2)
    position = match.state.to_json()
    assert tournament_support("port-arthur").adjudicate(position)[0] == "russia"  # what a silent Russia won before

    result = fall_silent(tournaments, referee_key, game["game"], "russia", passwords, T0)

    assert result.result == "japan"
    silent_player = game["sides"]["russia"]
    assert result.points[silent_player] == 0.0
    if ladder[0] == "adjudicate":
        assert "silent russia" in result.how and "surely get only a loss" in result.how
    else:
        assert result.how.startswith(f"forfeit by {silent_player} (russia)")
    line = next(line for line in tournaments.standings("cup") if line.player == silent_player)
    assert line.wins == 0 and line.losses == 1


def test_a_ruling_without_a_side_never_hands_over_or_forfeits_the_side_whose_turn_it_merely_is(
        tournaments, referee_key):
    game = one_game(tournaments, referee_key)
    play_steps(tournaments, referee_key, game["game"], passwords_of(tournaments, game["game"]), TO_TURN_2)
    for rung in ("replace", "forfeit"):
        with pytest.raises(LadderRefused, match="no side of .* is silent.*--side"):
            tournaments.rule("cup", game["game"], rung, "slow", referee_key, T0)
    state = tournaments.state("cup")
    assert state.replacements == {} and game["game"] not in state.results


def test_the_ladder_replaces_the_side_the_clock_found_silent_not_the_one_whose_turn_it_is(tournaments, referee_key):
    game = one_game(tournaments, referee_key, abandonment={"ladder": ["replace", "forfeit"]},
                    clocks={"round_days": 90, "reminders": 1, "silent_days": 3})
    passwords = passwords_of(tournaments, game["game"])
    play_steps(tournaments, referee_key, game["game"], passwords, TO_TURN_2)
    now = T0
    for _ in range(40):
        if tournaments.state("cup").replacements:
            break
        log, match = tournaments.campaigns.match(game["game"])
        now += timedelta(hours=73)
        if match.decision.side == "japan":   # Japan answers, Russia is silent
            header = {"campaign": game["game"], "side": "japan", "turn": match.state.turn, "step": log.next_batch,
                      "password": passwords["japan"]}
            orders = support("port-arthur").commander("japan", random.Random(2)).orders(match.decision, match.state,
                                                                                        header)
            tournaments.campaigns.submit(game["game"], orders, referee_key)
            tournaments.campaigns.adjudicate(game["game"], referee_key, now)
        else:
            tournaments.clock("cup", referee_key, now)
    assert tournaments.state("cup").replacements == {game["game"]: {"russia": "reserve"}}


def test_both_sides_silent_forfeit_gives_no_result(tournaments, referee_key):
    game = one_game(tournaments, referee_key, clocks={"round_days": 90, "deadline_hours": 24})
    now = T0
    while len(tournaments.silent_sides(game["game"], ["japan", "russia"])) < 2:
        now += timedelta(hours=25)
        tournaments.campaigns.adjudicate(game["game"], referee_key, now)
    tournaments.rule("cup", game["game"], "forfeit", "nobody answers", referee_key, now)
    result = tournaments.state("cup").results[game["game"]]
    assert result.result is None and "forfeit by both sides" in result.how
    assert set(result.points.values()) == {0.0}


class Decides:
    """A game whose adjudication and guarantees are given, to test the cap alone."""

    def __init__(self, secured):
        self.secured_outcome = secured

    def secured(self, position, side):
        return self.secured_outcome[side], "given"


OUTCOMES = st.sampled_from(["win", "draw", "loss"])


@given(result=st.sampled_from(["japan", "russia", "draw"]), silent=st.sampled_from(["japan", "russia"]),
       japan=OUTCOMES, russia=OUTCOMES)
def test_a_capped_adjudication_never_gives_a_silent_side_more_than_it_was_sure_of(result, silent, japan, russia):
    game = Decides({"japan": japan, "russia": russia})
    final, why = capped(game, {}, result, "the position", [silent], ["japan", "russia"])
    got = outcome_for(final, silent)
    assert OUTCOME_RANK[got] <= min(OUTCOME_RANK[outcome_for(result, silent)], OUTCOME_RANK[game.secured_outcome[silent]])
    if final != result:
        assert f"silent {silent}" in why


def test_nobody_silent_leaves_the_adjudication_as_the_position_gives_it():
    assert capped(Decides({}), {}, "russia", "why", [], ["japan", "russia"]) == ("russia", "why")
