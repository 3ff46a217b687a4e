"""Secrets in a verifiable game, the referee's side (docs/dice.md §8.2): each batch's
hidden stream, the sealing of hidden entries and of the state hash, the openings a
player's report carries, and the opening record when the game ends."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.campaign.errors import CampaignOver
from adjudicator.campaign.log import CampaignLog
from adjudicator.campaign.protocol import BatchDice, OPENING, STATE_POSITION, draw_kind, seal, seal_salt
from adjudicator.campaign.referee import sign_next
from adjudicator.engine import Decision
from adjudicator.fairdice import SeedChain

HIDDEN_CHAIN_SECRET = "referee-hidden-chain"


@dataclass
class Secrets:
    """A batch's hidden information: the hidden stream (keyed by the hidden chain's
    value for the batch) and the sealing of hidden entries and of the state hash."""

    campaign: str
    batch: int
    hidden_seed: bytes
    stream: BatchDice

    @classmethod
    def of(cls, campaign: str, batch: int, contributions: Mapping[str, bytes], tx: Any) -> "Secrets":
        seed = hidden_seed(tx, batch)
        return cls(campaign, batch, seed, BatchDice(campaign, batch, seed, contributions))

    def chance(self, public: BatchDice) -> Callable[[Any], Sequence[int]]:
        """Hidden requests from the hidden stream, the others from the public one."""
        return lambda request: (self.stream if request.hidden else public)(request)

    def salt(self, position: int) -> bytes:
        return seal_salt(self.campaign, self.batch, position, self.hidden_seed)

    def publish(self, entries: Sequence[dict], requests: Sequence[Any]) -> list[dict]:
        """The entries as published: hidden ones sealed (a hidden draw's seal covers its
        address, which every draw carries already), the others as they are."""
        published = []
        for position, (entry, request) in enumerate(zip(entries, requests), start=1):
            if request.hidden:
                what = "answer" if isinstance(request, Decision) else draw_kind(request)
                published.append({"sealed": seal(self.campaign, self.batch, position, self.salt(position), entry),
                                  "side": request.side, "what": what})
            else:
                published.append(entry)
        return published

    def seal_state(self, digest: str) -> str:
        return seal(self.campaign, self.batch, STATE_POSITION, self.salt(STATE_POSITION), digest)

    def openings_by_side(self, clear: Sequence[dict], published: Sequence[dict]) -> dict[str, tuple[dict, ...]]:
        """For each side, its own sealed entries of this batch, opened: what its report carries."""
        found: dict[str, list[dict]] = {}
        for position, (entry, shown) in enumerate(zip(clear, published), start=1):
            if "sealed" in shown and shown.get("side"):
                found.setdefault(shown["side"], []).append({
                    "batch": self.batch, "entry": position, "open": entry,
                    "salt": self.salt(position).hex(), "sealed": shown["sealed"]})
        return {side: tuple(items) for side, items in found.items()}


def hidden_seed(tx: Any, batch: int) -> bytes:
    chain = SeedChain.from_secret_dict(tx.get_secret(HIDDEN_CHAIN_SECRET))
    if batch > chain.length:
        raise CampaignOver(f"the hidden seed chain serves {chain.length} batches; this campaign cannot go on")
    return chain.reveal(batch)


def open_secrets(tx: Any, key: Ed25519PrivateKey, log: CampaignLog) -> None:
    """The game has ended: publish the hidden seeds and every sealed entry in clear."""
    chain = SeedChain.from_secret_dict(tx.get_secret(HIDDEN_CHAIN_SECRET))
    numbers = [record.body["batch"] for record in log.batches]
    openings = []
    for record in log.batches:
        number = record.body["batch"]
        clear = log.clear_entries.get(number, [])
        for position, (shown, entry) in enumerate(zip(record.body["entries"], clear), start=1):
            if "sealed" in shown:
                openings.append({"batch": number, "entry": position, "open": entry})
    body = {"hidden_seeds": {str(n): chain.reveal(n).hex() for n in numbers}, "openings": openings}
    tx.append(OPENING, {"record": sign_next(key, log, OPENING, body).to_dict()})
