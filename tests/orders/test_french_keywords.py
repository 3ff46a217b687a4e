"""French keywords beside the English ones (grammar/keywords-fr.toml): every English
keyword of every grammar has its French one; a French file reads to exactly the orders
of its English twin, so that its receipt (in English) and its hash are the same; the
French is read with or without accents and in any case; and a French file's mistakes
are placed at their line and column, a misspelt French keyword with a suggestion."""

from __future__ import annotations

import random
import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

from adjudicator import games
from adjudicator.engine import Match
from adjudicator.orders import OrdersError, check_orders
from adjudicator.orders.grammar import _spellings, grammar_path, keywords_of, lalr_parser
from adjudicator.orders.keywords import COMMON, french_keywords, spellings, unaccented, variants
from adjudicator.orders.text import clean
from tests.games.russo_japanese_war.test_orders_language import EVERYTHING
from tests.games.templates import template_text

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["port-arthur", "russo-japanese-war", "tsushima-1905"]
#: Terminals whose words are names, not keywords (cards, ports, the rulebook's results).
NAMES = {"STRIKE_CARD", "NAVAL_FLEET", "RESULT_NAME"}
_LITERAL = re.compile(r'//[^\n]*|"((?:[^"\\\n]|\\.)*)"i?|/((?:[^/\\\n]|\\.)+)/[imslux]*')
_GROUP = re.compile(r"(\(\?!)?\((?:\?:)?((?:[a-z]|\\-)+(?:\|(?:[a-z]|\\-)+)*)\)")


def english_keywords(grammar: str) -> set[str]:
    """The keywords ``grammar/<grammar>.lark`` spells: its strings, its regexps of plain
    words, and the plain words of its keyword regexps (not those a name may not hold)."""
    text = (grammar_path("port-arthur").parent / f"{grammar}.lark").read_text(encoding="utf-8")
    words: set[str] = set()
    for line in text.split("\n"):
        terminal = re.match(r"\s*(_?[A-Z][A-Z0-9_]*)", line)
        for found in _LITERAL.finditer(line):
            string, regexp = found.groups()
            if string is not None and string[:1].isalpha():
                words.add(string.casefold())
            elif regexp is not None and not (terminal and terminal.group(1) in NAMES) and \
                    not regexp.startswith("(?!"):
                spelt = [w for w in _spellings(regexp) if w[:1].isalpha()]
                words.update(w.casefold() for w in spelt[:1])  # its first spelling ("forced move")
                if not spelt:
                    for group in _GROUP.finditer(regexp):
                        if not group.group(1):
                            words.update(w.replace("\\-", "-") for w in group.group(2).split("|"))
    return words


def sample(game: str, name: str) -> str:
    return (ROOT / "samples" / game / name).read_text(encoding="utf-8")


# -- the table ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("grammar", [COMMON, *GAMES])
def test_every_english_keyword_has_its_french_one(grammar):
    table, other = french_keywords(grammar), variants(grammar)
    missing = sorted(w for w in english_keywords(grammar) if w not in table and w not in other)
    assert not missing, f"no French keyword in grammar/keywords-fr.toml [{grammar}] for {missing}"
    assert all(target in table for target in other.values()), other


@pytest.mark.parametrize("game", GAMES)
def test_no_french_keyword_is_an_english_keyword_or_two_french_keywords_of_the_game(game):
    english = english_keywords(COMMON) | english_keywords(game)
    seen: dict[str, str] = {}
    for word in french_keywords(game):
        for spelling in spellings(word, game):
            assert spelling.casefold() not in english, (word, spelling)
            assert seen.setdefault(spelling.casefold(), word) == word, (word, spelling, seen[spelling.casefold()])


def test_a_french_keyword_is_read_without_its_accents():
    assert unaccented("opérations") == "operations" and unaccented("chaîne") == "chaine"
    assert spellings("operations", "port-arthur") == ("opérations",)  # without accents it is the English word
    assert spellings("dice", "port-arthur") == ("dés", "des")
    assert spellings("password", "port-arthur") == ("mot de passe", "motdepasse")


# -- a French file reads to the orders of its English twin --------------------------------------------


def keyword_tokens(game: str, text: str) -> list:
    """The tokens of ``text`` as the parser reads them, each with its terminal."""
    parser = lalr_parser(game)
    tokens = []
    interactive = parser.parse_interactive(text)
    try:
        for token in interactive.iter_parse():
            tokens.append(token)
    except UnexpectedInput as err:  # the English files are all correct
        raise AssertionError(err) from err
    return tokens


def french_choices(game: str, token) -> list[str] | None:
    """The French ways to write a keyword token (None: not a keyword), in English words."""
    if token.type in NAMES or not keywords_of(lalr_parser(game), token.type) and token.type not in (
            "HEX_STATE", "_ELSE"):
        return None
    written = " ".join(str(token).split())
    word = variants(game).get(written.casefold(), written.casefold())
    if spellings(word, game) or word in french_keywords(game):
        return list(spellings(word, game)) or [written]
    return None


def translated(game: str, text: str, draw, mixed: bool = False) -> str:
    """``text`` with its keywords written in French, word for word: each keyword's
    spelling (accented or not) and its case drawn by ``draw``; ``mixed``: some keywords
    may stay in English."""
    out, last = [], 0
    for token in keyword_tokens(game, text):
        if token.type == "_ELSE":  # ", else": the word inside
            found = re.search(r"[a-z]+", str(token), re.I)
            choices = spellings(found.group(0).casefold(), game)
            start, end = token.start_pos + found.start(), token.start_pos + found.end()
        else:
            choices = french_choices(game, token)
            start, end = token.start_pos, token.end_pos
        if not choices:
            continue
        french = draw(st.sampled_from([*choices, text[start:end]] if mixed else choices))
        french = draw(st.sampled_from([french, french.upper(), french.capitalize()]))
        out.append(text[last:start])
        out.append(french)
        last = end
    out.append(text[last:])
    return "".join(out)


def english_sources(game: str) -> list[str]:
    folder = ROOT / "samples" / game
    files = [p for p in sorted(folder.iterdir()) if p.suffix in (".orders", ".txt") and "report" not in p.name
             and "-fr" not in p.stem]
    return [clean(p.read_text(encoding="utf-8")).text for p in files]


def templates(game: str, seeds: range = range(3)) -> dict[str, tuple[str, object]]:
    """The template of each kind of question met in random games of ``game`` (as a
    player's report prints it), with the state it was asked in."""
    plugin = games.get(game)
    found: dict[str, tuple[str, object]] = {}
    for seed in seeds:
        rng = random.Random(seed)
        chooser, dice = plugin.player(rng), plugin.dice(rng)
        match = Match(plugin.game(), {}, {})
        while not match.finished:
            if match.chance is not None:
                match.supply(dice(match.chance))
                continue
            for decision in match.decisions:
                hint = plugin.report.answer_hint(decision)
                found.setdefault(f"{decision.kind}-{decision.side}",
                                 (clean(template_text(decision, match.state, hint)).text, match.state))
            for decision in match.decisions:
                match.answer(decision.side, chooser(decision, match.state))
    return found


@lru_cache(maxsize=None)
def sources() -> dict[str, tuple[str, str, object]]:
    """English orders of every game: the samples, each question's template, and the
    Russo-Japanese War's orders of every form (name -> game, text, state)."""
    found: dict[str, tuple[str, str, object]] = {}
    for game in GAMES:
        for i, text in enumerate(english_sources(game)):
            found[f"{game} sample {i}"] = (game, text, None)
        for kind, (text, state) in templates(game).items():
            found[f"{game} template {kind}"] = (game, text, state)
    found["russo-japanese-war every form"] = ("russo-japanese-war", clean(EVERYTHING).text, None)
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(sources())), st.data())
def test_orders_translated_word_for_word_into_french_read_to_the_same_canonical_orders(name, data):
    game, english, state = sources()[name]
    french = translated(game, english, data.draw, mixed=data.draw(st.booleans()))
    expected = check_orders(english, game, state=state)
    got = check_orders(french, game, state=state)
    assert got.text == expected.text and got.sha256 == expected.sha256


@pytest.mark.parametrize("name", sorted(sources()))
def test_each_source_translated_with_the_first_french_spelling_of_each_keyword_reads_the_same(name):
    game, english, state = sources()[name]
    french = translated(game, english, lambda strategy: strategy.elements[0])
    assert french != english
    assert check_orders(french, game, state=state).text == check_orders(english, game, state=state).text


# -- the French samples ---------------------------------------------------------------------------------

FRENCH_SAMPLES = [
    ("port-arthur", "japan-turn1-fr.orders", "japan-turn1.orders"),
    ("russo-japanese-war", "japan-turn1-fr.orders", "japan-turn1.orders"),
    ("tsushima-1905", "japan-orders-fr.txt", "japan-orders.txt"),
]


@pytest.mark.parametrize("game, french, english", FRENCH_SAMPLES)
def test_a_french_sample_reads_to_the_same_receipt_and_hash_as_its_english_twin(game, french, english):
    got, expected = check_orders(sample(game, french), game), check_orders(sample(game, english), game)
    assert got.text == expected.text and got.sha256 == expected.sha256


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_french_sample(game):
    assert any(g == game for g, _, _ in FRENCH_SAMPLES)


# -- mistakes in a French file --------------------------------------------------------------------------

HEADER_FR = "campagne: c1\ncamp: Japon\ntour: 2\nmot de passe: x\n"


def refused(text: str, game: str = "port-arthur"):
    with pytest.raises(OrdersError) as caught:
        check_orders(text, game)
    return caught.value.problems


def test_a_misspelt_french_heading_is_placed_and_gets_a_suggestion():
    [problem] = refused(HEADER_FR + "opératoins:\n  passe\n")
    assert (problem.code, problem.line, problem.column) == ("E104", 5, 1)
    assert "opérations" in problem.suggestions


def test_a_misspelt_french_keyword_is_placed_and_gets_a_suggestion():
    [problem] = refused(HEADER_FR + "sortie:\n  Mikasa vres Tsushima\n")
    assert (problem.line, problem.column) == (6, 10)
    assert "vers" in problem.suggestions


def test_a_french_line_that_ends_too_early_is_placed_and_says_what_was_expected_in_english():
    [problem] = refused(HEADER_FR + "sortie:\n  Fuji vers\n")
    assert (problem.code, problem.line, problem.column) == ("E103", 6, 12)
    assert any("shipyard" in word for word in problem.expected)


def test_a_french_side_name_is_read():
    assert "side: Japan" in check_orders(HEADER_FR + "dés: auto\n", "port-arthur").text


@pytest.mark.parametrize("line", ["mot de passe: Togo 1905", "motdepasse Togo 1905", "mot de pase: Togo 1905",
                                  "MOT DE PASSE Togo 1905"])
def test_a_french_password_line_is_never_quoted_back(line):
    with pytest.raises(OrdersError) as caught:
        check_orders(f"campagne: c1\ncamp: Prusse\ntour: 1\n{line}\n", "port-arthur")
    shown = caught.value.render() + repr([p.to_json() for p in caught.value.problems])
    assert "Togo" not in shown


def test_a_french_plan_step_is_quoted_in_full_in_a_message():
    [problem] = refused(HEADER_FR + "opérations:\n  passe si scor > 2\n")
    assert "passe si scor > 2" in problem.render() and "********" not in problem.render()


# -- the documentation ----------------------------------------------------------------------------------

PAGES = {"docs/orders.md": (COMMON, "port-arthur"), "docs/games/russo-japanese-war/orders.md": ("russo-japanese-war",),
         "docs/games/tsushima-1905/orders.md": ("tsushima-1905",)}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_each_orders_page_shows_the_french_keywords_of_the_table(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    section = text[text.index("## French keywords"):]
    shown: dict[str, tuple[str, ...]] = {}
    for english, french in re.findall(r"^\| `([^`]+)` \| (.+) \|$", section, re.M):
        shown[english] = (english,) if french == "(the same)" else tuple(re.findall(r"`([^`]+)`", french))
    expected: dict[str, tuple[str, ...]] = {}
    for grammar in PAGES[page]:
        for english, french in french_keywords(grammar).items():
            if grammar == COMMON or english not in french_keywords(COMMON):
                expected[english] = french
    assert shown == expected


@pytest.mark.parametrize("game, lines", [
    ("port-arthur", "mot de passe: x\nMot  de passe: y"),
    ("tsushima-1905", "mot de passe: x\nmot de passe: y"),
    ("russo-japanese-war", "forced move:\n  2 12x4"),
])
def test_after_an_unknown_heading_reading_resumes_at_a_keyword_of_several_words(game, lines):
    """The lines under a misspelt heading are skipped up to the next heading or header
    line, which may be a keyword of several words; the mistakes below it are found."""
    text = f"campagne: c1\ncamp: Japon\ntour: 1\nopératoins:\n  passe\n{lines}\n"
    problems = refused(text, game)
    assert [p.code for p in problems][:1] == ["E104"] and len(problems) == 2, [p.render() for p in problems]
    assert problems[1].line in (7, 8)


def test_a_french_reply_is_read_between_its_french_markers_below_a_quoted_report():
    english = sample("port-arthur", "japan-turn1.orders")
    french = sample("port-arthur", "japan-turn1-fr.orders").replace("BEGIN ORDERS", "DÉBUT DES ORDRES").replace(
        "END ORDERS", "FIN DES ORDRES")
    mail = ("Le lun. 30 nov. 2026 à 10:14, Arbitre <arbitre@example.org> a écrit :\n"
            "> Tour 1, étape 1 : vos ordres\n> campaign: demo-1904\n\n" + french)
    assert check_orders(mail, "port-arthur").text == check_orders(english, "port-arthur").text
    unquoted = french.replace("FIN DES ORDRES\n", "").replace(
        "-- \nHeihachiro", "-----Message d'origine-----\nDe : Arbitre\nsortie: n'importe quoi")
    assert check_orders(unquoted, "port-arthur").text == check_orders(english, "port-arthur").text


def test_check_tells_the_game_from_a_french_game_line():
    from adjudicator.cli.game_choice import choose_game

    assert choose_game(None, text="campagne: c1\njeu: tsushima-1905\n") == "tsushima-1905"
    assert choose_game(None, text="Jeu: russo-japanese-war\n") == "russo-japanese-war"
