"""Rulings are audited: a ruling's result must follow from it and from the game's
public record (an adjudication is recomputed); a finished game's result changes only
by a ruling that says it overturns it, and the audit reports that; a game decided by a
ruling takes no more orders; ``--head`` and ``--fingerprint`` pin the record."""

from __future__ import annotations

import random

import pytest

from adjudicator.campaign.errors import CampaignOver
from adjudicator.campaign.games import support
from adjudicator.fairdice import InvalidFingerprint, fingerprint, records_to_jsonl, sign_record
from adjudicator.tournament.audit import audit_bundle, render_audit
from adjudicator.tournament.errors import LadderRefused

from .conftest import T0, charter
from .test_abandonment import one_game, passwords_of, play_steps
from .test_audit import forfeit_event


def bundle(tournaments, records=None):
    records = tournaments.records("cup") if records is None else records
    games = {s.game: tournaments.campaigns.export_public(s.game) for s in tournaments.state("cup").slots()}
    return records_to_jsonl(records), games


def resigned(records, key, seq, body):
    """The records with record ``seq``'s body replaced, it and every later record signed
    again by the referee's own key (a referee rewriting their own record)."""
    out = list(records[:seq])
    for record in records[seq:]:
        out.append(sign_record(key, record.seq, record.kind, body if record.seq == seq else record.body,
                               out[-1].hash))
    return out


@pytest.fixture
def finished_game(tournaments, referee_key):
    game = one_game(tournaments, referee_key)
    match = play_steps(tournaments, referee_key, game["game"], passwords_of(tournaments, game["game"]),
                       lambda match: match.finished)
    return game, match.state.result


def test_a_ruling_cannot_replace_a_finished_games_result_unless_it_says_it_overturns_it(
        tournaments, referee_key, finished_game):
    game, board = finished_game
    loser = next(s for s in ("japan", "russia") if s != board) if board != "draw" else "japan"
    winner_side = next(s for s in ("japan", "russia") if s != loser)
    with pytest.raises(LadderRefused, match="has ended over the board.*--overturn"):
        tournaments.rule("cup", game["game"], "forfeit", "misconduct", referee_key, T0, silent=winner_side)
    tournaments.rule("cup", game["game"], "forfeit", "used a second account", referee_key, T0,
                     silent=winner_side, overturn=True)
    assert tournaments.state("cup").results[game["game"]].result == loser

    audit = audit_bundle(*bundle(tournaments))
    assert audit.verified, audit.problems
    (ruling,) = audit.rulings
    assert ruling["overturned"] == board and ruling["reason"] == "used a second account"
    assert f"OVERTURNS the result over the board ({board})" in render_audit(audit)


def test_a_ruling_that_replaces_a_result_over_the_board_without_saying_so_fails_the_audit(
        tournaments, referee_key, finished_game):
    game, board = finished_game
    other = next(s for s in ("japan", "russia") if s != board) if board != "draw" else "japan"
    tournaments.rule("cup", game["game"], "forfeit", "misconduct", referee_key, T0,
                     silent=next(s for s in ("japan", "russia") if s != other), overturn=True)
    records = tournaments.records("cup")
    seq = next(r.seq for r in records if r.kind == "ruling")
    hidden = {k: v for k, v in records[seq].body.items() if k != "overturns"}
    audit = audit_bundle(*bundle(tournaments, resigned(records, referee_key, seq, hidden)))
    assert not audit.verified
    assert any("replaced the result over the board" in p and "without saying" in p for p in audit.problems)


def test_an_adjudication_the_position_does_not_give_fails_the_audit(tournaments, referee_key):
    game = one_game(tournaments, referee_key)
    play_steps(tournaments, referee_key, game["game"], passwords_of(tournaments, game["game"]),
               lambda match: match.state.turn >= 2)
    tournaments.rule("cup", game["game"], "adjudicate", "round over", referee_key, T0)
    assert audit_bundle(*bundle(tournaments)).verified
    records = tournaments.records("cup")
    seq = next(r.seq for r in records if r.kind == "ruling")
    ruled = records[seq].body["result"]
    forged = "japan" if ruled != "japan" else "russia"
    rewritten = resigned(records, referee_key, seq, {**records[seq].body, "result": forged})
    result = rewritten[seq + 1].body
    points = {player: 2 if side == forged else 0 for side, player in result["sides"].items()}
    rewritten = resigned(rewritten, referee_key, seq + 1, {**result, "result": forged, "points": points})
    audit = audit_bundle(*bundle(tournaments, rewritten))
    assert not audit.verified
    assert audit.problems == [f"{game['game']}: the adjudication gave {forged!r}; the position at the end of turn 1 "
                              f"gives {ruled!r} under the game's rules"]


def test_a_result_that_is_not_what_its_ruling_gave_fails_the_audit(tournaments, referee_key):
    records, games = forfeit_event(tournaments, referee_key)
    seq = next(r.seq for r in records if r.kind == "result")
    body = records[seq].body
    flipped = "japan" if body["result"] == "russia" else "russia"
    points = {player: 2 if side == flipped else 0 for side, player in body["sides"].items()}
    audit = audit_bundle(records_to_jsonl(resigned(records, referee_key, seq, {**body, "result": flipped,
                                                                              "points": points})), games)
    assert not audit.verified
    assert any("is not the" in p and "its ruling" in p for p in audit.problems)


def test_a_game_decided_by_a_ruling_takes_no_more_orders_and_steps_no_further(tournaments, referee_key):
    game = one_game(tournaments, referee_key)
    tournaments.rule("cup", game["game"], "forfeit", "asked to leave", referee_key, T0, silent="japan")
    log, match = tournaments.campaigns.match(game["game"])
    side = match.decision.side
    header = {"campaign": game["game"], "side": side, "turn": 1, "step": log.next_batch,
              "password": passwords_of(tournaments, game["game"])[side]}
    orders = support("port-arthur").commander(side, random.Random(1)).orders(match.decision, match.state, header)
    with pytest.raises(CampaignOver, match="decided by a ruling"):
        tournaments.campaigns.submit(game["game"], orders, referee_key)
    with pytest.raises(CampaignOver, match="decided by a ruling"):
        tournaments.campaigns.adjudicate(game["game"], referee_key, T0)
    assert audit_bundle(*bundle(tournaments)).verified


def test_a_bundle_cut_short_fails_the_audit_pinned_to_its_head(tournaments, referee_key):
    records, games = forfeit_event(tournaments, referee_key)
    head = records[-1].hash
    assert audit_bundle(records_to_jsonl(records), games, head=head).verified
    cut = audit_bundle(records_to_jsonl(records[:-3]), games, head=head)
    assert not cut.verified and any("cut off" in p for p in cut.problems)
    assert audit_bundle(records_to_jsonl(records[:-3]), games).verified   # unpinned, a cut record still reads well


def test_the_audit_pinned_to_another_referees_fingerprint_fails(tournaments, referee_key):
    records, games = forfeit_event(tournaments, referee_key)
    ours = fingerprint(referee_key.public_key())
    assert audit_bundle(records_to_jsonl(records), games, fingerprint_=ours.upper()).verified
    other = audit_bundle(records_to_jsonl(records), games, fingerprint_="0000 " + ours[5:])
    assert not other.verified and any("another referee's record" in p for p in other.problems)


@pytest.mark.parametrize("typed", [lambda f: f.replace(" ", ":"), lambda f: f.replace(" ", "-").upper(),
                                   lambda f: f.replace(" ", ""), lambda f: f"  {f}  "])
def test_the_audit_pinned_to_the_fingerprint_typed_with_colons_dashes_or_none_verifies(
        tournaments, referee_key, typed):
    records, games = forfeit_event(tournaments, referee_key)
    audit = audit_bundle(records_to_jsonl(records), games, fingerprint_=typed(fingerprint(referee_key.public_key())))
    assert audit.verified, audit.problems


def test_a_pinned_fingerprint_that_is_not_32_hex_digits_is_refused_not_reported_as_another_referee(
        tournaments, referee_key):
    records, games = forfeit_event(tournaments, referee_key)
    with pytest.raises(InvalidFingerprint, match="not 32 hex digits"):
        audit_bundle(records_to_jsonl(records), games, fingerprint_=fingerprint(referee_key.public_key())[:-1])


def test_the_audit_command_pinned_to_the_head_fails_a_cut_bundle(tmp_path, tournaments, referee_key):
    from typer.testing import CliRunner

    from adjudicator.cli import tournament_cmds  # noqa: F401  (registers the commands)
    from adjudicator.cli.app import app

    records, games = forfeit_event(tournaments, referee_key)
    head = records[-1].hash
    store = str(tournaments.store.path)
    tournaments.store.close()
    runner = CliRunner()
    assert runner.invoke(app, ["tournament", "export", "cup", "--public", str(tmp_path / "b"), "--store", store]).exit_code == 0
    whole = runner.invoke(app, ["tournament", "audit", "--public", str(tmp_path / "b"), "--head", head,
                                "--fingerprint", fingerprint(referee_key.public_key())])
    assert whole.exit_code == 0 and "VERIFIED" in whole.output
    colons = runner.invoke(app, ["tournament", "audit", "--public", str(tmp_path / "b"), "--head", head,
                                 "--fingerprint", fingerprint(referee_key.public_key()).replace(" ", ":")])
    assert colons.exit_code == 0 and "VERIFIED" in colons.output
    typo = runner.invoke(app, ["tournament", "audit", "--public", str(tmp_path / "b"), "--fingerprint", "24f6:ed6a"])
    assert typo.exit_code == 2 and "not 32 hex digits" in typo.output and "Traceback" not in typo.output
    bundle = tmp_path / "b" / "tournament.jsonl"
    bundle.write_text("".join(bundle.read_text().splitlines(keepends=True)[:-3]))
    cut = runner.invoke(app, ["tournament", "audit", "--public", str(tmp_path / "b"), "--head", head])
    assert cut.exit_code == 1 and "records were cut off" in cut.output
