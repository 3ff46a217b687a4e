"""Errors of the tournament layer: one root class, one class per kind of failure.
Each message quotes the input and says what to do."""

from __future__ import annotations

from adjudicator.errors import AdjudicatorError


class TournamentError(AdjudicatorError):
    """Base class of the tournament layer's errors."""


class BadCharter(TournamentError):
    """A tournament charter (TOML) that cannot be used as written."""


class UnknownPlayer(TournamentError):
    """A player name that is not registered in the tournament."""


class RegistrationClosed(TournamentError):
    """A registration, withdrawal or absence that the tournament's state refuses."""


class RoundNotOver(TournamentError):
    """Pairing the next round while games of the current one are still running."""


class NothingToPair(TournamentError):
    """No round can be paired: the event is over or too few players are active."""


class TournamentClosed(TournamentError):
    """A command that changes a tournament that has been closed."""


class UnknownGameOfEvent(TournamentError):
    """A game (campaign) that is not one of this tournament's pairings."""


class LadderRefused(TournamentError):
    """A rung of the abandonment ladder that does not apply to this game."""


class NotATournamentRecord(TournamentError):
    """Input that is not a tournament's public record at all."""
