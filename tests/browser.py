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
  if (window.parent !== window) window.parent.postMessage(out.textContent, "*");
});
</script>
"""

#: headless chromium's window is at least this many pixels wide, whatever it is asked for
NARROWEST_WINDOW = 500

#: A page that shows another in a frame of a phone's width (the frame's window is then as
#: narrow as the phone's: its media queries and ``innerWidth`` see that width), and keeps
#: what the framed page measured.
FRAME = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>body {{ margin: 0; }} iframe {{ border: 0; display: block; }}</style></head>
<body><iframe src="{page}" width="{width}" height="{height}"></iframe>
<script>
window.addEventListener("message", event => {{
  const out = document.createElement("pre");
  out.id = "measured";
  out.textContent = event.data;
  document.body.appendChild(out);
}});
</script></body></html>
"""


def headless(folder: Path, budget_ms: int, *flags: str) -> list[str]:
    """The command line of a headless chromium that runs a page's scripts for up to
    ``budget_ms`` of virtual time (its profile in ``folder``). Without a browser the test
    is skipped, saying so, or fails with ADJUDICATOR_REQUIRE_CHROMIUM=1 (as in CI)."""
    if BROWSER is None:
        if os.environ.get("ADJUDICATOR_REQUIRE_CHROMIUM") == "1":
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("no headless browser (apt-get install chromium)")
    return [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", *flags, f"--virtual-time-budget={budget_ms}",
            f"--user-data-dir={folder / 'profile'}"]


def dumped_dom(page: Path, folder: Path, budget_ms: int = 30000, timeout: int = 120, *flags: str) -> str:
    """The DOM of ``page`` after a real headless chromium ran its scripts (see :func:`headless`)."""
    return subprocess.run([*headless(folder, budget_ms, *flags), "--dump-dom", page.as_uri()],
                          capture_output=True, timeout=timeout, check=True, text=True).stdout


def laid_out(html: str, folder: Path, width: int, name: str, measure: str, height: int = 4400) -> dict:
    """The page laid out by the browser at ``width`` pixels: what the ``measure`` script's
    ``measure()`` found, with the page's width and overflows (:data:`REPORT`). A screenshot
    is taken too. A width under :data:`NARROWEST_WINDOW` (a phone's) is a frame of that
    width in a window of the narrowest width."""
    window = ("--hide-scrollbars", f"--window-size={max(width, NARROWEST_WINDOW)},{height}")
    common = headless(folder, 5000, *window)
    page = folder / f"{name}.html"
    page.write_text(html.replace("</body>", measure + REPORT + "</body>"), encoding="utf-8")
    if width < NARROWEST_WINDOW:
        framed = folder / f"{name}-in-{width}px.html"
        framed.write_text(FRAME.format(page=page.name, width=width, height=height), encoding="utf-8")
        page = framed
    shot = Path(SHOTS) if SHOTS else folder
    shot.mkdir(parents=True, exist_ok=True)
    subprocess.run([*common, f"--screenshot={shot / (name + '.png')}", page.as_uri()],
                   capture_output=True, timeout=120, check=True)
    assert (shot / f"{name}.png").stat().st_size > 10_000
    dom = dumped_dom(page, folder, 5000, 120, *window)
    marker = '<pre id="measured">'
    assert marker in dom, dom[-2000:]
    return json.loads(dom.split(marker, 1)[1].split("</pre>", 1)[0].replace("&quot;", '"').replace("&amp;", "&"))
