"""A faster run of lark's LALR parser over an orders file that has no mistakes.

Lark compiles the grammar: the LALR tables, the terminals and each lexer state's
terminals (its contextual lexer), the tree-building callbacks. :func:`parse_fast`
drives those same tables in one loop, lexing with each state's own terminals as lark's
contextual lexer does, and builds the same tree with the same tokens and positions.
What it leaves out is what a file without mistakes never needs: lark's generator of
tokens and its parser object per token, its line counter object, its error reporting.

At the first thing that is not as the grammar wants (a character no terminal of the
state matches, a token the state has no action for) it gives up and returns None:
the caller then parses the file with lark's interactive parser, which reports every
problem and recovers (:mod:`adjudicator.orders.recovery`). A file with mistakes so
costs what it did before, plus the fast run up to its first mistake.
"""

from __future__ import annotations

import re
from functools import lru_cache
from re import _constants as sre
from re import _parser as sre_parse
from typing import Any

from lark import Lark, Token, Tree
from lark.lexer import ContextualLexer, Scanner, UnlessCallback
from lark.parsers.lalr_analysis import Shift

_new_str = str.__new__

#: Matches in one lexer state before its terminals' union is compiled into one regexp.
HOT_STATE_MATCHES = 32


class LexerStateTable:
    """One state of the contextual lexer, ready to match (``match(text, pos, end)``):
    its terminals tried in lark's order, each by its own regexp (shared by all states)
    until the state has been used HOT_STATE_MATCHES times, then by the union of them
    lark would compile; the first that matches gives the token either way. Also the
    keywords each name-like terminal matches too, the terminals to skip (spaces,
    comments), and whether a space always starts a run of spaces to skip (worked out
    at the first space met in the state)."""

    __slots__ = ("match", "keywords", "ignore", "skips_spaces", "_each", "_union", "_uses", "_state_lexer")

    def __init__(self, state_lexer: Any, compiled: dict[str, Any]) -> None:
        scanner = state_lexer.scanner  # builds lark's callbacks (the "unless" keywords) too
        self._state_lexer = state_lexer
        self._each = [(compiled[t.name], t.name) for t in scanner.terminals]
        self._union: tuple = ()
        self._uses = 0
        self.match = self._match_each
        self.keywords = {}
        for name, callback in state_lexer.callback.items():
            if not isinstance(callback, UnlessCallback):  # a user callback: not ours to run
                raise NotImplementedError(name)
            self.keywords[name] = callback.scanner
        self.ignore = state_lexer.ignore_types
        self.skips_spaces: bool | None = None

    def spaces_skipped(self) -> bool:
        self.skips_spaces = spaces_are_skipped(self._state_lexer.scanner.terminals, self.ignore)
        return self.skips_spaces

    def _match_each(self, text: str, pos: int, end: int) -> Any:
        self._uses += 1
        if self._uses > HOT_STATE_MATCHES:
            lexer = self._state_lexer
            self._union = tuple(Scanner(lexer.scanner.terminals, lexer.g_regex_flags, lexer.re, False)._mres)
            self.match = self._union[0].match if len(self._union) == 1 else self._match_union
            return self.match(text, pos, end)
        for regexp, name in self._each:
            found = regexp.match(text, pos, end)
            if found:
                return Found(found.group(0), name)
        return None

    def _match_union(self, text: str, pos: int, end: int) -> Any:
        for regexp in self._union:  # lark splits a union of more than 100 terminals
            found = regexp.match(text, pos, end)
            if found:
                return found
        return None


class Found:
    """What one terminal's own regexp matched, read as a match of the union is."""

    __slots__ = ("text", "lastgroup")

    def __init__(self, text: str, name: str) -> None:
        self.text, self.lastgroup = text, name

    def group(self, _: int) -> str:
        return self.text


#: The usual ignored terminal of spaces (grammar/common.lark's WS).
SPACES = "[ \t\x0c]+"
_spaces = re.compile(SPACES)


def spaces_are_skipped(terminals: list, ignored: frozenset[str]) -> bool:
    """Whether, in a lexer state with ``terminals`` (in lark's order of trying them),
    text starting with a space is always an ignored run of spaces: the state ignores
    WS (a run of spaces, tabs and form feeds) and no terminal tried before it can match text that starts with
    a space. The fast run then skips the run of spaces without trying the terminals."""
    for terminal in terminals:
        regexp = terminal.pattern.to_regexp()
        if terminal.name in ignored and regexp == SPACES:
            return True
        if may_start_with_space(regexp):
            return False
    return False


@lru_cache(maxsize=None)
def may_start_with_space(regexp: str) -> bool:
    """Whether ``regexp`` may match a text starting with a space (True when unsure)."""
    try:
        parsed = sre_parse.parse(regexp)
    except Exception:  # noqa: BLE001 - an unusual regexp: assume it may
        return True
    return _sequence(list(parsed))[0]


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
        return _in_set(arg), False
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


def _in_set(items: list) -> bool:
    """Whether a character set ``[...]`` holds the space."""
    negate = bool(items) and items[0][0] is sre.NEGATE
    held = False
    for op, arg in items[negate:]:
        if op is sre.LITERAL:
            held = held or arg == 32
        elif op is sre.RANGE:
            held = held or arg[0] <= 32 <= arg[1]
        elif op is sre.CATEGORY:
            held = held or _CATEGORIES.get(arg, True)
        else:
            return True
    return held != negate


class Tables:
    """A grammar's LALR tables as :func:`parse_fast` reads them: for each parser state,
    its lexer state and, for each terminal or rule it accepts, either the state to
    shift to or the rule to reduce (size, callback, the rule's name)."""

    def __init__(self, parser: Lark) -> None:
        frontend = parser.parser
        lexer = frontend.lexer
        if not isinstance(lexer, ContextualLexer):
            raise NotImplementedError("the fast run needs the contextual lexer")
        inner = frontend.parser.parser
        table, callbacks = inner.parse_table, inner.callbacks
        self.start_state = table.start_states["start"]
        self.end_state = table.end_states["start"]
        shared = getattr(next(iter(lexer.lexers.values()), None), "shared", None)
        if shared is None:
            raise NotImplementedError("the fast run needs the terminals' shared regexps (share_terminal_regexps)")
        self._each = shared.compiled
        self._lexer_of_state = lexer.lexers
        self._built: dict[int, LexerStateTable] = {}
        self.lexers: dict[Any, LexerStateTable] = {}
        self.actions = _Actions(table.states, callbacks)
        self.terminal_callbacks = frozenset(name for name in callbacks if isinstance(name, str))


    def lexer(self, state: Any) -> LexerStateTable:
        """The lexer state of parser state ``state`` (made when first needed)."""
        state_lexer = self._lexer_of_state[state]
        table = self._built.get(id(state_lexer))
        if table is None:
            table = self._built[id(state_lexer)] = LexerStateTable(state_lexer, self._each)
        self.lexers[state] = table
        return table


class _Actions(dict):
    """Each parser state's row of the LALR table as :func:`parse_fast` reads it, made
    when the state is first reached (a short file in a new process reaches few of
    them): for each terminal or rule, ``(True, state)`` to shift or ``(False, (size,
    callback, rule name))`` to reduce."""

    def __init__(self, states: Any, callbacks: Any) -> None:
        super().__init__()
        self._states, self._callbacks = states, callbacks
        self._reductions: dict[Any, tuple] = {}

    def __missing__(self, state: Any) -> dict[str, tuple]:
        reductions = self._reductions
        fast_row = {}
        for symbol, (action, arg) in self._states[state].items():
            if action is Shift:
                fast_row[symbol] = (True, arg)
            else:
                if arg not in reductions:
                    reductions[arg] = (len(arg.expansion), self._callbacks[arg], arg.origin.name)
                fast_row[symbol] = (False, reductions[arg])
        self[state] = fast_row
        return fast_row


@lru_cache(maxsize=None)
def tables_of(parser: Lark) -> Tables:
    return Tables(parser)


def parse_fast(parser: Lark, text: str) -> Tree | None:
    """The tree lark's LALR parser gives for ``text``, or None at the first mistake."""
    tables = tables_of(parser)
    if tables.terminal_callbacks:
        return None
    actions, lexers, end_state = tables.actions, tables.lexers, tables.end_state
    state_stack = [tables.start_state]
    value_stack: list = []
    push_state, push_value = state_stack.append, value_stack.append
    pos, end, line, line_start = 0, len(text), 1, 0
    spaces = _spaces.match
    state = tables.start_state
    while pos < end:
        lexer = lexers.get(state) or tables.lexer(state)
        if text[pos] == " " and (lexer.skips_spaces or lexer.skips_spaces is None and lexer.spaces_skipped()):
            pos = spaces(text, pos).end()
            if pos == end:
                break
        found = lexer.match(text, pos, end)
        if found is None:
            return None
        value = found.group(0)
        kind = found.lastgroup
        if kind in lexer.ignore:
            newlines = value.count("\n")
            if newlines:
                line += newlines
                line_start = pos + value.rindex("\n") + 1
            pos += len(value)
            continue
        token = _new_str(Token, value)
        token.type = kind
        token.start_pos = pos
        token.value = value
        token.line = line
        token.column = pos - line_start + 1
        newlines = value.count("\n")
        if newlines:
            line += newlines
            line_start = pos + value.rindex("\n") + 1
        pos += len(value)
        token.end_line = line
        token.end_column = pos - line_start + 1
        token.end_pos = pos
        keywords = lexer.keywords.get(kind)
        if keywords is not None:
            keyword = keywords.fullmatch(value)
            if keyword is not None:
                token.type = kind = keyword
        while True:
            step = actions[state].get(kind)
            if step is None:
                return None
            if step[0]:
                state = step[1]
                push_state(state)
                push_value(token)
                break
            size, build, origin = step[1]
            if size:
                children = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                children = []
            push_value(build(children))
            goto = actions[state_stack[-1]].get(origin)
            state = goto[1]
            push_state(state)
    # the end of the file: the remaining reductions, written out as in the token loop above
    # (that loop is the parse's hottest path, where a call per reduction would cost)
    while True:
        step = actions[state].get("$END")
        if step is None or step[0]:
            return None
        size, build, origin = step[1]
        if size:
            children = value_stack[-size:]
            del state_stack[-size:]
            del value_stack[-size:]
        else:
            children = []
        push_value(build(children))
        state = actions[state_stack[-1]][origin][1]
        push_state(state)
        if state == end_state:
            return value_stack[-1]
