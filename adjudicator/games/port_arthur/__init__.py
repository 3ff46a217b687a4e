"""Port Arthur (naval, two players, six turns)."""

from adjudicator.games.port_arthur.game import PortArthur

__all__ = ["PortArthur"]
