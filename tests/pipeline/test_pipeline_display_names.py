"""A display name with an unquoted period (``Adm. Togo <togo@japan.test>``, the obsolete
but common form RFC 5322 still reads) is an ordinary address: the orders are taken in
and the receipt goes to it; an address that is not plain still gets no reply."""

from __future__ import annotations

import pytest

from adjudicator.mail import parse_message
from adjudicator.mail.headers import plain_address
from tests.pipeline.pipeline_helpers import ADDRESSES, email, orders_text, outgoing


@pytest.mark.parametrize("sender", ["Adm. Togo <togo@japan.test>", "Vice-Adm. H. Togo <togo@japan.test>",
                                    "J. R. R. Togo <togo@japan.test>"])
def test_orders_from_a_display_name_with_periods_are_answered_at_that_address(
        campaign, mailroom, referee_key, store, sender):
    mail = parse_message(email(orders_text(), sender=sender))
    assert mail.reply_address == "togo@japan.test" and not mail.problems
    taken = mailroom.take(mail, referee_key, None)
    assert taken.outcome == "accepted", taken.detail
    [receipt] = outgoing(store)
    assert receipt.recipient == ADDRESSES["japan"] and "Orders accepted" in receipt.subject


@pytest.mark.parametrize("raw", ["Adm. Togo <togo@japan.test>, Makarov <makarov@russia.test>",
                                 "staff: togo@japan.test, makarov@russia.test;", "Adm. Togo <togo@japan>"])
def test_a_from_that_is_not_one_plain_address_still_gets_no_reply(raw):
    assert plain_address(raw) is None
