"""Seed hash chains: links, anchors, generations, owners, serialisation."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.fairdice import (
    ChainCommitment,
    ChainError,
    SeedChain,
    verify_link,
    verify_reveal_against_anchor,
)
from adjudicator.fairdice.chain import previous_seed

CAMPAIGN = "demo-1904"


def counting_rng(size):
    return bytes(range(size))


@pytest.fixture
def chain():
    return SeedChain.generate(CAMPAIGN, 6, rng=counting_rng)


def test_every_link_verifies(chain):
    for k in range(1, chain.length + 1):
        assert verify_link(CAMPAIGN, k, chain.reveal(k), chain.seeds[k - 1])
        assert verify_reveal_against_anchor(CAMPAIGN, chain.anchor, k, chain.reveal(k))


def test_final_seed_comes_from_rng(chain):
    assert chain.seeds[-1] == bytes(range(32))
    assert chain.length == 6 and len(chain.seeds) == 7


@given(st.integers(1, 6), st.integers(0, 31), st.integers(1, 255))
@settings(max_examples=60)
def test_changed_seed_fails(k, position, flip):
    chain = SeedChain.generate(CAMPAIGN, 6, rng=counting_rng)
    seed = bytearray(chain.reveal(k))
    seed[position] ^= flip
    forged = bytes(seed)
    assert not verify_link(CAMPAIGN, k, forged, chain.seeds[k - 1])
    assert not verify_reveal_against_anchor(CAMPAIGN, chain.anchor, k, forged)


def test_wrong_index_campaign_owner_or_generation_fails(chain):
    s2, s1 = chain.reveal(2), chain.reveal(1)
    assert verify_link(CAMPAIGN, 2, s2, s1)
    assert not verify_link(CAMPAIGN, 3, s2, s1)
    assert not verify_link("other", 2, s2, s1)
    assert not verify_link(CAMPAIGN, 2, s2, s1, owner="japan")
    assert not verify_link(CAMPAIGN, 2, s2, s1, generation=1)
    assert not verify_reveal_against_anchor(CAMPAIGN, chain.anchor, 3, s2)


def test_wrong_sized_values_do_not_verify(chain):
    assert not verify_link(CAMPAIGN, 1, chain.reveal(1)[:31], chain.anchor)
    assert not verify_reveal_against_anchor(CAMPAIGN, b"", 1, chain.reveal(1))


def test_generations_and_owners_give_unrelated_chains(chain):
    successor = chain.successor(6, rng=counting_rng)
    player = SeedChain.generate(CAMPAIGN, 6, owner="japan", rng=counting_rng)
    assert successor.generation == 1
    assert len({chain.anchor, successor.anchor, player.anchor}) == 3
    assert successor.commitment().verify_reveal(3, successor.reveal(3))
    assert not chain.commitment().verify_reveal(3, successor.reveal(3))


def test_reveal_range(chain):
    for bad in (0, -1, 7, True, "1"):
        with pytest.raises(ChainError):
            chain.reveal(bad)


def test_commitment_checks(chain):
    commitment = chain.commitment()
    assert commitment.verify_reveal(6, chain.reveal(6))
    assert not commitment.verify_reveal(7, chain.reveal(6))
    assert not commitment.verify_reveal(0, chain.anchor)
    assert commitment.verify_link(4, chain.reveal(4), chain.reveal(3))


def test_public_dict_round_trip_and_holds_no_secret(chain):
    public = json.loads(json.dumps(chain.public_dict()))
    assert ChainCommitment.from_dict(public) == chain.commitment()
    text = json.dumps(public)
    assert all(seed.hex() not in text for seed in chain.seeds[1:])
    assert chain.seeds[-1].hex() not in repr(chain)


def test_secret_dict_round_trip(chain):
    data = json.loads(json.dumps(chain.to_secret_dict()))
    assert SeedChain.from_secret_dict(data) == chain


def test_secret_dict_with_wrong_anchor_is_refused(chain):
    data = chain.to_secret_dict()
    data["anchor"] = "00" * 32
    with pytest.raises(ChainError):
        SeedChain.from_secret_dict(data)


@pytest.mark.parametrize(
    "change",
    [
        {"algorithm": "adjudicator/chain/v0"},
        {"length": "6"},
        {"generation": -1},
        {"anchor": "AB" * 32},
        {"anchor": "zz" * 32},
        {"owner": ""},
    ],
)
def test_malformed_public_dict_is_refused(chain, change):
    with pytest.raises(ChainError):
        ChainCommitment.from_dict({**chain.public_dict(), **change})


def test_direct_construction_checks_links(chain):
    seeds = list(chain.seeds)
    seeds[2] = bytes(32)
    with pytest.raises(ChainError):
        SeedChain(CAMPAIGN, "referee", 0, tuple(seeds))


@pytest.mark.parametrize("length", [0, -3, 10**7, 2.0])
def test_bad_length_is_refused(length):
    with pytest.raises(ChainError):
        SeedChain.generate(CAMPAIGN, length)


def test_bad_rng_output_is_refused():
    with pytest.raises(ChainError):
        SeedChain.generate(CAMPAIGN, 3, rng=lambda size: b"short")


def test_default_rng_gives_fresh_chains():
    assert SeedChain.generate(CAMPAIGN, 2).anchor != SeedChain.generate(CAMPAIGN, 2).anchor


@settings(max_examples=60, deadline=None)
@given(campaign=st.text(min_size=1, max_size=20), owner=st.text(min_size=1, max_size=10),
       generation=st.integers(min_value=0, max_value=5), length=st.integers(min_value=1, max_value=40),
       final=st.binary(min_size=32, max_size=32))
def test_a_chain_built_from_its_final_seed_links_step_by_step_by_the_definition(campaign, owner, generation,
                                                                                length, final):
    chain = SeedChain.from_final_seed(campaign, length, final, owner=owner, generation=generation)
    assert chain.seeds[-1] == final
    for index in range(length, 0, -1):
        assert chain.seeds[index - 1] == previous_seed(campaign, owner, generation, index, chain.seeds[index])
