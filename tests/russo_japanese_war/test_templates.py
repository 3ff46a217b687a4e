"""Templates that work: each question's template is a skeleton of orders that, sent back
as it stands, parses and answers the question as silence would -- for every decision kind
of the game, with and without the advanced naval rules; each line fits the report."""

from __future__ import annotations

import random

import pytest

from adjudicator.engine import Match
from adjudicator.games.russo_japanese_war import RussoJapaneseWar, answers
from adjudicator.games.russo_japanese_war.players import RandomPlayer, dice_from
from adjudicator.games.russo_japanese_war.skeleton import WIDTH, answer_template
from adjudicator.orders import parse_orders

GAME = RussoJapaneseWar()
KINDS = ("extra-card", "move", "attacks", "support", "combat-event", "reaction", "loss", "retreat", "chain",
         "attacker-result", "advance", "card-play", "flagship", "sortie", "call-off", "intercept",
         "naval-response", "naval-damage", "akiyama", "second-fleet", "repair", "line-up")


def answered(decision, state) -> str | None:
    """Why the template sent back as it stands does not answer ``decision`` as silence
    would (None: it does); checked when the question is asked."""
    lines = answer_template(decision)
    if any(len(line) > WIDTH for line in lines):
        return f"a line is over {WIDTH} columns: {lines}"
    text = f"campaign: c\nside: {decision.side}\nturn: {state['turn']}\n" + "\n".join(lines) + "\n"
    orders = parse_orders(text, "russo-japanese-war", state=state)
    answer = answers.answer_for(decision, state, orders)
    if answer is None:
        return f"no answer from:\n{text}"
    decision.accept(answer)
    default = answers.default_answer(decision, state)
    return None if answer == default else f"{answer} is not the default {default}:\n{text}"


def questions() -> dict[str, list]:
    """A few questions of each kind, with the state they were asked in, from random games."""
    found: dict[str, list] = {}
    for seed in range(40):
        naval = seed % 2 == 1
        rng = random.Random(seed)
        match = Match(GAME, {}, {"naval": naval})
        player = RandomPlayer(GAME, rng=rng)
        dice = dice_from(rng)
        while not match.finished:
            if match.chance is not None:
                match.supply(dice(match.chance))
                continue
            decision = match.decision
            if len(found.setdefault(decision.kind, [])) < 3:
                found[decision.kind].append((decision, match.state.to_json(), answered(decision, match.state)))
            match.answer(decision.side, player(decision, match.state))
        if all(len(found.get(kind, ())) >= 3 for kind in KINDS):
            break
    return found


def rare_questions() -> dict[str, list]:
    """The kinds random games seldom ask, from positions made for them."""
    found = {}
    match = Match(GAME, {"position": {
        "turn": 3, "phase": "russia-card-play", "map": {"hexes": "0101-0303"},
        "unit": [{"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0101"}],
        "cards": {"deck": [], "discard": [], "hands": {"russia": ["#06"], "japan": ["#01", "#04"]}}}})
    match.answer("russia", {"event": "#06", "units": []})
    found["reaction"] = [(match.decision, match.state.to_json(), answered(match.decision, match.state))]
    match = Match(GAME, {"position": {
        "turn": 3, "phase": "russia-combat", "map": {"hexes": ["0302", "0303", "0304", "0305"]},
        "unit": [{"id": "R1", "side": "russia", "strength": 5, "ma": 2, "at": "0302"},
                 {"id": "J1", "side": "japan", "strength": 2, "ma": 3, "at": "0303"},
                 {"id": "J2", "side": "japan", "strength": 2, "ma": 3, "at": "0304"},
                 {"id": "J3", "side": "japan", "strength": 2, "ma": 3, "at": "0304"}],
        "cards": {"deck": [], "discard": [], "hands": {}}}})
    match.answer("russia", {"declare": [{"target": "0303", "with": ["R1"]}]})
    match.supply([4])                                    # +3, die 4: DR; J1's only hex is full
    found["chain"] = [(match.decision, match.state.to_json(), answered(match.decision, match.state))]
    state = GAME.new_state({}, {"naval": True})
    state.update(turn=3, phase="russia-card-play", deck_shuffled=True)
    state["naval"]["ships"]["Izumo"]["steps"] = 0
    from adjudicator.games.russo_japanese_war.rules import naval
    decision = next(naval.repairs(GAME.table(state), set()))
    found["second-fleet"] = [(decision, state.to_json(), answered(decision, state))]
    return found


QUESTIONS = questions()
for _kind, _asked in rare_questions().items():
    QUESTIONS.setdefault(_kind, []).extend(_asked)


def test_the_games_played_ask_every_kind_of_question():
    assert set(KINDS) <= set(QUESTIONS), set(KINDS) - set(QUESTIONS)


@pytest.mark.parametrize("kind", KINDS)
def test_the_template_sent_back_as_it_stands_answers_the_question_as_silence_would(kind):
    for _decision, _state, problem in QUESTIONS.get(kind, ()):
        assert problem is None, problem


def test_a_move_template_lists_the_units_with_their_hexes_and_ends_with_done():
    decision, state, _ = QUESTIONS["move"][0]
    lines = answer_template(decision)
    assert lines[0] == "move:" and lines[-1] == "  done"
    listed = " ".join(lines)
    assert all(f"{uid} at" in listed for uid in decision.options["units"][:2])
