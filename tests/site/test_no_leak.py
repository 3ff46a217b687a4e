"""Nothing hidden leaks into the public archive: for a running campaign the site is a
view of the public record alone. Campaigns of every game are played with their hidden
information (Port Arthur's fog of war; Russo-Japanese War's hands and face-down deck,
with the naval rules and Makarov's secret flagship; Tsushima, whose cards are drawn
only when turned), and the hidden values, taken from the referee's own view, are looked
for in every file of the site during play. After the end, the opened secrets appear and
each side's view of every step can be replayed."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from adjudicator import games
from adjudicator.campaign.protocol import BATCH
from adjudicator.fairdice import records_from_jsonl
from adjudicator.site import build_site
from adjudicator.site.replay import entry_row, answer_text
from tests.site.conftest import PLAYERS, play

HIDDEN_GAMES = [("port-arthur", {"fog_of_war": True}), ("russo-japanese-war", {"naval": True})]


def site_text(folder: Path) -> str:
    """Every file of the site as a reader sees it (entities unescaped)."""
    return "\n".join(html.unescape(path.read_text(encoding="utf-8")) for path in sorted(folder.iterdir()))


def sealed_clear_entries(campaigns, campaign: str) -> list[dict]:
    """Each entry published sealed, in clear: from the referee's private log."""
    log = campaigns.log(campaign)
    found = []
    for record in log.records:
        if record.kind == BATCH:
            number = record.body["batch"]
            for position, entry in enumerate(record.body["entries"], start=1):
                if "sealed" in entry:
                    found.append(log.clear_entries[number][position - 1])
    return found


def hidden_values(campaigns, campaign: str, public_record: str) -> dict[str, str]:
    """What the referee knows and the public may not: each sealed entry as the site
    would print it and as canonical JSON, and (hands) every card in a hand; a value the
    public record already shows (a card played earlier, a public answer alike) is left
    out. Maps each value to where it comes from."""
    values = {}
    for entry in sealed_clear_entries(campaigns, campaign):
        printed = entry_row(entry).text
        for text in (printed, answer_text(entry.get("answer", entry))):
            if len(text) >= 6 and text not in public_record:
                values[text] = f"sealed {entry.get('kind') or next(iter(entry))}"
    log, match = campaigns.match(campaign)
    referee_view = games.get(log.charter["game"]).game().view(match.state, None)
    for side, hand in (referee_view.get("cards") or {}).get("hands", {}).items():
        for card in hand:
            if not re.search(rf"(?<![\w#]){re.escape(card)}(?!\w)", public_record):
                values[card] = f"{side}'s hand"
    return values


def assert_absent(values: dict[str, str], text: str) -> None:
    for value, origin in values.items():
        if value.startswith("#") or len(value) < 12:
            found = re.search(rf"(?<![\w#]){re.escape(value)}(?!\w)", text)
        else:
            found = value in text
        assert not found, f"the site shows a hidden value ({origin}): {value}"


@pytest.mark.parametrize("game, options", HIDDEN_GAMES)
def test_a_running_campaign_s_site_holds_nothing_hidden(campaigns, referee_key, tmp_path, game, options):
    campaigns.create("secret", game, PLAYERS, referee_key, options=options)
    checked = set()
    for moment, steps in enumerate((2, 3, 4)):
        results = play(campaigns, referee_key, "secret", steps=steps)
        assert results[-1].result is None, "the game ended too soon for the test"
        record = campaigns.export_public("secret")
        folder = tmp_path / f"site-{moment}"
        written = build_site(record, folder, referee_key)
        assert written.sealed > 0 and not written.finished
        values = hidden_values(campaigns, "secret", record)
        assert values, "the referee holds hidden values at this point"
        assert_absent(values, site_text(folder))
        checked |= set(values.values())
        pages = {p.name for p in folder.glob("step-*.html")}
        assert not any(re.search(r"step-\d+-\w+\.html", name) for name in pages), "no side's view before the end"
    if game == "port-arthur":
        assert any("sortie" in origin for origin in checked), checked
    else:
        assert any("hand" in origin for origin in checked) and any("flagship" in o for o in checked), checked


@pytest.mark.parametrize("game, options", HIDDEN_GAMES)
def test_after_the_end_the_opened_secrets_appear_and_each_side_s_view_is_replayed(
        campaigns, referee_key, tmp_path, game, options):
    campaigns.create("secret", game, PLAYERS, referee_key, options=options)
    play(campaigns, referee_key, "secret")
    record = campaigns.export_public("secret")
    written = build_site(record, tmp_path / "site", referee_key)
    assert written.finished and written.sealed == 0
    text = site_text(tmp_path / "site")
    opened = sealed_clear_entries(campaigns, "secret")
    assert opened
    for entry in opened:
        assert entry_row(entry).text in text
    steps = [r.body["batch"] for r in records_from_jsonl(record) if r.kind == BATCH]
    for number in steps:
        public = (tmp_path / "site" / f"step-{number:03d}.html").read_text(encoding="utf-8")
        assert "The position" in public and "Sealed:" not in public
        for side in ("japan", "russia"):
            seen = (tmp_path / "site" / f"step-{number:03d}-{side}.html").read_text(encoding="utf-8")
            assert f"as {side.capitalize()} saw it" in seen
    last = html.unescape((tmp_path / "site" / f"step-{steps[-1]:03d}-russia.html").read_text(encoding="utf-8"))
    if game == "russo-japanese-war":
        assert "Your hand:" in last  # the side's own hand, as its report showed it
    else:
        assert "Fog of war:" in last  # the side saw the enemy's stacks from the top only
        told = told_to_one_side(tmp_path / "site", steps)
        assert told, "under the fog of war some events are told to one side alone"
        for number, side, text in told[:20]:
            other = "japan" if side == "russia" else "russia"
            seen = html.unescape((tmp_path / "site" / f"step-{number:03d}-{side}.html").read_text(encoding="utf-8"))
            unseen = html.unescape((tmp_path / "site" / f"step-{number:03d}-{other}.html").read_text(encoding="utf-8"))
            assert f"<p>{text}</p>" in seen and f"<p>{text}</p>" not in unseen


def told_to_one_side(folder: Path, steps: list[int]) -> list[tuple[int, str, str]]:
    """(step, side, text) of each event the public page marks as told to one side alone
    (and tells once)."""
    found = []
    for number in steps:
        page = html.unescape((folder / f"step-{number:03d}.html").read_text(encoding="utf-8"))
        paragraphs = re.findall(r"<p>(.*?)</p>", page)
        for paragraph in paragraphs:
            marked = re.fullmatch(r'(.*) <span class="sealed">\(told to (Japan|Russia) alone\)</span>', paragraph)
            if marked and sum(p.startswith(marked.group(1) + " <span") for p in paragraphs) == 1:
                found.append((number, marked.group(2).lower(), marked.group(1)))
    return found


def test_tsushima_has_no_hidden_information_and_its_running_site_replays_every_step(campaigns, referee_key,
                                                                                     tmp_path):
    """Tsushima draws each card when it is turned (rulings: no face-down pile order
    exists to be kept secret), so every step of a running battle is public."""
    assert not games.get("tsushima-1905").has_secrets({})
    campaigns.create("battle", "tsushima-1905", PLAYERS, referee_key)
    play(campaigns, referee_key, "battle", steps=4)
    record = campaigns.export_public("battle")
    assert '"hidden_chain"' not in record and '"sealed":"' not in record
    build_site(record, tmp_path / "site")
    steps = [r.body["batch"] for r in records_from_jsonl(record) if r.kind == BATCH]
    for number in steps:
        page = (tmp_path / "site" / f"step-{number:03d}.html").read_text(encoding="utf-8")
        assert "<svg" in page and "Sealed:" not in page


def test_the_search_finds_a_hidden_value_planted_in_a_page(campaigns, referee_key, tmp_path):
    """The no-leak tests would see a leak: a sealed sortie written into a page is found."""
    campaigns.create("secret", "port-arthur", PLAYERS, referee_key, options={"fog_of_war": True})
    play(campaigns, referee_key, "secret", steps=3)
    record = campaigns.export_public("secret")
    build_site(record, tmp_path / "site")
    values = hidden_values(campaigns, "secret", record)
    sortie = next(value for value, origin in values.items() if "sortie" in origin)
    page = tmp_path / "site" / "step-001.html"
    page.write_text(page.read_text(encoding="utf-8").replace("</main>", f"<p>{html.escape(sortie)}</p></main>"),
                    encoding="utf-8")
    with pytest.raises(AssertionError, match="hidden value"):
        assert_absent(values, site_text(tmp_path / "site"))
