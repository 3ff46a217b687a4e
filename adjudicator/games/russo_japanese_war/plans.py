"""Plans from orders: what a side's orders (and, where they are silent, the documented
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
from adjudicator.games.russo_japanese_war.data import RUSSIA, other
from adjudicator.games.russo_japanese_war.hexmap import EUROPE
from adjudicator.games.russo_japanese_war.language.reader import ALWAYS, Attack, CardUse, NavalPlan, RjwOrders
from adjudicator.games.russo_japanese_war.rules import movement
from adjudicator.games.russo_japanese_war.rules import naval as naval_rules
from adjudicator.games.russo_japanese_war.rules.card_play import (JAPAN_DOES_NOT_REORGANISE, event_never_playable,
                                                                  event_units_never, parse_card_play, play_key)
from adjudicator.games.russo_japanese_war.rules.results import retreat_options
from adjudicator.games.russo_japanese_war.rules.table import GameOver, in_forced_march
from adjudicator.games.russo_japanese_war.rules.zoc import exerts_zoc_into


COMBAT_TIMINGS = frozenset({"before_roll", "after_roll", "own_player_turn"})  # own_player_turn: #13 Gunshin (A59)
REACTION_TIMINGS = frozenset({"reaction"})


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

    def spare_card(self, t, side: str, named: str | None) -> str | None:
        """The card a plan step uses: the one named (None: not in hand), else a spare one."""
        return spare_card(t, side, named, kept_cards(self.orders))

    # -- Card Replenishment -----------------------------------------------------------------------

    def _extra_card(self, d, t):
        condition = self.orders.extra_card
        return {"use": condition is not None and condition.holds(condition_facts(t, d.side))}

    # -- Movement ------------------------------------------------------------------------------

    def _move(self, d, t):
        forced = in_forced_march(t.s)
        name = "forced move" if forced else "move"
        moves = self.orders.forced_moves if forced else self.orders.moves

        def make(move):
            return {"rail" if move.rail else "unit": move.unit, "path": list(move.path)}

        moved = set(t.s.get("moved", ()))
        return self.next_legal(d, name, moves, make, lambda a: (a.get("unit") or a.get("rail")) in moved) \
            or {"done": True}

    # -- Combat --------------------------------------------------------------------------------

    def attacks_now(self, t) -> tuple[Attack, ...]:
        forced = in_forced_march(t.s)
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
        facts = condition_facts(t, d.side, target=target, differential=d.options["differential"], role="attacker")
        if not attack.support.holds(facts):
            return {"pass": True}
        card = self.spare_card(t, d.side, attack.support_card)
        if card is None:
            self.notes.append(f"support on {target} not given: {attack.support_card} is not in hand")
            return {"pass": True}
        return {"card": card}

    def _combat_event(self, d, t):
        # A68: the combat's current differential, for the attacker and the defender alike
        facts = condition_facts(t, d.side, target=d.options["target"], result=d.options["result"],
                           differential=d.options["differential"], role=d.options["role"],
                           enemy_played=d.options.get("answering"))
        for rule in self.orders.events:
            if rule.card in d.options["playable"] and rule.condition.holds(facts):
                return {"card": rule.card}
        return {"pass": True}

    def _reaction(self, d, t):
        for rule in self.orders.reactions:
            if rule.card in d.options["playable"] and rule.condition.holds(condition_facts(t, d.side)):
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

    def _line_up(self, d, t):
        """11.3.1, A43: the ships named by ``line`` first in each group, in that order,
        then the others as they stand (unhurt, then damaged; the strongest first)."""
        named = list(self.naval.line)
        order = []
        for group in (d.options["unhurt"], d.options["damaged"]):
            order += [s for s in named if s in group] + [s for s in group if s not in named]
        return {"order": order}

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
        """The unit's own hexes (``S2 to 1313``), else toward the hex given for the combat
        (``from 1214 toward 2417``), else toward the general hex, else the supply source."""
        uid, hexes = d.options["unit"], d.options["hexes"]
        unheeded = retreat_unheeded(t, self.orders, d)
        if unheeded:
            self.notes.append(f"retreat {uid} not carried out: {unheeded}")
        return {"unit": uid, "to": own_retreat(self.orders, uid, hexes) or retreat_by_direction(t, self.orders, d)}

    def _chain(self, d, t):
        """9.6, A21: the units named by ``chain:`` first, then the weakest (or strongest)."""
        unheeded = chain_unheeded(t, self.orders, d)
        if unheeded:
            self.notes.append(f"chain not carried out: {unheeded}")
        units = d.options["units"]
        return {"unit": next((u for u in self.orders.chain_first if u in units), None) or chain_by_order(t, self.orders, d)}

    def _advance(self, d, t):
        target, units, limit = d.options["hex"], d.options["units"], d.options["limit"]
        into = dict(self.orders.advance_into)
        if target in into:
            return {"units": [u for u in into[target] if u in units][:limit]}
        mode = self.orders.advance
        key = target in t.board.key_locations or target in t.board.supply.values()
        go = mode == "always" or (mode == "key" and key)
        return {"units": units[:limit] if go else []}

    # -- Card Play -----------------------------------------------------------------------------

    def _card_play(self, d, t):
        """The first step of the card plan not made yet whose condition holds and whose
        card is in hand (and which the rules accept); the others are noted."""
        side, kept = d.side, kept_cards(self.orders)
        made = set(t.s.get("plays", ()))
        facts = condition_facts(t, side)

        def make(use):
            if use.use == "done":
                return {"done": True}
            if step_key(use) in made:
                return None                       # made at an earlier question of this phase
            if use.condition is not None and not use.condition.holds(facts):
                return None                       # a conditional step whose condition does not hold
            answer = card_answer(use, t, side, kept)
            if answer is None:
                self.notes.append(f"card step {use.written or use.use} not carried out: "
                                  f"{use.card or 'no card'} is not in hand")
            return answer

        before = len(self.notes)
        answer = self.next_legal(d, "card", self.orders.cards, make)
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
    "line-up": "the unhurt ships first, then the damaged, the strongest first in each",
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
               "loss": ("losses",), "chain": ("chain",), "retreat": ("retreat",), "attacker-result": ("AR",),
               "advance": ("advance",), "card-play": ("cards",),
               **{kind: ("naval",) for kind in ("flagship", "sortie", "call-off", "intercept", "naval-response",
                                                "naval-damage", "akiyama", "second-fleet", "repair", "line-up")}}


def hex_states(t, side: str, hex_: str) -> set[str]:
    """Which of ours/theirs (control, 3.4) and empty/occupied hold for ``hex_``."""
    states = {"ours" if t.controller(hex_) == side else "theirs"}
    states.add("occupied" if t.occupants(hex_) else "empty")
    return states


#: a question answered by any of these blocks as well as its own (the chain retreat's
#: default suits a player who gave his losses or retreat orders)
ALSO_ANSWERED_BY = {"chain": ("losses", "retreat")}


def answering_block(decision: Decision, state: Any) -> str:
    blocks = ANSWERED_BY[decision.kind]
    forced = len(blocks) > 1 and in_forced_march(state)
    return blocks[1] if forced else blocks[0]


def answering_blocks(decision: Decision, state: Any) -> tuple[str, ...]:
    """The headings of the blocks that answer ``decision`` now (the plug-in contract's
    optional hook): ``forced move:`` for the forced-march Movement Phase, not ``move:``."""
    return (answering_block(decision, state), *ALSO_ANSWERED_BY.get(decision.kind, ()))


def answer_for(decision: Decision, state: Any, orders) -> dict | None:
    """What the side's orders answer (the plug-in contract); None: the orders in force
    hold no block for this question (or a card-plan step cannot be carried out), and the
    player is asked."""
    from adjudicator.games.russo_japanese_war.language import to_rjw
    if orders is None:
        return None
    blocks = answering_blocks(decision, state)
    if all(orders.block(block) is None for block in blocks):
        return None
    answer = OrdersPlayer(_game(), to_rjw(orders), ask_when_plan_fails=True)(decision, state)
    return None if answer is None else dict(answer)


def why_not(decision: Decision, state: Any, orders) -> list[tuple[str, str]]:
    """Each order of ``orders`` for the question now open that cannot be carried out as
    written, as (the entry as written, why) -- the plug-in contract's explanation of an
    order line, so that ``check`` with a campaign, every receipt and the report name the
    line. The position is a copy: moves are played on it in order, so that the attacks
    after them, and the card steps after the earlier ones, are checked where they will be
    made. Orders for the other side, or with no block for the question, give nothing."""
    from adjudicator.games.russo_japanese_war.language import to_rjw
    rjw = to_rjw(orders) if orders is not None else None
    if rjw is None or (rjw.side and rjw.side != decision.side):
        return []
    game = _game()
    table = game.table(game.restore_state(state))
    draws_now = decision.kind == "extra-card" and orders.block("replenish") is not None
    return Explainer(table, decision, rjw, draws_now).notes()


def why_not_waiting(side: str, state: Any, orders) -> list[tuple[str, str]]:
    """Each order of ``side``'s ``orders``, sent while no question of that side is open
    (the other side plays), that can never be carried out whatever the position does
    meanwhile (the plug-in contract's optional hook, read by every receipt and ``check
    --store --campaign``): an ``events:`` rule whose card is no combat event of the side,
    a Japanese ``reorganise`` step, an ``event`` step whose card or units can never be
    played so. The moves, attacks and hand are checked once the side's own questions
    come (the side draws before its Player Turn)."""
    from adjudicator.games.russo_japanese_war.language import to_rjw
    rjw = to_rjw(orders) if orders is not None else None
    if rjw is None or (rjw.side and rjw.side != side):
        return []
    game = _game()
    table = game.table(game.restore_state(state))
    explainer = Explainer(table, Decision(side, "waiting", {}, "", lambda answer: answer), rjw, draws_now=True)
    explainer.cards_named()
    return explainer.found


class Explainer:
    """Why the orders for the open question cannot be carried out, block by block."""

    def __init__(self, t, decision: Decision, orders: RjwOrders, draws_now: bool = False) -> None:
        """``draws_now``: the orders answer the side's Card Replenishment question (10.1),
        so its draws come at once, before any of the cards named is used: the hand is not
        known yet, and the cards named are checked at the questions after the draws (a
        note here would only say again, with 'unless Card Replenishment draws it', what
        the next question says for good)."""
        self.t = t
        self.draws_now = draws_now
        self.decision = decision
        self.side = decision.side
        self.orders = orders
        self.found: list[tuple[str, str]] = []
        self.forced = in_forced_march(t.s)

    def note(self, written: str, fallback: str, reason: str) -> None:
        if (written or fallback, reason) not in self.found:
            self.found.append((written or fallback, reason))

    def notes(self) -> list[tuple[str, str]]:
        kind = self.decision.kind
        try:
            if kind == "move" or self.drawing():
                # at Card Replenishment (10.1) the Movement Phase is next: its moves and attacks
                # are checked as they will be met, on the position as it stands
                moves = (self.orders.forced_moves if self.forced else self.orders.moves) or ()
                made = set(self.t.s.get("moved", ())) if kind == "move" else set()
                self.moves(moves, made, rail_open=not any(m.rail and m.unit in made for m in moves))
                self.attacks(self.orders.forced_attacks if self.forced else self.orders.attacks)
            elif kind == "attacks":
                self.attacks(self.orders.forced_attacks if self.forced else self.orders.attacks)
            elif kind == "support":
                self.support()
            elif kind == "combat-event":
                self.held(self.orders.events, COMBAT_TIMINGS, "a combat event")
            elif kind == "reaction":
                self.held(self.orders.reactions, REACTION_TIMINGS, "a reaction")
            elif kind == "advance":
                self.advance()
            elif kind == "retreat":
                self.retreat()
            elif kind == "chain":
                self.chain()
            elif kind == "card-play":
                self.cards()
            elif kind in NAVAL_NOTES:
                NAVAL_NOTES[kind](self)
            if self.before_card_play():
                self.cards_named()
        except GameOver:
            pass                              # a sudden death on the way: nothing after it happens
        return self.found

    # -- the Movement Phase ---------------------------------------------------------------

    def own(self, uid: str) -> str | None:
        """Why ``uid`` is not a unit of the side (None: it is)."""
        if uid not in self.t.units:
            return f"there is no unit {uid}"
        if self.t.side_of(uid) != self.side:
            return f"{uid} is not one of your units"
        return None

    def moves(self, moves, made: set[str], rail_open: bool = True) -> None:
        """Each move in turn, played on the copy when it is legal (``made``: the units that
        have moved in this phase already, by these orders: their lines are done;
        ``rail_open``: no rail move made in this phase yet)."""
        t = self.t
        rail_used = not rail_open
        moved: set[str] = set(made)
        moves = tuple(moves or ())
        for index, move in enumerate(moves):
            if move.unit in made:
                continue
            name = f"{move.unit} {'-'.join(move.path)}"
            problem = self.own(move.unit)
            if problem is None and move.unit in moved:
                problem = f"{move.unit} has already moved in this Movement Phase (A58)"
            if problem is None and move.rail:
                problem = ("only one unit may move by rail in a Movement Phase (8.2, A15)" if rail_used else
                           movement.may_use_railway(t, move.unit, self.side)
                           or movement.long_move_error(t, move.unit, list(move.path), self.side, strategic=False))
            elif problem is None:
                problem = movement.move_error(t, move.unit, list(move.path), self.side, moved)
            if problem:
                stays = self.stays(move.unit, moves[index + 1:], move.unit in moved)
                self.note(move.written, name, f"{move.unit} cannot reach {move.path[-1]}: {problem}, {stays}"
                          if self.own(move.unit) is None else problem)
                continue
            moved.add(move.unit)
            rail_used = rail_used or move.rail
            movement.walk(t, move.unit, list(move.path))

    @staticmethod
    def stays(uid: str, later, moved: bool) -> str:
        """What a move that cannot be carried out leaves: the unit stays where it is
        (where an earlier line moved it), unless a later line names it."""
        if moved:
            return f"so {uid} does not move again"
        if any(m.unit == uid for m in later):
            return f"so {uid} does not make this move (a later line names it)"
        return f"so {uid} does not move"

    # -- the Combat Phase ---------------------------------------------------------------------

    def attacks(self, attacks) -> None:
        t = self.t
        used_units: set[str] = set()
        used_targets: set[str] = set()
        for attack in attacks or ():
            name = f"{attack.target} with"
            if attack.target in used_targets:
                self.note(attack.written, name, f"{attack.target} is attacked twice: a target hex is attacked "
                          "once per Combat Phase (9.1); this attack is not declared")
                continue
            if t.side_in(attack.target) != other(self.side):
                self.note(attack.written, name, f"the attack on {attack.target} is not declared: {attack.target} "
                          "holds no enemy unit")
                continue
            able = []
            for uid in attack.units:
                problem = self.own(uid)
                if problem is None and uid in used_units:
                    problem = f"{uid} attacks twice: each unit attacks once per Combat Phase (9.1)"
                elif problem is None and not t.on_map(uid):
                    problem = f"{uid} cannot attack {attack.target}: it is in the {t.at(uid)} box, not adjacent " \
                              "(9.1, A10)"
                elif problem is None and t.units[uid].get("zoc_lost"):
                    problem = f"{uid} has lost its ZOC (6.4) and cannot attack {attack.target}"
                elif problem is None and not exerts_zoc_into(t, uid, attack.target):
                    problem = f"{uid} cannot attack {attack.target}: it is at {t.at(uid)}, not adjacent (9.1, A10)"
                if problem:
                    self.note(attack.written, name, problem)
                else:
                    able.append(uid)
            if able:
                used_targets.add(attack.target)
                used_units.update(able)
            else:
                self.note(attack.written, name, f"the attack on {attack.target} is not declared: no unit named "
                          "can attack it")

    def support(self) -> None:
        target = self.decision.options["target"]
        self.support_cards(a for a in (self.orders.forced_attacks if self.forced else self.orders.attacks) or ()
                           if a.target == target)

    def support_cards(self, attacks, ahead: bool = False) -> None:
        """Each ``support using CARD`` of ``attacks`` whose card is not in the hand (``ahead``:
        checked before the Combat Phase, when Gunshin may still take the card back)."""
        for attack in attacks:
            if attack.support is not None and attack.support_card and self.lacks(attack.support_card) \
                    and not (ahead and self.may_take_back(attack.support_card)):
                self.note(attack.written, f"{attack.target} with",
                          f"support using {self.label(attack.support_card)}: the card is not in your hand"
                          f"{self.played(attack.support_card)}; {self.unless_drawn('no support card is used')}")

    def held(self, rules, timings: frozenset[str], what: str, in_hand: bool = True) -> None:
        """Each rule of ``events:`` (``react:``) that cannot be used: the side's half of its
        card is not ``what`` (its ``timings``), or (``in_hand``: at the question that plays
        it) its card is not in the hand. These blocks are standing lists of alternatives
        (the first that applies is played), so a card on the discard pile has been played
        -- often by the very rule, at an earlier question of the step -- and its rule is
        spent: it is not named as an order not carried out."""
        for rule in rules:
            label = self.label(rule.card)
            half = self.t.data.half(rule.card, self.side)
            if half is None or timings.isdisjoint(half.timing):
                self.note(rule.written, label, f"{label} is not {what} of yours: this rule is never used")
            elif in_hand and not self.draws_now and rule.card not in self.t.hand(self.side) \
                    and rule.card not in self.t.cards["discard"]:
                self.note(rule.written, label, f"{label} is not in your hand")

    def label(self, card: str) -> str:
        return self.t.data.card_label(card, self.side)

    def lacks(self, card: str) -> bool:
        """Whether ``card`` is not in the hand (never while the draws are still to come at once)."""
        return not self.draws_now and card not in self.t.hand(self.side)

    def played(self, card: str) -> str:
        """Why a card is not in the hand, when the discard pile (face up, 10.0) tells it."""
        return " (it has been played: it is in the discard pile)" if card in self.t.cards["discard"] else ""

    def drawing(self) -> bool:
        """Whether the side's Card Replenishment (10.1) is still to draw its cards."""
        return self.t.s["phase"] == f"{self.side}-replenish"

    def unless_drawn(self, outcome: str) -> str:
        return f"unless Card Replenishment (10.1) draws it, {outcome}" if self.drawing() else outcome

    # -- the cards the orders name, at every question of the side's own Player Turn ------------

    def before_card_play(self) -> bool:
        """Whether the question is one of the side's own Player Turn before its Card Play
        Phase: the cards ``support using`` and the ``cards:`` steps name are to come from
        the hand the side holds now (and the cards it draws at Card Replenishment)."""
        phase = self.t.s["phase"]
        return phase.startswith(f"{self.side}-") and phase != f"{self.side}-card-play"

    def cards_named(self) -> None:
        """Each ``support using CARD`` and each card step naming a card that is not in the
        hand: such an order cannot be carried out, whichever question meets it."""
        self.support_cards(self.attacks_to_come(), ahead=True)
        self.held(self.orders.events, COMBAT_TIMINGS, "a combat event", in_hand=False)
        for use in self.orders.cards or ():
            if use.use == "done":
                return
            if use.card and self.lacks(use.card) and not self.may_take_back(use.card):
                self.note(use.written, self.step_name(use), self.step_not_held(use.card))
            elif use.use == "reorganise" and self.side != RUSSIA:
                self.note(use.written, self.step_name(use), f"this step is not used: {JAPAN_DOES_NOT_REORGANISE}")
            elif use.use == "event" and use.card and (never := event_never_playable(self.t, self.side, use.card)
                                                      or event_units_never(self.t, self.side, use.card, use.units)):
                self.note(use.written, self.step_name(use), f"this step is not used: {never}")

    def attacks_to_come(self) -> tuple[Attack, ...]:
        """The attacks of the orders whose support (9.4.2) is still to be asked. In the
        side's Combat Phase, once the attacks are declared, they are resolved in the order
        written: those up to the combat now resolved have had their support question, and
        the card they discarded is on the discard pile, not missing from the hand."""
        regular, forced = tuple(self.orders.attacks or ()), tuple(self.orders.forced_attacks or ())
        current = self.t.s.get("last_combat")
        if self.t.s["phase"] != f"{self.side}-combat" or self.decision.kind == "attacks" or not current:
            return (*regular, *forced)
        listed = forced if self.forced else regular
        targets = [attack.target for attack in listed]
        if current["target"] in targets:
            listed = listed[targets.index(current["target"]) + 1:]
        return (*listed, *(regular if self.forced else forced))

    def may_take_back(self, card: str) -> bool:
        """Whether ``card`` is the top of the discard pile and the side holds a card that
        takes it back into the hand (#13 Gunshin, A59): it may be in hand when it is used."""
        discard = self.t.cards["discard"]
        return bool(discard) and discard[-1] == card and any(
            (half := self.t.data.half(c, self.side)) is not None and half.effect.get("kind") == "take_top_discard"
            for c in self.t.hand(self.side))

    def step_name(self, use: CardUse) -> str:
        return use.written or {"forced-march": "forced march"}.get(use.use, use.use)

    def step_not_held(self, card: str) -> str:
        return f"{self.label(card)} is not in your hand{self.played(card)}: " + \
            self.unless_drawn("this step is not used")

    def advance(self) -> None:
        target, units = self.decision.options["hex"], self.decision.options["units"]
        for hex_, named in self.orders.advance_into:
            if hex_ != target:
                continue
            for uid in named:
                if uid not in units:
                    self.note("", f"{hex_} with", f"{uid} may not advance into {target}: it did not attack it "
                              "or cannot move (9.7)")

    def retreat(self) -> None:
        unheeded = retreat_unheeded(self.t, self.orders, self.decision)
        if unheeded:
            self.note("", f"{self.decision.options['unit']} to", unheeded)

    def chain(self) -> None:
        unheeded = chain_unheeded(self.t, self.orders, self.decision)
        if unheeded:
            self.note("", "chain", unheeded)

    # -- the Card Play Phase -------------------------------------------------------------------

    def cards(self) -> None:
        """Each step in turn, as the questions of the phase will meet it: steps made at an
        earlier question and conditional steps whose condition does not hold are passed
        over, the others are played on the copy when they are legal."""
        t = self.t
        made = set(t.s.get("plays", ()))
        kept = kept_cards(self.orders)
        for use in self.orders.cards or ():
            if use.use == "done":
                return
            if step_key(use) in made:
                continue
            if use.condition is not None and not use.condition.holds(condition_facts(t, self.side)):
                continue
            answer = card_answer(use, t, self.side, kept)
            name = self.step_name(use)
            if answer is None:
                self.note(use.written, name, self.step_not_held(use.card)
                          if use.card else "no card is left in your hand: this step is not used")
                continue
            try:
                parsed = parse_card_play(t, self.side, answer)
            except IllegalAnswer as err:
                self.note(use.written, name, f"this step is not used: {err}")
                continue
            self.apply(parsed)

    def apply(self, answer: dict) -> None:
        """The step's effect on the positions, as far as later steps depend on it."""
        t, side = self.t, self.side
        use = next(key for key in ("event", "forced-march", "strategic", "transport", "reorganise") if key in answer)
        half = t.data.half(answer[use], side) if use == "event" else None
        if half is not None and half.effect.get("kind") == "take_top_discard":
            t.take_top_discard(side, answer[use])         # #13 Gunshin (A59): the top card to the hand
            return
        t.discard(side, answer[use], use)
        if use == "forced-march":
            t.s["forced_march_used"] = True
            if answer["phase"] == "movement":
                self.moves(self.orders.forced_moves, set())
        elif use == "strategic":
            movement.walk(t, answer["unit"], answer["path"])
        elif use == "transport":
            t.place(answer["unit"], answer["to"])
            if answer["to"] in t.board.hexes:
                t.enter(answer["unit"], answer["to"])
        elif use == "reorganise":
            t.place(answer["unit"], EUROPE)

    # -- 11.0 the advanced naval rules ------------------------------------------------------------

    def ships(self, named, among, why: str) -> None:
        for ship in named:
            if ship and ship not in among:
                self.note("", ship, f"{ship} {why}")

    def flagship(self) -> None:
        self.ships([self.orders.naval and self.orders.naval.flagship], self.decision.options["ships"],
                   f"is not a Port Arthur Fleet ship afloat: {self.decision.options['ships'][0]} carries Makarov")

    def sortie(self) -> None:
        plan = self.orders.naval or NavalPlan()
        options = self.decision.options
        if options["fleet"] != "port_arthur" or "port-arthur" not in plan.sorties:
            return
        if plan.sortie_card and plan.sortie_card not in options["cards"]:
            self.note("", "sortie port-arthur", f"sortie using {self.label(plan.sortie_card)}: the card is not "
                      "in your hand" + ("; the sortie needs #1 or #6 and does not take place"
                                        if options.get("needs_card") else "; the fleet sorties without it"))
        elif options.get("needs_card") and not plan.sortie_card:
            self.note("", "sortie port-arthur", "this campaign plays option sortie_needs_card (A65): write "
                      "sortie port-arthur using #1 or #6; the fleet stays in port")

    def second_fleet(self) -> None:
        self.ships([self.orders.naval and self.orders.naval.withdraw], self.decision.options["ships"],
                   "is not an undamaged First Fleet ship: no ship is withdrawn")

    def repair(self) -> None:
        if self.orders.naval and self.decision.options:
            self.ships(self.orders.naval.repair, self.decision.options["ships"] + self.own_ships(1),
                       "is not a damaged ship of a fleet that repairs now (11.4)")

    def own_ships(self, *steps: int) -> list[str]:
        """The side's ships with one of ``steps`` left (2: undamaged, 1: damaged), in every
        fleet: standing orders name the ships of each fleet for its own battles."""
        ships = self.t.s["naval"]["ships"]
        return [s for s, ship in ships.items() if ship["side"] == self.side and ship["steps"] in steps]

    def line(self) -> None:
        if self.orders.naval:
            o = self.decision.options
            fleet = o["unhurt"] + o["damaged"]
            self.ships(self.orders.naval.line, fleet + self.own_ships(1, 2),
                       "is not in a line of yours afloat (11.3.1): it is left out")

    def naval_damage(self) -> None:
        if self.orders.naval:
            self.ships(self.orders.naval.hit_first, self.decision.options["ships"],
                       "is not a Port Arthur Fleet ship afloat: the strongest are hit instead")


NAVAL_NOTES = {"line-up": Explainer.line, "flagship": Explainer.flagship, "sortie": Explainer.sortie, "second-fleet": Explainer.second_fleet,
               "repair": Explainer.repair, "naval-damage": Explainer.naval_damage}


# -- 9.6 retreats and chain retreats ----------------------------------------------------------

def own_retreat(orders: RjwOrders, uid: str, hexes) -> str | None:
    """The first of the hexes the orders give the unit (``S2 to 1313, 1414``) it may retreat to."""
    return next((h for h in dict(orders.retreat_units).get(uid, ()) if h in hexes), None)


def retreat_by_direction(t, orders: RjwOrders, decision: Decision) -> str:
    """The hex nearest the one given for the combat (``from 1214 toward 2417``), else the
    general hex (``toward 1015``), else the own supply source; then a town or wasteland,
    then the lowest number."""
    combat = (t.s.get("last_combat") or {}).get("target")
    home = dict(orders.retreat_from).get(combat) or orders.retreat_toward or t.board.supply.get(decision.side)
    board = t.board

    def rank(h):
        return (distance(h, home) if home else 0, not (h in board.towns or h in board.wasteland), h)

    return min(decision.options["hexes"], key=rank)


def retreat_unheeded(t, orders: RjwOrders, decision: Decision) -> str | None:
    """Why the hexes the orders give the retreating unit are not used (None: they are, or
    the orders give it none), and the hex it retreats to instead."""
    uid, hexes = decision.options["unit"], decision.options["hexes"]
    named = dict(orders.retreat_units).get(uid, ())
    if not named or own_retreat(orders, uid, hexes):
        return None
    return (f"{uid} cannot retreat to {' or '.join(named)} (9.6; it may retreat to {', '.join(hexes)}): "
            f"it retreats to {retreat_by_direction(t, orders, decision)} instead")


def chain_by_order(t, orders: RjwOrders, decision: Decision) -> str:
    """The weakest unit in the hex (``strongest first``: the strongest), then the lowest id."""
    sign = -1 if orders.chain_order == "strongest" else 1
    return min(decision.options["units"], key=lambda u: (sign * t.strength(u), u))


def chain_unheeded(t, orders: RjwOrders, decision: Decision) -> str | None:
    """Why the units ``chain:`` names are not used to make way (None: one of them is, or it
    names none), and the unit that makes way instead."""
    units = decision.options["units"]
    if not orders.chain_first or any(u in units for u in orders.chain_first):
        return None
    return (f"none of {', '.join(orders.chain_first)} is in {decision.options['hex']} to make way (9.6, A21): "
            f"{chain_by_order(t, orders, decision)}, the {orders.chain_order} there, makes way instead")


def kept_cards(orders: RjwOrders) -> set[str]:
    """The cards the orders name (events, reactions, card steps, support, the sortie):
    kept while another card will do."""
    kept = {rule.card for rule in (*orders.events, *orders.reactions)}
    kept |= {u.card for u in orders.cards or () if u.card}
    kept |= {a.support_card for a in (*(orders.attacks or ()), *(orders.forced_attacks or ())) if a.support_card}
    if orders.naval and orders.naval.sortie_card:
        kept.add(orders.naval.sortie_card)
    return kept


def card_answer(use: CardUse, t, side: str, kept=()) -> dict | None:
    """The question's answer for a card-plan step; None when the card it names (``using``,
    or the event) is not in the hand."""
    if use.use == "event":
        return step_answer(use, use.card) if use.card in t.hand(side) else None
    card = spare_card(t, side, use.card, kept)
    return None if card is None else step_answer(use, card)


def step_answer(use: CardUse, card: str | None) -> dict:
    """The answer for a card-plan step made by discarding ``card``."""
    if use.use == "event":
        return {"event": use.card, "units": list(use.units)}
    if use.use == "forced-march":
        return {"forced-march": card, "phase": use.phase}
    if use.use == "strategic":
        return {"strategic": card, "unit": use.unit, "path": list(use.path)}
    if use.use == "transport":
        return {"transport": card, "unit": use.unit, "to": use.to}
    return {"reorganise": card, "unit": use.unit}


def step_key(use: CardUse) -> str:
    """The step as :func:`~.rules.card_play.play_key` records it once made (the card
    discarded for it left out): how a step made at an earlier question is recognised."""
    return play_key(step_answer(use, use.card))


def condition_facts(t, side: str, **more: Any) -> dict:
    """What a condition may test (see :class:`~.orders.Clause`)."""
    discard = t.cards["discard"]
    return {"morale": t.s["morale"][side], "hand": len(t.hand(side)), "turn": t.s["turn"],
            "top_discard": discard[-1] if discard else None,
            "hex_state": lambda hex_: hex_states(t, side, hex_), **more}


def spare_card(t, side: str, named: str | None, kept) -> str | None:
    """The card a step discards: the one named (None when it is not in hand), else the
    one least wanted -- cards named by the orders (``kept``) and, under the advanced naval
    rules, the cards those rules use (#1, #3, #4 for Japan; #1, #5, #6 for Russia) are
    kept as long as another card will do; then a card without an event for the side."""
    hand = t.hand(side)
    if named is not None:
        return named if named in hand else None
    if not hand:
        return None
    naval_numbers = naval_rules.NAVAL_HALVES[side] if naval_rules.enabled(t.s) else ()

    def rank(card: str):
        half = t.data.half(card, side)
        return (card in kept, half is not None and half.number in naval_numbers, half is not None, card)

    return min(hand, key=rank)


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
