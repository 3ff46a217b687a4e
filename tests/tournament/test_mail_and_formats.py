"""Registration by email; round-robin pools, the ladder, sides by bidding and
alternating; the command line's errors."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage

import pytest
from typer.testing import CliRunner

from adjudicator.cli import tournament_cmds  # noqa: F401  (registers the commands)
from adjudicator.cli.app import app
from adjudicator.tournament.charter import entrant
from adjudicator.tournament.errors import LadderRefused, NothingToPair, RegistrationClosed, RoundNotOver
from adjudicator.tournament.mailin import take_mail

from .conftest import T0, charter


def email(text: str, sender: str, number: int) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "referee@localhost", "entry"
    message["Message-ID"] = f"<m{number}@fleet.example>"
    message.set_content(text)
    return bytes(message)


def test_registration_and_withdrawal_by_mail_are_authenticated_by_password(tmp_path, tournaments, referee_key):
    tournaments.create(charter(players=2), referee_key, T0)
    box = mailbox.Maildir(tmp_path / "in", create=True)
    box.add(email("tournament: cup\nplayer: uriu\npassword: pw-uriu\nregister\naddress: uriu@fleet.example\n",
                  "uriu@fleet.example", 1))
    box.add(email("tournament: cup\nplayer: uriu\npassword: wrong\nwithdraw\n", "someone@else.example", 2))
    box.add(email("tournament: cup\nplayer: uriu\npassword: pw-uriu\nabsent 3\n", "uriu@fleet.example", 3))
    handled = take_mail(tournaments, tmp_path / "in", referee_key, T0)
    assert [h.outcome for h in handled] == ["done", "refused", "done"]
    assert "wrong or missing password" in handled[1].detail
    again = take_mail(tournaments, tmp_path / "in", referee_key, T0)
    assert {h.outcome for h in again} == {"duplicate"}
    state = tournaments.state("cup")
    assert "uriu" in state.players and "uriu" not in state.withdrawn and state.absence_days_used("uriu") == 3
    assert len([m for m in tournaments.store.outbox("cup") if m.recipient == "someone@else.example"]) == 1


def test_round_robin_pools_meet_everyone_once_then_the_event_is_complete(tournaments, referee_key):
    tournaments.create(charter(players=6, format="round-robin", pools=2), referee_key, T0)
    met, byes = set(), []
    for _ in range(3):
        body = tournaments.pair("cup", referee_key, T0)
        assert len(body["pools"]) == 2 and len(body["byes"]) == 2   # a pool of three has a bye each round
        byes += body["byes"]
        met |= {frozenset(pair) for pair in body["pairs"]}
        for game in body["games"]:
            tournaments.rule("cup", game["game"], "no-result", "test", referee_key, T0)
    assert len(met) == 6   # two pools of three: three games each
    assert sorted(byes) == [f"p{i}" for i in range(6)]
    with pytest.raises(NothingToPair, match="complete"):
        tournaments.pair("cup", referee_key, T0)
    with pytest.raises(RegistrationClosed):
        tournaments.register("cup", entrant({"name": "late", "address": "l@x.example", "password": "p"}, "t"),
                             referee_key)


def test_a_ladder_challenger_who_wins_takes_the_place(tournaments, referee_key):
    tournaments.create(charter(players=4, format="ladder", sides="alternate"), referee_key, T0)
    with pytest.raises(LadderRefused, match="may challenge only"):
        tournaments.pair("cup", referee_key, T0, ("p0", "p3"))
    body = tournaments.pair("cup", referee_key, T0, ("p3", "p1"))
    assert [g["sides"] for g in body["games"]] == [{"japan": "p3", "russia": "p1"}, {"japan": "p1", "russia": "p3"}]
    for game, loser in zip(body["games"], ("russia", "japan")):
        tournaments.rule("cup", game["game"], "forfeit", "test", referee_key, T0, silent=loser)
    from adjudicator.tournament.ladder import ladder_order

    assert ladder_order(tournaments.state("cup")) == ["p0", "p3", "p1", "p2"]


def test_bids_settle_sides_and_are_recorded(tournaments, referee_key):
    event = charter(players=2, sides="bid", rounds=1)
    event = type(event)(**{**event.__dict__, "players": (
        entrant({"name": "a", "address": "a@x.example", "password": "p", "bid": "japan:2"}, "t"),
        entrant({"name": "b", "address": "b@x.example", "password": "p", "bid": "japan:1"}, "t"))})
    tournaments.create(event, referee_key, T0)
    game = tournaments.pair("cup", referee_key, T0)["games"][0]
    assert game["sides"] == {"japan": "a", "russia": "b"}
    assert game["bid"] == {"player": "a", "side": "japan", "amount": 2}


def test_the_next_round_waits_for_the_running_games(tournaments, referee_key):
    tournaments.create(charter(players=4, rounds=2), referee_key, T0)
    tournaments.pair("cup", referee_key, T0)
    with pytest.raises(RoundNotOver, match="still has games running"):
        tournaments.pair("cup", referee_key, T0)


def test_the_command_line_says_what_is_wrong_without_a_traceback(tmp_path):
    runner = CliRunner()
    bad = tmp_path / "bad.toml"
    bad.write_text('[tournament]\nname = "Bad Name"\n', encoding="utf-8")
    key = tmp_path / "referee.key"
    runner.invoke(app, ["keys", "new", str(key)], env={"ADJUDICATOR_KEY_PASSPHRASE": ""})
    result = runner.invoke(app, ["tournament", "new", str(bad), "--store", str(tmp_path / "s.sqlite3"),
                                 "--key", str(key)], env={"ADJUDICATOR_KEY_PASSPHRASE": ""})
    assert result.exit_code == 2 and "'Bad Name' is not a usable name" in result.output
    result = runner.invoke(app, ["tournament", "status", "nothing", "--store", str(tmp_path / "s.sqlite3")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_referee_runs_an_event_from_the_command_line(tmp_path):
    runner = CliRunner()
    env = {"ADJUDICATOR_KEY_PASSPHRASE": "", "ADJUDICATOR_STORE": str(tmp_path / "s.sqlite3"),
           "ADJUDICATOR_KEY": str(tmp_path / "referee.key"), "ADJUDICATOR_OUTBOX": str(tmp_path / "outbox")}
    runner.invoke(app, ["keys", "new", str(tmp_path / "referee.key")], env=env)
    charter_file = tmp_path / "cup.toml"
    charter_file.write_text(
        '[tournament]\nname = "cup"\ngame = "port-arthur"\nrounds = 1\n'
        '[clocks]\nround_days = 7\n[abandonment]\nladder = ["adjudicate", "no-result"]\n'
        + "".join(f'[[player]]\nname = "p{i}"\naddress = "p{i}@fleet.example"\npassword = "s{i}"\n' for i in range(3)),
        encoding="utf-8")
    def run(*args):
        return runner.invoke(app, ["tournament", *args], env=env)

    assert run("new", str(charter_file), "--now", "2026-03-01T12:00:00+00:00").exit_code == 0
    paired = run("pair", "cup", "--now", "2026-03-01T12:00:00+00:00")
    assert paired.exit_code == 0 and "bye:" in paired.output
    clocked = run("clock", "cup", "--now", "2026-03-09T12:00:00+00:00")
    assert clocked.exit_code == 0 and "round ended: no-result" in clocked.output
    assert "no result" in run("status", "cup").output
    closed = run("close", "cup", "--now", "2026-03-09T13:00:00+00:00")
    assert closed.exit_code == 0 and "1  " in closed.output
    audited = run("audit", "cup")
    assert audited.exit_code == 0 and "VERIFIED" in audited.output
    assert run("pair", "cup").exit_code == 2   # closed: a clear error, no traceback
    assert list((tmp_path / "outbox").glob("*.eml"))
