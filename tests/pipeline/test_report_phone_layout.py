"""Every game's report, as a player's mail program gets it, read on a phone: step 1 is
answered by mail (Port Arthur's Japan sorties, the other games' sides confirm), the deadlines of a few steps pass (the documented defaults play
them), and the last report to Japan, its picture shown from its ``cid:`` PNG part, is
laid out in headless chromium at 360 px (a phone's width) and at 1000 px. Nothing is
wider than the window, no element's text is cut (none overflows its box), the picture
is scaled down to the width with its proportions kept (and never up), and a screenshot
is taken (ADJUDICATOR_SCREENSHOTS=<folder> keeps it)."""

from __future__ import annotations

import base64

import pytest

from tests import browser
from tests.pipeline.pipeline_helpers import (
    ADDRESSES, CAMPAIGN, DEADLINE_HOURS, HOUR, MIKASA_TO_TSUSHIMA, PLAYERS, REFEREE, T0, deliver, email,
    orders_text, reports,
)

#: ``measure()``: each picture's shown and natural sizes, the body's width inside its
#: padding, and every element whose box reaches past either side of the window.
MEASURE = """
<script>
function measure() {
  const body = getComputedStyle(document.body);
  const inner = document.body.clientWidth - parseFloat(body.paddingLeft) - parseFloat(body.paddingRight);
  const pictures = [...document.querySelectorAll("img")].filter(img => img.alt).map(img => {
    const box = img.getBoundingClientRect();
    return [box.width, box.height, img.naturalWidth, img.naturalHeight, parseFloat(img.getAttribute("width"))];
  });
  const outside = [...document.querySelectorAll("body *")].filter(el => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && (box.left < -0.5 || box.right > window.innerWidth + 0.5);
  }).map(el => el.tagName + ": " + el.textContent.slice(0, 60));
  return {inner, pictures, outside};
}
</script>
"""

#: every game at a phone's width; at 1000 px Port Arthur, and the other two with the soaks
#: (ADJUDICATOR_SOAK=1: a few seconds each)
CASES = [(game, 360) for game in ("port-arthur", "russo-japanese-war", "tsushima-1905")] + [
    ("port-arthur", 1000),
    *(pytest.param(game, 1000, marks=pytest.mark.soak) for game in ("russo-japanese-war", "tsushima-1905"))]
#: how many deadlines pass after the confirmations (a later position than the opening)
DEADLINES = 3


def with_pictures_inline(message) -> str:
    """The HTML part with each ``cid:`` picture as a data URL (as a mail program shows it)."""
    html = message.get_body(("html",)).get_content()
    for part in message.walk():
        if part["Content-ID"]:
            data = base64.b64encode(part.get_content()).decode("ascii")
            html = html.replace(f"cid:{str(part['Content-ID']).strip('<>')}", f"data:image/png;base64,{data}")
    assert "cid:" not in html
    return html


def first_orders(game: str) -> dict[str, str]:
    """Each side's answer to step 1: Port Arthur asks Japan to sortie; the other games ask
    both sides to confirm the set-up."""
    if game == "port-arthur":
        return {"japan": orders_text("japan", body=MIKASA_TO_TSUSHIMA)}
    return {p.side: orders_text(p.side, step=1, body="", entropy=f"phone-{p.side}") for p in PLAYERS}


def mailed_report(game, campaigns, store, mailroom, referee_key, inbox):
    """Japan's last report of a campaign of ``game`` whose step 1 is answered by mail and
    whose next few deadlines pass unanswered."""
    campaigns.create(CAMPAIGN, game, PLAYERS, referee_key, referee_address=REFEREE,
                     deadline_hours=DEADLINE_HOURS, now=T0)
    answers = first_orders(game)
    for number, (side, text) in enumerate(answers.items()):
        deliver(inbox, email(text, sender=ADDRESSES[side], message_id=f"<first-{side}@phone.test>"), 100 + number)
    assert [t.outcome for t in mailroom.receive(inbox.path, referee_key)] == ["accepted"] * len(answers)
    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    for deadline in range(1, DEADLINES + 1):
        if step.result is not None or step.waiting is None:
            break
        step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + deadline * 2 * DEADLINE_HOURS * HOUR,
                                    after=mailroom.queue_reports)
    mails = [m for m in reports(store) if m.recipient == ADDRESSES["japan"]]
    assert len(mails) > 1
    return mails[-1].message


@pytest.mark.parametrize("game, width", CASES)
def test_a_mailed_report_of_every_game_lays_out_within_a_phones_width(game, width, campaigns, store, mailroom,
                                                                      referee_key, inbox, tmp_path):
    html = with_pictures_inline(mailed_report(game, campaigns, store, mailroom, referee_key, inbox))
    found = browser.laid_out(html, tmp_path, width, f"mailed-{game}-{width}", MEASURE, height=6000)

    page_width, window = found["page"]
    assert window == width and page_width <= window
    assert found["overflowing"] == [] and found["outside"] == []
    assert found["pictures"], "no picture with alt text in the report"
    for shown_width, shown_height, natural_width, natural_height, asked in found["pictures"]:
        assert shown_width == pytest.approx(min(asked, found["inner"]), abs=1)   # the width, never more
        assert shown_height / shown_width == pytest.approx(natural_height / natural_width, rel=0.01)
    if width == 360:
        assert all(shown < asked for shown, _, _, _, asked in found["pictures"])   # scaled down to the phone
