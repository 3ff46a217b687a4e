"""The picture of the board in Port Arthur's HTML report, laid out by a real headless
browser (Debian's chromium): the picture is there, every counter and label sits inside
its box, and nothing in the page overflows. Set ADJUDICATOR_REQUIRE_CHROMIUM=1 (as
.ci/run does) to fail rather than skip without a browser."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.reports.render import render
from tests import browser
from tests.pipeline.test_pipeline_reports import golden_context


#: ``measure()``: what the browser finds in the laid-out board (tests/browser.py adds the page's width and overflows).
MEASURE = """
<script>
function measure() {
  const inside = (inner, outer) => inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;
  const svg = document.querySelector("svg.board");
  const box = svg ? svg.getBoundingClientRect() : null;
  const found = {svg: box ? [box.width, box.height] : null, outside: [], counters: 0};
  document.querySelectorAll("svg.board g.place").forEach(place => {
    const frame = place.querySelector("rect.frame").getBBox();
    place.querySelectorAll("text").forEach(t => { if (!inside(t.getBBox(), frame)) found.outside.push(t.textContent); });
    place.querySelectorAll("g.counter").forEach(c => {
      found.counters += 1;
      const text = c.querySelector("text").getBBox(), rect = c.querySelector("rect").getBBox();
      if (!inside(text, rect)) found.outside.push(c.querySelector("text").textContent);
    });
  });
  document.querySelectorAll("svg.board g.space").forEach(s => {
    if (!inside(s.querySelector("text").getBBox(), s.querySelector("rect").getBBox()))
      found.outside.push(s.querySelector("text").textContent);
  });
  return found;
}
</script>
"""


def laid_out(html: str, folder: Path, width: int, name: str) -> dict:
    return browser.laid_out(html, folder, width, name, MEASURE)


@pytest.mark.parametrize("stop, options", [((2, "sortie"), {}), ((1, "navo"), {"fog_of_war": True})],
                         ids=["in-port", "at-sea-under-fog"])
def test_the_html_report_shows_a_picture_of_the_board_with_every_ship_inside_its_box(tmp_path, stop, options):
    context = golden_context(stop=stop, options=options)
    html = render(context).html
    assert html.count("<svg") == 1 and 'data-place="Yellow Sea"' in html and 'data-track="Manchuria"' in html

    found = laid_out(html, tmp_path, 1000, f"report-japan-{stop[0]}-{stop[1]}")

    assert found["svg"] and found["svg"][0] > 600 and found["svg"][1] > 300
    ships = [s for s in context["game"]["picture"]["boxes"] for s in s["counters"]]
    assert found["counters"] == len(ships) > 15
    assert found["outside"] == [] and found["overflowing"] == []
    assert found["page"][0] <= found["page"][1]


def test_on_a_narrow_screen_the_report_does_not_overflow(tmp_path):
    found = laid_out(render(golden_context()).html, tmp_path, 420, "report-narrow")
    assert found["svg"] and found["svg"][0] <= 420
    assert found["overflowing"] == [] and found["page"][0] <= found["page"][1]


def test_under_the_fog_of_war_the_picture_shows_only_the_top_ship_of_each_enemy_squadron():
    context = golden_context(stop=(1, "navo"), options={"fog_of_war": True})
    state = context["match_for_tests"].state
    zones = [box for box in context["game"]["picture"]["boxes"] if box["zone"]]
    html = render(context).html
    for box in zones:
        russians = [s for s in state.ships.values() if s.side == "russia" and s.at == box["name"]]
        drawn = [c for c in box["counters"] if c["side"] == "russia"]
        assert len(drawn) == (1 if russians else 0), box["name"]
        if len(russians) > 1:
            assert f"on top of {len(russians) - 1} hidden ship(s)" in drawn[0]["title"]
            hidden = [s.name for s in russians if not drawn[0]["title"].startswith(s.name)]
            assert [name for name in hidden if name in html] == []
    assert any(len([s for s in state.ships.values() if s.side == "russia" and s.at == box["name"]]) > 1
               for box in zones)
