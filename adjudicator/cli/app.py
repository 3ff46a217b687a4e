"""The ``adjudicator`` command's application object and shared conventions.

Exit codes, for scripts: 0 success; 1 the work was done and found a problem (a case
failed, orders have errors, a record does not verify); 2 unusable input or usage.
Results go to stdout, diagnostics to stderr.
"""

from __future__ import annotations

from enum import Enum

import typer

from adjudicator import __version__

EXIT_OK, EXIT_PROBLEM, EXIT_UNUSABLE = 0, 1, 2

app = typer.Typer(
    name="adjudicator",
    help="Play-by-email referee for Russo-Japanese War wargames, with verifiable dice.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


def fail(message: str, code: int = EXIT_UNUSABLE) -> typer.Exit:
    """Print ``message`` to stderr and return the Exit to raise."""
    typer.echo(f"adjudicator: {message}", err=True)
    return typer.Exit(code)


@app.callback(invoke_without_command=True)
def main(version: bool = typer.Option(False, "--version", help="Print the version and exit.")) -> None:
    if version:
        typer.echo(__version__)
        raise typer.Exit(EXIT_OK)
