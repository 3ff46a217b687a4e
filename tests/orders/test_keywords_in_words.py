"""Keywords the grammar spells as patterns (``"move"i | "moves"i``, ``call[ \\t]+off``)
are keywords to the error messages too: a heading so spelt is never called unknown, and
what the parser expected is said in the player's words, never a terminal's name."""

from __future__ import annotations

import re

import pytest

from adjudicator.orders import OrdersError, parse_orders
from adjudicator.orders.grammar import describe_terminal, keywords_of, lalr_parser

HEADER = "campaign: c1\nside: japan\nturn: 1\nstep: 2\npassword: x\n"


def refusal(text: str, game: str) -> str:
    """Every problem of the orders ``text`` of ``game``, as the player reads them."""
    with pytest.raises(OrdersError) as caught:
        parse_orders(HEADER + text, game)
    return caught.value.render()


def test_a_heading_spelt_by_a_pattern_is_a_known_heading():
    found = refusal("move:\n  done\n", "tsushima-1905")
    assert "E104" not in found and "unknown heading" not in found, found


def test_what_was_expected_is_said_in_words_not_terminal_names():
    text = refusal("naval:\n  status\n", "russo-japanese-war")
    assert '"call off"' in text, text
    assert not re.search(r"\b(call_off|card_play|chain_retreat|forced_move|strike_card|naval_fleet)\b", text), text


@pytest.mark.parametrize("game, terminal, spellings", [
    ("tsushima-1905", "MOVE", ("move", "moves")),
    ("russo-japanese-war", "_FORCED_ATTACK", ("forced attack", "forced attacks")),
    ("russo-japanese-war", "_CALL_OFF", ("call off",)),
])
def test_the_spellings_of_a_pattern_keyword_are_read_from_its_pattern(game, terminal, spellings):
    parser = lalr_parser(game)
    assert keywords_of(parser, terminal) == spellings
    assert describe_terminal(parser, terminal) == f'"{spellings[0]}"'


@pytest.mark.parametrize("game", ["port-arthur", "russo-japanese-war", "tsushima-1905"])
def test_every_terminal_is_described_in_words(game):
    parser = lalr_parser(game)
    for terminal in parser.terminals:
        if terminal.name in ("COMMENT", "WS") or terminal.name.startswith("__"):
            continue
        described = describe_terminal(parser, terminal.name)
        assert described.startswith(('"', "a ", "an ", "the ")), (terminal.name, described)
