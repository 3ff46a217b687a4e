"""Each problem the orders reader finds keeps its code, its message's template and its
values, so that a receipt or refusal says it in its reader's language: in English
exactly as the reader wrote it (the check command's words), in French every word of it
from the catalogue, with the same line, column, quoted line and names."""

from __future__ import annotations

import re

import pytest
from conftest import GOLDEN, HEADER_JAPAN, HEADER_RUSSIA, problems

from adjudicator.i18n import Said, words
from adjudicator.orders import OrdersError, check_orders, parse_orders

#: Orders with mistakes of every kind the generic reader and Port Arthur's reader
#: report (a misspelt heading, a line ending early, unknown and ambiguous names, a
#: port for a zone, a ship of the wrong side, a block given twice, contradictions ...).
MISTAKES = [
    *(path.read_text(encoding="utf-8") for path in sorted(GOLDEN.glob("*.orders"))),
    HEADER_JAPAN + "sortie:\n  Mikasa to Port Arthur\n  Mikasa to Yellow Sea\n  Novik to Yellow Sea\n"
                   "  none\nland: Atlantis\nland: Yellow Sea\n",
    HEADER_RUSSIA + "sortie:\n  Askold to Tsushima\nblockade:\n  keep\nreturn:\n  Askold to Vladivostok\n"
                    "  Askold to Port Arthur\n  ask\nreturn:\n  ask\n",
    HEADER_JAPAN + "operations:\n  move Mikasa from Yellow Sea to Tsushima\ndice: 3\ndice: 4\nhits:\n  ask\n"
                   "  Mikasa first\nsortie:\n  Mikasa to P\n",
    HEADER_JAPAN + "side: Russia\nturn: 99\ngame: tsushima-1905\nsortie:\n",
    "hello\n",
    "\x00",
]


def refused(text: str) -> OrdersError:
    with pytest.raises(OrdersError) as caught:
        parse_orders(text, "port-arthur", campaign="test")
    return caught.value


@pytest.mark.parametrize("text", MISTAKES)
def test_every_problem_keeps_its_template_and_english_says_it_as_the_reader_wrote_it(text):
    err = refused(text)
    assert err.problems
    for problem in err.problems:
        assert isinstance(problem.message, Said), problem.message
    assert err.render(words("en").gettext) == err.render()


@pytest.mark.parametrize("text", MISTAKES)
def test_every_problem_is_said_in_french_with_its_line_column_and_quoted_line(text):
    french = words("fr").gettext
    for problem in refused(text).problems:
        said = problem.render(french).splitlines()
        english = problem.render().splitlines()
        assert said[1:] == english[1:]  # the quoted line and its caret, as read
        if problem.line:
            assert said[0].startswith(f"ligne {problem.line}, colonne {problem.column} : {problem.code} ")
        assert french(problem.message.template) != problem.message.template, problem.message.template
        for english_word in ("line", "expected", "did you mean", "unknown", "Hint", " or "):
            assert english_word not in re.sub(r'"[^"]*"', "", said[0])  # (names and keywords are quoted)


def test_the_generic_codes_titles_are_in_french():
    from adjudicator.orders import CODES

    french = words("fr").gettext
    assert all(french(title) != title for title in CODES.values())


def test_the_notes_of_cleaning_and_reading_keep_their_template():
    receipt = check_orders("Dear referee,\n\nBEGIN ORDERS\n" + HEADER_JAPAN + "sortie:\n  Mik to Tsushima\n",
                           "port-arthur")
    english = receipt.render()
    assert "Note: text above the start marker (line 3) was ignored" in english
    assert "Note: line 8: 'Mik' read as Mikasa" in english
    assert receipt.render(words("en").gettext) == english
    french = receipt.render(words("fr").gettext)
    assert "Remarque : le texte au-dessus du marqueur de début (ligne 3) a été ignoré" in french
    assert "Remarque : ligne 8 : 'Mik' lu comme Mikasa" in french


def test_a_problem_of_too_many_is_summed_up_in_french_too():
    found = problems("sortie:\n" + "".join(f"  Nobody{n} to Tsushima\n" for n in range(60)))
    last = found[-1]
    assert last.code == "E900" and last.render() == "E900 10 more problems not shown; fix these first"
    assert last.render(words("fr").gettext) == "E900 10 problèmes de plus, non montrés ; corrigez d'abord ceux-ci"
