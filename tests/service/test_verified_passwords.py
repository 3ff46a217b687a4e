"""The resident service's memory of verified passwords (as Dovecot's authentication
cache): the right password again skips the full Argon2id check; a wrong password is
refused and still costs the full check; a changed or upgraded stored hash stops the
old entry matching at once; nothing of it reaches the store or the logs."""

from __future__ import annotations

import logging
from datetime import datetime, timezone

import pytest

from adjudicator.campaign import Campaigns
from adjudicator.campaign.errors import AuthenticationFailed
from adjudicator.campaign.passwords import check_password, hash_password
from adjudicator.campaign.verified_passwords import VerifiedPasswords
from adjudicator.fairdice import generate_keypair
from adjudicator.store import Store
from tests.campaign.conftest import PLAYERS
from tests.campaign.test_orders_flow import orders
from tests.campaign.test_passwords import scrypt_hash


class CountedChecks:
    """The real full check, counted."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, password, stored):
        self.calls += 1
        return check_password(password, stored)


@pytest.fixture(scope="module")
def stored():
    return hash_password("Togo1904")


def test_the_right_password_again_skips_the_full_check(stored):
    full = CountedChecks()
    verified = VerifiedPasswords(full_check=full)
    assert verified.check("c1", "japan", "Togo1904", stored).matches
    assert verified.check("c1", "japan", "Togo1904", stored).matches
    assert verified.check("c1", "japan", "Togo1904", stored).matches
    assert full.calls == 1


def test_a_wrong_password_is_refused_with_the_full_check_even_after_the_right_one(stored):
    full = CountedChecks()
    verified = VerifiedPasswords(full_check=full)
    assert verified.check("c1", "japan", "Togo1904", stored).matches
    for wrong in ("togo1904", "Togo1904 ", "", "Makarov1904"):
        assert not verified.check("c1", "japan", wrong, stored).matches
    assert full.calls == 5
    assert verified.check("c1", "japan", "Togo1904", stored).matches and full.calls == 5


def test_an_entry_holds_for_its_own_campaign_and_side_only(stored):
    full = CountedChecks()
    verified = VerifiedPasswords(full_check=full)
    verified.check("c1", "japan", "Togo1904", stored)
    verified.check("c2", "japan", "Togo1904", stored)
    verified.check("c1", "russia", "Togo1904", stored)
    assert full.calls == 3


def test_a_changed_password_stops_matching_at_once(stored):
    full = CountedChecks()
    verified = VerifiedPasswords(full_check=full)
    assert verified.check("c1", "japan", "Togo1904", stored).matches
    changed = hash_password("Tsushima1905")
    assert not verified.check("c1", "japan", "Togo1904", changed).matches
    assert verified.check("c1", "japan", "Tsushima1905", changed).matches
    assert verified.check("c1", "japan", "Tsushima1905", changed).matches
    assert full.calls == 3


def test_a_hash_upgraded_at_the_check_is_checked_in_full_once_more():
    full = CountedChecks()
    verified = VerifiedPasswords(full_check=full)
    old = scrypt_hash("Togo1904")
    first = verified.check("c1", "japan", "Togo1904", old)
    assert first.matches and first.upgraded is not None
    assert len(verified) == 0  # the old hash is being replaced: nothing kept for it
    assert verified.check("c1", "japan", "Togo1904", first.upgraded).matches
    assert verified.check("c1", "japan", "Togo1904", first.upgraded).matches
    assert full.calls == 2


def test_the_memory_is_bounded_and_forgets_the_least_recently_used(stored):
    full = CountedChecks()
    verified = VerifiedPasswords(capacity=2, full_check=full)
    for campaign in ("c1", "c2", "c3"):
        verified.check(campaign, "japan", "Togo1904", stored)
    assert len(verified) == 2
    verified.check("c3", "japan", "Togo1904", stored)
    verified.check("c2", "japan", "Togo1904", stored)
    assert full.calls == 3
    verified.check("c1", "japan", "Togo1904", stored)  # forgotten: checked in full
    assert full.calls == 4


def test_its_repr_shows_neither_key_nor_tag(stored):
    verified = VerifiedPasswords()
    verified.check("c1", "japan", "Togo1904", stored)
    shown = repr(verified)
    assert verified._key.hex() not in shown and "Togo1904" not in shown
    assert all(tag.hex() not in shown for tag in verified._tags.values())


def test_a_campaign_with_the_memory_refuses_a_wrong_password_and_keeps_nothing_of_it_in_the_store(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    key = generate_keypair()[0]
    verified = VerifiedPasswords()
    path = tmp_path / "campaigns.sqlite3"
    with Store.open(path) as store:
        campaigns = Campaigns(store, verified_passwords=verified)
        campaigns.create("c1", "port-arthur", PLAYERS, key, now=datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc))
        campaigns.submit("c1", orders(), key)
        assert len(verified) == 1
        campaigns.submit("c1", orders(body="sortie:\n  Mikasa to Pacific Ocean\n"), key)
        with pytest.raises(AuthenticationFailed, match="wrong password"):
            campaigns.submit("c1", orders(password="Makarov1904"), key)
        assert len(campaigns.log("c1").orders) == 2
    written = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    secrets = [verified._key, *verified._tags.values()]
    assert secrets and all(s not in written and s.hex().encode() not in written for s in secrets)
    assert all(s.hex() not in caplog.text for s in secrets)
