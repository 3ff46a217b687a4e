"""What a referee meets running an event: charter typos refused, a mail naming an
unknown tournament answered, several standbys each usable again, reminders spaced
in time, the ladder's positions shown."""

from __future__ import annotations

import mailbox
from datetime import timedelta

import pytest
from typer.testing import CliRunner

from adjudicator.cli import tournament_cmds  # noqa: F401  (registers the commands)
from adjudicator.cli.app import app
from adjudicator.tournament.charter import charter_from_toml
from adjudicator.tournament.errors import BadCharter, LadderRefused
from adjudicator.tournament.ladder import render_ladder
from adjudicator.tournament.mailin import take_mail
from adjudicator.tournament.service import standings_text

from .conftest import T0, charter
from .test_abandonment import mail_to
from .test_mail_and_formats import email


def base(**tables):
    data = {"tournament": {"name": "cup", "game": "port-arthur"},
            "player": [{"name": "togo", "address": "togo@fleet.example", "password": "pw"}]}
    for table, values in tables.items():
        data[table] = {**data.get(table, {}), **values} if isinstance(values, dict) else values
    return data


@pytest.mark.parametrize("data,says", [
    (base(tournament={"name": "cup", "game": "port-arthur", "side": "alternate"}), "unknown key 'side'; did you mean 'sides'?"),
    (base(scoring={"tiebreak": ["buchholz"]}), "[scoring] unknown key 'tiebreak'; did you mean 'tiebreaks'?"),
    (base(abandonment={"ladder": ["forfeit"], "replacment_credit": 1}), "did you mean 'replacement_credit'?"),
    (base(player=[{"name": "togo", "adress": "togo@fleet.example", "password": "pw"}]),
     "[[player]] togo: unknown key 'adress'; did you mean 'address'?"),
    (base(clock={"reminders": 1}), "unknown key 'clock'; did you mean 'clocks'?"),
    (base(clocks={"silence_days": 3}), "[clocks] unknown key 'silence_days'; did you mean 'silent_days'?"),
])
def test_a_charter_typo_is_refused_naming_the_nearest_key(data, says):
    with pytest.raises(BadCharter) as err:
        charter_from_toml(data)
    assert says in str(err.value)


def test_a_mail_naming_an_unknown_tournament_is_answered_and_changes_nothing(tmp_path, tournaments, referee_key):
    tournaments.create(charter(players=2), referee_key, T0)
    box = mailbox.Maildir(tmp_path / "in", create=True)
    box.add(email("tournament: cupp\nplayer: uriu\npassword: pw\nregister\naddress: uriu@fleet.example\n",
                  "uriu@fleet.example", 1))
    (handled,) = take_mail(tournaments, tmp_path / "in", referee_key, T0)
    assert handled.outcome == "refused" and "no tournament 'cupp'" in handled.detail
    (answer,) = mail_to(tournaments, "cup", "uriu@fleet.example")
    assert "no tournament 'cupp' here; did you mean 'cup'?" in " ".join(answer.split())   # (at any line break)
    assert "uriu" not in tournaments.state("cup").players
    assert [h.outcome for h in take_mail(tournaments, tmp_path / "in", referee_key, T0)] == ["duplicate"]


def test_several_standbys_each_take_over_again_once_their_game_has_ended(tournaments, referee_key):
    data = {"tournament": {"name": "cup", "game": "port-arthur", "rounds": 1},
            "player": [{"name": f"p{i}", "address": f"p{i}@fleet.example", "password": f"pw{i}"} for i in range(6)],
            "standby": [{"name": s, "address": f"{s}@fleet.example", "password": "pw"} for s in ("uriu", "kamimura")]}
    tournaments.create(charter_from_toml(data), referee_key, T0)
    first, second, third = [g["game"] for g in tournaments.pair("cup", referee_key, T0)["games"]]
    tournaments.rule("cup", first, "replace", "left", referee_key, T0, silent="japan")
    tournaments.rule("cup", second, "replace", "left", referee_key, T0, silent="japan")
    with pytest.raises(LadderRefused, match="every standby is playing"):
        tournaments.rule("cup", third, "replace", "left", referee_key, T0, silent="japan")
    tournaments.rule("cup", first, "forfeit", "the standby left too", referee_key, T0, silent="russia")
    tournaments.rule("cup", third, "replace", "left", referee_key, T0, silent="japan")
    assert tournaments.state("cup").replacements == {first: {"japan": "uriu"}, second: {"japan": "kamimura"},
                                                     third: {"japan": "uriu"}}


def test_reminders_are_spaced_by_reminder_hours(tournaments, referee_key):
    tournaments.create(charter(players=2, rounds=1, abandonment={"ladder": ["forfeit"]},
                               clocks={"reminders": 2, "reminder_hours": 48, "round_days": 60}), referee_key, T0)
    game = tournaments.pair("cup", referee_key, T0)["games"][0]
    waited = game["sides"][tournaments.campaigns.match(game["game"])[1].decision.side]
    said = [a.what for a in tournaments.clock("cup", referee_key, T0 + timedelta(days=4))]
    assert f"reminder 1 to {waited}" in said
    for day in (5, 5.9):   # within 48 hours of the first reminder: none
        assert not [a for a in tournaments.clock("cup", referee_key, T0 + timedelta(days=day)) if "reminder" in a.what]
    said = [a.what for a in tournaments.clock("cup", referee_key, T0 + timedelta(days=6))]
    assert f"reminder 2 to {waited}" in said


def test_the_ladder_positions_are_shown_in_the_standings(tmp_path, tournaments, referee_key):
    tournaments.create(charter(players=4, format="ladder", sides="alternate"), referee_key, T0)
    body = tournaments.pair("cup", referee_key, T0, ("p3", "p1"))
    for game, loser in zip(body["games"], ("russia", "japan")):
        tournaments.rule("cup", game["game"], "forfeit", "test", referee_key, T0, silent=loser)
    state = tournaments.state("cup")
    text = render_ladder(state)
    assert text.splitlines()[1:] == ["  1  p0", "  2  p3  may challenge p0", "  3  p1  may challenge p0, p3",
                                     "  4  p2  may challenge p0, p3, p1"]
    assert text in standings_text(state, tournaments.standings("cup"))
    store = str(tournaments.store.path)
    tournaments.store.close()
    shown = CliRunner().invoke(app, ["tournament", "standings", "cup", "--store", store])
    assert shown.exit_code == 0 and "  2  p3  may challenge p0" in shown.output


def bid_event(handicap="points", a_bid="japan:0.5", b_bid="japan:0"):
    return charter_from_toml({
        "tournament": {"name": "cup", "game": "port-arthur", "rounds": 1, "sides": "bid"},
        "bids": {"handicap": handicap},
        "player": [{"name": "a", "address": "a@fleet.example", "password": "pw", "bid": a_bid},
                   {"name": "b", "address": "b@fleet.example", "password": "pw", "bid": b_bid}]})


@pytest.mark.parametrize("loser,points", [("russia", {"a": 1.5, "b": 0.5}), ("japan", {"a": 0.0, "b": 2.0})])
def test_a_side_won_by_bidding_costs_the_bid_from_a_win_and_nothing_from_a_loss(tournaments, referee_key, loser, points):
    from adjudicator.fairdice import records_to_jsonl
    from adjudicator.tournament.audit import audit_bundle

    tournaments.create(bid_event(), referee_key, T0)
    game = tournaments.pair("cup", referee_key, T0)["games"][0]
    assert game["sides"] == {"japan": "a", "russia": "b"} and game["bid"]["amount"] == 0.5
    tournaments.rule("cup", game["game"], "forfeit", "test", referee_key, T0, silent=loser)
    assert tournaments.state("cup").results[game["game"]].points == points
    games = {game["game"]: tournaments.campaigns.export_public(game["game"])}
    assert audit_bundle(records_to_jsonl(tournaments.records("cup")), games).verified


@pytest.mark.parametrize("bid,points", [("japan:0.5", {"a": 0.5, "b": 1.5}), ("japan:1.5", {"a": 0.0, "b": 2.0})])
def test_a_bidder_who_draws_pays_the_bid_up_to_the_draws_points(tournaments, referee_key, bid, points):
    from adjudicator.tournament.service import result_points

    tournaments.create(bid_event(a_bid=bid), referee_key, T0)
    game = tournaments.pair("cup", referee_key, T0)["games"][0]
    state = tournaments.state("cup")
    assert result_points(state, state.slot(game["game"]), "draw") == points
    assert result_points(state, state.slot(game["game"]), None) == {"a": 0.0, "b": 0.0}


def test_a_late_registration_bidding_more_than_a_win_is_refused(tournaments, referee_key):
    from adjudicator.tournament.charter import Entrant
    from adjudicator.tournament.errors import RegistrationClosed

    tournaments.create(bid_event(), referee_key, T0)
    with pytest.raises(RegistrationClosed, match="c bids 2.5 points, more than a win's 2"):
        tournaments.register("cup", Entrant("c", "c@fleet.example", "pw", None, ("japan", 2.5)), referee_key)
    tournaments.register("cup", Entrant("c", "c@fleet.example", "pw", None, ("japan", 2.0)), referee_key)
    assert "c" in tournaments.state("cup").players


def test_a_bid_handicap_needs_sides_by_bid_and_a_bid_within_a_win():
    with pytest.raises(BadCharter, match="more than a win's 2"):
        bid_event(a_bid="japan:3")
    data = {"tournament": {"name": "cup", "game": "port-arthur"}, "bids": {"handicap": "points"}}
    with pytest.raises(BadCharter, match="needs sides = 'bid'"):
        charter_from_toml(data)
    assert bid_event(handicap="none").bid_handicap == "none"
