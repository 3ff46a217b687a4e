"""Errors of the campaign layer. One class per kind of failure; each message quotes
the input and says what to do."""

from __future__ import annotations

from adjudicator.errors import AdjudicatorError


class CampaignError(AdjudicatorError):
    """Base class of the campaign layer's errors."""


class UnknownGame(CampaignError):
    """A game the adjudicator does not know."""


class UnknownSide(CampaignError):
    """Orders or a player for a side that is not in the campaign."""


class AuthenticationFailed(CampaignError):
    """A wrong or missing password, or a signature that does not verify."""


class WeakPasswordHash(CampaignError):
    """A player's password given already hashed, but not as a campaign stores it today
    (Argon2id at the OWASP minimum)."""


class StepOver(CampaignError):
    """Orders for a step that has already been adjudicated."""


class CampaignOver(CampaignError):
    """The game has ended: there is nothing more to adjudicate or order."""


class SealedRevealMissing(CampaignError):
    """In sealed mode, a side's chain value for this step has not been revealed."""


class BadReveal(CampaignError):
    """A sealed-mode reveal that does not match the side's committed chain."""


class NothingToUndo(CampaignError):
    """An undo with no batch to void."""


class RefereeKeyMismatch(CampaignError):
    """The referee key given is not the one in the campaign's charter."""


class BadAddress(CampaignError):
    """An email address given to a campaign (the referee's, a player's) that mail cannot
    be sent from or to: a line break, several addresses, no domain."""


class MailBeingTakenIn(CampaignError):
    """Adjudication waited too long for a running mail intake to finish."""


class FreshOrdersNeeded(CampaignError):
    """A voided step adjudicated again before every side has sent something since the
    undo (fresh orders, or a one-line confirmation with its entropy): the redo's dice
    need a fresh contribution from every side, even with ``--reuse-orders``."""


class ContributionsDue(CampaignError):
    """A step would draw dice, a shuffle or cards before every side due has contributed
    (the first step: every side; docs/dice.md §8.1 "No draw before every side has
    spoken"). Nothing is recorded; the step runs once the sides have sent orders or a
    one-line confirmation."""
