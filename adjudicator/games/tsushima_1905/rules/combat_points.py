"""Rulebook, "Combat Points, Damage and Repairs": the four piles and the fates.

"CPs are either stacked in the Bank Pile ..., the In Play Pile ..., the Spent Pile
..., or Lost." "When using CPs to attack, move, or repair, a player takes the
appropriate number of tokens from his Bank Pile, sets them beside the ship in the In
Play Pile, moves or rolls the dice, and then places the tokens in the Spent Pile ...
If he is required to pay CPs for damages received in that roll, payment first comes
from tokens in the In Play Pile, then from the Bank Pile, and finally from the Spent
Pile." (R-CP-2, R-CP-3) "During the Damage Phase, each unchecked fire or flood costs
1 CP of damage, paid first from the Bank Pile, then the Spent Pile."

"If a ship loses its last CP with no active fires or flooding, it is considered to
have surrendered ... If a ship has no CPs and there is an active fire, it ... is
abandoned. If there is active flooding, then it sinks ... If burning and flooding,
then it sinks." (R-FATE-1, R-FATE-2)
"""

from __future__ import annotations

from adjudicator.games.tsushima_1905.state import ABANDONED, ACTIVE, SUNK, SURRENDERED, Ship
from adjudicator.games.tsushima_1905.rules.table import Table
from adjudicator.i18n import N_


def stake(ship: Ship, count: int) -> None:
    """Bank -> In Play (to move, fire, defend or repair)."""
    ship.bank -= count
    ship.in_play += count


def settle(ship: Ship) -> None:
    """In Play -> Spent, once the outcome is known."""
    ship.spent += ship.in_play
    ship.in_play = 0


def lose(ship: Ship, count: int, order: tuple[str, ...]) -> int:
    """Lose up to ``count`` CPs from the piles in ``order``; return how many were lost."""
    lost = 0
    for pile in order:
        take = min(count - lost, getattr(ship, pile))
        setattr(ship, pile, getattr(ship, pile) - take)
        lost += take
    ship.lost += lost
    return lost


def pay_combat(table: Table, ship: Ship, count: int) -> int:
    """A hit, a torpedo hit or a collision: In Play, then Bank, then Spent."""
    return lose(ship, count, tuple(table.data.rules["piles"]["combat_payment"]))


def pay_damage(table: Table, ship: Ship, count: int) -> int:
    """The Damage Phase: Bank, then Spent."""
    return lose(ship, count, tuple(table.data.rules["piles"]["damage_phase_payment"]))


def fate_of(ship: Ship) -> str:
    """The status a ship at 0 CP takes from its tokens (the fates table)."""
    if ship.floods:
        return SUNK
    if ship.fires:
        return ABANDONED
    return SURRENDERED


def falls(ship: Ship) -> bool:
    """A ship in action at 0 CP surrenders, is abandoned or sinks (R-FATE-1); True
    when it went out of action now. Told by :func:`tell_fate`."""
    if ship.status != ACTIVE or ship.cp > 0:
        return False
    ship.status = fate_of(ship)
    return True


FATE_TOLD = {SURRENDERED: N_("{} surrenders: it stays afloat and no longer takes part."),
             ABANDONED: N_("{} burns uncontrollably and is abandoned."),
             SUNK: N_("{} sinks and is removed from the table.")}


def tell_fate(table: Table, ship: Ship) -> None:
    table.say("fate", FATE_TOLD[ship.status], ship.name, ship=ship.name, status=ship.status)


def check_fate(table: Table, ship: Ship) -> bool:
    """After each pair, torpedo hit, collision and the Damage Phase (R-FATE-1): a ship
    at 0 CP surrenders, is abandoned or sinks, and this is told at once. Returns True
    when it went out of action."""
    if not falls(ship):
        return False
    tell_fate(table, ship)
    return True
