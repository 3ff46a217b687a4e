"""Answers from orders: what a side's orders (and, where they are silent, the documented
defaults) say to each question of the rules.

:class:`OrdersPlayer` answers a :class:`~adjudicator.engine.requests.Decision` from the
side's :class:`~.orders.RjwOrders`; it returns None only where orders cannot answer and the
adjudicator must ask (an unconditional card-play step that has become illegal, when
``ask_when_plan_fails``). Every answer it gives is also checked by the rules themselves.

Defaults (docs/games/russo-japanese-war/orders.md): no fourth card; no move; no attack; no
support; pass every combat event; lose the weakest unit (then the latest id); retreat to
the hex nearest the own supply source (then a town or wasteland, then the lowest number); AR
if a unit can retreat, else AE; advance into key locations and supply sources only; no
reaction; Card Play Phase: done. Advanced naval rules (11.0): Makarov on the first Port
Arthur ship, no sortie, carry on once sortied, no interception, no Blockade, Mines or
Akiyama, hits on the strongest ship first, no First Fleet ship withdrawn.
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.engine.requests import Decision
from adjudicator.games.russo_japanese_war.hexmap import distance
from adjudicator.games.russo_japanese_war.orders import ALWAYS, Attack, NavalPlan, RjwOrders
from adjudicator.games.russo_japanese_war.rules.card_play import play_key
from adjudicator.games.russo_japanese_war.rules.results import retreat_options


class OrdersPlayer:
    """One side's answers, from its orders for the current Player Turn and its standing orders."""

    def __init__(self, game, orders: RjwOrders | None, ask_when_plan_fails: bool = False) -> None:
        self.game = game
        self.orders = orders or RjwOrders(header={})
        self.ask_when_plan_fails = ask_when_plan_fails
        self.notes: list[str] = []

    def __call__(self, decision: Decision, state: dict) -> Mapping[str, Any] | None:
        table = self.game.table(state)
        return getattr(self, "_" + decision.kind.replace("-", "_"))(decision, table)

    # -- helpers ------------------------------------------------------------------------------

    def facts(self, t, side: str, **more: Any) -> dict:
        return {"morale": t.s["morale"][side], "hand": len(t.hand(side)), "turn": t.s["turn"], **more}

    def next_legal(self, decision: Decision, name: str, entries, make, done=lambda answer: False) -> dict | None:
        """The first entry of a plan list not carried out yet (``done``) whose answer the
        rules accept; the others are noted."""
        for index, entry in enumerate(entries or ()):
            answer = make(entry)
            if answer is not None and done(answer):
                continue
            if answer is None:
                continue
            try:
                decision.accept(answer)
            except IllegalAnswer as err:
                self.notes.append(f"{name} {index + 1} not carried out: {err}")
                continue
            return answer
        return None

    def spare_card(self, t, side: str, named: str | None) -> str:
        """The card a plan step uses: the one named, else one whose event is least useful now."""
        hand = t.hand(side)
        if named in hand:
            return named
        wanted = {rule.card for rule in self.orders.events} | {u.card for u in self.orders.cards or () if u.use == "event"}
        ranked = sorted(hand, key=lambda c: (c in wanted, t.data.half(c, side) is not None, c))
        return ranked[0]

    # -- Card Replenishment -----------------------------------------------------------------------

    def _extra_card(self, d, t):
        condition = self.orders.extra_card
        return {"use": condition is not None and condition.holds(self.facts(t, d.side))}

    # -- Movement ------------------------------------------------------------------------------

    def _move(self, d, t):
        forced = t.s["phase"].endswith("card-play")
        name = "forced move" if forced else "move"
        moves = self.orders.forced_moves if forced else self.orders.moves

        def make(move):
            return {"rail" if move.rail else "unit": move.unit, "path": list(move.path)}

        moved = set(t.s.get("moved", ()))
        return self.next_legal(d, name, moves, make, lambda a: (a.get("unit") or a.get("rail")) in moved) \
            or {"done": True}

    # -- Combat --------------------------------------------------------------------------------

    def attacks_now(self, t) -> tuple[Attack, ...]:
        forced = t.s["phase"].endswith("card-play")
        return (self.orders.forced_attacks if forced else self.orders.attacks) or ()

    def _attacks(self, d, t):
        targets = d.options["targets"]
        declare, used = [], set()
        for attack in self.attacks_now(t):
            units = [u for u in attack.units if u in targets.get(attack.target, ()) and u not in used]
            if attack.target in targets and units:
                used.update(units)
                declare.append({"target": attack.target, "with": units})
            else:
                self.notes.append(f"attack on {attack.target} not declared: no named unit is next to it")
        return {"declare": declare}

    def _support(self, d, t):
        target = d.options["target"]
        attack = next((a for a in self.attacks_now(t) if a.target == target), None)
        if attack is None or attack.support is None:
            return {"pass": True}
        facts = self.facts(t, d.side, target=target, differential=d.options["differential"])
        if not attack.support.holds(facts):
            return {"pass": True}
        return {"card": self.spare_card(t, d.side, attack.support_card)}

    def _combat_event(self, d, t):
        # A68: the combat's current differential, for the attacker and the defender alike
        facts = self.facts(t, d.side, target=d.options["target"], result=d.options["result"],
                           differential=d.options["differential"])
        for rule in self.orders.events:
            if rule.card in d.options["playable"] and rule.condition.holds(facts):
                return {"card": rule.card}
        return {"pass": True}

    def _reaction(self, d, t):
        for rule in self.orders.reactions:
            if rule.card in d.options["playable"] and rule.condition.holds(self.facts(t, d.side)):
                return {"card": rule.card}
        return {"pass": True}

    # -- 11.0 Advanced naval rules ------------------------------------------------------------

    @property
    def naval(self) -> NavalPlan:
        return self.orders.naval or NavalPlan()

    def _flagship(self, d, t):
        ships = d.options["ships"]
        return {"ship": self.naval.flagship if self.naval.flagship in ships else ships[0]}

    def _sortie(self, d, t):
        fleet = FLEET_ORDER_NAME[d.options["fleet"]]
        card = self.naval.sortie_card if self.naval.sortie_card in d.options["cards"] else None
        return {"sortie": fleet in self.naval.sorties, "card": card}

    def _call_off(self, d, t):
        below = self.naval.call_off_below
        return {"continue": below is None or d.options["unhurt"] >= below}

    def _intercept(self, d, t):
        enemy = "port-arthur" if d.options["fleet"] == "first" else "vladivostok"
        return {"intercept": enemy in self.naval.intercept}

    def _naval_response(self, d, t):
        return {key: d.options[key] and key in self.naval.strikes for key in ("blockade", "mines")}

    def _naval_damage(self, d, t):
        """The ships named by ``hit`` first, then the strongest: each sunk before the next."""
        ships = t.s["naval"]["ships"]
        ranked = [s for s in self.naval.hit_first if s in d.options["ships"]] + \
            sorted((s for s in d.options["ships"] if s not in self.naval.hit_first),
                   key=lambda s: (-ships[s]["strength"], ships[s]["steps"], s))
        steps = [sid for sid in ranked for _ in range(ships[sid]["steps"])]
        return {"ships": steps[:d.options["steps"]]}

    def _akiyama(self, d, t):
        return {"play": self.naval.akiyama}

    def _second_fleet(self, d, t):
        return {"withdraw": self.naval.withdraw if self.naval.withdraw in d.options["ships"] else None}

    def _repair(self, d, t):
        """11.4, A67: the ships named by ``repair`` first, then the strongest."""
        ships = t.s["naval"]["ships"]
        named = [s for s in self.naval.repair if s in d.options["ships"]]
        rest = sorted((s for s in d.options["ships"] if s not in named), key=lambda s: (-ships[s]["strength"], s))
        return {"ships": (named + rest)[:d.options["count"]]}

    def _loss(self, d, t):
        units = d.options["units"]
        spare = [u for u in units if u not in self.orders.protect] or units
        strongest = self.orders.losses_first == "strongest"
        ranked = sorted(spare, key=lambda u: (t.strength(u) * (-1 if strongest else 1), -t.units[u]["seq"]))
        return {"unit": ranked[0]}

    def _attacker_result(self, d, t):
        if self.orders.ar == "eliminate":
            return {"choose": "AE"}
        attackers = [u for u in t.units_of(d.side) if t.on_map(u) and t.board.adjacent(t.at(u), d.options["target"])]
        can = any(t.units[u]["ma"] > 0 and any(retreat_options(t, u)) for u in attackers)
        return {"choose": "AR" if can or self.orders.ar == "retreat" else "AE"}

    def _retreat(self, d, t):
        home = self.orders.retreat_toward or t.board.supply.get(d.side)
        board = t.board

        def rank(h):
            return (distance(h, home) if home else 0, not (h in board.towns or h in board.wasteland), h)

        return {"unit": d.options["unit"], "to": min(d.options["hexes"], key=rank)}

    def _chain(self, d, t):
        return {"unit": min(d.options["units"], key=lambda u: (t.strength(u), u))}

    def _advance(self, d, t):
        target, units, limit = d.options["hex"], d.options["units"], d.options["limit"]
        if target in self.orders.advance_into:
            return {"units": [u for u in self.orders.advance_into[target] if u in units][:limit]}
        mode = self.orders.advance
        key = target in t.board.key_locations or target in t.board.supply.values()
        go = mode == "always" or (mode == "key" and key)
        return {"units": units[:limit] if go else []}

    # -- Card Play -----------------------------------------------------------------------------

    def _card_play(self, d, t):
        side = d.side

        def make(use):
            if use.use == "done":
                return {"done": True}
            if use.use == "event":
                return {"event": use.card, "units": list(use.units)}
            card = self.spare_card(t, side, use.card)
            if use.use == "forced-march":
                return {"forced-march": card, "phase": use.phase}
            if use.use == "strategic":
                return {"strategic": card, "unit": use.unit, "path": list(use.path)}
            if use.use == "transport":
                return {"transport": card, "unit": use.unit, "to": use.to}
            return {"reorganise": card, "unit": use.unit}

        before = len(self.notes)
        made = set(t.s.get("plays", ()))
        answer = self.next_legal(d, "card", self.orders.cards, make,
                                 lambda a: "done" not in a and play_key(a) in made)
        if answer is None and self.ask_when_plan_fails and len(self.notes) > before:
            return None
        return answer or {"done": True}


FLEET_ORDER_NAME = {"port_arthur": "port-arthur", "vladivostok": "vladivostok"}

DEFAULT_TEXT = {
    "flagship": "the first Port Arthur Fleet ship of the counter sheet (Tsesarevich)",
    "sortie": "no sortie",
    "call-off": "carry on with the sortie",
    "intercept": "no interception",
    "naval-response": "neither Blockade nor Mines",
    "naval-damage": "the strongest Port Arthur ship first, each sunk before the next",
    "akiyama": "Akiyama kept in hand",
    "second-fleet": "no First Fleet ship withdrawn",
    "repair": "the strongest damaged ships are repaired",
    "extra-card": "no fourth card",
    "move": "no (further) move",
    "attacks": "no attack",
    "support": "no support card",
    "combat-event": "pass",
    "reaction": "pass",
    "loss": "the weakest unit (then the latest to arrive) is eliminated",
    "retreat": "to the hex nearest the own supply source (then a town or wasteland, then the lowest number)",
    "chain": "the weakest unit makes way",
    "attacker-result": "AR if an attacking unit can retreat, else AE",
    "advance": "advance only into a key location or a supply source",
    "card-play": "no (further) card used",
}


def _game():
    from adjudicator.games.russo_japanese_war.game import RussoJapaneseWar
    return RussoJapaneseWar()


#: decision kind -> the block that answers it (its forced-march variant second)
ANSWERED_BY = {"extra-card": ("replenish",), "move": ("move", "forced move"), "attacks": ("attack", "forced attack"),
               "support": ("attack", "forced attack"), "combat-event": ("events",), "reaction": ("react",),
               "loss": ("losses",), "chain": ("losses",), "retreat": ("retreat",), "attacker-result": ("AR",),
               "advance": ("advance",), "card-play": ("cards",),
               **{kind: ("naval",) for kind in ("flagship", "sortie", "call-off", "intercept", "naval-response",
                                                "naval-damage", "akiyama", "second-fleet", "repair")}}


def answering_block(decision: Decision, state: Any) -> str:
    blocks = ANSWERED_BY[decision.kind]
    forced = len(blocks) > 1 and str(state["phase"]).endswith("card-play")
    return blocks[1] if forced else blocks[0]


def answer_for(decision: Decision, state: Any, orders) -> dict | None:
    """What the side's orders answer (the plug-in contract); None: the orders in force
    hold no block for this question (or a card-plan step cannot be carried out), and the
    player is asked."""
    from adjudicator.games.russo_japanese_war.language import to_rjw
    if orders is None or orders.block(answering_block(decision, state)) is None:
        return None
    answer = OrdersPlayer(_game(), to_rjw(orders), ask_when_plan_fails=True)(decision, state)
    return None if answer is None else dict(answer)


def default_answer(decision: Decision, state: Any) -> dict:
    """The answer for a silent player."""
    return dict(OrdersPlayer(_game(), None)(decision, state))


def orders_chooser(players: Mapping[str, OrdersPlayer]):
    """A chooser for :func:`adjudicator.engine.play_out` (it never returns None: a plan
    that cannot be carried out falls back to the defaults)."""
    def choose(decision: Decision, state: dict) -> Mapping[str, Any]:
        answer = players[decision.side](decision, state)
        return answer if answer is not None else {"done": True}
    return choose


__all__ = ["OrdersPlayer", "orders_chooser", "ALWAYS"]
