"""Packages whose public names are imported on first use (PEP 562), so that a command
loads only the modules it needs: ``status`` reads a campaign's history without the
signature library, ``check`` reads orders without the store."""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping


def exports(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The package's ``__getattr__``: each name of ``homes`` (name -> the submodule
    that defines it, relative to ``package``) imported from its module on first use."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{home}"), name)

    return __getattr__
