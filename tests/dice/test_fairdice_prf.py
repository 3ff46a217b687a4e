"""Batch keys and the dice stream: dice, uniform draws, shuffles."""

import hashlib
import hmac
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.fairdice import (
    DIE_DOMAIN,
    UNIFORM_DOMAIN,
    DiceStream,
    InvalidDrawRequest,
    batch_key,
    encode,
    shuffle_draw_count,
)

CAMPAIGN = "demo-1904"
SEED = bytes(range(32))


@pytest.fixture
def stream():
    return DiceStream(batch_key(CAMPAIGN, 1, SEED, {"japan": b"Togo"}), CAMPAIGN, 1)


def block(stream, domain, *fields):
    message = encode(domain, stream.campaign_id, stream.batch, *fields)
    return hmac.new(stream.key, message, hashlib.sha256).digest()


def test_dice_are_in_range_and_every_face_occurs(stream):
    rolls = stream.roll(600, 1, "operations", 0)
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert all(count > 60 for count in Counter(rolls).values())


def test_draws_are_pure_functions_of_their_address(stream):
    forward = [stream.die(2, "gunnery", index) for index in range(20)]
    backward = [stream.die(2, "gunnery", index) for index in reversed(range(20))]
    assert forward == backward[::-1]
    assert stream.roll(20, 2, "gunnery", 0) == tuple(forward)
    assert stream.roll(5, 2, "gunnery", 7) == tuple(forward[7:12])


def test_address_parts_matter(stream):
    base = stream.roll(16, 1, "operations", 0)
    assert stream.roll(16, 2, "operations", 0) != base
    assert stream.roll(16, 1, "sortie", 0) != base
    other_batch = DiceStream(stream.key, CAMPAIGN, 2)
    assert other_batch.roll(16, 1, "operations", 0) != base


def test_first_accepted_byte_gives_the_die(stream):
    for index in range(50):
        first_block = block(stream, DIE_DOMAIN, 3, "mines", index, 0)
        accepted = next(byte for byte in first_block if byte < 252)
        assert stream.die(3, "mines", index) == accepted % 6 + 1


def test_byte_at_or_above_252_is_rejected(stream):
    index = next(
        i for i in range(5000) if block(stream, DIE_DOMAIN, 1, "operations", i, 0)[0] >= 252
    )
    first_block = block(stream, DIE_DOMAIN, 1, "operations", index, 0)
    next_accepted = next(byte for byte in first_block[1:] if byte < 252)
    assert stream.die(1, "operations", index) == next_accepted % 6 + 1
    # 252..255 are the bytes that, taken "% 6", would favour faces 1..4:
    assert first_block[0] % 6 + 1 in {1, 2, 3, 4}


def test_stream_continues_into_the_next_counter(stream):
    bytes_read = list(_take(stream.byte_stream(DIE_DOMAIN, 1, "x", 0), 40))
    expected = block(stream, DIE_DOMAIN, 1, "x", 0, 0) + block(stream, DIE_DOMAIN, 1, "x", 0, 1)[:8]
    assert bytes(bytes_read) == expected


def test_batch_key_ignores_mapping_order_and_depends_on_everything():
    base = batch_key(CAMPAIGN, 1, SEED, {"japan": b"a", "russia": b"b"})
    assert batch_key(CAMPAIGN, 1, SEED, {"russia": b"b", "japan": b"a"}) == base
    variants = [
        batch_key(CAMPAIGN, 2, SEED, {"japan": b"a", "russia": b"b"}),
        batch_key("other", 1, SEED, {"japan": b"a", "russia": b"b"}),
        batch_key(CAMPAIGN, 1, bytes(32), {"japan": b"a", "russia": b"b"}),
        batch_key(CAMPAIGN, 1, SEED, {"japan": b"b", "russia": b"a"}),
        batch_key(CAMPAIGN, 1, SEED, {"japan": b"a"}),
        batch_key(CAMPAIGN, 1, SEED, {"japan": b"ab", "russia": b""}),
        batch_key(CAMPAIGN, 1, SEED, {}),
    ]
    assert len({base, *variants}) == len(variants) + 1


@pytest.mark.parametrize(
    "args",
    [
        (CAMPAIGN, 1, SEED[:31], {}),
        (CAMPAIGN, -1, SEED, {}),
        ("", 1, SEED, {}),
        (CAMPAIGN, 1, SEED, {"japan": "text"}),
        (CAMPAIGN, 1, SEED, {"": b"x"}),
    ],
)
def test_batch_key_refuses_bad_arguments(args):
    with pytest.raises(InvalidDrawRequest):
        batch_key(*args)


@given(st.integers(1, 2**40), st.integers(0, 10**6))
@settings(max_examples=150)
def test_uniform_below_is_in_range(n, index):
    stream = DiceStream(bytes(32), CAMPAIGN, 0)
    assert 0 <= stream.uniform_below(n, 1, "cards", index) < n


def test_uniform_below_one_is_zero(stream):
    assert stream.uniform_below(1, 1, "cards", 0) == 0


def test_uniform_below_covers_every_value(stream):
    values = Counter(stream.uniform_below(7, 1, "cards", i) for i in range(700))
    assert sorted(values) == list(range(7))


@pytest.mark.parametrize("n", [6, 52, 1000, 129 * 2**40])
def test_uniform_below_matches_the_specification(stream, n):
    for index in range(40):
        assert stream.uniform_below(n, 4, "deck", index) == _uniform_from_spec(stream, n, 4, "deck", index)


def _uniform_from_spec(stream, n, turn, phase, index):
    """The text of docs/dice.md, followed literally: chunks may straddle blocks."""
    width = 1
    while 256**width < n:
        width += 1
    limit = 256**width - 256**width % n
    data = b""
    position = 0
    counter = 0
    while True:
        while len(data) < position + width:
            data += block(stream, UNIFORM_DOMAIN, turn, phase, index, n, counter)
            counter += 1
        value = int.from_bytes(data[position : position + width], "big")
        position += width
        if value < limit:
            return value % n


@given(st.lists(st.integers(), max_size=30), st.integers(0, 1000))
@settings(max_examples=60)
def test_shuffle_is_a_permutation(items, start):
    stream = DiceStream(bytes(range(32)), CAMPAIGN, 3)
    shuffled = stream.shuffle(items, 1, "deck", start)
    assert sorted(shuffled) == sorted(items)
    assert stream.shuffle(items, 1, "deck", start) == shuffled


def test_shuffle_is_fisher_yates_over_uniform_below(stream):
    items = list("ABCDEFGHIJKLMNOP")
    expected = list(items)
    for step, position in enumerate(range(len(items) - 1, 0, -1)):
        other = stream.uniform_below(position + 1, 1, "deck", 10 + step)
        expected[position], expected[other] = expected[other], expected[position]
    assert stream.shuffle(items, 1, "deck", 10) == tuple(expected)
    assert shuffle_draw_count(len(items)) == 15
    assert shuffle_draw_count(0) == shuffle_draw_count(1) == 0


def test_shuffle_reaches_every_permutation(stream):
    seen = Counter(stream.shuffle("abc", 1, "deck", 2 * i) for i in range(600))
    assert set(seen) == {tuple(p) for p in permutations("abc")}


def test_shuffle_does_not_change_its_input(stream):
    items = [1, 2, 3, 4]
    stream.shuffle(items, 1, "deck", 0)
    assert items == [1, 2, 3, 4]


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.die(1, "x", -1),
        lambda s: s.die(True, "x", 0),
        lambda s: s.die(1.0, "x", 0),
        lambda s: s.die(1, 5, 0),
        lambda s: s.die(2**63, "x", 0),
        lambda s: s.uniform_below(0, 1, "x", 0),
        lambda s: s.uniform_below(2**63, 1, "x", 0),
        lambda s: s.roll(-1, 1, "x", 0),
        lambda s: s.shuffle([1, 2], 1, "x", -5),
    ],
)
def test_bad_draw_requests_are_refused(stream, call):
    with pytest.raises(InvalidDrawRequest):
        call(stream)


def test_negative_turns_are_allowed(stream):
    assert 1 <= stream.die(-1, "setup", 0) <= 6


def test_stream_needs_a_32_byte_key():
    with pytest.raises(InvalidDrawRequest):
        DiceStream(b"short", CAMPAIGN, 1)


def test_key_is_not_in_repr(stream):
    assert stream.key.hex() not in repr(stream)
    assert repr(stream.key) not in repr(stream)


def _take(iterator, count):
    for _ in range(count):
        yield next(iterator)
