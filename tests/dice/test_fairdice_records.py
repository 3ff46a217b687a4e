"""Signed, hash-linked records and their JSON Lines form."""

import dataclasses

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.fairdice import (
    GENESIS_PREV,
    Record,
    RecordFormatError,
    RecordInvalid,
    RecordLog,
    records_from_jsonl,
    records_to_jsonl,
    sign_record,
    signature_is_valid,
    verify_log,
)

REFEREE_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32, 64)))
OTHER_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(64, 96)))
PUBLIC_KEY = REFEREE_KEY.public_key()


def make_log(count=4):
    log = RecordLog()
    log = log.appended(REFEREE_KEY, "charter", {"campaign_id": "demo-1904", "sides": ["japan", "russia"]})
    for batch in range(1, count):
        log = log.appended(REFEREE_KEY, "reveal", {"batch": batch, "note": "Tōgō", "seed": f"{batch:064x}"})
    return log


LOG = make_log()
EXPORT = LOG.to_jsonl().encode("utf-8")


def test_log_links_and_verifies():
    records = LOG.records
    assert [r.seq for r in records] == [0, 1, 2, 3]
    assert records[0].prev == GENESIS_PREV
    assert all(later.prev == earlier.hash for earlier, later in zip(records, records[1:]))
    assert verify_log(records, PUBLIC_KEY) == LOG.head_hash == records[-1].hash
    assert RecordLog.verified(records, PUBLIC_KEY) == LOG


def test_empty_log():
    assert verify_log([], PUBLIC_KEY) == GENESIS_PREV
    assert RecordLog().last is None and RecordLog().next_seq == 0


def test_signature_by_another_key_fails():
    forged = RecordLog().appended(OTHER_KEY, "charter", {"campaign_id": "demo-1904"})
    with pytest.raises(RecordInvalid) as caught:
        verify_log(forged.records, PUBLIC_KEY)
    assert caught.value.seq == 0 and "signature" in caught.value.reason
    assert not signature_is_valid(forged.records[0], PUBLIC_KEY)
    assert signature_is_valid(forged.records[0], OTHER_KEY.public_key())


def test_changed_body_is_reported_at_its_seq():
    records = list(LOG.records)
    records[2] = dataclasses.replace(records[2], body={**records[2].body, "batch": 99})
    with pytest.raises(RecordInvalid) as caught:
        verify_log(records, PUBLIC_KEY)
    assert caught.value.seq == 2 and "signature" in caught.value.reason


def test_re_signed_record_breaks_the_next_link():
    records = list(LOG.records)
    records[1] = sign_record(REFEREE_KEY, 1, "reveal", {"batch": 1, "seed": "ab" * 32}, records[0].hash)
    with pytest.raises(RecordInvalid) as caught:
        verify_log(records, PUBLIC_KEY)
    assert caught.value.seq == 2 and "prev" in caught.value.reason


def test_removed_record_is_detected():
    records = list(LOG.records)
    del records[1]
    with pytest.raises(RecordInvalid) as caught:
        verify_log(records, PUBLIC_KEY)
    assert caught.value.seq == 1 and "sequence" in caught.value.reason


def test_reordered_records_are_detected():
    records = list(LOG.records)
    records[1], records[2] = records[2], records[1]
    with pytest.raises(RecordInvalid) as caught:
        verify_log(records, PUBLIC_KEY)
    assert caught.value.seq == 1


def test_first_record_must_link_to_genesis():
    record = sign_record(REFEREE_KEY, 0, "charter", {}, "11" * 32)
    with pytest.raises(RecordInvalid, match="prev"):
        verify_log([record], PUBLIC_KEY)


def test_cut_off_end_is_detected_with_the_expected_head():
    shortened = LOG.records[:-1]
    assert verify_log(shortened, PUBLIC_KEY) == shortened[-1].hash
    with pytest.raises(RecordInvalid) as caught:
        verify_log(shortened, PUBLIC_KEY, expected_head=LOG.head_hash)
    assert caught.value.seq == 3


def test_non_record_in_log():
    with pytest.raises(RecordInvalid, match="not a record"):
        verify_log([LOG.records[0], LOG.records[1].to_dict()], PUBLIC_KEY)


def test_hash_covers_the_signature():
    record = LOG.records[0]
    other = sign_record(OTHER_KEY, 0, record.kind, record.body, record.prev)
    assert other.signed_payload() == record.signed_payload()
    assert other.hash != record.hash


def test_body_is_detached_from_the_callers_dict():
    body = {"list": [1, 2]}
    record = sign_record(REFEREE_KEY, 0, "note", body, GENESIS_PREV)
    body["list"].append(3)
    assert record.body == {"list": [1, 2]}
    assert signature_is_valid(record, PUBLIC_KEY)


@pytest.mark.parametrize(
    "fields",
    [
        dict(seq=-1),
        dict(seq=True),
        dict(kind=""),
        dict(body=[1]),
        dict(body={"x": 1.5}),
        dict(prev="AB" * 32),
        dict(prev="ab"),
        dict(signature=None),
    ],
)
def test_malformed_records_are_refused(fields):
    base = dict(seq=0, kind="note", body={}, prev=GENESIS_PREV, signature="")
    with pytest.raises(RecordFormatError):
        Record(**{**base, **fields})


def test_jsonl_round_trip():
    text = records_to_jsonl(LOG.records)
    assert text.count("\n") == len(LOG.records) and text.endswith("\n")
    assert records_from_jsonl(text) == list(LOG.records)
    assert records_from_jsonl(EXPORT) == list(LOG.records)
    assert records_from_jsonl(text.rstrip("\n")) == list(LOG.records)
    assert records_from_jsonl("") == []


def test_jsonl_is_human_readable_utf8():
    assert "Tōgō" in LOG.to_jsonl()


@pytest.mark.parametrize(
    "mangle, line",
    [
        (lambda lines: lines[:1] + [""] + lines[1:], 2),
        (lambda lines: lines[:2] + [lines[2] + " "], 3),
        (lambda lines: lines[:1] + [lines[1].replace('"kind"', '"kind" ')], 2),
        (lambda lines: lines[:1] + ["[1, 2]"], 2),
        (lambda lines: lines[:1] + ['{"seq": 1}'], 2),
        (lambda lines: lines[:1] + [lines[1].replace('"batch":1', '"batch":1.0')], 2),
        (lambda lines: lines[:1] + [lines[1].replace('"batch":1', '"batch":NaN')], 2),
        (lambda lines: lines[:1] + ["[" * 100000], 2),
    ],
)
def test_jsonl_refuses_non_canonical_lines(mangle, line):
    lines = LOG.to_jsonl().splitlines()
    with pytest.raises(RecordFormatError) as caught:
        records_from_jsonl("\n".join(mangle(lines)) + "\n")
    assert caught.value.line == line


def test_jsonl_refuses_invalid_utf8_with_line_number():
    data = EXPORT.replace("ō".encode(), b"\xff", 1)
    with pytest.raises(RecordFormatError) as caught:
        records_from_jsonl(data)
    assert caught.value.line == 2


@given(position=st.integers(0, len(EXPORT) - 1), replacement=st.integers(0, 255))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_single_byte_change_is_detected(position, replacement):
    if EXPORT[position] == replacement:
        replacement ^= 0x01
    tampered = bytearray(EXPORT)
    tampered[position] = replacement
    with pytest.raises((RecordFormatError, RecordInvalid)):
        verify_log(records_from_jsonl(bytes(tampered)), PUBLIC_KEY)


def test_every_byte_of_the_signature_field_matters():
    # exhaustive over the base64 alphabet at every position of one signature
    line = LOG.records[1].to_json_line()
    start = line.index('"signature":"') + len('"signature":"')
    end = line.index('"', start)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
    for position in range(start, end):
        for char in alphabet:
            if char == line[position]:
                continue
            tampered = line[:position] + char + line[position + 1 :]
            with pytest.raises((RecordFormatError, RecordInvalid)):
                verify_log(
                    [LOG.records[0], *records_from_jsonl(tampered + "\n")], PUBLIC_KEY
                )
