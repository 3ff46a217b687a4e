"""The site carries the browser verifier (``verify.html``, with the site's own record
in it): opened in a real headless chromium, it says VERIFIED for the site's record."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.site import build_site
from tests.browser import dumped_dom
from tests.site.conftest import PLAYERS, play


def opened(page: Path, folder: Path) -> str:
    """The page's DOM after a real headless chromium ran its scripts."""
    return dumped_dom(page, folder, 30000, 180)


def verdict(page: Path, folder: Path) -> tuple[str | None, str]:
    found = re.search(r'<div id="verdict"([^>]*)>(.*?)</div>', opened(page, folder), re.S)
    assert found, "the page shows no verdict"
    status = re.search(r'data-status="(\w+)"', found.group(1))
    return (status.group(1) if status else None), html.unescape(found.group(2))


@pytest.mark.parametrize("options", [{}, {"fog_of_war": True}])
def test_the_site_s_verify_page_says_verified_for_the_site_s_record(campaigns, referee_key, tmp_path, options):
    campaigns.create("club-1904", "port-arthur", PLAYERS, referee_key, options=options)
    play(campaigns, referee_key, "club-1904")
    build_site(campaigns.export_public("club-1904"), tmp_path / "site")
    status, text = verdict(tmp_path / "site" / "verify.html", tmp_path)
    assert status == "verified" and text.startswith("VERIFIED"), text
    assert 'href="verify.html"' in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_the_site_of_a_finished_demo_opens_and_its_verify_page_says_verified(tmp_path, monkeypatch):
    """The archive's bar: 'adjudicator site demo --store ... -o DIR' on a finished demo."""
    from adjudicator.campaign.demo import run_demo
    from adjudicator.cli import site_cmd  # noqa: F401 - registers the command on the app
    from adjudicator.cli.app import app

    summary = run_demo(tmp_path / "demo", 7, {}, game="port-arthur")
    assert summary.verified and summary.result
    monkeypatch.setenv("ADJUDICATOR_KEY_PASSPHRASE", "")
    done = CliRunner().invoke(app, ["site", "demo", "--store", str(tmp_path / "demo" / "campaigns.sqlite3"),
                                    "--key", str(tmp_path / "demo" / "referee.key"), "-o", str(tmp_path / "site")])
    assert done.exit_code == 0, done.output
    index = opened(tmp_path / "site" / "index.html", tmp_path)
    assert "<h1>Port Arthur: campaign demo</h1>" in index and "The game is over" in index
    status, text = verdict(tmp_path / "site" / "verify.html", tmp_path)
    assert status == "verified", text
