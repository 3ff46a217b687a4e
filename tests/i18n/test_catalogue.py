"""The French catalogue: every message of the sources is in it, translated, with the
same placeholders as the English, and it compiles; extracted with Babel's own API
from the sources as ``babel.cfg`` says (a new English message not in the ``.po``
fails here, and so does a message the sources no longer have)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from adjudicator.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalogue_path, source_messages, words

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [language for language in LANGUAGES if language != DEFAULT_LANGUAGE]
#: A placeholder: %(name)s (and %%), or {name} / {} in a str.format template.
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%%|\{[a-z_0-9]*\}")


def catalogue(language: str):
    with catalogue_path(language).open("rb") as source:
        return read_po(source, locale=language)


def ids(message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def strings(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


@pytest.fixture(scope="module")
def extracted() -> set[str]:
    return source_messages(ROOT)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_sources_is_in_the_catalogue_and_no_other(language, extracted):
    held = {text for message in catalogue(language) if message.id for text in ids(message)}
    assert sorted(extracted - held) == [], "messages not in the catalogue: run pybabel extract and update"
    assert sorted(held - extracted) == [], "messages the sources no longer have"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation_that_is_not_fuzzy(language):
    missing = [message.id for message in catalogue(language)
               if message.id and (message.fuzzy or not all(s.strip() for s in strings(message)))]
    assert missing == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_translation_has_the_placeholders_of_its_english(language):
    wrong = []
    for message in catalogue(language):
        if not message.id:
            continue
        english = sorted(PLACEHOLDER.findall(ids(message)[0]))
        for translated in strings(message):
            if sorted(PLACEHOLDER.findall(translated)) != english:
                wrong.append((ids(message)[0], translated))
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_compiles_and_translates(language):
    translations = words(language)
    assert translations.gettext("Fair dice") != "Fair dice"
    assert words(DEFAULT_LANGUAGE).gettext("Fair dice") == "Fair dice"


def test_the_placeholder_check_sees_a_missing_placeholder():
    assert sorted(PLACEHOLDER.findall("Turn %(turn)s, %(phase)s.")) != sorted(PLACEHOLDER.findall("Tour %(turn)s."))
