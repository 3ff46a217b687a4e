"""The contract every registered game keeps (adjudicator/engine/contract.py), checked
over every game in the registry and the toy card game of these tests."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from adjudicator import games
from adjudicator.engine import Decision, Match, Source, drive
from adjudicator.orders import parse_orders

from tests.games.conftest import TOY

GAME_NAMES = [*games.GAMES, *TOY]
SEEDS = range(3)


def played(plugin, options, seed):
    """A complete random game; every decision met, with the state it was asked in."""
    rng = random.Random(seed)
    chooser = plugin.player(rng)
    met: list[tuple[Decision, dict, dict]] = []

    def answer(decision, state):
        met.append((decision, json.loads(json.dumps(state.to_json())), {}))
        return chooser(decision, state)

    match = Match(plugin.game(), {}, options)
    assert drive(match, Source(chance=plugin.dice(rng), answer=answer), max_steps=100_000) == "finished"
    return match, met


def cases():
    for name, module in {**games.GAMES, **TOY}.items():
        plugin = importlib.import_module(module).plugin()  # at collection: the toy is not registered yet
        for options in plugin.sample_options:
            for seed in SEEDS:
                yield pytest.param(name, options, seed, id=f"{name}-{json.dumps(options, sort_keys=True)}-{seed}")


@pytest.mark.parametrize("name,options,seed", list(cases()))
def test_random_games_end_and_replay_to_the_same_state(name, options, seed):
    plugin = games.get(name)
    match, _ = played(plugin, options, seed)
    assert getattr(match.state, "result", "ended") is not None
    again = Match(plugin.game(), {}, options, json.loads(json.dumps(match.history_json())))
    assert again.finished and again.state.to_json() == match.state.to_json()
    if not plugin.has_secrets(options):  # a hidden request in a campaign without secrets would be published
        assert not [r for r in match.asked if r.hidden], "hidden requests under options declared without secrets"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_decision_kind_has_a_reader_a_default_a_hint_and_a_text(name):
    plugin = games.get(name)
    for options in plugin.sample_options:
        for seed in SEEDS:
            rng = random.Random(seed)
            match = Match(plugin.game(), {}, options)
            chooser = plugin.player(rng)
            while not match.finished:
                if match.chance is not None:
                    match.supply(plugin.dice(rng)(match.chance))
                    continue
                decision = match.decision
                default = plugin.answers.default_answer(decision, match.state)
                decision.accept(default)  # the default is legal (raises otherwise)
                hint = plugin.report.answer_hint(decision)
                assert hint and all(isinstance(line, str) for line in hint), decision.kind
                assert decision.kind in plugin.answers.DEFAULT_TEXT, decision.kind
                match.answer(decision.side, chooser(decision, match.state))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_canonical_orders_read_back_the_same(name):
    plugin = games.get(name)
    if plugin.commander is None:
        pytest.skip(f"{name} has no automatic orders writer")
    rng = random.Random(5)
    commanders = {side: plugin.commander(side, rng) for side in plugin.game().sides}
    match = Match(plugin.game(), {}, {})
    checked = 0
    while not match.finished and checked < 40:
        if match.chance is not None:
            match.supply(plugin.dice(rng)(match.chance))
            continue
        decision = match.decision
        text = commanders[decision.side].orders(decision, match.state,
                                                 {"campaign": "c", "side": decision.side, "turn": 1})
        orders = parse_orders(text, name, state=match.state)
        assert parse_orders(orders.canonical_text(), name, state=match.state) == orders
        checked += 1
        answer = plugin.answers.answer_for(decision, match.state, orders)
        match.answer(decision.side, answer or plugin.answers.default_answer(decision, match.state))
    assert checked


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_side_does_not_see_what_is_hidden_from_it(name):
    """With hidden information, each side's view differs from the referee's at some
    point, and never shows the answer of another side's hidden decision in a way the
    referee's view does not (the view is a restriction of the referee's)."""
    plugin = games.get(name)
    secret_options = [o for o in plugin.sample_options if plugin.has_secrets(o)]
    if not secret_options:
        pytest.skip(f"{name} has no hidden information")
    for options in secret_options:
        rng = random.Random(11)
        match = Match(plugin.game(), {}, options)
        differs = {side: False for side in plugin.game().sides}
        chooser = plugin.player(rng)
        while not match.finished:
            for side in differs:
                view = match.view(side)
                json.dumps(view)
                differs[side] |= view != match.view(None)
            if match.chance is not None:
                match.supply(plugin.dice(rng)(match.chance))
            else:
                match.answer(match.decision.side, chooser(match.decision, match.state))
        assert all(differs.values()), differs


def test_the_toy_hand_hides_the_opponents_hand():
    plugin = games.get("toy-hand")
    match = Match(plugin.game(), {}, {})
    match.supply(list(range(9)))  # the hidden shuffle: the deck stays in order
    assert match.view("red")["hands"] == {"red": ["1", "2"], "blue": 2}
    assert match.view("blue")["hands"] == {"red": 2, "blue": ["3", "4"]}
    assert match.decision.hidden and match.decision.kind == "play"


def test_the_registry_lists_the_games_and_refuses_others():
    assert "port-arthur" in games.names() and "toy-hand" in games.names()
    with pytest.raises(games.UnknownGame, match="port-arthur"):
        games.get("chess")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_stop_that_asks_several_sides_takes_their_answers_in_either_order(name):
    """A game may ask several sides at one stop (contract: ``rules``, and
    :class:`adjudicator.engine.requests.Simultaneous`): answered last side first, the
    game plays the same as answered in the order asked, and its history replays."""
    plugin = games.get(name)
    options = plugin.sample_options[0]
    ends = []
    for backwards in (False, True):
        rng = random.Random(3)
        chooser, dice = plugin.player(rng), plugin.dice(rng)
        match, together = Match(plugin.game(), {}, options), 0
        while not match.finished:
            if match.chance is not None:
                match.supply(dice(match.chance))
                continue
            asked = match.decisions
            together += len(asked) > 1
            answers = [(d.side, chooser(d, match.state)) for d in asked]
            for side, answer in (reversed(answers) if backwards else answers):
                match.answer(side, answer)
        again = Match(plugin.game(), {}, options, json.loads(json.dumps(match.history_json())))
        assert again.finished and again.state.to_json() == match.state.to_json()
        ends.append((match.state.to_json(), together))
    if not ends[0][1]:
        pytest.skip(f"{name} asks one side at a time")
    assert ends[0] == ends[1]


def _is_notes(found) -> bool:
    return isinstance(found, list) and all(
        isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(part, str) and part for part in pair)
        for pair in found)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_says_why_an_order_cannot_be_carried_out_as_name_and_reason_pairs(name):
    plugin = games.get(name)
    assert callable(getattr(plugin.answers, "why_not", None)), f"{name}'s answers have no why_not"
    rng = random.Random(7)
    commanders = {side: plugin.commander(side, rng) for side in plugin.game().sides} if plugin.commander else {}
    match = Match(plugin.game(), {}, {})
    asked = 0
    while not match.finished and asked < 60:
        if match.chance is not None:
            match.supply(plugin.dice(rng)(match.chance))
            continue
        decision = match.decision
        asked += 1
        assert plugin.answers.why_not(decision, match.state, None) == [], decision.kind
        orders = None
        if decision.side in commanders:
            text = commanders[decision.side].orders(decision, match.state,
                                                     {"campaign": "c", "side": decision.side, "turn": 1})
            orders = parse_orders(text, name, state=match.state)
            assert _is_notes(plugin.answers.why_not(decision, match.state, orders)), decision.kind
        answer = plugin.answers.answer_for(decision, match.state, orders) if orders is not None else None
        match.answer(decision.side, answer or plugin.answers.default_answer(decision, match.state))
    assert asked


def test_the_toy_hand_names_a_card_played_that_is_not_in_the_hand():
    plugin = games.get("toy-hand")
    match = Match(plugin.game(), {}, {})
    rng = random.Random(1)
    while match.chance is not None:
        match.supply(plugin.dice(rng)(match.chance))
    decision = match.decision
    missing = next(card for card in ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
                   if card not in decision.options["card"])
    orders = parse_orders(f"campaign: c\nside: {decision.side}\nplay: {missing}\n", "toy-hand")
    [(named, reason)] = plugin.answers.why_not(decision, match.state, orders)
    assert named == missing and "not in your hand" in reason
    held = decision.options["card"][0]
    orders = parse_orders(f"campaign: c\nside: {decision.side}\nplay: {held}\n", "toy-hand")
    assert plugin.answers.why_not(decision, match.state, orders) == []


#: The games whose templates are written as skeletons filled with the default answer
#: (tests/games/templates.py): every game of the registry, and the toy game. Tsushima's
#: write its defaults for silence in its own words: "auto" for the planner's best move
#: and salvo, "carry on: yes" at a stop of the cadence, "fewest cp first" and
#: "flooding first" (rulings §4.3; docs/games/tsushima-1905/rules-notes.md).
TEMPLATE_GAMES = ["port-arthur", "russo-japanese-war", "toy-hand", "tsushima-1905"]


@pytest.mark.parametrize("name", TEMPLATE_GAMES)
def test_every_template_as_printed_reads_and_answers_its_question_with_the_default(name):
    from tests.games.templates import template_problems

    plugin = games.get(name)
    problems = [p for options in plugin.sample_options for p in template_problems(plugin, options)]
    assert not problems, "\n".join(problems)
