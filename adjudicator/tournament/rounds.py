"""What a round (or a ladder challenge) is, as a pure function of the event so far,
the time and the revealed seed: the referee's ``pair`` and anyone's audit compute
the same thing, so a pairing the draw did not give is caught."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Sequence

from adjudicator.tournament.draws import Draws
from adjudicator.tournament.errors import LadderRefused, NothingToPair
from adjudicator.tournament.pairing import pools as deal_pools
from adjudicator.tournament.pairing import round_robin, suggested_rounds, swiss
from adjudicator.tournament.state import EventState


def planned_rounds(state: EventState, field_size: int) -> int:
    """How many rounds the event has: the charter's, else suggested by the field."""
    if state.format == "round-robin":
        pools = state.rounds[0].pools if state.rounds else []
        return max((len(p) - 1 + len(p) % 2 for p in pools), default=0)
    return int(state.charter.get("rounds") or suggested_rounds(field_size))


def plan(state: EventState, draws: Draws, at: datetime, challenge: tuple[str, str] | None = None) -> dict[str, Any]:
    """The body of the next round record (without seed, times): who is active or
    absent, the pairs, the byes, and each game with its sides."""
    number = len(state.rounds) + 1
    active = state.active_players(at)
    absent = sorted(p for p in state.active_players() if p not in active)
    if state.format == "ladder":
        pairs, byes, pools = [_challenge(state, challenge)], [], []
    elif state.format == "round-robin":
        pools = state.rounds[0].pools if state.rounds else deal_pools(active, int(state.charter["pools"]), draws)
        pairs, byes = _round_robin_round(state, pools, number, at)
    else:
        if number > planned_rounds(state, len(active)):
            raise NothingToPair(f"all {number - 1} rounds of {state.name} have been paired; close it with "
                                f"'adjudicator tournament close {state.name}'")
        pools = []
        if state.charter.get("pairing", "seeded") == "dutch":
            return _dutch(state, draws, number, active, absent)
        paired = swiss(active, state.scores(), state.met(), state.byes(), draws)
        pairs, byes = list(paired.pairs), [paired.bye] if paired.bye else []
    if not pairs:
        raise NothingToPair(f"nobody to pair in round {number} of {state.name}: "
                            f"{len(active)} active player(s)")
    games = []
    for index, (first, second) in enumerate(pairs, start=1):
        games += _games(state, draws, number, index, first, second)
    return {"round": number, "kind": "challenge" if state.format == "ladder" else "round",
            "active": sorted(active), "absent": absent, "pairs": [list(p) for p in pairs], "byes": byes,
            "pools": [list(p) for p in pools], "games": games}


def _dutch(state: EventState, draws: Draws, number: int, active: list[str], absent: list[str]) -> dict[str, Any]:
    """A Swiss round by FIDE's Dutch system; the first round draws the initial ranking
    and the initial colour from its seed and records them."""
    from adjudicator.tournament.dutch import WHITE, BLACK, dutch_round
    from adjudicator.tournament.publish import pairing_numbers

    extra: dict[str, Any] = {}
    if not state.rounds:
        extra = {"ranking": draws.shuffle(sorted(active), "initial ranking"),
                 "initial_colour": (WHITE, BLACK)[draws.below(2, "initial colour")]}
        numbers = {player: n for n, player in enumerate(extra["ranking"], start=1)}
        colour = extra["initial_colour"]
    else:
        numbers, colour = pairing_numbers(state), state.rounds[0].initial_colour or WHITE
    paired = dutch_round(state, sorted(active, key=numbers.__getitem__), numbers, colour, number,
                         planned_rounds(state, len(active)))
    games = []
    for index, (first, second) in enumerate(paired.pairs, start=1):
        games += _games(state, draws, number, index, first, second)
    return {"round": number, "kind": "round", "active": sorted(active), "absent": absent,
            "pairs": [list(p) for p in paired.pairs], "byes": [paired.bye] if paired.bye else [],
            "pools": [], "games": games, **extra}


def _round_robin_round(state: EventState, pools: Sequence[Sequence[str]], number: int,
                       at: datetime) -> tuple[list[tuple[str, str]], list[str]]:
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    active = set(state.active_players(at))
    for pool in pools:
        schedule = round_robin(list(pool))
        if number > len(schedule):
            continue
        round_pairs, bye = schedule[number - 1]
        for a, b in round_pairs:
            if a in active and b in active:
                pairs.append((a, b))
            else:  # a withdrawn or absent opponent: the other takes the bye's score
                byes += [p for p in (a, b) if p in active]
        if bye and bye in active:
            byes.append(bye)
    if not pairs and not byes:
        raise NothingToPair(f"the round robin of {state.name} is complete; close it with "
                            f"'adjudicator tournament close {state.name}'")
    return pairs, byes


def _challenge(state: EventState, challenge: tuple[str, str] | None) -> tuple[str, str]:
    from adjudicator.tournament.ladder import ladder_order

    if challenge is None:
        raise LadderRefused("a ladder is paired one challenge at a time: "
                            "give --challenge CHALLENGER:DEFENDER")
    challenger, defender = challenge
    order = ladder_order(state)
    for player in (challenger, defender):
        if player not in order or player in state.withdrawn:
            raise LadderRefused(f"{player!r} is not an active player of the ladder ({', '.join(order)})")
    busy = {p for slot in state.running() for p in slot.sides.values()}
    if busy & {challenger, defender}:
        raise LadderRefused(f"{', '.join(sorted(busy & {challenger, defender}))} still has a game running")
    reach = int(state.charter.get("challenge_reach", 3))
    below, above = order.index(challenger), order.index(defender)
    if not 0 < below - above <= reach:
        raise LadderRefused(f"{challenger} (place {below + 1}) may challenge only the {reach} place(s) "
                            f"just above, not {defender} (place {above + 1})")
    return challenger, defender


def _games(state: EventState, draws: Draws, number: int, index: int, first: str, second: str) -> list[dict]:
    sides = list(state.charter["game_sides"])
    rule = state.charter["sides"]
    base = f"{state.name}-r{number}-{index}"
    if rule == "alternate":
        return [{"game": f"{base}a", "pair": index, "sides": {sides[0]: first, sides[1]: second}},
                {"game": f"{base}b", "pair": index, "sides": {sides[0]: second, sides[1]: first}}]
    if rule == "balanced":   # FIDE's colour allocation: the first of the pair has the first side
        return [{"game": base, "pair": index, "sides": {sides[0]: first, sides[1]: second}}]
    if rule == "bid":
        chosen, bid = _by_bid(state, draws, first, second, sides)
        return [{"game": base, "pair": index, "sides": chosen, "bid": bid}]
    flip = draws.below(2, f"sides of pair {index}")
    a, b = (first, second) if flip == 0 else (second, first)
    return [{"game": base, "pair": index, "sides": {sides[0]: a, sides[1]: b}}]


def _by_bid(state: EventState, draws: Draws, first: str, second: str,
            sides: list[str]) -> tuple[dict[str, str], dict[str, Any] | None]:
    """Each player's standing bid 'SIDE:AMOUNT'. Different wishes: both get theirs. The
    same side: the higher bid takes it (equal bids: the draw). No wish: the draw."""
    bids = {p: state.players[p].get("bid") for p in (first, second)}
    wants = {p: (b["side"], float(b["amount"])) for p, b in bids.items() if b and b.get("side") in sides}
    if len(wants) == 2 and wants[first][0] != wants[second][0]:
        return {wants[first][0]: first, wants[second][0]: second}, None
    if len(wants) == 1:
        (player, (side, amount)), = wants.items()
        other = second if player == first else first
        return {side: player, next(s for s in sides if s != side): other}, {"player": player, "side": side,
                                                                               "amount": amount}
    if len(wants) == 2 and wants[first][1] != wants[second][1]:
        player = first if wants[first][1] > wants[second][1] else second
    else:
        player = (first, second)[draws.below(2, f"bid between {first} and {second}")]
    other = second if player == first else first
    if player in wants:
        side, amount = wants[player]
        return ({side: player, next(s for s in sides if s != side): other},
                {"player": player, "side": side, "amount": amount})
    return {sides[0]: player, sides[1]: other}, None
