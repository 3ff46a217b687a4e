"""Every error class the adjudicator defines is under one root, AdjudicatorError, so
that the command line tells any of them in one place (cli/plain.py ``told``)."""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil

import adjudicator
from adjudicator.cli.plain import told
from adjudicator.errors import AdjudicatorError
from adjudicator.tournament.errors import TournamentError

#: Signals a module raises and catches itself, never seen by a caller.
SIGNALS = {"adjudicator.games.russo_japanese_war.rules.table.GameOver",
           "adjudicator.games.tsushima_1905.rules.table.Conceded"}


def defined_exception_classes():
    for module_info in pkgutil.walk_packages(adjudicator.__path__, "adjudicator."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == module.__name__ and not name.startswith("_")):
                yield f"{module.__name__}.{name}", value


def test_every_error_class_of_the_adjudicator_is_an_adjudicator_error():
    found = dict(defined_exception_classes())
    assert len(found) > 50
    outside = sorted(name for name, cls in found.items()
                     if not issubclass(cls, AdjudicatorError) and name not in SIGNALS)
    assert outside == []


def test_the_command_line_tells_any_adjudicator_error_by_its_root_without_a_traceback():
    stderr = io.StringIO()
    assert told(TournamentError("no tournament 'spring' in this store"), stderr) == 2
    assert stderr.getvalue() == "adjudicator: no tournament 'spring' in this store\n"
    assert told(RuntimeError("a bug"), io.StringIO()) is None  # not an input failure: raised, not hidden
