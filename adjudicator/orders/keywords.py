"""French keywords beside the English ones (``grammar/keywords-fr.toml``).

The table gives each English keyword of a grammar its French keyword. When a grammar
is compiled (:func:`adjudicator.orders.grammar.lalr_parser`), its text is first
written with the French keywords in (:func:`with_french`); the ``.lark`` files stay
English only, as a person reads and edits them. For an English keyword:

- a named terminal (``DICE: "dice"i``) keeps its own definition, and gets one terminal
  more for each French spelling (``DICE_FR1: "dés"i``, ``DICE_FR2: "des"i``); the
  rules name the English terminal or its French ones (``(DICE | DICE_FR1 | DICE_FR2)``,
  or the inlined rule ``_kw_dice`` as a template's argument), so that the trees the
  readers see are those of the English file, keyword tokens aside;
- a keyword written in a rule (``"no"i _ENEMY``) becomes ``("no"i | _LIT_NO_FR1)``,
  ``_LIT_NO_FR1: "non"i``;
- a list of words inside a regexp (the keywords a name may not start with, the
  words after which a name ends, ``(else|otherwise)``) gets the French words too.

Each French keyword is its own plain-text terminal as the English one is, so that it
is told from a name exactly as its English twin is. It is read with or without its
accents ("opérations", "operations") and in any case. The French words never reach
the orders: a French file reads to the orders of its English twin, whose receipt
(in English) and hash are the same.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from functools import lru_cache
from typing import Iterable

from adjudicator.resources import data_dir

TABLE = "keywords-fr.toml"
#: The grammar every game's grammar imports its header from.
COMMON = "common"


@lru_cache(maxsize=None)
def _table() -> dict:
    with open(data_dir("grammar") / TABLE, "rb") as source:
        return tomllib.load(source)


def side_names(side: str) -> tuple[str, ...]:
    """The French names of ``side`` ("japan": "Japon", "Japonais"), read in ``side:``."""
    return tuple(_table().get("sides", {}).get(side, ()))


def _section(name: str) -> dict:
    return _table().get(name, {})


@lru_cache(maxsize=None)
def french_keywords(grammar: str) -> dict[str, tuple[str, ...]]:
    """English keyword -> its French keywords as the table writes them, for ``grammar``
    (a game, or ``common``): the shared header's and the game's own."""
    merged: dict[str, tuple[str, ...]] = {}
    for name in ((COMMON,) if grammar == COMMON else (COMMON, grammar)):
        for english, french in _section(name).items():
            if english == "variants" or name == "sides":
                continue
            merged[english] = (french,) if isinstance(french, str) else tuple(french)
    return merged


@lru_cache(maxsize=None)
def variants(grammar: str) -> dict[str, str]:
    """English spelling -> the keyword it is another spelling of ("re-roll" -> "reroll")."""
    merged: dict[str, str] = {}
    for name in ((COMMON,) if grammar == COMMON else (COMMON, grammar)):
        merged.update(_section(name).get("variants", {}))
    return merged


@lru_cache(maxsize=None)
def every_french_spelling() -> frozenset[str]:
    """Every French spelling of every grammar's keywords, case-folded."""
    return frozenset(spelling.casefold() for name in _table() if name != "sides"
                     for english in french_keywords(name) for spelling in spellings(english, name))


def unaccented(word: str) -> str:
    """``word`` without its accents ("opérations" -> "operations")."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def spellings(english: str, grammar: str) -> tuple[str, ...]:
    """The French spellings of ``english`` (with, then without accents), those that are
    not the English word itself; () for a word the table does not translate."""
    found: list[str] = []
    for french in french_keywords(grammar).get(english.casefold(), ()):
        for spelling in (french, unaccented(french)):
            if spelling.casefold() != english.casefold() and spelling not in found:
                found.append(spelling)
    return tuple(found)


@lru_cache(maxsize=None)
def english_words(game: str) -> dict[str, str]:
    """Every French spelling (case-folded) of ``game``'s keywords -> its English keyword."""
    return {spelling.casefold(): english for english in french_keywords(game)
            for spelling in spellings(english, game)}


def in_english(game: str, word: str) -> str:
    """``word`` (a keyword a reader keeps, such as "cuirassé") as the English keyword,
    case-folded; a word that is no French keyword, case-folded as it is."""
    folded = " ".join(word.casefold().split())
    return english_words(game).get(folded, folded)


def with_french_words(game: str, words: Iterable[str]) -> frozenset[str]:
    """``words`` (English keywords, lower case) and the French spellings of each."""
    return frozenset(w for word in words for w in (word, *(s.casefold() for s in spellings(word, game))))


# -- a grammar's text, French keywords written in --------------------------------------------------

#: A comment, a string literal or a regexp literal of a lark grammar.
_LITERAL = re.compile(r'//[^\n]*|"(?:[^"\\\n]|\\.)*"i?|/(?:[^/\\\n]|\\.)+/[imslux]*')
_TERMINAL_DEFINITION = re.compile(r"^(\s*)(_?[A-Z][A-Z0-9_]*)(\.\d+)?(\s*:\s*)(.*)$")
_RULE_DEFINITION = re.compile(r"^\s*[?!]?_?[a-z][a-z0-9_]*(\{[^}]*\})?\s*:")
_IMPORT = re.compile(r"^(\s*%import\s+\S+\s*\()([^)]*)(\).*)$")
#: A group of plain words in a regexp: ``(?:to|from|and)`` or ``(else|otherwise)``.
_WORD_GROUP = re.compile(r"(\(\?!)?\((\?:)?((?:[a-z]|\\-)+(?:\|(?:[a-z]|\\-)+)*)\)")
_NAME = re.compile(r"\b_?[A-Z][A-Z0-9_]*\b")


def with_french(grammar: str, text: str, common_counts: dict[str, int] | None = None) -> str:
    """The text of ``grammar`` (a game, or ``common``) with the French keywords written
    in (see the module's docstring). ``common_counts``: how many French terminals each
    terminal of the shared header has (:func:`french_terminal_counts` of its text as
    written here), imported beside it."""
    common_counts = common_counts or {}
    french_terminals: dict[str, list[str]] = {
        name: [f"{name}_FR{i}" for i in range(1, count + 1)] for name, count in common_counts.items()}
    out: list[tuple[bool, str]] = []  # (a line of a rule, the line)
    literals: dict[str, str] = {}
    in_terminal = False
    for line in text.split("\n"):
        definition = _TERMINAL_DEFINITION.match(line)
        if definition:
            in_terminal = True
            indent, name, priority, colon, body = definition.groups()
            out.append((False, f"{indent}{name}{priority or ''}{colon}{_literals(body, grammar, in_rule=False)}"))
            for number, spelling in enumerate(_terminal_spellings(body, grammar), 1):
                out.append((False, f"{name}_FR{number}{priority or ''}: {_literal(spelling)}"))
                french_terminals.setdefault(name, []).append(f"{name}_FR{number}")
            continue
        directive = line.lstrip().startswith("%")
        if _RULE_DEFINITION.match(line) or directive:
            in_terminal = False
        in_rule = not in_terminal and not directive
        out.append((in_rule, _literals(line, grammar, in_rule=True, literals=literals) if in_rule else line))
    result = []
    for in_rule, line in out:
        imported = _IMPORT.match(line)
        if imported:
            head, names, tail = imported.groups()
            listed = [n.strip() for n in names.split(",")]
            extra = [french for n in listed if n in common_counts for french in french_terminals[n]]
            line = head + ", ".join(listed + extra) + tail if extra else line
        elif in_rule:
            line = _outside_literals(line, lambda part: _named_with_french(part, french_terminals))
        result.append(line)
    for name, french in french_terminals.items():
        if _used(result, _kw_rule(name)):
            result.append(f"{_kw_rule(name)}: {' | '.join([name, *french])}")
    result += [f"{name}: {definition}" for name, definition in literals.items()]
    return "\n".join(result) + "\n"


def is_french_terminal(name: str) -> bool:
    """Whether terminal ``name`` is a French keyword written in by :func:`with_french`."""
    return _FRENCH_TERMINAL.search(name) is not None


_FRENCH_TERMINAL = re.compile(r"_FR\d+$")


def french_terminal_counts(text: str) -> dict[str, int]:
    """{terminal: how many French terminals it has} in a grammar text written by
    :func:`with_french`."""
    counts: dict[str, int] = {}
    for line in text.split("\n"):
        found = re.match(r"^(_?[A-Z][A-Z0-9_]*?)_FR(\d+)(\.\d+)?\s*:", line)
        if found:
            counts[found.group(1)] = max(counts.get(found.group(1), 0), int(found.group(2)))
    return counts


def _named_with_french(part: str, french_terminals: dict[str, list[str]]) -> str:
    """A piece of a rule with each terminal that has French ones written as the choice
    of them all, ``(DICE | DICE_FR1 | DICE_FR2)``, in place: each rule keeps its own
    parser states, so that the lexer of each state is the English grammar's, plus the
    French keywords. A template's argument must be a name: the inlined rule
    ``_kw_dice`` stands there for the choice."""
    pieces, last = [], 0
    for argument in re.finditer(r"\{[^{}]*\}", part):
        pieces.append(_NAME.sub(lambda m: _choice(m.group(0), french_terminals), part[last:argument.start()]))
        pieces.append(_NAME.sub(lambda m: _kw_rule(m.group(0)) if m.group(0) in french_terminals else m.group(0),
                                argument.group(0)))
        last = argument.end()
    pieces.append(_NAME.sub(lambda m: _choice(m.group(0), french_terminals), part[last:]))
    return "".join(pieces)


def _choice(name: str, french_terminals: dict[str, list[str]]) -> str:
    french = french_terminals.get(name)
    return f"({' | '.join([name, *french])})" if french else name


def _kw_rule(terminal: str) -> str:
    """The inlined rule naming a terminal and its French ones: ``_kw_`` and its name."""
    return "_kw_" + terminal.lower()


def _used(lines: list[str], rule: str) -> bool:
    pattern = re.compile(rf"(?<![\w]){re.escape(rule)}(?![\w])")
    return any(pattern.search(line) for line in lines)


def _outside_literals(line: str, change) -> str:
    """``line`` with ``change`` applied to its parts outside literals and comments."""
    parts, last = [], 0
    for found in _LITERAL.finditer(line):
        parts.append(change(line[last:found.start()]))
        parts.append(found.group(0))
        last = found.end()
    parts.append(change(line[last:]))
    return "".join(parts)


def _literals(line: str, grammar: str, in_rule: bool, literals: dict[str, str] | None = None) -> str:
    """``line`` with each regexp's word groups given the French words and, in a rule,
    each keyword string given its French spellings (terminals of their own, each
    added to ``literals``: name -> definition)."""

    def literal(found: re.Match) -> str:
        text = found.group(0)
        if text.startswith("//"):
            return text
        if text.startswith("/"):
            return _WORD_GROUP.sub(lambda group: _group(group, grammar), text)
        if in_rule:
            word = _string_value(text)
            french = spellings(word, grammar) if word is not None else ()
            if french:
                names = [f"_LIT_{re.sub(r'[^A-Z0-9]', '_', word.upper())}_FR{i}" for i in range(1, len(french) + 1)]
                if literals is not None:
                    literals.update({name: _literal(spelling) for name, spelling in zip(names, french)})
                return "(" + " | ".join([text, *names]) + ")"
        return text

    return _LITERAL.sub(literal, line)


def _string_value(literal: str) -> str | None:
    """The text of a keyword string literal (``"dice"i``), or None."""
    found = re.fullmatch(r'"([^"\\]*)"i?', literal)
    return found.group(1) if found and found.group(1)[:1].isalpha() else None


def _group(found: re.Match, grammar: str) -> str:
    negative, non_capturing, words = found.groups()
    listed = [w.replace("\\-", "-") for w in words.split("|")]
    extra: list[str] = []
    for word in listed:
        for spelling in spellings(word, grammar):
            if negative:  # a name may not start with (or go on with) its first word
                spelling = spelling.split()[0]
            if spelling.casefold() not in listed and spelling not in extra:
                extra.append(spelling)
    if not extra:
        return found.group(0)
    written = [_regexp_words(w) for w in extra]
    return f"{negative or ''}({non_capturing or ''}{words}|{'|'.join(written)})"


def _regexp_words(spelling: str) -> str:
    """A spelling as regexp text: words joined by runs of blanks, hyphens escaped."""
    return r"[ \t]+".join(re.escape(word) for word in spelling.split())


def _literal(spelling: str) -> str:
    """A French spelling as a lark literal: a string, or a regexp for several words."""
    if " " in spelling:
        return f"/{_regexp_words(spelling)}/i"
    return f'"{spelling}"i'


def _terminal_spellings(body: str, grammar: str) -> list[str]:
    """The French spellings of the English keywords a terminal's definition spells (its
    strings, or a regexp of plain words: ``/forced[ \\t]+move(?:s|ment)?/i``)."""
    from adjudicator.orders.grammar import _spellings

    found: list[str] = []
    for literal in _LITERAL.finditer(body):
        text = literal.group(0)
        if text.startswith("//"):
            continue
        if text.startswith("/"):
            regexp = text[1:text.rindex("/")]
            if re.search(r"\(\?<?[!=]", regexp):  # a keyword with conditions: its word groups have the French
                continue
            words = [w for w in _spellings(regexp) if w[:1].isalpha()]
        else:
            value = _string_value(text)
            words = [value] if value else []
        for word in words:
            for spelling in spellings(word, grammar):
                if spelling not in found:
                    found.append(spelling)
    return found
