"""Every command's ``--help`` says what each of its arguments and options is: each one
is declared with its help, and the help printed shows that help whole (Click 8.5 with
Typer before 0.25 printed every argument without its help)."""

from __future__ import annotations

import click
import click.testing
from typer.testing import CliRunner

from adjudicator.cli.app import app, give_arguments_their_help
from tests.test_cli_help_sentences import every_command


def words(text: str) -> str:
    """``text`` as shown: rich markup's escapes (``\\[``) undone, a panel's borders and
    every run of spaces made one space."""
    return " ".join(text.replace("\\[", "[").replace("│", " ").split())


def test_every_argument_and_option_is_declared_with_its_help():
    commands = [(path, command) for path, command in every_command() if not isinstance(command, click.Group)]
    for _, command in commands:
        give_arguments_their_help(command)
    unexplained = [(" ".join(path), param.name) for path, command in commands
                   for param in command.params if param.name != "help" and not getattr(param, "help", None)]
    assert unexplained == []


def test_every_commands_help_shows_each_arguments_and_options_help_whole():
    runner = click.testing.CliRunner()   # (Typer's runner would build the command line again)
    missing = []
    every = every_command()
    commands = [(path, command) for path, command in every if not isinstance(command, click.Group)]
    assert len(commands) > 30
    whole = every[0][1]   # the command line as built once (building it for each command is slow)
    for path, command in commands:
        shown = runner.invoke(whole, [*path, "--help"], env={"COLUMNS": "400"}, terminal_width=400)
        assert shown.exit_code == 0, (path, shown.output)
        for param in command.params:
            if param.name != "help" and words(param.help or "") not in words(shown.output):
                missing.append((" ".join(path), param.name))
    assert missing == []


def test_an_arguments_help_is_shown_in_the_arguments_panel():
    shown = CliRunner().invoke(app, ["sign", "--help"], env={"COLUMNS": "100"}, terminal_width=100)
    line = next(line for line in shown.output.splitlines() if "orders_file" in line)
    assert "Your orders file ('-' for standard input)." in line
