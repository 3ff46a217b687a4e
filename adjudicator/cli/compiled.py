"""Compiled dataclass methods kept between commands, so that a cold command does not
compile them again.

The standard library's ``dataclasses`` writes each generated method (``__init__``,
``__eq__``, ``__hash__``, a frozen class's ``__setattr__``...) as source text and
compiles it, every time a class is defined: for a step, about ninety classes and a fifth
of its start-up. The text depends only on the class's fields and options, so the same
text always compiles to the same code. While a command runs (:func:`kept_compilations`),
``dataclasses`` compiles through :meth:`_Compilations.exec`, which takes the code of a
text it has compiled before from the per-user cache folder
(:func:`adjudicator.resources.cache_dir`), and keeps what it compiles anew there for the
next command. The methods made are the same: the same code, run with the same names, as
``dataclasses`` itself would run it.

Python 3.7 to 3.12 (the project needs 3.11) compile each method this way, through
``dataclasses._create_fn`` calling the name ``exec``; where ``dataclasses`` works
otherwise (3.13 compiles a class's methods at once), nothing is changed.
A missing, stale or damaged cache file is ignored (the text is compiled as before); the
file is named by the bytecode's version (as ``.pyc`` files are: ``cpython-311``), is read
only when no other user could have written it, and is written whole or not at all.
Only the command line does this (:func:`adjudicator.cli.main.run`): the library never
changes ``dataclasses`` for a program that imports it.
"""

from __future__ import annotations

import builtins
import contextlib
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any, Iterator

#: more texts than this in the file: it is started afresh (a bound on its growth)
MOST_KEPT = 4000


class _Compilations:
    """Texts -> their compiled code: those read from the file, and those compiled now."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.known: dict[str, CodeType] = _read(path)
        self.new = 0

    def exec(self, source: Any, globals: dict | None = None, locals: dict | None = None, /) -> None:
        """``exec`` as ``dataclasses`` calls it, with the code of a text compiled once."""
        if isinstance(source, str):
            code = self.known.get(source)
            if code is None:
                # as exec compiles it in dataclasses' frame: none of this module's __future__ flags
                code = self.known[source] = compile(source, "<string>", "exec", dont_inherit=True)
                self.new += 1
            source = code
        builtins.exec(source, globals, locals)

    def keep(self) -> None:
        """Write the texts and their code for the next command, when some are new."""
        if self.path is None or not self.new:
            return
        from adjudicator.files import keep_if_possible

        kept = self.known if len(self.known) <= MOST_KEPT else {}
        try:
            keep_if_possible(self.path, marshal.dumps(kept))
        except ValueError:
            pass


def _read(path: Path | None) -> dict[str, CodeType]:
    """The kept compilations; none from a file that someone else could have written
    (it holds code this process runs, as a bytecode cache does)."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as handle:
            status = os.fstat(handle.fileno())
            if status.st_uid != os.getuid() or status.st_mode & 0o022:
                return {}
            kept = marshal.loads(handle.read())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(kept, dict) or not all(isinstance(k, str) and isinstance(v, CodeType) for k, v in kept.items()):
        return {}
    return kept


def cache_file() -> Path | None:
    """The file of kept compilations for this Python (None: no cache folder)."""
    from adjudicator.resources import cache_dir

    folder = cache_dir()
    tag = sys.implementation.cache_tag or sys.implementation.name  # as .pyc files are named: cpython-311
    return None if folder is None else folder / f"dataclasses-{tag}.marshal"


@contextlib.contextmanager
def kept_compilations(path: Path | None = None) -> Iterator[_Compilations | None]:
    """While this runs, ``dataclasses`` compiles through the kept compilations (of
    ``path``, default :func:`cache_file`); they are kept for the next command at the end.
    Nothing changes when ``dataclasses`` compiles otherwise than this module knows."""
    import dataclasses

    if getattr(dataclasses, "_create_fn", None) is None or "exec" in vars(dataclasses):
        yield None  # another Python's dataclasses, or already compiling through a cache
        return
    compilations = _Compilations(path if path is not None else cache_file())
    dataclasses.exec = compilations.exec  # the module's own name 'exec', found before the builtin
    try:
        yield compilations
    finally:
        del dataclasses.exec
        compilations.keep()
