"""The picture of the table in Tsushima's HTML report, laid out by a real headless
browser (Debian's chromium): the SVG is there with every ship, every ship and label
sits inside the picture, and nothing in the page overflows at 1000 or 420 pixels. Set
ADJUDICATOR_REQUIRE_CHROMIUM=1 (as .ci/run does) to fail rather than skip without a
browser; ADJUDICATOR_SCREENSHOTS=<folder> keeps the screenshots to look at."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest

from adjudicator.games import get as support
from adjudicator.reports import render
from adjudicator.reports.context import report_context
from tests import browser
from tests.tsushima_1905.test_report import played

#: Measures the picture in the browser and writes the findings into the page.
MEASURE = """
<script>
window.addEventListener("load", () => {
  const inside = (inner, outer) => inner.left >= outer.left - 0.5 && inner.top >= outer.top - 0.5 &&
    inner.right <= outer.right + 0.5 && inner.bottom <= outer.bottom + 0.5;
  const svg = document.querySelector("figure.tsushima-table svg");
  const box = svg ? svg.getBoundingClientRect() : null;
  const found = {svg: box ? [box.width, box.height] : null, ships: [], outside: [], overflowing: [],
                 page: [document.documentElement.scrollWidth, window.innerWidth]};
  if (svg) {
    const table = svg.querySelector("rect.table").getBoundingClientRect();
    svg.querySelectorAll("g.ship").forEach(ship => {
      const name = ship.querySelector("title").textContent.split(" (")[0];
      found.ships.push(name);
      const hull = ship.querySelector("polygon").getBoundingClientRect();
      if (!ship.classList.contains("sunk") && !inside(hull, table)) found.outside.push("hull of " + name);
    });
    svg.querySelectorAll("text").forEach(t => {
      if (!inside(t.getBoundingClientRect(), box)) found.outside.push(t.textContent);
    });
  }
  document.querySelectorAll("body *:not(svg):not(svg *)").forEach(el => {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== "inline")
      found.overflowing.push(el.tagName + ": " + el.textContent.slice(0, 60));
  });
  const out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
});
</script>
"""


def laid_out(html: str, folder: Path, width: int, name: str) -> dict:
    return browser.laid_out(html, folder, width, name, MEASURE, height=6000)


def played_report(steps: int):
    """Japan's HTML report after ``steps`` steps between reasonable players, with fixed
    stand-ins for everything random in a campaign (seeds, hashes, dates)."""
    match = played(steps)
    log = SimpleNamespace(campaign="golden-1905", next_batch=3, records=[SimpleNamespace(hash="c0" * 32)],
                          charter={"options": {}, "chain": {"anchor": "a0" * 32}})
    batch = SimpleNamespace(body={"batch": 2, "seed": "5e" * 32, "contributions": {},
                                  "entries": match.history_json()})
    context = report_context(log=log, match=match, events=match.events, side="japan",
                             player="Heihachiro Togo <togo@japan.test>",
                             deadline=datetime(1905, 5, 28, 12, 0, tzinfo=timezone.utc),
                             game_support=support("tsushima-1905"), defaults=(), refused=(), batch=batch)
    return match, render(context).html


@pytest.mark.parametrize("width", [1000, 420])
@pytest.mark.parametrize("steps", [0, 120], ids=["set-up", "turn-2-after-gunfire"])
def test_the_html_report_shows_the_table_with_every_ship_and_nothing_overflows(tmp_path, steps, width):
    match, html = played_report(steps)
    assert html.count("<svg") == 1

    found = laid_out(html, tmp_path, width, f"tsushima-{steps}-{width}")

    assert found["svg"] and found["svg"][0] <= width and found["svg"][1] > 200
    assert sorted(found["ships"]) == sorted(match.state.ships) and len(found["ships"]) == 26
    assert found["outside"] == [] and found["overflowing"] == []
    assert found["page"][0] <= found["page"][1]
