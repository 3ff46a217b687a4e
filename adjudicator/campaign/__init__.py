"""Campaigns: a game played by email, with a signed public record and verifiable dice.

- :mod:`.campaign` -- the referee's commands (create, submit, adjudicate, undo, export);
- :mod:`.protocol` -- what the public records say and how a batch's dice are drawn;
- :mod:`.log`      -- a campaign's history read back from the store;
- :mod:`.verify`   -- checking a public record with no secret.
"""

from adjudicator.campaign.campaign import Campaigns, Player, StepResult

__all__ = ["Campaigns", "Player", "StepResult"]
