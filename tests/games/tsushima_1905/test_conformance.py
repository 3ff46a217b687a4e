"""Every Tsushima 1905 conformance case in tests/cases/tsushima-1905, one test each."""

import tomllib
from pathlib import Path

import pytest

from adjudicator.games.tsushima_1905.conformance import run_case
from adjudicator.games.tsushima_1905.game import Tsushima1905
from tests.public_cases import case_folder

CASES = case_folder("tsushima-1905")
#: the project's own cases for the rulings made after the public ones were written
OWN = Path(__file__).resolve().parents[2] / "cases" / "tsushima-1905-rulings"
FILES = sorted(CASES.glob("*.toml"))
OWN_FILES = sorted(OWN.glob("*.toml"))
GAME = Tsushima1905()


def _load(path: Path) -> dict:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def test_the_thirty_cases_are_there():
    assert len(FILES) >= 30


@pytest.mark.parametrize("path", FILES, ids=[_load(p)["id"] for p in FILES])
def test_case(path):
    problems = run_case(_load(path), GAME)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", OWN_FILES, ids=[_load(p)["id"] for p in OWN_FILES])
def test_project_case(path):
    """The project's own cases (tests/cases/tsushima-1905-rulings): the later rulings."""
    problems = run_case(_load(path), GAME)
    assert not problems, "\n".join(problems)
