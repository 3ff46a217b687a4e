"""The orders language of Russo-Japanese War 1904-1905 (``grammar/russo-japanese-war.lark``).

One email per side per Player Turn: the header (shared with every game), the moves as
hex paths (``2 1414-1514-1614``, ``rail S1 2417-2316-2115``), every attack with its
units and support, the card uses in order, and the standing orders that answer the
questions of the opponent's turn (combat events, losses, retreats, AR, reactions, the
paid fourth card). Names are checked here -- units against the counter sheet, hexes
against the map, cards against the 16 cards, by number or by a unique prefix of their
name -- and every problem is reported at once, with "did you mean" suggestions.

    orders = read_orders(text)            # raises OrdersError listing every problem
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from lark import Token, Tree

from adjudicator.games.russo_japanese_war.data import JAPAN, RESHUFFLE_CARD, RUSSIA, SIDES, GameData, default_data
from adjudicator.games.russo_japanese_war.hexmap import KOREA, SIBERIA, hexes_from_spec
from adjudicator.orders.keywords import in_english, side_names
from adjudicator.orders.names import Catalog
from adjudicator.orders.reading import HEADER_FIELDS, TreeReader, rule, where
from adjudicator.orders.problems import OrdersError, ProblemLog
from adjudicator.orders.recovery import parse_with_recovery
from adjudicator.orders.text import clean

GAME = "russo-japanese-war"
TURNS = 12

#: The codes of this game's names (each game has a range of its own: docs/orders.md).
CODES: dict[str, str] = {
    "E501": "unknown unit",
    "E502": "ambiguous name",
    "E503": "unknown card",
    "E504": "unknown ship",
    "E505": "not a hex of the map",
    "E506": "not a path",
    "E507": "unit of the other side",
}

#: Limits that keep a long line cheap to read (docs/games/russo-japanese-war/orders.md).
MAX_ENTRIES_PER_LINE = 64
MAX_NAMES = 64

#: What players may call the sides.
SIDE_ALIASES = {JAPAN: ("Japanese", "Nippon", *side_names(JAPAN)), RUSSIA: ("Russian", *side_names(RUSSIA))}
SIDE_NAMES = Catalog.of("side", SIDE_ALIASES)


@dataclass(frozen=True)
class Clause:
    """One test of a condition: ``differential <= 2``, ``result in AR, AE``, ``target is
    1201``, ``attacking``, ``enemy played 9``, ``top discard is 13``, ``hex 1611 ours``.

    ``facts`` (what the question knows): numbers by name, ``role`` (attacker/defender),
    ``enemy_played`` and ``top_discard`` (card ids), ``hex_state`` (a function from a hex
    to the set of ours/theirs/empty/occupied that hold for it)."""

    kind: str
    op: str = ""
    value: Any = None

    def holds(self, facts: dict) -> bool:
        if self.kind == "result":
            return facts.get("result") in self.value
        if self.kind in ("target", "role", "enemy_played", "top_discard"):
            return facts.get(self.kind) == self.value
        if self.kind == "hex":
            look = facts.get("hex_state")
            return look is not None and self.value[1] in look(self.value[0])
        got = facts.get(self.kind)
        if got is None:
            return False
        return {"<": got < self.value, "<=": got <= self.value, "=": got == self.value,
                ">=": got >= self.value, ">": got > self.value}[self.op]


@dataclass(frozen=True)
class Condition:
    clauses: tuple[Clause, ...] = ()

    def holds(self, facts: dict) -> bool:
        return all(clause.holds(facts) for clause in self.clauses)


ALWAYS = Condition()


@dataclass(frozen=True)
class Move:
    unit: str
    path: tuple[str, ...]
    rail: bool = False
    written: str = field(default="", compare=False, repr=False)   # the entry as the player wrote it


@dataclass(frozen=True)
class Attack:
    target: str
    units: tuple[str, ...]
    support: Condition | None = None        # None: no support card
    support_card: str | None = None         # the card discarded for support (None: a spare one)
    written: str = field(default="", compare=False, repr=False)   # the entry as the player wrote it


@dataclass(frozen=True)
class EventRule:
    card: str
    condition: Condition = ALWAYS
    written: str = field(default="", compare=False, repr=False)   # the entry as the player wrote it


@dataclass(frozen=True)
class CardUse:
    use: str                                 # event, forced-march, strategic, transport, reorganise, done
    card: str | None = None
    unit: str | None = None
    to: str | None = None
    path: tuple[str, ...] = ()
    phase: str | None = None
    units: tuple[str, ...] = ()
    condition: Condition | None = None       # a conditional step: used only when it holds
    written: str = field(default="", compare=False, repr=False)   # the entry as the player wrote it


@dataclass(frozen=True)
class NavalPlan:
    """The standing orders for the advanced naval rules (11.0): Makarov's flagship, the
    fleets to sortie, when to call a sortie off, the interceptions, the Japanese cards and
    which Port Arthur ships to hit first."""

    flagship: str | None = None
    sorties: tuple[str, ...] = ()            # port-arthur, vladivostok
    sortie_card: str | None = None           # a #1/#6 card to use for the Port Arthur sortie
    call_off_below: int | None = None        # call off when fewer unhurt ships remain
    intercept: tuple[str, ...] = ()          # the Russian fleets to intercept
    strikes: tuple[str, ...] = ()            # blockade, mines
    akiyama: bool = False
    hit_first: tuple[str, ...] = ()
    withdraw: str | None = None
    repair: tuple[str, ...] = ()             # the damaged ships to repair first (11.4, A67)
    line: tuple[str, ...] = ()               # the order of the line, in each group (11.3.1, A43)


@dataclass(frozen=True)
class RjwOrders:
    """Everything one orders file says."""

    header: dict
    extra_card: Condition | None = None      # None: no fourth card
    moves: tuple[Move, ...] | None = None
    forced_moves: tuple[Move, ...] | None = None
    attacks: tuple[Attack, ...] | None = None
    forced_attacks: tuple[Attack, ...] | None = None
    events: tuple[EventRule, ...] = ()
    advance: str = "key"                     # always, never, key (key locations and supply sources)
    advance_into: tuple[tuple[str, tuple[str, ...]], ...] = ()
    protect: tuple[str, ...] = ()
    losses_first: str = "weakest"
    retreat_toward: str | None = None
    retreat_from: tuple[tuple[str, str], ...] = ()            # (combat hex, toward)
    retreat_units: tuple[tuple[str, tuple[str, ...]], ...] = ()   # (unit, hexes in order)
    chain_first: tuple[str, ...] = ()        # the units that make way first (9.6, A21)
    chain_order: str = "weakest"             # then: weakest / strongest first
    ar: str | None = None                    # retreat / eliminate
    cards: tuple[CardUse, ...] | None = None
    reactions: tuple[EventRule, ...] = ()
    naval: NavalPlan | None = None

    @property
    def side(self) -> str | None:
        return self.header.get("side")


class Names:
    """The names orders may use: units, hexes, cards (by number or name)."""

    def __init__(self, data: GameData, state: dict | None = None) -> None:
        self.data = data
        ids = list(state["units"]) if state else [u.id for u in data.units]
        self.units = Catalog.of("unit", ids)
        self.unit_sides = ({u: v["side"] for u, v in state["units"].items()} if state
                           else {u.id: u.side for u in data.units})
        hexes = hexes_from_spec(state["board"]["hexes"]) if state and "board" in state else None
        self.hexes = hexes
        self.ships = Catalog.of("ship", [ship.id for ship in data.ships])
        self.board = data.board
        self.cards = {side: Catalog.of("card", {cid: [h[side].name, h[side].name.split()[0]]
                                                for cid, h in data.cards.items()})
                      for side in SIDES}

    def unit(self, text: str, log: ProblemLog, token: Token, side: str | None) -> str | None:
        look = self.units.lookup(text, suggest=not log.full)
        if look.ambiguous:
            log.add("E502", f'"{text}" could be any of {", ".join(look.ambiguous)}: write the whole id',
                    token.line, token.column, suggestions=look.ambiguous)
            return None
        if look.found is None:
            log.add("E501", f'unknown unit "{text}"', token.line, token.column, suggestions=look.suggestions)
            return None
        if side and self.unit_sides.get(look.found) not in (side, None):
            log.add("E507", f"{look.found} is not a {side.capitalize()} unit", token.line, token.column)
        log.note(look.reading(text), token.line)
        return look.found

    def hex(self, text: str, log: ProblemLog, token: Token, boxes: bool = False) -> str | None:
        lowered = text.lower()
        if boxes and lowered in (KOREA, SIBERIA):
            return lowered
        if not (len(text) == 4 and text.isdigit()):
            log.add("E505", f'"{text}" is not a hex number (four digits, column then row, e.g. 1015)',
                    token.line, token.column)
            return None
        hexes = self.board.hexes if self.hexes is None else self.hexes
        if text not in hexes:
            log.add("E505", f"{text} is not on the map", token.line, token.column)
            return None
        return text

    def path(self, text: str, log: ProblemLog, token: Token) -> tuple[str, ...]:
        parts = text.split("-")
        if len(parts) < 2 or not all(parts):
            log.add("E506", f'"{text}" is not a path: write every hex entered, joined by "-" (1015-1115-1215)',
                    token.line, token.column)
            return ()
        before = len(log.problems)
        found = tuple(h for h in (self.hex(p, log, token, boxes=True) for p in parts) if h)
        return found if len(log.problems) == before else ()

    def card(self, tree: Tree, log: ProblemLog, side: str | None) -> str | None:
        token = tree.children[0]
        text = str(token).strip('"')
        if text.isdigit():
            number = int(text)
            by_number = {h[JAPAN].number: cid for cid, h in self.data.cards.items()}
            if number not in by_number:
                log.add("E301", f"there is no card {number}: the cards are numbered 1-16", token.line, token.column)
                return None
            return by_number[number]
        for s in ([side] if side else SIDES):
            look = self.cards[s].lookup(text)
            if look.found:
                if look.completed:              # the card by the name of the half its side plays
                    log.note(f"'{text}' read as {self.data.card_label(look.found, s)}", token.line)
                return look.found
        look = self.cards[side or JAPAN].lookup(text)
        if look.ambiguous:
            log.add("E502", f'"{text}" could be any of several cards: write more of the name, or its number',
                    token.line, token.column, suggestions=[self.data.card_label(c, side) for c in look.ambiguous])
            return None
        labels = [self.data.card_label(c, side) for c in look.suggestions]
        message = f'unknown card "{text}"' + (f" for {side.capitalize()}" if side else "")
        if side is None:                          # either half: the suggestions of both
            theirs = self.cards[RUSSIA].lookup(text)
            labels = list(dict.fromkeys(self.data.card_label(c) for c in (*look.suggestions, *theirs.suggestions)))
        elif not labels:                          # the other half of a card, or close to it
            message, labels = self.other_half(text, side, message)
        log.add("E503", message, token.line, token.column, suggestions=labels)
        return None

    def other_half(self, text: str, side: str, message: str) -> tuple[str, list[str]]:
        """A card written by the name of the other side's half (or close to it): the
        message says whose half that name is, and the suggestions give the card by the
        name of ``side``'s half (10.0: each side plays its own half of a card)."""
        other = RUSSIA if side == JAPAN else JAPAN
        theirs = self.cards[other].lookup(text)
        cards = [theirs.found] if theirs.found else list(theirs.ambiguous or theirs.suggestions)
        if not cards:
            return message, []
        named = ", ".join(self.data.card_label(c, other) for c in cards)
        close = "" if theirs.found else "close to "
        message += (f": {close}the {SIDE_ALIASES[other][0]} half of {named}; "
                    f"{side.capitalize()} plays " + ", ".join(self.data.card_label(c, side) for c in cards))
        return message, [self.data.card_label(c, side) for c in cards]


def fleet_name(text: str) -> str:
    """``port arthur`` / ``Port-Arthur`` / ``vladivostok`` -> port-arthur / vladivostok."""
    return "vladivostok" if text.lower().startswith("v") else "port-arthur"


def read_orders(text: str | bytes, state: dict | None = None, data: GameData | None = None) -> RjwOrders:
    """Parse and check an orders file; raise OrdersError with every problem."""
    cleaned = clean(text)
    log = ProblemLog(list(cleaned.lines))
    orders = read_rjw(cleaned.text, log, state, data)
    if log or orders is None:
        raise OrdersError(log.problems or [])
    return orders


def read_rjw(text: str, log: ProblemLog, state: dict | None = None, data: GameData | None = None,
             given: set[str] | None = None) -> RjwOrders | None:
    """The orders in ``text``; ``given`` receives the headings of the blocks present."""
    tree = parse_with_recovery(GAME, text, log)
    if tree is None:
        return None
    reader = Reader(Names(data or default_data(), state), log, text)
    orders = reader.read(tree)
    if state is not None and orders is not None:
        note_player_turn_over(tree, orders, state, log)
    if given is not None:
        from adjudicator.games.russo_japanese_war.language import HEADINGS
        given.update(HEADINGS[item.data] for item in tree.children
                     if isinstance(item, Tree) and item.data in HEADINGS)
    return orders


#: the blocks that answer one Player Turn only (docs: "What orders answer"): heading, phase step
ONE_TURN_BLOCKS = {"move_block": ("move", "movement"), "attack_block": ("attack", "combat"),
                   "cards_block": ("cards", "card-play"), "forced_move_block": ("forced move", "card-play"),
                   "forced_attack_block": ("forced attack", "card-play")}


def note_player_turn_over(tree: Tree, orders: RjwOrders, state: dict, log: ProblemLog) -> None:
    """A block that answers one Player Turn only, in orders for the Game Turn now played,
    whose phase of the side is over in that turn (or that the turn does not have: no
    Russian Player Turn in Game Turn 1, 5.1) answers nothing: a note says so, at the
    block's line, so that the receipt tells it (orders for the next Game Turn can be sent
    only once it begins: their 'turn:' must be the turn played)."""
    from adjudicator.games.russo_japanese_war.rules.sequence import phase_title
    from adjudicator.games.russo_japanese_war.rules.sequence import phases_of
    side, turn, now = orders.side, state.get("turn"), state.get("phase")
    if side not in SIDES or orders.header.get("turn") != turn or not isinstance(turn, int):
        return
    phases = phases_of(turn)
    if now not in phases:
        return
    own_turn_over = f"{side}-card-play" not in phases or phases.index(now) > phases.index(f"{side}-card-play")
    for item in tree.children:
        if not (isinstance(item, Tree) and item.data in ONE_TURN_BLOCKS):
            continue
        heading, step = ONE_TURN_BLOCKS[item.data]
        phase = f"{side}-{step}"
        if phase in phases and phases.index(phase) >= phases.index(now):
            continue
        why = (f"the {phase_title(phase)} of turn {turn} is over" if phase in phases
               else f"Game Turn {turn} has no {phase_title(phase)} (5.1)")
        log.note(f"{heading}: {why}, so this block is not used"
                 + (f"; send orders for turn {turn + 1} once its report asks for them, with 'turn: {turn + 1}'"
                    if own_turn_over and turn < 12 else ""), where(item)[0])


class Reader(TreeReader):
    """The header is the shared one (:class:`~adjudicator.orders.reading.TreeReader`:
    E106, E111-E113, E301, the ``game:`` line); each block rule of the grammar has a
    method of the same name."""

    GAME = GAME

    def __init__(self, names: Names, log: ProblemLog, text: str = "") -> None:
        super().__init__(log, SIDE_NAMES, TURNS)
        self.names = names
        self.text = text

    def entries(self, tree: Tree):
        """The entries of a block, at most :data:`MAX_ENTRIES_PER_LINE` from one line (a
        longer line costs time, not meaning: its further entries are refused, once)."""
        counts: dict[int, int] = {}
        for entry in tree.children:
            line = where(entry)[0]
            counts[line] = counts.get(line, 0) + 1
            if counts[line] > MAX_ENTRIES_PER_LINE:
                if counts[line] == MAX_ENTRIES_PER_LINE + 1:
                    self.log.add("E116", f"a line holds at most {MAX_ENTRIES_PER_LINE} entries; the entries from "
                                 "here on are not read: put them on lines of their own", *where(entry))
                continue
            yield entry

    def written(self, entry: Tree) -> str:
        """The entry as written: its line from the first character up to the entry's last
        word (a part of the line, so that a note can find the line again)."""
        tokens = [v for v in entry.scan_values(lambda v: isinstance(v, Token)) if v.start_pos is not None]
        if not tokens or not self.text:
            return ""
        end = max(token.end_pos for token in tokens)
        start = self.text.rfind("\n", 0, min(token.start_pos for token in tokens)) + 1
        return self.text[start:end].strip()

    def read(self, tree: Tree) -> RjwOrders:
        """The header (shared with every game), then each block once; a heading may have
        no entries (its default, written ``none`` in the stored form)."""
        header_fields = [c for c in tree.children if rule(c) in HEADER_FIELDS]
        blocks = [c for c in tree.children if rule(c) not in HEADER_FIELDS]
        header, credentials = self.header(header_fields, has_blocks=bool(blocks), tree=tree)
        fields: dict[str, Any] = {}
        seen: set[str] = set()
        for item in blocks:
            if item.data in seen:
                from adjudicator.games.russo_japanese_war.language import HEADINGS
                self.log.add("E110", f'a second "{HEADINGS[item.data]}:" block; give each block once', *where(item))
                continue
            seen.add(item.data)
            getattr(self, item.data)(item, fields)
        values = {"campaign": header.campaign, "side": header.side, "turn": header.turn, "step": header.step,
                  "game": header.game, "entropy": header.entropy, "reveal": header.reveal,
                  "password": credentials.password, "signature": credentials.signature}
        return RjwOrders(header={k: v for k, v in values.items() if v is not None}, **fields)

    # -- blocks ----------------------------------------------------------------------------

    def replenish_block(self, tree: Tree, fields: dict) -> None:
        for entry in self.entries(tree):
            fields["extra_card"] = (self.condition(entry.children[0]) if entry.children else ALWAYS) \
                if entry.data == "extra_card" else None

    def _moves(self, tree: Tree) -> tuple[Move, ...]:
        moves = []
        for entry in self.entries(tree):
            if entry.data in ("nothing", "move_done"):
                continue
            unit_token, path_token = entry.children
            unit = self.names.unit(str(unit_token), self.log, unit_token, self.side)
            path = self.names.path(str(path_token), self.log, path_token)
            if unit and path:
                moves.append(Move(unit, path, entry.data == "rail_move", self.written(entry)))
        return tuple(moves)

    def move_block(self, tree: Tree, fields: dict) -> None:
        fields["moves"] = self._moves(tree)

    def forced_move_block(self, tree: Tree, fields: dict) -> None:
        fields["forced_moves"] = self._moves(tree)

    def _attacks(self, tree: Tree) -> tuple[Attack, ...]:
        attacks = []
        for entry in self.entries(tree):
            if entry.data == "nothing":
                continue
            target_token, words, *rest = entry.children
            target = self.names.hex(str(target_token), self.log, target_token)
            units = self.words(words)
            support, card = None, None
            for option in rest:
                if option.data == "support":
                    conditions = [c for c in option.children if c.data == "condition"]
                    support = self.condition(conditions[0]) if conditions else ALWAYS
                    card = self._using(option.children)
            if target and units:
                attacks.append(Attack(target, units, support, card, self.written(entry)))
        return tuple(attacks)

    def attack_block(self, tree: Tree, fields: dict) -> None:
        fields["attacks"] = self._attacks(tree)

    def forced_attack_block(self, tree: Tree, fields: dict) -> None:
        fields["forced_attacks"] = self._attacks(tree)

    def _rules(self, tree: Tree) -> tuple[EventRule, ...]:
        rules = []
        for entry in self.entries(tree):
            if entry.data == "nothing":
                continue
            card = self.names.card(entry.children[0], self.log, self.side)
            condition = self.condition(entry.children[1]) if len(entry.children) > 1 else ALWAYS
            if card:
                rules.append(EventRule(card, condition, self.written(entry)))
        return tuple(rules)

    def events_block(self, tree: Tree, fields: dict) -> None:
        fields["events"] = self._rules(tree)

    def react_block(self, tree: Tree, fields: dict) -> None:
        fields["reactions"] = self._rules(tree)

    def advance_block(self, tree: Tree, fields: dict) -> None:
        into = {}
        for entry in self.entries(tree):
            if entry.data == "advance_into":
                token, words = entry.children
                hex_ = self.names.hex(str(token), self.log, token)
                if hex_:
                    into[hex_] = self.words(words)
            else:
                fields["advance"] = {"always": "always", "never": "never", "key_places": "key"}[entry.data]
        fields["advance_into"] = tuple(into.items())

    def losses_block(self, tree: Tree, fields: dict) -> None:
        for entry in self.entries(tree):
            if entry.data == "protect":
                fields["protect"] = self.words(entry.children[0])
            else:
                fields["losses_first"] = entry.data

    def retreat_block(self, tree: Tree, fields: dict) -> None:
        """``toward HEX``; ``from HEX toward HEX`` (the combat at a hex); ``UNIT to HEX, HEX``."""
        by_combat, by_unit = {}, {}
        for entry in self.entries(tree):
            if entry.data == "toward":
                token = entry.children[0]
                fields["retreat_toward"] = self.names.hex(str(token), self.log, token)
            elif entry.data == "retreat_from":
                at, toward = (self.names.hex(str(token), self.log, token) for token in entry.children)
                if at and toward:
                    by_combat[at] = toward
            elif entry.data == "retreat_unit":
                token, words = entry.children
                unit = self.names.unit(str(token), self.log, token, self.side)
                hexes = tuple(h for h in (self.names.hex(str(w), self.log, w) for w in words.children) if h)
                if unit and hexes:
                    by_unit[unit] = hexes
        fields["retreat_from"] = tuple(by_combat.items())
        fields["retreat_units"] = tuple(by_unit.items())

    def chain_block(self, tree: Tree, fields: dict) -> None:
        for entry in self.entries(tree):
            if entry.data == "chain_first":
                fields["chain_first"] = self.words(entry.children[0])
            elif entry.data in ("weakest", "strongest"):
                fields["chain_order"] = entry.data

    def ar_block(self, tree: Tree, fields: dict) -> None:
        for entry in self.entries(tree):
            if entry.data != "nothing":
                fields["ar"] = "retreat" if entry.data == "ar_retreat" else "eliminate"

    def naval_block(self, tree: Tree, fields: dict) -> None:
        """11.0 standing orders; ship names are checked against the 15 naval units."""
        plan: dict[str, Any] = {}
        for entry in self.entries(tree):
            kind, children = entry.data, entry.children
            if kind == "flagship":
                plan["flagship"] = self.ship(children[0])
            elif kind == "sortie":
                fleet = fleet_name(str(children[0]))
                plan["sorties"] = plan.get("sorties", ()) + (fleet,)
                if fleet == "port-arthur" and len(children) > 1:
                    plan["sortie_card"] = self._using(children[1:])
            elif kind == "call_off":
                plan["call_off_below"] = int(str(children[0])) if children else 8
            elif kind == "intercept":
                plan["intercept"] = plan.get("intercept", ()) + (fleet_name(str(children[0])),)
            elif kind == "strike":
                plan["strikes"] = plan.get("strikes", ()) + (str(children[0]).lower(),)
            elif kind == "akiyama":
                plan["akiyama"] = True
            elif kind == "hit_first":
                plan["hit_first"] = tuple(s for s in (self.ship(token) for token in children) if s)
            elif kind == "withdraw":
                plan["withdraw"] = self.ship(children[0])
            elif kind == "line_up":
                plan["line"] = tuple(s for s in (self.ship(token) for token in children) if s)
            elif kind == "repair":
                plan["repair"] = tuple(s for s in (self.ship(token) for token in children) if s)
        fields["naval"] = NavalPlan(**plan)

    def ship(self, token: Token) -> str | None:
        look = self.names.ships.lookup(str(token))
        if look.ambiguous:
            self.log.add("E502", f'"{token}" could be any of {", ".join(look.ambiguous)}', token.line, token.column,
                         suggestions=look.ambiguous)
        elif look.found is None:
            self.log.add("E504", f'unknown ship "{token}"', token.line, token.column, suggestions=look.suggestions)
        else:
            self.log.note(look.reading(str(token)), token.line)
        return look.found

    def cards_block(self, tree: Tree, fields: dict) -> None:
        uses: list[CardUse | None] = []
        for entry in self.entries(tree):
            if isinstance(entry, Token) or entry.data == "nothing":     # a step number, "none"
                continue
            if entry.data == "condition":         # the condition of the step before it
                if uses and uses[-1] is not None:
                    last = uses[-1]
                    uses[-1] = replace(last, condition=self.condition(entry),
                                       written=self.written(entry) or last.written)
                continue
            use = getattr(self, "use_" + entry.data)(entry)
            uses.append(replace(use, written=self.written(entry)) if use else None)
        fields["cards"] = tuple(use for use in uses if use is not None)

    # -- card uses ---------------------------------------------------------------------------

    def _using(self, children: list) -> str | None:
        for child in children:
            if isinstance(child, Tree) and child.data == "using":
                return self.names.card(child.children[0], self.log, self.side)
        return None

    def use_event_use(self, entry: Tree) -> CardUse | None:
        card = self.names.card(entry.children[0], self.log, self.side)
        units = self.words(entry.children[1]) if len(entry.children) > 1 else ()
        return CardUse("event", card, units=units) if card else None

    def use_forced_march(self, entry: Tree) -> CardUse:
        return CardUse("forced-march", self._using(entry.children), phase=entry.children[0].data)

    def use_strategic(self, entry: Tree) -> CardUse | None:
        unit_token, path_token = entry.children[:2]
        unit = self.names.unit(str(unit_token), self.log, unit_token, self.side)
        path = self.names.path(str(path_token), self.log, path_token)
        return CardUse("strategic", self._using(entry.children), unit=unit, path=path) if unit and path else None

    def use_transport(self, entry: Tree) -> CardUse | None:
        unit_token, to_token = entry.children[:2]
        unit = self.names.unit(str(unit_token), self.log, unit_token, self.side)
        to = self.names.hex(str(to_token), self.log, to_token, boxes=True) if str(to_token).lower() != "korea" \
            else KOREA
        return CardUse("transport", self._using(entry.children), unit=unit, to=to) if unit and to else None

    def use_reorganise(self, entry: Tree) -> CardUse | None:
        unit_token = entry.children[0]
        unit = self.names.unit(str(unit_token), self.log, unit_token, self.side)
        return CardUse("reorganise", self._using(entry.children), unit=unit) if unit else None

    def use_done(self, entry: Tree) -> CardUse:
        return CardUse("done")

    # -- pieces ------------------------------------------------------------------------------

    def words(self, tree: Tree) -> tuple[str, ...]:
        units = []
        names = tree.children
        if len(names) > MAX_NAMES:
            token = names[MAX_NAMES]
            self.log.add("E116", f"a list names at most {MAX_NAMES} units; the names from here on are not read",
                         token.line, token.column)
            names = names[:MAX_NAMES]
        for token in names:
            unit = self.names.unit(str(token), self.log, token, None)
            if unit:
                units.append(unit)
        return tuple(units)

    def condition(self, tree: Tree) -> Condition:
        clauses = []
        for clause in tree.children:
            if clause.data == "result_in":
                clauses.append(Clause("result", "in", tuple(str(t).upper() for t in clause.children)))
            elif clause.data == "target_is":
                clauses.append(Clause("target", "=", str(clause.children[0])))
            elif clause.data in ("attacking", "defending"):
                clauses.append(Clause("role", "=", clause.data[:-3] + "er"))
            elif clause.data in ("enemy_played", "top_discard"):
                enemy = {JAPAN: RUSSIA, RUSSIA: JAPAN}.get(self.side) if clause.data == "enemy_played" else None
                card = self.names.card(clause.children[0], self.log, enemy)
                if card:
                    clauses.append(Clause(clause.data, "=", card))
            elif clause.data == "hex_state":
                token, state = clause.children
                hex_ = self.names.hex(str(token), self.log, token)
                if hex_:
                    clauses.append(Clause("hex", "=", (hex_, in_english(self.GAME, str(state)))))
            else:
                op, value = clause.children
                kind = clause.data.replace("_is", "")
                clauses.append(Clause(kind, str(op), int(str(value))))
        return Condition(tuple(clauses))


__all__ = ["RjwOrders", "read_orders", "Move", "Attack", "EventRule", "CardUse", "Condition", "Clause",
           "RESHUFFLE_CARD", "RUSSIA"]
