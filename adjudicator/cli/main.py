"""The ``adjudicator`` command: every subcommand registers itself on the app.

Exit codes, for scripts: 0 success; 1 the work was done and found a problem (a case
failed, orders have errors, a record does not verify); 2 unusable input or usage.
Results go to stdout, diagnostics to stderr.
"""

from __future__ import annotations

import sys

#: commands that run without loading the whole command line (and its library), to start fast
DIRECT = {"verify": "adjudicator.cli.verify_cmd", "check": "adjudicator.cli.check_core",
          "status": "adjudicator.cli.status_cmd"}


def run() -> None:
    """Console-script entry point: never a traceback for the user.

    A reader that stops early (``adjudicator check f | head``) ends the command quietly,
    with the exit status of a Unix tool killed by SIGPIPE (141), as ``cat`` would."""
    try:
        _run()
    except BrokenPipeError:
        _quiet_broken_pipe()


def _quiet_broken_pipe() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # nothing left to flush at exit: no second error
    sys.exit(141)


def _run() -> None:
    argv = sys.argv[1:]
    if argv[:1] and argv[0] in DIRECT and not {"-h", "--help"} & set(argv):
        import importlib

        try:
            code = importlib.import_module(DIRECT[argv[0]]).direct(argv[1:])
        except KeyboardInterrupt:
            print("adjudicator: interrupted", file=sys.stderr)
            sys.exit(130)
        if code is not None:  # None: misused, the full command line says how
            sys.exit(code)
    import typer

    from adjudicator.cli import campaign_cmds, games_cmds, mail_cmds, serve_cmd, store_cmds, tournament_cmds  # noqa: F401  (they register commands)
    from adjudicator.cli.app import app

    try:
        app()
    except SystemExit:
        if type(sys.stdout).__name__.endswith("PacifyFlushWrapper"):  # click's exit 1 for a reader gone
            _quiet_broken_pipe()
        raise
    except KeyboardInterrupt:
        typer.echo("adjudicator: interrupted", err=True)
        sys.exit(130)
