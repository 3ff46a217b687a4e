"""The picture of the table in Tsushima's HTML report, laid out by a real headless
browser (Debian's chromium): the SVG is there with every ship, every ship and label
sits inside the picture, every ship label and the panel's text is drawn at 9 pixels or
more, the legend is there, and nothing in the page overflows at 1000 or 420 pixels. Set
ADJUDICATOR_REQUIRE_CHROMIUM=1 (as .ci/run does) to fail rather than skip without a
browser; ADJUDICATOR_SCREENSHOTS=<folder> keeps the screenshots to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import browser
from tests.games.tsushima_1905.test_report import played, rendered

#: ``measure()``: what the browser finds in the laid-out picture (tests/browser.py adds the page's width and overflows).
MEASURE = """
<script>
function measure() {
  const inside = (inner, outer) => inner.left >= outer.left - 0.5 && inner.top >= outer.top - 0.5 &&
    inner.right <= outer.right + 0.5 && inner.bottom <= outer.bottom + 0.5;
  const svg = document.querySelector("figure.tsushima-table svg");
  const box = svg ? svg.getBoundingClientRect() : null;
  const found = {svg: box ? [box.width, box.height] : null, ships: [], outside: [], small: [], legend: []};
  if (svg) {
    svg.querySelectorAll("text.ts-label, .ts-panel text").forEach(t => {
      const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
      if (px < 9) found.small.push(t.textContent + " " + px.toFixed(1) + "px");
    });
    svg.querySelectorAll(".ts-legend text").forEach(t => found.legend.push(t.textContent));
    found.right = Math.max(...[...document.body.querySelectorAll("*")].map(e => e.getBoundingClientRect().right));
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
  return found;
}
</script>
"""


#: headless chromium lays a page out at least 500 pixels wide, whatever its window: a
#: narrower screen is shown by giving the page that width
NARROWEST_WINDOW = 500


def laid_out(html: str, folder: Path, width: int, name: str) -> dict:
    if width < NARROWEST_WINDOW:
        html = html.replace("</head>", f"<style>html {{ width: {width}px; }}</style></head>", 1)
    return browser.laid_out(html, folder, width, name, MEASURE, height=6000)


def played_report(steps: int):
    """Japan's HTML report after ``steps`` steps between reasonable players, with fixed
    stand-ins for everything random in a campaign (seeds, hashes, dates)."""
    match = played(steps)
    return match, rendered(match, "japan")[1].html


@pytest.mark.parametrize("width", [1000, 420])
@pytest.mark.parametrize("steps", [0, 120], ids=["set-up", "turn-2-after-gunfire"])
def test_the_html_report_shows_the_table_with_every_ship_and_nothing_overflows(tmp_path, steps, width):
    match, html = played_report(steps)
    assert html.count("<svg") == 1

    found = laid_out(html, tmp_path, width, f"tsushima-{steps}-{width}")

    assert found["svg"] and found["svg"][0] <= width and found["svg"][1] > 200
    assert sorted(found["ships"]) == sorted(match.state.ships) and len(found["ships"]) == 26
    assert found["outside"] == [] and found["overflowing"] == []
    assert found["page"][0] <= found["page"][1] and found["right"] <= width
    assert found["small"] == []                  # every ship label and the panel at 9 px or more
    assert {"Japan", "Russia", "flagship", "surrendered", "abandoned", "fires (red), floods (blue)",
            "gunfire: dice, hits, effects"} <= set(found["legend"])


#: ``measure()``: the gunfire labels, and each pair of them that overlaps.
LABELS = """
<script>
function measure() {
  const boxes = [...document.querySelectorAll("text.fire-label")].map(t => {
    const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.top, r.right, r.bottom]; });
  const overlapping = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
    if (a[1] < b[3] && b[1] < a[3] && a[2] < b[4] && b[2] < a[4]) overlapping.push([a[0], b[0]]);
  }));
  return {labels: boxes.length, overlapping: overlapping};
}
</script>
"""


def test_gunfire_labels_do_not_overlap_when_a_line_abreast_fires_at_one_target(tmp_path):
    from adjudicator.games.tsushima_1905.game import Tsushima1905
    from adjudicator.games.tsushima_1905.report import render_svg

    game = Tsushima1905()
    view = game.view(game.new_state({}, {}), None)
    target = next(s for s in view["ships"] if s["name"] == "Kniaz Suvorov")
    firers = [s for s in view["ships"] if s["side"] == "japan"][:6]
    for i, ship in enumerate(firers):          # six ships abreast, 1 BL apart, 8 BL north of the target
        ship["x"], ship["y"] = target["x"] - 2500 + 1000 * i, target["y"] + 8000
    view["log"] = [{"kind": "fire", "ship": s["name"], "target": target["name"], "dice": 3, "hits": i % 3,
                    "effects": ["fire"] if i % 2 else [], "from": [s["x"], s["y"]],
                    "to": [target["x"], target["y"]]} for i, s in enumerate(firers)]
    html = f"<!DOCTYPE html><html><body>{render_svg(view)}</body></html>"
    found = browser.laid_out(html, tmp_path, 1000, "tsushima-gunfire-labels", LABELS, height=1000)
    assert found["labels"] == 6 and found["overlapping"] == []


def test_gunfire_labels_do_not_overlap_in_a_played_report(tmp_path):
    _, html = played_report(120)
    found = browser.laid_out(html, tmp_path, 1000, "tsushima-played-labels", LABELS, height=6000)
    assert found["overlapping"] == []
