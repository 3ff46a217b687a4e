"""What rules yield to the engine: questions, dice and events.

A game's rules are a generator. Wherever the rulebook says *a player chooses*, the
rules yield a :class:`Decision` and receive the player's (validated) answer; wherever
it says *roll*, they yield a :class:`Roll` and receive the dice; where the rulebook
has several sides choose at once (both sides' orders for a turn, simultaneous
movement), a :class:`Simultaneous` stop and receive every side's answer together; to
shuffle a deck,
a :class:`Shuffle` and receive the new order; to turn over cards from a face-down
pile one at a time, a :class:`Draw` and receive which cards came. They narrate what happened through a
callback, and may yield an :class:`Event` where a driver may want to pause. Nothing here knows about
any particular game.
"""

from __future__ import annotations

import re

from collections.abc import Mapping as _Mapping
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from operator import attrgetter
from typing import Any, Callable, Mapping, TypeVar

from adjudicator.engine.errors import IllegalAnswer


C = TypeVar("C", bound=type)


def quick_init(cls: C) -> C:
    """Give a frozen, slotted dataclass an ``__init__`` that writes each slot through its
    descriptor: the same parameters and defaults as the one ``dataclasses`` writes, which
    goes through ``object.__setattr__`` field by field and takes twice as long (rules ask,
    roll and answer hundreds of times a game). Use below ``@dataclass(frozen=True,
    slots=True)``; a field with a ``default_factory`` is not supported."""
    names, defaults, params = [], {}, []
    for f in fields(cls):
        if f.default_factory is not MISSING:
            raise TypeError(f"quick_init: {cls.__name__}.{f.name} has a default_factory")
        names.append(f.name)
        if f.default is MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    scope = {f"_set_{name}": getattr(cls, name).__set__ for name in names} | defaults
    body = "".join(f"    _set_{name}(self, {name})\n" for name in names) or "    pass\n"
    exec(f"def __init__(self, {', '.join(params)}):\n{body}", scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init
    return cls


def _already_answered(answer: Mapping[str, Any]) -> Any:
    raise IllegalAnswer("this question has been answered already")


@quick_init
@dataclass(frozen=True, slots=True)
class Decision:
    """A question for one side.

    ``kind`` names the decision (a game's own vocabulary, e.g. ``"navo"``),
    ``options`` describes the legal answers as plain JSON-able data (for reports,
    for automatic players and for the orders language), and ``parse`` turns a
    JSON-able answer into the game's typed answer, raising :class:`IllegalAnswer`
    with a reason when the answer is not legal.
    """

    side: str
    kind: str
    options: Any
    prompt: str
    parse: Callable[[Mapping[str, Any]], Any] = field(compare=False, repr=False)
    hidden: bool = False
    """The answer is secret from the other sides until the game ends (a secret
    flagship, a move under the fog of war): the public record carries it only as a
    salted commitment, opened at the end."""

    def accept(self, answer: Mapping[str, Any]) -> Any:
        """Validate ``answer``; return the typed answer or raise IllegalAnswer."""
        if type(answer) is not dict and not isinstance(answer, _Mapping):
            raise IllegalAnswer(f"an answer to {self.kind!r} must be a table of keys, got {answer!r}")
        return self.parse(answer)

    def spent(self) -> "Decision":
        """This question as a match's record of what was asked keeps it once answered:
        which side was asked which kind of question, and whether its answer is hidden;
        without the options, the prompt and the reader, which only answering needs (a
        long game asks hundreds of questions, and one record serves them all)."""
        return Decision(self.side, self.kind, None, "", _already_answered, self.hidden)


@dataclass(frozen=True, slots=True)
class Simultaneous:
    """Several sides asked at one stop, one :class:`Decision` each (distinct sides).

    Each side's answer comes on its own and in any order (the match keeps each as it
    comes, checked by that side's Decision); the rules go on only once every side has
    answered, and receive the answers together: side -> typed answer. A history keeps
    one answer entry per side, in the order they came."""

    decisions: tuple[Decision, ...]

    def __post_init__(self) -> None:
        sides = [decision.side for decision in self.decisions]
        if not sides or len(set(sides)) != len(sides):
            raise ValueError(f"a simultaneous stop asks each side once, and at least one side: {sides}")

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides asked, in the order the rules gave."""
        return tuple(decision.side for decision in self.decisions)


@quick_init
@dataclass(frozen=True, slots=True)
class Roll:
    """Dice to roll: ``count`` dice of ``sides`` faces, for ``purpose``.

    ``side`` is the side that rolls (or None when the roll is nobody's), ``turn`` and
    ``phase`` locate the roll in the game for the dice derivation and the reports.
    """

    count: int
    purpose: str
    side: str | None = None
    turn: int = 0
    phase: str = ""
    sides: int = 6
    hidden: bool = False
    """The result is not public at once (a die only one side may see): drawn from the
    hidden seed stream, which is revealed when the game ends."""


@quick_init
@dataclass(frozen=True, slots=True)
class Shuffle:
    """A deck of ``size`` cards to shuffle: answered with a permutation of
    ``range(size)`` drawn from the same verifiable stream as the dice (card games).

    ``order[i]`` of the answer is the index, in the deck as it was, of the card now
    at position ``i``."""

    size: int
    purpose: str
    side: str | None = None
    turn: int = 0
    phase: str = ""
    hidden: bool = False
    """The order is not public at once (a face-down deck, cards drawn into a hidden
    hand): drawn from the hidden seed stream, which is revealed when the game ends, so
    that nothing published before a card is shown lets anyone compute it."""
    cards: tuple[str, ...] = field(default=(), compare=False)
    """The cards' names in their current order, when the rules name them (a
    conformance case then gives the new order by name)."""


@quick_init
@dataclass(frozen=True, slots=True)
class Draw:
    """Turn over ``count`` cards, one at a time, from a face-down pile whose order is
    not part of the state (``cards``: the pile's cards, in any fixed order).

    Answered with the indexes in ``cards`` of the cards drawn, in the order drawn
    (distinct). Drawing card by card at the moment of drawing, rather than shuffling
    the pile beforehand, means nothing is decided before the card is turned."""

    cards: tuple[str, ...]
    count: int
    purpose: str
    side: str | None = None
    turn: int = 0
    phase: str = ""
    hidden: bool = False
    """The cards drawn are not public at once (a card drawn into a hidden hand):
    drawn from the hidden seed stream, revealed when the game ends."""


def _refuse(name: str, change: str) -> Callable[..., None]:
    def refuse(self: Any, *value: Any) -> None:
        raise FrozenInstanceError(f"cannot {change} field {name!r}")
    return refuse


def _read_only(slot: str, name: str) -> property:
    """A frozen field: reads ``slot``; writing or deleting it raises FrozenInstanceError."""
    return property(attrgetter(slot), _refuse(name, "assign to"), _refuse(name, "delete"), f"The event's {name}.")


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def _has_words(template: str) -> bool:
    """Whether a template has words of its own, outside its placeholders."""
    return any(character.isalpha() for character in re.sub(r"\{[^{}]*\}", "", template))


def value_in_words(value: Any, gettext: Callable[[str], str],
                   ngettext: Callable[[str, str, int], str] | None = None) -> Any:
    """A value of a narrative's template in the language of ``gettext``: a value with
    an ``in_words(gettext, ngettext)`` of its own writes itself; a text is translated
    where the catalogue has it; anything else (a number) is put in as it is."""
    if hasattr(value, "in_words"):
        return value.in_words(gettext, ngettext or _english_plural)
    if isinstance(value, str) and value:
        return gettext(value)
    return value


class Event:
    """Something that happened, for the narrative: ``kind``, ``text``, ``data`` (JSON-able)
    and ``visible_to`` (None: every side may see it). Frozen, like the other requests.

    Narration is written only when read: :meth:`later` takes the text as a template
    and its values, and ``text`` is ``template.format(*values)`` the first time a
    report, a view or a listing reads it -- the same words as an f-string with those
    values in place. The values are taken when the event happens, so pass values that
    do not change afterwards (numbers, names, tuples), never a ship or a list.

    :meth:`in_words` writes the text in a reader's language: the template (or the
    text of an event told at once) as the reader's catalogue translates it, with the
    same values.
    """

    # One object per event, its fields in slots (a long game tells hundreds of events and
    # a finished match keeps them all: each object more is one more for the cyclic
    # garbage collector to walk), written as plain attributes when the event is made
    # (the fields read through properties that refuse to be written). ``_text`` is the
    # text, or the template while ``_values`` holds its values (None once written).
    __slots__ = ("_kind", "_text", "_visible_to", "_values", "_data", "_template", "_args")

    def __init__(self, kind: str, text: str, data: Mapping[str, Any] | None = None,
                 visible_to: tuple[str, ...] | None = None) -> None:
        self._kind = kind
        self._text = text
        self._visible_to = visible_to
        self._values = None
        self._data = {} if data is None else data
        self._template = None
        self._args = ()

    @classmethod
    def later(cls, kind: str, template: str, values: tuple, data: Mapping[str, Any] | None = None,
              visible_to: tuple[str, ...] | None = None) -> "Event":
        """An event whose text, ``template.format(*values)``, is written when first read."""
        event = _new(cls)
        event._kind = kind
        event._text = template
        event._visible_to = visible_to
        event._values = values
        event._data = {} if data is None else data
        event._template = template
        event._args = values
        return event

    kind: str = _read_only("_kind", "kind")  # type: ignore[assignment]
    visible_to: tuple[str, ...] | None = _read_only("_visible_to", "visible_to")  # type: ignore[assignment]
    data: Mapping[str, Any] = _read_only("_data", "data")  # type: ignore[assignment]

    def _written(self) -> str:
        """What happened, in words (written now if it was told for later)."""
        values = self._values
        if values is not None:
            self._text = self._text.format(*values)
            self._values = None
        return self._text

    text: str = property(_written, _refuse("text", "assign to"), _refuse("text", "delete"))  # type: ignore[assignment]

    def in_words(self, gettext: Callable[[str], str] | None = None,
                 ngettext: Callable[[str, str, int], str] | None = None) -> str:
        """The text in the language of ``gettext``: its template translated, then the
        values put in (each text value translated too, where the catalogue has it: a
        phase's title; a value that writes itself, with an ``in_words(gettext,
        ngettext)`` of its own -- a count, a list, a salvo -- is asked to); the text as
        told when the catalogue has no translation."""
        if gettext is None:
            return self.text
        template = self.text if self._template is None else self._template
        translated = gettext(template)
        if self._template is None:
            return translated if translated != template else self.text
        if translated == template and (_has_words(template)
                                       or not any(hasattr(value, "in_words") for value in self._args)):
            return self.text   # not in the catalogue: as told (a template of no words, "{}: {}", has its values written)
        return translated.format(*(value_in_words(value, gettext, ngettext) for value in self._args))

    def _fields(self) -> tuple:
        return (self.kind, self.text, self.data, self.visible_to)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Event(kind={self.kind!r}, text={self.text!r}, data={self.data!r}, "
                f"visible_to={self.visible_to!r})")

    def __reduce__(self) -> tuple:
        return (Event, self._fields())


_new = object.__new__


class Phrase(str):
    """A text written as a template with values: a value of a narrative's template that
    has values of its own (a reason, ``Phrase("{} lost (4.3.1)", name)``), or a
    question's prompt. As a text, its English words, ``template.format(*values)``, so
    that the English reads the same as the f-string it replaces; :meth:`in_words`
    writes it in a reader's language, as :meth:`Event.in_words` writes an event. Copied
    or pickled, it is its English words (a plain ``str``)."""

    template: str
    values: tuple

    def __new__(cls, template: str, *values: Any) -> "Phrase":
        phrase = super().__new__(cls, template.format(*values))
        phrase.template = template
        phrase.values = values
        return phrase

    def in_words(self, gettext: Callable[[str], str],
                 ngettext: Callable[[str, str, int], str] | None = None) -> str:
        """The phrase in the language of ``gettext`` (its English words when the
        catalogue has no translation of its template)."""
        translated = gettext(self.template)
        if translated == self.template:
            return str(self)
        return translated.format(*(value_in_words(value, gettext, ngettext) for value in self.values))

    def __reduce__(self) -> tuple:
        return (str, (str(self),))


Request = Decision | Simultaneous | Roll | Shuffle | Draw
CHANCE = (Roll, Shuffle, Draw)
"""The requests answered by chance (dice, shuffles, card draws), not by a player."""
