"""``adjudicator check`` as a player runs it starts without the command-line library
(Typer, Click): the same receipt or problems, the same exit codes, as the Typer command."""

from __future__ import annotations

import subprocess
import sys

from conftest import GOLDEN, SAMPLES
from typer.testing import CliRunner

from tests.orders.test_check_cmd import app

PROBE = """
import sys
sys.argv = ["adjudicator", *sys.argv[1:]]
from adjudicator.cli.main import run
try:
    run()
except SystemExit as done:
    print("typer loaded" if "typer" in sys.modules else "typer not loaded", file=sys.stderr)
    raise
"""


def direct(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True)


def test_a_check_runs_without_the_command_line_library_and_prints_what_the_command_prints():
    for sample, code in ((SAMPLES / "japan-turn1.orders", 0), (GOLDEN / "five-mistakes.orders", 1)):
        for extra in (["--game", "port-arthur"], ["--format", "json", "--game", "port-arthur"]):
            done = direct("check", str(sample), *extra)
            assert done.returncode == code, done.stderr
            assert "typer not loaded" in done.stderr
            assert done.stdout == CliRunner().invoke(app, ["check", str(sample), *extra]).output


def test_unusable_input_and_options_exit_2_with_a_message(tmp_path):
    missing = direct("check", str(tmp_path / "missing.orders"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    assert direct("check", str(SAMPLES / "japan-turn1.orders"), "--format", "xml").returncode == 2
    assert direct("check", str(SAMPLES / "japan-turn1.orders"), "--game", "chess").returncode == 2
    assert direct("check", str(SAMPLES / "japan-turn1.orders"), "--bogus").returncode == 2
    assert "Traceback" not in missing.stderr


def test_help_still_comes_from_the_full_command_line():
    done = direct("check", "--help")
    assert done.returncode == 0 and "--campaign" in done.stdout and "typer loaded" in done.stderr
