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


def test_an_adjudication_whose_reason_mentions_a_forfeit_is_coded_as_played_not_forfeited(
        tournaments, referee_key):
    from adjudicator.tournament.audit import audit_bundle
    from adjudicator.fairdice import records_to_jsonl

    from .test_abandonment import one_game, passwords_of, play_steps

    game = one_game(tournaments, referee_key)
    play_steps(tournaments, referee_key, game["game"], passwords_of(tournaments, game["game"]),
               lambda match: match.state.turn >= 2)
    tournaments.rule("cup", game["game"], "adjudicate", "a forfeit by mail was offered and refused", referee_key, T0)
    state = tournaments.state("cup")
    result = state.results[game["game"]]
    assert " forfeit by " in result.how and not result.forfeit
    (record,) = [r for r in tournaments.records("cup") if r.kind == "result"]
    assert record.body["forfeit"] is False
    codes = {cell.code for row in publish.cells(state).values() for cell in row.values()}
    assert codes == ({"1", "0"} if result.result != "draw" else {"="})
    games = {s.game: tournaments.campaigns.export_public(s.game) for s in state.slots()}
    assert audit_bundle(records_to_jsonl(tournaments.records("cup")), games).verified


def test_a_forfeit_ruling_is_recorded_as_a_forfeit_and_the_audit_catches_a_result_that_hides_it(
        tournaments, referee_key):
    from adjudicator.tournament.audit import audit_bundle
    from adjudicator.fairdice import records_to_jsonl

    from .test_abandonment import one_game
    from .test_rulings_audited import resigned

    game = one_game(tournaments, referee_key)
    tournaments.rule("cup", game["game"], "forfeit", "silent", referee_key, T0, silent="japan")
    state = tournaments.state("cup")
    assert state.results[game["game"]].forfeit
    table = publish.cells(state)
    assert table[game["sides"]["japan"]][1].code == "-" and table[game["sides"]["russia"]][1].code == "+"
    records = tournaments.records("cup")
    (result,) = [r for r in records if r.kind == "result"]
    assert result.body["forfeit"] is True
    games = {s.game: tournaments.campaigns.export_public(s.game) for s in state.slots()}
    hidden = resigned(records, referee_key, result.seq, {**result.body, "forfeit": False})
    audit = audit_bundle(records_to_jsonl(hidden), games)
    assert not audit.verified and any("its ruling" in p and "is a forfeit" in p for p in audit.problems)



def test_a_sealed_games_missing_reveal_is_recorded_and_coded_as_a_forfeit(tournaments, referee_key):
    from datetime import timedelta

    from adjudicator.fairdice import SeedChain, records_to_jsonl
    from adjudicator.tournament.audit import audit_bundle

    from .test_abandonment import passwords_of

    chains: dict = {}
    create = tournaments.campaigns.create

    def create_sealed(campaign, *args, **kwargs):   # the round's game in sealed mode: each side commits a chain
        chains.update({side: SeedChain.generate(campaign, 20, owner=side) for side in ("japan", "russia")})
        return create(campaign, *args, player_chains={side: c.commitment().to_dict() for side, c in chains.items()},
                      **kwargs)

    tournaments.campaigns.create = create_sealed
    tournaments.create(charter(players=2, rounds=1), referee_key, T0)
    (game,) = tournaments.pair("cup", referee_key, T0)["games"]
    password = passwords_of(tournaments, game["game"])["japan"]
    tournaments.campaigns.submit(game["game"], f"campaign: {game['game']}\nside: japan\nturn: 1\nstep: 1\n"
                                 f"password: {password}\nreveal: {chains['japan'].reveal(1).hex()}\n"
                                 "sortie:\n  Mikasa to Tsushima\n", referee_key)
    tournaments.campaigns.adjudicate(game["game"], referee_key, now=T0 + timedelta(days=5))   # russia never reveals
    (result,) = tournaments.collect("cup", referee_key)
    assert result.result == "japan" and result.forfeit and result.how.startswith("forfeit (sealed reveal missing")
    state = tournaments.state("cup")
    table = publish.cells(state)
    assert table[game["sides"]["japan"]][1].code == "+" and table[game["sides"]["russia"]][1].code == "-"
    games = {s.game: tournaments.campaigns.export_public(s.game) for s in state.slots()}
    assert audit_bundle(records_to_jsonl(tournaments.records("cup")), games).verified


def test_a_result_taken_as_a_sealed_reveal_forfeit_is_coded_as_a_forfeit_whatever_its_how_says():
    from adjudicator.tournament.state import EventState, GameResult, GameSlot, RoundInfo

    state = EventState("hand", {"game_sides": ["japan", "russia"], "sides": "random"},
                       players={p: {"player": p} for p in "AB"})
    slot = GameSlot("g1", 1, {"japan": "A", "russia": "B"}, 1)
    state.rounds.append(RoundInfo(1, 1, "00" * 32, list("AB"), [("A", "B")], [], [], [slot], "", ""))
    for forfeit, codes in ((True, ("+", "-")), (False, ("1", "0"))):
        state.results["g1"] = GameResult("g1", 1, dict(slot.sides), "japan", "forfeit (sealed reveal missing: russia)",
                                         1, None, {"A": 2.0, "B": 0.0}, forfeit)
        table = publish.cells(state)
        assert (table["A"][1].code, table["B"][1].code) == codes
