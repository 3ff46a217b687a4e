"""The ``adjudicator`` command: every subcommand registers itself on the app.

Exit codes, for scripts: 0 success; 1 the work was done and found a problem (a case
failed, orders have errors, a record does not verify); 2 unusable input or usage.
Results go to stdout, diagnostics to stderr.
"""

from __future__ import annotations

import sys

#: commands that run without loading the whole command line (and its library), to start
#: fast: command -> "module" (its ``direct``) or "module:function"; each takes the
#: arguments after the command's name and returns the exit code, or None when they are
#: not in a plain form (the full command line then reads them)
DIRECT = {"verify": "adjudicator.cli.verify_cmd", "check": "adjudicator.cli.check_core",
          "status": "adjudicator.cli.status_cmd", "step": "adjudicator.cli.step_core:direct_step",
          "receive": "adjudicator.cli.step_core:direct_receive",
          "adjudicate": "adjudicator.cli.step_core:direct_adjudicate", "send": "adjudicator.cli.step_core:direct_send"}

#: the modules that register the commands on the app, in the order ``--help`` lists them
COMMAND_MODULES = ("campaign_cmds", "games_cmds", "mail_cmds", "serve_cmd", "site_cmd", "store_cmds",
                   "tournament_cmds")

#: each command (or group of commands) -> the module that registers it: a command line
#: that names one loads that module alone (with what it imports), so that a referee's
#: ``step`` from cron does not load the tournament or service commands (a test holds
#: this table to what the modules register)
COMMANDS = {
    **dict.fromkeys(("sign", "new", "submit", "adjudicate", "undo", "pause", "replace", "status", "history", "orders", "export",
                     "verify", "keys", "sealed"), "campaign_cmds"),
    **dict.fromkeys(("cases", "play"), "games_cmds"),
    **dict.fromkeys(("receive", "send", "step", "remind", "demo", "check"), "mail_cmds"),
    **dict.fromkeys(("serve", "health"), "serve_cmd"),
    "site": "site_cmd",
    "store": "store_cmds",
    **dict.fromkeys(("tournament", "balance"), "tournament_cmds"),
}


def command_modules(argv: list[str]) -> tuple[str, ...]:
    """The modules to load for the command line ``argv``: the named command's, none for
    ``--version``, every one for a help request or a misspelt command."""
    if argv == ["--version"]:
        return ()
    named = COMMANDS.get(argv[0]) if argv else None
    return (named,) if named else COMMAND_MODULES


def run() -> None:
    """Console-script entry point: never a traceback for the user.

    A reader that stops early (``adjudicator check f | head``) ends the command quietly,
    with the exit status of a Unix tool killed by SIGPIPE (141), as ``cat`` would.

    The dataclass methods the command's modules define are compiled once and kept for
    the next command (:mod:`adjudicator.cli.compiled`)."""
    if sys.argv[1:] == ["--version"]:  # as the full command line prints it, loading nothing
        from adjudicator import __version__

        print(__version__)
        sys.exit(0)
    from adjudicator.speed import annex_on

    try:
        if annex_on():
            from adjudicator.cli.compiled import kept_compilations

            with kept_compilations():
                _run()
        else:  # the libraries only: Typer reads every command line, dataclasses compiles
            _run(direct=False)
    except BrokenPipeError:
        _quiet_broken_pipe()


def _quiet_broken_pipe() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # nothing left to flush at exit: no second error
    sys.exit(141)


def _run(direct: bool = True) -> None:
    import importlib

    argv = sys.argv[1:]
    if direct and argv[:1] and argv[0] in DIRECT and not {"-h", "--help"} & set(argv):
        module, _, function = DIRECT[argv[0]].partition(":")
        try:
            code = getattr(importlib.import_module(module), function or "direct")(argv[1:])
        except KeyboardInterrupt:
            print("adjudicator: interrupted", file=sys.stderr)
            sys.exit(130)
        if code is not None:  # None: misused, the full command line says how
            sys.exit(code)
    import typer

    from adjudicator.cli.app import app

    for module in command_modules(argv):
        importlib.import_module(f"adjudicator.cli.{module}")

    try:
        app()
    except SystemExit:
        from click.utils import PacifyFlushWrapper

        if isinstance(sys.stdout, PacifyFlushWrapper):  # click's exit 1 for a reader gone
            _quiet_broken_pipe()
        raise
    except KeyboardInterrupt:
        typer.echo("adjudicator: interrupted", err=True)
        sys.exit(130)
