"""The orders grammars in ``grammar/``, compiled once and cached.

Each game has ``grammar/<game>.lark``, which imports the shared header from
``grammar/common.lark``. The LALR parser (contextual lexer) is what the adjudicator
uses; compiling it takes a while, so the compiled tables are cached on disk in a
per-user cache folder (``$XDG_CACHE_HOME/adjudicator`` or ``~/.cache/adjudicator``,
or ``$ADJUDICATOR_CACHE``) and in memory. Lark checks the cache against the grammar
files' hashes and its own version, so an edited grammar is recompiled.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark

from adjudicator.resources import cache_dir, data_dir

#: How terminals are named in "expected ..." messages; keywords are quoted as written.
TERMINAL_WORDS = {
    "NAME": "a name",
    "STRING": "a quoted name",
    "INT": "a number",
    "ID": "a word",
    "SECRET": "a value",
    "STEPNO": "a step number",
    "CMP": "a comparison (<, <=, =, >=, >)",
    "_NL": "the end of the line",
    "$END": "the end of the file",
    "_COLON": '":"',
    "_COMMA": '","',
    "_SEMI": '";"',
}


def grammar_path(game: str) -> Path:
    """``grammar/<game>.lark``."""
    path = data_dir("grammar") / f"{game}.lark"
    if not path.is_file():
        raise FileNotFoundError(f"no orders grammar for {game!r} ({path})")
    return path


def _cache_file(game: str, parser: str) -> str | bool:
    folder = cache_dir()
    if folder is None:
        return False
    sources = b"".join(p.read_bytes() for p in sorted(grammar_path(game).parent.glob("*.lark")))
    digest = hashlib.sha256(sources).hexdigest()[:16]
    return str(folder / f"orders-{game}-{parser}-lark{lark.__version__}-{digest}.cache")


@lru_cache(maxsize=None)
def lalr_parser(game: str) -> Lark:
    """The LALR parser for ``game``'s orders (compiled once, then loaded from cache)."""
    return Lark.open(
        str(grammar_path(game)),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=False,
        cache=_cache_file(game, "lalr"),
    )


def earley_parser(game: str) -> Lark:
    """An Earley parser on the same grammar (for comparison in benchmarks only)."""
    return Lark.open(str(grammar_path(game)), parser="earley", lexer="dynamic", maybe_placeholders=False)


def describe_terminal(parser: Lark, name: str) -> str:
    """How to name terminal ``name`` to a player: a keyword in quotes, or what it is."""
    if name in TERMINAL_WORDS:
        return TERMINAL_WORDS[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name.lower()
    if pattern.type == "str":
        return f'"{pattern.value}"'
    return name.strip("_").lower()


def keyword_of(parser: Lark, name: str) -> str | None:
    """The keyword text of terminal ``name``, or None when it is not a keyword."""
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return None
    return pattern.value if pattern.type == "str" and pattern.value[:1].isalpha() else None
