"""The ladder: players in order of registration; a challenger who beats a player up to
``challenge_reach`` places above takes that place, and those between move down one.
With two games per challenge (sides alternate), the challenger must score more."""

from __future__ import annotations

from adjudicator.mail.plain import line_wrapper
from adjudicator.tournament.state import EventState

#: a place's line in a mail's 78 columns: a long list of challenges goes on under the name
_LADDER_LINE = line_wrapper(hang=7)


def ladder_order(state: EventState) -> list[str]:
    order = [p for p in state.players]
    for info in state.rounds:
        if info.kind != "challenge" or not info.pairs:
            continue
        challenger, defender = info.pairs[0]
        results = [state.results.get(slot.game) for slot in info.games]
        if any(r is None for r in results):
            continue
        scored = {p: sum(r.points.get(p, 0.0) for r in results if r) for p in (challenger, defender)}
        if scored[challenger] > scored[defender] and order.index(challenger) > order.index(defender):
            order.remove(challenger)
            order.insert(order.index(defender), challenger)
    return order


def render_ladder(state: EventState) -> str:
    """The ladder's positions, top first, with what each player may challenge."""
    order = ladder_order(state)
    reach = int(state.charter.get("challenge_reach", 3))
    lines = [f"Ladder of {state.name} (a player may challenge up to {reach} place(s) above):"]
    for place, player in enumerate(order, start=1):
        mark = " (withdrawn)" if player in state.withdrawn else ""
        targets = [p for p in order[max(0, place - 1 - reach):place - 1] if p not in state.withdrawn]
        may = f"  may challenge {', '.join(targets)}" if targets and not mark else ""
        lines += _LADDER_LINE.wrap(f"{place:>3}  {player}{mark}{may}") or [f"{place:>3}  {player}"]
    return "\n".join(lines)
