"""Templates that work: the template of every Tsushima question, sent as it is
inside an orders file, parses and answers the question; it lists the player's own
ships and fits 78 columns in the report. That the answer is the default for silence
is the contract's template check (tests/games/test_game_contract.py, TEMPLATE_GAMES)."""

from __future__ import annotations

import random

import pytest

from adjudicator.engine import Match
from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.players import RandomPlayer, random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.plans import StandingAnswers
from adjudicator.games.tsushima_1905.template import answer_template
from adjudicator.orders import parse_orders

GAME = Tsushima1905()
KINDS = ("orders", "activate", "armor", "counter-torpedo", "torpedo", "torpedo-targets", "repair")


def filled_in(decision: Decision, state) -> str:
    """An orders file of the template of ``decision``, as the report prints it."""
    lines = answer_template(decision)
    return "\n".join(["BEGIN ORDERS", "campaign: c", f"side: {decision.side.title()}", f"turn: {state.turn}",
                      "password: x", *("    " + line for line in lines), "END ORDERS"])


def answered(decision: Decision, state) -> str:
    """Whether the template answers ``decision`` now: "" when it does, else why not."""
    orders = parse_orders(filled_in(decision, state), "tsushima-1905")
    answer = StandingAnswers().answer_for(decision, state, orders)
    if answer is None:
        return "no answer"
    try:
        decision.accept(answer)
    except Exception as err:  # noqa: BLE001 -- reported by the test
        return f"{type(err).__name__}: {err}"
    return ""


def first_decisions() -> dict[str, tuple[Decision, str, str]]:
    """The first question of each kind met in seeded games (the mail cadence for
    ``orders``, continuous play for the others), each with its template's text and
    whether the template answered it there and then."""
    found: dict[str, tuple[Decision, str, str]] = {}
    for seed in range(40):
        setup = {} if seed % 2 else {"continuous": True}
        match, player, chance = Match(GAME, setup, {}), RandomPlayer(seed), random_dice(random.Random(seed))
        for _ in range(20_000):
            if match.chance is not None:
                match.supply(chance(match.chance))
                continue
            if not match.decisions:  # (a stop may ask both sides at once: each is answered in turn)
                break
            decision = match.decisions[0]
            if decision.kind not in found:
                found[decision.kind] = (decision, filled_in(decision, match.state), answered(decision, match.state))
            match.answer(decision.side, player(decision, match.state))
        if len(found) == len(KINDS):
            break
    return found


@pytest.fixture(scope="module")
def found() -> dict[str, tuple[Decision, str, str]]:
    """:func:`first_decisions`, played once for the module's tests (not at collection)."""
    return first_decisions()


@pytest.mark.parametrize("kind", KINDS)
def test_the_template_sent_as_it_is_parses_and_answers_the_question(found, kind):
    assert kind in found, f"no {kind} question was asked in the games played"
    decision, text, problem = found[kind]
    assert problem == ""
    inside = text.splitlines()[5:-1]
    assert all(len(line) <= 78 for line in inside), [line for line in inside if len(line) > 78]


@pytest.mark.parametrize("kind", ["orders", "activate"])
def test_the_turn_template_lists_the_players_own_ships(found, kind):
    decision, text, _ = found[kind]
    own = decision.options.get("ships") or [s.name for s in GAME.data.ships if s.side == decision.side]
    assert all(f"  {name}: " in text for name in own)
    assert not any(f"  {s.name}: " in text for s in GAME.data.ships if s.side != decision.side)


def an_orders_stop_after_a_sinking() -> tuple[Decision, object]:
    """The first stop of the cadence met, in seeded games, by a side that has lost a ship."""
    for seed in range(40):
        match, player, chance = Match(GAME, {}, {}), RandomPlayer(seed), random_dice(random.Random(seed))
        for _ in range(20_000):
            if match.chance is not None:
                match.supply(chance(match.chance))
                continue
            if not match.decisions:
                break
            decision = match.decisions[0]
            if decision.kind == "orders" and any(ship.status != "active"
                                                 for ship in match.state.side_ships(decision.side)):
                return decision, match.state
            match.answer(decision.side, player(decision, match.state))
    raise AssertionError("no side lost a ship before a stop in the games played")


def test_the_template_at_a_stop_lists_only_the_ships_still_in_action():
    """A sunk ship has no line in the template (sent, its line would be an order not
    used), and the ship astern of it is offered to follow the ship now ahead of it."""
    decision, state = an_orders_stop_after_a_sinking()
    text = filled_in(decision, state)
    out = [ship.name for ship in state.side_ships(decision.side) if ship.status != "active"]
    assert out and not any(f"  {name}: " in text or f"follow {name}\n" in text + "\n" for name in out), out
    assert all(f"  {ship.name}: " in text for ship in state.side_ships(decision.side) if ship.status == "active")


def test_the_template_s_example_of_an_activation_order_names_ships_in_action():
    """The example line names the side's column leaders still in action, not Mikasa and
    Idzumo once they are lost (a player copies the example)."""
    ships = ["Shikishima", "Fuji", "Asahi", "Azuma", "Tokiwa"]
    decision = Decision("japan", "orders", {"mark": None, "stop": "turn", "ships": ships}, "", lambda a: a)
    text = "\n".join(answer_template(decision))
    assert "E.g.  order: Shikishima, Azuma, others" in text
    assert "Mikasa" not in text and "Idzumo" not in text


def test_the_first_question_after_an_ace_says_a_second_pair_decides_the_torpedo_attacks(found):
    """R-TORP-1: the side without the ace chooses a normal turn (its card - 1 prime
    activations) or torpedoes, and torpedoes turn over a second pair that decides how
    many attacks, and whose: the question and its template do not promise attacks."""
    decision, text, _ = found["torpedo"]
    assert "second pair" in decision.prompt and "launch" not in decision.prompt, decision.prompt
    assert "attack(s) offered" not in text and "second pair" in text, text
