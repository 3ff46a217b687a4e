"""Parse a whole orders file with the LALR parser, reporting every error in one pass.

A file without mistakes is read in one fast run of lark's tables
(:mod:`adjudicator.orders.driver`). A file with a mistake is read again from the start
as follows, so that every mistake is reported. The parser is driven token by token through lark's interactive parser. After every
line end the parser's stacks are saved; on an error the problem is recorded, the
parser is put back to the start of the bad line and lexing resumes at the next line
that has something on it. The bad line is dropped, the lines around it are still
read, and each mistake gives one message.

A line that looks like a heading (``word:``) but whose word is no keyword is an
unknown heading (E104); the lines under it are skipped up to the next known heading,
so that a misspelt heading gives one message, not one per line of its block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from adjudicator.i18n import N_, said
from adjudicator.orders.driver import parse_fast
from adjudicator.orders.grammar import describe_terminal, keyword_of, keywords_of, lalr_parser
from adjudicator.orders.keywords import is_french_terminal, unaccented
from adjudicator.orders.problems import MAX_PROBLEMS, ProblemLog
from adjudicator.speed import annex_on

_HEADING_LIKE = re.compile(r"^\s*([^\W\d_][\w'\-]*)\s*:")
_BLANK = re.compile(r"^[ \t]*(#.*)?$")


@lru_cache(maxsize=None)
def heading_terminals(parser: Lark) -> frozenset[str]:
    """Terminals that may start a line at the top level: headings and header keywords."""
    probe = parser.parse_interactive("")
    return frozenset(name for name in probe.choices() if keyword_of(parser, name))


@lru_cache(maxsize=None)
def heading_words(parser: Lark) -> frozenset[str]:
    """The keywords (lower case) that start a heading or header line."""
    return frozenset(word.casefold() for name in heading_terminals(parser) for word in keywords_of(parser, name))


def parse_with_recovery(parser: Lark | str, text: str, log: ProblemLog) -> Tree | None:
    """The parse tree of ``text`` with bad lines left out; every error goes to ``log``.
    ``parser``: lark's LALR parser, or the name of the game whose grammar to use.

    ``text`` must end with a newline (see :func:`adjudicator.orders.text.clean`).
    Returns None only when parsing had to stop (too many errors).

    A file without mistakes is read by :func:`parse_fast` (the same tree, faster; given
    a game, it needs no lark parser built, only the grammar's program from the cache);
    lark's interactive parser reads one with mistakes, from the start, line by line.
    """
    tree = parse_fast(parser, text) if annex_on() else None
    if tree is not None:
        return tree
    if isinstance(parser, str):
        parser = lalr_parser(parser)
    return _parse_line_by_line(parser, text, log)


def _parse_line_by_line(parser: Lark, text: str, log: ProblemLog) -> Tree | None:
    interactive = parser.parse_interactive(text)
    state = interactive.parser_state
    checkpoint = Checkpoint.of(state)
    while True:
        try:
            for token in interactive.lexer_thread.lex(state):
                state.feed_token(token)
                if token.type == "_NL":
                    checkpoint = Checkpoint.of(state)
            break
        except UnexpectedInput as err:
            if len(log.problems) > MAX_PROBLEMS:
                return None
            restart = _report(parser, err, text, log, _acceptable(interactive))
            checkpoint.restore(state)
            if restart >= len(text):
                break
            _move_lexer(interactive, text, restart)
    try:
        return interactive.feed_eof()
    except UnexpectedInput as err:  # only when the grammar cannot end here; report it
        _report(parser, err, text, log, _acceptable(interactive))
        return None


@dataclass(frozen=True)
class Checkpoint:
    """The parser's stacks at a line end, to go back to when the next line is bad.

    The stacks are copied, and so is the length of each subtree's list of children:
    lark builds a left-recursive list (the blocks of a file, the lines of a block) by
    appending to the list of the subtree already on the stack, so a bad line's
    partial entries would otherwise stay in the saved tree. Saving the lengths
    instead of copying the trees keeps a checkpoint as cheap as the stack is deep.
    """

    states: tuple
    values: tuple
    lengths: tuple

    @classmethod
    def of(cls, state) -> "Checkpoint":
        values = tuple(state.value_stack)
        lengths = tuple(len(v.children) if isinstance(v, Tree) else -1 for v in values)
        return cls(tuple(state.state_stack), values, lengths)

    def restore(self, state) -> None:
        for value, length in zip(self.values, self.lengths):
            if length >= 0:
                del value.children[length:]
        state.state_stack[:] = self.states
        state.value_stack[:] = self.values


def _move_lexer(interactive, text: str, position: int) -> None:
    """Make the lexer go on from ``position`` (a line start) in ``text``."""
    lexer_state = interactive.lexer_thread.state
    counter = lexer_state.line_ctr
    if position > counter.char_pos:
        counter.feed(text[counter.char_pos:position])
    lexer_state.last_token = None


def _line_start(text: str, position: int) -> int:
    return text.rfind("\n", 0, position) + 1


def _next_content_line(text: str, position: int) -> int:
    """The start of the first non-blank, non-comment line after the one at ``position``."""
    start = text.find("\n", position)
    while start != -1:
        start += 1
        end = text.find("\n", start)
        line = text[start:] if end == -1 else text[start:end]
        if not _BLANK.match(line):
            return start
        start = end
    return len(text)


@lru_cache(maxsize=None)
def heading_start(parser: Lark) -> re.Pattern:
    """A line that starts with a heading or header keyword, of one word or several
    ("torpedo targets", "mot de passe")."""
    words = sorted(heading_words(parser), key=len, reverse=True)
    spelt = "|".join(r"\s+".join(re.escape(part) for part in word.split()) for word in words)
    return re.compile(rf"[ \t]*(?:{spelt})(?![\w'\-])", re.I)  # matched from a line's start


def _next_heading_line(parser: Lark, text: str, position: int) -> int:
    """The start of the next line (after ``position``'s) that begins with a heading keyword."""
    starts = heading_start(parser)
    start = _next_content_line(text, position)
    while start < len(text):
        end = text.find("\n", start)
        if starts.match(text, start, end if end != -1 else len(text)):
            return start
        start = _next_content_line(text, start)
    return len(text)


def _error_position(err: UnexpectedInput) -> int:
    if isinstance(err, UnexpectedToken):
        token = err.token
        return token.start_pos if token.start_pos is not None else 0
    return err.pos_in_stream


def _acceptable(interactive) -> frozenset[str]:
    """Terminals the parser would accept in its current state (after any reductions)."""
    try:
        return frozenset(interactive.accepts())
    except UnexpectedInput:  # the error state cannot be probed: keep the error's own set
        return frozenset()


def _report(parser: Lark, err: UnexpectedInput, text: str, log: ProblemLog, acceptable: frozenset[str]) -> int:
    """Record ``err`` in ``log``; return where parsing should resume."""
    if acceptable:
        err.expected = err.allowed = set(acceptable)
    position = _error_position(err)
    line_no = text.count("\n", 0, position) + 1
    line_text = log.lines[line_no - 1] if line_no <= len(log.lines) else ""
    heading = _HEADING_LIKE.match(line_text)
    if heading and heading.group(1).casefold() not in heading_words(parser):
        word = heading.group(1)
        log.add(
            "E104",
            said('unknown heading "%(word)s"; the lines under it are ignored up to the next heading', word=word),
            line_no,
            heading.start(1) + 1,
            suggestions=_closest(word, sorted(heading_words(parser)), cutoff=0.6),
        )
        return _next_heading_line(parser, text, position)
    expected = _expected(parser, err)
    if isinstance(err, UnexpectedCharacters):
        char = text[position] if position < len(text) else ""
        log.add("E102", said("unexpected character %(char)s", char=repr(char)), line_no, position - _line_start(text, position) + 1,
                expected=expected)
        return _next_content_line(text, position)
    token = err.token
    if token.type in ("_NL", "$END"):
        misspelt = _misspelt_keyword(parser, err, line_text)
        if misspelt is not None:
            word, column, keywords = misspelt
            log.add("E101", said('unexpected "%(word)s"', word=word), line_no, column, expected=expected, suggestions=keywords)
            return _next_content_line(text, position)
        column = len(line_text.split("#", 1)[0].rstrip()) + 1
        log.add("E103", said("the line ends too early"), line_no, column, expected=expected)
        return _next_content_line(text, position) if token.type == "_NL" else len(text)
    log.add(
        "E101",
        said('unexpected "%(word)s"', word=str(token.value)),
        line_no,
        position - _line_start(text, position) + 1,
        expected=expected,
        suggestions=_keyword_suggestions(parser, str(token.value), err),
    )
    return _next_content_line(text, position)


def _misspelt_keyword(parser: Lark, err: UnexpectedInput, line: str) -> tuple[str, int, list[str]] | None:
    """A word of ``line`` that looks like a keyword expected at its end ("tp" for "to").

    A misspelt keyword inside a name ("Tokiwa tp Tsushima") is read as part of the
    name, and the line then ends too early: pointing at the word is more helpful.
    """
    keywords = sorted({k.casefold() for n in _expected_names(err) if (k := keyword_of(parser, n))})
    if not keywords:
        return None
    content = line.split("#", 1)[0]
    for match in re.finditer(r"[^\W\d_][\w'\-]*", content):
        word = match.group(0).casefold()
        within = [k for k in keywords if len(word) <= len(k) + 2]
        if word in heading_words(parser) or not within:
            continue
        close = _closest(word, within, cutoff=0.5, n=2)
        if close and word not in close:
            return match.group(0), match.start() + 1, close
    return None


def _expected_names(err: UnexpectedInput) -> set[str]:
    names = err.expected if isinstance(err, UnexpectedToken) else getattr(err, "allowed", None)
    return {str(n) for n in names or ()} - {"$END"}


def _expected(parser: Lark, err: UnexpectedInput) -> tuple[str, ...]:
    """What the parser would have accepted, in words; headings summed up as one item.
    Keywords are named in English, as the messages are (a French keyword is expected
    wherever its English twin is)."""
    names = {name for name in _expected_names(err) if not is_french_terminal(name)}
    headings = names & heading_terminals(parser)
    described = sorted({describe_terminal(parser, n) for n in names - headings if not n.startswith("__")})
    if len(headings) > 3:
        described.append(N_("a new heading"))
    else:
        described = sorted(set(described) | {describe_terminal(parser, n) for n in headings})
    return tuple(described)


def _keyword_suggestions(parser: Lark, word: str, err: UnexpectedInput) -> list[str]:
    """Keywords accepted here that ``word`` looks like (a misspelt keyword)."""
    if not word[:1].isalpha():
        return []
    keywords = sorted({k.casefold() for n in _expected_names(err) if (k := keyword_of(parser, n))})
    return _closest(word, keywords, cutoff=0.7)


def _closest(word: str, keywords: list[str], cutoff: float, n: int = 3) -> list[str]:
    """The keywords closest to ``word``, best first; of an English keyword and a French
    one spelt alike but for accents ("operations", "opérations"), only the closer."""
    close = _difflib().get_close_matches(word.casefold(), keywords, n=n + 3, cutoff=cutoff)
    kept: dict[str, str] = {}
    for keyword in close:
        kept.setdefault(unaccented(keyword), keyword)
    return list(kept.values())[:n]


def _difflib():
    """The standard ``difflib`` (loaded only when a close match is wanted)."""
    import difflib

    return difflib
