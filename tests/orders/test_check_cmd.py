"""The check command: receipt or every error; exit codes 0, 1, 2."""

from __future__ import annotations

import json

import typer
from conftest import GOLDEN, SAMPLES
from typer.testing import CliRunner

from adjudicator.cli.check_cmd import check

app = typer.Typer()
app.command()(check)
app.command("unused")(lambda: None)  # two commands, so that "check" is a subcommand
runner = CliRunner()


def test_clean_file_prints_the_receipt():
    result = runner.invoke(app, ["check", "--game", "port-arthur", str(SAMPLES / "japan-turn1.orders")])
    assert result.exit_code == 0, result.output
    assert "SHA-256" in result.output and "Togo1904" not in result.output


def test_errors_exit_1_with_every_problem():
    result = runner.invoke(app, ["check", "--game", "port-arthur", str(GOLDEN / "five-mistakes.orders")])
    assert result.exit_code == 1
    assert result.output.startswith("5 problems")
    for code in ("E201", "E103", "E104", "E301", "E202"):
        assert code in result.output


def test_json_format():
    result = runner.invoke(app, ["check", "--game", "port-arthur", str(GOLDEN / "five-mistakes.orders"), "--format", "json"])
    data = json.loads(result.output)
    assert result.exit_code == 1 and not data["ok"] and len(data["problems"]) == 5


def test_campaign_must_match():
    result = runner.invoke(app, ["check", "--game", "port-arthur", str(SAMPLES / "russia-turn1.orders"), "--campaign", "other"])
    assert result.exit_code == 1 and "E114" in result.output


def test_unusable_input_exits_2(tmp_path):
    assert runner.invoke(app, ["check", "--game", "port-arthur", str(tmp_path / "missing.orders")]).exit_code == 2
    binary = tmp_path / "binary.orders"
    binary.write_bytes(b"\x00\x01\x02")
    assert runner.invoke(app, ["check", "--game", "port-arthur", str(binary)]).exit_code == 2
    assert runner.invoke(app, ["check", "--game", "port-arthur", str(binary), "--format", "xml"]).exit_code == 2
