"""The fast run's program for one grammar, written out as Python from lark's own tables.

:mod:`adjudicator.orders.driver` runs an orders file through lark's LALR tables in one
loop. What that loop needs of a grammar is written here, once, as the source of a small
Python module (:func:`program_source`), from the parser lark compiled:

- ``ROWS``: each parser state's actions on terminals: the state to shift to (an int)
  or the function that reduces a rule (``_r<n>``);
- one reducing function per rule, straight-line code that does what lark's tree
  builder does for that rule with ``propagate_positions`` (children filtered, ``_rule``
  children spliced in, ``?rule`` of one child giving that child, the node's start at its
  first child counting the keywords the tree leaves out), then pops the stacks and
  goes to the next state through the rule's goto table (``_g<n>``);
- each lexer state's terminals in lark's order of trying them, the union regexps lark
  would compile for it, its ignored terminals, its keyword checks (lark's "unless"),
  and whether a space always starts an ignored run of spaces there;
- the terminals' regexps, the terminals that may hold a line end (lark's
  ``newline_types``), and the terminals no rule keeps (a keyword such as ``_TO``: the
  loop keeps only its place, not a token, since no tree will hold it).

The module is compiled once and kept (marshalled) in the user's cache folder under a
name that holds the grammar's hash, the Python bytecode version, Lark's version and
the hash of this code (:func:`adjudicator.orders.driver.program_of`); a new process
loads it without building lark's parser at all. Anything this writer does not know
how to write raises NotImplementedError, and the files are then read by lark's own
loop.
"""

from __future__ import annotations

import re
from re import _compiler as sre_compile
from re import _parser as sre_parse
from typing import Any

from lark import Lark
from lark.lexer import ContextualLexer, Scanner, UnlessCallback
from lark.parsers.lalr_analysis import Shift

from adjudicator.orders.driver import SPACES, may_hold_line_end, may_start_with_space


def program_source(parser: Lark) -> str:
    """The fast run's program for ``parser`` (see the module's docstring)."""
    return _Writer(parser).source()


#: What a union regexp of a state that skips spaces starts with: a run of spaces, taken
#: only when it starts with a space (where the state's union would match lark's WS first).
LEADING_SPACES = "(?: [ \\t\\x0c]*)?"


def compiled_form(pattern: str, flags: int) -> tuple:
    """What ``re.compile(pattern, flags)`` hands to the regexp engine (``_sre.compile``):
    the pattern compiled to the engine's code. A new process makes the same regexp from
    it without running Python's regexp compiler (:meth:`adjudicator.orders.driver.Program.regexp`);
    the program that keeps it is named by the exact Python version."""
    parsed = sre_parse.parse(pattern, flags)
    code = [int(op) for op in sre_compile._code(parsed, flags)]
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (pattern, int(flags | parsed.state.flags), code, parsed.state.groups - 1, groupindex, tuple(indexgroup))


def spaces_are_skipped(terminals: list, ignored: frozenset[str]) -> bool:
    """Whether, in a lexer state with ``terminals`` (in lark's order of trying them),
    text starting with a space is always an ignored run of spaces: the state ignores
    WS (a run of spaces, tabs and form feeds) and no terminal tried before it can match
    text that starts with a space. The fast run then skips the run of spaces without
    trying the terminals."""
    for terminal in terminals:
        regexp = terminal.pattern.to_regexp()
        if terminal.name in ignored and regexp == SPACES:
            return True
        if may_start_with_space(regexp):
            return False
    return False


class _Writer:
    def __init__(self, parser: Lark) -> None:
        frontend = parser.parser
        lexer = frontend.lexer
        if not isinstance(lexer, ContextualLexer) or parser.lexer_conf.use_bytes:
            raise NotImplementedError("the fast run needs the contextual lexer on text")
        inner = frontend.parser.parser
        self.table = inner.parse_table
        if any(isinstance(name, str) for name in inner.callbacks):
            raise NotImplementedError("a terminal with a callback of its own")
        self.parser = parser
        self.lexer = lexer
        self.flags = parser.lexer_conf.g_regex_flags
        self.terminal_names = {t.name for t in parser.terminals}
        self.rules = list(parser.rules)
        self.rule_index = {id(rule): i for i, rule in enumerate(self.rules)}
        self.nullable = _nullable(self.rules)
        self.expand1 = {r.origin.name for r in self.rules if r.options.expand1}
        self.filtered = self._always_filtered()

    # -- the grammar's terminals, and those no rule keeps --------------------------------

    def _always_filtered(self) -> frozenset[str]:
        kept, seen = set(), set()
        for rule in self.rules:
            for symbol in rule.expansion:
                if symbol.is_term:
                    seen.add(symbol.name)
                    if rule.options.keep_all_tokens or not symbol.filter_out:
                        kept.add(symbol.name)
        return frozenset(str(name) for name in seen - kept)

    # -- the module ------------------------------------------------------------------------

    def source(self) -> str:
        states = sorted(self.table.states)
        if states != list(range(len(states))):
            raise NotImplementedError("parser states that are not numbered 0..n-1")
        out = [f"START = {self.table.start_states['start']!r}",
               f"END = {self.table.end_states['start']!r}",
               f"FLAGS = {self.flags!r}",
               f"TERMINALS = {({str(t.name): str(t.pattern.to_regexp()) for t in self.parser.terminals})!r}",
               f"COMPILED = {({str(t.name): compiled_form(str(t.pattern.to_regexp()), self.flags) for t in self.parser.terminals})!r}",
               f"FILTERED = {sorted(self.filtered)!r}"]
        out += self._lexers(states)
        gotos = self._gotos(states)
        goto_number = {}
        for number, (origin, table) in enumerate(gotos.items()):
            out.append(f"_g{number} = {table!r}  # {origin}")
            goto_number[origin] = number
        used = sorted({self.rule_index[id(arg)] for s in states for action, arg in self.table.states[s].values()
                       if action is not Shift})
        for index in used:
            out.append(self._reducer(index, goto_number))
        rows = []
        for s in states:
            row = {}
            for symbol, (action, arg) in self.table.states[s].items():
                if symbol not in self.terminal_names and symbol != "$END":
                    continue  # a rule's goto: in the rule's own table
                row[str(symbol)] = repr(arg) if action is Shift else f"_r{self.rule_index[id(arg)]}"
            rows.append("{" + ", ".join(f"{k!r}: {v}" for k, v in row.items()) + "}")
        out.append("ROWS = [\n    " + ",\n    ".join(rows) + ",\n]")
        return "\n".join(out) + "\n"

    def _gotos(self, states: list[int]) -> dict[Any, dict[int, int]]:
        gotos: dict[Any, dict[int, int]] = {}
        for s in states:
            for symbol, (action, arg) in self.table.states[s].items():
                if action is Shift and symbol not in self.terminal_names and symbol != "$END":
                    gotos.setdefault(symbol, {})[s] = arg
        for rule in self.rules:
            gotos.setdefault(rule.origin.name, {})
        return {_name(name): table for name, table in gotos.items()}

    def _lexers(self, states: list[int]) -> list[str]:
        """LEXERS: each distinct lexer state as (terminal names in lark's order, ignored
        names, {name-like terminal: keyword names}, union regexps, spaces skipped);
        STATE_LEXER: each parser state's lexer state; NEWLINES: the terminals whose line ends lark counts (its
        newline types, less those that can hold none)."""
        numbers: dict[int, int] = {}
        specs, state_lexer, newlines = [], [], set()
        for s in states:
            state_lexer_object = self.lexer.lexers[s]
            if id(state_lexer_object) not in numbers:
                numbers[id(state_lexer_object)] = len(specs)
                specs.append(self._lexer_spec(state_lexer_object))
                newlines |= {str(t.name) for t in state_lexer_object.terminals if t.name in
                             state_lexer_object.newline_types and may_hold_line_end(t.pattern.to_regexp())}
            state_lexer.append(numbers[id(state_lexer_object)])
        return [f"LEXERS = {specs!r}", f"STATE_LEXER = {state_lexer!r}", f"NEWLINES = {sorted(newlines)!r}"]

    def _lexer_spec(self, state_lexer: Any) -> tuple:
        scanner = state_lexer.scanner  # builds lark's callbacks (the "unless" keywords) too
        terminals = list(scanner.terminals)
        unless = {}
        for name, callback in state_lexer.callback.items():
            if not isinstance(callback, UnlessCallback):  # a user callback: not ours to run
                raise NotImplementedError(name)
            unless[str(name)] = tuple(str(t.name) for t in callback.scanner.terminals)
        unions = tuple(str(m.pattern) for m in Scanner(terminals, state_lexer.g_regex_flags, state_lexer.re, False)._mres)
        ignored = tuple(sorted(str(name) for name in state_lexer.ignore_types))
        skips_spaces = spaces_are_skipped(terminals, frozenset(ignored))
        if skips_spaces:  # a run of spaces first, as the ignored WS lark would match there
            unions = tuple(f"{LEADING_SPACES}(?:{union})" for union in unions)
            for union in unions:
                re.compile(union, self.flags)
        return (tuple(str(t.name) for t in terminals), ignored, unless, unions, skips_spaces)

    # -- one rule's reduction ------------------------------------------------------------

    def _reducer(self, index: int, goto_number: dict) -> str:
        rule = self.rules[index]
        options = rule.options
        origin = rule.origin.name
        if not isinstance(origin, str) or not isinstance(rule.alias or "", str):
            raise NotImplementedError(origin)
        inline = origin.startswith("_")
        if inline and options.expand1:
            raise NotImplementedError(f"?{origin}: an inlined rule that may give its one child")
        expansion = rule.expansion
        size = len(expansion)
        keep_all = options.keep_all_tokens
        included = [(i, not s.is_term and s.name.startswith("_")) for i, s in enumerate(expansion)
                    if keep_all or not (s.is_term and s.filter_out)]
        body: list[str] = []
        names = [f"c{i}" for i in range(size)]
        if size == 1:
            body.append("c0 = values[-1]")
        elif size > 1:
            body.append(f"{', '.join(names)} = values[-{size}:]")
        position, certain = self._position(expansion, 0)
        body += position
        body += _kept(included)
        if inline:
            body.append("value = (kept, line, column)")
        else:
            name = rule.alias or options.template_source or origin
            static = None if any(expand for _, expand in included) else len(included)
            body += _node(repr(name), certain, expand_single=options.expand1 and not rule.alias, count=static)
        goto = f"_g{goto_number[_name(origin)]}"
        if size == 0:
            body += ["values.append(value)", f"state = {goto}[states[-1]]", "states.append(state)"]
        elif size == 1:
            body += ["values[-1] = value", f"state = {goto}[states[-2]]", "states[-1] = state"]
        else:
            body += [f"del values[-{size - 1}:]", "values[-1] = value", f"state = {goto}[states[-{size + 1}]]",
                     f"del states[-{size - 1}:]", "states[-1] = state"]
        body.append("return state")
        return f"def _r{index}(states, values):  # {rule}\n" + "".join(f"    {line}\n" for line in body)

    def _position(self, expansion: list, i: int) -> tuple[list[str], bool]:
        """Lines setting ``line, column`` to where the node starts (None when nothing
        from child ``i`` on has a place), and whether it surely has one."""
        if i == len(expansion):
            return ["line = column = None"], False
        symbol, child = expansion[i], f"c{i}"
        if symbol.is_term:
            if symbol.name in self.filtered:
                return [f"line, column = {child}"], True
            return [f"line = {child}.line; column = {child}.column"], True
        nullable = symbol.name in self.nullable
        rest, certain = self._position(expansion, i + 1) if nullable else ([], True)
        if symbol.name.startswith("_"):
            lines = [f"kept_, line, column = {child}"]
            if nullable:
                lines += ["if line is None:", *_indent(rest)]
            return lines, certain
        if nullable:
            lines = [f"m = {child}._meta", "if m is not None and not m.empty:",
                     "    line = m.container_line; column = m.container_column", "else:", *_indent(rest)]
        else:
            lines = [f"m = {child}._meta", "line = m.container_line; column = m.container_column"]
        if symbol.name in self.expand1:  # a ?rule may give a token
            lines = [f"if {child}.__class__ is Token:", f"    line = {child}.line; column = {child}.column",
                     "else:", *_indent(lines)]
        return lines, certain


def _kept(included: list[tuple[int, bool]]) -> list[str]:
    """Lines setting ``kept``: lark's LALR child filter, written out (a spliced ``_rule``
    child's list grows in place, as lark's does for left-recursive lists)."""
    lines: list[str] = []
    pending: list[str] = []
    started = False
    for i, expand in included:
        if not expand:
            pending.append(f"c{i}")
            continue
        if not started:
            lines.append(f"kept = [{', '.join(pending)}]; kept += c{i}[0]" if pending else f"kept = c{i}[0]")
            started = True
        else:
            lines += [f"kept.append({p})" for p in pending]
            lines.append(f"kept += c{i}[0]")
        pending = []
    if not started:
        lines.append(f"kept = [{', '.join(pending)}]")
    else:
        lines += [f"kept.append({p})" for p in pending]
    return lines


def _node(name: str, certain: bool, expand_single: bool, count: int | None) -> list[str]:
    """Lines setting ``value`` to the rule's node (lark's Tree, its start in ``_meta``);
    ``count``: how many children it keeps, when that is known before the parse."""
    meta = ["value._meta = m = _new(Meta)", "m.line = line; m.column = column; m.empty = False",
            "m.container_line = line; m.container_column = column"]
    if not certain:
        meta = ["if line is None:", "    value._meta = None", "else:", *_indent(meta)]
    tree = ["value = _new(Tree)", f"value.data = {name}", "value.children = kept", *meta]
    if not expand_single or count not in (None, 1):
        return tree
    single = ["value = kept[0]"]
    adjust = ["m = value.meta", "if m.empty:", "    m.line = line; m.column = column; m.empty = False",
              "m.container_line = line; m.container_column = column"]
    if certain:
        single += ["if isinstance(value, Tree):", *_indent(adjust)]
    else:
        single += ["if line is not None and isinstance(value, Tree):", *_indent(adjust)]
    if count == 1:
        return single
    return ["if len(kept) == 1:", *_indent(single), "else:", *_indent(tree)]


def _indent(lines: list[str]) -> list[str]:
    return [f"    {line}" for line in lines]


def _name(origin: Any) -> str:
    return str(origin)


def _nullable(rules: list) -> set[str]:
    """The rules that may match no text."""
    nullable: set[str] = set()
    changed = True
    while changed:
        changed = False
        for rule in rules:
            name = rule.origin.name
            if name not in nullable and all(not s.is_term and s.name in nullable for s in rule.expansion):
                nullable.add(name)
                changed = True
    return nullable
