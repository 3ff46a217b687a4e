"""Reports: each side sees its own hand only; exact odds; an SVG hex map, autoescaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from adjudicator.engine import Match
from adjudicator.games.russo_japanese_war import RussoJapaneseWar
from adjudicator.games.russo_japanese_war.report import render_report

GAME = RussoJapaneseWar()


def opening() -> Match:
    match = Match(GAME)
    match.supply_shuffle(list(range(16)))           # Japan holds #01 #02 #03
    match.answer("japan", {"unit": "Gds", "path": ["korea", "1015", "1114"]})
    return match


def test_the_text_report_shows_the_own_hand_and_only_the_size_of_the_other():
    match = opening()
    japan, _ = render_report(GAME, match.state, "japan", match.decision)
    russia, _ = render_report(GAME, match.state, "russia", match.decision)
    assert "Your hand: 3 card(s):\n    #01 Port Arthur Blockade: Play immediately after" in japan
    assert "    #03 Mines: Place the 'Port Arthur Fleet Cannot Sortie' marker." in japan
    assert "Hotchkiss" not in russia and "Opponent's hand: 3 card(s)." in russia
    assert "Deck: 13 card(s). Discard pile: 0 card(s)." in russia


def test_the_odds_of_each_declarable_attack_are_exact():
    match = opening()
    japan, _ = render_report(GAME, match.state, "japan", match.decision)
    # Gds (2) against S2 (3) across the Yalu: -2, no attack possible; supported -1: the -1 column
    assert ("  Attack on 1214 (Jiuliancheng, clear): Japan Gds (2) = 2 against Russia S2\n"
            "      (3) + river 1 = 4: -2\n"
            "      odds: NE 1\n"
            "      supported: EX 1/6, DR 1/6, NE 1/3, AR 1/6, AE 1/6") in japan


def test_the_html_report_draws_every_hex_and_escapes_names():
    match = Match(GAME, {"position": {
        "turn": 2, "phase": "japan-movement", "map": {"hexes": "0101-0303"},
        "unit": [{"id": "<b>J1</b>", "side": "japan", "strength": 2, "ma": 3, "at": "0101"}]}})
    _, html = render_report(GAME, match.state, "japan", match.decision)
    assert "<b>J1" not in html and "&lt;b&gt;J1" in html
    svg = html[html.index("<svg"): html.index("</svg>") + 6]
    root = ET.fromstring(svg)
    groups = list(root.iter("{http://www.w3.org/2000/svg}g"))
    assert sorted(g.get("data-hex") for g in groups if g.get("class") == "hex") == [
        "0101", "0102", "0103", "0201", "0202", "0203", "0301", "0302", "0303"]
    (unit,) = [g for g in groups if g.get("data-unit")]
    assert unit.find("{http://www.w3.org/2000/svg}text").text == "<b>J1</b> 2"     # a visible label


def test_every_colour_of_the_map_and_its_legend_is_a_colour():
    import re

    match = opening()
    _, html = render_report(GAME, match.state, "japan", match.decision)
    paints = re.findall(r'(?:fill|stroke)="([^"]*)"', html)
    assert len(paints) > 500
    assert [p for p in paints if not re.fullmatch(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|url\(#[a-z-]+\)|none", p)] == []


def test_a_hex_on_the_map_is_described_as_in_the_list_of_stacks_and_a_key_location_is_named():
    match = opening()
    text, html = render_report(GAME, match.state, "japan", match.decision)
    svg = ET.fromstring(html[html.index("<svg"): html.index("</svg>") + 6])
    ns = "{http://www.w3.org/2000/svg}"
    titles = {g.get("data-hex"): g.find(ns + "title").text for g in svg.iter(ns + "g") if g.get("class") == "hex"}
    assert titles["1214"] == "1214 Jiuliancheng (clear, Russian-controlled)"
    assert "1214 Jiuliancheng (clear, Russian-controlled)" in " ".join(text.split())
    names = [t.text for t in svg.iter(ns + "text") if t.get("class") == "place-name"]
    assert "Port Arthur" in names
