"""Canonical field encoding and canonical JSON."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.fairdice import EncodingError, NonCanonicalJson, canonical_json, decode, encode
from adjudicator.fairdice.encoding import _check_json_value, _plainly_json

int64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
scalar_fields = st.one_of(st.binary(max_size=40), st.text(max_size=20), int64)
fields = st.recursive(scalar_fields, lambda inner: st.tuples(inner, inner) | st.tuples(inner), max_leaves=8)
domains = st.sampled_from([b"adjudicator/die/v1", b"adjudicator/chain/v1", b"x/v1"])


def test_example_layout():
    assert encode(b"x/v1", "ab", 1).hex(" ") == (
        "00 00 00 00 04 78 2f 76 31 "  # domain: tag 0, length 4, "x/v1"
        "02 00 00 00 02 61 62 "  # str "ab"
        "03 00 00 00 08 00 00 00 00 00 00 00 01"  # int 1
    )


def test_negative_int_bytes_and_sequence():
    assert encode(b"x/v1", -1, b"\x00", ("a",)).hex() == (
        "0000000004782f7631"
        "0300000008ffffffffffffffff"
        "010000000100"
        "0400000006" "020000000161"
    )


@given(domains, st.lists(fields, max_size=6))
def test_decode_inverts_encode(domain, values):
    decoded_domain, decoded_fields = decode(encode(domain, *values))
    assert decoded_domain == domain
    assert decoded_fields == tuple(_as_tuples(value) for value in values)


@given(domains, st.lists(fields, max_size=4), domains, st.lists(fields, max_size=4))
def test_encoding_is_injective(domain_a, fields_a, domain_b, fields_b):
    same_input = domain_a == domain_b and [_as_tuples(f) for f in fields_a] == [
        _as_tuples(f) for f in fields_b
    ]
    assert (encode(domain_a, *fields_a) == encode(domain_b, *fields_b)) == same_input


def test_types_are_distinguished():
    assert encode(b"x/v1", "1") != encode(b"x/v1", b"1") != encode(b"x/v1", 1)
    assert encode(b"x/v1", ("a", "b")) != encode(b"x/v1", "a", "b")
    assert encode(b"x/v1", "ab", "c") != encode(b"x/v1", "a", "bc")


@pytest.mark.parametrize("bad", [True, 1.5, None, 2**63, -(2**63) - 1, "\ud800", {"a": 1}])
def test_refuses_values_without_canonical_encoding(bad):
    with pytest.raises(EncodingError):
        encode(b"x/v1", bad)


@pytest.mark.parametrize("domain", [b"", b"has space", "str/v1", b"caf\xc3\xa9"])
def test_refuses_bad_domains(domain):
    with pytest.raises(EncodingError):
        encode(domain)


@pytest.mark.parametrize(
    "data",
    [b"", b"\x01\x00\x00\x00\x00", bytes.fromhex("0000000004782f7631030000000100"),
     bytes.fromhex("0000000004782f763109000000"), bytes.fromhex("0000000004782f7631020000000001")],
)
def test_decode_refuses_malformed_input(data):
    with pytest.raises(EncodingError):
        decode(data)


def test_canonical_json_form():
    value = {"b": [1, "é", None], "a": {"z": None, "y": True}, "A": -5}
    assert canonical_json(value) == '{"A":-5,"a":{"y":true,"z":null},"b":[1,"é",null]}'.encode()


@pytest.mark.parametrize(
    "bad", [float("nan"), float("inf"), 0.5, 2**53, {1: "a"}, {"k": b"x"}, "\udc00", {"s": {1, 2}}]
)
def test_canonical_json_refuses_non_canonical_values(bad):
    with pytest.raises(NonCanonicalJson):
        canonical_json(bad)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(json_values)
def test_canonical_json_round_trips_and_is_stable(value):
    text = canonical_json(value)
    assert canonical_json(json.loads(text)) == text


def _as_tuples(value):
    if isinstance(value, (list, tuple)):
        return tuple(_as_tuples(item) for item in value)
    return value


odd_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() | st.floats() | st.binary(),
    lambda inner: (st.lists(inner, max_size=4) | st.lists(inner, max_size=4).map(tuple)
                   | st.dictionaries(st.text() | st.integers(), inner, max_size=4)),
    max_leaves=12,
)


@given(odd_values)
def test_canonical_json_accepts_and_refuses_exactly_as_the_path_naming_check(value):
    """The quick test that spares most values the path-naming check never decides
    otherwise than that check: what it passes, the full check passes too."""
    try:
        _check_json_value(value, "$")
        accepted = True
    except NonCanonicalJson:
        accepted = False
    if _plainly_json(value):
        assert accepted
    assert (canonical_json_or_none(value) is not None) == accepted


def canonical_json_or_none(value):
    try:
        return canonical_json(value)
    except NonCanonicalJson:
        return None
