"""`adjudicator cases` runs the Russo-Japanese War cases by their folder's name."""

from __future__ import annotations

from typer.testing import CliRunner

from adjudicator.cli import games_cmds  # noqa: F401  (registers the command)
from adjudicator.cli.app import app
from tests.public_cases import case_folder


def test_the_cases_command_passes_every_russo_japanese_war_case():
    result = CliRunner().invoke(app, ["cases", str(case_folder("russo-japanese-war"))])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "56 passed, 0 failed"


def test_a_failing_case_is_named_with_what_differed(tmp_path):
    folder = tmp_path / "russo-japanese-war"
    folder.mkdir()
    (folder / "wrong.toml").write_text(
        'id = "WRONG-1"\ntitle = "a wrong expectation"\nuntil = "japan-combat"\nanswers = []\n'
        '[position]\nturn = 2\nphase = "japan-movement"\nunit = []\n[position.map]\nhexes = "0101-0202"\n'
        '[expect]\nphase = "japan-card-play"\n')
    result = CliRunner().invoke(app, ["cases", str(folder)])
    assert result.exit_code == 1
    assert "FAIL  WRONG-1" in result.output and "phase: expected 'japan-card-play', got 'japan-combat'" in result.output
    assert result.output.strip().splitlines()[-1] == "0 passed, 1 failed"
