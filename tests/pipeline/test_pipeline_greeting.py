"""A greeting above the orders, with no start marker: the reply says how to mark where
the orders begin, and still tells whether the password is right."""

from __future__ import annotations

from tests.pipeline.pipeline_helpers import ADDRESSES, PASSWORDS, email, orders_text, outgoing
from tests.pipeline.test_pipeline_intake import deliver, orders_records

GREETING = "Dear referee,\nhere are my orders for this turn. Good luck to us all!\n\n"


def test_a_greeting_gets_a_hint_to_add_the_marker_and_the_password_is_said_right(
        campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email(GREETING + orders_text()), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "refused"
    assert orders_records(store) == []
    (reply,) = outgoing(store)
    assert reply.recipient == ADDRESSES["japan"]
    assert 'put a line "BEGIN ORDERS" just above your orders' in reply.words
    assert "the password for japan is right" in reply.words
    assert PASSWORDS["japan"] not in reply.text


def test_a_greeting_with_a_wrong_password_is_told_both(campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email(GREETING + orders_text(password=PASSWORDS["russia"])), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "refused"
    (reply,) = outgoing(store)
    assert "BEGIN ORDERS" in reply.words
    assert "wrong password for japan" in reply.words
    assert PASSWORDS["russia"] not in reply.text


def test_the_same_orders_below_a_marker_are_accepted(campaign, store, mailroom, referee_key, inbox):
    deliver(inbox, email(GREETING + "BEGIN ORDERS\n" + orders_text()), 1_000)

    (taken,) = mailroom.receive(inbox.path, referee_key)

    assert taken.outcome == "accepted"
