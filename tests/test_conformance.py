"""Every Port Arthur conformance case is a test of its own, named by its id."""

from __future__ import annotations

import pytest

from adjudicator.games.port_arthur.conformance import run_case
from tests.public_cases import load_cases

CASES = load_cases("port-arthur")


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_conformance_case(case, port_arthur):
    assert run_case(case, port_arthur) == []


def test_there_are_cases_to_run():
    assert len(CASES) >= 23
