"""The receipt: what the adjudicator understood, in canonical form, with its hash.

The canonical text is the orders written the one way the adjudicator writes them
(full names, fixed keywords, blocks in the game's order). It parses back to the same
orders, and its SHA-256 hash identifies them: a player who keeps the receipt can
show exactly what was accepted. Passwords and signatures are never echoed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable

from adjudicator.i18n import say_in
from adjudicator.orders.model import OrderSet


def _as_written(message: str) -> str:
    return message


@dataclass(frozen=True)
class Receipt:
    """Accepted orders, their canonical text and its SHA-256 (hex)."""

    orders: OrderSet
    text: str
    sha256: str
    notes: tuple[str, ...] = ()

    @classmethod
    def of(cls, orders: OrderSet, notes: tuple[str, ...] = ()) -> "Receipt":
        text = orders.canonical_text()
        return cls(orders, text, hashlib.sha256(text.encode("utf-8")).hexdigest(), notes)

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        """The receipt as a player reads it (in the language of ``gettext``; English
        without; the canonical orders are the same in every language)."""
        tr = gettext or _as_written
        lines = [tr("Orders accepted. This is what the adjudicator understood:"), ""]
        lines += [f"  {line}" if line else "" for line in self.text.splitlines()]
        lines += ["", tr("SHA-256 of the orders above: %(sha256)s") % {"sha256": self.sha256}]
        lines += [tr("Note: %(note)s") % {"note": say_in(note, gettext)} for note in self.notes]
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"orders": self.text, "sha256": self.sha256, "notes": list(self.notes)}
