"""``adjudicator tournament site``: a tournament's public archive, an index of its
rounds and games with each game's own site beside it."""

from __future__ import annotations

import html

from typer.testing import CliRunner

from adjudicator.cli.app import app
from adjudicator.cli import tournament_cmds  # noqa: F401 - registers the commands on the app
from adjudicator.store import Store
from adjudicator.tournament.service import Tournaments
from tests.tournament.conftest import T0, charter
from tests.tournament.test_abandonment import passwords_of, play_steps


def test_the_tournament_site_lists_every_game_with_its_players_and_result_and_links_each_game_s_site(
        referee_key, tmp_path):
    with Store.open(tmp_path / "store.sqlite3") as store:
        tournaments = Tournaments(store, tmp_path / "outbox")
        tournaments.create(charter(players=4, rounds=1), referee_key, T0)
        games = tournaments.pair("cup", referee_key, T0)["games"]
        first, second = games[0]["game"], games[1]["game"]
        play_steps(tournaments, referee_key, first, passwords_of(tournaments, first),
                   lambda match: tournaments.campaigns.log(first).next_batch > 3)
        tournaments.rule("cup", second, "forfeit", "no orders for three weeks", referee_key, T0, silent="japan")
    done = CliRunner().invoke(app, ["tournament", "site", "cup", "-o", str(tmp_path / "site"), "--store",
                                    str(tmp_path / "store.sqlite3"), "--key", str(tmp_path / "none.key")])
    assert done.exit_code == 0, done.output
    index = html.unescape((tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    assert "<h1>Tournament cup</h1>" in index and "Round 1" in index
    for game in games:
        assert f'<a href="{game["game"]}/index.html">' in index
        assert (tmp_path / "site" / game["game"] / "index.html").is_file()
        for side, player in game["sides"].items():
            assert f"{player} ({side.capitalize()})" in index
    assert f"{games[1]['sides']['russia']} (Russia) wins" in index
    assert (tmp_path / "site" / first / "step-001.html").is_file()
