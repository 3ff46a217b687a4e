"""Locate the data folders (``grammar/``, ``templates/``, ``games/``), and read the
game data files.

In a source checkout they sit beside the package; in an installed wheel they are
carried inside it as ``adjudicator/_data/<name>``.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from pathlib import Path
from typing import Any

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return the folder ``name`` (one of grammar, templates, games)."""
    for candidate in (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"data folder {name!r} not found beside the package ({_PACKAGE_DIR}); "
        "reinstall the adjudicator"
    )


def game_data_dir(game: str) -> Path:
    """Return ``games/<game>``."""
    return data_dir("games") / game


def cache_dir() -> Path | None:
    """The per-user folder for compiled grammars and templates, created if need be
    ($ADJUDICATOR_CACHE, else $XDG_CACHE_HOME/adjudicator or ~/.cache/adjudicator;
    None when no such folder is usable: everything then works, only slower)."""
    base = os.environ.get("ADJUDICATOR_CACHE")
    if base:
        folder = Path(base)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        folder = (Path(xdg) if xdg else Path.home() / ".cache") / "adjudicator"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def read_toml(content: bytes) -> dict[str, Any]:
    """A TOML file's ``content``, parsed as ``tomllib`` parses it (raising a ValueError,
    ``tomllib.TOMLDecodeError`` or ``UnicodeDecodeError``, for content it refuses).

    The parsed form is kept in the per-user cache folder (:func:`cache_dir`), named by
    the content's SHA-256 and the Python version, and read back by the next command
    instead of parsing TOML again: a game's data files are read by every command. An
    edited file has another hash, so a stale form is never read."""
    folder = cache_dir()
    tag = f"{sys.implementation.name}{sys.version_info[0]}{sys.version_info[1]}"
    kept = None if folder is None else folder / f"toml-{hashlib.sha256(content).hexdigest()[:32]}-{tag}.marshal"
    if kept is not None:
        try:
            parsed = marshal.loads(kept.read_bytes())
        except (OSError, ValueError, EOFError, TypeError):
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    import tomllib

    parsed = tomllib.loads(content.decode("utf-8"))
    if kept is not None:
        _keep(kept, parsed)
    return parsed


def _keep(path: Path, parsed: dict[str, Any]) -> None:
    """Write ``parsed`` to ``path`` whole or not at all; a cache that cannot be written
    (a value marshal cannot hold, a full disk) is simply not kept."""
    from adjudicator.files import keep_if_possible

    try:
        keep_if_possible(path, marshal.dumps(parsed))
    except ValueError:
        pass
