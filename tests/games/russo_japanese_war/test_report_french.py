"""A French reader's report of the Russo-Japanese War is in French: the narrative of the
rules, the situation the report module gives, the question and its template; every text
line within 78 columns. (That the English reports are as before, byte for byte, is the
golden files' test, test_report_text.py.)"""

from __future__ import annotations

import re
from html import unescape
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest

from adjudicator.games import get as support
from adjudicator.games.russo_japanese_war.rules.sequence import phase_title
from adjudicator.i18n import extract_narration, words
from adjudicator.reports.context import report_context, visible
from adjudicator.reports.render import Report, render
from tests.games.russo_japanese_war.report_helpers import played

RULES = Path(__file__).resolve().parents[3] / "adjudicator" / "games" / "russo_japanese_war" / "rules"
FRENCH = words("fr")


def report_in(match, side: str, language: str) -> Report:
    """``side``'s whole report of ``match`` in ``language``."""
    records = [SimpleNamespace(hash="c0" * 32)]
    log = SimpleNamespace(campaign="club-1905", next_batch=3, records=records,
                          record_hash=lambda index: records[index].hash,
                          charter={"options": dict(match.options), "chain": {"anchor": "a0" * 32}})
    batch = SimpleNamespace(body={"batch": 2, "seed": "5e" * 32, "contributions": {}, "entries": []})
    context = report_context(log=log, match=match, events=match.events, side=side,
                             player=f"{side.capitalize()} <{side}@club.test>",
                             deadline=datetime(1905, 5, 28, 12, 0, tzinfo=timezone.utc),
                             game_support=support("russo-japanese-war"), batch=batch, language=language)
    return render(context)


def narrative_templates() -> list[str]:
    """The English templates of the rules' narrative, as the catalogue has them."""
    found = []
    for module in sorted(RULES.glob("*.py")):
        with module.open("rb") as source:
            found += [message for _line, name, message, _comments in extract_narration(source, [], [], {})
                      if name == "N_" and isinstance(message, str)]
    return found


def as_pattern(template: str) -> re.Pattern:
    """A narrative's template as a pattern that its English text matches whole."""
    parts = re.split(r"\{[0-9]*\}", template)
    return re.compile(".+?".join(re.escape(part) for part in parts) + r"\Z", re.DOTALL)


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def games() -> list:
    """Games between reasonable players, with and without the naval rules, a few turns in."""
    return [played(70, seed=3), played(90, seed=4, naval=True)]


def test_every_event_of_the_narrative_reads_in_french(games):
    untranslated = [event.text for match in games for event in match.events
                    if event.in_words(FRENCH.gettext) == event.text]
    assert untranslated == []


def test_no_english_sentence_of_the_narrative_is_left_in_the_french_events(games):
    patterns = [as_pattern(t) for t in narrative_templates() if "{" in t and len(t) > 12]
    assert len(patterns) > 40
    english = [(event.text, pattern.pattern) for match in games for event in match.events
               for pattern in patterns if pattern.match(event.in_words(FRENCH.gettext))]
    assert english == []


@pytest.mark.parametrize("which", [0, 1])
def test_a_french_report_is_in_french_in_text_and_html_within_78_columns(games, which):
    match = games[which]
    side = match.decision.side if match.decision is not None else "japan"
    report = report_in(match, side, "fr")
    text, html = flat(report.text), unescape(flat(report.html))
    for sentence in ("CE QUI S'EST PASSÉ", "Tour 1 : phase de mouvement japonaise", "Moral : Japon",
                     "contrôlé par", "case Péninsule coréenne", "CE QUI VOUS EST DEMANDÉ"):
        assert sentence in text, sentence
    assert "Voie ferrée" in html and "Péninsule coréenne" in html and "Moral : Japon" in html
    assert [line for line in report.text.splitlines() if len(line) > 78] == []
    for event in visible(match.events, side):
        french, english = flat(event.in_words(FRENCH.gettext)), flat(event.text)
        assert french in text and french in html, french
        if len(english) > 24:
            assert english not in text, english
    for english in ("WHAT HAPPENED", "Movement Phase", "Morale: Japan", "-controlled", "Korean Peninsula box",
                    "hand limit: ", "undamaged", "Attack on ", "may move", "one line per unit"):
        assert english not in text, english
    prompt = match.decision.prompt
    assert flat(prompt.in_words(FRENCH.gettext)) in text and flat(prompt) not in text


def test_the_naval_report_names_its_fleets_in_french(games):
    report = report_in(games[1], "russia", "fr")
    assert "Flotte russe de Port Arthur : " in report.text and "Première flotte japonaise : " in report.text
    assert "Sortie de la flotte de Port Arthur : " in report.text
    english = report_in(games[1], "russia", "en")
    assert "Russian Port Arthur Fleet: " in english.text and "Flotte" not in english.text


def test_a_hand_limit_is_said_in_the_readers_language_with_its_plural():
    match = played(20, seed=5)
    match.state["limits"].update(japan=1, russia=2)
    french, english = (flat(report_in(match, "japan", language).text) for language in ("fr", "en"))
    assert "Limite de main japonaise : 1 carte (pas de carte en plus pour le moral, 10.4.3)" in french
    assert "Limite de main russe : 2 cartes (pas de carte en plus pour le moral, 10.4.3)" in french
    assert "Japanese hand limit: 1 card (no extra card for Morale, 10.4.3)" in english
    assert "Russian hand limit: 2 cards (no extra card for Morale, 10.4.3)" in english


def test_the_desks_status_says_the_phase_and_the_question_in_the_readers_language():
    from adjudicator.campaign.mail_desk import status_text

    match = played(12, seed=3)
    log = SimpleNamespace(next_batch=4, charter={"game": "russo-japanese-war"}, orders_for=lambda step: {})
    deadline = datetime(1905, 5, 28, 12, 0, tzinfo=timezone.utc)
    french = status_text("club-1905", log, match, deadline, ["japan", "russia"], tr=FRENCH.gettext)
    english = status_text("club-1905", log, match, deadline, ["japan", "russia"])
    prompt = match.decision.prompt
    assert flat(prompt.in_words(FRENCH.gettext)) in flat(french) and flat(prompt) in flat(english)
    title = phase_title(match.state["phase"])
    assert FRENCH.gettext(title) != title and FRENCH.gettext(title) in french and "Phase" not in french
