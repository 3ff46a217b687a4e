"""Rules beyond the conformance cases: optional rules, the fog of war, illegal answers,
questions that are not asked, and the battle arithmetic. Each test is named after the
rule it proves and, where it can, runs through the conformance-case runner."""

from __future__ import annotations

import pytest

from adjudicator.engine import IllegalAnswer, Match
from adjudicator.games.port_arthur.conformance import run_case
from adjudicator.games.port_arthur.options import InvalidOption
from adjudicator.games.port_arthur.rules.battle import fire_result

TRACK = ["Yalu", "Nanshan", "Hill 203", "Port Arthur", "Liaoyang", "Mukden", "Siping"]


def ship(name, side, at, damaged=False, firepower=(4, 2), speed=(4, 3), defense=2):
    return {"name": name, "side": side, "at": at, "damaged": damaged,
            "firepower": list(firepower), "speed": list(speed), "defense": defense}


def position(phase, ships, **extra):
    return {"turn": 2, "phase": phase, "initiative": "japan", "cp": 0, "blockade": False,
            "port_arthur": "port", "track": TRACK, "occupied": 0, "landing": [], "ship": ships} | extra


def case(pos, dice=(), answers=(), expect=None, options=None, until=None):
    data = {"id": "T", "position": pos, "dice": list(dice), "answers": list(answers), "expect": expect or {}}
    if options:
        data["options"] = options
    if until:
        data["until"] = until
    return data


# -- Naval Battle B: the arithmetic of fire ---------------------------------------------


def test_fire_under_the_sfp_scores_a_hit_per_die_and_criticals_for_equal_dice():
    assert fire_result((1, 1, 2, 4, 4, 5), 28) == (fire_result((1, 1, 2, 4, 4, 5), 28).__class__(6, 2))
    assert fire_result((2, 2, 2, 5), 17).criticals == 2


def test_fire_over_the_sfp_counts_dice_from_the_highest_while_the_sum_stays_below():
    result = fire_result((4, 4, 5, 5, 5, 6), 19)
    assert (result.hits, result.criticals) == (3, 0)


def test_partial_hits_at_most_option_counts_a_running_sum_equal_to_the_sfp():
    assert fire_result((6, 5, 5, 3), 16).hits == 2
    assert fire_result((6, 5, 5, 3), 16, "at-most").hits == 3


def test_a_sum_equal_to_the_sfp_is_a_full_success():
    assert fire_result((3, 3), 6).hits == 2 and fire_result((3, 3), 6).criticals == 1


# -- illegal answers and questions not asked ----------------------------------------------


def test_an_illegal_answer_is_refused_with_a_reason_and_changes_nothing(port_arthur):
    pos = position("sortie-japan", [ship("Mikasa", "japan", "Japan", damaged=True)])
    match = Match(port_arthur, {"position": pos}, {})
    before = match.state.to_json()
    with pytest.raises(IllegalAnswer, match="damaged"):
        match.answer("japan", {"moves": {"Mikasa": "Yellow Sea"}})
    assert match.state.to_json() == before and match.history == []
    assert match.decision.kind == "sortie"


def test_hits_that_can_only_be_applied_one_way_are_not_asked():
    # one hit on a lone intact ship: it can only be flipped
    pos = position("operations", [
        ship("Mikasa", "japan", "Yellow Sea", firepower=(6, 3), speed=(5, 4)),
        ship("Novik", "russia", "Yellow Sea", firepower=(2, 1), speed=(6, 5), defense=1),
    ], initiative="russia")
    answers = [{"ask": "navo", "side": "japan", "battle": "Yellow Sea"},
               {"ask": "dice", "side": "russia", "count": 1},
               {"ask": "dice", "side": "japan", "count": 1}]
    # Russia (SS 6) fires first: 1 die of 1 <= SFP 2 -> one hit on Mikasa, flipped without a question;
    # Japan fires 1 die of 6 > SFP 3: no hit.
    problems = run_case(case(pos, dice=[5, 1, 1, 6], answers=answers,
                             expect={"ship": {"Mikasa": {"damaged": True}, "Novik": {"damaged": False}}}))
    assert problems == []


def test_a_side_with_nothing_to_do_but_pass_is_not_asked():
    pos = position("operations", [ship("Mikasa", "japan", "Japan shipyard", damaged=True),
                                  ship("Rossia", "russia", "Sea of Japan")])
    # Japan wins the roll-off but has nothing to move: it passes unasked; Russia passes; phase ends
    problems = run_case(case(pos, dice=[6, 1], answers=[{"ask": "navo", "side": "russia", "pass": True}],
                             expect={"phase": "scoring"}, until="scoring"))
    assert problems == []


# -- Naval Battle A: seizing first fire ----------------------------------------------------


def test_the_second_player_with_the_initiative_may_seize_first_fire_and_hands_the_marker_over():
    pos = position("operations", [
        ship("Mikasa", "japan", "Yellow Sea", firepower=(6, 3), speed=(3, 2), defense=3),
        ship("Novik", "russia", "Yellow Sea", firepower=(2, 1), speed=(6, 5), defense=1),
    ])
    answers = [{"ask": "navo", "side": "russia", "battle": "Yellow Sea"},
               {"ask": "seize", "side": "japan", "use": True},
               {"ask": "dice", "side": "japan", "count": 1}]
    problems = run_case(case(pos, dice=[1, 6, 1], answers=answers,
                             expect={"initiative": "russia", "ship": {"Novik": {"damaged": True}},
                                     "hits": 1}))
    # Novik, damaged with firepower 1, fires next: the run stops at its dice question
    assert problems == []


# -- Ship Movement C: leaving port with some of the ships ---------------------------------


def test_a_squadron_leaving_port_may_leave_ships_behind_and_uses_its_own_speed():
    pos = position("operations", [
        ship("Askold", "russia", "Port Arthur", speed=(5, 4)),
        ship("Sevastopol", "russia", "Port Arthur", speed=(3, 2)),
        ship("Mikasa", "japan", "Japan"),
    ])
    answers = [{"ask": "navo", "side": "russia", "move": "Port Arthur", "to": "Yellow Sea", "ships": ["Askold"]}]
    problems = run_case(case(pos, dice=[1, 6, 5], answers=answers,
                             expect={"ship": {"Askold": {"at": "Yellow Sea"}, "Sevastopol": {"at": "Port Arthur"}}}))
    assert problems == []


def test_a_squadron_at_sea_cannot_leave_ships_behind():
    pos = position("operations", [ship("Askold", "russia", "Yellow Sea"), ship("Diana", "russia", "Yellow Sea"),
                                  ship("Mikasa", "japan", "Japan")])
    answers = [{"ask": "navo", "side": "russia", "move": "Yellow Sea", "to": "Tsushima", "ships": ["Askold"]},
               {"ask": "navo", "side": "russia", "pass": True}]
    problems = run_case(case(pos, dice=[1, 6], answers=answers, expect={"rejected": 1}))
    assert problems == []


# -- Optional Rule: Attack on Port Arthur -------------------------------------------------


def test_attack_on_port_arthur_damages_half_the_die_of_ships_chosen_by_japan(port_arthur):
    match = Match(port_arthur, {}, {"attack_on_port_arthur": True})
    assert match.roll is not None and match.roll.purpose == "attack on Port Arthur"
    match.supply_dice([5])
    decision = match.decision
    assert (decision.kind, decision.side, decision.options["count"]) == ("attack", "japan", 2)
    match.answer("japan", {"ships": ["Retvizan", "Tsesarevich"]})
    for name in ("Retvizan", "Tsesarevich"):
        assert match.state.ships[name].damaged and match.state.ships[name].at == "Port Arthur shipyard"
    assert match.decision.kind == "sortie"


def test_attack_on_port_arthur_with_a_one_damages_nothing_and_asks_nothing(port_arthur):
    match = Match(port_arthur, {}, {"attack_on_port_arthur": True})
    match.supply_dice([1])
    assert match.decision.kind == "sortie"
    assert not any(s.damaged for s in match.state.ships.values())


def test_additional_ships_join_their_fleets_only_with_the_option(port_arthur):
    plain = Match(port_arthur, {}, {}).state
    extra = Match(port_arthur, {}, {"additional_ships": True}).state
    added = set(extra.ships) - set(plain.ships)
    assert {extra.ships[n].at for n in added} == {"Japan", "Port Arthur"}
    assert len(added) == 3 and len(plain.ships) == 47


# -- Optional Rule: Detonation of the mines -------------------------------------------------


def test_mines_strike_squadrons_returning_from_a_blockaded_yellow_sea():
    pos = position("return", [
        ship("Mikasa", "japan", "Yellow Sea", speed=(4, 3), defense=3),
        ship("Asahi", "japan", "Yellow Sea", speed=(5, 4), defense=3),
        ship("Fuji", "japan", "Yellow Sea", damaged=True, speed=(5, 3), defense=3),
        ship("Retvizan", "russia", "Yellow Sea", speed=(4, 3), defense=3),
    ], blockade=True)
    # Japan's squadron (SS 3, Fuji damaged) rolls 5: two ships struck; Russia (SS 4) rolls 4: none.
    answers = [{"ask": "return", "side": "russia", "ports": {"Retvizan": "Port Arthur"}},
               {"ask": "mines", "side": "japan", "ships": ["Fuji", "Mikasa"]}]
    # Fuji, already damaged, sinks; Mikasa is flipped and rolls 4 > defense 3: sunk.
    problems = run_case(case(pos, dice=[5, 4, 4], answers=answers, options={"mines": True},
                             expect={"ship": {"Fuji": {"sunk": True}, "Mikasa": {"sunk": True},
                                              "Asahi": {"damaged": False, "at": "Japan"},
                                              "Retvizan": {"at": "Port Arthur", "damaged": False}}}))
    assert problems == []


def test_without_the_mines_option_the_blockade_sets_off_no_mines():
    pos = position("return", [ship("Mikasa", "japan", "Yellow Sea")], blockade=True)
    assert run_case(case(pos, expect={"ship": {"Mikasa": {"at": "Japan", "damaged": False}}})) == []


# -- Scoring -------------------------------------------------------------------------------------


def test_the_blockade_may_be_placed_over_a_contested_yellow_sea_by_the_english_rule():
    pos = position("scoring", [ship("Mikasa", "japan", "Yellow Sea"), ship("Mikasa II", "japan", "Yellow Sea"),
                               ship("Novik", "russia", "Yellow Sea")])
    answers = [{"ask": "blockade", "side": "japan", "use": True}]
    assert run_case(case(pos, answers=answers, expect={"blockade": True}, until="return")) == []


def test_option_blockade_no_russian_ships_forbids_a_blockade_while_russian_ships_are_in_the_yellow_sea():
    pos = position("scoring", [ship("Mikasa", "japan", "Yellow Sea"), ship("Mikasa II", "japan", "Yellow Sea"),
                               ship("Novik", "russia", "Yellow Sea")], blockade=True)
    assert run_case(case(pos, expect={"blockade": False}, until="return",
                         options={"blockade": "no-russian-ships"})) == []


def test_option_track_takes_a_comma_separated_list_as_on_the_command_line(port_arthur):
    match = Match(port_arthur, {}, {"track": "Nanshan, Yalu,Hill 203,Port Arthur,Liaoyang,Mukden,Siping"})
    assert match.state.track[:2] == ["Nanshan", "Yalu"] and len(match.state.track) == 7


def test_a_kept_blockade_is_removed_when_russia_reaches_5():
    pos = position("scoring", [ship("Rossia", "russia", "Pacific Ocean")], cp=-4, blockade=True)
    assert run_case(case(pos, expect={"cp": -5, "blockade": False}, until="return")) == []


def test_port_arthur_falling_before_hill_203_sinks_the_ships_in_its_shipyard_too():
    track = ["Yalu", "Port Arthur", "Nanshan", "Hill 203", "Liaoyang", "Mukden", "Siping"]
    pos = position("scoring", [ship("Mikasa", "japan", "Yellow Sea"),
                               ship("Pobeda", "russia", "Port Arthur shipyard", damaged=True)],
                   track=track, occupied=1, landing=["Yellow Sea"], blockade=True)
    expect = {"port_arthur": "fallen", "blockade": False, "ship": {"Pobeda": {"sunk": True}}}
    answers = [{"ask": "blockade", "side": "japan", "use": True}]
    assert run_case(case(pos, answers=answers, expect=expect, until="return")) == []


def test_landings_need_meeples_in_japans_pool():
    pos = position("sortie-japan", [ship("Mikasa", "japan", "Japan")], occupied=5)
    answers = [{"ask": "sortie", "side": "japan", "moves": {}, "land": ["Yellow Sea", "Tsushima"]},
               {"ask": "sortie", "side": "japan", "moves": {}, "land": ["Tsushima"]}]
    assert run_case(case(pos, answers=answers, expect={"rejected": 1, "landing": ["Tsushima"]})) == []


# -- Arrival of the Baltic Fleet -------------------------------------------------------------


def test_turn_5_brings_the_rest_of_the_baltic_fleet_and_leaves_the_initiative_alone():
    pos = position("arrival", [ship("Oslyabya", "russia", "turn 5"), ship("Mikasa", "japan", "Japan")],
                   turn=5, initiative="japan")
    expect = {"initiative": "japan", "ship": {"Oslyabya": {"at": "Diego Suarez"}}}
    assert run_case(case(pos, expect=expect)) == []


# -- Fog of war ---------------------------------------------------------------------------------


def test_under_the_fog_of_war_ships_in_harbours_and_shipyards_stay_visible_to_both_sides(port_arthur):
    match = Match(port_arthur, {}, {"fog_of_war": True})
    japan_view = match.view("japan")
    russian_in_port_arthur = [s for s in japan_view["ships"] if s["side"] == "russia" and s["at"] == "Port Arthur"]
    assert [s["name"] for s in russian_in_port_arthur] == [s.name for s in match.state.ships_at("Port Arthur", "russia")]
    assert all("stack" not in s for s in japan_view["ships"])
    assert len(match.view(None)["ships"]) == len(match.state.ships)


def test_under_the_fog_of_war_a_side_sees_the_top_ship_and_height_of_each_enemy_squadron(port_arthur):
    pos = position("operations", [ship("Rossia", "russia", "Yellow Sea", firepower=(4, 2)),
                                  ship("Retvizan", "russia", "Yellow Sea", firepower=(7, 3)),
                                  ship("Pobeda", "russia", "Port Arthur shipyard", damaged=True),
                                  ship("Mikasa", "japan", "Tsushima")])
    match = Match(port_arthur, {"position": pos}, {"fog_of_war": True})
    seen = {s["name"]: s for s in match.view("japan")["ships"]}
    assert seen["Retvizan"]["stack"] == 2 and "Rossia" not in seen  # default: highest firepower on top
    assert "Pobeda" in seen  # a shipyard is no squadron


def test_the_owner_chooses_the_top_ship_of_each_squadron_by_a_standing_order(port_arthur):
    pos = position("operations", [ship("Rossia", "russia", "Yellow Sea", firepower=(4, 2)),
                                  ship("Retvizan", "russia", "Yellow Sea", firepower=(7, 3)),
                                  ship("Mikasa", "japan", "Tsushima")], top={"russia": ["Novik", "Rossia"]})
    match = Match(port_arthur, {"position": pos}, {"fog_of_war": True})
    seen = {s["name"] for s in match.view("japan")["ships"]}
    assert "Rossia" in seen and "Retvizan" not in seen


def test_without_the_fog_of_war_every_ship_is_visible(port_arthur):
    match = Match(port_arthur, {}, {})
    assert len(match.view("japan")["ships"]) == len(match.state.ships)


# -- options -------------------------------------------------------------------------------------


@pytest.mark.parametrize("options, message", [
    ({"minez": True}, "unknown option"),
    ({"mines": "yes"}, "true or false"),
    ({"partial_hits": "sometimes"}, "partial_hits"),
    ({"blockade": "sometimes"}, "blockade"),
    ({"track": ["Yalu"]}, "track"),
])
def test_bad_options_are_refused_with_a_clear_message(port_arthur, options, message):
    with pytest.raises(InvalidOption, match=message):
        Match(port_arthur, {}, options)
