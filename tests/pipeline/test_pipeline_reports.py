"""Turn reports: queued with the batch they report, one per player, as multipart text +
HTML, threaded, autoescaped, under the fog of war; and a golden rendering."""

from __future__ import annotations

import itertools
import os
import random
import re
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest

from adjudicator.campaign import Player
from adjudicator.games import get as support
from adjudicator.engine import Match, Roll
from adjudicator.games.port_arthur.players import RandomPlayer
from adjudicator.mail import parse_message
from adjudicator.reports.render import render
from adjudicator.reports.context import report_context
from tests.pipeline.pipeline_helpers import (
    ADDRESSES,
    CAMPAIGN,
    HOUR,
    PLAYERS,
    REFEREE,
    T0,
    batch_count,
    email,
    orders_text,
    reports,
)

GOLDEN = Path(__file__).with_name("golden")
RUSSIAN_SORTIE = "sortie:\n  Tsesarevich to Yellow Sea\n  Novik to Yellow Sea\n  Bayan to Tsushima\n"


def take(mailroom, key, raw):
    return mailroom.take(parse_message(raw, origin="test"), key, None)


def header(mail, name: str) -> str:
    """A header's value, unfolded (long message ids are folded onto a line of their own)."""
    return str(mail.message[name]).strip()


def two_steps(campaigns, mailroom, key):
    """Japan's sortie (step 1), then Russia's (step 2), each adjudicated with its reports."""
    assert take(mailroom, key, email(orders_text("japan"))).outcome == "accepted"
    campaigns.adjudicate(CAMPAIGN, key, now=T0 + HOUR, after=mailroom.queue_reports)
    russian = email(orders_text("russia", step=2, body=RUSSIAN_SORTIE), sender="makarov@russia.test",
                    message_id="<r2@russia.test>")
    assert take(mailroom, key, russian).outcome == "accepted"
    return campaigns.adjudicate(CAMPAIGN, key, now=T0 + 2 * HOUR, after=mailroom.queue_reports)


def test_adjudication_queues_one_report_per_player_with_the_batch(
        campaign, campaigns, store, mailroom, referee_key):
    take(mailroom, referee_key, email(orders_text()))
    assert reports(store) == []

    step = campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)

    assert step.batch == 1 and batch_count(store) == 1
    queued = reports(store)
    assert sorted(r.recipient for r in queued) == sorted(ADDRESSES.values())
    assert {r.status for r in queued} == {"queued"}
    assert {r.subject.rsplit(" ", 1)[-1] for r in queued} == {"Japan", "Russia"}


def test_reports_are_rolled_back_with_a_batch_that_fails(campaign, campaigns, store, mailroom, referee_key):
    take(mailroom, referee_key, email(orders_text()))
    before = campaigns.export_public(CAMPAIGN)

    def queue_then_fail(tx, log, match, step):
        mailroom.queue_reports(tx, log, match, step)
        assert len(tx.outbox()) == 3  # the receipt and both reports, inside the transaction
        raise RuntimeError("the machine stops here")

    with pytest.raises(RuntimeError):
        campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=queue_then_fail)

    assert campaigns.export_public(CAMPAIGN) == before
    assert batch_count(store) == 0 and reports(store) == []


def test_a_report_is_multipart_text_and_html_with_campaign_step_turn_and_phase_in_words_in_the_subject(
        campaign, campaigns, store, mailroom, referee_key):
    take(mailroom, referee_key, email(orders_text()))
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    _, match = campaigns.match(CAMPAIGN)

    for report in reports(store):
        message = report.message
        assert message.get_content_type() == "multipart/mixed"  # the board's SVG goes with it as a file
        alternative = next(message.iter_parts())
        assert [p.get_content_type() for p in alternative.iter_parts()] == ["text/plain", "multipart/related"]
        assert f"[{CAMPAIGN}]" in report.subject
        assert f"step 2: turn {match.state.turn}, Sortie Phase of the Russian Fleet" in report.subject
        assert match.state.phase not in report.subject  # no internal id such as sortie-russia
        assert re.fullmatch(r"<[^<>@\s]+@adjudicator\.test>", header(report, "Message-ID"))
        assert message["X-Adjudicator"] == "1"
        assert message["From"] == REFEREE
        assert "WHAT HAPPENED" in report.text and "<h2>What happened</h2>" in report.html


def test_the_second_report_to_a_player_replies_to_the_first(campaign, campaigns, store, mailroom, referee_key):
    two_steps(campaigns, mailroom, referee_key)

    first, second = [r for r in reports(store) if r.recipient == ADDRESSES["japan"]]

    assert header(first, "Message-ID") != header(second, "Message-ID")
    assert header(second, "In-Reply-To") == header(first, "Message-ID")
    assert header(first, "Message-ID") in header(second, "References").split()


def test_a_report_to_a_player_who_sent_no_mail_replies_to_the_previous_report(
        campaign, campaigns, store, mailroom, referee_key):
    two_steps(campaigns, mailroom, referee_key)

    first, second = [r for r in reports(store) if r.recipient == ADDRESSES["japan"]]

    assert header(second, "In-Reply-To") == header(first, "Message-ID")


def test_player_text_cannot_inject_markup_into_the_html_report(campaigns, store, mailroom, referee_key):
    players = [Player("japan", '"<script>alert(1)</script> Togo" <togo@japan.test>', PLAYERS[0].password),
               PLAYERS[1]]
    campaigns.create(CAMPAIGN, "port-arthur", players, referee_key, referee_address=REFEREE, now=T0)
    entropy = "<script>alert(2)</script>"
    assert take(mailroom, referee_key, email(orders_text(entropy=entropy))).outcome == "accepted"

    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)

    japan = next(r for r in reports(store) if "Japan" in r.subject)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in japan.html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in japan.html
    assert "<script" not in japan.html
    assert "<script>alert(2)</script>" in japan.text  # the text part shows what was sent, as text


def test_under_the_fog_of_war_japan_is_not_told_the_names_of_hidden_russian_ships(
        campaigns, store, mailroom, referee_key):
    campaigns.create(CAMPAIGN, "port-arthur", PLAYERS, referee_key, options={"fog_of_war": True},
                     referee_address=REFEREE, now=T0)
    two_steps(campaigns, mailroom, referee_key)
    _, match = campaigns.match(CAMPAIGN)
    seen = {ship["name"] for ship in support("port-arthur").game().view(match.state, "japan")["ships"]}
    russian = {name for name, ship in match.state.ships.items() if ship.side == "russia"}
    hidden = russian - seen
    assert "Novik" in hidden  # Novik sortied this step, under another ship
    assert {"Pobeda", "Diana"} <= seen  # in the Port Arthur harbour: in no squadron, seen by both sides

    japan = [r for r in reports(store) if r.recipient == ADDRESSES["japan"]]
    russia = [r for r in reports(store) if r.recipient == ADDRESSES["russia"]]
    for name in hidden:
        assert name not in japan[-1].text and name not in japan[-1].html, f"{name} named in {japan[-1].subject}"
    assert any(name in japan[-1].text for name in russian & seen)  # the top ships are shown
    assert "Novik leaves Port Arthur for Yellow Sea" in russia[-1].text  # Russia sees its own moves
    assert "A Russia ship leaves Port Arthur for Yellow Sea" in japan[-1].text


# -- golden rendering -------------------------------------------------------------------------


def golden_context(stop: tuple = (2, "sortie"), options: dict | None = None) -> dict:
    """Japan's report after a whole first turn between random players, with fixed dice
    and fixed stand-ins for everything random in a campaign (seeds, hashes, dates);
    ``stop``: the (turn, decision kind) it stops at."""
    game_support = support("port-arthur")
    match = Match(game_support.game(), {}, dict(options or {}))
    player = RandomPlayer(random.Random(1904))
    dice = itertools.cycle([4, 2, 6, 1, 5, 3, 3, 6, 2, 5, 1, 4])
    while not match.finished:
        if isinstance(match.pending, Roll):
            match.supply_dice([next(dice) for _ in range(match.pending.count)])
            continue
        decision = match.decision
        if decision is None:
            match.resume()
            continue
        if (match.state.turn, decision.kind) == stop:
            break
        match.answer(decision.side, dict(player(decision, match.state)))
    records = [SimpleNamespace(hash="c0" * 32), SimpleNamespace(hash="e0" * 32)]
    log = SimpleNamespace(
        campaign="golden-1904", next_batch=7,
        charter={"options": dict(options or {}), "chain": {"anchor": "a0" * 32},
                 "referee_key": "ed25519:Kay64UG8yvCyLhqU000LxzYeUm0L/hLIl5S8kyKWbdc="},
        records=records, record_hash=lambda index: records[index].hash,
    )
    batch = SimpleNamespace(body={"batch": 6, "seed": "5e" * 32, "contributions": {"japan": "golden-entropy"},
                                  "entries": match.history_json()})
    context = report_context(
        log=log, match=match, events=match.events, side="japan", player="Heihachiro Togo <togo@japan.test>",
        deadline=datetime(1904, 2, 11, 12, 0, tzinfo=timezone.utc), game_support=game_support,
        defaults=("russia",), refused=("japan's orders for 'navo' could not be used: an example",), batch=batch,
    )
    return {**context, "match_for_tests": match}


def test_the_text_report_of_a_fixed_position_matches_the_golden_file():
    report = render(golden_context())
    path = GOLDEN / "report-japan-turn2.txt"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(report.text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run once with UPDATE_GOLDEN=1, check it by eye, and keep it"
    assert report.text == path.read_text(encoding="utf-8")
    assert report.subject == ("[golden-1904] Port Arthur, step 7: turn 2, Sortie Phase of the Japanese Fleet"
                              " - report for Japan")


def test_the_text_report_is_wrapped_at_78_columns_with_its_tables_aligned():
    report = render(golden_context())
    lines = report.text.split("\n")
    assert [line for line in lines if len(line) > 78] == []
    harbour = next(i for i, line in enumerate(lines) if line.startswith("  Japan harbour"))
    column = lines[harbour].index("Mikasa")
    assert lines[harbour + 1][:column].strip() == "" and lines[harbour + 1][column] != " "


def test_the_report_explains_its_notation_once_and_names_no_file_players_do_not_have():
    report = render(golden_context())
    for part in (" ".join(report.text.split()), " ".join(report.html.split())):
        assert part.count("How to read this") == 1
        assert "SS is a squadron's speed" in part and "defense being the hits that sink it" in part
        assert "docs/" not in part and ".md" not in part


def test_the_html_report_carries_the_reply_instruction():
    html = render(golden_context()).html
    assert "reply to this email" in html and "BEGIN ORDERS" in html


def test_a_report_threads_under_the_players_own_orders_mail(campaign, campaigns, store, mailroom, referee_key):
    two_steps(campaigns, mailroom, referee_key)

    first, second = [r for r in reports(store) if r.recipient == ADDRESSES["russia"]]

    assert header(second, "In-Reply-To") == "<r2@russia.test>"
    assert header(first, "Message-ID") in header(second, "References").split()


def test_a_player_who_chose_one_report_per_turn_gets_a_digest_of_the_steps_since_the_last(
        campaigns, store, mailroom, referee_key):
    japan = Player("japan", PLAYERS[0].address, PLAYERS[0].password, reports="turn")
    campaigns.create(CAMPAIGN, "port-arthur", [japan, PLAYERS[1]], referee_key, referee_address=REFEREE, now=T0)
    assert take(mailroom, referee_key, email(orders_text("japan"))).outcome == "accepted"
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + HOUR, after=mailroom.queue_reports)
    # step 1 done, Russia asked in the same turn: no report for Japan yet, one for Russia
    assert [r.recipient for r in reports(store)] == [ADDRESSES["russia"]]

    russian = email(orders_text("russia", step=2, body=RUSSIAN_SORTIE), sender="makarov@russia.test",
                    message_id="<r2@russia.test>")
    assert take(mailroom, referee_key, russian).outcome == "accepted"
    campaigns.adjudicate(CAMPAIGN, referee_key, now=T0 + 2 * HOUR, after=mailroom.queue_reports)

    later = T0 + 2 * HOUR
    while not [r for r in reports(store) if r.recipient == ADDRESSES["japan"]]:
        _, match = campaigns.match(CAMPAIGN)
        assert match.decision is not None and match.decision.side == "russia" and match.state.turn == 1
        later += 200 * HOUR  # past the deadline: Russia's default answers
        campaigns.adjudicate(CAMPAIGN, referee_key, now=later, after=mailroom.queue_reports)

    japanese = [r for r in reports(store) if r.recipient == ADDRESSES["japan"]]
    russians = [r for r in reports(store) if r.recipient == ADDRESSES["russia"]]
    assert len(japanese) == 1 and len(russians) >= 2  # Japan is asked (or the turn ends): its digest goes out
    assert "Sortie Phase of the Japanese Fleet" in japanese[0].text  # every step since the start, in one report
    assert "Sortie Phase of the Russian Fleet" in japanese[0].text
