"""A finished game's result in words, as every report, mail and page says it.

A game's result is a side's name, ``"draw"``, or (Tsushima) a mapping whose
``winner`` is one of those."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from adjudicator.i18n import N_


def outcome(result: Any, gettext: Callable[[str], str] | None = None) -> str:
    """"a draw", or "Japan wins" (in the language of ``gettext``, English without)."""
    tr = gettext or (lambda message: message)
    winner = result.get("winner") if isinstance(result, Mapping) else result
    if winner == "draw":
        return tr(N_("a draw"))
    return tr(N_("%(side)s wins")) % {"side": tr(str(winner).capitalize())}
