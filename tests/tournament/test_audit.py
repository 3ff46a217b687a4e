"""The event's audit from public records: a whole small event verifies (results taken
from finished campaigns played by email); a tampered tournament record is caught."""

from __future__ import annotations

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from adjudicator.cli import tournament_cmds  # noqa: F401  (registers the commands)
from adjudicator.cli.app import app
from adjudicator.fairdice import records_to_jsonl, sign_record
from adjudicator.store import HistoryCorrupt
from adjudicator.tournament.audit import audit_bundle
from adjudicator.tournament.demo import run_tournament_demo
from adjudicator.tournament.export import read_bundle

from .conftest import T0, charter


def forfeit_event(tournaments, key):
    tournaments.create(charter(players=5, rounds=2), key, T0)
    for _ in range(2):
        body = tournaments.pair("cup", key, T0)
        for game in body["games"]:
            tournaments.rule("cup", game["game"], "forfeit", "test", key, T0, silent="japan")
    tournaments.close("cup", key, T0)
    records = tournaments.records("cup")
    games = {s.game: tournaments.campaigns.export_public(s.game) for s in tournaments.state("cup").slots()}
    return records, games


def test_a_whole_event_verifies_from_its_public_records(tournaments, referee_key):
    records, games = forfeit_event(tournaments, referee_key)
    audit = audit_bundle(records_to_jsonl(records), games)
    assert audit.verified, audit.problems
    assert len(audit.games) == 4


def test_a_changed_record_breaks_the_signature_and_is_named(tournaments, referee_key):
    records, games = forfeit_event(tournaments, referee_key)
    lines = records_to_jsonl(records).splitlines()
    seq = next(r.seq for r in records if r.kind == "result")
    data = json.loads(lines[seq])
    data["body"]["points"] = {player: 2 for player in data["body"]["points"]}
    lines[seq] = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    audit = audit_bundle("\n".join(lines) + "\n", games)
    assert not audit.verified
    assert audit.problems[0].startswith(f"tournament record {seq}:")


def test_pairings_the_seed_did_not_give_are_caught_even_when_signed(tournaments, referee_key):
    records, games = forfeit_event(tournaments, referee_key)
    round_seq = next(r.seq for r in records if r.kind == "round")
    forged = records[round_seq].body
    forged["pairs"] = [forged["pairs"][0][::-1], *forged["pairs"][1:]]
    resigned = list(records[:round_seq])
    resigned.append(sign_record(referee_key, round_seq, "round", forged, resigned[-1].hash))
    audit = audit_bundle(records_to_jsonl(resigned), games)
    assert not audit.verified
    assert "not what the seed and the event so far give" in audit.problems[0]


def test_a_missing_or_tampered_game_record_is_caught(tournaments, referee_key):
    records, games = forfeit_event(tournaments, referee_key)
    first = sorted(games)[0]
    audit = audit_bundle(records_to_jsonl(records), {k: v for k, v in games.items() if k != first})
    assert f"{first}: its public record is missing" in audit.problems


def test_tampering_with_the_stored_tournament_is_refused_on_reading(tmp_path, tournaments, referee_key):
    forfeit_event(tournaments, referee_key)
    path = tournaments.store.path
    tournaments.store.close()
    with sqlite3.connect(path) as db:   # someone with the file, bypassing the store's append-only triggers
        db.execute("DROP TRIGGER IF EXISTS entries_never_updated")
        db.execute("UPDATE entries SET body = replace(body, '\"forfeit\"', '\"no-result\"') "
                   "WHERE campaign = 'cup' AND kind = 'ruling'")
    from adjudicator.store import Store
    from adjudicator.tournament.service import Tournaments

    with Store.open(path) as store, pytest.raises(HistoryCorrupt):
        Tournaments(store).records("cup")


def test_the_demo_event_by_email_takes_results_from_its_campaigns_and_verifies(tmp_path):
    summary = run_tournament_demo(tmp_path / "demo", 7, {}, rounds=1)
    assert summary.verified and summary.games == 2
    audit = audit_bundle(*read_bundle(tmp_path / "demo" / "public"))
    assert audit.verified
    assert all(game["result"]["how"].startswith("End of turn") for game in audit.games)
    assert all(d.luck is not None and 0 <= d.luck <= 100 for d in audit.players.values())
    runner = CliRunner()
    result = runner.invoke(app, ["tournament", "audit", "--public", str(tmp_path / "demo" / "public")])
    assert result.exit_code == 0 and "VERIFIED" in result.output
    exported = runner.invoke(app, ["tournament", "export", "demo-cup", "--format", "json",
                                   "--store", str(tmp_path / "demo" / "campaigns.sqlite3")])
    table = json.loads(exported.output)["standings"]
    assert {row["player"] for row in table} == {"togo", "makarov", "kamimura", "witgeft"}
    assert all(row["rating"] is not None and row["answered"] > 0 for row in table)
