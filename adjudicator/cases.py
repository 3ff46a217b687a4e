"""Conformance cases: load case files and run each with its game's plug-in."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from adjudicator import games
from adjudicator.errors import AdjudicatorError
from adjudicator.engine import cases


class CaseFileError(AdjudicatorError):
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
    """The case's game: its ``game`` key, else the name of its folder (a registered
    game's name), else the one registered game."""
    if "game" in case:
        return str(case["game"])
    if path.parent.name in games.names():
        return path.parent.name
    only = games.only_game()
    if only is None:
        raise CaseFileError(f"{path}: say which game the case is for (a 'game' key, or a folder named after "
                            f"the game: {', '.join(games.names())})")
    return only


def run_case_file(path: Path) -> CaseResult:
    """Run one case file with its game."""
    case: Mapping[str, Any] = {}
    try:
        case = load_case(path)
        name = game_of(case, path)
        try:
            plugin = games.get(name)
        except games.UnknownGame as err:
            raise CaseFileError(f"{path}: {err}") from err
        problems = tuple(cases.run_case(case, plugin.game(), plugin.conformance))
    except AdjudicatorError as err:
        problems = (str(err),)
    return CaseResult(str(case.get("id", path.stem)), str(case.get("title", "")), path, problems)


def run_cases(paths: list[Path]) -> list[CaseResult]:
    return [run_case_file(path) for path in paths]
