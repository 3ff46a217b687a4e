"""Sealed mode: every side commits a seed chain of its own in the charter and reveals
the value of each step with its orders; a step waits for every reveal, and a side that
stalls past the deadline forfeits."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.campaign.errors import BadReveal, SealedRevealMissing, UnknownSide
from adjudicator.campaign.log import CampaignLog, read_log
from adjudicator.campaign.protocol import FORFEIT
from adjudicator.campaign.referee import sign_next
from adjudicator.campaign.secrets import open_secrets
from adjudicator.fairdice import ChainCommitment, FairDiceError
from adjudicator.orders import OrderSet


def check_player_chains(campaign: str, sides: Sequence[str],
                         chains: Mapping[str, Mapping[str, Any]] | None) -> dict[str, dict] | None:
    """Sealed mode: every side's chain commitment, made for this campaign and side."""
    if not chains:
        return None
    if sorted(chains) != sorted(sides):
        raise UnknownSide(f"a sealed campaign needs a chain commitment from each of {', '.join(sides)}; "
                          f"got {', '.join(chains) or 'none'}")
    checked = {}
    for side, data in chains.items():
        try:
            commitment = ChainCommitment.from_dict(data)
        except FairDiceError as err:
            raise BadReveal(f"{side}'s chain commitment is unusable: {err}") from err
        if commitment.campaign_id != campaign or commitment.owner != side:
            raise BadReveal(f"{side}'s chain commitment was made for campaign {commitment.campaign_id!r}, "
                            f"side {commitment.owner!r}: make one with 'adjudicator sealed new-chain {campaign} {side}'")
        checked[side] = commitment.to_dict()
    return checked


def check_reveal(orders: OrderSet, side: str, step: int, log: CampaignLog) -> str | None:
    """Sealed mode: the reveal line must be the side's chain value for this step."""
    reveal = orders.header.reveal
    if not log.sealed:
        if reveal is not None:
            raise BadReveal("this campaign is not sealed: remove the 'reveal:' line")
        return None
    if reveal is None:
        return None
    commitment = ChainCommitment.from_dict(log.charter["player_chains"][side])
    try:
        value = bytes.fromhex(reveal)
    except ValueError:
        raise BadReveal(f"the reveal {reveal!r} is not hex: copy it from 'adjudicator sealed reveal'") from None
    if not commitment.verify_reveal(step, value):
        raise BadReveal(f"the reveal for step {step} does not match {side}'s committed chain: "
                        f"use 'adjudicator sealed reveal YOUR-CHAIN-FILE {step}'")
    return reveal


def stall(tx: Any, key: Ed25519PrivateKey, log: CampaignLog, step: int, stalled: list[str],
             sides: Sequence[str], deadline_passed: bool) -> str:
    """Sealed mode: a step cannot run without every side's reveal. Before the deadline
    that is a wait; after it, the stalling side forfeits (both stalling: a draw).
    Returns the result."""
    if not deadline_passed:
        raise SealedRevealMissing(f"step {step} waits for the sealed reveal of {', '.join(stalled)}")
    winners = [s for s in sides if s not in stalled]
    result = winners[0] if len(winners) == 1 else "draw"
    body = {"step": step, "forfeited": stalled, "result": result}
    tx.append(FORFEIT, {"record": sign_next(key, log, FORFEIT, body).to_dict()})
    if "hidden_chain" in log.charter:
        open_secrets(tx, key, read_log(log.campaign, tx.entries()))
    return result
