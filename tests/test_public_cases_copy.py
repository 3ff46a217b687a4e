"""The project's copy of the public conformance cases matches ../shared/cases when that
folder sits beside the checkout (a clone alone runs its copy and skips this check)."""

from __future__ import annotations

import pytest

from tests.public_cases import GAMES, OWN_CASES, SHARED_CASES, case_folder


def _files(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.glob("*.toml")}


@pytest.mark.skipif(not SHARED_CASES.is_dir(), reason="no ../shared/cases beside the checkout to compare with")
@pytest.mark.parametrize("game", GAMES)
def test_own_copy_of_a_games_cases_matches_the_shared_cases(game):
    shared = SHARED_CASES / game
    assert shared.is_dir(), f"../shared/cases has no {game} folder"
    assert _files(case_folder(game)) == _files(shared), \
        f"tests/cases/{game} is out of date: copy ../shared/cases/{game} again"


@pytest.mark.skipif(not SHARED_CASES.is_dir(), reason="no ../shared/cases beside the checkout to compare with")
def test_own_copy_of_the_case_format_matches_the_shared_readme():
    assert (OWN_CASES / "FORMAT.md").read_bytes() == (SHARED_CASES / "README.md").read_bytes(), \
        "tests/cases/FORMAT.md is out of date: copy ../shared/cases/README.md again"


def test_every_game_has_its_cases_in_the_project():
    at_least = {"port-arthur": 23, "russo-japanese-war": 56, "tsushima-1905": 30}
    for game, count in at_least.items():
        assert len(list(case_folder(game).glob("*.toml"))) >= count, f"tests/cases/{game} lacks cases"
