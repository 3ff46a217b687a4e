"""The command line's help is in whole sentences: no line of it breaks mid-sentence
where its docstring happened to break (each paragraph is wrapped to the terminal)."""

from __future__ import annotations

import click
import typer
from typer.testing import CliRunner

from adjudicator.cli.main import COMMAND_MODULES
from adjudicator.cli.app import app


def every_command():
    import importlib

    for module in COMMAND_MODULES:
        importlib.import_module(f"adjudicator.cli.{module}")
    group = typer.main.get_command(app)

    def walk(command, path):
        yield path, command
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                yield from walk(sub, [*path, name])

    return list(walk(group, []))


def test_every_commands_help_paragraph_is_one_text_the_terminal_wraps():
    commands = every_command()
    assert len(commands) > 30
    for path, command in commands:
        for paragraph in (command.help or "").split("\n\n"):
            lines = paragraph.splitlines()
            if not any(line.startswith((" ", "-", "*", "\b")) for line in lines):
                assert len(lines) <= 1, (path, paragraph)
        assert "\n" not in (command.short_help or ""), path


def test_the_list_of_commands_shows_each_first_paragraph_whole():
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "400"}, terminal_width=400)
    assert result.exit_code == 0
    assert ("Sign an orders file with your key (for players who sign instead of a password): prints the "
            "orders with a 'signature:' line added.") in result.output
