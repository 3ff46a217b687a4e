"""FIDE's Dutch system (C.04.3) for Swiss rounds: every round of an event, with its
sides, is what FIDE's Free Pairings Checker (the caissify-pairings package's, C.04.A)
recomputes from the event's TRF file -- so the history this project hands the engine
(scores, sides played, floats, byes) is the one FIDE's rules read; and FIDE's absolute
criteria hold: no repeat opponents, no bye twice, no side three times running, sides
balanced within two."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from caissify_pairings.fpc import check_trf

from adjudicator.tournament import publish
from adjudicator.tournament.standings import compute, player_games

from .conftest import T0, charter


def finish(tournaments, key, slot, result):
    """The game's result as the tournament records a finished game's (its campaign is
    not played out: this tests the pairing, not the games)."""
    with tournaments.store.transaction("cup") as tx:
        state = tournaments._state_in(tx)
        game = state.slot(slot["game"])
        tournaments._record_result(tx, key, state, game, result, "over the board", 6, None)


def swiss_event(tournaments, key, players, rounds, seed, **event):
    rng = random.Random(seed)
    tournaments.create(charter(players=players, rounds=rounds, **event), key, T0)
    for _ in range(rounds):
        body = tournaments.pair("cup", key, T0)
        for slot in body["games"]:
            finish(tournaments, key, slot, rng.choice(["japan", "russia", "russia", "japan", "draw"]))
    return tournaments.state("cup")


@pytest.mark.parametrize("players,rounds,seed", [(8, 5, 1), (9, 5, 2), (11, 4, 3), (7, 6, 4), (12, 5, 5)])
def test_every_round_is_what_fides_pairings_checker_recomputes_from_the_trf(tournaments, referee_key,
                                                                            players, rounds, seed):
    state = swiss_event(tournaments, referee_key, players, rounds, seed)
    report = check_trf(publish.trf(state, compute(state)))
    assert report["summary"]["rounds_checked"] == rounds
    assert report["summary"]["rounds_mismatched"] == 0, [r["discrepancies"] for r in report["rounds"]]


@pytest.mark.parametrize("seed", range(4))
def test_fides_absolute_criteria_hold_over_a_whole_swiss(tournaments, referee_key, seed):
    state = swiss_event(tournaments, referee_key, 9, 6, 10 + seed)
    met = Counter(frozenset(pair) for info in state.rounds for pair in info.pairs)
    assert max(met.values()) == 1                          # no one meets an opponent twice
    assert max(Counter(state.byes()).values()) == 1        # no one gets the bye twice
    last = state.rounds[-1].number
    before_last = {p: sum(g.points for g in games if g.round < last) for p, games in player_games(state).items()}
    for player in state.players:
        # C.04.3 relaxes the side (colour) criteria in the last round for topscorers (more than half the
        # maximum score): their last round is left out
        topscorer = before_last[player] > (last - 1) * state.scoring("win") / 2
        sides = [slot_side for info in state.rounds for slot in info.games if not (topscorer and info.number == last)
                 for slot_side, who in slot.sides.items() if who == player]
        assert all(not (a == b == c) for a, b, c in zip(sides, sides[1:], sides[2:])), sides
        assert abs(sides.count("japan") - sides.count("russia")) <= 2, sides


def test_the_initial_ranking_and_colour_are_drawn_from_the_first_rounds_seed_and_recorded(tournaments, referee_key):
    state = swiss_event(tournaments, referee_key, 6, 2, 7)
    first = state.rounds[0]
    assert sorted(first.ranking) == sorted(state.players) and first.initial_colour in ("white", "black")
    assert state.rounds[1].ranking == [] and publish.pairing_numbers(state)[first.ranking[0]] == 1


def test_a_tampered_initial_ranking_fails_the_audit(tournaments, referee_key):
    from adjudicator.fairdice import records_to_jsonl
    from adjudicator.tournament.audit import audit_bundle

    from .test_rulings_audited import resigned

    swiss_event(tournaments, referee_key, 6, 1, 8)
    records = tournaments.records("cup")
    seq = next(r.seq for r in records if r.kind == "round")
    body = dict(records[seq].body)
    body["ranking"] = list(reversed(body["ranking"]))
    audit = audit_bundle(records_to_jsonl(resigned(records, referee_key, seq, body)), {})
    assert any("ranking are not what the seed and the event so far give" in p for p in audit.problems)


def test_accelerated_rounds_are_paired_as_fides_checker_pairs_them(tournaments, referee_key):
    state = swiss_event(tournaments, referee_key, 12, 4, 9, accelerated=True)
    text = publish.trf(state, compute(state))
    assert "XXA 1" in text and "XXA 2" in text
    report = check_trf(text)
    assert report["summary"]["rounds_mismatched"] == 0, [r["discrepancies"] for r in report["rounds"]]


def test_the_charter_records_the_dutch_engine_and_the_audit_names_a_different_one(tournaments, referee_key):
    from adjudicator.tournament.audit import _engine_note
    from adjudicator.tournament.dutch import engine_version

    state = swiss_event(tournaments, referee_key, 4, 1, 6)
    assert state.charter["pairing_engine"] == engine_version() and _engine_note(state) == ""
    state.charter = {**state.charter, "pairing_engine": "caissify-pairings 0.4.0"}
    assert "paired with caissify-pairings 0.4.0; this audit runs " in _engine_note(state)
