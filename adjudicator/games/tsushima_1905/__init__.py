"""Battle of Tsushima Strait (1905), "Monte Carlo on the High Seas": a miniatures
game on a measured table, refereed with exact integer geometry."""

#: for the registry (:mod:`adjudicator.games`): the orders language, and the rules class,
#: each loadable without the rest of the plug-in
LANGUAGE = "adjudicator.games.tsushima_1905.language"
RULES = "adjudicator.games.tsushima_1905.game:Tsushima1905"
