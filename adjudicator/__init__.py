"""adjudicator: a play-by-email referee for Russo-Japanese War wargames (Port Arthur,
Russo-Japanese War 1904-1905, Battle of Tsushima Strait 1905).

The package is split by responsibility, in layers; no generic wing imports a game:

- ``engine``     -- the game-agnostic core: rules that ask, replay from history, the
  contract a game fulfils, running one conformance case;
- ``cases``      -- loading case files and running each with its game's plug-in;
- ``games``      -- one subpackage per game, its rules written section by section;
- ``orders``     -- the orders language: parsing, errors with line and column, receipts;
- ``fairdice``   -- verifiable dice: seed chains, signed records, keys;
- ``store``      -- the durable campaign store (SQLite or PostgreSQL);
- ``mail``       -- reading and writing email, SMTP;
- ``reports``    -- the players' turn reports (text and HTML);
- ``campaign``   -- a game played by email: the referee's commands, intake, verification;
- ``tournament`` -- events of many campaigns: pairings, standings, ratings, audit;
- ``service``    -- ``adjudicator serve``, the resident mail service;
- ``cli``        -- the ``adjudicator`` command;
- ``errors``     -- :class:`~adjudicator.errors.AdjudicatorError`, the root of every error.
"""

__version__ = "0.1.0"
