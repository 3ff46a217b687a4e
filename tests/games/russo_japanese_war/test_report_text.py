"""The plain-text report a player can plan on and play by: a golden rendering, every line
within 78 columns, the combat lines with what the differential is made of, the cards'
texts, the units by name and strength in every box, the hand limits in words, each draw
read once by its owner -- and never the opponent's hand or hidden draws."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from adjudicator.engine import Match
from adjudicator.games.russo_japanese_war.report import render_report
from tests.games.russo_japanese_war.report_helpers import GAME, full_report, played

GOLDEN = Path(__file__).with_name("golden")


def step_events(match: Match) -> int:
    """Where the events of the Player Turn before the current one begin (a step's report)."""
    phases = [i for i, e in enumerate(match.events) if e.kind == "phase"]
    return phases[-6] if len(phases) >= 6 else 0


@pytest.mark.parametrize("side", ["japan", "russia"])
def test_the_text_report_of_a_played_position_matches_its_golden_file(side):
    match = played(186, seed=5)
    text = full_report(match, side, since=step_events(match)).text
    path = GOLDEN / f"report-{side}-turn9.txt"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run once with UPDATE_GOLDEN=1, check it by eye, and keep it"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_line_of_the_text_report_fits_78_columns(seed):
    for answers in (0, 40, 120, 250):
        match = played(answers, seed=seed, naval=seed == 3)
        for side in ("japan", "russia"):
            long = [line for line in full_report(match, side).text.split("\n") if len(line) > 78]
            assert long == [], (answers, side)


def combat_position(**extra) -> Match:
    """Japan's Combat Phase: Gds in 1810 and 2 in 1711 next to S1 in Haicheng (1811), a
    clear town behind the Haicheng river; Japan holds #05 (no combat event)."""
    return Match(GAME, {"position": {
        "turn": 2, "phase": "japan-combat",
        "unit": [{"id": "Gds", "side": "japan", "strength": 2, "ma": 3, "at": "1810"},
                 {"id": "2", "side": "japan", "strength": 2, "ma": 3, "at": "1711"},
                 {"id": "S1", "side": "russia", "strength": 3, "ma": 2, "at": "1811"},
                 {"id": "NA", "side": "russia", "strength": 1, "ma": 0, "at": "eliminated"}],
        "cards": {"deck": ["#06", "#07"], "discard": ["#16"], "hands": {"japan": ["#05"], "russia": []}},
        **extra}})


def test_a_combat_line_gives_both_strengths_terrain_support_then_column_and_die():
    match = combat_position()
    match.answer("japan", {"declare": [{"target": "1811", "with": ["Gds", "2"]}]})
    match.answer("japan", {"card": "#05"})
    match.supply_dice([4])
    (line,) = [e.text for e in match.events if e.kind == "combat"]
    assert line == ("Attack on 1811 (Haicheng, clear, town): Japan Gds (2) + 2 (2) + support 1 = 5 against "
                    "Russia S1 (3) + river 1 + town 1 = 5: +0, column +0, die 4: NE.")
    text = full_report(match, "russia").text
    assert ("     Attack on 1811 (Haicheng, clear, town): Japan Gds (2) + 2 (2) + support 1\n"
            "         = 5 against Russia S1 (3) + river 1 + town 1 = 5: +0, column +0, die\n") in text


def test_the_boxes_list_units_by_id_name_and_strength_and_hand_limits_read_as_words():
    match = combat_position(limits={"japan": 1})
    text, _ = render_report(GAME, match.state, "japan")
    assert "  Eliminated Units box: NA Nanshan Garrison 1-0\n" in text and "Eliminated: NA" not in text
    assert "Japanese hand limit: 1 card (no extra card for Morale, 10.4.3)\n" in text
    assert "1811 Haicheng (clear, town, Russian-controlled): S1 1st Siberian Corps 3-2" in text


def test_the_hand_and_the_top_of_the_discard_pile_are_shown_with_their_texts():
    match = combat_position()
    japan, html = render_report(GAME, match.state, "japan")
    assert ("    #05 Three Hundred Ri through Enemy Lines: During the next Russian Player\n"
            "        Turn the Russian player may make no rail movement") in japan
    assert "    #16 Reorganisation / Beriberi\n      Japanese half: Place up to two eliminated" in japan
    assert "      Russian half: At the end of this Game Turn the Japanese Morale Check die" in japan
    assert "<strong>#05 Three Hundred Ri through Enemy Lines</strong>: During the next Russian" in html


def test_a_card_played_as_an_event_is_narrated_with_its_text():
    match = played(400, seed=1)
    played_events = [e.text for e in match.events if e.kind == "event"]
    assert "Japan plays Akashi Motojiro: Russian Morale -1." in played_events


def test_the_owner_reads_each_draw_once_and_the_reshuffle_card_is_named_once():
    match = played(120, seed=1)
    japan = full_report(match, "japan").text
    russia = full_report(match, "russia").text
    assert "Japan draws a card." not in japan and "Seiro-gan Seiro-gan" not in japan + russia
    setup = japan.split("== Turn 1")[0]
    assert setup.count("Japan draws #") == 3
    assert russia.split("== Turn 1")[0].count("Japan draws a card.") == 3


def hand_labels(match: Match, side: str) -> list[str]:
    return [GAME.data.card_label(card, side) for card in match.state["cards"]["hands"][side]]


@pytest.mark.parametrize("answers", [0, 30, 90, 160, 260])
def test_a_report_never_shows_the_opponents_hand_or_hidden_draws(answers):
    match = played(answers, seed=4)
    for side, opponent in (("japan", "russia"), ("russia", "japan")):
        report = full_report(match, side)
        situation = report.text.split("CARDS\n", 1)[1].split("POSITION", 1)[0]
        cards = report.html.split("<h3>Cards</h3>", 1)[1].split("<h3>Units", 1)[0]
        for label in hand_labels(match, opponent):
            assert label not in situation and label not in cards
        hidden = [line for line in report.text.split("\n")
                  if f"{opponent.capitalize()} draws " in line and "draws a card." not in line]
        assert hidden == []
        assert f"{opponent.capitalize()} draws #" not in report.html
    own = full_report(match, "japan").text.split("CARDS\n", 1)[1].split("POSITION", 1)[0]
    assert all(label in own for label in hand_labels(match, "japan"))


def test_a_hex_path_longer_than_a_line_wraps_after_a_hyphen():
    from adjudicator.reports.render import wrap_text

    path = "-".join(f"{1200 + n}" for n in range(1, 19))
    wrapped = wrap_text(f"     Russia S1 moves by rail {path}.").split("\n")
    assert [len(line) <= 78 for line in wrapped] == [True, True]
    assert wrapped[0].endswith("-") and "".join(line.strip() for line in wrapped).endswith(f"{path}.")


def test_a_naval_report_says_which_reading_of_the_sortie_rule_the_campaign_plays():
    match = played(10, seed=3, naval=True)
    text, html = render_report(GAME, match.state, "japan")
    assert ("Fleets (advanced naval rules, 11.0):\n  Port Arthur Fleet sortie: may be declared without a card,"
            " as 11.2.1 is\n      printed (rulings A41, A65)") in text
    match.state["options"]["sortie_needs_card"] = True
    text, html = render_report(GAME, match.state, "russia")
    assert "Port Arthur Fleet sortie: needs card #1 or #6 (option sortie_needs_card, rulings A65)" in html
    assert "sortie" not in render_report(GAME, played(10, seed=3).state, "japan")[0].split("CARDS")[0]


def test_the_phase_lines_of_what_happened_name_each_phase_as_the_rulebook_does():
    import re
    match = played(186, seed=5)
    phases = [event.text for event in match.events if event.kind == "phase"]
    assert phases[0] == "Set-up" and len(phases) > 20
    named = re.compile(r"Turn \d+: ((Japanese|Russian) (Card Replenishment|Movement|Combat|Card Play) Phase"
                       r"|Victory Check Phase)")
    assert [text for text in phases[1:] if not named.fullmatch(text)] == []
