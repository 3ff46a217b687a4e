"""What an event publishes: a FIDE TRF file (read back by caissify-pairings' TRF
parser, an independent reader of the format), a CSV of results, a cross-table and a
static standings page, all agreeing with the record."""

from __future__ import annotations

import csv
import io
from html.parser import HTMLParser

from caissify_pairings.trf import parse_trf
from typer.testing import CliRunner

from adjudicator.cli import tournament_cmds  # noqa: F401  (registers the commands)
from adjudicator.cli.app import app
from adjudicator.tournament import publish

from .conftest import T0, charter


def small_event(tournaments, key, rounds=2, players=5, **event):
    tournaments.create(charter(players=players, rounds=rounds, **event), key, T0)
    for number in range(rounds):
        body = tournaments.pair("cup", key, T0)
        for index, game in enumerate(body["games"]):
            if index == 0 and number == 0:
                tournaments.rule("cup", game["game"], "no-result", "both left", key, T0)
            else:
                tournaments.rule("cup", game["game"], "forfeit", "silent", key, T0, silent="japan")
    return tournaments.close("cup", key, T0)


def test_the_trf_file_reads_back_with_every_round_score_and_rank(tournaments, referee_key):
    lines = small_event(tournaments, referee_key)
    state = tournaments.state("cup")
    text = publish.trf(state, lines)
    parsed = parse_trf(text)
    numbers = publish.pairing_numbers(state)
    by_number = {p["starting_number"]: p for p in parsed["players"]}
    assert len(by_number) == 5 and parsed["tournament"]["name"].startswith("cup")
    ranks = {int(row[4:8]): int(row[85:89]) for row in text.splitlines() if row.startswith("001")}  # (TRF16 columns)
    for line in lines:
        entry = by_number[numbers[line.player]]
        assert entry["name"] == line.player and float(entry["score"]) == line.points
        assert ranks[numbers[line.player]] == line.rank
    for info in state.rounds:
        for player in info.byes:
            assert by_number[numbers[player]]["results"][info.number]["result"] == "U"
        for slot in info.games:
            japan, russia = slot.sides["japan"], slot.sides["russia"]
            mine = by_number[numbers[japan]]["results"][info.number]
            assert mine["opponent"] == numbers[russia] and mine["color"] == "w"
            assert mine["result"] == "-"   # japan forfeited, or the game has no result
            theirs = by_number[numbers[russia]]["results"][info.number]
            assert theirs["result"] == ("-" if state.results[slot.game].result is None else "+")


def test_the_results_csv_has_a_row_per_game_and_per_bye(tournaments, referee_key):
    small_event(tournaments, referee_key)
    state = tournaments.state("cup")
    rows = list(csv.DictReader(io.StringIO(publish.results_csv(state))))
    assert len(rows) == len(state.slots()) + len(state.byes())
    forfeits = [r for r in rows if r["result"] == "russia"]
    assert forfeits and all(r["winner"] == r["russia"] and r["russia_points"] == "2" for r in forfeits)
    assert sum(1 for r in rows if r["result"] == "no result") == 1


def test_the_cross_table_names_each_opponent_by_rank_with_side_and_result(tournaments, referee_key):
    lines = small_event(tournaments, referee_key)
    state = tournaments.state("cup")
    rows = publish.cross_table(state, lines)
    ranks = {line.player: line.rank for line in lines}
    slot = next(s for s in state.slots() if state.results[s.game].result == "russia")
    japan_row = next(r for r in rows if r["player"] == slot.sides["japan"])
    assert japan_row["rounds"][slot.round - 1] == f"{ranks[slot.sides['russia']]}J-"
    assert [r["rank"] for r in rows] == [line.rank for line in lines]
    assert "U" in {cell for r in rows for cell in r["rounds"]}


class Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells = []

    def handle_data(self, data):
        if data.strip():
            self.cells.append(data.strip())


def test_the_standings_page_is_one_static_file_with_the_standings_and_the_head(tournaments, referee_key):
    lines = small_event(tournaments, referee_key)
    state = tournaments.state("cup")
    page = publish.standings_page(state, lines, "Port Arthur")
    parsed = Cells()
    parsed.feed(page)
    assert "<script" not in page and state.head in page
    order = [c for c in parsed.cells if c in {line.player for line in lines}]
    assert order[:len(lines)] == [line.player for line in lines]


def test_the_export_command_writes_every_format(tmp_path, tournaments, referee_key):
    small_event(tournaments, referee_key)
    store = str(tournaments.store.path)
    tournaments.store.close()
    runner = CliRunner()
    for fmt, marker in (("trf", "012 cup"), ("results", "round,game,japan,russia"), ("crosstable", "R1"),
                        ("html", "<!DOCTYPE html>")):
        out = tmp_path / f"cup.{fmt}"
        result = runner.invoke(app, ["tournament", "export", "cup", "--format", fmt, "-o", str(out), "--store", store])
        assert result.exit_code == 0, result.output
        assert marker in out.read_text(encoding="utf-8")
    wrong = runner.invoke(app, ["tournament", "export", "cup", "--format", "pdf", "--store", store])
    assert wrong.exit_code != 0 and "use one of csv, json, trf" in wrong.output
