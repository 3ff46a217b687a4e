"""What the command line and the reports say in words: 'history' tells what each step
waits for (never a Python dict), an ended game's reports and status name no next step,
and 'new --help' shows the TOML tables it asks for."""

from __future__ import annotations

from tests.pipeline.pipeline_helpers import cli, parse_eml


def test_history_tells_each_step_in_words(demo_run):
    done = cli("history", "demo", "--store", demo_run.folder / "campaigns.sqlite3")
    assert done.returncode == 0, done.stderr
    assert "{" not in done.stdout and "'ask'" not in done.stdout
    assert "waiting for japan (" in done.stdout or "waiting for russia (" in done.stdout
    assert "port-arthur, rulebook options" in done.stdout
    assert done.stdout.rstrip().endswith("nothing asked (the game is over)")


def test_an_ended_games_last_reports_and_status_name_no_next_step(demo_run):
    reports = [parse_eml(p.read_bytes()) for p in (demo_run.folder / "outbox").glob("*.eml")]
    final = [m for m in reports if "THE GAME IS OVER" in m.get_body(("plain",)).get_content()]
    assert final
    for message in final:
        assert "Next step" not in message.get_body(("plain",)).get_content()
        assert "Next step" not in message.get_body(("html",)).get_content()
    status = cli("status", "demo", "--store", demo_run.folder / "campaigns.sqlite3")
    assert status.returncode == 0 and "next step" not in status.stdout and "ended:" in status.stdout


def test_new_help_shows_the_toml_tables_it_asks_for():
    done = cli("new", "--help", env=None)
    assert "[[player]]" in done.stdout and "[[campaign]]" in done.stdout
    assert "of [] " not in done.stdout
