"""The root of every error the adjudicator raises on purpose.

Each wing has one class of its own under this root (``EngineError``, ``OrdersError``,
``CampaignError``, ``FairDiceError``, ``StoreError``, ``MailError``, ...) and one class
per kind of failure under that; a command catches :class:`AdjudicatorError` to turn
any of them into a clear message and an exit code, never a traceback.
"""


class AdjudicatorError(Exception):
    """Something the adjudicator refuses or cannot do, said in words for the user."""
