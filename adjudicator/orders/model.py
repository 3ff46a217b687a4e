"""Orders as data: the header every game shares and an :class:`OrderSet` of blocks.

Everything is a frozen dataclass, so orders compare by value, hash, and can be kept
in a campaign's history. A game's blocks (its sortie orders, plans and policies) are
its own dataclasses; each says its ``kind`` (the heading) and whether it is a
*standing* order: standing orders stay in force from step to step until a new block
of the same kind replaces them (see :func:`merge`); the others answer only the step
they were sent for.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar, Iterable, Protocol


class Block(Protocol):
    """One block of orders (a heading and its entries)."""

    kind: ClassVar[str]
    standing: ClassVar[bool]

    def canonical_lines(self) -> list[str]:
        """The block in canonical form: the heading line, then its entries indented."""


@dataclass(frozen=True)
class Header:
    """Who sends the orders and for which step of which campaign."""

    campaign: str | None = None
    side: str | None = None
    turn: int | None = None
    step: str | None = None
    game: str | None = None
    entropy: str | None = None
    reveal: str | None = None  # sealed mode: the side's chain value for this step (hex)

    def canonical_lines(self) -> list[str]:
        lines = []
        if self.game is not None:
            lines.append(f"game: {self.game}")
        if self.campaign is not None:
            lines.append(f"campaign: {self.campaign}")
        if self.side is not None:
            lines.append(f"side: {self.side.capitalize()}")
        if self.turn is not None:
            lines.append(f"turn: {self.turn}")
        if self.step is not None:
            lines.append(f"step: {self.step}")
        if self.entropy is not None:
            lines.append(f"entropy: {self.entropy}")
        if self.reveal is not None:
            lines.append(f"reveal: {self.reveal}")
        return lines


@dataclass(frozen=True)
class Credentials:
    """How the sender authenticates: a password or a signature. Never echoed."""

    password: str | None = field(default=None, repr=False)
    signature: str | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        given = [k for k in ("password", "signature") if getattr(self, k) is not None]
        return f"Credentials({', '.join(given) or 'none'} given)"


@dataclass(frozen=True)
class OrderSet:
    """One orders file: its header and its blocks (at most one of each kind).

    ``credentials`` take no part in comparisons or in the canonical text: they say
    who sent the orders, not what the orders are.
    """

    header: Header
    blocks: tuple = ()
    credentials: Credentials = field(default_factory=Credentials, compare=False, repr=False)

    def block(self, kind: str):
        """The block of ``kind``, or None."""
        return next((b for b in self.blocks if b.kind == kind), None)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(b.kind for b in self.blocks)

    def canonical_lines(self) -> list[str]:
        """The whole orders in canonical form (header, blank line, blocks)."""
        lines = self.header.canonical_lines()
        for block in self.blocks:
            if lines:
                lines.append("")
            lines.extend(block.canonical_lines())
        return lines

    def canonical_text(self) -> str:
        return "\n".join(self.canonical_lines()) + "\n"

    def standing(self) -> "OrderSet":
        """Only the standing orders of this set."""
        return replace(self, blocks=tuple(b for b in self.blocks if b.standing))


def order_blocks(blocks: Iterable, order: tuple[str, ...]) -> tuple:
    """``blocks`` sorted in the game's canonical order of kinds."""
    rank = {kind: i for i, kind in enumerate(order)}
    return tuple(sorted(blocks, key=lambda b: rank.get(b.kind, len(rank))))


def merge(standing: OrderSet | None, new: OrderSet, order: tuple[str, ...] = ()) -> OrderSet:
    """The orders in force after ``new`` arrives over the ``standing`` ones.

    The new header and credentials are taken; every block of ``new`` is in force;
    of the standing orders, each standing block whose kind ``new`` does not give
    stays in force. Blocks that are not standing orders are never carried over.
    """
    if standing is None:
        return new
    given = set(new.kinds)
    kept = [b for b in standing.blocks if b.standing and b.kind not in given]
    return replace(new, blocks=order_blocks([*new.blocks, *kept], order or tuple(b.kind for b in new.blocks)))
