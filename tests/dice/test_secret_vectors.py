"""Known-answer vectors of the secrets protocol (docs/dice.md §8.2 and §10.7),
re-derived from the text with hashlib and the field encoding."""

import hashlib

from adjudicator.campaign.protocol import HIDDEN_OWNER, BatchDice, seal, seal_salt
from adjudicator.engine import Draw
from adjudicator.fairdice import SeedChain, batch_key, canonical_json, encode

CAMPAIGN = "demo-1904"
FINAL = bytes.fromhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
HIDDEN = {
    3: "7e69428710e967fcc33b595ce4b52335709309e085aa287c2854c2253361c855",
    2: "f6893d5a7c8e7196eb47b27ea4bfac370300f944d5f1a2a3c28f3d7fa42e294e",
    1: "7d4802fb602e9191262048142e226f1626a0e4d121fccea8429eaec5c0ad699c",
    0: "dc91a98fa6926ae9effcc0051438753b616b4544d257f897d700599ea94ef3d2",
}
ENTRY = {"answer": {"land": [], "moves": {"Mikasa": "Yellow Sea"}}, "kind": "sortie", "side": "japan"}


def test_the_hidden_chain_is_a_chain_of_its_own_owner():
    chain = SeedChain.from_final_seed(CAMPAIGN, 4, FINAL, owner=HIDDEN_OWNER)
    assert {i: chain.seeds[i].hex() for i in HIDDEN} == HIDDEN
    assert HIDDEN_OWNER == "referee-hidden"


def test_salts_and_seals():
    h1 = bytes.fromhex(HIDDEN[1])
    salt = hashlib.sha256(encode(b"adjudicator/seal-salt/v1", CAMPAIGN, 1, 1, h1)).digest()
    assert salt == seal_salt(CAMPAIGN, 1, 1, h1)
    assert salt.hex() == "5ad36975a766e60660ea90688011e3a763798f87ba10e7ce835f1266d8e915b3"
    by_hand = hashlib.sha256(encode(b"adjudicator/seal/v1", CAMPAIGN, 1, 1, salt, canonical_json(ENTRY))).hexdigest()
    assert by_hand == seal(CAMPAIGN, 1, 1, salt, ENTRY) == \
        "93de5de1ffc97ce45a23ec3e6bf63f1591ef072c20d53a58f24f3e608208c51a"
    salt0 = seal_salt(CAMPAIGN, 1, 0, h1)
    assert salt0.hex() == "b09390ed076632221be92835f109f5d237d692e20dd7294800e44bd1afb2c4e4"
    assert seal(CAMPAIGN, 1, 0, salt0, "0" * 64) == "a968caa55c966a5509eeb9f1d1e122e31166c751517fc832762f03e099236af8"


def test_a_seal_changes_with_any_change_of_the_entry():
    salt = seal_salt(CAMPAIGN, 1, 1, bytes.fromhex(HIDDEN[1]))
    other = {**ENTRY, "answer": {"land": [], "moves": {"Mikasa": "Tsushima"}}}
    assert seal(CAMPAIGN, 1, 1, salt, other) != seal(CAMPAIGN, 1, 1, salt, ENTRY)
    assert seal(CAMPAIGN, 1, 2, salt, ENTRY) != seal(CAMPAIGN, 1, 1, salt, ENTRY)


def test_the_hidden_stream_and_a_card_draw():
    h1 = bytes.fromhex(HIDDEN[1])
    assert batch_key(CAMPAIGN, 1, h1, {}).hex() == "41fba6d9b6d7d7d02dec19570018315295097440fd02e0e45f72b5be603917fa"
    stream = BatchDice(CAMPAIGN, 1, h1, {})
    assert stream(Draw(tuple("ABCDEFGH"), 3, "", None, 1, "cards")) == (5, 1, 0)
    assert stream.drawn == 3
