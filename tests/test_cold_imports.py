"""Cold commands load only what they need: a check of an orders file reads the orders
language without the game's rules, the engine's driver, the campaigns, mail or the
command-line library; ``--help`` of a command loads no campaign machinery. Each runs in
a new process, as a player or referee runs it, and lists the modules it loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from adjudicator import games
from adjudicator.campaign import Player
from adjudicator.fairdice import generate_keypair
from adjudicator.store import Store

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "port-arthur" / "japan-turn1.orders"
PLAYERS = [Player("japan", "togo@example.org", "Togo-1904"), Player("russia", "makarov@example.org", "Mk-1904")]

PROBE = """
import json, os, sys
sys.argv = ["adjudicator", *sys.argv[1:]]
from adjudicator.cli.main import run
try:
    run()
finally:
    with open(os.environ["MODULES_FILE"], "w") as out:
        json.dump(sorted(sys.modules), out)
"""


def loaded(tmp_path: Path, *args: str) -> tuple[set[str], subprocess.CompletedProcess]:
    listing = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          env={**os.environ, "MODULES_FILE": str(listing)})
    return set(json.loads(listing.read_text())), done


def heavy(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m.startswith(prefixes))


def test_checking_an_orders_file_loads_the_language_but_not_the_rules_mail_or_command_line(tmp_path):
    modules, done = loaded(tmp_path, "check", str(SAMPLE))
    assert done.returncode == 0, done.stderr
    assert "adjudicator.games.port_arthur.language" in modules
    assert heavy(modules, ("adjudicator.games.port_arthur.rules", "adjudicator.games.port_arthur.game",
                           "adjudicator.engine.match", "adjudicator.engine.driver", "adjudicator.campaign",
                           "adjudicator.mail", "adjudicator.store", "adjudicator.reports", "typer", "click",
                           "cryptography", "jinja2", "argparse")) == []


def test_a_commands_help_loads_no_campaign_store_or_game(tmp_path):
    for command in ("status", "verify", "step", "serve"):
        modules, done = loaded(tmp_path, command, "--help")
        assert done.returncode == 0, done.stderr
        assert "Usage" in done.stdout
        assert heavy(modules, ("adjudicator.campaign.", "adjudicator.store", "adjudicator.engine.match",
                               "adjudicator.games.port_arthur", "lark", "cryptography", "jinja2")) == [], command


def test_each_games_orders_language_is_its_plugins_language():
    for name in games.names():
        assert games.language(name) is games.get(name).language


def test_each_games_rules_are_its_plugins_game():
    for name in games.names():
        made, plugins = games.rules(name), games.get(name).game()
        assert type(made) is type(plugins) and made.name == plugins.name == name
        assert dict(made.data_hashes()) == games.get(name).data_hashes()


def test_verifying_a_record_loads_the_rules_but_not_the_orders_language_reports_or_mail(tmp_path):
    from adjudicator.campaign import Campaigns

    with Store.open(tmp_path / "c.sqlite3") as store:
        campaigns, key = Campaigns(store), generate_keypair()[0]
        campaigns.create("c1", "port-arthur", PLAYERS, key)
        for days in (30, 60, 90):  # past each deadline: the documented defaults answer
            campaigns.adjudicate("c1", key, now=datetime.now(timezone.utc) + timedelta(days=days))
        record = campaigns.export_public("c1")
    assert record.count('"kind":"batch"') == 3
    (tmp_path / "record.jsonl").write_text(record, encoding="utf-8")
    modules, done = loaded(tmp_path, "verify", str(tmp_path / "record.jsonl"))
    assert done.returncode == 0, done.stderr + done.stdout
    assert "adjudicator.games.port_arthur.game" in modules
    assert heavy(modules, ("adjudicator.games.port_arthur.language", "adjudicator.games.port_arthur.report",
                           "adjudicator.orders.grammar", "lark", "jinja2", "adjudicator.reports",
                           "adjudicator.mail", "adjudicator.store", "email", "typer", "click", "argparse")) == []


def test_status_runs_without_the_command_line_library_and_says_what_it_always_said(tmp_path):
    with Store.open(tmp_path / "empty.sqlite3"):
        pass
    modules, done = loaded(tmp_path, "status", "--store", str(tmp_path / "empty.sqlite3"))
    assert (done.returncode, done.stdout) == (0, "")
    assert heavy(modules, ("typer", "click", "adjudicator.cli.campaign_cmds")) == []
    modules, done = loaded(tmp_path, "status", "--store", str(tmp_path / "missing.sqlite3"))
    assert done.returncode == 2 and "no campaign store at" in done.stderr
    assert heavy(modules, ("typer", "click", "adjudicator.campaign")) == []
    modules, done = loaded(tmp_path, "status", "--format", "xml", "--store", str(tmp_path / "empty.sqlite3"))
    assert done.returncode == 2 and "Invalid value for '--format'" in done.stderr  # the usual usage error


def test_status_of_a_campaign_loads_neither_its_game_nor_the_signature_library(tmp_path):
    from adjudicator.campaign import Campaigns

    with Store.open(tmp_path / "c.sqlite3") as store:
        Campaigns(store).create("c1", "port-arthur", PLAYERS, generate_keypair()[0])
    modules, done = loaded(tmp_path, "status", "c1", "--store", str(tmp_path / "c.sqlite3"))
    assert done.returncode == 0, done.stderr
    assert "c1 (port-arthur): turn 1" in done.stdout and "waiting for japan" in done.stdout
    assert heavy(modules, ("adjudicator.games.", "adjudicator.engine", "adjudicator.campaign.protocol",
                           "adjudicator.orders", "lark",
                           "cryptography", "jinja2", "email", "typer", "click", "argparse")) == []


REGISTRATIONS = """
import importlib, json
from adjudicator.cli.app import app
from adjudicator.cli.main import COMMAND_MODULES

def names():
    return [c.name or c.callback.__name__ for c in app.registered_commands] + [g.name for g in app.registered_groups]

found = {}
for module in COMMAND_MODULES:
    before = set(names())
    importlib.import_module(f"adjudicator.cli.{module}")
    found.update(dict.fromkeys(set(names()) - before, module))
print(json.dumps(found))
"""


def test_the_table_of_commands_names_the_module_that_registers_each_command():
    from adjudicator.cli.main import COMMANDS

    done = subprocess.run([sys.executable, "-c", REGISTRATIONS], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == COMMANDS


def test_a_command_loads_only_the_module_of_its_command(tmp_path):
    modules, done = loaded(tmp_path, "step", "--help")
    assert done.returncode == 0 and "Usage" in done.stdout, done.stderr
    assert "adjudicator.cli.mail_cmds" in modules
    assert heavy(modules, ("adjudicator.cli.tournament_cmds", "adjudicator.cli.serve_cmd",
                           "adjudicator.cli.store_cmds", "adjudicator.cli.games_cmds")) == []
    modules, done = loaded(tmp_path, "--help")
    assert done.returncode == 0 and "tournament" in done.stdout and "step" in done.stdout
