"""The orders grammars in ``grammar/``, compiled once and cached.

Each game has ``grammar/<game>.lark``, which imports the shared header from
``grammar/common.lark``; each is compiled with the French keywords of
``grammar/keywords-fr.toml`` written in beside the English ones
(:mod:`adjudicator.orders.keywords`). The LALR parser (contextual lexer) is what the adjudicator
uses; compiling it takes a while, so the compiled tables are cached on disk in a
per-user cache folder (``$XDG_CACHE_HOME/adjudicator`` or ``~/.cache/adjudicator``,
or ``$ADJUDICATOR_CACHE``) and in memory. The cache file is named by the grammar
files' hash (the French keywords' table and the code that writes them in included), the
Python version and Lark's version, so an edited grammar, another Python or another Lark
never loads tables pickled for something else.
"""

from __future__ import annotations

import hashlib
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token, Tree
from lark.tree import Meta
from lark.lexer import BasicLexer, CallChain, ContextualLexer, PatternRE, PatternStr, Scanner, UnlessCallback

from adjudicator.i18n import N_
from adjudicator.orders.keywords import COMMON, french_terminal_counts, with_french
from adjudicator.resources import cache_dir, data_dir

#: How terminals are named in "expected ..." messages; keywords are quoted as written.
TERMINAL_WORDS = {
    "NAME": N_("a name"),
    "STRING": N_("a quoted name"),
    "INT": N_("a number"),
    "ID": N_("a word"),
    "SECRET": N_("a value"),
    "STEPNO": N_("a step number"),
    "CMP": N_("a comparison (<, <=, =, >=, >)"),
    "_NL": N_("the end of the line"),
    "$END": N_("the end of the file"),
    "_COLON": '":"',
    "_COMMA": '","',
    "_SEMI": '";"',
    "common__ID": N_("a word"),
    "common__PASSPHRASE": N_("a password"),
    "COUNT": N_("a number"),
    "NUMBER": N_("a number"),
    "SIGNED": N_("a number"),
    "LENGTH": N_("a distance in base lengths"),
    "TURN_CODE": N_("a turn (S45, P90, ...)"),
    "_ELSE": '"else"',
    "CARDNO": N_("a card number"),
    "CARDNAME": N_("a card's name"),
    "WORD": N_("a word"),
    "NAVAL_FLEET": '"Port Arthur" or "Vladivostok"',
}


def grammar_path(game: str) -> Path:
    """``grammar/<game>.lark``."""
    path = data_dir("grammar") / f"{game}.lark"
    if not path.is_file():
        raise FileNotFoundError(f"no orders grammar for {game!r} ({path})")
    return path


def _cache_file(game: str, parser: str) -> str | bool:
    return cache_name(game, parser)


def cache_name(game: str, kind: str, extra: str = "") -> str | bool:
    """The cache file of ``game``'s compiled grammar of ``kind`` (False when there is no
    cache folder): named by the grammar files' hash, the Python version, Lark's version
    and ``extra``, so that nothing compiled for another grammar, Python or Lark is loaded."""
    folder = cache_dir()
    if folder is None:
        return False
    grammars = grammar_path(game).parent
    sources = b"".join(p.read_bytes() for p in [*sorted(grammars.glob("*.lark")), *sorted(grammars.glob("*.toml")),
                                                  Path(__file__).with_name("keywords.py")])
    digest = hashlib.sha256(sources).hexdigest()[:16]
    python = f"{sys.implementation.name}{sys.version_info[0]}{sys.version_info[1]}"
    extra = f"-{extra}" if extra else ""
    return str(folder / f"orders-{game}-{kind}-{python}-lark{lark.__version__}-{digest}{extra}.cache")


@lru_cache(maxsize=None)
def lalr_parser(game: str) -> Lark:
    """The LALR parser for ``game``'s orders (compiled once, then loaded from cache),
    its contextual lexer sharing each terminal's compiled regexp between its states,
    each node of its trees knowing where it starts (:func:`record_start_positions`)."""
    parser = open_grammar(
        game,
        parser="lalr",
        lexer="contextual",
        propagate_positions=False,
        maybe_placeholders=False,
        cache=_cache_file(game, "lalr"),
    )
    factor_keyword_lookaheads(parser)
    share_terminal_regexps(parser)
    record_start_positions(parser)
    return parser


@lru_cache(maxsize=None)
def grammar_texts(game: str) -> tuple[str, str]:
    """The text of ``game``'s grammar and of the shared header it imports, each with
    the French keywords written in (:func:`adjudicator.orders.keywords.with_french`)."""
    path = grammar_path(game)
    common = with_french(COMMON, (path.parent / f"{COMMON}.lark").read_text(encoding="utf-8"))
    text = with_french(game, path.read_text(encoding="utf-8"), french_terminal_counts(common))
    return text, common


class _SharedHeader:
    """Gives lark the shared header (``%import .common``) with its French keywords; its
    name stands for it in lark's cache key (lark hashes its options' text)."""

    def __init__(self, game: str) -> None:
        self.game = game

    def __call__(self, base_path: Any, grammar_file: str) -> tuple[str, str]:
        if grammar_file != f"{COMMON}.lark":
            raise OSError(grammar_file)
        return f"<{COMMON}.lark with French keywords>", grammar_texts(self.game)[1]

    def __repr__(self) -> str:
        return f"<{COMMON}.lark with French keywords>"


def open_grammar(game: str, **options: Any) -> Lark:
    """Lark's parser of ``game``'s orders grammar, French keywords written in."""
    return Lark(grammar_texts(game)[0], source_path=str(grammar_path(game)), import_paths=[_SharedHeader(game)],
                **options)


# -- names that are not keywords, checked without trying every keyword ---------------------

#: A name-like terminal of the grammars: a lookahead that refuses the keywords (a list of
#: plain words), then the class of the name's first character.
_KEYWORD_LOOKAHEAD = re.compile(r"^\(\?!\(\?:((?:[^\W\d_]|\\-|')+(?:\|(?:[^\W\d_]|\\-|')+)+)\)"
                                r"(\(\?!\[[^\]]*\]\)\))(\[[^\]]*\])")
#: A refusal of plain words further in (a name's second word must not be "to", ...).
_WORDS_LOOKAHEAD = re.compile(r"\(\?!\(\?:((?:[^\W\d_]|\\-|')+(?:\|(?:[^\W\d_]|\\-|')+)+)\)")


def factor_keyword_lookaheads(parser: Lark) -> None:
    """Write each name-like terminal's refusal of the keywords so that it costs a few
    character tests, not one per keyword: the name's first character is checked
    before the keywords are, and the keywords are tried as a tree of their letters
    ("s(?:ortie|eize|...)") instead of one after the other. Each terminal matches
    exactly the same text as before (tests/orders/test_fast_parse.py); the grammar
    keeps the plain list, which is what a person reads and edits."""
    for terminal in parser.terminals:
        pattern = terminal.pattern
        if pattern.type == "re":
            pattern.value = factored_keywords(pattern.value)


def factored_keywords(regexp: str) -> str:
    """``regexp`` with its lookaheads of plain words factored (see above)."""
    head = _KEYWORD_LOOKAHEAD.match(regexp)
    if head:
        words, after, first = head.groups()
        regexp = f"(?={first})(?!{letter_tree(words.split('|'))}{after}{first}{regexp[head.end():]}"
    return _WORDS_LOOKAHEAD.sub(lambda found: f"(?!{letter_tree(found.group(1).split('|'))}", regexp)


def letter_tree(words: list[str]) -> str:
    """A regexp matching exactly ``words`` (each written as in a lark regexp: letters
    and ``\\-``), as a tree of shared first letters: ``(?:s(?:ide|tep)|t(?:o|urn))``."""
    return "(?:" + _branches([w.replace("\\-", "-") for w in words]) + ")"


def _branches(words: list[str]) -> str:
    by_first: dict[str, list[str]] = {}
    for word in words:
        by_first.setdefault(word[:1], []).append(word[1:])
    parts = []
    for first, rests in by_first.items():
        tails = [r for r in rests if r]
        if not tails:
            parts.append(re.escape(first))
            continue
        rest = _branches(tails)
        if len(tails) < len(rests):  # the word ends here, or goes on
            parts.append(f"{re.escape(first)}(?:{rest})?")
        elif len({t[:1] for t in tails}) > 1:
            parts.append(f"{re.escape(first)}(?:{rest})")
        else:
            parts.append(re.escape(first) + rest)
    return "|".join(parts)


# -- where each node starts, and only that ----------------------------------------------------


def record_start_positions(parser: Lark) -> None:
    """Make ``parser`` (built without ``propagate_positions``) record where each node
    of its trees starts (:func:`node_builder`)."""
    callbacks = parser.parser.parser.parser.callbacks
    for rule in list(callbacks):
        if not isinstance(rule, str):
            callbacks[rule] = node_builder(rule)


def node_builder(rule: Any) -> Any:
    """What lark's tree builder does when ``rule`` is reduced (its children filtered:
    keywords left out, ``_rule`` children spliced in; a ``?rule`` of one child gives
    that child; else a tree named after the rule), in one function, which also
    records where the node starts, in ``meta.line`` and ``meta.column``, as lark's
    ``propagate_positions`` does: at its first child, counting the keywords the tree
    leaves out (a rule inlined into this one counts from its own first keyword, its
    "container", kept in ``meta.container_line`` and ``meta.container_column``). The
    readers need no more (where a problem is); lark would also work out every node's
    end, which costs as much again."""
    options = rule.options
    keep_all = options.keep_all_tokens
    included = [(i, not symbol.is_term and symbol.name.startswith("_")) for i, symbol in enumerate(rule.expansion)
                if keep_all or not (symbol.is_term and symbol.filter_out)]
    if len(included) == len(rule.expansion) and not any(expand for _, expand in included):
        included = None
    expand_single = bool(options.expand1 and not rule.alias)
    name = rule.alias or options.template_source or rule.origin.name

    def build(children: list) -> Any:
        for child in children:  # the first child that knows where it starts
            if isinstance(child, Token):
                line, column = child.line, child.column
                break
            meta = child._meta
            if meta is not None and not meta.empty:
                line, column = meta.container_line, meta.container_column
                break
        else:
            line = None
        if included is None:
            kept = children
        else:  # lark's LALR child filter (a left-recursive list grows in place)
            kept = []
            for i, expand in included:
                if not expand:
                    kept.append(children[i])
                elif kept:
                    kept += children[i].children
                else:
                    kept = children[i].children
        if expand_single and len(kept) == 1:
            node = kept[0]
            if line is None or not isinstance(node, Tree):
                return node
            meta = node.meta
            if meta.empty:
                meta.line, meta.column = line, column
                meta.empty = False
            meta.container_line, meta.container_column = line, column
            return node
        node = Tree(name, kept)
        if line is not None:
            node._meta = meta = _new(Meta)
            meta.line, meta.column = line, column
            meta.empty = False
            meta.container_line, meta.container_column = line, column
        return node

    return build


_new = object.__new__


# -- the contextual lexer, its regexps compiled once per terminal ------------------------------

#: Matches in one lexer state before its terminals' union is compiled into one regexp.
HOT_STATE_MATCHES = 32


class SharedScanner:
    """Matches as lark's ``Scanner`` does (the first of its terminals, in lark's order,
    that matches at the position), but from each terminal's own regexp, compiled once
    for the whole grammar rather than once per lexer state. A state used often (a long
    orders file) gets lark's one-regexp union after HOT_STATE_MATCHES matches, for speed;
    the answers are the same either way (an alternation takes its first matching branch)."""

    def __init__(self, terminals: list, compiled: dict[str, Any], make_union: Any) -> None:
        self.terminals = terminals
        self.allowed_types = {t.name for t in terminals}
        self._each = [(compiled[t.name], t.name) for t in terminals]
        self._make_union = make_union
        self._union: Any = None
        self._uses = 0

    def match(self, text: Any, pos: int) -> tuple[str, str] | None:
        if self._union is not None:
            return self._union.match(text, pos)
        self._uses += 1
        if self._uses > HOT_STATE_MATCHES:
            self._union = self._make_union(self.terminals)
            return self._union.match(text, pos)
        for regexp, name in self._each:
            found = regexp.match(text.text, pos, text.end)
            if found:
                return found.group(0), name
        return None

    def fullmatch(self, text: str) -> str | None:
        for regexp, name in self._each:
            if regexp.fullmatch(text):
                return name
        return None


class SharedBasicLexer(BasicLexer):
    """One state of the contextual lexer: lark's BasicLexer, its scanner built from the
    grammar's shared compiled terminals (``shared``, set on the instance)."""

    shared: "SharedRegexps"

    def _build_scanner(self) -> Any:
        terminals, self.callback = self.shared.unless(self.terminals)
        for type_, function in self.user_callbacks.items():
            if type_ in self.callback:
                self.callback[type_] = CallChain(self.callback[type_], function, lambda t: t.type == type_)
            else:
                self.callback[type_] = function
        return self.shared.scanner(terminals)


class SharedRegexps:
    """A grammar's terminals compiled once, and which keywords each name-like terminal
    also matches (lark's "unless" rule), worked out once for all lexer states."""

    def __init__(self, terminals: list, flags: int, re_module: Any) -> None:
        self.flags, self.re = flags, re_module
        self.compiled = {t.name: re_module.compile(t.pattern.to_regexp(), flags) for t in terminals}
        self._keyword_matches: dict[tuple[str, str], bool] = {}

    def scanner(self, terminals: list) -> SharedScanner:
        return SharedScanner(terminals, self.compiled, lambda chosen: Scanner(chosen, self.flags, self.re, False))

    def unless(self, terminals: list) -> tuple[list, dict[str, Any]]:
        """lark's ``_create_unless`` for one state: a keyword that a regexp terminal also
        matches wins when that regexp matches exactly the keyword; a keyword with no
        flags of its own is then left to that regexp terminal."""
        regexps = [t for t in terminals if isinstance(t.pattern, PatternRE)]
        keywords = [t for t in terminals if isinstance(t.pattern, PatternStr)]
        embedded, callback = set(), {}
        for regexp in regexps:
            unless = [k for k in keywords if k.priority == regexp.priority and self._matches(regexp, k)]
            embedded.update(k for k in unless if k.pattern.flags <= regexp.pattern.flags)
            if unless:
                callback[regexp.name] = UnlessCallback(self.scanner(unless))
        return [t for t in terminals if t not in embedded], callback

    def _matches(self, regexp: Any, keyword: Any) -> bool:
        key = (regexp.name, keyword.name)
        if key not in self._keyword_matches:
            found = self.compiled[regexp.name].match(keyword.pattern.value)
            self._keyword_matches[key] = bool(found) and found.group(0) == keyword.pattern.value
        return self._keyword_matches[key]


def share_terminal_regexps(parser: Lark) -> None:
    """Compile each terminal's regexp once and let every state of ``parser``'s
    contextual lexer use it (lark compiles one union regexp per state, and the keyword
    checks of each state again, which is most of a cold parse's time)."""
    lexer = getattr(parser.parser, "lexer", None)
    if not isinstance(lexer, ContextualLexer) or parser.lexer_conf.use_bytes:
        return
    shared = SharedRegexps(list(parser.lexer_conf.terminals), parser.lexer_conf.g_regex_flags,
                           parser.lexer_conf.re_module)
    for state_lexer in {id(x): x for x in [*lexer.lexers.values(), lexer.root_lexer]}.values():
        if type(state_lexer) is BasicLexer and state_lexer._scanner is None:
            state_lexer.__class__ = SharedBasicLexer
            state_lexer.shared = shared


def earley_parser(game: str) -> Lark:
    """An Earley parser on the same grammar (for comparison in benchmarks only)."""
    return open_grammar(game, parser="earley", lexer="dynamic", maybe_placeholders=False)


def describe_terminal(parser: Lark, name: str) -> str:
    """How to name terminal ``name`` to a player: a keyword in quotes, or what it is."""
    if name in TERMINAL_WORDS:
        return TERMINAL_WORDS[name]
    words = keywords_of(parser, name)
    if words:
        return f'"{words[0]}"'
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name.lower()
    return f'"{pattern.value}"' if pattern.type == "str" else name.strip("_").lower()


def keyword_of(parser: Lark, name: str) -> str | None:
    """The keyword text of terminal ``name`` (its shortest spelling), or None when it is
    not a keyword."""
    words = keywords_of(parser, name)
    return words[0] if words else None


@lru_cache(maxsize=None)
def keywords_of(parser: Lark, name: str) -> tuple[str, ...]:
    """Every spelling of keyword terminal ``name``, shortest first: a string terminal's
    text, or the words a pattern of literal alternatives spells (``"move"i | "moves"i``,
    ``forced[ \t]+attacks?``: "forced attack", "forced attacks"); empty when ``name``
    is not a keyword (a name, a number, ...)."""
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return ()
    words = [pattern.value] if pattern.type == "str" else _spellings(pattern.value)
    if not words or not all(word[:1].isalpha() for word in words):
        return ()
    return tuple(sorted(set(words), key=lambda word: (len(word), word)))


def _spellings(regexp: str) -> list[str]:
    """The strings ``regexp`` matches when it is made of literal text, alternatives,
    optional parts and runs of blanks (read as one space); [] for any other pattern."""
    import re._parser as sre_parse  # only when an orders file has an error to describe
    from re._constants import ASSERT, ASSERT_NOT, BRANCH, IN, LITERAL, MAX_REPEAT, SUBPATTERN

    blanks = {ord(" "), ord("\t"), ord("\f")}

    def spell(items) -> list[str] | None:
        found = [""]
        for op, arg in items:
            if op is LITERAL:
                found = [text + chr(arg) for text in found]
            elif op in (ASSERT, ASSERT_NOT):
                continue
            elif op is SUBPATTERN:
                inner = spell(arg[-1])
                if inner is None:
                    return None
                found = [text + more for text in found for more in inner]
            elif op is BRANCH:
                options = [spell(branch) for branch in arg[1]]
                if any(option is None for option in options):
                    return None
                found = [text + more for text in found for option in options for more in option]
            elif op is IN and {value for kind, value in arg if kind is LITERAL} <= blanks and \
                    all(kind is LITERAL for kind, _ in arg):
                found = [text + " " for text in found]
            elif op is MAX_REPEAT:
                low, high, inner_items = arg
                inner = spell(inner_items)
                if inner is None:
                    return None
                if inner == [" "]:
                    found = [text + " " for text in found]
                elif (low, high) == (0, 1):
                    found = [text + more for text in found for more in ["", *inner]]
                else:
                    return None
            else:
                return None
            if len(found) > 16:
                return None
        return found

    try:
        return spell(sre_parse.parse(regexp)) or []
    except (re.error, TypeError, ValueError):
        return []
