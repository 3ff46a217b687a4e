"""Every conformance case is a test of its own, named by its id."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from adjudicator.games.port_arthur.conformance import run_case

ROOT = Path(__file__).resolve().parents[1]
OWN_CASES = ROOT / "tests" / "cases" / "port-arthur"
SHARED_CASES = ROOT.parent / "shared" / "cases" / "port-arthur"


def _cases(folder: Path) -> list[tuple[str, dict]]:
    found = []
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as handle:
            case = tomllib.load(handle)
        found.append((case["id"], case))
    return found


CASES = _cases(SHARED_CASES if SHARED_CASES.is_dir() else OWN_CASES)


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_conformance_case(case, port_arthur):
    assert run_case(case, port_arthur) == []


def test_there_are_cases_to_run():
    assert len(CASES) >= 23


@pytest.mark.skipif(not SHARED_CASES.is_dir(), reason="no shared cases folder beside the checkout")
def test_own_copy_of_the_cases_matches_the_shared_cases():
    shared = {p.name: p.read_bytes() for p in SHARED_CASES.glob("*.toml")}
    own = {p.name: p.read_bytes() for p in OWN_CASES.glob("*.toml")}
    assert own == shared, "tests/cases/port-arthur is out of date: copy shared/cases/port-arthur again"
