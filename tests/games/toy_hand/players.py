"""Automatic play for the toy game."""

from __future__ import annotations

import random


def random_player(rng: random.Random):
    return lambda decision, state: {"card": rng.choice(decision.options["card"])}


def random_dice(rng: random.Random):
    def chance(request):
        if hasattr(request, "size"):
            order = list(range(request.size))
            rng.shuffle(order)
            return order
        if hasattr(request, "cards"):
            return rng.sample(range(len(request.cards)), request.count)
        return [rng.randint(1, request.sides) for _ in range(request.count)]
    return chance


class Commander:
    """Writes orders files as a person would (plays the highest card, standing)."""

    def __init__(self, side: str, rng: random.Random) -> None:
        self.side = side

    def orders(self, decision, state, header) -> str:
        lines = ["BEGIN ORDERS"] + [f"{k}: {v}" for k, v in header.items() if v is not None]
        return "\n".join([*lines, "play first: highest", "END ORDERS"]) + "\n"
