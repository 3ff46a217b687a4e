"""The orders lexer with each terminal's regexp compiled once for all lexer states reads
every text exactly as lark's own contextual lexer does: the same tree, or the same error
at the same place (property test over texts made of orders words, names and noise)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import UnexpectedInput

from adjudicator.orders import grammar
from adjudicator.orders.text import clean

GAME = "port-arthur"
WORDS = ["campaign:", "c1", "side:", "japan", "russia", "turn:", "1", "step:", "2", "password:", "pw", "sortie:",
         "operations:", "Mikasa", "Asahi", ",", "to", "Yellow Sea", "East China Sea", "Tsushima", "battle", "in",
         "if", "enemy", "there", "and", "stronger", "move", "squadron", "from", "pass", "dice:", "auto", "hits:",
         "protect", ";", "flip", "intact", "first", "land", "1.", "#", "x", "\n", "\n  ", "  ", "Shikishima", "ask",
         "navo:", "return:", "blockade", "mines", "<", ">=", "3", "\"Fuji\"", "@", "é"]


@pytest.fixture(scope="module")
def stock():
    """lark's own contextual lexer on the same grammar."""
    return grammar.open_grammar(GAME, parser="lalr", lexer="contextual",
                                propagate_positions=False, maybe_placeholders=False)


def outcome(parser, text):
    try:
        return ("tree", parser.parse(text))
    except UnexpectedInput as err:
        return ("error", type(err).__name__, err.line, err.column)


def shared_parser(hot: int, monkeypatch):
    monkeypatch.setattr(grammar, "HOT_STATE_MATCHES", hot)
    grammar.lalr_parser.cache_clear()
    return grammar.lalr_parser(GAME)


texts = st.lists(st.sampled_from(WORDS), max_size=60).map(lambda words: " ".join(words))


@pytest.mark.parametrize("hot", [0, 10**9], ids=["union-at-once", "per-terminal-only"])
def test_the_shared_lexer_reads_every_text_as_lark_does(stock, hot, monkeypatch):
    parser = shared_parser(hot, monkeypatch)

    @settings(max_examples=150, deadline=None)
    @given(text=texts)
    def same(text):
        assert outcome(parser, text) == outcome(stock, text)

    same()
    grammar.lalr_parser.cache_clear()


def test_a_whole_orders_file_parses_the_same(stock, monkeypatch):
    from pathlib import Path

    parser = shared_parser(32, monkeypatch)
    for sample in sorted((Path(__file__).resolve().parents[2] / "samples" / GAME).glob("*.orders")):
        text = "\n".join(clean(sample.read_text(encoding="utf-8")).lines) + "\n"
        assert outcome(parser, text) == outcome(stock, text)
        assert outcome(parser, text * 20)[0] == outcome(stock, text * 20)[0]
    grammar.lalr_parser.cache_clear()
