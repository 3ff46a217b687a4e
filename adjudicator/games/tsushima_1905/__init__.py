"""Battle of Tsushima Strait (1905), "Monte Carlo on the High Seas": a miniatures
game on a measured table, refereed with exact integer geometry."""
