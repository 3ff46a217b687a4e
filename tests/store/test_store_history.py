"""Hash links and the detection of a tampered history."""

from __future__ import annotations

import copy

import pytest

from adjudicator.store import (
    GENESIS,
    HistoryCorrupt,
    InvalidValue,
    Store,
    entry_hash,
    verify_chain,
    verify_export,
)
from tests.store import raw
from tests.store.raw import tamper

CAMPAIGN = "pa-1"


@pytest.fixture
def path(store_location):
    return store_location


def six_turns(location):
    opened = Store.open(location)
    with opened.transaction(CAMPAIGN) as tx:
        tx.create_campaign("port-arthur")
        for n in range(6):
            tx.append("turn", {"turn": n, "text": f"turn {n} happened"})
    return opened


@pytest.fixture
def store(path):
    with six_turns(path) as opened:
        yield opened


def corrupt_at(store):
    with pytest.raises(HistoryCorrupt) as caught:
        store.entries(CAMPAIGN)
    return caught.value


def test_entries_are_hash_linked(store):
    history = store.entries(CAMPAIGN)
    assert history[0].prev == GENESIS
    for before, after in zip(history, history[1:]):
        assert after.prev == before.hash
        assert after.seq == before.seq + 1
    for entry in history:
        assert entry.hash == entry_hash(
            CAMPAIGN, entry.seq, entry.kind, entry.body_json, entry.prev
        )
    assert store.campaign(CAMPAIGN).head_hash == history[-1].hash


def test_hash_is_length_prefixed_and_domain_separated():
    a = entry_hash("ab", 1, "c", "{}", GENESIS)
    b = entry_hash("a", 1, "bc", "{}", GENESIS)
    assert a != b
    assert len(a) == 64 and int(a, 16) >= 0


def test_changed_body_is_detected(store, path):
    tamper(
        path,
        "UPDATE entries SET body = ? WHERE campaign = ? AND seq = 3",
        ('{"text":"turn 3 happened differently","turn":3}', CAMPAIGN),
    )
    error = corrupt_at(store)
    assert (error.campaign_id, error.seq) == (CAMPAIGN, 3)
    assert "altered" in error.reason
    assert "'pa-1' is corrupt at entry 3" in str(error)


def test_changed_kind_is_detected(store, path):
    tamper(path, "UPDATE entries SET kind = 'undo' WHERE campaign = ? AND seq = 2", (CAMPAIGN,))
    assert corrupt_at(store).seq == 2


def test_deleted_middle_row_is_detected(store, path):
    tamper(path, "DELETE FROM entries WHERE campaign = ? AND seq = 2", (CAMPAIGN,))
    error = corrupt_at(store)
    assert error.seq == 2
    assert "missing" in error.reason


def test_deleted_last_row_is_detected(store, path):
    tamper(path, "DELETE FROM entries WHERE campaign = ? AND seq = 5", (CAMPAIGN,))
    error = corrupt_at(store)
    assert error.seq == 5
    assert "removed from the end" in error.reason
    with pytest.raises(HistoryCorrupt):
        store.head(CAMPAIGN)


def test_deleted_first_row_is_detected(store, path):
    tamper(path, "DELETE FROM entries WHERE campaign = ? AND seq = 0", (CAMPAIGN,))
    assert corrupt_at(store).seq == 0


def test_reordered_rows_are_detected(store, path):
    tamper(path, "UPDATE entries SET seq = 100 WHERE campaign = ? AND seq = 1", (CAMPAIGN,))
    tamper(path, "UPDATE entries SET seq = 1 WHERE campaign = ? AND seq = 2", (CAMPAIGN,))
    tamper(path, "UPDATE entries SET seq = 2 WHERE campaign = ? AND seq = 100", (CAMPAIGN,))
    error = corrupt_at(store)
    assert error.seq == 1


def test_relinked_row_is_detected(store, path):
    """A row whose hash is recomputed but not its successor's link is caught there."""
    [row] = raw.execute(path, "SELECT kind, prev FROM entries WHERE campaign = ? AND seq = 4",
                        (CAMPAIGN,))
    body = '{"text":"forged","turn":4}'
    forged = entry_hash(CAMPAIGN, 4, row[0], body, row[1])
    tamper(
        path,
        "UPDATE entries SET body = ?, hash = ? WHERE campaign = ? AND seq = 4",
        (body, forged, CAMPAIGN),
    )
    error = corrupt_at(store)
    assert error.seq == 5
    assert "broken link" in error.reason


def test_non_canonical_body_with_matching_hash_is_detected(store, path):
    body = '{"turn": 0, "text": "turn 0 happened"}'
    forged = entry_hash(CAMPAIGN, 0, "turn", body, GENESIS)
    tamper(
        path,
        "UPDATE entries SET body = ?, hash = ? WHERE campaign = ? AND seq = 0",
        (body, forged, CAMPAIGN),
    )
    error = corrupt_at(store)
    assert error.seq == 0
    assert "canonical" in error.reason


def test_invalid_utf8_body_is_detected(tmp_path):
    """(An SQLite file can hold any bytes; a PostgreSQL UTF-8 database refuses them.)"""
    path = tmp_path / "campaigns.sqlite3"
    store = six_turns(path)
    tamper(
        path,
        "UPDATE entries SET body = CAST(? AS TEXT) WHERE campaign = ? AND seq = 1",
        (b'{"turn":\xff}', CAMPAIGN),
    )
    error = corrupt_at(store)
    assert error.seq == 1
    assert "UTF-8" in error.reason


def test_unverified_read_skips_checks(store, path):
    tamper(path, "UPDATE entries SET kind = 'x' WHERE campaign = ? AND seq = 2", (CAMPAIGN,))
    assert len(store.entries(CAMPAIGN, verify=False)) == 6


def test_append_refuses_a_damaged_tail(store, path):
    tamper(path, "DELETE FROM entries WHERE campaign = ? AND seq = 5", (CAMPAIGN,))
    with pytest.raises(HistoryCorrupt):
        with store.transaction(CAMPAIGN) as tx:
            tx.append("turn", {"turn": 6})


def test_triggers_forbid_update_and_delete(store, path):
    with pytest.raises(Exception, match="append-only"):
        raw.execute(path, "UPDATE entries SET kind = 'x'")
    with pytest.raises(Exception, match="append-only"):
        raw.execute(path, "DELETE FROM entries")
    assert len(store.entries(CAMPAIGN)) == 6


def test_other_campaigns_are_unaffected_by_corruption(store, path):
    with store.transaction("other") as tx:
        tx.create_campaign("port-arthur")
        tx.append("turn", {"turn": 0})
    tamper(path, "DELETE FROM entries WHERE campaign = ? AND seq = 1", (CAMPAIGN,))
    assert len(store.entries("other")) == 1
    corrupt_at(store)


# -- history export ------------------------------------------------------------------


def test_export_verifies_without_a_store(store):
    document = store.export_history(CAMPAIGN)
    assert document["campaign"]["id"] == CAMPAIGN
    assert verify_export(document) == store.entries(CAMPAIGN)


def test_export_tampering_is_detected(store):
    document = store.export_history(CAMPAIGN)
    changed = copy.deepcopy(document)
    changed["entries"][2]["body"]["turn"] = 99
    with pytest.raises(HistoryCorrupt) as caught:
        verify_export(changed)
    assert caught.value.seq == 2
    truncated = copy.deepcopy(document)
    del truncated["entries"][-1]
    with pytest.raises(HistoryCorrupt, match="removed from the end"):
        verify_export(truncated)
    dropped = copy.deepcopy(document)
    del dropped["entries"][1]
    with pytest.raises(HistoryCorrupt, match="missing"):
        verify_export(dropped)


def test_export_of_wrong_shape_is_refused():
    with pytest.raises(InvalidValue):
        verify_export({"format": "something else"})


def test_verify_chain_on_entries(store):
    history = store.entries(CAMPAIGN)
    assert verify_chain(CAMPAIGN, history) == history
    with pytest.raises(HistoryCorrupt, match="belongs to campaign"):
        verify_chain("elsewhere", history)
    with pytest.raises(HistoryCorrupt):
        verify_chain(CAMPAIGN, [history[0], history[2]])


def test_a_kept_traceback_does_not_pin_an_old_snapshot(store, path):
    """Reading after a refused history must still see other writers' commits."""
    with store.transaction("other") as tx:
        tx.create_campaign("port-arthur")
    tamper(path, "DELETE FROM entries WHERE campaign = ? AND seq = 1", (CAMPAIGN,))
    with pytest.raises(HistoryCorrupt) as kept:
        store.entries(CAMPAIGN)
    with Store.open(path) as writer:
        with writer.transaction("other") as tx:
            tx.append("turn", {"turn": 0})
    assert kept.value.seq == 1
    assert len(store.entries("other")) == 1


def test_the_first_bad_entry_is_named(store, path):
    tamper(path, "DELETE FROM entries WHERE campaign = ? AND seq = 4", (CAMPAIGN,))
    tamper(path, "UPDATE entries SET kind = 'x' WHERE campaign = ? AND seq = 2", (CAMPAIGN,))
    assert corrupt_at(store).seq == 2


def test_a_transaction_reading_its_history_again_sees_what_it_appended(store):
    with store.transaction(CAMPAIGN) as tx:
        before = tx.entries()
        added = tx.append("turn", {"turn": 6, "text": "turn 6 happened"})
        again = tx.entries()
        again.pop()  # a caller changing the list it got changes nothing stored
        assert tx.entries() == [*before, added]
    assert store.entries(CAMPAIGN) == [*before, added]


@pytest.mark.parametrize("text", ['{"a":1}', '{"a":[1,2.5,"x"],"b":null}'])
def test_canonical_object_text_is_recognised(text):
    from adjudicator.store.canonical import is_canonical_object
    assert is_canonical_object(text)


@pytest.mark.parametrize("text", ['{"b":1,"a":2}', '{"a": 1}', '[1]', '{"a":NaN}', '{"a":"\\ud800"}', '{"a":"\ud800"}'])
def test_text_that_is_not_canonical_json_of_an_object_is_refused(text):
    from adjudicator.store.canonical import is_canonical_object
    assert not is_canonical_object(text)
