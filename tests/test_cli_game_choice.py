"""Which game a command is about, when --game is left out: the orders' own 'game:'
line, then a folder named after a game, else a usage error naming the games."""

from __future__ import annotations

from pathlib import Path

import typer
from typer.testing import CliRunner

from adjudicator.cli.check_cmd import check

ROOT = Path(__file__).resolve().parent.parent
app = typer.Typer()
app.command()(check)
app.command("unused")(lambda: None)  # two commands, so that "check" is a subcommand
runner = CliRunner()


def test_check_takes_the_game_from_the_samples_folder_name():
    result = runner.invoke(app, ["check", str(ROOT / "samples" / "port-arthur" / "japan-turn1.orders")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Orders accepted")


def test_check_takes_the_game_from_a_game_line(tmp_path):
    text = (ROOT / "samples" / "port-arthur" / "japan-turn1.orders").read_text(encoding="utf-8")
    text = text.replace("campaign: demo-1904", "campaign: demo-1904\ngame: port-arthur", 1)
    orders = tmp_path / "mine.txt"
    orders.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["check", str(orders)])
    assert result.exit_code == 0, result.output


def test_check_without_any_clue_asks_for_the_game(tmp_path):
    orders = tmp_path / "mine.txt"
    orders.write_text("side: Japan\nturn: 1\npassword: x\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(orders)])
    assert result.exit_code == 2
    assert "--game" in result.output and "port-arthur" in result.output
