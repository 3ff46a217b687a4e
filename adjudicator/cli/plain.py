"""What the commands share, with no command-line library: the exit codes, how a failure
is told to the user, the store and key options' values. The commands that start
directly (:data:`adjudicator.cli.main.DIRECT`) use these alone; their Typer commands
(for ``--help`` and misuse) use them too, so that both paths say the same.
"""

from __future__ import annotations

import os
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Optional, TextIO

from adjudicator.errors import AdjudicatorError

EXIT_OK, EXIT_PROBLEM, EXIT_UNUSABLE = 0, 1, 2
DEFAULT_STORE, DEFAULT_KEY, DEFAULT_OUTBOX = "adjudicator.sqlite3", "referee.key", "outbox"
FORMATS = ("text", "json")


class Failed(AdjudicatorError):
    """A command's failure, told as ``adjudicator: MESSAGE`` on stderr, with its exit code."""

    def __init__(self, message: str, code: int = EXIT_UNUSABLE) -> None:
        super().__init__(message)
        self.code = code


def told(error: BaseException, err: TextIO) -> int | None:
    """Tell the user a failure of a command and return the exit code; None when it is not
    a failure of the input (a bug: raised, not hidden). Every error the adjudicator
    raises on purpose is an :class:`AdjudicatorError`; orders errors list each problem."""
    if isinstance(error, Failed):
        print(f"adjudicator: {error}", file=err)
        return error.code
    from adjudicator.orders import OrdersError

    if isinstance(error, OrdersError):
        for problem in error.problems:
            print(problem.render(), file=err)
        return EXIT_PROBLEM
    if isinstance(error, (AdjudicatorError, OSError)):  # every error of the adjudicator's, by its root
        print(f"adjudicator: {error}", file=err)
        return EXIT_UNUSABLE
    if isinstance(error, ValueError):  # malformed JSON in a file given on the command line
        print(f"adjudicator: unreadable input: {error}", file=err)
        return EXIT_UNUSABLE
    return None


def run_told(work: Callable[[], int | None], err: TextIO) -> int:
    """Run ``work`` (its exit code; None: 0), telling the user a known failure. A reader
    gone (``| head``) is not one: the command line ends quietly, as any Unix tool."""
    try:
        return work() or EXIT_OK
    except BrokenPipeError:
        raise
    except Exception as error:  # noqa: BLE001 - told when it is a known failure, else raised
        code = told(error, err)
        if code is None:
            raise
        return code


class StoreURL(type(Path())):
    """A ``postgresql://`` store URL, carried unchanged through the Path-typed options
    (a plain Path would turn its '//' into '/')."""

    def __new__(cls, url: str):
        made = super().__new__(cls, "postgresql-store")
        made.url = url
        return made

    def __str__(self) -> str:
        return self.url

    __fspath__ = __str__

    def exists(self, *, follow_symlinks: bool = True) -> bool:
        """A database is not a file: whether it can be used is known on connecting."""
        return True


def store_location(text: Any) -> Path:
    """The ``--store`` value: a StoreURL for a ``postgresql://`` URL, else a file path."""
    from adjudicator.store.pg import is_url

    return StoreURL(str(text)) if is_url(str(text)) else Path(text)


def open_store(path: Path, create: bool = False):
    """The campaign store at ``path``; only 'new' (``create``) may start a new one, so
    that a mistyped path is an error, not an empty store."""
    from adjudicator.store import Store

    if not create and not path.exists():
        raise Failed(f"no campaign store at {path}: give --store (or ADJUDICATOR_STORE), "
                     "or create a campaign with 'adjudicator new'")
    return Store.open(path)


def passphrase_from_environment(path: Path) -> Optional[str]:
    """The key's passphrase from ADJUDICATOR_KEY_PASSPHRASE (empty: none), else none."""
    return os.environ.get("ADJUDICATOR_KEY_PASSPHRASE") or None


def would_ask_passphrase() -> bool:
    """Whether loading the key would ask for its passphrase on the terminal (then only
    the full command line, which can prompt, runs the command)."""
    return "ADJUDICATOR_KEY_PASSPHRASE" not in os.environ and sys.stdin.isatty()


def load_key(path: Path, passphrase: Callable[[Path], Optional[str]] = passphrase_from_environment):
    """The referee's private key at ``path``, opened with ``passphrase(path)``."""
    from adjudicator.fairdice import PassphraseRequired, load_private_key

    try:
        return load_private_key(path, passphrase(path))
    except PassphraseRequired as err:
        raise Failed(f"{err}; set ADJUDICATOR_KEY_PASSPHRASE or run on a terminal")


def parse_now(text: Optional[str]) -> Optional[datetime]:
    """The ``--now`` option's time (UTC when it names no zone)."""
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise Failed(f"--now {text!r} is not an ISO 8601 time such as 2026-12-01T18:00:00+00:00")
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def environment(name: str, default: str) -> str:
    """An option's value from the environment variable ``name``, read as the full command
    line reads it (unset or empty: ``default``)."""
    return os.environ.get(name) or default


#: the words the full command line reads as true and as false in a flag's environment variable
TRUE_WORDS, FALSE_WORDS = {"1", "true", "t", "yes", "y", "on"}, {"0", "false", "f", "no", "n", "off"}


def environment_flag(name: str) -> bool | None:
    """A flag's value from the environment variable ``name`` (unset or empty: False);
    None when its value is not a yes or a no (the full command line then says so)."""
    word = (os.environ.get(name) or "0").strip().lower()
    return True if word in TRUE_WORDS else False if word in FALSE_WORDS else None
