"""One way to do each thing: each of these is done by one helper, and no other module
does it by hand (a second copy drifts: 7 atomic writes, 3 canonical JSON writers with
different float rules, 3 Jinja environments and 2 HTML-to-text converters were found)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "adjudicator"

ONE_WAY = [
    ("replacing a file atomically", r"os\.replace\(|mkstemp\(", "files.py"),
    ("the canonical JSON text", r"sort_keys=True,\s*separators=", "canonical.py"),
    ("the Jinja environment", r"jinja2\.Environment\(", "reports/render.py"),
    ("HTML to text", r"\(HTMLParser\)", "mail/htmltext.py"),
    ("the cache folder", r"XDG_CACHE_HOME\"|\"ADJUDICATOR_CACHE\"", "resources.py"),
]


@pytest.mark.parametrize("what, pattern, helper", ONE_WAY, ids=[w for w, _, _ in ONE_WAY])
def test_only_its_helper_does_it(what, pattern, helper):
    doing = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                   if re.search(pattern, path.read_text(encoding="utf-8")))
    assert doing == [helper], f"{what} is done outside {helper}: use it there"
