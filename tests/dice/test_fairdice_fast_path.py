"""The dice's fast path (the (turn, phase) prefix encoded once, one-shot HMAC per block)
gives exactly the dice of the protocol's definition: the first byte below 252 of the
draw's byte stream, taken % 6 + 1 (docs/dice.md)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.fairdice import DiceStream
from adjudicator.fairdice.prf import DIE_DOMAIN, DIE_REJECT_THRESHOLD

INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
INDEX = st.integers(min_value=0, max_value=2**63 - 1)


def die_by_definition(stream: DiceStream, turn: int, phase: str, index: int) -> int:
    return next(b for b in stream.byte_stream(DIE_DOMAIN, turn, phase, index) if b < DIE_REJECT_THRESHOLD) % 6 + 1


@settings(max_examples=300, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), campaign=st.text(min_size=1, max_size=20),
       batch=st.integers(min_value=0, max_value=2**63 - 1), turn=INT64, phase=st.text(max_size=30), index=INDEX)
def test_a_die_is_the_first_byte_below_252_of_its_stream(key, campaign, batch, turn, phase, index):
    stream = DiceStream(key, campaign, batch)
    assert stream.die(turn, phase, index) == die_by_definition(stream, turn, phase, index)


@settings(max_examples=100, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), turn=st.integers(min_value=0, max_value=10),
       phase=st.sampled_from(["operations", "battle", "fire in Yellow Sea, SFP 7"]),
       start=st.integers(min_value=0, max_value=1000), count=st.integers(min_value=0, max_value=40))
def test_a_roll_is_its_dice_one_by_one(key, turn, phase, start, count):
    stream = DiceStream(key, "c1", 3)
    assert stream.roll(count, turn, phase, start) == tuple(
        die_by_definition(stream, turn, phase, start + i) for i in range(count))


def test_a_die_whose_first_block_is_all_rejected_is_read_from_the_next_blocks(monkeypatch):
    from adjudicator.fairdice import prf

    monkeypatch.setattr(prf, "DIE_REJECT_THRESHOLD", 3)  # most bytes rejected: many dice need block 1, 2, ...
    stream = DiceStream(b"k" * 32, "c1", 1)
    later_blocks = 0
    for index in range(200):
        bytes_read = next(n for n, b in enumerate(stream.byte_stream(DIE_DOMAIN, 1, "p", index)) if b < 3)
        later_blocks += bytes_read >= 32
        assert stream.die(1, "p", index) == next(
            b for b in stream.byte_stream(DIE_DOMAIN, 1, "p", index) if b < 3) % 6 + 1
    assert later_blocks > 50
