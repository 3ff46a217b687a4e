"""Port Arthur's questions and their templates in French: the prompt and the template's
comments in the reader's language, the template's orders lines the same as in English,
so that a French template sent back as it stands reads and answers its question
exactly as the English one does (the template check of the game contract, run on the
French templates, over every kind of question random games meet)."""

from __future__ import annotations

import random

from adjudicator import games
from adjudicator.engine import Decision, Match
from adjudicator.games.port_arthur.report import answer_hint, answer_hint_in
from adjudicator.i18n import Said, said, say_in, words
from adjudicator.orders import parse_orders
from tests.games.templates import WIDTH, check_template, template_text

FRENCH = words("fr")
#: Every kind of question Port Arthur asks.
KINDS = {"sortie", "navo", "reroll", "seize", "blockade", "dice", "criticals", "hits", "return", "mines", "attack"}


class InFrench:
    """Port Arthur's plug-in whose templates are written for a French reader."""

    def __init__(self, plugin):
        self._plugin = plugin
        self.report = type("FrenchReport", (), {"answer_hint": staticmethod(lambda d: answer_hint_in(d, FRENCH))})

    def __getattr__(self, name):
        return getattr(self._plugin, name)


def questions_met(plugin, check, seeds=range(3)):
    """The kinds of question random games ask, each of the first few of a kind checked
    by ``check(decision, state)`` when it is asked."""
    met: dict[str, list] = {}
    for options in plugin.sample_options:
        for seed in seeds:
            rng = random.Random(seed)
            chooser, dice = plugin.player(rng), plugin.dice(rng)
            match = Match(plugin.game(), {}, options)
            while not match.finished:
                if match.chance is not None:
                    match.supply(dice(match.chance))
                    continue
                for decision in match.decisions:
                    if len(met.setdefault(decision.kind, [])) < 4:
                        met[decision.kind].append(check(decision, match.state))
                for decision in match.decisions:
                    match.answer(decision.side, chooser(decision, match.state))
    return met


def test_every_french_template_reads_and_answers_as_the_english_one_and_its_prompt_is_french():
    plugin = games.get("port-arthur")
    problems: list[str] = []

    def check(decision, state):
        problems.extend(check_template(InFrench(plugin), decision, state))
        english, french = answer_hint(decision), answer_hint_in(decision, FRENCH)
        assert [line for line in french if not line.startswith("#")] == \
               [line for line in english if not line.startswith("#")]
        assert all(len(line) <= WIDTH for line in french)
        read_en = parse_orders(template_text(decision, state, english), "port-arthur", state=state)
        read_fr = parse_orders(template_text(decision, state, french), "port-arthur", state=state)
        assert read_fr.canonical_text() == read_en.canonical_text()
        assert isinstance(decision.prompt, Said)
        assert say_in(decision.prompt, FRENCH.gettext) != decision.prompt
        assert say_in(decision.prompt, words("en").gettext) == decision.prompt

    met = questions_met(plugin, check)
    assert problems == [], "\n".join(problems)
    assert set(met) >= KINDS - {"mines"}, sorted(met)  # (mines are rare: see the next test)


def test_the_template_of_the_mines_question_is_french_in_its_comment_only():
    decision = Decision("japan", "mines", {"count": 2, "ships": ["Mikasa", "Asahi", "Fuji"]},
                        said("%(side)s: %(count)s ship(s) of the squadron returning from the Yellow Sea hit mines: "
                             "which?", side=said("Japan"), count=2), parse=dict)
    assert answer_hint(decision) == ["mines: auto", "# or the 2 ship(s), in order, of: Mikasa, Asahi, Fuji"]
    assert answer_hint_in(decision, FRENCH) == ["mines: auto",
                                                "# ou les 2 navire(s), dans l'ordre, parmi : Mikasa, Asahi, Fuji"]
    assert say_in(decision.prompt, FRENCH.gettext) == ("Japon : 2 navire(s) de l'escadre revenant de la mer Jaune touchent "
                                               "des mines : lesquels ?")


def test_the_comments_of_a_sortie_template_are_french_and_its_choices_are_orders():
    plugin = games.get("port-arthur")
    sorties = []
    questions_met(plugin, lambda decision, state: sorties.append((decision, answer_hint_in(decision, FRENCH))),
                  seeds=range(1))
    decision, french = next((d, f) for d, f in sorties if d.kind == "sortie")
    assert french[0] == "sortie: none"
    assert french[1].startswith("# ou une ligne par navire qui sort")
    assert any(" to " in line for line in french[2:])
    assert say_in(decision.prompt, FRENCH.gettext).endswith(": quels navires sortent, et vers où ?")
