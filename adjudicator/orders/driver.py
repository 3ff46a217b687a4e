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

from functools import lru_cache
from typing import Any

from lark import Lark, Token, Tree
from lark.lexer import ContextualLexer, Scanner, UnlessCallback
from lark.parsers.lalr_analysis import Shift

_new_str = str.__new__

#: Matches in one lexer state before its terminals' union is compiled into one regexp.
HOT_STATE_MATCHES = 32


class LexerStateTable:
    """One state of the contextual lexer, ready to match: its terminals' regexps in
    lark's order (each terminal's own regexp, shared by all states, until the state has
    been used HOT_STATE_MATCHES times, then the union of them lark would compile), the
    keywords each name-like terminal also matches, the terminals to skip (spaces,
    comments). The first regexp that matches gives the token either way."""

    __slots__ = ("regexps", "keywords", "ignore", "uses", "_state_lexer")

    def __init__(self, state_lexer: Any, each: dict[str, Any]) -> None:
        scanner = state_lexer.scanner  # builds lark's callbacks (the "unless" keywords) too
        self._state_lexer = state_lexer
        self.regexps = tuple(each[t.name] for t in scanner.terminals)
        self.keywords = {}
        for name, callback in state_lexer.callback.items():
            if not isinstance(callback, UnlessCallback):  # a user callback: not ours to run
                raise NotImplementedError(name)
            self.keywords[name] = callback.scanner
        self.ignore = state_lexer.ignore_types
        self.uses = 0

    def use(self) -> None:
        self.uses += 1
        if self.uses > HOT_STATE_MATCHES:
            lexer = self._state_lexer
            self.regexps = tuple(Scanner(lexer.scanner.terminals, lexer.g_regex_flags, lexer.re, False)._mres)
            self.uses = None


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
        conf = parser.lexer_conf
        self._each = _Regexps(conf)
        self._lexer_of_state = lexer.lexers
        self._built: dict[int, LexerStateTable] = {}
        self.lexers: dict[Any, LexerStateTable] = {}
        reductions: dict[Any, tuple] = {}
        self.actions: dict[Any, dict[str, tuple]] = {}
        for state, row in table.states.items():
            fast_row = {}
            for symbol, (action, arg) in row.items():
                if action is Shift:
                    fast_row[symbol] = (True, arg)
                else:
                    if arg not in reductions:
                        reductions[arg] = (len(arg.expansion), callbacks[arg], arg.origin.name)
                    fast_row[symbol] = (False, reductions[arg])
            self.actions[state] = fast_row
        self.terminal_callbacks = frozenset(name for name in callbacks if isinstance(name, str))


    def lexer(self, state: Any) -> LexerStateTable:
        """The lexer state of parser state ``state`` (made when first needed)."""
        state_lexer = self._lexer_of_state[state]
        table = self._built.get(id(state_lexer))
        if table is None:
            table = self._built[id(state_lexer)] = LexerStateTable(state_lexer, self._each)
        self.lexers[state] = table
        return table


class _Regexps(dict):
    """Each terminal's regexp as a named group, compiled when first asked for."""

    def __init__(self, conf: Any) -> None:
        super().__init__()
        self.conf = conf

    def __missing__(self, name: str) -> Any:
        pattern = self.conf.terminals_by_name[name].pattern.to_regexp()
        compiled = self[name] = self.conf.re_module.compile(f"(?P<{name}>{pattern})", self.conf.g_regex_flags)
        return compiled


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
    state = tables.start_state
    while pos < end:
        lexer = lexers.get(state) or tables.lexer(state)
        if lexer.uses is not None:
            lexer.use()
        for regexp in lexer.regexps:
            found = regexp.match(text, pos, end)
            if found:
                break
        else:
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
    # the end of the file
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
