"""The ``adjudicator`` command: every subcommand registers itself on the app.

Exit codes, for scripts: 0 success; 1 the work was done and found a problem (a case
failed, orders have errors, a record does not verify); 2 unusable input or usage.
Results go to stdout, diagnostics to stderr.
"""

from __future__ import annotations

import sys

DIRECT = {"verify"}  # commands that run without loading the whole command line


def run() -> None:
    """Console-script entry point: never a traceback for the user."""
    argv = sys.argv[1:]
    if argv[:1] and argv[0] in DIRECT and not {"-h", "--help"} & set(argv):
        from adjudicator.cli.verify_cmd import direct

        sys.exit(direct(argv[1:]))
    import typer

    from adjudicator.cli import campaign_cmds, games_cmds, mail_cmds, serve_cmd, store_cmds, tournament_cmds  # noqa: F401  (they register commands)
    from adjudicator.cli.app import app

    try:
        app()
    except KeyboardInterrupt:
        typer.echo("adjudicator: interrupted", err=True)
        sys.exit(130)
