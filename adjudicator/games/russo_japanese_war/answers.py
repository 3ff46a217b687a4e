"""The questions the Russo-Japanese War's rules ask (``Kind``), and the readers of
their answers (``READERS``: plain JSON in, the answer the rules read out).

The Russo-Japanese War's state is plain JSON and the wing reads answers as they are
written, as tables of keys (``answer["unit"]``): the rules, and the answers from orders,
which apply a card-plan step as the Card Play Phase checked it (``plans.py``). Each
reader here checks that an answer is a table and gives it to the rules as a plain dict.
Whether it is well formed and legal -- the unit is one of those that may retreat, the
card is in hand, the path starts where the unit stands -- each rule says in the check it
asks with (:meth:`..rules.table.Table.ask`), in its own words and with the rulebook's
section; the check returns the answer the rules go on with, a dict of the keys they read.

The keys of each kind's answer, as the orders (``plans.py``), the automatic players and
the conformance cases write them:

========================= ======================================================================
``loss``                  ``unit``: the unit eliminated (9.5, A19)
``attacker-result``       ``choose``: ``"AR"`` or ``"AE"`` (9.6, A22)
``retreat``               ``to``: the hex retreated into (9.6)
``chain``                 ``unit``: the unit that makes way in a chain retreat (9.6, A21)
``advance``               ``units``: the units that advance after combat (9.7)
``move``                  ``unit`` and ``path``; or ``rail`` and ``path``; or ``done`` (8.0, 8.2)
``attacks``               ``declare``: a list of ``{"target", "with"}`` (9.1-9.3)
``support``               ``card``, or ``pass`` (9.4.2)
``combat-event``          ``card``, or ``pass`` (10.4.5, A30)
``card-play``             one use (``event``, ``forced-march``, ``strategic``, ``transport``,
                          ``reorganise``) with its keys, or ``done`` (10.2)
``reaction``              ``card``, or ``pass`` (A37)
``extra-card``            ``use``: pay a Morale Point for a fourth card (10.1)
``flagship``              ``ship``: Makarov's flagship, a hidden answer (11.5)
``sortie``                ``sortie``, and ``card`` for the Port Arthur Fleet (11.2.1, 11.2.6)
``call-off``              ``continue`` (11.2.3)
``intercept``             ``intercept`` (11.2.4, 11.2.7)
``naval-response``        ``blockade``, ``mines`` (11.2.2)
``naval-damage``          ``ships``: one ship per step of damage (11.2.2)
``line-up``               ``order``: the ships of the line, the unhurt first (11.3.1, A43)
``akiyama``               ``play`` (11.3.4)
``repair``                ``ships``: the damaged ships repaired (11.4, A67)
``second-fleet``          ``withdraw``: a First Fleet ship, or none (11.4, A46)
========================= ======================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Callable

from adjudicator.engine.errors import IllegalAnswer


class Kind(StrEnum):
    """What is asked (a Decision's ``kind``, the ``ask`` of a conformance case)."""

    # 10.1 Card Replenishment
    EXTRA_CARD = "extra-card"
    # 8.0 Movement
    MOVE = "move"
    # 9.0 Combat
    ATTACKS = "attacks"
    SUPPORT = "support"
    COMBAT_EVENT = "combat-event"
    LOSS = "loss"
    ATTACKER_RESULT = "attacker-result"
    RETREAT = "retreat"
    CHAIN = "chain"
    ADVANCE = "advance"
    # 10.2 Card Play
    CARD_PLAY = "card-play"
    REACTION = "reaction"
    # 11.0 Advanced Naval Rules
    FLAGSHIP = "flagship"
    SORTIE = "sortie"
    CALL_OFF = "call-off"
    INTERCEPT = "intercept"
    NAVAL_RESPONSE = "naval-response"
    NAVAL_DAMAGE = "naval-damage"
    LINE_UP = "line-up"
    AKIYAMA = "akiyama"
    REPAIR = "repair"
    SECOND_FLEET = "second-fleet"


def reader(kind: Kind) -> Callable[[Mapping[str, Any]], dict]:
    """The reader of ``kind``'s answers: a table of keys, given to the rules as a dict."""
    name = kind.value

    def read(raw: Mapping[str, Any]) -> dict:
        if type(raw) is dict:
            return raw
        if not isinstance(raw, Mapping):
            raise IllegalAnswer(f"an answer to {name!r} must be a table of keys, got {raw!r}")
        return dict(raw)

    read.__name__ = read.__qualname__ = f"read_{kind.name.lower()}"
    return read


READERS: dict[Kind, Callable[[Mapping[str, Any]], dict]] = {kind: reader(kind) for kind in Kind}
