"""From a parse tree of ``grammar/port-arthur.lark`` to an :class:`OrderSet`.

Names are resolved here (ships, zones, ports, sides; see
:mod:`adjudicator.orders.names`) and every order is checked as far as it can be
without the state of the game: that named ships exist and belong to the right side,
that places are of the right kind, that a block is given once and does not
contradict itself. Each problem is logged with its position; reading goes on.
"""

from __future__ import annotations

import bisect

from lark import Token, Tree

from adjudicator.games.port_arthur.board import JAPAN, RUSSIA
from adjudicator.orders.model import Credentials, Header, OrderSet, order_blocks
from adjudicator.orders.names import Lookup, lookup_in
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
_HEADER_FIELDS = {
    "campaign_field": "campaign",
    "side_field": "side",
    "turn_field": "turn",
    "step_field": "step",
    "game_field": "game",
    "password_field": "password",
    "signature_field": "signature",
    "entropy_field": "entropy",
    "reveal_field": "reveal",
}
ADJECTIVE = {JAPAN: "Japanese", RUSSIA: "Russian"}
REQUIRED_HEADER = ("campaign", "side", "turn")
_CMP = {"==": "="}


def _or_list(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _rule(node: Tree) -> str:
    """A rule's name without the grammar it was imported from ("common__side_field")."""
    return node.data.rpartition("__")[2]


def _first_token(node: Tree | Token) -> Token | None:
    if isinstance(node, Token):
        return node
    for child in node.children:
        found = _first_token(child)
        if found is not None:
            return found
    return None


def _where(node: Tree | Token | None) -> tuple[int, int]:
    """Line and column where ``node`` starts (a subtree of keywords only has no token
    of its own: its position is the one the parser recorded)."""
    if isinstance(node, Tree) and not node.meta.empty:
        return node.meta.line, node.meta.column
    token = _first_token(node) if node is not None else None
    if token is None or token.line is None:
        return 0, 0
    return token.line, token.column


def _any_between(lines: list[int], start: int, end: int | None) -> bool:
    """Whether the sorted ``lines`` hold one after ``start`` and before ``end`` (None: no end)."""
    i = bisect.bisect_right(lines, start)
    return i < len(lines) and (end is None or lines[i] < end)


def _text(name: Tree) -> str:
    """The words of a ``name`` node, quotes removed, spaces made single."""
    return " ".join(str(name.children[0]).strip('"').split())


class Reader:
    """Reads one parse tree; problems go to ``log``."""

    def __init__(self, world: World, log: ProblemLog) -> None:
        self.world = world
        self.log = log
        self.side: str | None = None

    # -- the whole file ------------------------------------------------------------

    def read(self, tree: Tree) -> OrderSet:
        fields = [c for c in tree.children if _rule(c) in _HEADER_FIELDS]
        blocks = [c for c in tree.children if _rule(c) not in _HEADER_FIELDS]
        header, credentials = self.header(fields, has_blocks=bool(blocks), tree=tree)
        dropped = sorted(p.line for p in self.log.problems)  # lines the parser left out
        read_blocks = {}
        for node, next_line in zip(blocks, [_where(b)[0] for b in blocks[1:]] + [None]):
            if len(node.children) < 2:
                if not _any_between(dropped, _where(node)[0], next_line):
                    self.log.add("E103", f'the "{node.children[0]}" heading has no entries', *_where(node))
                continue
            block = getattr(self, node.data)(node)
            if block is None:
                continue
            if block.kind in read_blocks:
                self.log.add("E110", f'a second "{node.children[0]}" block; give each block once',
                             *_where(node))
                continue
            read_blocks[block.kind] = block
        return OrderSet(header, order_blocks(read_blocks.values(), BLOCK_ORDER), credentials)

    def header(self, fields: list[Tree], has_blocks: bool, tree: Tree) -> tuple[Header, Credentials]:
        """The header lines; a missing one is reported where the orders begin."""
        values: dict[str, object] = {}
        start = _where(tree.children[0]) if tree.children else (1, 1)
        for node in fields:
            key = _HEADER_FIELDS[_rule(node)]
            if key in values:
                self.log.add("E111", f'a second "{key}" line', *_where(node))
                continue
            values.update(self.header_field(key, node))
        if not fields and not has_blocks:
            self.log.add("E106", "no orders found: the file has no header lines and no blocks", *start)
        else:
            for key in REQUIRED_HEADER:
                if key not in values:
                    example = {"campaign": "campaign: NAME", "side": "side: Japan", "turn": "turn: 1"}[key]
                    self.log.add("E112", f'no "{key}" line; add one, e.g. "{example}"', *start)
        self.side = values.get("side")  # type: ignore[assignment]
        header = Header(
            campaign=values.get("campaign"),
            side=values.get("side"),
            turn=values.get("turn"),
            step=values.get("step"),
            game=values.get("game"),
            entropy=values.get("entropy"),
            reveal=values.get("reveal"),
        )
        return header, Credentials(values.get("password"), values.get("signature"))

    def header_field(self, key: str, node: Tree) -> dict[str, object]:
        tokens = [c for c in node.children if isinstance(c, Token)]
        value = str(tokens[0])
        if key == "side":
            side, _, look = lookup_in(value, [self.world.sides])
            if side is None:
                self.log.add("E113", f'unknown side "{value}"', *_where(tokens[0]),
                             suggestions=look.suggestions or (JAPAN, RUSSIA))
                return {"side": None}
            return {"side": side}
        if key == "turn":
            turn = int(value)
            if not 1 <= turn <= self.world.turns:
                self.log.add("E301", f"turn {turn} is not a turn of the game (1-{self.world.turns})",
                             *_where(tokens[0]))
            result: dict[str, object] = {"turn": turn}
            if len(tokens) > 1:
                result["step"] = str(tokens[1])
            return result
        if key == "game" and value.casefold() != GAME:
            self.log.add("E113", f'these are orders for "{GAME}", not "{value}"', *_where(tokens[0]))
            return {"game": value}
        if key == "game":
            return {"game": GAME}
        return {key: value}

    # -- names ---------------------------------------------------------------------

    def _unknown(self, what: str, name: Tree, look: Lookup, code: str) -> None:
        text = _text(name)
        if look.ambiguous:
            self.log.add("E202", f'"{text}" could be {_or_list(look.ambiguous)}; write more of the name',
                         *_where(name))
        else:
            self.log.add(code, f'unknown {what} "{text}"', *_where(name), suggestions=look.suggestions)

    def ship(self, name: Tree, own: bool | None = True) -> str | None:
        """The ship ``name`` means; ``own``: it must be the player's (False: the enemy's)."""
        found, _, look = lookup_in(_text(name), [self.world.ships])
        if found is None:
            self._unknown("ship", name, look, "E201")
            return None
        side = self.world.ship_side.get(found)
        if self.side is not None and own is not None and side is not None and (side == self.side) != own:
            whose = "your own ship" if side == self.side else f"a {ADJECTIVE.get(side, side)} ship"
            wanted = "your own ships" if own else "enemy ships"
            self.log.add("E205", f'"{found}" is {whose}; only {wanted} can be named here', *_where(name))
        return found

    def ships(self, names: Tree, own: bool | None = True) -> tuple[str, ...]:
        found = [self.ship(n, own) for n in names.children]
        return tuple(s for s in found if s is not None)

    def zone(self, name: Tree) -> str | None:
        found, catalog, look = lookup_in(_text(name), [self.world.zones, self.world.ports])
        if found is not None and catalog is self.world.ports:
            self.log.add("E206", f'"{found}" is a port; a zone is needed here', *_where(name))
            return None
        if found is None:
            self._unknown("zone", name, look, "E203")
        return found

    def port(self, name: Tree) -> str | None:
        found, catalog, look = lookup_in(_text(name), [self.world.ports, self.world.zones])
        if found is not None and catalog is self.world.zones:
            self.log.add("E206", f'"{found}" is a zone; a port is needed here', *_where(name))
            return None
        if found is None:
            self._unknown("port", name, look, "E204")
        return found

    def place(self, name: Tree) -> tuple[str | None, bool]:
        """A zone or a port; returns the name and whether it is a port."""
        found, catalog, look = lookup_in(_text(name), [self.world.zones, self.world.ports])
        if found is None:
            self._unknown("zone or port", name, look, "E203")
        return found, catalog is self.world.ports

    def only_for(self, side: str, what: str, node: Tree) -> None:
        if self.side is not None and self.side != side:
            self.log.add("E208", f"{what} is for {side.capitalize()} only", *_where(node))

    def conflict(self, message: str, node: Tree | Token) -> None:
        self.log.add("E115", message, *_where(node))

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
                    self.conflict('a second "land" entry; name every landing space in one', entry)
                for name in entry.children[0].children if entry.children[0].data == "names" else ():
                    space = self.zone(name)
                    if space is not None and space not in self.world.landing_spaces:
                        self.log.add("E206", f'"{space}" has no landing space; troops land in '
                                     f'{" or ".join(self.world.landing_spaces)}', *_where(name))
                    elif space is not None and space not in land:
                        land.append(space)
            else:
                who, dest = entry.children
                target = SHIPYARD if dest.data == "shipyard" else self.zone(dest)
                if who.data == "all":
                    if everyone is not None:
                        self.conflict('a second "all to" entry', entry)
                    everyone = target
                    continue
                for name in who.children:
                    ship = self.ship(name)
                    if ship is None or target is None:
                        continue
                    if ship in moves:
                        self.log.add("E207", f'"{ship}" is given two sortie orders', *_where(name))
                    moves[ship] = target
        if none_at is not None and (moves or everyone or land):
            self.conflict('"none" together with other sortie orders', none_at)
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
            self.log.add("E206", f'"{start}" is a zone: a squadron at sea moves whole; name ships only '
                         "when they leave a port", *_where(origin))
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
            self.conflict(f'"{block.children[0]}" is given {len(entries)} answers; give one', entries[1])
        flag = entries[0]
        choice = flag.children[0].data
        if choice == KEEP and not keep_allowed:
            self.log.add("E116", '"keep" is for the blockade only', *_where(block))
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
            self.conflict(f'"dice" is given {len(entries)} answers; give one', entries[1])
        entry = entries[0]
        if isinstance(entry, Token):
            count = int(entry)
            if not 1 <= count <= 6:
                self.log.add("E301", f"{count} dice: fire one to six dice", *_where(entry))
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
            self.conflict(f'"ask" together with ships named in "{block.children[0]}"', block)
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
                    self.conflict(f'"{wanted}" contradicts "{prefer}"', block)
                prefer = wanted
        if ask and (protect or prefer != AUTO_PREFERENCE):
            self.conflict('"ask" together with other hits orders', block)
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
                    self.conflict('a second "others to" entry', entry)
                others = self.port(entry.children[0])
            elif entry.data == "return_to":
                names, port_name = entry.children
                port = self.port(port_name)
                for name in names.children:
                    ship = self.ship(name)
                    if ship is None or port is None:
                        continue
                    if ship in ports:
                        self.log.add("E207", f'"{ship}" is given two return ports', *_where(name))
                    ports[ship] = port
        if ask and (ports or others):
            self.conflict('"ask" together with return ports', block)
        return ReturnOrders(tuple(ports.items()), others, ask)


# Lark names the "pass" rule "pass"; Python cannot name a method so.
setattr(Reader, "pass", Reader.pass_)


def read_tree(tree: Tree, world: World, log: ProblemLog) -> OrderSet:
    """The orders in ``tree`` (problems, if any, are in ``log``)."""
    return Reader(world, log).read(tree)

