"""The toy game's orders language, read line by line (no grammar file: a test game):

    campaign: toy-1
    side: red
    play: 7        (a one-off order: the card to play this round)
    play first: highest | lowest   (a standing order)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from adjudicator.orders.model import Credentials, Header, OrderSet, merge
from adjudicator.orders.problems import ProblemLog
from adjudicator.orders.text import CleanText

CODES = {"E401": "not a card", "E402": "unknown order"}
BLOCK_ORDER = ("play", "policy")
HEADER_KEYS = ("campaign", "side", "turn", "step", "entropy", "reveal", "password", "signature")


@dataclass(frozen=True)
class Play:
    kind: ClassVar[str] = "play"
    standing: ClassVar[bool] = False
    card: str

    def canonical_lines(self) -> list[str]:
        return [f"play: {self.card}"]


@dataclass(frozen=True)
class Policy:
    kind: ClassVar[str] = "policy"
    standing: ClassVar[bool] = True
    first: str

    def canonical_lines(self) -> list[str]:
        return [f"play first: {self.first}"]


def read(clean: CleanText, log: ProblemLog, state: Any = None, world: Any = None) -> OrderSet | None:
    header: dict[str, Any] = {}
    blocks: list = []
    for number, line in enumerate(clean.text.split("\n"), start=1):
        text = line.split("#")[0].strip()
        if not text or text.upper() in ("BEGIN ORDERS", "END ORDERS"):
            continue
        key, sep, rest = text.partition(":")
        key, rest = key.strip().lower(), rest.strip()
        if not sep:
            log.add("E402", f"{text!r} is not an order (write 'play: CARD')", number, 1)
        elif key in HEADER_KEYS:
            header[key] = rest
        elif key == "play":
            if rest.upper() not in [str(n) for n in range(1, 10)] + ["B1", "B5", "B9"]:
                log.add("E401", f"{rest!r} is not a card", number, len(key) + 3)
            else:
                blocks.append(Play(rest.upper()))
        elif key == "play first" and rest.lower() in ("highest", "lowest"):
            blocks.append(Policy(rest.lower()))
        else:
            log.add("E402", f"unknown order {key!r}", number, 1)
    if not header and not blocks:
        log.add("E106", "no orders found")
        return None
    side = header.get("side")
    return OrderSet(
        Header(campaign=header.get("campaign"), side=None if side is None else side.lower(),
               turn=int(header["turn"]) if header.get("turn", "").isdigit() else None,
               step=header.get("step"), entropy=header.get("entropy"), reveal=header.get("reveal")),
        tuple(blocks),
        Credentials(password=header.get("password"), signature=header.get("signature")),
    )


def merge_orders(standing: OrderSet | None, new: OrderSet) -> OrderSet:
    return merge(standing, new, BLOCK_ORDER)
