"""Answering the toy game's decisions from orders; the default for silence."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Decision

from tests.games.toy_hand.game import value

DEFAULT_TEXT = {"play": "plays the lowest card of the hand"}


def answer_for(decision: Decision, state: Any, orders: Any) -> dict | None:
    if orders is None or (orders.header.side is not None and orders.header.side != decision.side):
        return None
    hand = decision.options["card"]
    play = orders.block("play")
    if play is not None and play.card in hand:
        return {"card": play.card}
    policy = orders.block("policy")
    if policy is not None:
        return {"card": (max if policy.first == "highest" else min)(hand, key=value)}
    return None


def default_answer(decision: Decision, state: Any) -> dict:
    return {"card": min(decision.options["card"], key=value)}
