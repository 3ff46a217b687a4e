"""Each Tsushima question's template for a French reader: its comments are in French,
its orders lines are those of the English template, and, sent back as it stands, it
reads to the same canonical orders and answers the question exactly as the English
one does -- over every kind of question, a stop both before and after orders have
carried play, and under split_fire; every line within 74 columns (78 in the report).
The question's prompt is in French too."""

from __future__ import annotations

import json
import random
from typing import Iterator

from adjudicator.engine import Match
from adjudicator.engine.requests import Decision
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.players import RandomPlayer, random_dice
from adjudicator.games.tsushima_1905.plans import StandingAnswers
from adjudicator.games.tsushima_1905.report import answer_hint, answer_hint_in
from adjudicator.i18n import say_in, words
from adjudicator.orders import parse_orders
from tests.games.tsushima_1905.test_templates import KINDS

GAME = Tsushima1905()
FRENCH = words("fr")
PER_KIND = 3


def orders_file(decision: Decision, state, lines: list[str]) -> str:
    return "\n".join(["BEGIN ORDERS", "campaign: c", f"side: {decision.side}", f"turn: {state.turn}",
                      "password: x", *lines, "END ORDERS", ""])


def active(lines: list[str]) -> list[str]:
    """The orders lines of a template: its lines without their comments."""
    return [kept for kept in (line.split("#")[0].rstrip() for line in lines) if kept.strip()]


def asked() -> Iterator[tuple[Decision, object]]:
    """A few questions of each kind, with the state each was asked in (copied), from
    seeded games: the mail cadence and continuous play, with and without split_fire."""
    counts: dict[tuple[str, bool], int] = {}
    for seed in range(12):
        setup = {} if seed % 2 else {"continuous": True}
        options = {"split_fire": True} if seed % 3 == 0 else {}
        match, player, chance = Match(GAME, setup, options), RandomPlayer(seed), random_dice(random.Random(seed))
        for _ in range(6_000):
            if match.finished:
                break
            if match.chance is not None:
                match.supply(chance(match.chance))
                continue
            decision = match.decisions[0]
            key = (decision.kind, decision.options.get("mark") is None)
            if counts.get(key, 0) < PER_KIND:
                counts[key] = counts.get(key, 0) + 1
                yield decision, match.state
            match.answer(decision.side, player(decision, match.state))
    assert {kind for kind, _ in counts} == set(KINDS)
    assert (("orders", True) in counts) and (("orders", False) in counts)


def answer_of(decision: Decision, state, text: str):
    orders = parse_orders(text, "tsushima-1905")
    answer = StandingAnswers().answer_for(decision, state, orders)
    assert answer is not None
    typed = decision.accept(answer)
    to_json = getattr(typed, "to_json", None)
    given = to_json() if to_json is not None else dict(answer)
    return orders.canonical_text(), json.dumps(given, sort_keys=True, default=str)


def test_a_french_template_sent_as_it_stands_reads_and_answers_as_the_english_one():
    kinds = set()
    for decision, state in asked():
        english = answer_hint(decision)
        french = answer_hint_in(decision, FRENCH)
        assert french != english, decision.kind
        assert active(french) == active(english)
        assert all(len(line) <= 74 for line in french), [line for line in french if len(line) > 74]
        assert answer_of(decision, state, orders_file(decision, state, french)) == \
            answer_of(decision, state, orders_file(decision, state, english))
        kinds.add(decision.kind)
    assert kinds == set(KINDS)


def test_each_questions_prompt_is_in_french_for_a_french_reader():
    seen = {}
    for decision, _state in asked():
        seen.setdefault(decision.kind, (str(decision.prompt), say_in(decision.prompt, FRENCH.gettext, FRENCH.ngettext)))
    for kind, (english, french) in seen.items():
        assert english != french, kind
    assert " : " in seen["activate"][1] and "quel navire s'active" in seen["activate"][1]
    assert "ordres pour le tour" in seen["orders"][1]
