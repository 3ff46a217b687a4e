"""Exact odds and the automatic choices (odds.py)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.games.port_arthur import odds
from adjudicator.games.port_arthur.rules.battle import DAMAGED, INTACT, fire_result, hit_steps, strike
from adjudicator.games.port_arthur.state import Ship


def ship(name, fp=(4, 2), sp=(5, 4), defense=2, damaged=False):
    return Ship(name, "russia", fp, sp, defense, "Yellow Sea", damaged)


def test_outcomes_cover_all_rolls():
    for n in odds.DICE_COUNTS:
        assert sum(ways for _, ways in odds.outcomes(n)) == 6 ** n


def test_one_die():
    o = odds.fire_odds(5, 1)
    assert o.full_success == Fraction(5, 6)
    assert o.expected_hits == Fraction(5, 6) and o.expected_criticals == 0


def test_two_dice_against_twelve():
    o = odds.fire_odds(12, 2)
    assert o.full_success == 1 and o.expected_hits == 2
    assert o.expected_criticals == Fraction(6, 36)  # doubles


def test_matches_brute_force():
    for sfp, n, mode in [(7, 3, "less-than"), (19, 4, "at-most"), (4, 2, "less-than")]:
        rolls = list(itertools.product(range(1, 7), repeat=n))
        hits = sum(fire_result(r, sfp, mode).hits for r in rolls)
        crits = sum(fire_result(r, sfp, mode).criticals for r in rolls)
        o = odds.fire_odds(sfp, n, mode)
        assert o.expected_hits == Fraction(hits, len(rolls))
        assert o.expected_criticals == Fraction(crits, len(rolls))
        assert sum(o.hits) == 1


def test_rulebook_partial_hits():
    """Naval Battle example: 4 4 5 5 5 6 against SFP 19: 6+5+5 = 16 < 19, three hits."""
    assert fire_result((4, 4, 5, 5, 5, 6), 19).hits == 3


def test_best_dice_count():
    assert odds.best_dice_count(5) == 1
    assert odds.best_dice_count(40) == 6
    assert odds.best_dice_count(28, counts=[1, 2, 3]) == 3
    for sfp in range(1, 45):
        best = odds.best_dice_count(sfp)
        effects = {o.count: o.expected_effect for o in odds.odds_table(sfp)}
        assert effects[best] == max(effects.values())


def test_auto_hits_rulebook_example():
    """The Russians' six hits in the rulebook example: flipping the three intact ships and
    sinking Poltava is the least loss."""
    squadron = [ship("Tsesarevich", (7, 5), (4, 3), 3, True), ship("Retvizan", (7, 5), (4, 3), 3, True),
                ship("Poltava", (6, 4), (4, 3), 3), ship("Diana", (5, 4), (5, 4), 2),
                ship("Sevastopol", (6, 5), (4, 3), 3)]
    assert odds.auto_hits(6, squadron) == ["flip Poltava", "flip Diana", "flip Sevastopol", "sink Poltava"]
    protected = odds.auto_hits(6, squadron, protect=["Poltava"])
    assert not any("Poltava" in a for a in protected)


def replay(ships, hits, actions):
    """Apply ``actions`` with the rules' steps; return the final statuses (fails if illegal)."""
    index = {s.name: i for i, s in enumerate(ships)}
    statuses = tuple(DAMAGED if s.damaged else INTACT for s in ships)
    defenses = tuple(s.defense for s in ships)
    for text in actions:
        verb, name = text.split(" ", 1)
        i = index[name]
        step = next(st for st in hit_steps(statuses, defenses, hits) if st[:2] == (verb, i))
        statuses, hits = strike(statuses, i), hits - step[2]
    assert not hit_steps(statuses, defenses, hits), "hits left unused"
    return statuses


def all_outcomes(ships, hits):
    statuses = tuple(DAMAGED if s.damaged else INTACT for s in ships)
    defenses = tuple(s.defense for s in ships)
    found, todo = set(), [(statuses, hits)]
    while todo:
        node = todo.pop()
        steps = hit_steps(node[0], defenses, node[1])
        if not steps:
            found.add(node[0])
        todo += [(strike(node[0], i), node[1] - used) for _, i, used in steps]
    return found


squadrons = st.lists(
    st.builds(lambda fp, sp, d, dmg: (fp, sp, d, dmg), st.integers(2, 7), st.integers(3, 6),
              st.integers(1, 3), st.booleans()),
    min_size=1, max_size=5,
).map(lambda specs: [ship(f"S{i}", (fp, max(1, fp - 2)), (sp, sp - 1), d, dmg)
                     for i, (fp, sp, d, dmg) in enumerate(specs)])


@settings(max_examples=150, deadline=None)
@given(squadrons, st.integers(1, 6), st.sampled_from(["auto", "sink damaged first", "flip intact first"]))
def test_auto_hits_is_legal_and_best(ships, hits, prefer):
    actions = odds.auto_hits(hits, ships, prefer=prefer)
    end = replay(ships, hits, actions)
    start = tuple(DAMAGED if s.damaged else INTACT for s in ships)
    best = min(odds.hits_score(ships, start, o, (), prefer) for o in all_outcomes(ships, hits))
    assert odds.hits_score(ships, start, end, (), prefer) == best


@settings(max_examples=100, deadline=None)
@given(squadrons, st.integers(1, 8))
def test_auto_criticals_is_legal(ships, count):
    from adjudicator.games.port_arthur.rules.battle import critical_steps

    chosen = odds.auto_criticals(count, ships, priority=[ships[-1].name])
    index = {s.name: i for i, s in enumerate(ships)}
    statuses = tuple(DAMAGED if s.damaged else INTACT for s in ships)
    for name in chosen:
        assert index[name] in critical_steps(statuses)
        statuses = strike(statuses, index[name])
    assert len(chosen) == count or not critical_steps(statuses)


def test_auto_criticals_prefers_biggest_loss_then_sinks():
    ships = [ship("A", (7, 5)), ship("B", (6, 3)), ship("C", (2, 1), damaged=True)]
    assert odds.auto_criticals(4, ships) == ["B", "A", "A", "B"]


def test_mines_and_attack():
    ships = [ship("Big", (7, 5), defense=3), ship("Small", (2, 1), defense=1),
             ship("Wreck", (6, 3), damaged=True)]
    assert odds.auto_mines(1, ships) == ["Small"]
    assert odds.auto_mines(2, ships, priority=["Wreck"]) == ["Wreck", "Small"]
    assert odds.auto_attack(2, ships) == ["Big", "Wreck"]
