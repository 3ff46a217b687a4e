"""Property tests: any history round-trips and verifies; any changed byte is caught."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from adjudicator.store import HistoryCorrupt, Store
from tests.store.raw import is_postgresql, tamper

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
bodies = st.dictionaries(st.text(max_size=8), json_values, max_size=5)
kinds = st.from_regex(r"[a-z][a-z0-9_.-]{0,15}", fullmatch=True)
histories = st.lists(st.tuples(kinds, bodies), min_size=1, max_size=12)

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@pytest.fixture
def store(store_location):
    with Store.open(store_location) as opened:
        yield opened


def write(store, campaign, history, per_transaction):
    """Append ``history`` in transactions of ``per_transaction`` entries."""
    store.create_campaign(campaign, "test-game")
    for start in range(0, len(history), per_transaction):
        with store.transaction(campaign) as tx:
            for kind, body in history[start : start + per_transaction]:
                tx.append(kind, body)


def overwrite_body(path, campaign, seq, data):
    """Replace the stored bytes of one body behind the store's back.

    (PostgreSQL holds only valid UTF-8 text without NUL: other bytes are not tried there.)
    """
    if is_postgresql(path):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        assume(text is not None and "\0" not in text)
        tamper(path, "UPDATE entries SET body = ? WHERE campaign = ? AND seq = ?",
               (text, campaign, seq))
        return
    tamper(path, "UPDATE entries SET body = CAST(? AS TEXT) WHERE campaign = ? AND seq = ?",
           (data, campaign, seq))


def test_any_history_round_trips_and_verifies(store):
    ids = (f"c-{n}" for n in itertools.count())

    @SETTINGS
    @given(history=histories, per_transaction=st.integers(1, 4))
    def check(history, per_transaction):
        campaign = next(ids)
        write(store, campaign, history, per_transaction)
        read = store.entries(campaign, verify=True)
        assert [(e.kind, e.body) for e in read] == history
        assert [e.seq for e in read] == list(range(len(history)))
        assert store.head(campaign) == read[-1]

    check()


def test_any_changed_body_byte_is_detected(store):
    ids = (f"c-{n}" for n in itertools.count())
    path = store.path

    @SETTINGS
    @given(history=histories, data=st.data())
    def check(history, data):
        campaign = next(ids)
        write(store, campaign, history, len(history))
        seq = data.draw(st.integers(0, len(history) - 1), label="entry")
        stored = store.entries(campaign)[seq].body_json.encode("utf-8")
        at = data.draw(st.integers(0, len(stored) - 1), label="byte")
        new = data.draw(st.integers(0, 255).filter(lambda b: b != stored[at]), label="value")
        changed = stored[:at] + bytes([new]) + stored[at + 1 :]
        overwrite_body(path, campaign, seq, changed)
        with pytest.raises(HistoryCorrupt) as caught:
            store.entries(campaign, verify=True)
        assert (caught.value.campaign_id, caught.value.seq) == (campaign, seq)

    check()
