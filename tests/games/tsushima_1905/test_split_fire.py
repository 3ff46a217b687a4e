"""The option ``split_fire`` (R-FIRE-2): by the ruling a ship fires at one target per
activation, its dice by that target's arc; with ``split_fire = true`` each arc (bow,
starboard, stern, port) may fire at a target of its own, each salvo within its arc's
dice ("1 battery forward or aft, 3 broadside") and all of them within the gunnery
maximum and the Bank. The orders language gives further salvos as further ``at``
chains, and ``in bow`` / ``in starboard`` / ``in stern`` / ``in port`` pick the arc."""

import json
import random

import pytest

from adjudicator.engine import Match
from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.match import play_out
from adjudicator.games.tsushima_1905.players import RandomPlayer, ReasonablePlayer, random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.language import CODES, read
from adjudicator.games.tsushima_1905.plans import Plans
from adjudicator.orders.problems import ProblemLog
from adjudicator.orders.text import clean

GAME = Tsushima1905()
HEADER = "campaign: c\nside: Japan\nturn: 1\npassword: x\n"
# Mikasa (a battleship: 1 die off the bow or stern, 3 on a beam, 3 gunnery points a turn)
# with Borodino dead ahead, Kniaz Suvorov on the starboard beam and Orel on the port beam.
POSITION = {"turn": 1, "phase": "action", "offense": "japan", "prime": 1, "next": "japan",
            "ship": [{"name": "Mikasa", "side": "japan", "class": "battleship", "at": [10, 10], "heading": 0},
                     {"name": "Borodino", "side": "russia", "class": "battleship", "at": [10, 16], "heading": 180},
                     {"name": "Kniaz Suvorov", "side": "russia", "class": "battleship", "at": [14, 9],
                      "heading": 0},
                     {"name": "Orel", "side": "russia", "class": "battleship", "at": [6, 9], "heading": 0},
                     {"name": "Alexander III", "side": "russia", "class": "battleship", "at": [12, 19],
                      "heading": 180}]}


def at_table(options):
    return Match(GAME, {"position": POSITION, "continuous": True}, options)


def fire_events(match):
    """Play the activation out (no real armour dice, every die a 2) and return its fire events."""
    while match.pending is not None and (match.chance is not None or match.decision.kind == "armor"):
        if match.chance is not None:
            match.supply([2] * match.chance.count)
        else:
            match.answer(match.decision.side, {"ship": match.decision.options["ship"], "dice": 0})
    return [e for e in match.events if e.kind == "fire"]


def mikasa_fires(options, fire, move=("A",)):
    match = at_table(options)
    match.answer("japan", {"ship": "Mikasa", "move": list(move), "fire": fire})
    return match


def test_split_fire_gives_each_arc_a_target_of_its_own_within_the_gunnery_maximum():
    match = mikasa_fires({"split_fire": True}, [{"target": "Kniaz Suvorov", "dice": 2},
                                                {"target": "Borodino", "dice": 1}])
    events = fire_events(match)
    assert [(e.data["target"], e.data["dice"], e.data["arc"]) for e in events] == [
        ("Kniaz Suvorov", 2, "starboard"), ("Borodino", 1, "bow")]
    assert "from its starboard arc" in events[0].text
    mikasa = match.state.ships["Mikasa"]
    assert mikasa.used_gun == 3 and mikasa.cp == 8 and mikasa.spent == 3   # the free ahead, then 3 gun dice
    assert [entry.get("arc") for entry in match.state.log if entry["kind"] == "fire"] == ["starboard", "bow"]


def test_without_split_fire_one_target_per_activation_and_the_answer_says_which_option_allows_more():
    with pytest.raises(IllegalAnswer, match="one target per activation.*split_fire"):
        mikasa_fires({}, [{"target": "Kniaz Suvorov", "dice": 2}, {"target": "Borodino", "dice": 1}])


def test_split_fire_two_targets_in_one_arc_are_refused():
    with pytest.raises(IllegalAnswer, match="an arc of its own"):
        mikasa_fires({"split_fire": True}, [{"target": "Borodino", "dice": 1},
                                            {"target": "Alexander III", "dice": 1}])


def test_split_fire_one_salvo_per_target():
    with pytest.raises(IllegalAnswer, match="more than one salvo at Kniaz Suvorov"):
        mikasa_fires({"split_fire": True}, [{"target": "Kniaz Suvorov", "dice": 2},
                                            {"target": "Suvorov", "dice": 1}])


def test_split_fire_the_salvos_together_stay_within_the_gunnery_maximum():
    with pytest.raises(IllegalAnswer, match="3 more gunnery dice this turn.*not 4"):
        mikasa_fires({"split_fire": True}, [{"target": "Kniaz Suvorov", "dice": 3},
                                            {"target": "Borodino", "dice": 1}])


def test_split_fire_each_salvo_within_its_arcs_dice_and_a_named_arc_is_kept():
    with pytest.raises(IllegalAnswer, match="an arc of its own"):
        mikasa_fires({"split_fire": True}, [{"target": "Borodino", "dice": 2}, {"target": "Orel", "dice": 1}])
    with pytest.raises(IllegalAnswer, match="an arc of its own"):
        mikasa_fires({"split_fire": True}, [{"target": "Orel", "dice": 1, "arc": "starboard"}])
    events = fire_events(mikasa_fires({"split_fire": True}, [{"target": "Orel", "dice": 1, "arc": "port"},
                                                             {"target": "Kniaz Suvorov", "dice": 2}]))
    assert [e.data["arc"] for e in events] == ["port", "starboard"]


def test_a_single_salvo_answer_is_the_same_with_or_without_split_fire():
    plain = fire_events(mikasa_fires({}, {"target": "Kniaz Suvorov", "dice": 3}))
    split = fire_events(mikasa_fires({"split_fire": True}, {"target": "Kniaz Suvorov", "dice": 3}))
    assert [e.data["hits"] for e in plain] == [e.data["hits"] for e in split] == [3]


def parse(text, options=None):
    cleaned = clean(text)
    log = ProblemLog(list(cleaned.lines), codes=CODES)
    state = None if options is None else at_table(options).state
    return read(cleaned, log, state=state), log.problems


SPLIT_ORDERS = HEADER + ("fire:\n  Mikasa: at Kniaz Suvorov in starboard, else nearest in port; "
                         "at nearest in bow; dice 2\n")


def test_split_fire_orders_read_each_at_chain_as_a_salvo_and_print_back_the_same():
    orders, problems = parse(SPLIT_ORDERS, {"split_fire": True})
    assert problems == []
    (entry,) = orders.block("fire").orders
    assert [[t.text() for t in chain] for chain in entry.chains] == [
        ["Kniaz Suvorov in starboard", "nearest in port"], ["nearest in bow"]]
    again, problems = parse(orders.canonical_text() + "password: x\n", {"split_fire": True})
    assert problems == [] and again == orders


def test_a_second_at_chain_in_a_campaign_without_split_fire_is_an_error_naming_the_option():
    _, problems = parse(SPLIT_ORDERS, {})
    assert [p.code for p in problems] == ["E409"] and "split_fire" in problems[0].message


def test_split_fire_standing_orders_fire_each_chain_from_a_free_arc():
    orders, _ = parse(SPLIT_ORDERS, {"split_fire": True})
    match = at_table({"split_fire": True})
    answer = Plans({"japan": orders})(match.decision, match.state)
    assert answer["fire"] == [{"target": "Kniaz Suvorov", "dice": 2, "arc": "starboard"},
                              {"target": "Borodino", "dice": 1, "arc": "bow"}]
    match.answer("japan", answer)
    assert len(fire_events(match)) == 2 and match.state.ships["Mikasa"].used_gun == 3


def test_split_fire_a_chain_that_finds_no_target_is_noted_and_the_others_still_fire():
    orders, problems = parse(HEADER + "fire:\n  Mikasa: at Kniaz Suvorov in starboard; at Alexander III in stern; "
                                      "at nearest in bow; dice 1\n", {"split_fire": True})
    assert problems == []
    match = at_table({"split_fire": True})
    answer = Plans({"japan": orders})(match.decision, match.state)
    assert answer["fire"] == [{"target": "Kniaz Suvorov", "dice": 1, "arc": "starboard"},
                              {"target": "Borodino", "dice": 1, "arc": "bow"}]
    assert answer["notes"] == ["Mikasa's fire \"at Alexander III in stern\" finds no enemy it can fire at now "
                               "(none in an arc it allows, from an arc not yet fired from, with guns that bear and "
                               "a clear line of fire): this salvo is not fired"]


def test_split_fire_a_chain_left_without_gunnery_dice_is_noted():
    orders, _ = parse(HEADER + "fire:\n  Mikasa: at Kniaz Suvorov in starboard; at nearest in bow\n",
                      {"split_fire": True})
    match = at_table({"split_fire": True})
    answer = Plans({"japan": orders})(match.decision, match.state)
    assert answer["fire"] == [{"target": "Kniaz Suvorov", "dice": 3, "arc": "starboard"}]
    assert answer["notes"] == ["Mikasa's fire \"at nearest in bow\" is not fired: no gunnery dice are left for it"]


def test_without_split_fire_standing_orders_fire_the_first_chain_only():
    orders, _ = parse(SPLIT_ORDERS, None)      # read without a campaign: both chains kept
    match = at_table({})
    answer = Plans({"japan": orders})(match.decision, match.state)
    assert answer["fire"] == {"target": "Kniaz Suvorov", "dice": 2}


def test_the_reasonable_player_fills_the_arcs_left_with_the_gunnery_points_left():
    match = at_table({"split_fire": True})
    decision = match.decision
    answer = ReasonablePlayer(GAME.data)(decision, match.state)
    fire = answer["fire"] if isinstance(answer["fire"], list) else [answer["fire"]]
    assert sum(f["dice"] for f in fire) == 3 and len({f["arc"] for f in fire}) == len(fire)
    match.answer("japan", answer)
    assert sum(e.data["dice"] for e in fire_events(match)) == 3


@pytest.mark.parametrize("seed", [1, 2])
def test_split_fire_random_games_end_replay_identically_and_fire_one_target_per_arc(seed):
    match = play_out(Match(GAME, {}, {"split_fire": True}), random_dice(random.Random(seed)),
                     RandomPlayer(seed, GAME.data))
    assert match.finished
    again = Match(GAME, {}, {"split_fire": True}, json.loads(json.dumps(match.history_json())))
    assert again.state.to_json() == match.state.to_json()
    activations = [e for e in match.history_json() if e.get("kind") == "activate"]
    for entry in activations:
        fire = entry["answer"]["fire"]
        salvos = fire if isinstance(fire, list) else ([] if fire == "none" else [fire])
        assert len({s["arc"] for s in salvos}) == len(salvos) <= 4
        assert len({s["target"] for s in salvos}) == len(salvos)


def test_the_report_hint_shows_split_fire_orders_only_in_a_campaign_with_the_option():
    from adjudicator.games.tsushima_1905.report import answer_hint

    assert any("one target per arc" in line for line in answer_hint(at_table({"split_fire": True}).decision))
    assert not any("one target per arc" in line for line in answer_hint(at_table({}).decision))


def test_the_sample_orders_for_both_options_read_in_a_campaign_with_them_and_not_without():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "samples" / "tsushima-1905" / "japan-orders-options.txt").read_text()
    orders, problems = parse(text, {"split_fire": True, "partial_ahead": True})
    assert problems == [] and orders.block("fire").orders[0].salvos
    _, problems = parse(text, {})
    assert {p.code for p in problems} == {"E408", "E409"}
