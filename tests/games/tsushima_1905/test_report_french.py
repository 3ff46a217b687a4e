"""A Tsushima report for a side that reads French: the narrative of the rules, the
situation, the plot's key, the ship table, the enemies in sight, the decks and the
picture's panel and legend are in French, every line within 78 columns, and no
English message of Tsushima's catalogue is left in it; the English report is the
golden file, unchanged (test_report_golden.py)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file

from adjudicator.i18n import KEYWORDS, NARRATION_KEYWORDS, PLURAL_KEYWORDS, extract_narration, words
from tests.games.tsushima_1905.test_report import rendered
from tests.games.tsushima_1905.test_report_golden import golden_match

ROOT = Path(__file__).resolve().parents[3]
PLACEHOLDER = re.compile(r"\{[^}]*\}|%\([a-z_]+\)[sd]")


@lru_cache(maxsize=1)
def tsushima_messages() -> tuple[str, ...]:
    """Every English message Tsushima's modules and templates mark for the catalogue."""
    keywords = {**DEFAULT_KEYWORDS, **{name: None for name in KEYWORDS}, **PLURAL_KEYWORDS}
    found: list[str] = []
    for path in sorted((ROOT / "adjudicator/games/tsushima_1905").rglob("*.py")):
        method = extract_narration if "rules" in path.parts else "python"
        for _line, message, _comments, _context in extract_from_file(method, str(path), keywords=keywords):
            found += [message] if isinstance(message, str) else list(message)
    for path in sorted((ROOT / "templates/tsushima-1905").glob("*.j2")):
        options = {"extensions": "jinja2.ext.i18n", "trim_blocks": "true", "lstrip_blocks": "true"}
        for _line, message, _comments, _context in extract_from_file("jinja2", str(path), keywords=keywords,
                                                                     options=options):
            found += [message] if isinstance(message, str) else list(message)
    assert NARRATION_KEYWORDS and found
    return tuple(dict.fromkeys(found))


def english_phrases() -> set[str]:
    """The English words of Tsushima's messages that a French text must not hold: each
    stretch between placeholders and line breaks of at least three words, where its
    French differs from it."""
    french = words("fr")
    phrases = set()
    for message in tsushima_messages():
        translated = french.gettext(message)
        for part in PLACEHOLDER.split(message):
            for line in part.split("\n"):
                line = line.strip(" ,.;:()#")
                if len(line.split()) >= 3 and line not in translated:
                    phrases.add(" ".join(line.split()))
    return phrases


@pytest.fixture(scope="module")
def french_report():
    return rendered(golden_match(), "japan", "fr")[1]


def test_the_french_report_tells_the_battle_in_french(french_report):
    text = " ".join(french_report.text.split())
    for said in ("Tour 2 : phase d'action.", "Mikasa tire 3 dés sur Kniaz Suvorov.", "le 1 relancé : 1, amiral +1",
                 "Blindage : 1 dé réel : 1 et 2 dés par défaut à 1.", "touché et critique (dé 2 : incendie)",
                 "2 coups au but, 2 incendies.", "Kniaz Suvorov coule et est retiré de la table.",
                 "Osliabia lance 5 dés de réparation (3 1 2 3 2) : rien en moins.",
                 "Osliabia perd 1 CP à cause de 1 voie d'eau.", "Japon retourne 5D.",
                 "Japon a l'offensive avec 3 activations principales.",
                 "Tour 3, phase d'action ; offensive : Japon, reste 3 activations principales",
                 "Japon (majuscules)", "s Suvorov (coulé)", "1 case = 1 longueur de socle",
                 "navire cl x y cap bq dp pd in ve util état", "3 dés sur Nakhimov", "pioche de 4 cartes"):
        assert said in text, said


def test_the_french_reports_text_holds_no_english_message_of_tsushimas(french_report):
    text = " ".join(french_report.text.split())
    assert [phrase for phrase in sorted(english_phrases()) if phrase in text] == []


def test_the_french_reports_html_and_picture_are_in_french(french_report):
    html = " ".join(french_report.html.split())
    for said in ("Mikasa tire 3 dés sur Kniaz Suvorov.", "Nord : le bord japonais", "5 longueurs de socle",
                 "coulé pendant la partie (fantôme)", "incendies (rouge), voies d&#39;eau (bleu)",
                 "Tsushima 1905 - tour 3, action", "Japon, pioche (4) : AD 3H 6H 6D",
                 "Offensive : Japon, reste 3 activations principales", "à activer"):
        assert said in html, said
    unescaped = html.replace("&#39;", "'").replace("&amp;", "&")
    assert [phrase for phrase in sorted(english_phrases()) if phrase in unescaped] == []


def test_every_line_of_the_french_report_fits_78_columns(french_report):
    assert max(len(line) for line in french_report.text.splitlines()) <= 78
