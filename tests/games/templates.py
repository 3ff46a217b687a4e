"""The template check of the game contract, for any game: each question's template,
as a player's report prints it between BEGIN ORDERS and END ORDERS (the header lines,
then ``report.answer_hint(decision)``), is a skeleton of the game's orders filled with
the default answer, the choices as comments. So, as it stands, it must:

- be read by the game's orders language without a single problem;
- answer the question (``answers.answer_for``) with a legal answer, the same as the
  game's default for silence (``answers.default_answer``): every key of the default's
  JSON with the same value (the answer from orders may say more, such as which step
  of a plan gave it);
- keep every line within 74 columns, comments included, so that the report, which
  prints the template indented by 4, keeps it within 78 columns unwrapped (a long
  list of choices is broken over several comment lines).

:func:`template_problems` plays random games of a game and checks the template of
every question met (a few of each kind). ``tests/games/test_game_contract.py`` runs it
over every game (``TEMPLATE_GAMES`` there: Port Arthur, the Russo-Japanese War,
Tsushima and the toy game); a new game joins the list with its templates written
this way.
"""

from __future__ import annotations

import json
import random
from typing import Any, Mapping

from adjudicator.engine import Match
from adjudicator.orders import OrdersError, parse_orders

WIDTH = 74
PER_KIND = 3


def template_text(decision: Any, state: Any, hint: list[str]) -> str:
    """The orders a player sends who keeps the template as the report prints it."""
    header = ["campaign: c", f"side: {decision.side}", f"turn: {getattr(state, 'turn', 1)}", "password: x"]
    return "\n".join(["BEGIN ORDERS", *header, *hint, "END ORDERS", ""])


def _as_json(decision: Any, answer: Mapping[str, Any]) -> Any:
    typed = decision.accept(answer)
    to_json = getattr(typed, "to_json", None)
    return json.loads(json.dumps(to_json() if to_json is not None else dict(answer), sort_keys=True, default=str))


def check_template(plugin: Any, decision: Any, state: Any) -> list[str]:
    """What is wrong with the template of ``decision`` asked in ``state`` (empty: nothing)."""
    hint = plugin.report.answer_hint(decision)
    where = f"{plugin.name}, {decision.kind} ({decision.side})"
    problems = [f"{where}: line longer than {WIDTH} columns: {line!r}" for line in hint if len(line) > WIDTH]
    try:
        orders = parse_orders(template_text(decision, state, hint), plugin.name, state=state)
    except OrdersError as err:
        return problems + [f"{where}: the template does not read as it stands: "
                           + "; ".join(f"line {p.line}: {p.message}" for p in err.problems)]
    answer = plugin.answers.answer_for(decision, state, orders)
    if answer is None:
        return problems + [f"{where}: the template does not answer the question"]
    default = plugin.answers.default_answer(decision, state)
    given, wanted = _as_json(decision, answer), _as_json(decision, default)
    if not isinstance(given, dict) or not isinstance(wanted, dict) or any(
            given.get(key, object()) != value for key, value in wanted.items()):
        problems.append(f"{where}: the template answers {given}, the default is {wanted}")
    return problems


def template_problems(plugin: Any, options: Mapping[str, Any], seeds: range = range(2)) -> list[str]:
    """Every template problem met in random games of ``plugin`` under ``options``."""
    problems: list[str] = []
    for seed in seeds:
        rng = random.Random(seed)
        chooser, dice = plugin.player(rng), plugin.dice(rng)
        match, checked = Match(plugin.game(), {}, options), {}
        while not match.finished:
            if match.chance is not None:
                match.supply(dice(match.chance))
                continue
            for decision in match.decisions:
                if checked.get(decision.kind, 0) < PER_KIND:
                    checked[decision.kind] = checked.get(decision.kind, 0) + 1
                    problems += [p for p in check_template(plugin, decision, match.state) if p not in problems]
            for decision in match.decisions:
                match.answer(decision.side, chooser(decision, match.state))
    return problems
