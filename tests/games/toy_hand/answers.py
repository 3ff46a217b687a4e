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


def why_not(decision: Decision, state: Any, orders: Any) -> list[tuple[str, str]]:
    """A one-off ``play:`` of a card not in the hand: not played, as (the card, why)."""
    if orders is None or decision.kind != "play" or (orders.header.side not in (None, decision.side)):
        return []
    play, hand = orders.block("play"), decision.options["card"]
    if play is None or play.card in hand:
        return []
    instead = "your standing order chooses" if orders.block("policy") is not None else "you are asked again"
    return [(play.card, f"{play.card} is not in your hand ({', '.join(hand)}): not played, {instead}")]
