"""The ``adjudicator`` command: every subcommand registers itself on the app.

Exit codes, for scripts: 0 success; 1 the work was done and found a problem (a case
failed, orders have errors, a record does not verify); 2 unusable input or usage.
Results go to stdout, diagnostics to stderr.
"""

from __future__ import annotations

import sys

import typer

from adjudicator.cli import campaign_cmds, games_cmds  # noqa: F401  (they register commands)
from adjudicator.cli.app import app

__all__ = ["app", "run"]


def run() -> None:
    """Console-script entry point: never a traceback for the user."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("adjudicator: interrupted", err=True)
        sys.exit(130)
