"""A resident service's memory of passwords it has already verified (as Dovecot's
authentication cache does), so that a player's every orders mail does not pay the
full Argon2id check (19 MiB, 2 passes: tens of milliseconds) again.

What is kept, in this process's memory only: for each (campaign, side), one HMAC-SHA256
tag of the campaign, the side, the stored hash and the password, under a key drawn
from ``os.urandom`` when the memory is made. Neither the key nor the tags are ever
written to the store, a log or a report, and they die with the process. A tag is
kept only after the full check has said the password is right.

- The right password again: its tag is found, the password is taken as verified.
- A wrong password: its tag is not the one kept, so it gets the full check (and the
  full cost) and is refused as before.
- A changed or upgraded stored hash: the stored hash is part of what is tagged, so
  the old tag stops matching at once; the next check is the full one.

The memory holds at most ``capacity`` entries (the least recently used goes first).
The one-shot commands (``receive``, ``submit``, ``step``) make none: only ``serve``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections import OrderedDict
from typing import Any, Callable, Mapping

from adjudicator.campaign.passwords import PasswordCheck, check_password

DEFAULT_CAPACITY = 10_000


class VerifiedPasswords:
    """Passwords this process has verified, as keyed tags (see the module's docstring)."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY,
                 full_check: Callable[[str, Mapping[str, Any]], PasswordCheck] = check_password) -> None:
        if capacity < 1:
            raise ValueError("the verified-password memory needs room for at least one entry")
        self._key = os.urandom(32)
        self._tags: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._capacity = capacity
        self._full_check = full_check

    def __repr__(self) -> str:  # never the key nor a tag
        return f"VerifiedPasswords({len(self._tags)} of {self._capacity} entries)"

    def __len__(self) -> int:
        return len(self._tags)

    def check(self, campaign: str, side: str, password: str, stored: Mapping[str, Any]) -> PasswordCheck:
        """As :func:`check_password`, without the full check when this process has
        verified this very password against this very stored hash before."""
        where = (campaign, side)
        tag = self._tag(campaign, side, password, stored)
        kept = self._tags.get(where)
        if kept is not None and hmac.compare_digest(kept, tag):
            self._tags.move_to_end(where)
            return PasswordCheck(True)
        checked = self._full_check(password, stored)
        if checked.matches and checked.upgraded is None:
            self._remember(where, tag)
        elif checked.upgraded is not None:
            self._tags.pop(where, None)  # the stored hash is replaced: checked in full next time
        return checked

    def _remember(self, where: tuple[str, str], tag: bytes) -> None:
        self._tags[where] = tag
        self._tags.move_to_end(where)
        while len(self._tags) > self._capacity:
            self._tags.popitem(last=False)

    def _tag(self, campaign: str, side: str, password: str, stored: Mapping[str, Any]) -> bytes:
        stored_text = json.dumps(dict(stored), sort_keys=True, default=str)
        message = json.dumps([campaign, side, stored_text, password]).encode("utf-8", "surrogatepass")
        return hmac.new(self._key, message, hashlib.sha256).digest()
