"""The languages a player may read the adjudicator's mail in, and their words.

English is the language of the sources; every other language is a gettext catalogue,
``adjudicator/locale/<language>/LC_MESSAGES/adjudicator.po``, kept as text. It is
compiled when first needed by a process (Babel reads the ``.po`` and writes its ``.mo``
into memory; a catalogue of a few hundred messages takes milliseconds), so that no
compiled binary is kept beside its source, where the two could disagree.

Nothing here is global and mutable: :func:`words` gives the translations of one
language (the same object for every caller, as nothing changes it), which the code that
writes a player's mail passes down to whatever writes words for that player. English
needs no catalogue: its translations give each message back as it is, so English mail
is the same, byte for byte, as before any catalogue existed.

Marking messages for the catalogue: in Python, a call of ``tr("...")`` (the name a
function that writes for a reader gives the gettext it is handed), of
``words(language).gettext("...")`` or ``.ngettext(...)``, with named placeholders
(``%(side)s``) filled after translation; :func:`N_` marks a message that is translated
later, where it is shown (a game's report module writes English words that its
template translates), and :func:`N_plural` a singular and its plural, for ``ngettext``;
:func:`said` makes a message in English that keeps its template and values, said again
in a reader's language by :func:`say_in` (the problems and notes of the orders reader,
made where the orders are read, before anyone knows who reads them); in the templates,
``{% trans %}`` blocks and ``_("...")``. ``babel.cfg`` says where Babel looks
(:data:`KEYWORDS` and :data:`PLURAL_KEYWORDS`, the functions it looks for):
``pybabel extract -F babel.cfg -k tr -k said -k N_plural:1,2 -o adjudicator.pot .``
lists every message, and
``pybabel update -i adjudicator.pot -d adjudicator/locale -D adjudicator
--no-fuzzy-matching`` brings a catalogue up to date with it.
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path
from typing import Any

from adjudicator.errors import AdjudicatorError

#: The languages there are, the default first.
LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
#: Each language's name in English (as the referee's commands say it).
LANGUAGE_NAMES = {"en": "English", "fr": "French"}
#: The catalogues' domain (the ``.po`` file's name).
DOMAIN = "adjudicator"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


#: The functions whose first argument is a message, for Babel's extraction (beside its
#: defaults: _, gettext, ngettext, N_ ...).
KEYWORDS = ("tr", "said")
#: The functions whose first two arguments are the singular and plural of a message,
#: translated later with ``ngettext`` (:func:`N_plural`).
PLURAL_KEYWORDS = {"N_plural": (1, 2)}


class UnknownLanguage(AdjudicatorError):
    """A language the adjudicator has no catalogue for."""


def N_(message: str) -> str:
    """``message`` itself, marked for the catalogue: it is translated where it is shown."""
    return message


class Said(str):
    """A message as written in English, that keeps its ``template`` and ``values`` so
    that it can be said again in a reader's language (:func:`say_in`). It is the
    English text itself wherever a string is wanted (a command's output, a record, an
    equality), so that what is made in English where the orders are read is rendered in
    the reader's language only where that reader's mail is written."""

    template: str
    values: dict[str, Any]

    def in_words(self, gettext: Any, ngettext: Any = None) -> str:
        """The message in the language of ``gettext`` (see :func:`say_in`)."""
        return gettext(self.template) % {name: say_in(value, gettext, ngettext) if hasattr(value, "in_words")
                                         else value for name, value in self.values.items()}


def said(template: str, **values: Any) -> Said:
    """``template`` filled with ``values`` (``%(name)s`` placeholders; a value may write
    itself too: a :class:`Said`, a ``Phrase``), in English, keeping both for :func:`say_in`."""
    text = Said(template % values)
    text.template, text.values = template, values
    return text


def say_in(text: str, gettext: Any = None, ngettext: Any = None) -> str:
    """``text`` in the language of ``gettext`` (and ``ngettext``): a text that writes
    itself (a :class:`Said`: its template translated and filled with its values, each
    said in that language too; :class:`adjudicator.engine.requests.Phrase`, a
    question's prompt) as it writes itself; any other text, and every text without
    ``gettext``, as it is."""
    if gettext is None or not hasattr(text, "in_words"):
        return str(text)
    return text.in_words(gettext, ngettext)


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """A message's singular and plural, marked for the catalogue: they are translated
    with ``ngettext`` where the count is known and the words are shown."""
    return singular, plural


def check_language(language: object, where: str = "language") -> str:
    """``language`` when it is one the adjudicator speaks; else :class:`UnknownLanguage`,
    naming the languages there are."""
    if isinstance(language, str) and language.strip().lower() in LANGUAGES:
        return language.strip().lower()
    raise UnknownLanguage(f"{where} = {language!r} is not a language of the adjudicator; it is one of "
                          + ", ".join(repr(code) for code in LANGUAGES)
                          + f" ({DEFAULT_LANGUAGE!r} when not given)")


def catalogue_path(language: str) -> Path:
    """The ``.po`` file of ``language``."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=None)
def words(language: str | None = None) -> gettext.NullTranslations:
    """The translations of ``language`` (None: the default). English gives each message
    back as written; another language's catalogue is compiled from its ``.po`` the first
    time this process asks for it. Raises :class:`UnknownLanguage` for a language there
    is no catalogue of."""
    language = check_language(language or DEFAULT_LANGUAGE)
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return _compiled(catalogue_path(language), language)


def _compiled(path: Path, language: str) -> gettext.NullTranslations:
    """The catalogue ``path`` read by Babel and compiled in memory (fuzzy entries left
    out, as ``pybabel compile`` leaves them)."""
    from io import BytesIO

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with path.open("rb") as source:
        catalogue = read_po(source, locale=language, domain=DOMAIN)
    compiled = BytesIO()
    write_mo(compiled, catalogue, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def source_messages(root: Path) -> set[str]:
    """Every message the sources under ``root`` mark, as Babel extracts them with
    ``root/babel.cfg`` (singular and plural forms alike)."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (root / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    keywords = {**DEFAULT_KEYWORDS, **{name: None for name in KEYWORDS}, **PLURAL_KEYWORDS}
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(str(root), method_map, options_map,
                                                                          keywords=keywords):
        found.update(text for text in (message if isinstance(message, tuple) else (message,)) if text)
    return found


#: The functions of a game's rules whose second argument is a template of the
#: narrative (``table.say(kind, template, *values)``, ``Event.later(kind, template,
#: values)``): Babel's extraction reads them in the rules' modules that ``babel.cfg``
#: hands to :func:`extract_narration`.
NARRATION_KEYWORDS = ("say", "later")
#: The functions whose first argument is a template of the narrative given as a value
#: of another (``Phrase("{} lost (4.3.1)", name)``, :class:`adjudicator.engine.requests.Phrase`).
PHRASE_KEYWORDS = ("Phrase",)


def extract_narration(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Any:
    """Babel's Python extractor, for a game's rules: the usual marks, the second
    argument of each call of :data:`NARRATION_KEYWORDS` and the first of each of
    :data:`PHRASE_KEYWORDS` (a template written as a string; one written as an
    f-string is no template, and is left in English)."""
    from babel.messages.extract import extract_python

    for line, name, messages, comments in extract_python(fileobj, [*keywords, *NARRATION_KEYWORDS,
                                                                     *PHRASE_KEYWORDS], comment_tags, options):
        if name in PHRASE_KEYWORDS:
            first = messages[0] if isinstance(messages, tuple) else messages
            if isinstance(first, str):
                yield line, "N_", first, comments
        elif name not in NARRATION_KEYWORDS:
            yield line, name, messages, comments
        elif isinstance(messages, tuple) and len(messages) > 1 and isinstance(messages[1], str):
            yield line, "N_", messages[1], comments


def language_of(player: object) -> str:
    """The language a player's entry in the campaign's metadata reads (the default
    when it names none)."""
    if isinstance(player, dict):
        chosen = player.get("language")
        if isinstance(chosen, str) and chosen in LANGUAGES:
            return chosen
    return DEFAULT_LANGUAGE


#: The sides' names as players read them (a side's id, capitalised, is its English name).
SIDE_NAMES = (N_("Japan"), N_("Russia"))


def side_title(side: str, translations: gettext.NullTranslations) -> str:
    """A side's name in the reader's language ("Japan", "Japon")."""
    return translations.gettext(side.capitalize())
