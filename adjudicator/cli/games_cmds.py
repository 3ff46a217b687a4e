"""Commands about the games themselves: conformance cases and automatic play."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Optional

import typer

from adjudicator.cli.app import EXIT_OK, EXIT_PROBLEM, OutputFormat, app, chosen_game, fail, game_option


@app.command()
def cases(
    folder: Path = typer.Argument(..., help="A folder of conformance case files (*.toml), or one case file."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", help="text, or json for scripts."),
) -> None:
    """Run conformance cases; end with 'N passed, M failed'; exit 1 if any fails."""
    from adjudicator.cases import CaseFileError, case_files, run_cases

    try:
        paths = case_files(folder)
    except CaseFileError as err:
        raise fail(str(err))
    if not paths:
        raise fail(f"no case files (*.toml) in {folder}")
    results = run_cases(paths)
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    if format is OutputFormat.json:
        typer.echo(json.dumps({
            "passed": passed, "failed": failed,
            "cases": [{"id": r.id, "title": r.title, "passed": r.passed, "problems": list(r.problems)}
                      for r in results],
        }, indent=2))
    else:
        for result in results:
            if result.passed:
                typer.echo(f"ok    {result.id}")
            else:
                typer.echo(f"FAIL  {result.id}  ({result.path.name}) {result.title}")
                for problem in result.problems:
                    typer.echo(f"        {problem}")
        typer.echo(f"{passed} passed, {failed} failed")
    raise typer.Exit(EXIT_PROBLEM if failed else EXIT_OK)


@app.command()
def play(
    seed: int = typer.Option(1904, help="Seed of the automatic players and of the (simulation) dice."),
    option: list[str] = typer.Option(
        [], "--option", "-o",
        help="Game option NAME=VALUE (repeatable; true/false become booleans); the options of each game "
             "are in its rules notes.",
    ),
    game: Optional[str] = game_option(),
    history: Optional[Path] = typer.Option(None, help="Also write the game's history (JSON) to this file."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", help="text narrative, or json."),
) -> None:
    """Play a whole game between automatic players, narrated."""
    from adjudicator import games
    from adjudicator.engine import EngineError, Match, play_out

    plugin = games.get(chosen_game(game, first_by_default=True))
    try:
        options = parse_options(option)
        rng = random.Random(seed)
        match = play_out(Match(plugin.game(), {}, options), plugin.dice(rng), plugin.player(rng))
    except (EngineError, ValueError) as err:
        raise fail(str(err))
    record = {"game": plugin.name, "setup": {}, "options": options, "history": match.history_json()}
    if history is not None:
        history.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    if format is OutputFormat.json:
        typer.echo(json.dumps({**record, "result": getattr(match.state, "result", None),
                               "final": match.state.to_json()}, indent=1))
        return
    for event in match.events:
        if event.kind == "phase":
            typer.echo("")
        typer.echo(("== " if event.kind == "phase" else "   ") + event.text)
    typer.echo(f"\nResult: {getattr(match.state, 'result', None)}")


def parse_options(pairs: list[str]) -> dict:
    """``name=value`` pairs to a JSON-able dict (true/false become booleans)."""
    options: dict = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"an option is NAME=VALUE, got {pair!r}")
        lowered = value.strip().lower()
        options[name.strip()] = {"true": True, "false": False}.get(lowered, value.strip())
    return options
