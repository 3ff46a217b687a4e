"""Every event of whole Tsushima games, told to a French reader: each is written from
its French template (no English template left, no placeholder unfilled), and written
in English it is the event's text as told, word for word -- under the options that
change what is told (split_fire's arcs, the Admirals on default dice, collisions
placed at the step's start), in ten games played to their end."""

from __future__ import annotations

import random

from adjudicator.engine import Match
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.players import RandomPlayer, ReasonablePlayer, random_dice
from adjudicator.i18n import words
from tests.games.tsushima_1905.test_report_french import english_phrases

GAME = Tsushima1905()
OPTIONS = [{"split_fire": True}, {"admiral_on_default_dice": False, "collision_place": "step-start"},
           {"partial_ahead": True, "must_move": False}]


def played(seed: int) -> Match:
    player = RandomPlayer(seed) if seed % 2 else ReasonablePlayer()
    chance, match = random_dice(random.Random(seed)), Match(GAME, {}, OPTIONS[seed % len(OPTIONS)])
    while not match.finished:
        if match.chance is not None:
            match.supply(chance(match.chance))
        else:
            decision = match.decisions[0]
            match.answer(decision.side, player(decision, match.state))
    return match


def test_every_event_of_whole_games_is_told_in_french_and_its_english_is_its_text():
    french, english = words("fr"), words("en")
    phrases = english_phrases()
    kinds = set()
    for seed in range(10):
        for event in played(seed).events:
            assert event.in_words(english.gettext, english.ngettext) == event.text
            told = event.in_words(french.gettext, french.ngettext)
            assert "{" not in told and "}" not in told, told
            if event.kind != "orders-note":       # the orders reader's notes stay English
                assert [phrase for phrase in phrases if phrase in told] == [], told
                kinds.add(event.kind)
    assert {"phase", "move", "fire", "fate", "repair", "damage", "card", "initiative", "torpedo", "collision",
            "withdrawn", "passed-over", "end"} <= kinds
