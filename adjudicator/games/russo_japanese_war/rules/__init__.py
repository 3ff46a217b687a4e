"""The rules of Russo-Japanese War 1904-1905, one module per part of the rulebook.

- :mod:`.table` -- the game in progress: units, hex control (3.4), Morale (4.3), sudden death (4.4)
- :mod:`.zoc` -- zones of control (6.0)
- :mod:`.movement` -- movement, rail movement, strategic movement, off-map boxes (7.0, 8.0, 10.2.4)
- :mod:`.combat` -- declarations, differential, the table, combat events (9.1-9.5, 10.4.5)
- :mod:`.results` -- losses, retreats, chain retreats, advance after combat (9.5-9.7)
- :mod:`.deck` -- the deck, draws, reshuffles, replenishment (10.0, 10.1, 10.4.6, 3.2)
- :mod:`.card_play` -- the Card Play Phase and the events (10.2-10.4)
- :mod:`.victory` -- Morale Checks and the Victory Check Phase (4.1-4.3)
- :mod:`.sequence` -- the sequence of play (5.0, 5.1)
"""
