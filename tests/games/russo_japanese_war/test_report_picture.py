"""The map in the Russo-Japanese War HTML report, laid out by a real headless browser
(Debian's chromium) at 1000 and 420 pixels: every unit on the map is a counter whose
label (id, strength) is visible inside it, hex numbers and labels keep a
legible size, the roads, railway, rivers, all-sea hexsides, harbours, supply sources and
key locations are drawn, no hex number or counter label covers another, the legend
explains them, and nothing in the page overflows.
Set ADJUDICATOR_REQUIRE_CHROMIUM=1 to fail rather than skip without a browser, and
ADJUDICATOR_SCREENSHOTS=<folder> to keep the screenshots to look at."""

from __future__ import annotations

import pytest

from adjudicator.games.russo_japanese_war.hexmap import OFF_MAP
from tests import browser
from tests.games.russo_japanese_war.report_helpers import GAME, full_report, played

#: ``measure()``: what the browser finds in the laid-out map.
MEASURE = """
<script>
function measure() {
  const inside = (inner, outer) => inner.left >= outer.left - 0.5 && inner.top >= outer.top - 0.5 &&
    inner.right <= outer.right + 0.5 && inner.bottom <= outer.bottom + 0.5;
  const svg = document.querySelector("svg.rjw-map");
  const box = svg.getBoundingClientRect();
  const found = {svg: [box.width, box.height], counters: [], hidden: [], numbers: [], smallest: {},
                 drawn: {}, legend: [...document.querySelectorAll("ul.rjw-legend li")].map(li => li.dataset.kind)};
  const least = (key, height) => { found.smallest[key] = Math.min(found.smallest[key] || 1e9, height); };
  svg.querySelectorAll("g.counter").forEach(c => {
    const rect = c.querySelector("rect").getBoundingClientRect(), text = c.querySelector("text");
    const label = text.getBoundingClientRect();
    found.counters.push(text.textContent);
    if (!inside(label, rect) || label.width < 8) found.hidden.push(text.textContent);
    least("counter", label.height);
  });
  svg.querySelectorAll("text.hex-number").forEach(t => {
    const r = t.getBoundingClientRect();
    found.numbers.push(t.textContent);
    if (!inside(r, box)) found.hidden.push(t.textContent);
    least("hex number", r.height);
  });
  const boxes = [...svg.querySelectorAll("text.hex-number, g.counter text")].map(t => {
    const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.top, r.right, r.bottom]; });
  found.overlapping = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
    if (a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5 && a[2] < b[4] - 0.5 && b[2] < a[4] - 0.5)
      found.overlapping.push(a[0] + " / " + b[0]);
  }));
  ["road", "railway", "river", "sea", "harbour", "supply", "key", "town", "entry"].forEach(kind => {
    found.drawn[kind] = svg.querySelectorAll("." + kind).length;
  });
  return found;
}
</script>
"""


@pytest.mark.parametrize("width", [1000, 420])
def test_the_map_labels_every_unit_and_draws_the_features_with_a_legend(tmp_path, width):
    match = played(60)
    state = match.state
    html = full_report(match, "japan").html
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="rjw-map"') == 1

    # chromium's headless window is at least 500 pixels wide: a narrower screen is the page's own width
    html = html.replace("</head>", f"<style>html {{ width: {width}px; }}</style></head>")
    found = browser.laid_out(html, tmp_path, width, f"rjw-map-{width}", MEASURE, height=3000)

    on_map = sorted(f"{uid} " for uid, unit in state["units"].items() if unit["at"] not in OFF_MAP)
    assert sorted(label.split(" ")[0] + " " for label in found["counters"]) == on_map
    assert found["hidden"] == [] and found["overlapping"] == []      # hex numbers and counters' labels
    assert len(found["numbers"]) == 129
    assert found["svg"][0] <= width - 16 and found["page"][0] <= found["page"][1] and found["overflowing"] == []
    # the height of each label's box on the screen: at 1000 pixels the map is drawn 1.2 times its
    # user units (hex numbers and counters 13 units); at 420 it shrinks to the screen's width
    least = {1000: 17, 420: 8}[width]
    assert min(found["smallest"].values()) < least * 1.25, found["smallest"]   # measured, not vacuous
    assert min(found["smallest"].values()) >= least, found["smallest"]
    board = GAME.data.board
    assert found["drawn"] == {"road": len(board.roads), "railway": len(board.railways), "river": len(board.rivers),
                              "sea": len(board.sea), "harbour": len(board.harbours), "supply": 2, "key": 4,
                              "town": len(board.towns - set(board.key_locations)), "entry": 2}
    assert (len(board.roads), len(board.railways), len(board.rivers), len(board.sea)) == (34, 23, 26, 5)
    assert found["legend"] == ["clear", "wasteland", "town", "key", "supply", "harbour-southern", "harbour", "road",
                               "railway", "entry", "river", "sea", "japan", "russia", "zoc", "north"]
