"""A player's choice of language by mail: a line ``language: fr``.

Beside orders (anywhere in the mail's text but in quoted lines) the line is taken out
of what the orders reader reads (left as a blank line, so that the orders' line
numbers stay those the player wrote, and the canonical orders and their hash are the
same as without it) and carried out with the orders, once they are accepted: the
receipt says so, in the language chosen. Alone with the ``campaign:``, ``side:`` and
``password:`` lines, it is a command of the referee's desk
(:mod:`adjudicator.campaign.mail_desk`). A language the adjudicator has no catalogue
for is named on the receipt, and the orders are taken all the same.

The choice is kept in the campaign's metadata, beside the player's address (as
``language = "fr"`` in the players file of ``new`` puts it there): it survives in the
store, and ``status`` shows it.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from adjudicator.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, UnknownLanguage, check_language

#: The line: 'language: fr' (not quoted; a comment after '#' allowed).
LANGUAGE_LINE = re.compile(r"^[ \t]*language[ \t]*:[ \t]*([^\s#]*)[ \t]*(?:#.*)?$", re.IGNORECASE | re.MULTILINE)
#: Each language's name, as a player reads it in that language's catalogue.
NAMES = {"en": N_("English"), "fr": N_("French")}


def without_language_lines(text: str) -> tuple[str, list[str]]:
    """``text`` with each ``language:`` line left blank, and the languages they name
    (as written, in order)."""
    asked: list[str] = []

    def blank(found: re.Match[str]) -> str:
        asked.append(found.group(1))
        return ""

    return LANGUAGE_LINE.sub(blank, text), asked


def language_in(asked: list[str]) -> str | None:
    """The language a mail asks for: the last of its lines (None: none)."""
    return asked[-1] if asked else None


def with_language(meta: Mapping[str, Any], side: str, language: str) -> dict[str, Any]:
    """The campaign's metadata with ``side``'s mail in ``language`` (checked: an
    UnknownLanguage otherwise). The default language is kept as no key at all, as
    a campaign created without a choice has it."""
    language = check_language(language)
    player = {key: value for key, value in meta["players"][side].items() if key != "language"}
    if language != DEFAULT_LANGUAGE:
        player["language"] = language
    return {**meta, "players": {**meta["players"], side: player}}


def chosen_words(language: str, gettext: Any) -> str:
    """What the receipt says of a language chosen, in that language."""
    return gettext("From now on the referee's mail to your side is in %(language)s "
                   "(the line 'language: %(code)s' of your mail).") % {"language": gettext(NAMES[language]),
                                                                     "code": language}


def unknown_words(asked: str, current: str, gettext: Any) -> str:
    """What the receipt says of a language the adjudicator does not have."""
    return gettext("The line 'language: %(asked)s' of your mail names no language the referee "
                   "writes in (%(languages)s): your mail stays in %(language)s.") % {
        "asked": asked, "languages": ", ".join(LANGUAGES), "language": gettext(NAMES[current])}


def refused_words(asked: str, gettext: Any) -> str:
    """What a refusal of orders says of the language line beside them."""
    return gettext("Not carried out: the line 'language: %(asked)s' of your mail, as your orders were "
                   "not accepted. Send it again with your corrected orders, or alone with the campaign, "
                   "side and password lines.") % {"asked": asked}


__all__ = ["LANGUAGE_LINE", "NAMES", "UnknownLanguage", "chosen_words", "language_in", "refused_words",
           "unknown_words", "with_language", "without_language_lines"]
