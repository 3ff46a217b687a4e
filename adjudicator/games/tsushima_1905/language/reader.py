"""From a parse tree of ``grammar/tsushima-1905.lark`` to an :class:`OrderSet`.

Names are resolved here: a ship by its name, an alias or a unique prefix ("Suvorov",
"Seniavin"); a squadron by its name in the scenario; "Admiral" alone is ambiguous
(E402). Ships given orders in ``move`` and ``fire`` must be the sender's (E405).
Every problem is logged with its position; reading goes on.
"""

from __future__ import annotations

from dataclasses import replace

from lark import Token, Tree

from adjudicator.engine.errors import IllegalAnswer
from adjudicator.games.tsushima_1905.answers import ahead_of, ahead_units
from adjudicator.games.tsushima_1905.data import GameData, ShipInfo, Squadron, bl_to_units
from adjudicator.games.tsushima_1905.options import Options
from adjudicator.games.tsushima_1905.state import ACTIVE
from adjudicator.games.tsushima_1905.language.model import (
    ALL, ActivationOrder, CarryOn, Clause, CollisionPolicy, Concession, Condition, CounterPolicy, DicePolicy, FireOrder, FirePlans,
    MoveOption, MoveOrder, MovePlans, PrimePolicy, RelativeMove, RepairPolicy, TargetPriorities, TargetRule,
    TorpedoPolicy, BLOCK_ORDER, GAME,
)
from adjudicator.orders.keywords import in_english, side_names
from adjudicator.orders.names import Catalog
from adjudicator.orders.reading import TreeReader, rule as _rule, text_of as _text, where as _where
from adjudicator.orders.problems import ProblemLog

AHEADS_MOST = 9            # "ahead N": more than any ship's limits (an error of its own, E410)
MOST = 9999                # the largest number any entry needs (turns, CPs, dice, degrees)
SIDE_NAMES = Catalog.of("side", {"japan": ("Japanese", *side_names("japan")),
                                  "russia": ("Russian", *side_names("russia"))})


class Reader(TreeReader):
    """Reads one parse tree against the game's ships and squadrons. The header lines
    and the block loop are the generic :class:`TreeReader`'s (as Port Arthur's); each
    block rule of the grammar has its method here."""

    GAME = GAME
    BLOCK_ORDER = BLOCK_ORDER

    def __init__(self, data: GameData, log: ProblemLog, options: Options | None = None, state=None) -> None:
        turns = options.turns if options is not None else int(data.rules["end"]["turns"])
        super().__init__(log, SIDE_NAMES, turns)
        self.data = data
        self.options = options          # the campaign's options, when the orders are read for one
        self.state = state              # the campaign's position, when the orders are read for one
        self._catalog: Catalog | None = None
        self._noted: set[str] = set()

    # -- numbers --------------------------------------------------------------------

    def num(self, token, most: int = MOST) -> int:
        """A whole number written in the orders; one over ``most`` is an error (E301)
        at its place, and reading goes on with ``most`` (nothing is used of a file
        with an error)."""
        text = str(token).strip()
        if len(text) > len(str(most)) or int(text) > most:
            self.log.add("E301", f"{text[:12]}{'...' if len(text) > 12 else ''} is out of range: at most {most} "
                                     f"here", *_where(token))
            return most
        return int(text)

    # -- names ----------------------------------------------------------------------

    def ship(self, node: Tree, own: bool | None = None) -> str | None:
        """A ship's canonical name (``own``: True the sender's, False the enemy's)."""
        text = _text(node)
        wanted = text.casefold()
        ships = self.data.ships
        exact = [s for s in ships if wanted in (s.name.casefold(), s.short.casefold(), *(a.casefold() for a in s.aliases))]
        found = exact or [s for s in ships if s.name.casefold().startswith(wanted)]
        if len(found) != 1:
            if found:
                self.log.add("E402", f'"{text}" names more than one ship: write the full name',
                                 *_where(node), suggestions=[s.name for s in found])
            else:
                close = () if self.log.full else self.catalog().lookup(text).suggestions
                self.log.add("E401", f'there is no ship "{text}"', *_where(node), suggestions=close)
            return None
        ship = found[0]
        if not exact:                      # completed from a unique prefix: the receipt says so
            self.log.note(f"'{text}' read as {ship.name}", _where(node)[0])
        if own is not None and self.side is not None and (ship.side == self.side) != own:
            whose = "your" if own else "an enemy"
            self.log.add("E405", f'{ship.name} is not {whose} ship', *_where(node))
            return None
        return ship.name

    def catalog(self) -> Catalog:
        """Every ship's name, short name and aliases, for near misses ("Shikishma")."""
        if self._catalog is None:
            self._catalog = Catalog.of("ship", {s.name: (s.short, *s.aliases) for s in self.data.ships})
        return self._catalog

    def who(self, node: Tree) -> str | None:
        child = node.children[0]
        if _rule(child) == "all":
            return ALL
        squadron = self.squadron(_text(child))
        return squadron.name if squadron is not None else self.ship(child, own=True)

    def squadron(self, name: str) -> Squadron | None:
        """The sender's squadron called ``name`` (any case; None: none is)."""
        wanted = name.casefold()
        return next((squadron for squadron in self.data.squadrons
                     if squadron.name.casefold() == wanted and self.side in (None, squadron.side)), None)

    def distance(self, token: Token) -> int | None:
        """A distance written in base lengths, in the table's units; one beyond the
        table is an error (E301) at its place (None)."""
        written = str(token)
        if len(written.partition(".")[0]) > 2:
            self.log.add("E301", f"a distance of {written[:12]} BL is beyond the table (28 BL at most)",
                         *_where(token))
            return None
        return bl_to_units(written, self.data.units_per_bl)

    # -- the header (the shared reader's, a number too long for its place refused) ----

    def header_field(self, key: str, node: Tree) -> dict:
        if key == "turn":
            tokens = [c for c in node.children if isinstance(c, Token)]
            if tokens and len(str(tokens[0])) > len(str(MOST)):
                self.num(tokens[0])
                return {"turn": MOST}
        return super().header_field(key, node)

    # -- blocks ---------------------------------------------------------------------

    def _entries(self, node: Tree) -> list[Tree]:
        return [c for c in node.children if isinstance(c, Tree)]

    def order_block(self, node: Tree) -> ActivationOrder | None:
        names, others, seen = [], False, set()
        for entry in self._entries(node):
            for item in entry.children:
                if _rule(item) == "others":
                    others = True
                elif (name := self.ship(item, own=True)) is not None:
                    if name in seen:
                        self.log.add("E407", f"{name} is named twice in the order", *_where(item))
                        continue
                    seen.add(name)
                    names.append(name)
        return ActivationOrder(tuple(names), others or not names)

    def move_block(self, node: Tree) -> MovePlans:
        orders, seen = [], set()
        for entry in self._entries(node):
            who = self.who(entry.children[0])
            if who is not None and who in seen:
                self.log.add("E115", f'a second move entry for {who}; give one entry, with its options joined by '
                                     f'", else"', *_where(entry))
                continue
            seen.add(who)
            options = []
            for child in entry.children[1:]:
                option = self.move_option(child, who)
                if option is not None:
                    options.append(option)
            if who is not None and options:
                orders.append(MoveOrder(who, tuple(options)))
        return MovePlans(tuple(orders))

    def move_option(self, node: Tree, who: str | None = None) -> MoveOption | None:
        elements, relative, condition, auto = [], None, None, False
        for child in node.children:
            kind = _rule(child)
            if kind == "auto":
                auto = True
                self.note_once("move auto", "'auto' moves the ship as silence would: the planner's best move, "
                                            "worked out at its activation", child)
            elif kind == "explicit":
                elements += [(self.element(e), e) for e in child.children]
            elif kind in ("ahead", "ahead_length", "ahead_max", "turn_code", "starboard", "port"):
                elements.append((self.element(child), child))
            elif kind in ("if_condition", "unless_condition"):
                condition = self.condition(child)
            else:
                relative = self.relative(child)
        if auto:
            return MoveOption(condition=condition, auto=True)
        if any(e is None for e, _ in elements) or (relative is None and not elements):
            return None
        expanded: list[tuple[str, Tree]] = []
        for element, where in elements:
            expanded += [(code, where) for code in (element if isinstance(element, list) else [element])]
        if who is not None and not self.within_limits(who, expanded, relative is not None):
            return None
        return MoveOption(tuple(code for code, _ in expanded), relative, condition)

    def ships_of(self, who: str) -> list[ShipInfo]:
        """The sender's ships a ``move`` entry is about: a ship, a squadron's, or all."""
        own = [s for s in self.data.ships if self.side in (None, s.side)]
        if who == ALL:
            return own
        squadron = self.squadron(who)
        names = squadron.ships if squadron is not None else (who,)
        return [s for s in own if s.name in names]

    def within_limits(self, who: str, elements: list[tuple[str, Tree]], relative: bool) -> bool:
        """An explicit move within the limits of every ship it is for ("Battleships can
        turn once per move, cruisers twice"; at most the movement points, and a
        Japanese ship's free move first, R-MOVE-2, R-MOVE-5; at most the CPs the ship
        has left), else E410 at the first element beyond them: a move is never
        rewritten to fit. After a relative move (which takes what it needs within
        the limits), only the turns written are checked. A ship out of action in the
        campaign's position (at 0 CP it has surrendered, is abandoned or sunk, R-FATE)
        makes no move: ``all`` or its squadron's entry is not for it, and an entry
        naming it is not used (the receipt's note says so)."""
        problem = None
        for info in self.ships_of(who):
            if self.out_of_action(info.name):
                continue
            cls = self.data.classes[info.ship_class]
            free = int(self.data.rules["movement"]["japanese_free_move"]) if info.side == "japan" else 0
            turns = [where for code, where in elements if code[0] in "SP"]
            if len(turns) > cls.turns_per_activation:
                word = {1: "once", 2: "twice"}.get(cls.turns_per_activation, f"{cls.turns_per_activation} times")
                problem = (turns[cls.turns_per_activation],
                           f"{info.name} ({cls.name.replace('_', ' ')}) may turn {word} per activation "
                           f"(the free move included), not {len(turns)} times")
                break
            counted = [where for code, where in elements if code != "MAX"]
            most = cls.max_movement + free
            if not relative and len(counted) > most:
                extra = " and its free move" if free else ""
                problem = (counted[most], f"{info.name} ({cls.name.replace('_', ' ')}) makes at most {most} move "
                                          f"elements per turn: {cls.max_movement} movement points{extra}, "
                                          f"not {len(counted)}")
                break
            left = self.cp_left(info.name)
            if not relative and left is not None and len(counted) - free > left:
                problem = (counted[left + free], f"{info.name} has {left} CP left: the move needs "
                                                 f"{len(counted) - free}")
                break
        if problem is None:
            return True
        where, message = problem
        self.log.add("E410", f"{message}; write a move within its limits (nothing is cut to fit)", *_where(where))
        return False

    def out_of_action(self, name: str) -> bool:
        """The ship is out of action in the campaign's position the orders are read for."""
        ship = self.state.ships.get(name) if self.state is not None else None
        return ship is not None and ship.status != ACTIVE

    def cp_left(self, name: str) -> int | None:
        """The CPs a ship has left, when the orders are read for a campaign's position."""
        ship = self.state.ships.get(name) if self.state is not None else None
        return None if ship is None else ship.cp

    def element(self, node: Tree) -> str | list[str] | None:
        kind = _rule(node)
        if kind == "ahead":
            count = self.num(node.children[0], AHEADS_MOST) if node.children else 1
            return ["A"] * count
        if kind == "ahead_max":
            return "MAX"
        if kind == "ahead_length":
            return self.partial_ahead(node)
        code = str(node.children[0]).upper() if kind == "turn_code" else \
            f"{'S' if kind == 'starboard' else 'P'}{self.num(node.children[0])}"
        if not 1 <= int(code[1:]) <= 90:
            self.log.add("E301", f"a turn is 1 to 90 degrees, not {code[1:]}", *_where(node))
            return None
        return code

    def partial_ahead(self, node: Tree) -> str | None:
        """``ahead 0.6`` / ``ahead 0.6 BL``: a partial ahead (option partial_ahead, R-MOVE-1)."""
        written = str(node.children[0])
        number = written.lower().removesuffix("bl").strip()
        try:
            element = ahead_of(ahead_units(number), f"ahead {written}")
        except IllegalAnswer as err:
            self.log.add("E301", str(err), *_where(node))
            return None
        if element.is_partial and self.options is not None and not self.options.partial_ahead:
            self.log.add("E408", f'"ahead {written}": aheads are whole base lengths in this campaign (R-MOVE-1); '
                                     f'write "ahead" (the option partial_ahead allows shorter aheads)', *_where(node))
            return None
        return element.code

    def relative(self, node: Tree) -> RelativeMove | None:
        kind = _rule(node)
        if kind == "steer":
            heading = self.num(node.children[0])
            if not 0 <= heading < 360:
                self.log.add("E301", f"a heading is 0 to 359 degrees, not {heading}", *_where(node))
                return None
            return RelativeMove("steer", heading=heading)
        ship = self.ship(node.children[0])
        if ship is None:
            return None
        if kind == "station":
            distance = self.distance(node.children[2])
            if distance is None:
                return None
            return RelativeMove("station", ship, bearing=self.num(node.children[1]) % 360, distance=distance)
        return RelativeMove(kind, ship)

    def condition(self, node: Tree) -> Condition:
        clauses = []
        for clause in node.children:
            kind = _rule(clause)
            parts = list(clause.children)
            if kind in ("cp_is", "fires_is", "floods_is"):
                ship = self.ship(parts.pop(0)) if isinstance(parts[0], Tree) else ""
                clauses.append(Clause(kind[:-3], ship or "", str(parts[0]).replace("==", "="), self.num(parts[1])))
            elif kind in ("attacks_is", "turn_is", "cards_is", "enemy_cards_is"):
                clauses.append(Clause(kind[:-3].replace("_", "-"), "", str(parts[0]).replace("==", "="),
                                      self.num(parts[1])))
            elif kind == "within":
                ship = self.ship(parts[0]) or ""
                distance = self.distance(parts[1])
                clauses.append(Clause("within", ship, "<=",
                                      distance if distance is not None else bl_to_units("99", self.data.units_per_bl)))
            else:
                clauses.append(Clause(kind.replace("_", "-")))
        return Condition(tuple(clauses), _rule(node) == "unless_condition")

    def fire_block(self, node: Tree) -> FirePlans:
        orders: dict[str, FireOrder] = {}
        current = None
        for entry in self._entries(node):
            parts = list(entry.children)
            if _rule(parts[0]) == "who":
                current = self.who(parts.pop(0))
                if current is not None:
                    orders.setdefault(current, FireOrder(current))
            if current is None:
                if not entry.children or _rule(entry.children[0]) != "who":
                    self.log.add("E116", "a fire entry needs a ship, a squadron or \"all\" before it",
                                     *_where(entry))
                continue
            orders[current] = self.fire_part(orders[current], parts[0])
        return FirePlans(tuple(orders.values()))

    def fire_part(self, order: FireOrder, part: Tree) -> FireOrder:
        """One part of a fire entry. ``auto`` and ``at`` chains are two ways of saying
        where the ship fires: the one written last stands."""
        kind = _rule(part)
        if kind == "auto":
            self.note_once("fire auto", "'auto' fires as silence would: the planner's salvo after the move made",
                           part)
            return replace(order, auto=True, targets=(), salvos=())
        if kind == "at_chain":
            targets = tuple(t for t in (self.target(c) for c in part.children) if t is not None)
            if not order.targets:
                return replace(order, targets=targets, auto=False)
            if self.options is not None and not self.options.split_fire:
                self.log.add("E409", f'a second "at" for {order.who}: one target per activation in this campaign '
                                         f'(R-FIRE-2); give one "at" chain with "else" (the option split_fire allows '
                                         f'one target per arc)', *_where(part))
                return order
            if len(order.chains) >= 4:
                self.log.add("E409", f'more than four "at" for {order.who}: one target per arc, and a ship has '
                                         f'four arcs (bow, starboard, stern, port)', *_where(part))
                return order
            return replace(order, salvos=order.salvos + (targets,))
        if kind == "dice_rule":
            value = part.children[0]
            return replace(order, dice=str(self.num(value)) if isinstance(value, Token) else _rule(value))
        if kind == "keep":
            return replace(order, keep=self.num(part.children[0]))
        condition = self.condition(part.children[0]) if part.children else None
        return replace(order, hold=condition, hold_always=condition is None)

    def target(self, node: Tree) -> TargetRule | None:
        head, broadside, arc, condition = node.children[0], False, "", None
        for extra in node.children[1:]:
            if _rule(extra) == "broadside_only":
                broadside = True
            elif _rule(extra).startswith("in_"):
                arc = _rule(extra)[3:]
            else:
                condition = self.condition(extra)
        kind = _rule(head)
        if kind == "name":
            ship = self.ship(head, own=False)
            return None if ship is None else TargetRule("ship", ship, "", broadside, condition, arc)
        if kind == "nearest":
            klass = in_english(GAME, str(head.children[0].children[0])) if head.children else ""
            return TargetRule("nearest", "", klass, broadside, condition, arc)
        return TargetRule("flagship" if kind == "flagship" else "most-damaged", "", "", broadside, condition, arc)

    def _per_ship(self, node: Tree, read_entry, make):
        """The lines of a standing-order block, each optionally headed by a ship, a
        squadron or ``all`` and a colon: (the block's general parts, {who: parts}).
        Parts without a name add to the name above them, as in ``fire``."""
        general: list = []
        chosen: dict[str, list] = {}
        current = general
        for line in self._entries(node):
            parts = list(line.children)
            if parts and isinstance(parts[0], Tree) and _rule(parts[0]) == "who":
                who = self.who(parts.pop(0))
                current = chosen.setdefault(who, []) if who is not None else []
            current += [read_entry(part) for part in parts]
        return make(general), tuple((who, make(parts)) for who, parts in chosen.items())

    def _dice_policy(self, node: Tree, cls: type) -> DicePolicy:
        def read_entry(entry: Tree) -> tuple[str, object]:
            kind = _rule(entry)
            if kind == "armour_against":
                count, attack = entry.children
                value = count.children[0]
                if isinstance(value, Token):
                    real = self.num(value)
                else:
                    real = 0 if _rule(value) == "none" else self.num(attack)
                return "against", (self.num(attack), real)
            if kind == "keep":
                return "keep", self.num(entry.children[0])
            if kind == "counter_dice":
                return "rule", str(self.num(entry.children[0]))
            return "rule", kind

        def make(parts) -> DicePolicy:
            by_attack = tuple(sorted(v for k, v in parts if k == "against"))
            rules = [v for k, v in parts if k == "rule"]
            keeps = [v for k, v in parts if k == "keep"]
            return cls(by_attack, rules[-1] if rules else "auto", keeps[-1] if keeps else 0)

        general, per_ship = self._per_ship(node, read_entry, make)
        return replace(general, per_ship=per_ship)

    def armour_block(self, node: Tree) -> DicePolicy:
        return self._dice_policy(node, DicePolicy)

    def counter_block(self, node: Tree) -> CounterPolicy:
        return self._dice_policy(node, CounterPolicy)

    def _first_entry(self, node: Tree, wanted: str) -> Tree | None:
        """A standing order's one entry; an empty heading is an error naming what it needs."""
        entries = self._entries(node)
        if not entries:
            heading = str(node.children[0]) if node.children and isinstance(node.children[0], Token) else "it"
            self.log.add("E103", f'"{heading}:" needs {wanted} after it', *_where(node))
            return None
        return entries[0]

    def torpedo_block(self, node: Tree) -> TorpedoPolicy | None:
        entry = self._first_entry(node, "yes, no or auto (e.g. torpedo: yes if attacks >= 2)")
        if entry is None:
            return None
        kind = _rule(entry)
        if kind == "torpedo_yes":
            return TorpedoPolicy("yes", self.condition(entry.children[0]) if entry.children else None)
        return TorpedoPolicy("no" if kind == "torpedo_no" else "auto")

    def targets_block(self, node: Tree) -> TargetPriorities:
        priorities = []
        for entry in self._entries(node):
            for item in entry.children:
                kind = _rule(item)
                if kind == "name":
                    name = self.ship(item, own=False)
                    if name:
                        priorities.append(name)
                else:
                    priorities.append(kind.replace("_", " "))
        return TargetPriorities(tuple(priorities))

    def repairs_block(self, node: Tree) -> RepairPolicy:
        def read_entry(entry: Tree) -> tuple[str, object]:
            kind = _rule(entry)
            if kind == "repairs_dice":
                return "dice", str(self.num(entry.children[0]))
            if kind == "fire_first":
                return "first", "fire"
            if kind == "flooding_first":
                return "first", "flood"
            if kind == "keep":
                return "keep", self.num(entry.children[0])
            return "dice", "all"

        def make(parts) -> RepairPolicy:
            values = dict(parts)
            return RepairPolicy(values.get("dice", "all"), values.get("first", "flood"), values.get("keep", 0))

        general, per_ship = self._per_ship(node, read_entry, make)
        return replace(general, per_ship=per_ship)

    def prime_block(self, node: Tree) -> PrimePolicy | None:
        entry = self._first_entry(node, "all or stop after N")
        if entry is None:
            return None
        return PrimePolicy(self.num(entry.children[0]) if _rule(entry) == "prime_stop" else None)

    def collision_block(self, node: Tree) -> CollisionPolicy | None:
        entry = self._first_entry(node, "avoid or allow")
        return None if entry is None else CollisionPolicy(_rule(entry) == "allow")

    def carry_block(self, node: Tree) -> CarryOn:
        self.note_once("carry on", "'carry on: yes': the orders in force (those on file, with any block sent "
                                   "here) carry play on from the stop these orders are sent for, as at the "
                                   "deadline; the next stop waits for orders again", node)
        return CarryOn()

    def note_once(self, what: str, message: str, node: Tree) -> None:
        """A note on the receipt of how a word is read, at its first use in the file."""
        if what not in self._noted:
            self._noted.add(what)
            self.log.note(message, _where(node)[0])

    def concede_block(self, node: Tree) -> Concession | None:
        entry = self._first_entry(node, "yes or no (concede: yes ends the game, the other side the winner)")
        if entry is None:
            return None
        if _rule(entry) == "concede_yes":
            self.note_once("concede", "'concede: yes': your side concedes at the next question it is asked "
                                      "(R-END-2): the game ends there, the other side the winner; send "
                                      "'concede: no' before then to withdraw it", node)
        return Concession(_rule(entry) == "concede_yes")
