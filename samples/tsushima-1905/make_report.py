#!/usr/bin/env python3
"""Run from the project folder: .venv/bin/python samples/tsushima-1905/make_report.py

Writes samples/tsushima-1905/report-turn-1.{svg,txt}: the table after turn 1 played
from the sample orders of both sides."""
import random
from pathlib import Path
from adjudicator.engine import Match
from adjudicator.orders import parse_orders
from adjudicator.games.tsushima_1905.players import random_dice
from adjudicator.games.tsushima_1905.game import Tsushima1905
from adjudicator.games.tsushima_1905.plans import Plans
from adjudicator.games.tsushima_1905.report import plot_with_legend, render_svg, ship_table

SEED = 1906
FOLDER = Path(__file__).resolve().parent


def build() -> tuple[str, str]:
    """The SVG and the text of the sample report."""
    orders = {side: parse_orders((FOLDER / f"{side}-orders.txt").read_text(), "tsushima-1905")
              for side in ("japan", "russia")}
    game, plans, chance = Tsushima1905(), Plans(orders), random_dice(random.Random(SEED))
    match = Match(game, pause_on=lambda e: e.kind == "phase" and e.data.get("phase") == "repair")
    while match.paused_at is None and not match.finished:
        if match.chance is not None:
            match.supply(chance(match.chance))
        else:
            match.answer(match.decision.side, plans(match.decision, match.state))
    view = game.view(match.state, None)
    text = ("Tsushima 1905 - turn 1, after the action phases (sample orders of both sides)\n\n"
            + plot_with_legend(view) + "\n\n" + ship_table(view) + "\n\n"
            + "\n".join(e.text for e in match.events if e.kind != "phase") + "\n")
    return render_svg(view, asked="Mikasa"), text


if __name__ == "__main__":
    svg, text = build()
    (FOLDER / "report-turn-1.svg").write_text(svg)
    (FOLDER / "report-turn-1.txt").write_text(text)
