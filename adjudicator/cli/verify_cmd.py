"""``adjudicator verify``: kept free of heavy imports, so that a player's check of a
whole campaign starts fast. The Typer command and the direct path share ``verify``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

EXIT_OK, EXIT_PROBLEM, EXIT_UNUSABLE = 0, 1, 2


def verify(record: str, head: str | None, output_format: str, out: TextIO, err: TextIO,
           fingerprint: str | None = None) -> int:
    """Verify the public record at ``record`` ('-': stdin); print the verdict; return the exit code."""
    from adjudicator.campaign.verify import UnusableRecord, render_verdict, verify_text

    try:
        data = sys.stdin.buffer.read() if record == "-" else Path(record).read_bytes()
        verdict = verify_text(data, head, fingerprint)
    except (OSError, UnusableRecord) as error:
        print(f"adjudicator: {error}", file=err)
        return EXIT_UNUSABLE
    text = json.dumps(verdict.to_json(), indent=2) if output_format == "json" else render_verdict(verdict)
    print(text, file=out)
    return EXIT_OK if verdict.verified else EXIT_PROBLEM


def direct(argv: list[str]) -> int | None:
    """``adjudicator verify ARGS`` without loading the rest of the command line; None
    when the arguments are misused (the full command line then says how)."""
    from adjudicator.cli.direct import read_arguments

    args = read_arguments(argv, ["record"], {"--head": None, "--format": "text", "--fingerprint": None})
    if args is None or args["format"] not in ("text", "json"):
        return None
    return verify(args["record"], args["head"], args["format"], sys.stdout, sys.stderr, args["fingerprint"])
