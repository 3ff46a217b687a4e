"""One canonical JSON text, with one float rule, for the store, the signed records and
the published state hashes (adjudicator/canonical.py)."""

from __future__ import annotations

import hashlib
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.campaign.protocol import state_hash
from adjudicator.canonical import canonical_text
from adjudicator.fairdice import FairDiceError, canonical_json as signed_json
from adjudicator.store.canonical import canonical_json as stored_json

TEXT = st.text(st.characters(blacklist_categories=("Cs",)))  # (a lone surrogate is no text)
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=20)


@given(PLAIN)
def test_the_store_the_signed_records_and_the_state_hash_write_the_same_text(value):
    text = canonical_text(value)
    assert stored_json(value) == text
    assert signed_json(value) == text.encode("utf-8")
    if isinstance(value, dict):
        assert state_hash(value) == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_float_rule_finite_floats_as_python_writes_them_nan_and_infinities_refused():
    assert canonical_text({"deadline_hours": 72.0, "share": 0.1, "big": 1e16}) == \
        '{"big":1e+16,"deadline_hours":72.0,"share":0.1}'
    assert stored_json({"deadline_hours": 72.5}) == '{"deadline_hours":72.5}'
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            canonical_text({"x": bad})


def test_a_value_to_be_signed_holds_no_float_at_all():
    with pytest.raises(FairDiceError, match="float"):
        signed_json({"x": 72.0})
