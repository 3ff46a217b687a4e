"""Swiss pairing properties, over whole simulated events with random results."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.tournament.draws import Draws
from adjudicator.tournament.pairing import round_robin, suggested_rounds, swiss


def perfect_matching_without_repeats(players, met) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(perfect_matching_without_repeats(rest[:i] + rest[i + 1:], met)
               for i, other in enumerate(rest) if other not in met[first])


def simulate(count: int, rounds: int, seed: bytes, results_seed: int):
    players = [f"p{i}" for i in range(count)]
    scores = {p: 0.0 for p in players}
    met = {p: set() for p in players}
    byes: list[str] = []
    outcome = random.Random(results_seed)
    history = []
    for number in range(1, rounds + 1):
        before = dict(scores)
        pairing = swiss(players, scores, met, byes, Draws("event", number, seed))
        history.append((pairing, before, {p: set(m) for p, m in met.items()}, list(byes)))
        for a, b in pairing.pairs:
            met[a].add(b)
            met[b].add(a)
            result = outcome.choice((1.0, 0.5, 0.0))
            scores[a] += result
            scores[b] += 1.0 - result
        if pairing.bye:
            byes.append(pairing.bye)
            scores[pairing.bye] += 1.0
    return players, history


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 9), seed=st.binary(min_size=32, max_size=32), results_seed=st.integers(0, 10**6))
def test_swiss_pairs_everyone_once_and_repeats_only_when_unavoidable(count, seed, results_seed):
    players, history = simulate(count, min(count - 1 + count % 2, 6), seed, results_seed)
    for pairing, _, met, byes in history:
        seated = [p for pair in pairing.pairs for p in pair] + ([pairing.bye] if pairing.bye else [])
        assert sorted(seated) == sorted(players)
        if pairing.repeats:
            field = [p for p in players if p != pairing.bye]
            candidates = [p for p in players if p not in byes] if len(players) % 2 else [None]
            assert not any(perfect_matching_without_repeats([p for p in players if p != bye], met)
                           for bye in candidates), "a repeat was made although a pairing without one existed"
            assert field


@settings(max_examples=60, deadline=None)
@given(count=st.integers(3, 11).filter(lambda n: n % 2), seed=st.binary(min_size=32, max_size=32),
       results_seed=st.integers(0, 10**6))
def test_the_bye_goes_to_the_lowest_score_group_and_never_twice(count, seed, results_seed):
    players, history = simulate(count, min(count - 1, 5), seed, results_seed)
    for pairing, scores, _, byes in history:
        assert pairing.bye is not None
        assert pairing.bye not in byes
        eligible = [scores[p] for p in players if p not in byes]
        assert scores[pairing.bye] == min(eligible)


@given(seed=st.binary(min_size=32, max_size=32))
def test_the_same_seed_gives_the_same_pairing_and_another_seed_may_not(seed):
    players = [f"p{i}" for i in range(16)]
    first = swiss(players, {}, {}, [], Draws("event", 1, seed))
    again = swiss(players, {}, {}, [], Draws("event", 1, seed))
    assert first == again


def test_rounds_suggested_by_field_size():
    assert [suggested_rounds(n) for n in (2, 4, 5, 8, 9, 64)] == [1, 2, 3, 3, 4, 6]


def test_round_robin_meets_everyone_once_with_a_rotating_bye():
    players = ["a", "b", "c", "d", "e"]
    schedule = round_robin(players)
    met = [frozenset(pair) for pairs, _ in schedule for pair in pairs]
    assert len(met) == len(set(met)) == 10
    assert sorted(bye for _, bye in schedule) == players
