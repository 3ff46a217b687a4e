"""``adjudicator serve``: the resident mail service.

One warm process takes orders as they arrive and answers at once, with the same
transactions as the commands (``receive``, ``adjudicate``, ``send``):

- :mod:`.desk`     -- the referee's desk: the one thread that owns the store and runs
  receive -> adjudicate -> send for each message, and the clock (deadlines, reminders);
- :mod:`.lmtp`     -- an LMTP endpoint, for a mail server (e.g. Postfix) to deliver to;
- :mod:`.imap`     -- an IMAP client that waits on a mailbox with IDLE;
- :mod:`.maildir`  -- a Maildir watched by polling;
- :mod:`.health`   -- the one-line health file for process supervisors;
- :mod:`.service`  -- starts and stops the whole (SIGTERM: graceful shutdown);
- :mod:`.settings` -- what the referee configures.

A message is answered by its source only once it is durable in the store (LMTP's 250,
the IMAP keyword, the Maildir file remembered), so a kill at any moment loses nothing,
and the store's Message-ID and content hash make a delivery seen twice a duplicate.
"""

from adjudicator.service.settings import ImapSettings, ServiceSettings, SettingsError

__all__ = ["ImapSettings", "ServiceSettings", "SettingsError"]
