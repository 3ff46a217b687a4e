"""An automatic player that writes orders files, as a person would (the demo's players).

Its first orders carry standing orders for every question of the opponent's turn
(combat events, losses, retreats, AR, advance, reactions, the fourth card); after that it
writes one message when asked to move (a plan for every unit), to attack (every attack at
+2 or better) and to use cards (transports while it holds more than one card, then done).
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from adjudicator.engine import Decision
from adjudicator.games.russo_japanese_war.players import ReasonablePlayer
from adjudicator.games.russo_japanese_war.rules import movement
from adjudicator.games.russo_japanese_war.rules.table import in_forced_march

STANDING = {
    "japan": ["replenish: no extra card", "events:", "  9 if differential < 2", "  7", "  11", "  2 if result in AR, AE",
              "losses: weakest first", "retreat: toward 1015", "AR: retreat", "advance: always",
              "react: 1; 4"],
    "russia": ["replenish: no extra card", "events:", "  10 if differential >= 4", "  2 if result in DE, DR, EX",
               "  4 if result in DE, EX", "  7 if result in DE, EX", "  3 if result in EX, NE", "  11", "  15",
               "  8 if target is 1201", "losses: weakest first", "retreat: toward 2417", "AR: retreat",
               "advance: always"],
}


NAVAL_KINDS = ("flagship", "sortie", "call-off", "intercept", "naval-response", "naval-damage", "akiyama",
               "second-fleet", "repair", "line-up")


class AutoCommander:
    """Writes ``side``'s orders when the adjudicator asks for them."""

    def __init__(self, side: str, rng: random.Random) -> None:
        from adjudicator.games.russo_japanese_war.game import RussoJapaneseWar
        self.side = side
        self.rng = rng
        self.game = RussoJapaneseWar()
        self.player = ReasonablePlayer(self.game, rng=rng)
        self.sent_standing = False

    def orders(self, decision: Decision, state: Any, header: Mapping[str, Any]) -> str:
        lines = ["BEGIN ORDERS"] + [f"{key}: {value}" for key, value in header.items() if value is not None]
        block = self.block(decision, state)
        if not self.sent_standing:
            lines += STANDING[self.side]
            self.sent_standing = True
            if decision.kind not in ("move", "attacks", "card-play", *NAVAL_KINDS):
                block = []                    # the standing orders answer it
        lines += block
        lines.append("END ORDERS")
        return "\n".join(lines) + "\n"

    def naval_block(self, decision: Decision, state: Any) -> list[str]:
        """Standing orders for the advanced naval rules (11.0), in the side's character."""
        if self.side == "russia":
            ships = [s for s, ship in state["naval"]["ships"].items() if ship["fleet"] == "port_arthur"]
            flagship = state["naval"]["flagship"] or self.rng.choice(ships)
            return ["naval:", f"  flagship {flagship}", "  sortie port-arthur", "  sortie vladivostok",
                    "  call off below 3"]
        return ["naval:", "  intercept port-arthur", "  intercept vladivostok", "  blockade", "  mines", "  akiyama"]

    def block(self, decision: Decision, state: Any) -> list[str]:
        t = self.game.table(state)
        forced = in_forced_march(state)
        kind = decision.kind
        if kind == "move":
            heading = "forced move:" if forced else "move:"
            lines = []
            for uid in decision.options["units"]:
                dests = movement.reachable(t, uid)
                if dests:
                    lines.append(f"  {uid} {'-'.join(self.player.pick_path(t, uid, dests))}")
            return [heading] + (lines or ["  none"])
        if kind == "attacks":
            heading = "forced attack:" if forced else "attack:"
            declared = self.player._attacks(decision, t)["declare"]
            lines = [f"  {a['target']} with {', '.join(a['with'])}" + (" support" if len(t.hand(self.side)) > 2 else "")
                     for a in declared]
            return [heading] + (lines or ["  none"])
        if kind == "card-play":
            uses = decision.options["uses"]
            lines = []
            spare = len(decision.options["hand"]) - 1
            for uid, destinations in sorted(uses.get("transport", {}).items()):
                if spare <= 0:
                    break
                lines.append(f"  transport {uid} to {destinations[0]}")
                spare -= 1
            return ["cards:"] + lines + ["  done"]
        if kind == "extra-card":
            return ["replenish: no extra card"]
        if kind == "reaction":
            return ["react: none"]
        if kind in NAVAL_KINDS:
            return self.naval_block(decision, state)
        # every other question is answered by the standing orders sent first
        return STANDING[self.side]
