"""adjudicator: a play-by-email referee for Russo-Japanese War wargames.

The package is split by responsibility:

- ``engine``  -- the game-agnostic core: rules that ask, replay from history;
- ``games``   -- one subpackage per game, its rules written section by section;
- ``cases``   -- the conformance-case runner;
- ``cli``     -- the ``adjudicator`` command.
"""

__version__ = "0.1.0"
