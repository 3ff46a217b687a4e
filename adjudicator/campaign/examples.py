"""The worked examples of docs/dice.md (``docs/examples/``): a short campaign of each
game, played through the real campaign code by automatic players who send orders
with entropy lines, exported as its public record. The tests verify every example
with ``verify`` and with the browser verifier, so that the page cannot drift from
the code; when the rules or the game data change, make them again:

    python -m adjudicator.campaign.examples docs/examples

Each example's referee key is the key of docs/dice.md §10.5 (fingerprint
``24f6 ed6a cbfe 1009 c030 d7ca 567c 33ca``); its seed chains are fresh."""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from typing import Any, Mapping

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.campaign.campaign import Campaigns, Player
from adjudicator.campaign.games import support
from adjudicator.store import Store

#: the private key of docs/dice.md §10.5 (RFC 8032 seed): published, for examples only
EXAMPLE_KEY_SEED = bytes(range(0x20, 0x40))
#: example file -> (game, options, steps it runs at most: a whole game when it ends before)
EXAMPLES = {"port-arthur.jsonl": ("port-arthur", {}, 6),
            "russo-japanese-war.jsonl": ("russo-japanese-war", {}, 5),
            "tsushima-1905.jsonl": ("tsushima-1905", {}, 6),
            "port-arthur-fog-of-war.jsonl": ("port-arthur", {"fog_of_war": True}, 400)}


def example_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(EXAMPLE_KEY_SEED)


def confirmation(campaign: str, side: str, turn: Any, step: int, password: str, entropy: str) -> str:
    """Orders that only confirm: the header, with the side's entropy line."""
    return (f"campaign: {campaign}\nside: {side}\nturn: {turn}\nstep: {step}\npassword: {password}\n"
            f"entropy: {entropy}\n")


def play_example(campaigns: Campaigns, name: str, game: str, options: Mapping[str, Any], steps: int,
                 seed: int = 1905) -> str:
    """A short campaign of ``game``: every side confirms with its entropy before the
    first step; then at each step each side asked sends orders (with entropy) and the
    referee adjudicates. Returns the public record."""
    plugin = support(game)
    sides = plugin.game().sides
    key = example_key()
    rng = random.Random(seed)
    passwords = {side: f"{side}-example-password" for side in sides}
    campaigns.create(name, plugin.name, [Player(side, f"{side}@example.org", passwords[side]) for side in sides],
                     key, options=dict(options), referee_address="referee@example.org")
    commanders = {side: plugin.commander(side, rng) for side in sides}
    for _ in range(steps):
        log, match = campaigns.match(name)
        if match.finished or log.forfeit is not None:
            break
        step, turn = log.next_batch, getattr(match.state, "turn", 1)
        asked = {decision.side: decision for decision in match.decisions}  # (a stop may ask several sides)
        for side in sides:
            entropy = f"{rng.getrandbits(64):016x}"
            if side in asked:
                header = {"campaign": name, "side": side, "turn": turn, "step": step,
                          "password": passwords[side], "entropy": entropy}
                text = commanders[side].orders(asked[side], match.state, header)
            elif step == 1 or not asked:
                text = confirmation(name, side, turn, step, passwords[side], entropy)
            else:
                continue
            campaigns.submit(name, text, key)
        campaigns.adjudicate(name, key)
    return campaigns.export_public(name)


def write_examples(folder: Path) -> list[Path]:
    """Play every example and write its public record into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as scratch:
        with Store.open(Path(scratch) / "examples.sqlite3") as store:
            campaigns = Campaigns(store)
            for file_name, (game, options, steps) in EXAMPLES.items():
                path = folder / file_name
                name = "example-" + file_name.removesuffix(".jsonl")
                path.write_text(play_example(campaigns, name, game, options, steps), encoding="utf-8")
                written.append(path)
    return written


if __name__ == "__main__":  # python -m adjudicator.campaign.examples FOLDER
    for made in write_examples(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/examples")):
        sys.stdout.write(f"{made}\n")
