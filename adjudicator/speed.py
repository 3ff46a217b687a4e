"""The speed annex, and the one switch that turns it off.

Some parts of the adjudicator do by hand what a library does, to start commands and
read orders faster; each is tested against the library it stands in for, and
``ADJUDICATOR_LIBRARIES_ONLY=1`` makes the adjudicator use the libraries instead:

- :mod:`adjudicator.orders.driver` -- a second run of lark's LALR parser, for orders
  without mistakes (tested against lark's own parse: tests/orders/test_fast_parse.py);
- :mod:`adjudicator.cli.direct` and the direct paths of :mod:`adjudicator.cli.main` --
  the plain arguments of the everyday commands read without Typer (tested against the
  Typer command line: tests/pipeline/test_pipeline_direct_commands.py);
- :mod:`adjudicator.cli.compiled` -- the code ``dataclasses`` generates, kept compiled
  for the next command (tested against ``dataclasses`` itself: tests/test_kept_compilations.py);
- :func:`adjudicator.mail.outgoing.outgoing_mail` -- outgoing mail written straight in its
  wire form (tested byte for byte against the ``email`` package: tests/mail/test_mail_wire.py).

One more part has no library path to switch to, and stays: the hand-frozen
:class:`adjudicator.engine.requests.Event` (slots and read-only properties in place of a
frozen dataclass, for the hundreds of events a long game keeps).
"""

from __future__ import annotations

import os

#: The switch: set to 1 to use the libraries only.
SWITCH = "ADJUDICATOR_LIBRARIES_ONLY"


def annex_on() -> bool:
    """Whether the speed annex is used (it is unless ADJUDICATOR_LIBRARIES_ONLY=1)."""
    return os.environ.get(SWITCH, "") in ("", "0")
