"""A real headless browser for the HTML reports' tests: lay a page out and read back
what a measuring script found in it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

BROWSER = next((path for path in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if path), None)
SHOTS = os.environ.get("ADJUDICATOR_SCREENSHOTS")  # a folder: keep the screenshots there to look at

#: Run after layout: the test's own ``measure()``, plus what every page is checked for (its
#: width against the window's, and every element whose content overflows it), written into
#: a ``<pre id="measured">`` for :func:`laid_out` to read back.
REPORT = """
<script>
window.addEventListener("load", () => {
  const found = measure();
  found.page = [document.documentElement.scrollWidth, window.innerWidth];
  found.overflowing = [];
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


def laid_out(html: str, folder: Path, width: int, name: str, measure: str, height: int = 4400) -> dict:
    """The page laid out by the browser at ``width`` pixels: what the ``measure`` script's
    ``measure()`` found, with the page's width and overflows (:data:`REPORT`). A screenshot
    is taken too."""
    if BROWSER is None:
        if os.environ.get("ADJUDICATOR_REQUIRE_CHROMIUM") == "1":
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("no headless browser (apt-get install chromium)")
    page = folder / f"{name}.html"
    page.write_text(html.replace("</body>", measure + REPORT + "</body>"), encoding="utf-8")
    common = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              f"--window-size={width},{height}", "--virtual-time-budget=5000", f"--user-data-dir={folder / 'profile'}"]
    shot = Path(SHOTS) if SHOTS else folder
    shot.mkdir(parents=True, exist_ok=True)
    subprocess.run([*common, f"--screenshot={shot / (name + '.png')}", page.as_uri()],
                   capture_output=True, timeout=120, check=True)
    assert (shot / f"{name}.png").stat().st_size > 10_000
    dom = subprocess.run([*common, "--dump-dom", page.as_uri()], capture_output=True, timeout=120,
                         check=True, text=True).stdout
    marker = '<pre id="measured">'
    assert marker in dom, dom[-2000:]
    return json.loads(dom.split(marker, 1)[1].split("</pre>", 1)[0].replace("&quot;", '"').replace("&amp;", "&"))
