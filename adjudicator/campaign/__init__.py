"""Campaigns: a game played by email, with a signed public record and verifiable dice.

- :mod:`.campaign` -- the referee's commands (create, submit, adjudicate, undo, export);
- :mod:`.protocol` -- what the public records say and how a batch's dice are drawn;
- :mod:`.log`      -- a campaign's history read back from the store;
- :mod:`.verify`   -- checking a public record with no secret.

``Campaigns``, ``Player`` and ``StepResult`` are imported on first use, so that
``verify`` (which needs none of the referee's machinery) starts quickly.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Campaigns", "Player", "StepResult"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from adjudicator.campaign import campaign

        return getattr(campaign, name)
    raise AttributeError(f"module 'adjudicator.campaign' has no attribute {name!r}")
