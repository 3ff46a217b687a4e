"""The advanced naval rules (11.0), one rule at a time, driving the rules' own steps with
chosen answers and dice; then whole random games with the option."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from adjudicator.engine import Match
from adjudicator.engine.errors import GameDataError, IllegalAnswer
from adjudicator.engine.requests import Decision, Roll
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.plans import OrdersPlayer
from adjudicator.games.russo_japanese_war.data import JAPAN, RUSSIA
from adjudicator.games.russo_japanese_war.language import to_blocks
from adjudicator.games.russo_japanese_war.language.reader import read_orders
from adjudicator.games.russo_japanese_war.players import RandomPlayer, ReasonablePlayer, dice_from
from adjudicator.games.russo_japanese_war.rules import card_play, naval
from adjudicator.orders.problems import OrdersError
from tests.games.russo_japanese_war.test_random_games import check_invariants

GAME = RussoJapaneseWar()
NAVAL = {"naval": True}
PA = ["Tsesarevich", "Retvizan", "Petropavlovsk", "Poltava", "Sevastopol", "Peresvet", "Pobeda"]


def table(hands=None, flagship="Petropavlovsk"):
    state = GAME.new_state({}, NAVAL)
    state.update(turn=3, phase="russia-card-play", deck_shuffled=True)
    deck = state["cards"]["deck"]
    for side, cards in (hands or {}).items():
        for card in cards:
            deck.remove(card)
        state["cards"]["hands"][side] = list(cards)
    state["naval"]["flagship"] = flagship
    events = []
    return GAME.table(state, events.append), events


def drive(steps, answers=None, dice=()):
    """Run a rules generator: each Decision answered from ``answers`` (kind -> answer or
    list of answers, checked by the decision itself), each Roll from ``dice``."""
    answers = {k: (list(v) if isinstance(v, list) else [v]) for k, v in (answers or {}).items()}
    dice = list(dice)
    asked, rolled = [], []
    reply = None
    try:
        while True:
            request = steps.send(reply)
            if isinstance(request, Decision):
                asked.append(request)
                queue = answers[request.kind]
                reply = request.accept(queue.pop(0) if len(queue) > 1 else queue[0])
            elif isinstance(request, Roll):
                rolled.append(request)
                reply = tuple(dice.pop(0) for _ in range(request.count))
            else:
                reply = None
    except StopIteration:
        pass
    return asked, rolled


def steps_of(t, sid):
    return t.s["naval"]["ships"][sid]["steps"]


# -- 11.0, 11.1 ----------------------------------------------------------------------------------

def test_the_naval_option_gives_each_side_its_fleets_of_two_step_ships():
    state = GAME.new_state({}, NAVAL)
    fleets = Counter((s["side"], s["fleet"]) for s in state["naval"]["ships"].values())
    assert fleets == {(JAPAN, "first"): 6, (JAPAN, "second"): 1, (RUSSIA, "port_arthur"): 7,
                      (RUSSIA, "vladivostok"): 1}
    assert {s["steps"] for s in state["naval"]["ships"].values()} == {2}
    assert "naval" not in GAME.new_state({}, {})


def test_the_naval_option_starts_only_from_the_rulebook_set_up():
    with pytest.raises(GameDataError, match="rulebook's set-up"):
        GAME.new_state({"position": {"turn": 2}}, NAVAL)


def test_under_the_naval_rules_the_six_naval_halves_are_not_events():
    t, _ = table({RUSSIA: ["#01", "#05", "#06", "#07"], JAPAN: ["#03", "#04"]})
    for card in ("#01", "#05", "#06"):
        assert "11.0" in card_play.event_playable(t, RUSSIA, card)
    assert "11.0" in card_play.event_playable(t, JAPAN, "#03")
    assert "11.0" not in (card_play.event_playable(t, RUSSIA, "#07") or "")


# -- 11.2 sorties ------------------------------------------------------------------------------

def test_without_a_sortie_nothing_happens_but_repairs():
    t, _ = table()
    t.s["naval"]["ships"]["Retvizan"]["steps"] = 1
    t.s["naval"]["ships"]["Poltava"]["steps"] = 1
    asked, _ = drive(naval.sorties(t), {"sortie": {"sortie": False}, "repair": {"ships": ["Poltava"]}})
    assert [d.kind for d in asked] == ["sortie", "repair"]      # A67: the owner chooses the one repaired
    assert asked[1].options == {"fleet": "port_arthur", "ships": ["Retvizan", "Poltava"], "count": 1}
    assert JAPAN not in t.s["limits"]
    assert steps_of(t, "Retvizan") == 1 and steps_of(t, "Poltava") == 2


def test_a_sortie_needs_no_card_but_may_use_number_1_or_6():
    t, _ = table({RUSSIA: ["#06"]})
    asked, _ = drive(naval.sorties(t), {"sortie": {"sortie": True, "card": "#06"}, "call-off": {"continue": True},
                                        "intercept": {"intercept": False}})
    assert "#06" in t.cards["discard"] and not t.hand(RUSSIA)
    with pytest.raises(IllegalAnswer):
        asked[0].accept({"sortie": True, "card": "#07"})


def test_blockade_removes_half_a_die_rounded_up_and_mines_a_die_japan_choosing_the_ships():
    t, _ = table({JAPAN: ["#01", "#03"]})
    answers = {"sortie": {"sortie": True}, "naval-response": {"blockade": True, "mines": True},
               "naval-damage": [{"ships": ["Retvizan", "Retvizan", "Poltava"]},
                                {"ships": ["Tsesarevich", "Pobeda"]}],
               "call-off": {"continue": False}}
    asked, rolled = drive(naval.sorties(t), answers, dice=[5, 2])
    damage = [d for d in asked if d.kind == "naval-damage"]
    assert [d.options["steps"] for d in damage] == [3, 2]          # 5 halved rounded up; 2
    assert steps_of(t, "Retvizan") == 0 and steps_of(t, "Poltava") == 1
    assert steps_of(t, "Tsesarevich") == 1 and steps_of(t, "Pobeda") == 1
    assert set(t.cards["discard"]) == {"#01", "#03"}
    assert JAPAN not in t.s["limits"]                              # 11.2.3: called off
    with pytest.raises(IllegalAnswer, match="only"):
        damage[0].accept({"ships": ["Sevastopol", "Sevastopol", "Sevastopol"]})


def test_unhurt_sortied_ships_cut_the_japanese_hand_limit_and_3_stop_home_transport():
    t, _ = table()
    morale = t.s["morale"][RUSSIA]
    drive(naval.sorties(t), {"sortie": {"sortie": True}, "call-off": {"continue": True},
                             "intercept": {"intercept": False}})
    assert t.s["limits"][JAPAN] == 1 and t.s["naval"]["home_blocked"]
    assert t.s["morale"][RUSSIA] == min(6, morale + 1)             # 11.5 Makarov afloat, 3+ unhurt


@pytest.mark.parametrize("unhurt,limit", [(1, 2), (2, 1), (3, 1)])
def test_the_hand_limit_is_three_less_one_per_unhurt_ship_at_least_one(unhurt, limit):
    t, _ = table()
    for sid in PA[unhurt:]:
        t.s["naval"]["ships"][sid]["steps"] = 1
    assert naval.transport_interference(t)
    assert t.s["limits"][JAPAN] == limit
    assert t.s["naval"]["home_blocked"] == (unhurt >= 3)


def test_home_islands_transport_is_refused_while_blocked():
    t, _ = table()
    home = next(uid for uid in t.units_of(JAPAN) if t.units[uid]["at"] == "home")
    assert card_play.transport_destinations(t, JAPAN, home)
    t.s["naval"]["home_blocked"] = True
    assert card_play.transport_destinations(t, JAPAN, home) == []


def test_the_vladivostok_fleet_needs_number_5_and_is_intercepted_only_with_akiyama():
    t, _ = table({RUSSIA: ["#05"], JAPAN: ["#04"]})
    answers = {"sortie": [{"sortie": False}, {"sortie": True}], "intercept": {"intercept": True}}
    asked, rolled = drive(naval.sorties(t), answers, dice=[6, 6, 6, 6])
    assert [d.kind for d in asked] == ["sortie", "sortie", "intercept"]
    assert set(t.cards["discard"]) == {"#04", "#05"}
    assert [r.purpose for r in rolled] == ["gunfire of Izumo", "gunfire of Rossia"]
    assert t.s["limits"][JAPAN] == 2                                # 11.2.8: Rossia unhurt


def test_akiyama_spent_on_the_second_fleet_sortie_leaves_that_battle_simultaneous():
    """A66: #4 is played once; intercepting with it (11.2.7) spends it, so the Vladivostok
    battle's fire is simultaneous: Rossia, sunk by Izumo's dice, still fires back."""
    t, _ = table({RUSSIA: ["#05"], JAPAN: ["#04"]})
    answers = {"sortie": [{"sortie": False}, {"sortie": True}], "intercept": {"intercept": True}}
    asked, rolled = drive(naval.sorties(t), answers, dice=[1, 1, 1, 6])
    assert "akiyama" not in [d.kind for d in asked]
    assert [r.purpose for r in rolled] == ["gunfire of Izumo", "gunfire of Rossia"]
    assert steps_of(t, "Rossia") == 0 and steps_of(t, "Izumo") == 1


def test_by_default_a_port_arthur_sortie_needs_no_card_and_reports_say_so():
    t, _ = table()
    asked, _ = drive(naval.sorties(t), {"sortie": {"sortie": True}, "call-off": {"continue": True},
                                        "intercept": {"intercept": False}})
    assert asked[0].options["needs_card"] is False
    assert "without a card" in naval.sortie_reading(t.s)


def test_option_sortie_needs_card_asks_nothing_without_number_1_or_6_and_refuses_a_sortie_without_one():
    """A65: option ``sortie_needs_card`` reads A41's flagged slip."""
    state = GAME.new_state({}, {"naval": True, "sortie_needs_card": True})
    assert "needs card #1 or #6" in naval.sortie_reading(state)
    t, _ = table()
    t.s["options"]["sortie_needs_card"] = True
    asked, _ = drive(naval.sorties(t), {})
    assert asked == []
    t.s["cards"]["hands"][RUSSIA] = ["#06"]
    t.s["cards"]["deck"].remove("#06")
    request = next(naval.sorties(t))
    assert request.options["needs_card"] is True and "needs a card" in request.prompt
    with pytest.raises(IllegalAnswer, match="sortie_needs_card"):
        request.accept({"sortie": True})
    assert request.accept({"sortie": True, "card": "#06"}) == {"sortie": True, "card": "#06"}


def test_option_sortie_needs_card_needs_the_naval_option():
    with pytest.raises(GameDataError, match="naval"):
        GAME.new_state({}, {"sortie_needs_card": True})


def test_without_number_5_the_vladivostok_fleet_stays_in_port():
    t, _ = table()
    asked, _ = drive(naval.sorties(t), {"sortie": {"sortie": False}})
    assert [d.options["fleet"] for d in asked] == ["port_arthur"]


def test_the_vladivostok_interference_has_no_effect_after_the_port_arthur_fleets():
    t, events = table({RUSSIA: ["#05"]})
    for sid in PA[1:]:
        t.s["naval"]["ships"][sid]["steps"] = 1                  # one unhurt: limit 2
    drive(naval.sorties(t), {"sortie": {"sortie": True}, "call-off": {"continue": True},
                             "intercept": {"intercept": False}})
    assert t.s["limits"][JAPAN] == 2
    assert any("no effect" in e.text for e in events)


# -- 11.3 battles ---------------------------------------------------------------------------------

def test_the_line_up_pairs_one_to_one_and_surplus_ships_two_before_a_third():
    assert naval.line_up(["a", "b", "c", "d", "e"], ["X", "Y"]) == {"a": "X", "b": "Y", "c": "X", "d": "Y", "e": "X"}
    t, _ = table()
    t.s["naval"]["ships"]["Tsesarevich"]["steps"] = 1
    assert naval.line(t, "port_arthur")[-1] == "Tsesarevich"   # damaged ships behind the unhurt


def test_each_owner_orders_his_line_unhurt_ships_first():
    """A43: the owner orders his unhurt ships, then his damaged ones; asked only when a
    group holds more than one ship."""
    t, events = table()
    ships = t.s["naval"]["ships"]
    for sid in PA[2:]:
        ships[sid]["steps"] = 0                                    # Tsesarevich, Retvizan left
    for sid in ("Shikishima", "Hatsuse", "Fuji", "Yashima"):
        ships[sid]["steps"] = 0                                    # Mikasa, Asahi left
    answers = {"line-up": [{"order": ["Tsesarevich", "Retvizan"]}, {"order": ["Asahi", "Mikasa"]}]}
    asked, _ = drive(naval.battle(t, "port_arthur", "first"), answers, dice=[6] * 8)
    assert [(d.side, d.options["unhurt"]) for d in asked] == [
        (RUSSIA, ["Retvizan", "Tsesarevich"]), (JAPAN, ["Mikasa", "Asahi"])]     # the default order
    battle = next(e for e in events if e.kind == "naval-battle")
    assert battle.data["aims"]["Asahi"] == "Tsesarevich" and battle.data["aims"]["Mikasa"] == "Retvizan"
    with pytest.raises(IllegalAnswer):
        asked[0].accept({"order": ["Retvizan"]})


def test_the_line_order_of_standing_orders_and_its_default():
    t, _ = table()
    ships = t.s["naval"]["ships"]
    ships["Poltava"]["steps"] = 1
    request = next(naval.order_line(t, RUSSIA, "port_arthur", naval.line(t, "port_arthur"), ["Mikasa"]))
    orders = read_orders("campaign: c\nside: Russia\nturn: 3\nnaval: line Pobeda, Poltava\n")
    answer = OrdersPlayer(GAME, orders)(request, t.s)
    assert answer["order"][0] == "Pobeda" and answer["order"][-1] == "Poltava"
    default = OrdersPlayer(GAME, None)(request, t.s)
    assert default["order"] == naval.line(t, "port_arthur")
    assert request.accept(answer) and request.accept(default)


def test_gunfire_one_die_per_step_hits_at_or_under_strength_simultaneous_excess_lost():
    t, _ = table()
    for sid in PA[1:]:
        t.s["naval"]["ships"][sid]["steps"] = 0
    for sid in ("Asahi", "Shikishima", "Hatsuse", "Fuji", "Yashima"):
        t.s["naval"]["ships"][sid]["steps"] = 0
    # Mikasa (3) against Tsesarevich (2): Mikasa rolls 1, 2 (two hits, sinks), Tsesarevich fires back all the same
    asked, rolled = drive(naval.battle(t, "port_arthur", "first"), {}, dice=[1, 2, 2, 6])
    assert [r.count for r in rolled] == [2, 2]
    assert steps_of(t, "Tsesarevich") == 0 and steps_of(t, "Mikasa") == 1


def test_akiyama_makes_japanese_gunfire_first_so_a_sunk_ship_does_not_fire():
    t, _ = table({JAPAN: ["#04"]})
    for sid in PA[1:]:
        t.s["naval"]["ships"][sid]["steps"] = 0
    for sid in ("Asahi", "Shikishima", "Hatsuse", "Fuji", "Yashima"):
        t.s["naval"]["ships"][sid]["steps"] = 0
    asked, rolled = drive(naval.battle(t, "port_arthur", "first"),
                          {"akiyama": {"play": True}}, dice=[1, 1])
    assert [d.kind for d in asked] == ["akiyama"] and len(rolled) == 1
    assert steps_of(t, "Mikasa") == 2 and "#04" in t.cards["discard"]


# -- 11.4 repairs -------------------------------------------------------------------------------

def test_repairs_port_arthur_one_first_fleet_two_second_one_vladivostok_none():
    t, _ = table()
    ships = t.s["naval"]["ships"]
    for sid in ("Retvizan", "Poltava", "Mikasa", "Asahi", "Fuji", "Izumo", "Rossia"):
        ships[sid]["steps"] = 1
    asked, _ = drive(naval.repairs(t, set()), {"repair": [{"ships": ["Poltava"]}, {"ships": ["Asahi", "Fuji"]}]})
    assert [(d.side, d.options["fleet"]) for d in asked] == [(RUSSIA, "port_arthur"), (JAPAN, "first")]
    assert [ships[s]["steps"] for s in ("Retvizan", "Poltava")] == [1, 2]
    assert [ships[s]["steps"] for s in ("Mikasa", "Asahi", "Fuji")] == [1, 2, 2]
    assert ships["Izumo"]["steps"] == 2 and ships["Rossia"]["steps"] == 1      # no choice: not asked


def test_repairs_default_to_the_strongest_damaged_ships():
    t, _ = table()
    ships = t.s["naval"]["ships"]
    for sid in ("Retvizan", "Poltava", "Mikasa", "Asahi", "Fuji"):
        ships[sid]["steps"] = 1
    player = OrdersPlayer(GAME, None)
    steps = naval.repairs(t, set())
    request = next(steps)
    while True:
        try:
            request = steps.send(request.accept(player(request, t.s)))
        except StopIteration:
            break
    assert [ships[s]["steps"] for s in ("Retvizan", "Poltava")] == [2, 1]
    assert [ships[s]["steps"] for s in ("Mikasa", "Asahi", "Fuji")] == [2, 2, 1]


def test_a_repair_answer_names_only_damaged_ships_of_the_fleet_and_no_more_than_it_repairs():
    t, _ = table()
    ships = t.s["naval"]["ships"]
    for sid in ("Retvizan", "Poltava"):
        ships[sid]["steps"] = 1
    request = next(naval.repairs(t, set()))
    for wrong in ({"ships": ["Retvizan", "Poltava"]}, {"ships": ["Pobeda"]}, {"ships": "Poltava"}):
        with pytest.raises(IllegalAnswer):
            request.accept(wrong)


def test_a_fleet_that_sortied_is_not_repaired():
    t, _ = table()
    t.s["naval"]["ships"]["Retvizan"]["steps"] = 1
    drive(naval.repairs(t, {"port_arthur"}))
    assert steps_of(t, "Retvizan") == 1


def test_an_undamaged_first_fleet_ship_may_be_withdrawn_to_bring_the_second_fleet_back():
    t, _ = table()
    t.s["naval"]["ships"]["Izumo"]["steps"] = 0
    asked, _ = drive(naval.repairs(t, set()), {"second-fleet": {"withdraw": "Fuji"}})
    assert steps_of(t, "Izumo") == 2 and steps_of(t, "Fuji") == 0


def test_the_second_fleet_returns_before_any_repair_and_even_after_the_first_fleet_sortied():
    """A67: the choice comes at the start of the Repair Phase, whether or not the First
    Fleet sortied; the ship withdrawn is one undamaged at that moment (a ship repaired in
    this phase is not yet undamaged)."""
    t, _ = table()
    ships = t.s["naval"]["ships"]
    ships["Izumo"]["steps"] = 0
    for sid in ("Mikasa", "Asahi", "Shikishima", "Hatsuse", "Yashima"):
        ships[sid]["steps"] = 1
    asked, _ = drive(naval.repairs(t, {"first"}), {"second-fleet": {"withdraw": "Fuji"}})
    assert [d.kind for d in asked] == ["second-fleet"]
    assert asked[0].options["ships"] == ["Fuji"]
    assert steps_of(t, "Izumo") == 2 and steps_of(t, "Fuji") == 0


# -- 11.5 Makarov, 11.6 Port Arthur ----------------------------------------------------------

def test_the_flagship_sunk_is_revealed_and_costs_russia_a_morale_point():
    t, events = table(flagship="Poltava")
    morale = t.s["morale"][RUSSIA]
    naval.damage(t, "Retvizan", 2, "test")
    assert t.s["morale"][RUSSIA] == morale and not t.s["naval"]["revealed"]
    naval.damage(t, "Poltava", 3, "test")
    assert t.s["morale"][RUSSIA] == morale - 1 and t.s["naval"]["revealed"]
    assert any(e.kind == "flagship-revealed" and "Poltava" in e.text for e in events)


def test_the_flagship_is_chosen_by_a_hidden_decision_and_only_russia_sees_it():
    match = Match(GAME, {}, NAVAL)
    rng = random.Random(3)
    while match.decision is None or match.decision.kind != "flagship":
        match.supply(dice_from(rng)(match.chance)) if match.chance is not None else \
            match.answer(match.decision.side, RandomPlayer(GAME, rng=rng)(match.decision, match.state))
    assert match.decision.hidden and match.decision.side == RUSSIA
    with pytest.raises(IllegalAnswer):
        match.decision.accept({"ship": "Mikasa"})
    match.answer(RUSSIA, {"ship": "Pobeda"})
    assert match.view(RUSSIA)["naval"]["flagship"] == "Pobeda"
    assert match.view(JAPAN)["naval"]["flagship"] is None
    assert match.view(None)["naval"]["flagship"] is None


def test_port_arthur_japanese_eliminates_the_port_arthur_fleet_without_the_flagship_penalty():
    t, _ = table(flagship="Retvizan")
    morale = t.s["morale"][RUSSIA]
    pa = t.board.port_arthur()
    uid = next(uid for uid in t.units_of(JAPAN))
    for other in t.occupants(pa):
        t.place(other, "eliminated")
    t.enter(uid, pa)
    assert not naval.afloat(t, "port_arthur") and t.s["naval"]["pa_eliminated"]
    assert t.s["morale"][RUSSIA] == morale - 1                      # the key location only (4.3.1)
    assert not t.s["naval"]["revealed"]


def test_with_two_or_fewer_unhurt_port_arthur_ships_japan_may_land_in_every_harbour():
    t, _ = table()
    before = set(card_play.landing_harbours(t))
    for sid in PA[2:]:
        t.s["naval"]["ships"][sid]["steps"] = 1
    after = set(card_play.landing_harbours(t))
    assert before < after


# -- orders ---------------------------------------------------------------------------------

NAVAL_ORDERS = """campaign: c
side: {side}
turn: 2
naval:
  flagship petropavlovsk
  sortie port arthur using 6; sortie vladivostok
  call off below 3
  intercept port-arthur
  mines; blockade
  akiyama
  hit Retvizan, Tsesarevich
  withdraw Fuji
"""


def test_the_naval_block_reads_back_the_same_from_its_canonical_text():
    orders = read_orders(NAVAL_ORDERS.format(side="russia"))
    plan = orders.naval
    assert plan.flagship == "Petropavlovsk" and plan.sorties == ("port-arthur", "vladivostok")
    assert plan.sortie_card == "#06" and plan.call_off_below == 3 and plan.strikes == ("mines", "blockade")
    (block,) = to_blocks(orders, {"naval"})
    text = "campaign: c\nside: russia\nturn: 2\n" + "\n".join(block.canonical_lines()) + "\n"
    assert read_orders(text).naval == plan


def test_an_unknown_ship_is_refused_with_a_suggestion():
    with pytest.raises(OrdersError) as err:
        read_orders("campaign: c\nside: russia\nturn: 2\nnaval: flagship Petropavlosk\n")
    assert "Petropavlovsk" in str(err.value.problems)


def test_the_naval_standing_orders_answer_the_naval_questions():
    t, _ = table({JAPAN: ["#01"], RUSSIA: ["#06"]})
    russia = OrdersPlayer(GAME, read_orders(NAVAL_ORDERS.format(side="russia")))
    japan = OrdersPlayer(GAME, read_orders(NAVAL_ORDERS.format(side="japan")))
    players = {RUSSIA: russia, JAPAN: japan}
    steps = naval.sorties(t)
    reply, kinds = None, []
    try:
        while True:
            request = steps.send(reply)
            if isinstance(request, Decision):
                kinds.append(request.kind)
                reply = request.accept(players[request.side](request, t.s))
            elif isinstance(request, Roll):
                reply = (2,) * request.count
            else:
                reply = None
    except StopIteration:
        pass
    assert kinds[:3] == ["sortie", "naval-response", "naval-damage"]
    assert steps_of(t, "Retvizan") == 1                               # hit first; die 2 -> 1 step
    assert "#06" in t.cards["discard"] and "#01" in t.cards["discard"]


def test_silent_players_get_the_documented_defaults():
    t, _ = table()
    silent = OrdersPlayer(GAME, None)
    flagship = Decision(RUSSIA, "flagship", {"ships": PA}, "", lambda a: a, hidden=True)
    assert silent(flagship, t.s) == {"ship": "Tsesarevich"}
    sortie = Decision(RUSSIA, "sortie", {"fleet": "port_arthur", "cards": []}, "", lambda a: a)
    assert silent(sortie, t.s) == {"sortie": False, "card": None}


# -- whole games ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["random", "reasonable"])
def test_whole_games_with_the_naval_rules_keep_the_invariants_and_replay(kind):
    player = RandomPlayer if kind == "random" else ReasonablePlayer
    for seed in range(6):
        match = Match(GAME, {}, NAVAL)
        players = {JAPAN: player(GAME, seed), RUSSIA: player(GAME, seed + 101)}
        dice = dice_from(random.Random(seed))
        while not match.finished:
            if match.chance is not None:
                match.supply(dice(match.chance))
            else:
                match.answer(match.decision.side, players[match.decision.side](match.decision, match.state))
            check_invariants(match.state)
            for ship in match.state["naval"]["ships"].values():
                assert 0 <= ship["steps"] <= 2
        state = match.state
        assert state["result"] in (JAPAN, RUSSIA, "draw") and state["naval"]["revealed"]
        replayed = Match(GAME, {}, NAVAL, json.loads(json.dumps(match.history_json())))
        assert json.dumps(replayed.state, sort_keys=True) == json.dumps(state, sort_keys=True)


def test_the_report_lists_the_fleets_and_shows_makarov_only_to_russia():
    from adjudicator.games.russo_japanese_war.report import render_report
    state = GAME.new_state({}, NAVAL)
    state["naval"]["flagship"] = "Pobeda"
    state["naval"]["ships"]["Retvizan"]["steps"] = 1
    russian_text, russian_html = render_report(GAME, state, RUSSIA)
    japanese_text, japanese_html = render_report(GAME, state, JAPAN)
    assert "Pobeda (Makarov) 1 undamaged" in russian_text and "Pobeda (Makarov)" in russian_html
    assert "Retvizan 2 damaged" in japanese_text
    assert "Makarov" not in japanese_text and "Makarov" not in japanese_html
    assert "Fleets" not in render_report(GAME, GAME.new_state({}, {}), JAPAN)[0]


def test_a_naval_campaign_says_at_its_start_which_reading_of_the_sortie_rule_it_uses():
    """A65: the report's line, narrated at the set-up (and given by naval.sortie_reading)."""
    for options, words in (({"naval": True}, "without a card"),
                           ({"naval": True, "sortie_needs_card": True}, "needs card #1 or #6")):
        match = Match(GAME, {}, options)
        rng = random.Random(2)
        while match.decision is None:
            match.supply(dice_from(rng)(match.chance))
        [event] = [e for e in match.events if e.kind == "naval-reading"]
        assert words in event.text
