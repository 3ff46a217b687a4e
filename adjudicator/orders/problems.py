"""What can be wrong with an orders file, each with a stable code.

Every check collects :class:`OrderProblem` objects instead of stopping at the first;
the parser raises one :class:`OrdersError` carrying all of them. Library code never
prints: :meth:`OrderProblem.render` gives the text a command shows. The codes are
listed (with examples) in docs/orders.md and never change meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable, Mapping

from adjudicator.errors import AdjudicatorError
from adjudicator.i18n import N_, said, say_in
from adjudicator.orders.keywords import COMMON, every_french_spelling, spellings

#: The generic codes (E1xx: the file, its blocks and its header; E3xx: numbers; E900),
#: with their titles. Each game declares its own range in its orders language's
#: ``CODES`` (Port Arthur: E2xx). Keep in step with docs/orders.md ("Error codes").
CODES: dict[str, str] = {
    "E100": N_("file too large"),
    "E101": N_("unexpected word"),
    "E102": N_("unexpected character"),
    "E103": N_("line ends too early"),
    "E104": N_("unknown heading"),
    "E105": N_("not a text file"),
    "E106": N_("no orders found"),
    "E107": N_("orders too long written out"),
    "E110": N_("block given twice"),
    "E111": N_("header line given twice"),
    "E112": N_("header line missing"),
    "E113": N_("bad header value"),
    "E114": N_("orders for another campaign"),
    "E115": N_("conflicting entries"),
    "E116": N_("entry not allowed in this block"),
    "E301": N_("number out of range"),
    "E900": N_("too many errors"),
}

#: Codes that make the input unusable as a whole (the check command exits with 2).
UNUSABLE = frozenset({"E100", "E105"})

#: The most problems reported for one file; further ones are summed up by E900.
MAX_PROBLEMS = 50
#: The message of a problem found past MAX_PROBLEMS: only counted, for E900's sum.
NOT_SHOWN = "(not shown)"


@dataclass(frozen=True)
class OrderProblem:
    """One thing wrong with an orders file, located at ``line``:``column`` (1-based).

    ``source`` is the text of that line (as the parser saw it: tabs as spaces; the
    value of a password line, even of a mistyped one, masked),
    ``expected`` lists what would have been accepted there, ``suggestions`` the
    near-miss names ("did you mean ...").
    """

    code: str
    message: str
    line: int = 0
    column: int = 0
    source: str = ""
    expected: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    titled: str = field(default="", compare=False, repr=False)  # the title of a game's own code
    hint: str = ""  # what to do, when the message alone does not say

    @property
    def title(self) -> str:
        return self.titled or CODES.get(self.code, "problem")

    def headline(self, gettext: Callable[[str], str] | None = None) -> str:
        """One line: where, the code and what is wrong, with suggestions (in the
        language of ``gettext``; English, as the orders reader made it, without)."""
        tr = gettext or _as_written
        where = tr("line %(line)s, column %(column)s:") % {"line": self.line, "column": self.column} + " " \
            if self.line else ""
        text = f"{where}{self.code} {say_in(self.message, gettext)}"
        if self.expected:
            text += tr("; expected %(choices)s") % {"choices": _or_list(tuple(tr(e) for e in self.expected), tr)}
        if self.suggestions:
            text += tr("; did you mean %(names)s?") % {
                "names": _or_list(tuple(repr_name(s) for s in self.suggestions), tr)}
        if self.hint:
            text += ("" if text.endswith(("?", ".")) else ".") + " " + tr("Hint: %(hint)s") % {
                "hint": say_in(self.hint, gettext)}
        return text

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        """The headline, then the line quoted with a caret under the column."""
        lines = [self.headline(gettext)]
        if self.line and self.source.strip():
            lines.append(f"    {self.source.rstrip()}")
            lines.append("    " + " " * max(self.column - 1, 0) + "^")
        return "\n".join(lines)

    def title_in(self, gettext: Callable[[str], str] | None = None) -> str:
        """The code's title in the language of ``gettext``."""
        return (gettext or _as_written)(self.title)

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "title": self.title,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "source": self.source,
            "expected": list(self.expected),
            "suggestions": list(self.suggestions),
            "hint": self.hint,
        }


def repr_name(name: str) -> str:
    """A name as quoted in messages."""
    return f'"{name}"'


def _or_list(items: tuple[str, ...], tr: Callable[[str], str] | None = None) -> str:
    if len(items) <= 1:
        return "".join(items)
    return (tr or _as_written)("%(some)s or %(last)s") % {"some": ", ".join(items[:-1]), "last": items[-1]}


def _as_written(message: str) -> str:
    return message


class OrdersError(AdjudicatorError):
    """The orders could not be accepted; ``problems`` lists every reason found.

    ``partial``: the orders as far as they could be read (None when nothing could),
    for a caller that reports more than the problems (whether the password is
    right); ``notes``: such further findings, told to the player after the problems.
    """

    def __init__(self, problems: Iterable[OrderProblem], partial=None, notes: Iterable[str] = ()) -> None:
        self.problems: tuple[OrderProblem, ...] = tuple(sort_problems(problems))
        self.partial = partial
        self.notes: tuple[str, ...] = tuple(notes)
        count = len(self.problems)
        super().__init__(f"{count} problem{'s' if count != 1 else ''} in the orders")

    def noting(self, *notes: str) -> "OrdersError":
        """The same error with ``notes`` added."""
        return OrdersError(self.problems, self.partial, (*self.notes, *notes))

    @property
    def unusable(self) -> bool:
        """Whether the input could not be read as orders at all."""
        return any(p.code in UNUSABLE for p in self.problems)

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        tr = gettext or _as_written
        return "\n".join([*(p.render(gettext) for p in self.problems),
                          *(tr("Note: %(note)s") % {"note": say_in(n, gettext)} for n in self.notes)])


def sort_problems(problems: Iterable[OrderProblem]) -> list[OrderProblem]:
    """Problems in file order; at most MAX_PROBLEMS, then one E900 summing up the rest
    (those only counted, :data:`NOT_SHOWN`, among them, wherever they are in the file)."""
    unique = set(problems)
    ordered = sorted((p for p in unique if p.message != NOT_SHOWN),
                     key=lambda p: (p.line, p.column, p.code, p.message))
    counted = len(unique) - len(ordered)
    if len(ordered) <= MAX_PROBLEMS and not counted:
        return ordered
    rest = max(0, len(ordered) - MAX_PROBLEMS) + counted
    return ordered[:MAX_PROBLEMS] + [
        OrderProblem("E900", said("%(count)s more problems not shown; fix these first", count=rest)
                     if rest != 1 else said("1 more problem not shown; fix these first"))
    ]


_NOT_LETTERS = re.compile(r"[\W\d_]+")
#: Header keys whose value is secret, in English and in French ("mot de passe", read
#: as its letters): an error never quotes it.
SECRET_KEYS = tuple(dict.fromkeys(_NOT_LETTERS.sub("", word).casefold() for key in ("password", "reveal")
                                  for word in (key, *spellings(key, COMMON))))
#: Those of several words, as their letters ("motdepasse").
SECRET_PHRASES = tuple(_NOT_LETTERS.sub("", word).casefold() for key in ("password", "reveal")
                       for word in spellings(key, COMMON) if " " in word)
MASK = "********"
#: The first words of a line (a key of up to three words: "mot de passe").
_FIRST_WORDS = re.compile(r"^\s*([^\W\d_][\w'\-]*)(?:\s+([^\W\d_][\w'\-]*))?(?:\s+([^\W\d_][\w'\-]*))?")
_KEY_ANYWHERE = re.compile(r"(?:pass\w+|pwd?|reveal|mot\s*de\s*pas\w*|r[ée]v[ée]ler)\s*:\s*", re.I)
_QUOTED = re.compile(r'"([^"]*)"')
_COMMENT = re.compile(r"\s+#")


@lru_cache(maxsize=4096)
def looks_secret(key: str) -> bool:
    """Whether ``key`` is, or is a misspelling of, a key whose value is secret."""
    word = key.casefold()
    if word in every_french_spelling() and word not in SECRET_KEYS:  # a keyword: "passe" (pass)
        return False
    return (len(word) > 4 and word.startswith("pass")) or word in ("pw", "pwd") or any(
        _difflib().SequenceMatcher(None, word, secret).ratio() >= 0.7 for secret in SECRET_KEYS)


def looks_secret_phrase(letters: str) -> bool:
    """Whether ``letters`` (the words of a key run together) are, or are a misspelling
    of, a secret key of several words ("mot de passe", "mot de pase")."""
    word = letters.casefold()
    return any(_difflib().SequenceMatcher(None, word, phrase).ratio() >= 0.8 for phrase in SECRET_PHRASES)


def secret_in(line: str) -> tuple[str, str] | None:
    """``(line with its secrets masked, the secrets)`` when ``line`` gives a password,
    or looks like a mistyped password line; None otherwise. Each value is masked up
    to a comment, and a password key further along the line (after a comment, in an
    HTML message read as one line) is masked too."""
    start, done, parts, secrets = _secret_start(line), 0, [], []
    while start is not None:
        value = _COMMENT.split(line[start:], maxsplit=1)[0]
        parts.append(line[done:start] + (MASK if value.strip() else value))
        secrets += [value.strip()] if value.strip() else []
        done = start + len(value)
        later = _KEY_ANYWHERE.search(line, done)
        start = later.end() if later else None
    if not secrets:
        return None
    return "".join(parts) + line[done:], " ".join(secrets)


def _secret_start(line: str) -> int | None:
    """Where the secret of ``line`` starts: after a key that looks like a password key
    (however mangled: "passw;od:", "pass word:"), written before a colon or as the
    first word; or after "password:" anywhere in the line (an HTML message read as
    one line, two lines run together)."""
    head, colon, rest = line.partition(":")
    if colon and len(head) <= 24 and looks_secret(_NOT_LETTERS.sub("", head)):
        return len(head) + 1 + len(rest) - len(rest.lstrip())
    first = _FIRST_WORDS.match(line)
    if first:
        for count in (1, 2, 3):
            words = [w for w in first.groups()[:count] if w]
            if len(words) == count and (looks_secret(words[0]) if count == 1 else looks_secret_phrase("".join(words))):
                end = first.end(count)
                if end < len(line) and line[end].isspace():
                    return end + len(line[end:]) - len(line[end:].lstrip())
                break
    later = _KEY_ANYWHERE.search(line)
    return later.end() if later else None


def mask_quotes(message: str, secret: str) -> str:
    """``message`` with every quoted part that holds any of ``secret`` masked."""
    words = set(secret.split())

    def mask(quoted: re.Match) -> str:
        content = quoted.group(1)
        shows = content.strip() and (content in secret or secret in content or words & set(content.split()))
        return f'"{MASK}"' if shows else quoted.group(0)

    return _QUOTED.sub(mask, message)


@dataclass
class ProblemLog:
    """Collects problems while a file is read; knows the file's lines for quoting."""

    lines: list[str]
    problems: list[OrderProblem] = field(default_factory=list)
    codes: Mapping[str, str] = field(default_factory=dict)  # the game's own codes and titles
    notes: list[str] = field(default_factory=list)          # how the reader read the text (not problems)

    def note(self, message: str | None, line: int = 0) -> None:
        """Record how a part of the orders was read ("line 3: 'Gd' read as Gds"): a name
        completed from a unique prefix (``Lookup.reading``), so that nothing is rewritten
        without a line that says so. A note is not a problem: the orders are accepted.
        None: nothing to note."""
        if message is None:
            return
        text = said("line %(line)s: %(note)s", line=line, note=message) if line else message
        if text not in self.notes:
            self.notes.append(text)

    def add(
        self,
        code: str,
        message: str,
        line: int = 0,
        column: int = 0,
        expected: Iterable[str] = (),
        suggestions: Iterable[str] = (),
        quote: bool = True,
    ) -> None:
        """Record a problem at ``line``:``column``, quoting that line (unless ``quote``
        is false: a problem of the whole file, placed where the orders begin).

        Once the log is :attr:`full`, a problem is only counted, for E900's sum: its
        line is not quoted (nor searched for a password), so a long line of bad
        entries costs time in proportion to its length."""
        if self.full:
            self.problems.append(OrderProblem(code, NOT_SHOWN, line, column))
            return
        source = self.lines[line - 1] if quote and 0 < line <= len(self.lines) else ""
        secret = secret_in(source)
        if secret is not None:
            source = secret[0]
            masked = mask_quotes(message, secret[1])
            message = message if masked == message else masked  # unmasked, it keeps its template
            suggestions = [s for s in suggestions if s not in secret[1]]
        self.problems.append(
            OrderProblem(code, message, line, column, source, tuple(expected), tuple(suggestions),
                         self.codes.get(code, ""))
        )

    @property
    def full(self) -> bool:
        """Whether the log holds the most problems a report shows (MAX_PROBLEMS): a
        reader then looks no further for close names to suggest."""
        return len(self.problems) >= MAX_PROBLEMS

    def __bool__(self) -> bool:
        return bool(self.problems)


def _difflib():
    """The standard ``difflib`` (loaded only when a close match is wanted)."""
    import difflib

    return difflib
