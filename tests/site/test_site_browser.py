"""The public archive in a real headless chromium: readable at 360 px (a phone) and at
1000 px (no page wider than the window, no text running out of its box), and built for
screen readers (landmarks, one h1 and headings in order, every picture named, tables
with header cells), in the reports' palette."""

from __future__ import annotations

import pytest

from adjudicator.site import build_site
from tests.browser import laid_out
from tests.site.conftest import PLAYERS, play

#: what a screen reader finds on the page, and the body's colours
MEASURE = """
<script>
function measure() {
  const named = (el) => el.getAttribute("aria-label") || el.querySelector(":scope > title") ||
                        el.getAttribute("aria-hidden") === "true" || el.closest("figure")?.querySelector("figcaption");
  const levels = [...document.querySelectorAll("main h1, main h2, main h3, main h4")].map(h => +h.tagName[1]);
  const situation = (el) => el.closest(".situation");
  return {
    landmarks: ["header", "nav", "main", "footer"].filter(tag => document.querySelector(tag)),
    h1: document.querySelectorAll("h1").length,
    skipped: levels.filter((level, i) => i > 0 && level > levels[i - 1] + 1).length,
    unnamed_pictures: [...document.querySelectorAll("svg, img")]
        .filter(el => el.tagName === "IMG" ? !el.alt : !named(el)).length,
    pictures: document.querySelectorAll("svg").length,
    tables_without_headers: [...document.querySelectorAll("table")].filter(t => !t.querySelector("th")).length,
    own_tables_without_scope: [...document.querySelectorAll("table")].filter(t => !situation(t))
        .filter(t => [...t.querySelectorAll("thead th")].some(th => !th.getAttribute("scope"))).length,
    unlabelled_navs: [...document.querySelectorAll("nav")].filter(n => !n.getAttribute("aria-label")).length,
    body: [getComputedStyle(document.body).color, getComputedStyle(document.body).fontFamily],
    th: getComputedStyle(document.querySelector("th") || document.body).backgroundColor,
    escaping: [...document.querySelectorAll("body *:not(svg):not(svg *)")].filter(el => !situation(el))
        .filter(el => el.getBoundingClientRect().right > window.innerWidth + 1).map(el => el.tagName).slice(0, 5),
  };
}
</script>
"""

WIDTHS = (360, 1000)


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """A finished Port Arthur campaign's site and a running one's with the fog of war."""
    from adjudicator.campaign import Campaigns
    from adjudicator.fairdice import generate_keypair
    from adjudicator.store import Store
    from tests.campaign.conftest import answer_automatically
    from tests.site.conftest import random_answers

    folder = tmp_path_factory.mktemp("sites")
    key = generate_keypair()[0]
    with pytest.MonkeyPatch.context() as monkeypatch, Store.open(folder / "campaigns.sqlite3") as store:
        campaigns = Campaigns(store)
        answer_automatically(monkeypatch, random_answers(7), names=("port-arthur",))
        campaigns.create("done", "port-arthur", PLAYERS, key)
        play(campaigns, key, "done")
        monkeypatch.undo()
        answer_automatically(monkeypatch, random_answers(8), names=("port-arthur",))
        campaigns.create("fog", "port-arthur", PLAYERS, key, options={"fog_of_war": True})
        play(campaigns, key, "fog", steps=4)
        for name in ("done", "fog"):
            build_site(campaigns.export_public(name), folder / name, key)
    return folder


#: by default a step page with its picture at both widths and a sealed step at a phone's;
#: the soaks (ADJUDICATOR_SOAK=1) lay out every kind of page at both widths (about a minute more)
CASES = [("done", "step-003.html", 360), ("done", "step-003.html", 1000), ("fog", "step-001.html", 360)] + [
    pytest.param(site, page, width, marks=pytest.mark.soak)
    for site, page in (("done", "index.html"), ("done", "dice.html"), ("done", "history.html"), ("fog", "index.html"))
    for width in WIDTHS]


@pytest.mark.parametrize("site, page, width", CASES)
def test_a_page_of_the_site_is_readable_at_the_width_and_by_a_screen_reader(sites, site, page, width):
    text = (sites / site / page).read_text(encoding="utf-8")
    assert ("Sealed:" in text) == (site == "fog" and page.startswith("step"))  # a running fog of war is sealed
    found = laid_out(text, sites / site, width, f"laid-out-{page[:-5]}-{width}", MEASURE)
    assert found["page"][0] <= found["page"][1], f"the page is wider than the window: {found['page']}"
    assert not found["escaping"], found["escaping"]
    assert found["landmarks"] == ["header", "nav", "main", "footer"]
    assert found["h1"] == 1 and found["skipped"] == 0
    assert found["unnamed_pictures"] == 0 and found["tables_without_headers"] == 0
    assert found["own_tables_without_scope"] == 0 and found["unlabelled_navs"] == 0
    assert found["body"][0] == "rgb(34, 34, 34)" and "Georgia" in found["body"][1]  # the reports' palette
    if page.startswith("step") and site == "done":
        assert found["pictures"] >= 1
