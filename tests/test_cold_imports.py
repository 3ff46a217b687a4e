"""Cold commands load only what they need: a check of an orders file reads the orders
language without the game's rules, the engine's driver, the campaigns, mail or the
command-line library; ``--help`` of a command loads no campaign machinery. Each runs in
a new process, as a player or referee runs it, and lists the modules it loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from adjudicator import games

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "port-arthur" / "japan-turn1.orders"

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
                           "cryptography", "jinja2")) == []


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


def test_status_runs_without_the_command_line_library_and_says_what_it_always_said(tmp_path):
    from adjudicator.store import Store

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
