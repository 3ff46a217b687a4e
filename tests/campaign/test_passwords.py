"""Player passwords: Argon2id at the OWASP minimum (19 MiB, 2 passes, 1 lane) for every
new hash; hashes made by earlier versions (scrypt) still accepted, and replaced by an
Argon2id hash at the player's next successful check, never at a failed one."""

from __future__ import annotations

import base64
import json
import os

import pytest
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from adjudicator.campaign.errors import AuthenticationFailed
from adjudicator.campaign.passwords import check_password, hash_password, needs_upgrade, password_matches
from tests.campaign.test_orders_flow import campaign, orders  # noqa: F401  (the fixture)


def scrypt_hash(password: str) -> dict:
    """A hash as versions before Argon2id stored it (scrypt, N = 2^14, r = 8, p = 1)."""
    salt = os.urandom(16)
    digest = Scrypt(salt=salt, length=32, n=2**14, r=8, p=1).derive(password.encode())
    return {"scheme": "scrypt", "n": 2**14, "r": 8, "p": 1,
            "salt": base64.b64encode(salt).decode(), "hash": base64.b64encode(digest).decode()}


def test_new_hashes_are_argon2id_at_least_at_the_owasp_minimum():
    stored = hash_password("Togo1904")
    assert stored["scheme"] == "argon2id"
    assert stored["m"] >= 19 * 1024 and stored["t"] >= 2 and stored["p"] >= 1
    assert password_matches("Togo1904", stored)
    assert not password_matches("togo1904", stored)
    assert not needs_upgrade(stored)


def test_each_hash_has_its_own_salt_and_holds_no_password():
    first, second = hash_password("Togo1904"), hash_password("Togo1904")
    assert first["salt"] != second["salt"] and first["hash"] != second["hash"]
    assert "Togo1904" not in json.dumps(first)


def test_an_scrypt_hash_still_accepts_its_password_and_comes_back_upgraded():
    old = scrypt_hash("Togo1904")
    checked = check_password("Togo1904", old)
    assert checked.matches and checked.upgraded["scheme"] == "argon2id"
    assert password_matches("Togo1904", checked.upgraded)
    assert check_password("wrong", old).matches is False and check_password("wrong", old).upgraded is None


def test_a_weaker_argon2id_hash_is_upgraded_too():
    weak = {**hash_password("x"), "m": 8 * 1024, "t": 1}
    assert needs_upgrade(weak)


@pytest.mark.parametrize("stored", [{}, {"scheme": "md5", "salt": "", "hash": ""},
                                    {"scheme": "argon2id", "salt": "!!", "hash": "x", "m": 1, "t": 1, "p": 1}])
def test_an_unusable_stored_hash_matches_no_password(stored):
    assert not password_matches("anything", stored)


def test_a_campaign_upgrades_a_players_scrypt_hash_at_the_next_accepted_orders(campaign, referee_key, store):  # noqa: F811
    with store.transaction("c1") as tx:
        tx.set_secret("password:japan", scrypt_hash("Togo1904"))
    with pytest.raises(AuthenticationFailed):
        campaign.submit("c1", orders(password="Makarov1904"), referee_key)
    with store.transaction("c1") as tx:
        assert tx.get_secret("password:japan")["scheme"] == "scrypt"  # a failed check changes nothing
    campaign.submit("c1", orders(), referee_key)
    with store.transaction("c1") as tx:
        upgraded = tx.get_secret("password:japan")
    assert upgraded["scheme"] == "argon2id" and password_matches("Togo1904", upgraded)
    campaign.submit("c1", orders(body="sortie:\n  Mikasa to Pacific Ocean\n"), referee_key)  # the new hash works


# -- many campaigns for the same players: the password hashed once ------------------------


def test_a_player_hashed_once_plays_many_campaigns_with_the_same_password(campaigns, referee_key, store):
    from tests.campaign.conftest import PLAYERS

    hashed = [player.hashed() for player in PLAYERS]
    assert all(p.password_hash["scheme"] == "argon2id" and password_matches(p.password, p.password_hash)
               for p in hashed)
    assert all("Togo1904" not in repr(p) and "salt" not in repr(p) for p in hashed)
    for name in ("c1", "c2"):
        campaigns.create(name, "port-arthur", hashed, referee_key)
        campaigns.submit(name, orders(campaign=name), referee_key)  # the password sent as before
        with pytest.raises(AuthenticationFailed):
            campaigns.submit(name, orders(campaign=name, password="Makarov1904"), referee_key)
    with store.transaction("c2") as tx:
        stored = tx.get_secret("password:japan")
    assert stored == hashed[0].password_hash and not needs_upgrade(stored)


def test_a_campaign_refuses_a_given_hash_weaker_than_today_and_writes_nothing(campaigns, referee_key, store):
    from adjudicator.campaign import Player
    from adjudicator.campaign.errors import WeakPasswordHash
    from tests.campaign.conftest import PLAYERS

    weak = [Player(p.side, p.address, p.password, password_hash=scrypt_hash(p.password)) for p in PLAYERS]
    with pytest.raises(WeakPasswordHash, match="japan"):
        campaigns.create("c1", "port-arthur", weak, referee_key)
    assert [c.id for c in store.campaigns()] == []
