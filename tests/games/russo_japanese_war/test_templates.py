"""Templates that work: each question's template is a skeleton of orders that, sent back
as it stands, parses and answers the question as silence would -- for every decision kind
of the game, with and without the advanced naval rules, in English and as a French
reader's report prints it (its comments in French); each line fits the report."""

from __future__ import annotations

import random

import pytest

from types import SimpleNamespace

from adjudicator import games
from adjudicator.engine import Match
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.players import RandomPlayer, dice_from
from adjudicator.games.russo_japanese_war.report import answer_hint_in
from adjudicator.games.russo_japanese_war.template import answer_template
from adjudicator.i18n import words
from tests.games.templates import check_template

GAME = RussoJapaneseWar()
KINDS = ("extra-card", "move", "attacks", "support", "combat-event", "reaction", "loss", "retreat", "chain",
         "attacker-result", "advance", "card-play", "flagship", "sortie", "call-off", "intercept",
         "naval-response", "naval-damage", "akiyama", "second-fleet", "repair", "line-up")


def answered(decision, state) -> list[str]:
    """Why the template sent back as it stands does not answer ``decision`` as silence
    would (the game contract's check; empty: it does), in English and as a French reader
    gets it; checked when the question is asked."""
    plugin = games.get("russo-japanese-war")
    french = SimpleNamespace(name=plugin.name, answers=plugin.answers, report=SimpleNamespace(
        answer_hint=lambda asked: answer_hint_in(asked, words("fr"))))
    return check_template(plugin, decision, state) + [f"(French) {problem}" for problem in
                                                      check_template(french, decision, state)]


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


@pytest.fixture(scope="module")
def asked() -> dict[str, list]:
    """The questions of :func:`questions` and :func:`rare_questions`, played once for the
    module's tests (not at collection)."""
    found = questions()
    for kind, more in rare_questions().items():
        found.setdefault(kind, []).extend(more)
    return found


def test_the_games_played_ask_every_kind_of_question(asked):
    assert set(KINDS) <= set(asked), set(KINDS) - set(asked)


@pytest.mark.parametrize("kind", KINDS)
def test_the_template_sent_back_as_it_stands_answers_the_question_as_silence_would(asked, kind):
    met = asked.get(kind, [])
    assert met, f"no {kind} question was asked in the games played"
    for _decision, _state, problems in met:
        assert problems == [], "\n".join(problems)


def test_a_move_template_lists_the_units_with_their_hexes_and_ends_with_done(asked):
    decision, state, _ = asked["move"][0]
    lines = answer_template(decision)
    assert lines[0] == "move:" and lines[-1] == "  done"
    listed = " ".join(lines)
    assert all(f"{uid} at" in listed for uid in decision.options["units"][:2])


def test_a_french_template_says_its_choices_in_french_and_keeps_the_orders_lines(asked):
    french = words("fr").gettext
    for kind in ("move", "extra-card", "attacks"):
        decision, _state, _ = asked[kind][0]
        english, translated = answer_template(decision), answer_template(decision, french)
        assert [line for line in translated if not line.lstrip().startswith("#")] == \
            [line for line in english if not line.lstrip().startswith("#")]
        assert translated != english
    decision = asked["move"][0][0]
    assert any("une ligne par unité, dans l'ordre" in line for line in answer_template(decision, french))
