"""Counting in words for Tsushima 1905's narrative and reports: "1 die", "3 dice",
"a fire", "2 floods" -- never "1 dice" or "hit(s)".

A count and a list are values that write themselves: in English as ``str()`` gives
them, and in a reader's language through ``in_words(gettext, ngettext)`` (the
catalogue's singular and plural, :func:`adjudicator.i18n.N_plural`), so that the
narrative's templates and the reports put them into any language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from adjudicator.engine.requests import value_in_words
from adjudicator.i18n import N_, N_plural

#: Each counted word: its singular and plural, with the count's place.
COUNTED = {
    "die": N_plural("{} die", "{} dice"),
    "CP": N_plural("{} CP", "{} CPs"),
    "hit": N_plural("{} hit", "{} hits"),
    "fire": N_plural("{} fire", "{} fires"),
    "flood": N_plural("{} flood", "{} floods"),
    "card": N_plural("{} card", "{} cards"),
    "torpedo attack": N_plural("{} torpedo attack", "{} torpedo attacks"),
    "prime activation": N_plural("{} prime activation", "{} prime activations"),
    "enemy ship": N_plural("{} enemy ship", "{} enemy ships"),
    "real die": N_plural("{} real die", "{} real dice"),
    "counter-torpedo die": N_plural("{} counter-torpedo die", "{} counter-torpedo dice"),
}
#: "no fire", "a fire" (:func:`some`).
SOME = {"fire": (N_("no fire"), N_("a fire")), "flood": (N_("no flood"), N_("a flood"))}
def _english(singular: str, plural_form: str, count: int) -> str:
    return singular if count == 1 else plural_form


@dataclass(frozen=True, slots=True)
class Count:
    """A number of things in words: ``forms`` (singular, plural) with the count's
    place; ``none`` and ``one``, when given, say zero and one instead ("no fire", "a
    fire")."""

    count: int
    forms: tuple[str, str]
    none: str = ""
    one: str = ""

    def in_words(self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> str:
        if self.count == 0 and self.none:
            return gettext(self.none)
        if self.count == 1 and self.one:
            return gettext(self.one)
        return ngettext(*self.forms, self.count).format(self.count)

    def __str__(self) -> str:
        return self.in_words(str, _english)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def counted(count: int, word: str) -> Count:
    """``count`` and ``word``, its plural unless the count is 1: "1 die", "0 dice"."""
    return Count(count, COUNTED[word])


def some(count: int, word: str) -> Count:
    """Like :func:`counted`, but "a fire" for one and "no fire" for none."""
    none, one = SOME[word]
    return Count(count, COUNTED[word], none, one)


def spaced(values: Iterable[int]) -> str:
    """Dice as they are read aloud: "6 1 2"."""
    return " ".join(str(v) for v in values)


#: How a list of two or more ends: "a and b", "a, b and c".
AND = N_("{} and {}")


@dataclass(frozen=True, slots=True)
class Listed:
    """Items in words: "a", "a and b", "a, b and c" (each item a text or a value that
    writes itself)."""

    items: tuple[Any, ...]

    def in_words(self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> str:
        items = [str(value_in_words(item, gettext, ngettext)) for item in self.items]
        if len(items) <= 1:
            return "".join(items)
        return gettext(AND).format(", ".join(items[:-1]), items[-1])

    def __str__(self) -> str:
        return self.in_words(str, _english)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __bool__(self) -> bool:
        return bool(self.items)


def listed(items: Iterable[Any]) -> Listed:
    """"a", "a and b", "a, b and c"."""
    return Listed(tuple(items))


@dataclass(frozen=True, slots=True)
class Phrase:
    """A part of a sentence from a template and its values (a clause the sentence
    has or has not: ", Admiral +1"), written as :class:`Count` is."""

    template: str
    values: tuple[Any, ...] = ()

    def in_words(self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> str:
        return gettext(self.template).format(*(value_in_words(value, gettext, ngettext) for value in self.values))

    def __str__(self) -> str:
        return self.in_words(str, _english)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def phrase(template: str, *values: Any) -> Phrase:
    return Phrase(template, values)


#: Words of the state that the narrative and the reports put in as they are (a ship's
#: status, the kind of a victory), marked for the catalogue: a reader's language
#: translates them where they are shown.
STATE_WORDS = (N_("active"), N_("surrendered"), N_("abandoned"), N_("sunk"), N_("withdrawn"),
               N_("decisive"), N_("marginal"), N_("conceded"))


class Worded(str):
    """A text written from a template and its values -- a question's prompt -- that is
    the English text itself (a ``str``, compared, stored and shown as before) and can
    be written in a reader's language (``in_words``, as :class:`Phrase`)."""

    __slots__ = ("template", "values")

    def __new__(cls, template: str, *values: Any) -> "Worded":
        worded = super().__new__(cls, template.format(*values))
        worded.template, worded.values = template, values
        return worded

    def in_words(self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> str:
        return Phrase(self.template, self.values).in_words(gettext, ngettext)

    def __reduce__(self) -> tuple:
        return Worded, (self.template, *self.values)
