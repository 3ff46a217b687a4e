"""From a parse tree of ``grammar/port-arthur.lark`` to an :class:`OrderSet`.

Names are resolved here (ships, zones, ports, sides; see
:mod:`adjudicator.orders.names`) and every order is checked as far as it can be
without the state of the game: that named ships exist and belong to the right side,
that places are of the right kind, that a block is given once and does not
contradict itself. Each problem is logged with its position; reading goes on.
"""

from __future__ import annotations

from lark import Token, Tree

from adjudicator.games.port_arthur.data import JAPAN, RUSSIA
from adjudicator.i18n import N_, said
from adjudicator.orders.model import OrderSet
from adjudicator.orders.names import Lookup, lookup_in
from adjudicator.orders.reading import TreeReader, or_list, text_of, where
from adjudicator.games.port_arthur.language.model import (
    ASK,
    AUTO_PREFERENCE,
    BLOCK_ORDER,
    FLIP_INTACT_FIRST,
    GAME,
    KEEP,
    SINK_DAMAGED_FIRST,
    AttackOrders,
    Ask,
    Battle,
    BlockadePolicy,
    Clause,
    Condition,
    CriticalsPolicy,
    DicePolicy,
    HitsPolicy,
    MinesPolicy,
    TopPolicy,
    Move,
    OperationsPlan,
    Pass,
    PlanStep,
    RerollPolicy,
    ReturnOrders,
    SeizePolicy,
    SortieOrders,
)
from adjudicator.games.port_arthur.language.world import World
from adjudicator.orders.problems import ProblemLog

SHIPYARD = "shipyard"
ADJECTIVE = {JAPAN: N_("Japanese"), RUSSIA: N_("Russian")}
#: The problem of a name not found, by what was wanted.
UNKNOWN = {"ship": N_('unknown ship "%(text)s"'), "zone": N_('unknown zone "%(text)s"'),
           "port": N_('unknown port "%(text)s"'), "zone or port": N_('unknown zone or port "%(text)s"')}
#: What only one side orders (:meth:`PortArthurReader.only_for`).
ONE_SIDES_ORDERS = (N_("landing troops"), N_("the blockade of Port Arthur"), N_("the attack on Port Arthur"),
                    N_("choosing return ports"))
_CMP = {"==": "="}


class Reader(TreeReader):
    """Reads one parse tree of Port Arthur's orders; problems go to ``log``. The header
    and the block loop are the generic :class:`TreeReader`'s; each block rule of
    ``grammar/port-arthur.lark`` has its method below."""

    GAME = GAME
    BLOCK_ORDER = BLOCK_ORDER

    def __init__(self, world: World, log: ProblemLog) -> None:
        super().__init__(log, world.sides, world.turns)
        self.world = world

    # -- names ---------------------------------------------------------------------

    def _unknown(self, what: str, name: Tree, look: Lookup, code: str) -> None:
        text = text_of(name)
        if look.ambiguous:
            self.log.add("E202", said('"%(text)s" could be %(names)s; write more of the name', text=text, names=or_list(look.ambiguous)),
                         *where(name))
        else:
            self.log.add(code, said(UNKNOWN[what], text=text), *where(name), suggestions=look.suggestions)

    def ship(self, name: Tree, own: bool | None = True) -> str | None:
        """The ship ``name`` means; ``own``: it must be the player's (False: the enemy's)."""
        found, _, look = lookup_in(text_of(name), [self.world.ships])
        self.log.note(look.reading(text_of(name)), where(name)[0])
        if found is None:
            self._unknown("ship", name, look, "E201")
            return None
        side = self.world.ship_side.get(found)
        if self.side is not None and own is not None and side is not None and (side == self.side) != own:
            self.log.add("E205", said('"%(ship)s" is your own ship; only enemy ships can be named here', ship=found)
                         if side == self.side else
                         said('"%(ship)s" is a %(nation)s ship; only your own ships can be named here', ship=found,
                              nation=said(ADJECTIVE.get(side, side))), *where(name))
        return found

    def ships(self, names: Tree, own: bool | None = True) -> tuple[str, ...]:
        found = [self.ship(n, own) for n in names.children]
        return tuple(s for s in found if s is not None)

    def zone(self, name: Tree) -> str | None:
        found, catalog, look = lookup_in(text_of(name), [self.world.zones, self.world.ports])
        self.log.note(look.reading(text_of(name)), where(name)[0])
        if found is not None and catalog is self.world.ports:
            self.log.add("E206", said('"%(name)s" is a port; a zone is needed here', name=found), *where(name))
            return None
        if found is None:
            self._unknown("zone", name, look, "E203")
        return found

    def port(self, name: Tree) -> str | None:
        found, catalog, look = lookup_in(text_of(name), [self.world.ports, self.world.zones])
        self.log.note(look.reading(text_of(name)), where(name)[0])
        if found is not None and catalog is self.world.zones:
            self.log.add("E206", said('"%(name)s" is a zone; a port is needed here', name=found), *where(name))
            return None
        if found is None:
            self._unknown("port", name, look, "E204")
        return found

    def place(self, name: Tree) -> tuple[str | None, bool]:
        """A zone or a port; returns the name and whether it is a port."""
        found, catalog, look = lookup_in(text_of(name), [self.world.zones, self.world.ports])
        self.log.note(look.reading(text_of(name)), where(name)[0])
        if found is None:
            self._unknown("zone or port", name, look, "E203")
        return found, catalog is self.world.ports

    def only_for(self, side: str, what: str, node: Tree) -> None:
        if self.side is not None and self.side != side:
            self.log.add("E208", said("%(what)s is for %(side)s only", what=said(what), side=said(side.capitalize())), *where(node))

    def conflict(self, message: str, node: Tree | Token) -> None:
        self.log.add("E115", message, *where(node))

    def entries(self, block: Tree) -> list[Tree | Token]:
        """A block's entries (its heading token left out)."""
        return [c for c in block.children[1:]]

    # -- sortie ----------------------------------------------------------------------

    def sortie_block(self, block: Tree) -> SortieOrders:
        moves: dict[str, str] = {}
        everyone: str | None = None
        land: list[str] = []
        none_at: Tree | None = None
        for entry in self.entries(block):
            if entry.data == "nothing":
                none_at = entry
            elif entry.data == "landing":
                self.only_for(JAPAN, "landing troops", block)
                if land:
                    self.conflict(said('a second "land" entry; name every landing space in one'), entry)
                for name in entry.children[0].children if entry.children[0].data == "names" else ():
                    space = self.zone(name)
                    if space is not None and space not in self.world.landing_spaces:
                        self.log.add("E206", said('"%(zone)s" has no landing space; troops land in %(spaces)s', zone=space,
                                          spaces=or_list(self.world.landing_spaces)), *where(name))
                    elif space is not None and space not in land:
                        land.append(space)
            else:
                who, dest = entry.children
                target = SHIPYARD if dest.data == "shipyard" else self.zone(dest)
                if who.data == "all":
                    if everyone is not None:
                        self.conflict(said('a second "all to" entry'), entry)
                    everyone = target
                    continue
                for name in who.children:
                    ship = self.ship(name)
                    if ship is None or target is None:
                        continue
                    if ship in moves:
                        self.log.add("E207", said('"%(ship)s" is given two sortie orders', ship=ship), *where(name))
                    moves[ship] = target
        if none_at is not None and (moves or everyone or land):
            self.conflict(said('"none" together with other sortie orders'), none_at)
        return SortieOrders(tuple(moves.items()), everyone, tuple(land))

    # -- operations ------------------------------------------------------------------

    def operations_block(self, block: Tree) -> OperationsPlan:
        steps = []
        for line in self.entries(block):
            for step in line.children:
                if isinstance(step, Tree):
                    read = self.plan_step(step)
                    if read is not None:
                        steps.append(read)
        return OperationsPlan(tuple(steps))

    def plan_step(self, step: Tree) -> PlanStep | None:
        action_node = step.children[0]
        condition = self.condition(step.children[1]) if len(step.children) > 1 else None
        action = getattr(self, action_node.data)(action_node)
        return None if action is None else PlanStep(action, condition)

    def battle(self, node: Tree) -> Battle | None:
        target = node.children[0]
        if target.data == "anywhere":
            return Battle(None)
        zone = self.zone(target)
        return None if zone is None else Battle(zone)

    def move_ships(self, node: Tree) -> Move | None:
        names, origin, destination = node.children
        ships = self.ships(names)
        start, is_port = self.place(origin)
        end, _ = self.place(destination)
        if start is not None and not is_port:
            self.log.add("E206", said('"%(zone)s" is a zone: a squadron at sea moves whole; name ships only '
                              "when they leave a port", zone=start), *where(origin))
            return None
        if start is None or end is None or len(ships) != len(names.children):
            return None
        return Move(start, end, ships)

    def move_squadron(self, node: Tree) -> Move | None:
        origin, destination = node.children
        start, _ = self.place(origin)
        end, _ = self.place(destination)
        return None if start is None or end is None else Move(start, end)

    def pass_(self, node: Tree) -> Pass:
        return Pass()

    def ask(self, node: Tree) -> Ask:
        return Ask()

    def condition(self, node: Tree) -> Condition | None:
        clauses = [self.clause(c) for c in node.children]
        if any(c is None for c in clauses):
            return None
        return Condition(tuple(clauses), negated=node.data == "unless_condition")

    def clause(self, node: Tree) -> Clause | None:
        if node.data in ("turn_is", "score_is"):
            op, value = node.children
            return Clause(node.data[:-3], op=_CMP.get(str(op), str(op)), value=int(value))
        test = node.data.replace("_", " ")
        if not node.children or node.children[0].data == "there":
            return Clause(test)
        zone = self.zone(node.children[0])
        return None if zone is None else Clause(test, zone)

    # -- yes/no policies ---------------------------------------------------------------

    def _flag(self, block: Tree, cls: type, keep_allowed: bool = False):
        entries = self.entries(block)
        if len(entries) > 1:
            self.conflict(said('"%(heading)s" is given %(count)s answers; give one', heading=str(block.children[0]),
                               count=len(entries)), entries[1])
        flag = entries[0]
        choice = flag.children[0].data
        if choice == KEEP and not keep_allowed:
            self.log.add("E116", said('"keep" is for the blockade only'), *where(block))
            choice = ASK
        condition = self.condition(flag.children[1]) if len(flag.children) > 1 else None
        return cls(choice, condition)

    def reroll_block(self, block: Tree) -> RerollPolicy:
        return self._flag(block, RerollPolicy)

    def seize_block(self, block: Tree) -> SeizePolicy:
        return self._flag(block, SeizePolicy)

    def blockade_block(self, block: Tree) -> BlockadePolicy:
        self.only_for(JAPAN, "the blockade of Port Arthur", block)
        return self._flag(block, BlockadePolicy, keep_allowed=True)

    # -- dice --------------------------------------------------------------------------

    def dice_block(self, block: Tree) -> DicePolicy:
        entries = self.entries(block)
        if len(entries) > 1:
            self.conflict(said('"%(heading)s" is given %(count)s answers; give one', heading="dice", count=len(entries)), entries[1])
        entry = entries[0]
        if isinstance(entry, Token):
            count = int(entry)
            if not 1 <= count <= 6:
                self.log.add("E301", said("%(count)s dice: fire one to six dice", count=count), *where(entry))
            return DicePolicy(count=count)
        return DicePolicy(ask=entry.data == "ask")

    # -- ships named in order ------------------------------------------------------------

    def _targets(self, block: Tree, cls: type, own: bool):
        priority: list[str] = []
        ask = False
        for entry in self.entries(block):
            if entry.data == "ask":
                ask = True
            elif entry.data == "names":
                priority.extend(self.ships(entry, own))
        if ask and priority:
            self.conflict(said('"ask" together with ships named in "%(heading)s"', heading=str(block.children[0])), block)
        return cls(tuple(priority), ask)

    def criticals_block(self, block: Tree) -> CriticalsPolicy:
        return self._targets(block, CriticalsPolicy, own=False)

    def mines_block(self, block: Tree) -> MinesPolicy:
        return self._targets(block, MinesPolicy, own=True)

    def top_block(self, block: Tree) -> TopPolicy:
        return self._targets(block, TopPolicy, own=True)

    def attack_block(self, block: Tree) -> AttackOrders:
        self.only_for(JAPAN, "the attack on Port Arthur", block)
        return self._targets(block, AttackOrders, own=False)

    # -- hits --------------------------------------------------------------------------

    def hits_block(self, block: Tree) -> HitsPolicy:
        protect: list[str] = []
        prefer = AUTO_PREFERENCE
        ask = False
        for entry in self.entries(block):
            if entry.data == "ask":
                ask = True
            elif entry.data == "protect":
                protect.extend(s for s in self.ships(entry.children[0]) if s not in protect)
            elif entry.data in ("sink_damaged_first", "flip_intact_first"):
                wanted = SINK_DAMAGED_FIRST if entry.data == "sink_damaged_first" else FLIP_INTACT_FIRST
                if prefer not in (AUTO_PREFERENCE, wanted):
                    self.conflict(said('"%(wanted)s" contradicts "%(prefer)s"', wanted=wanted, prefer=prefer), block)
                prefer = wanted
        if ask and (protect or prefer != AUTO_PREFERENCE):
            self.conflict(said('"ask" together with other hits orders'), block)
        return HitsPolicy(tuple(protect), prefer, ask)

    # -- return to port ------------------------------------------------------------------

    def return_block(self, block: Tree) -> ReturnOrders:
        self.only_for(RUSSIA, "choosing return ports", block)
        ports: dict[str, str] = {}
        others: str | None = None
        ask = False
        for entry in self.entries(block):
            if entry.data == "ask":
                ask = True
            elif entry.data == "others_to":
                if others is not None:
                    self.conflict(said('a second "others to" entry'), entry)
                others = self.port(entry.children[0])
            elif entry.data == "return_to":
                names, port_name = entry.children
                port = self.port(port_name)
                for name in names.children:
                    ship = self.ship(name)
                    if ship is None or port is None:
                        continue
                    if ship in ports:
                        self.log.add("E207", said('"%(ship)s" is given two return ports', ship=ship), *where(name))
                    ports[ship] = port
        if ask and (ports or others):
            self.conflict(said('"ask" together with return ports'), block)
        return ReturnOrders(tuple(ports.items()), others, ask)


# Lark names the "pass" rule "pass"; Python cannot name a method so.
setattr(Reader, "pass", Reader.pass_)


def read_tree(tree: Tree, world: World, log: ProblemLog) -> OrderSet:
    """The orders in ``tree`` (problems, if any, are in ``log``)."""
    return Reader(world, log).read(tree)

