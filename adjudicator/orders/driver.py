"""A faster run of lark's LALR parser over an orders file that has no mistakes.

Lark compiles the grammar: the LALR tables, the terminals and each lexer state's
terminals (its contextual lexer), the tree-building callbacks. From those,
:mod:`adjudicator.orders.driver_build` writes the grammar's *program*: the tables as
data and one function per rule that reduces it and builds its node exactly as lark's
tree builder does. :func:`run` drives a program in one loop, lexing with each state's
own terminals as lark's contextual lexer does, and builds the same tree with the same
tokens and positions. What it leaves out is what a file without mistakes never needs:
lark's generator of tokens and its parser object per token, its line counter object,
its error reporting, and a token for a keyword no tree keeps (only its place, for the
node it starts).

A game's program is kept compiled in the user's cache folder (:func:`program_of`), so
a new process reads a file without mistakes without building lark's parser at all.

At the first thing that is not as the grammar wants (a character no terminal of the
state matches, a token the state has no action for) it gives up and returns None:
the caller then parses the file with lark's interactive parser, which reports every
problem and recovers (:mod:`adjudicator.orders.recovery`). A file with mistakes so
costs what it did before, plus the fast run up to its first mistake.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import re
import sys
from functools import lru_cache
from pathlib import Path
from re import _constants as sre
from re import _parser as sre_parse
from typing import Any

import _sre
from importlib._bootstrap_external import MAGIC_NUMBER  # the bytecode's version (marshalled code)

from lark import Lark, Token, Tree
from lark.tree import Meta

_new_str = str.__new__

#: Matches in one lexer state before its terminals' union is compiled into one regexp.
HOT_STATE_MATCHES = 32


#: The usual ignored terminal of spaces (grammar/common.lark's WS).
SPACES = "[ \t\x0c]+"
_spaces = re.compile(SPACES)


@lru_cache(maxsize=None)
def may_start_with_space(regexp: str) -> bool:
    """Whether ``regexp`` may match a text starting with a space (True when unsure)."""
    try:
        parsed = sre_parse.parse(regexp)
    except Exception:  # noqa: BLE001 - an unusual regexp: assume it may
        return True
    return _sequence(list(parsed))[0]


@lru_cache(maxsize=None)
def may_hold_line_end(regexp: str) -> bool:
    """Whether ``regexp`` may match a text holding a line end (True when unsure)."""
    try:
        parsed = sre_parse.parse(regexp)
    except Exception:  # noqa: BLE001 - an unusual regexp: assume it may
        return True
    return _anywhere(list(parsed), 10)


def _anywhere(items: list, char: int) -> bool:
    """Whether any character the items match may be ``char``."""
    for op, arg in items:
        if op is sre.LITERAL:
            if arg == char:
                return True
        elif op is sre.NOT_LITERAL:
            if arg != char:
                return True
        elif op is sre.IN:
            if _in_set(arg, char):
                return True
        elif op is sre.SUBPATTERN:
            if _anywhere(list(arg[3]), char):
                return True
        elif op is sre.ATOMIC_GROUP:
            if _anywhere(list(arg), char):
                return True
        elif op is sre.BRANCH:
            if any(_anywhere(list(b), char) for b in arg[1]):
                return True
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            if _anywhere(list(arg[2]), char):
                return True
        elif op in (sre.ASSERT, sre.ASSERT_NOT, sre.AT):  # they match no character
            continue
        else:  # anything else: assume the worst
            return True
    return False


def _sequence(items: list) -> tuple[bool, bool]:
    """(may the items' first character be a space, may they match nothing)."""
    for op, arg in items:
        may, empty = _item(op, arg)
        if may:
            return True, False
        if not empty:
            return False, False
    return False, True


def _item(op: Any, arg: Any) -> tuple[bool, bool]:
    if op is sre.LITERAL:
        return arg == 32, False
    if op is sre.NOT_LITERAL:
        return arg != 32, False
    if op is sre.IN:
        return _in_set(arg, 32), False
    if op is sre.SUBPATTERN:
        return _sequence(list(arg[3]))
    if op is sre.ATOMIC_GROUP:
        return _sequence(list(arg))
    if op is sre.BRANCH:
        branches = [_sequence(list(b)) for b in arg[1]]
        return any(m for m, _ in branches), any(e for _, e in branches)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, _, sub = arg
        may, empty = _sequence(list(sub))
        return may, empty or low == 0
    if op in (sre.ASSERT, sre.ASSERT_NOT, sre.AT):  # they match no character
        return False, True
    return True, True  # anything else: assume the worst


_CATEGORIES = {sre.CATEGORY_DIGIT: False, sre.CATEGORY_NOT_DIGIT: True, sre.CATEGORY_SPACE: True,
               sre.CATEGORY_NOT_SPACE: False, sre.CATEGORY_WORD: False, sre.CATEGORY_NOT_WORD: True}


def _in_set(items: list, char: int) -> bool:
    """Whether a character set ``[...]`` holds ``char`` (a space or a line end, which the
    classes \\s and \\W hold and \\d, \\S and \\w do not)."""
    negate = bool(items) and items[0][0] is sre.NEGATE
    held = False
    for op, arg in items[negate:]:
        if op is sre.LITERAL:
            held = held or arg == char
        elif op is sre.RANGE:
            held = held or arg[0] <= char <= arg[1]
        elif op is sre.CATEGORY:
            held = held or _CATEGORIES.get(arg, True)
        else:
            return True
    return held != negate


# -- the program of one grammar, and its lexer states ------------------------------------------


class Program:
    """A grammar's fast-run program (:mod:`adjudicator.orders.driver_build`), ready to run:
    its parser rows, and its lexer states made when first reached (a short file in a new
    process reaches few of them), each terminal's regexp compiled when first tried."""

    def __init__(self, code: Any) -> None:
        namespace: dict[str, Any] = {"Token": Token, "Tree": Tree, "Meta": Meta, "_new": object.__new__}
        exec(code, namespace)  # noqa: S102 - our own generated code (driver_build), from our cache
        self.start, self.end, self.rows = namespace["START"], namespace["END"], namespace["ROWS"]
        self.flags = namespace["FLAGS"]
        self.patterns: dict[str, str] = namespace["TERMINALS"]
        self._forms: dict[str, tuple] = namespace["COMPILED"]
        self.filtered = frozenset(namespace["FILTERED"])
        self.newlines = frozenset(namespace["NEWLINES"])
        self._specs, self._state_lexer = namespace["LEXERS"], namespace["STATE_LEXER"]
        self._made: dict[int, LexerState] = {}
        self._compiled: dict[str, Any] = {}
        self.lexers: list[LexerState | None] = [None] * len(self.rows)

    def regexp(self, name: str) -> Any:
        """Terminal ``name``'s compiled regexp (made once, when first needed, from the
        engine code the program keeps: what ``re.compile`` would make, without running
        Python's regexp compiler again in every process)."""
        found = self._compiled.get(name)
        if found is None:
            try:
                found = _sre.compile(*self._forms[name])
            except Exception:  # noqa: BLE001 - not this engine's code after all: compile it
                found = re.compile(self.patterns[name], self.flags)
            self._compiled[name] = found
        return found

    def lexer(self, state: int) -> LexerState:
        """The lexer state of parser state ``state``."""
        number = self._state_lexer[state]
        made = self._made.get(number)
        if made is None:
            made = self._made[number] = LexerState(self, *self._specs[number])
        self.lexers[state] = made
        return made


#: How the loop takes a terminal the lexer state matched: PLAIN, a token the tree keeps,
#: with no line end and no keyword check; FILTERED, the same for a terminal no rule keeps
#: (only its place is kept); GENERAL, anything else (ignored, a line end, a keyword check).
PLAIN, FILTERED, GENERAL = 0, 1, 2


class LexerState:
    """One state of the contextual lexer, ready to match (``match(text, pos, end)``): its
    terminals tried in lark's order, each by its own regexp until the state has been used
    HOT_STATE_MATCHES times, then by the union of them lark compiles; the first that
    matches gives the token either way. Also the keywords each name-like terminal must
    be checked against (lark's "unless"), the terminals to skip, how each terminal is
    taken (``kinds``) and whether a space always starts a run of spaces to skip."""

    __slots__ = ("match", "kinds", "unless", "ignore", "skips_spaces", "_program", "_names", "_unions", "_uses",
                 "_spaces")

    def __init__(self, program: Program, names: tuple, ignore: tuple, unless: dict, unions: tuple,
                 skips_spaces: bool) -> None:
        self._program, self._names, self._unions, self._uses = program, names, unions, 0
        self.ignore = frozenset(ignore)
        self.unless = unless
        self.skips_spaces = skips_spaces
        self._spaces = next((name for name in names if name in self.ignore and program.patterns[name] == SPACES), None)
        self.match = self._match_each
        self.kinds = {}
        for name in names:
            if name in self.ignore or name in program.newlines or name in unless:
                self.kinds[name] = GENERAL
            elif name in program.filtered:
                self.kinds[name] = FILTERED
            else:
                self.kinds[name] = PLAIN

    def keyword(self, kind: str, value: str) -> str:
        """The keyword ``value`` is, when name-like terminal ``kind`` matched exactly a
        keyword of this state (lark's "unless"), else ``kind``."""
        for keyword in self.unless[kind]:
            if self._program.regexp(keyword).fullmatch(value):
                return keyword
        return kind

    def _match_each(self, text: str, pos: int, end: int) -> Any:
        self._uses += 1
        if self._uses > HOT_STATE_MATCHES:
            flags = self._program.flags
            compiled = tuple(re.compile(pattern, flags) for pattern in self._unions)
            self.match = compiled[0].match if len(compiled) == 1 else _first_of(compiled)
            return self.match(text, pos, end)
        if self.skips_spaces and text[pos] == " ":
            spaces = _spaces.match(text, pos)
            if spaces.end() == end:  # the spaces end the file: lark's ignored WS
                return Found(spaces, self._spaces)
            pos = spaces.end()
        regexp = self._program.regexp
        for name in self._names:
            found = regexp(name).match(text, pos, end)
            if found:
                return Found(found, name)
        return None


def _first_of(unions: tuple) -> Any:
    def match(text: str, pos: int, end: int) -> Any:
        for regexp in unions:  # lark splits a union of more than 100 terminals
            found = regexp.match(text, pos, end)
            if found:
                return found
        return None

    return match


class Found:
    """What one terminal's own regexp matched, read as a match of the union is."""

    __slots__ = ("match", "lastgroup")

    def __init__(self, match: Any, name: str) -> None:
        self.match, self.lastgroup = match, name

    def group(self, _: Any = 0) -> str:
        return self.match.group()

    def span(self, _: str = "") -> tuple[int, int]:
        return self.match.span()


# -- where programs come from -------------------------------------------------------------------


@lru_cache(maxsize=None)
def tables_of(parser: Lark) -> Program | None:
    """The program of ``parser`` (written and compiled in memory), or None when the fast
    run cannot read its grammar."""
    code = _compiled_program(parser, "<orders fast run>")
    return None if code is None else Program(code)


def _compiled_program(parser: Lark, name: str) -> Any:
    """The compiled program of ``parser``, or None when it cannot be written: a grammar
    with something the writer does not know, or a Lark whose insides differ from the
    version it was written for (the files are then read by lark's own loop)."""
    from adjudicator.orders.driver_build import program_source

    try:
        return compile(program_source(parser), name, "exec")
    except Exception:  # noqa: BLE001 - NotImplementedError, or another Lark's internals
        return None


@lru_cache(maxsize=None)
def program_of(game: str) -> Program | None:
    """The program of ``game``'s grammar: loaded from the user's cache folder, else
    written from the compiled grammar and kept there (named by the grammar's hash, the
    Python bytecode version, Lark's version and this code's hash: nothing stale is ever
    loaded); None when the fast run cannot read the grammar."""
    from adjudicator.orders.grammar import cache_name

    digest = _code_digest()
    path = digest and cache_name(game, "fast", extra=digest)
    if path:
        kept = _read_own(path)
        if kept is not None:
            try:
                return Program(marshal.loads(kept))
            except Exception:  # noqa: BLE001 - a damaged file: written again below
                pass
    from adjudicator.orders.grammar import lalr_parser

    code = _compiled_program(lalr_parser(game), f"<orders fast run: {game}>")
    if code is None:
        return None
    if path:
        _keep(path, marshal.dumps(code))
    return Program(code)


def _code_digest() -> str | None:
    """The hash of what a program depends on beyond the grammar: the exact Python (its
    bytecode and its regexp engine's code are kept), and the code that writes and reads
    programs (this module, the writer, and the grammar's compiler, which shapes the
    terminals)."""
    folder = Path(__file__).parent
    digest = hashlib.sha256(f"{sys.version}|{MAGIC_NUMBER.hex()}|{_sre.MAGIC}|{_sre.CODESIZE}".encode())
    try:
        for name in ("driver.py", "driver_build.py", "grammar.py", "keywords.py"):
            digest.update((folder / name).read_bytes())
    except OSError:  # installed without its sources: nothing to name a kept program by
        return None
    return digest.hexdigest()[:16]


def _read_own(path: str) -> bytes | None:
    """The bytes of ``path``; None when there is none, or when someone other than this
    user could have written it (it holds code this process runs, as a bytecode cache does)."""
    try:
        with open(path, "rb") as kept:
            status = os.fstat(kept.fileno())
            if status.st_uid != os.getuid() or status.st_mode & 0o022:
                return None
            return kept.read()
    except OSError:
        return None


def _keep(path: str, data: bytes) -> None:
    """A cache that cannot be written: the next process writes the program again."""
    from adjudicator.files import keep_if_possible

    keep_if_possible(path, data)


def terminal_regexp(game: str, name: str) -> Any:
    """Terminal ``name`` of ``game``'s grammar, compiled (as the parser reads it)."""
    program = program_of(game)
    if program is not None:
        return program.regexp(name)
    from adjudicator.orders.grammar import lalr_parser

    return re.compile(lalr_parser(game).get_terminal(name).pattern.to_regexp())


# -- the run -------------------------------------------------------------------------------------


def parse_fast(parser: Lark | str, text: str) -> Tree | None:
    """The tree lark's LALR parser gives for ``text``, or None at the first mistake.
    ``parser``: lark's parser, or the name of a game (its grammar's program is then
    loaded from the cache, without building lark's parser)."""
    program = program_of(parser) if isinstance(parser, str) else tables_of(parser)
    if program is None:
        return None
    return run(program, text)


def run(program: Program, text: str) -> Tree | None:
    """One run of ``program`` over ``text`` (see the module's docstring)."""
    rows, lexers, filtered = program.rows, program.lexers, program.filtered
    state = program.start
    states = [state]
    values: list = []
    push_state, push_value = states.append, values.append
    pos, end, line, line_start = 0, len(text), 1, 0
    try:  # a KeyError: a token the state has no action for, a mistake
        while pos < end:
            lexer = lexers[state] or program.lexer(state)
            found = lexer.match(text, pos, end)  # after a run of spaces, where the state skips them
            if found is None:
                return None
            kind = found.lastgroup
            how = lexer.kinds[kind]
            if how is PLAIN:  # a token the tree keeps, on one line
                start, pos = found.span(kind)
                value = _new_str(Token, text_of := text[start:pos])
                value.type = kind
                value.start_pos = start
                value.value = text_of
                value.line = value.end_line = line
                value.column = start - line_start + 1
                value.end_column = pos - line_start + 1
                value.end_pos = pos
            elif how is FILTERED:  # only its place matters
                start, pos = found.span(kind)
                value = (line, start - line_start + 1)
            else:
                start, pos = found.span(kind)
                text_of = text[start:pos]
                start_line, column = line, start - line_start + 1
                if kind in program.newlines:
                    newlines = text_of.count("\n")
                    if newlines:
                        line += newlines
                        line_start = start + text_of.rindex("\n") + 1
                if kind in lexer.ignore:
                    continue
                if kind in lexer.unless:
                    kind = lexer.keyword(kind, text_of)
                if kind in filtered:
                    value = (start_line, column)
                else:
                    value = _new_str(Token, text_of)
                    value.type = kind
                    value.start_pos = start
                    value.value = text_of
                    value.line = start_line
                    value.column = column
                    value.end_line = line
                    value.end_column = pos - line_start + 1
                    value.end_pos = pos
            while True:
                step = rows[state][kind]
                if step.__class__ is int:
                    state = step
                    push_state(step)
                    push_value(value)
                    break
                state = step(states, values)
        # the end of the file: the remaining reductions
        end_state = program.end
        while True:
            step = rows[state]["$END"]
            if step.__class__ is int:
                return None
            state = step(states, values)
            if state == end_state:
                return values[-1]
    except KeyError:
        return None
