"""The kinds of a campaign's records (see :mod:`adjudicator.campaign.protocol`), apart
from the protocol's dice and seals, so that reading a history (``status``) loads neither."""

CHARTER, ORDERS, BATCH, CHAIN, UNDO, FORFEIT = "charter", "orders", "batch", "chain", "undo", "forfeit"
OPENING = "opening"
