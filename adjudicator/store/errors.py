"""Exceptions raised by the campaign store.

Every failure kind has its own class, all deriving from :class:`StoreError`, so a
caller can catch the kinds it knows how to handle and report the rest.  Each
message quotes the offending input and says what to do about it.  Messages never
contain a secret's value.
"""

from __future__ import annotations

import os

from adjudicator.errors import AdjudicatorError


class StoreError(AdjudicatorError):
    """Base class of every error raised by :mod:`adjudicator.store`."""


class InvalidCampaignId(StoreError, ValueError):
    """A campaign id does not have the required form."""

    def __init__(self, campaign_id: object, rule: str) -> None:
        self.campaign_id = campaign_id
        super().__init__(
            f"invalid campaign id {campaign_id!r}: {rule} (for example 'club-1904')"
        )


class InvalidValue(StoreError, ValueError):
    """A value given to the store (kind, body, name, address...) is not acceptable."""


class CampaignExists(StoreError):
    """A campaign with this id is already stored."""

    def __init__(self, campaign_id: str) -> None:
        self.campaign_id = campaign_id
        super().__init__(
            f"campaign {campaign_id!r} already exists in this store; "
            "choose another id, or open the existing campaign"
        )


class CampaignNotFound(StoreError, LookupError):
    """No campaign with this id is stored."""

    def __init__(self, campaign_id: str) -> None:
        self.campaign_id = campaign_id
        super().__init__(
            f"campaign {campaign_id!r} does not exist in this store; "
            "check the id (campaigns are listed by Store.campaigns()) or create it first"
        )


class CampaignBusy(StoreError):
    """Another command held the store's write lock for longer than the busy timeout."""

    def __init__(self, campaign_id: str, waited: float) -> None:
        self.campaign_id = campaign_id
        self.waited = waited
        super().__init__(
            f"campaign {campaign_id!r} is busy: another command is writing to the "
            f"store and did not finish within {waited:g} s; try again when it has "
            "finished (or open the store with a longer busy_timeout)"
        )


class HistoryCorrupt(StoreError):
    """A campaign's stored history fails verification.

    ``seq`` is the sequence number of the first entry found bad, ``reason`` says
    what is wrong with it.
    """

    def __init__(self, campaign_id: str, seq: int, reason: str) -> None:
        self.campaign_id = campaign_id
        self.seq = seq
        self.reason = reason
        super().__init__(
            f"history of campaign {campaign_id!r} is corrupt at entry {seq}: {reason}. "
            "The history is refused; restore the store from a backup or the "
            "published record before using this campaign again"
        )


class SecretsDamaged(StoreError):
    """A campaign's stored secrets are unreadable, or do not agree with what its
    history published about them (``problems`` name the secrets, never their values)."""

    def __init__(self, campaign_id: str, problems: list[str]) -> None:
        self.campaign_id = campaign_id
        self.problems = problems
        super().__init__(
            f"the secrets of campaign {campaign_id!r} are damaged: {'; '.join(problems)}. "
            "The campaign is refused; restore the store from a backup before using this "
            "campaign again"
        )


class StoreVersionError(StoreError):
    """The store file was written by a newer adjudicator with an unknown schema."""

    def __init__(self, path: str | os.PathLike[str], found: int, supported: int) -> None:
        self.path = os.fspath(path)
        self.found = found
        self.supported = supported
        super().__init__(
            f"store {self.path!r} has schema version {found}, but this adjudicator "
            f"understands versions up to {supported}; upgrade the adjudicator to "
            "open it (the file has not been changed)"
        )


class NotAStore(StoreError):
    """The file exists but is not an adjudicator campaign store."""

    def __init__(self, path: str | os.PathLike[str], why: str) -> None:
        self.path = os.fspath(path)
        super().__init__(
            f"{self.path!r} is not an adjudicator campaign store ({why}); "
            "give the path of a store file, or a new path to create one"
        )


class StoreUnavailable(StoreError):
    """The store file cannot be opened, read or written (permissions, disk, lock)."""

    def __init__(self, path: str | os.PathLike[str], why: str) -> None:
        self.path = os.fspath(path)
        super().__init__(f"the store {self.path!r} cannot be used: {why}")


class TransactionError(StoreError):
    """A transaction was misused: nested, or used after it ended."""


class DuplicateMessageId(StoreError):
    """An outgoing message with this Message-ID is already in the outbox."""

    def __init__(self, message_id: str) -> None:
        self.message_id = message_id
        super().__init__(
            f"an outgoing message with Message-ID {message_id!r} is already in the "
            "outbox; give every outgoing message a new Message-ID"
        )


class OutboxMailNotFound(StoreError, LookupError):
    """No outgoing message with this outbox id belongs to the campaign."""

    def __init__(self, campaign_id: str, outbox_id: int) -> None:
        self.campaign_id = campaign_id
        self.outbox_id = outbox_id
        super().__init__(
            f"outbox mail {outbox_id!r} does not exist in campaign {campaign_id!r}; "
            "list the campaign's outbox with Store.outbox()"
        )


class OutboxStateError(StoreError):
    """An outgoing message is not in the state the requested change needs."""

    def __init__(self, outbox_id: int, status: str, action: str, needed: str) -> None:
        self.outbox_id = outbox_id
        self.status = status
        super().__init__(
            f"outbox mail {outbox_id} is {status!r}, so it cannot be {action}; "
            f"only mail that is {needed} can be"
        )
