"""The orders' words for the defaults for silence (rules-notes.md, R-AUTO-1..4): ``auto``
in ``move:`` and ``fire:`` activates a ship exactly as the default does, ``carry on:
yes`` answers a stop of the cadence as silence does and carries play past that stop
only, ``fewest cp first`` ranks torpedo targets as the default does; each reads back
from its canonical form."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from adjudicator.engine import Match
from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.answers import Element, mark_after
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.language import merge_orders
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.players import RandomPlayer, ReasonablePlayer, random_dice
from adjudicator.games.tsushima_1905.plans import StandingAnswers
from adjudicator.games.tsushima_1905.rules.gunnery import bases_on_table
from adjudicator.games.tsushima_1905.rules.movement import plan_move
from adjudicator.games.tsushima_1905.rules.table import Table
from adjudicator.orders import check_orders, parse_orders

from tests.games.tsushima_1905.test_cadence import sample_orders, step

GAME = Tsushima1905()


def orders(side: str, body: str, turn: int = 1):
    return parse_orders(f"campaign: c\nside: {side}\nturn: {turn}\npassword: x\n{body}", "tsushima-1905")


def activations(options: dict, seeds: range = range(4), per_game: int = 12):
    """Activation questions met in random games, each with the state it was asked in."""
    for seed in seeds:
        match, player, chance = Match(GAME, {"continuous": True}, options), RandomPlayer(seed), \
            random_dice(random.Random(seed))
        met = 0
        while not match.finished and met < per_game:
            if match.chance is not None:
                match.supply(chance(match.chance))
                continue
            decision = match.decisions[0]
            if decision.kind == "activate":
                met += 1
                yield decision, match.state
            match.answer(decision.side, player(decision, match.state))


def test_auto_reads_back_from_its_canonical_form():
    given = orders("Japan", "move:\n  Mikasa: auto\n  Fuji: close Orel if cp > 2, else auto\n"
                            "fire:\n  all: auto; keep 1 for repairs\n  Fuji: at nearest; auto\n"
                            "torpedo targets: fewest cp first, battleships first\ncarry on: yes\n")
    text = given.canonical_text()
    assert "  Mikasa: auto\n" in text and "  Fuji: close Orel if cp > 2, else auto\n" in text
    assert "  all: auto; keep 1 for repairs\n" in text and "  Fuji: auto\n" in text   # the last written stands
    assert "fewest cp first, battleships first" in text and "carry on:\n  yes\n" in text
    assert parse_orders(text, "tsushima-1905") == given


@pytest.mark.parametrize("options", [{}, {"split_fire": True, "partial_ahead": True}])
def test_a_ship_whose_move_and_fire_are_auto_activates_as_the_default_does(options):
    plans, default = StandingAnswers(), ReasonablePlayer()
    checked = 0
    for decision, state in activations(options):
        side = decision.side.title()
        given = plans.answer_for(decision, state, orders(side, "move:\n  all: auto\nfire:\n  all: auto\n"))
        assert given == default(decision, state)
        checked += 1
    assert checked > 20


def test_fire_auto_after_another_move_fires_the_planners_salvo_for_that_move():
    plans, default = StandingAnswers(), ReasonablePlayer()
    checked = 0
    for decision, state in activations({}, range(2)):
        given = plans.answer_for(decision, state, orders(decision.side.title(), "move:\n  all: ahead\n"
                                                                                "fire:\n  all: auto; dice 1\n"))
        if given["move"] != ["A"]:
            continue        # (an ahead that would collide is avoided)
        table = Table(state, default.data, default.geo, Options.from_json(state.options), lambda event: None)
        ship = table.ship(given["ship"])
        salvos, _ = default._best_fire(table, ship, plan_move(table, ship, [Element(0)]), default.reserve(ship),
                                       bases_on_table(table))
        wanted = "none" if not salvos else {"target": salvos[0][0].name, "dice": 1}
        assert given["fire"] == wanted
        checked += bool(salvos)
    assert checked


def test_carry_on_answers_a_stop_as_silence_does_and_carries_play_past_that_stop_only():
    match = Match(GAME)
    on_file = sample_orders(1)
    step(match, on_file)
    assert match.decision.kind == "orders"
    turn = match.state.turn
    for decision in list(match.decisions):
        sent = orders(decision.side.title(), "carry on: yes\n", turn)
        in_force = merge_orders(on_file[decision.side], sent)
        given = StandingAnswers().answer_for(decision, match.state, in_force)
        assert given["orders"] == StandingAnswers().default_answer(decision, match.state)["orders"]
        on_file[decision.side] = in_force
    step(match, on_file)                        # play goes on with the orders on file ...
    assert match.state.turn > turn and match.decision.kind == "orders"
    before = len(match.events)
    step(match, {side: o.standing() for side, o in on_file.items()})   # ... and stops at the next stop
    assert len(match.events) == before and match.decision.kind == "orders"


def test_carry_on_sent_again_for_the_same_stop_carries_nothing_further():
    decision = Decision("japan", "orders", {"mark": None, "stop": "turn"}, "", lambda answer: answer)
    sent = orders("Japan", "carry on: yes\n")
    state = Match(GAME).state
    given = StandingAnswers().answer_for(decision, state, sent)
    assert given["orders"] == mark_after(None)
    after = replace(decision, options={"mark": given["kept"], "stop": "turn"})
    assert StandingAnswers().answer_for(after, state, sent) is None


def test_fewest_cp_first_ranks_torpedo_targets_as_the_default_does():
    match = Match(GAME)
    state = match.state
    ships = [s for s in state.ships.values() if s.side == "russia"]
    for index, ship in enumerate(ships):
        ship.bank = max(0, ship.bank - index % 3)
    decision = Decision("japan", "torpedo-targets", {"attacks": 3, "ships": [s.name for s in ships]}, "",
                        lambda answer: answer)
    given = StandingAnswers().answer_for(decision, state, orders("Japan", "torpedo targets: fewest cp first\n"))
    assert given == ReasonablePlayer()(decision, state)


def test_the_receipt_says_once_how_auto_and_carry_on_are_read():
    receipt = check_orders("campaign: c\nside: Japan\nturn: 2\ncarry on: yes\nmove:\n  Mikasa: auto\n  Fuji: auto\n"
                           "fire:\n  all: auto\n", "tsushima-1905")
    assert [note.split(":")[0] for note in receipt.notes] == ["line 4", "line 6", "line 9"]
    assert "carry play on" in receipt.notes[0] and "the planner's best move" in receipt.notes[1]
    assert "the planner's salvo" in receipt.notes[2]
