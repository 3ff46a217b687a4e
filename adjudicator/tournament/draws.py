"""Random choices of a tournament, all drawn from its committed seed chain.

The referee commits a seed chain in the signed charter (as a campaign does for its
dice). Each record that needs chance -- a round's pairings and sides, a ladder
challenge's sides, the final tie-break draw at the close -- reveals the chain's next
seed ``s_k`` and draws with :class:`Draws`, a stream keyed by that seed alone. The
referee cannot choose a seed (it must hash back to the committed anchor) and nobody
can foresee one before it is revealed, so anyone can recompute every draw and see
that the pairings were not chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence, TypeVar

from adjudicator.fairdice import DiceStream, batch_key

T = TypeVar("T")


@dataclass
class Draws:
    """Uniform draws and shuffles from one revealed seed, each at its own index."""

    tournament: str
    index: int
    seed: bytes = field(repr=False)
    _next: int = 0

    def __post_init__(self) -> None:
        self._stream = DiceStream(batch_key(self.tournament, self.index, self.seed, {}), self.tournament, self.index)

    def below(self, n: int, purpose: str) -> int:
        """A uniform integer in 0..n-1."""
        value = self._stream.uniform_below(n, 0, purpose, self._next)
        self._next += 1
        return value

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        count = max(len(items) - 1, 0)
        result = list(self._stream.shuffle(items, 0, purpose, self._next)) if items else []
        self._next += count
        return result
