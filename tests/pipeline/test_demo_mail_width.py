"""Every demo's mail, read as a mail program reads it: no text line of the
adjudicator's own mail (receipts, refusals, opening mails' introductions, notices)
is wider than 78 columns, and every report's HTML shows its picture as a PNG part
named by ``cid:``.

Port Arthur's demo runs in the default test run; the other two games' demos take a
minute or more each and run with the soaks (ADJUDICATOR_SOAK=1). The report parts are the
games' own (their templates wrap them) and are not held to the width here."""

from __future__ import annotations

import re

import pytest

from adjudicator.mail.plain import WIDTH, fit_text
from tests.pipeline.pipeline_helpers import PNG_SIGNATURE, cli, parse_eml


def generic_lines(message) -> list[str]:
    """The text lines the adjudicator writes itself: a whole receipt, refusal or
    notice; an opening mail's introduction (its report follows the first blank line)."""
    text = message.get_body(("plain",)).get_content()
    subject = str(message["Subject"])
    if " - report for " in subject:
        return []
    if "the campaign opens" in subject:
        text = text.split("\n\n", 1)[0]
    return text.splitlines()


def check_outbox(folder) -> tuple[int, int]:
    """Assert the width and the pictures over one demo's outbox; (mails, reports)."""
    mails = [parse_eml(p.read_bytes()) for p in sorted((folder / "outbox").glob("*.eml"))]
    too_wide = [(str(m["Subject"]), line) for m in mails for line in generic_lines(m) if len(line) > WIDTH]
    assert too_wide == []
    shown = [m for m in mails if m.get_body(("html",)) is not None]
    for message in shown:
        html = message.get_body(("html",)).get_content()
        images = re.findall(r'src="cid:([^"]+)" alt="([^"]*)"', html)
        assert images and "<svg" not in html, message["Subject"]
        parts = {str(p["Content-ID"]).strip("<>"): p for p in message.walk() if p["Content-ID"]}
        for cid, alt in images:
            png = parts[cid].get_content()
            # a picture is drawn whole; a legend's swatch (no alt text: its words follow) is small
            assert png[:8] == PNG_SIGNATURE and (len(png) > 1000 or alt == "")
        assert any(alt for _, alt in images), message["Subject"]
        assert len(message.as_bytes()) < 300_000
    return len(mails), len(shown)


def test_port_arthurs_demo_mail_fits_78_columns_and_shows_png_pictures(demo_run):
    assert demo_run.done.returncode == 0, demo_run.done.stderr
    mails, shown = check_outbox(demo_run.folder)
    assert mails > shown > 0


@pytest.mark.soak   # a minute or more each
@pytest.mark.parametrize("game", ["russo-japanese-war", "tsushima-1905"])
def test_every_games_demo_mail_fits_78_columns_and_shows_png_pictures(game, tmp_path):
    done = cli("demo", tmp_path / "demo", "--quiet", "--game", game, timeout=600)
    assert done.returncode == 0, done.stderr
    mails, shown = check_outbox(tmp_path / "demo")
    assert mails > shown > 0


def test_long_prose_lines_break_at_spaces_and_quoted_lines_stay_whole():
    digest = "0" * 64
    text = f"SHA-256 of the orders above: {digest}\n  quoted orders line {'x' * 80}\nshort"
    fitted = fit_text(text).split("\n")
    assert fitted == ["SHA-256 of the orders above:", f"    {digest}", f"  quoted orders line {'x' * 80}",
                      "short"]
    sentence = " ".join(["word"] * 40)
    assert all(len(line) <= WIDTH for line in fit_text(sentence).split("\n"))
    assert " ".join(fit_text(sentence).split()) == sentence
