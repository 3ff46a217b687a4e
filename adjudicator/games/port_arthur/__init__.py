"""Port Arthur (naval, two players, six turns).

The game class is imported on first use (``from adjudicator.games.port_arthur import
PortArthur``), so that reading orders loads the orders language without the rules.
"""

#: for the registry (:mod:`adjudicator.games`): the orders language, and the rules class,
#: each loadable without the rest of the plug-in
LANGUAGE = "adjudicator.games.port_arthur.language"
RULES = "adjudicator.games.port_arthur.game:PortArthur"

__all__ = ["PortArthur"]


def __getattr__(name: str):
    if name == "PortArthur":
        from adjudicator.games.port_arthur.game import PortArthur

        return PortArthur
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
