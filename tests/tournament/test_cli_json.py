"""The tournament's cron commands for scripts: 'tournament mail' and 'tournament clock'
with --format json print what they did as one JSON document; 'clock' exits 1 when the
mail it queued could not be sent (it stays queued), as 'send' does."""

from __future__ import annotations

import json
import mailbox

from typer.testing import CliRunner

from adjudicator.cli import tournament_cmds  # noqa: F401  (registers the commands)
from adjudicator.cli.app import app
from tests.smtp_loopback import HOST as SMTP_HOST
from tests.smtp_loopback import free_port

from .test_mail_and_formats import email

START, ROUND_OVER = "2026-03-01T12:00:00+00:00", "2026-03-09T12:00:00+00:00"


def event(tmp_path):
    """A one-round event of three players opened and paired by the command line: run(*args)."""
    runner = CliRunner()
    env = {"ADJUDICATOR_KEY_PASSPHRASE": "", "ADJUDICATOR_STORE": str(tmp_path / "s.sqlite3"),
           "ADJUDICATOR_KEY": str(tmp_path / "referee.key"), "ADJUDICATOR_OUTBOX": str(tmp_path / "outbox"),
           "ADJUDICATOR_SMTP_HOST": ""}

    def run(*args, **more):
        return runner.invoke(app, ["tournament", *args], env={**env, **more})

    runner.invoke(app, ["keys", "new", str(tmp_path / "referee.key")], env=env)
    charter = tmp_path / "cup.toml"
    charter.write_text('[tournament]\nname = "cup"\ngame = "port-arthur"\nrounds = 1\n'
                       '[clocks]\nround_days = 7\n[abandonment]\nladder = ["adjudicate", "no-result"]\n'
                       + "".join(f'[[player]]\nname = "p{i}"\naddress = "p{i}@fleet.example"\npassword = "s{i}"\n'
                                 for i in range(3)), encoding="utf-8")
    assert run("new", str(charter), "--now", START).exit_code == 0
    return run


def test_tournament_mail_with_format_json_lists_each_message_taken(tmp_path):
    run = event(tmp_path)
    box = mailbox.Maildir(tmp_path / "in", create=True)
    box.add(email("tournament: cup\nplayer: p1\npassword: s1\nabsent 2\n", "p1@fleet.example", 1))
    box.add(email("tournament: cup\nplayer: p2\npassword: wrong\nwithdraw\n", "p2@fleet.example", 2))
    done = run("mail", str(tmp_path / "in"), "--format", "json", "--now", START)
    assert done.exit_code == 0, done.output
    said = json.loads(done.stdout)
    assert sorted(item["outcome"] for item in said) == ["done", "refused"]
    assert any("wrong or missing password" in item["detail"] for item in said)
    assert all(item["origin"] for item in said)


def test_tournament_clock_with_format_json_lists_its_actions_and_the_mail_written(tmp_path):
    run = event(tmp_path)
    assert run("pair", "cup", "--now", START).exit_code == 0
    done = run("clock", "cup", "--now", ROUND_OVER, "--format", "json")
    assert done.exit_code == 0, done.output
    said = json.loads(done.stdout)
    assert [a["what"] for a in said["actions"]][-1].startswith("round ended: no-result")
    assert said["written"] == len(list((tmp_path / "outbox").glob("*.eml"))) > 0 and said["not_sent"] == []


def test_tournament_clock_exits_1_when_its_mail_cannot_be_sent_and_keeps_it_queued(tmp_path):
    run = event(tmp_path)
    assert run("pair", "cup", "--now", START).exit_code == 0
    down = {"ADJUDICATOR_SMTP_HOST": SMTP_HOST, "ADJUDICATOR_SMTP_PORT": str(free_port()),
            "ADJUDICATOR_SMTP_SECURITY": "none", "ADJUDICATOR_SMTP_TIMEOUT": "5"}
    done = run("clock", "cup", "--now", ROUND_OVER, "--format", "json", **down)
    assert done.exit_code == 1
    said = json.loads(done.stdout)
    assert said["not_sent"] and said["actions"]
    assert "Traceback" not in done.output
