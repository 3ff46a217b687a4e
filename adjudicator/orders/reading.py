"""Reading a parse tree of a game's orders grammar: the part every game shares.

A game's grammar imports the header lines from ``grammar/common.lark``; its reader
subclasses :class:`TreeReader`, which reads the header (campaign, side, turn and
step, game, authentication, entropy, sealed-mode reveal: E106, E111-E113, E301), runs
the block loop (a heading without entries: E103; a block given twice: E110) and sorts
the blocks in the game's canonical order. The subclass has one method per block rule
of its grammar, named after the rule, returning the block (or None when it logged a
problem). ``where``, ``text_of`` and ``or_list`` help it report problems.
"""

from __future__ import annotations

import bisect
from typing import Any, Sequence

from lark import Token, Tree

from adjudicator.i18n import said
from adjudicator.orders.model import Credentials, Header, OrderSet, order_blocks
from adjudicator.orders.names import Catalog, lookup_in
from adjudicator.orders.problems import ProblemLog

HEADER_FIELDS = {
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
REQUIRED_HEADER = ("campaign", "side", "turn")


def or_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else said("%(some)s or %(last)s", some=", ".join(names[:-1]), last=names[-1])


def rule(node: Tree) -> str:
    """A rule's name without the grammar it was imported from ("common__side_field")."""
    return node.data.rpartition("__")[2]


def first_token(node: Tree | Token) -> Token | None:
    if isinstance(node, Token):
        return node
    for child in node.children:
        found = first_token(child)
        if found is not None:
            return found
    return None


def where(node: Tree | Token | None) -> tuple[int, int]:
    """Line and column where ``node`` starts (a subtree of keywords only has no token
    of its own: its position is the one the parser recorded)."""
    if isinstance(node, Tree) and not node.meta.empty:
        return node.meta.line, node.meta.column
    token = first_token(node) if node is not None else None
    if token is None or token.line is None:
        return 0, 0
    return token.line, token.column


def any_between(lines: list[int], start: int, end: int | None) -> bool:
    """Whether the sorted ``lines`` hold one after ``start`` and before ``end`` (None: no end)."""
    i = bisect.bisect_right(lines, start)
    return i < len(lines) and (end is None or lines[i] < end)


def text_of(name: Tree) -> str:
    """The words of a ``name`` node, quotes removed, spaces made single."""
    return " ".join(str(name.children[0]).strip('"').split())


class TreeReader:
    """Reads one parse tree; problems go to ``log``.

    A subclass sets ``GAME`` (the game's name) and ``BLOCK_ORDER`` (the canonical order
    of block kinds), gives ``sides`` (a :class:`Catalog` of side names) and ``turns``
    (the last turn), and defines one method per block rule of its grammar."""

    GAME: str = ""
    BLOCK_ORDER: tuple[str, ...] = ()

    def __init__(self, log: ProblemLog, sides: Catalog, turns: int) -> None:
        self.log = log
        self.sides = sides
        self.turns = turns
        self.side: str | None = None

    # -- the whole file ------------------------------------------------------------

    def read(self, tree: Tree) -> OrderSet:
        fields = [c for c in tree.children if rule(c) in HEADER_FIELDS]
        blocks = [c for c in tree.children if rule(c) not in HEADER_FIELDS]
        header, credentials = self.header(fields, has_blocks=bool(blocks), tree=tree)
        dropped = sorted(p.line for p in self.log.problems)  # lines the parser left out
        read_blocks: dict[str, Any] = {}
        for node, next_line in zip(blocks, [where(b)[0] for b in blocks[1:]] + [None]):
            if len(node.children) < 2:
                if not any_between(dropped, where(node)[0], next_line):
                    self.log.add("E103", said('the "%(heading)s" heading has no entries', heading=str(node.children[0])), *where(node))
                continue
            block = getattr(self, node.data)(node)
            if block is None:
                continue
            if block.kind in read_blocks:
                self.log.add("E110", said('a second "%(heading)s" block; give each block once', heading=str(node.children[0])),
                             *where(node))
                continue
            read_blocks[block.kind] = block
        return OrderSet(header, order_blocks(read_blocks.values(), self.BLOCK_ORDER), credentials)

    def header(self, fields: list[Tree], has_blocks: bool, tree: Tree) -> tuple[Header, Credentials]:
        """The header lines; a missing one is reported where the orders begin."""
        values: dict[str, Any] = {}
        start = where(tree.children[0]) if tree.children else (1, 1)
        for node in fields:
            key = HEADER_FIELDS[rule(node)]
            if key in values:
                self.log.add("E111", said('a second "%(key)s" line', key=key), *where(node))
                continue
            values.update(self.header_field(key, node))
        if not fields and not has_blocks:
            self.log.add("E106", said("no orders found: the file has no header lines and no blocks"), *start,
                         quote=False)
        else:
            for key in REQUIRED_HEADER:
                if key not in values:
                    example = {"campaign": "campaign: NAME", "side": "side: Japan", "turn": "turn: 1"}[key]
                    self.log.add("E112", said('no "%(key)s" line; add one, e.g. "%(example)s"', key=key, example=example), *start, quote=False)
        self.side = values.get("side")
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

    def header_field(self, key: str, node: Tree) -> dict[str, Any]:
        tokens = [c for c in node.children if isinstance(c, Token)]
        value = str(tokens[0])
        if key == "side":
            side, _, look = lookup_in(value, [self.sides])
            if side is None:
                self.log.add("E113", said('unknown side "%(value)s"', value=value), *where(tokens[0]),
                             suggestions=look.suggestions or tuple(dict.fromkeys(self.sides.labels.values())))
                return {"side": None}
            self.log.note(look.reading(value), where(tokens[0])[0])
            return {"side": side}
        if key == "turn":
            turn = int(value)
            if not 1 <= turn <= self.turns:
                self.log.add("E301", said("turn %(turn)s is not a turn of the game (1-%(turns)s)", turn=turn, turns=self.turns),
                             *where(tokens[0]))
            result: dict[str, Any] = {"turn": turn}
            if len(tokens) > 1:
                result["step"] = str(tokens[1])
            return result
        if key == "game" and value.casefold() != self.GAME:
            self.log.add("E113", said('these are orders for "%(game)s", not "%(value)s"', game=self.GAME, value=value), *where(tokens[0]))
            return {"game": value}
        if key == "game":
            return {"game": self.GAME}
        return {key: value}
