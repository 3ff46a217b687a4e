"""What the referee sees: ``status`` shows per side whether orders for the open step
are on file, when and from which address; ``history`` shows times, senders and the
mail refused or ignored, also as JSON; ``orders`` shows the text in force for a side."""

from __future__ import annotations

import json

from adjudicator.mail import parse_message
from tests.pipeline.pipeline_helpers import CAMPAIGN, PASSWORDS, assert_no_traceback, cli, email, orders_text


def take(mailroom, referee_key, raw):
    return mailroom.take(parse_message(raw), referee_key, None).outcome


def test_status_shows_per_side_the_orders_on_file_for_the_open_step(campaign, store, mailroom, referee_key):
    assert take(mailroom, referee_key, email(orders_text())) == "accepted"

    text = cli("status", CAMPAIGN, "--store", store.path)
    assert text.returncode == 0, text.stderr
    assert "orders for step 1 from japan: on file, from togo@japan.test at " in text.stdout
    assert "orders for step 1 from russia: none yet" in text.stdout

    info = json.loads(cli("status", CAMPAIGN, "--store", store.path, "--format", "json").stdout)
    assert info["orders"]["japan"]["sender"] == "togo@japan.test" and info["orders"]["japan"]["received_at"]
    assert info["orders"]["russia"] is None


def test_history_shows_times_senders_and_the_mail_refused_or_ignored(campaign, store, mailroom, referee_key):
    assert take(mailroom, referee_key, email(orders_text())) == "accepted"
    wrong = orders_text(password="not-the-password")
    assert take(mailroom, referee_key, email(wrong, message_id="<wrong@japan.test>")) == "refused"
    stranger = email("Hello, can I join?", sender="someone@elsewhere.test", message_id="<hello@elsewhere.test>")
    assert mailroom.take(parse_message(stranger), referee_key, CAMPAIGN).outcome == "ignored"

    done = cli("history", CAMPAIGN, "--store", store.path, "--format", "json")
    assert done.returncode == 0, done.stderr
    history = json.loads(done.stdout)
    (orders,) = [row for row in history["records"] if row["kind"] == "orders"]
    assert orders["sender"] == "togo@japan.test" and orders["received_at"] and orders["side"] == "japan"
    refused = [m for m in history["mail"] if m["outcome"] == "refused"]
    assert refused and refused[0]["sender"] == "togo@japan.test" and refused[0]["at"]
    assert "not-the-password" not in done.stdout
    ignored = [m for m in history["mail"] if m["outcome"] == "ignored"]
    assert [m["sender"] for m in ignored] == ["someone@elsewhere.test"]

    text = cli("history", CAMPAIGN, "--store", store.path)
    assert "from togo@japan.test at " in text.stdout and "Mail refused or ignored:" in text.stdout


def test_orders_shows_the_text_in_force_for_a_side_without_its_password(campaign, store, mailroom, referee_key):
    assert take(mailroom, referee_key, email(orders_text())) == "accepted"

    done = cli("orders", CAMPAIGN, "japan", "--store", store.path)
    assert done.returncode == 0, done.stderr
    assert "Mikasa" in done.stdout and "Tsushima" in done.stdout and "side: Japan" in done.stdout
    assert PASSWORDS["japan"] not in done.stdout

    none = cli("orders", CAMPAIGN, "russia", "--store", store.path)
    assert none.returncode == 1 and "no orders in force for russia" in none.stderr
    unknown = cli("orders", CAMPAIGN, "france", "--store", store.path)
    assert unknown.returncode == 2 and "france" in unknown.stderr
    assert_no_traceback(unknown)
