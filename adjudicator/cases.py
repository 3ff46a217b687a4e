"""Conformance cases: load case files and run them with the right game's runner."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from adjudicator.engine.errors import EngineError


class CaseFileError(Exception):
    """A case file that cannot be read or names no known game."""


@dataclass(frozen=True)
class CaseResult:
    id: str
    title: str
    path: Path
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems


def _port_arthur_runner() -> Callable[[Mapping[str, Any]], list[str]]:
    from adjudicator.games.port_arthur.conformance import run_case
    from adjudicator.games.port_arthur.game import PortArthur

    game = PortArthur()
    return lambda case: run_case(case, game)


RUNNERS: dict[str, Callable[[], Callable[[Mapping[str, Any]], list[str]]]] = {
    "port-arthur": _port_arthur_runner,
    "russo-japanese-war": lambda: __import__("adjudicator.games.russo_japanese_war.conformance", fromlist=["runner"]).runner(),
}


def case_files(folder: Path) -> list[Path]:
    """The case files in ``folder`` (or ``folder`` itself when it is a file), sorted."""
    if folder.is_file():
        return [folder]
    if not folder.is_dir():
        raise CaseFileError(f"{folder} is neither a case file nor a folder of case files")
    return sorted(folder.glob("*.toml"))


def load_case(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise CaseFileError(f"{path}: cannot read the case: {err}") from err


def game_of(case: Mapping[str, Any], path: Path) -> str:
    """The case's game: its ``game`` key, else the folder's name, else Port Arthur."""
    if "game" in case:
        return str(case["game"])
    return path.parent.name if path.parent.name in RUNNERS else "port-arthur"


def run_cases(paths: list[Path]) -> list[CaseResult]:
    runners: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {}
    results = []
    for path in paths:
        try:
            case = load_case(path)
            game = game_of(case, path)
            if game not in RUNNERS:
                raise CaseFileError(f"{path}: unknown game {game!r} (known: {', '.join(RUNNERS)})")
            runner = runners.setdefault(game, RUNNERS[game]())
            problems = tuple(runner(case))
        except (CaseFileError, EngineError) as err:
            case, problems = {}, (str(err),)
        results.append(CaseResult(str(case.get("id", path.stem)), str(case.get("title", "")), path, problems))
    return results
