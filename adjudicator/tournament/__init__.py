"""Tournaments by email: a signed charter, pairings and sides drawn from a committed
seed chain, one campaign per pairing, results taken from the finished campaigns,
clocks and the abandonment ladder, standings with tie-breaks and their working,
Glicko-2 ratings kept apart from reliability, and a dice audit of the whole event.

- :mod:`.charter`   -- the charter (TOML) and its checks;
- :mod:`.state`     -- the event folded from its public records;
- :mod:`.pairing`   -- Swiss, round-robin and pool pairings (pure);
- :mod:`.rounds`    -- a round as a function of the event and its seed (referee and audit);
- :mod:`.standings` -- points, tie-breaks, the seeded final draw;
- :mod:`.glicko`, :mod:`.ratings` -- ratings, and reliability apart;
- :mod:`.service`   -- the referee's commands over a store;
- :mod:`.audit`     -- the audit from public records alone;
- :mod:`.gameplay`  -- what a game provides to the tournament layer.
"""
