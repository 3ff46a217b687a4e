"""Locate the data folders (``grammar/``, ``templates/``, ``games/``).

In a source checkout they sit beside the package; in an installed wheel they are
carried inside it as ``adjudicator/_data/<name>``.
"""

from __future__ import annotations

import os
from pathlib import Path

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
