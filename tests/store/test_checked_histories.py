"""A history checked whole is marked in the cache folder, so that a new read parses
only the bodies after the mark; the verdict on any damaged or rewritten history is the
one a whole check gives."""

from __future__ import annotations

import shutil

import pytest

from adjudicator.store import HistoryCorrupt, Store, entry_hash, history
from tests.store.raw import execute, tamper

CAMPAIGN = "pa-1"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(folder))
    return folder


@pytest.fixture
def bodies_parsed(monkeypatch):
    """How many bodies a read checks for canonical form, as a new process would (the
    process's own memory of checked entries emptied first)."""
    parsed = []
    check = history.is_canonical_object

    def counted(text):
        parsed.append(text)
        return check(text)

    monkeypatch.setattr(history, "is_canonical_object", counted)

    def reading(store):
        history._content_problem.cache_clear()
        parsed.clear()
        store.entries(CAMPAIGN)
        return len(parsed)

    return reading


def turns(store, first: int, count: int) -> None:
    with store.transaction(CAMPAIGN) as tx:
        if first == 0:
            tx.create_campaign("port-arthur")
        for n in range(first, first + count):
            tx.append("turn", {"turn": n, "text": f"turn {n} happened"})


def whole_verdict(store, cache) -> tuple[int, str]:
    """What a whole check says of the store's history (no mark in the cache)."""
    shutil.rmtree(cache, ignore_errors=True)
    history._content_problem.cache_clear()
    with pytest.raises(HistoryCorrupt) as caught:
        store.entries(CAMPAIGN)
    return caught.value.seq, caught.value.reason


def verdict(store) -> tuple[int, str]:
    history._content_problem.cache_clear()
    with pytest.raises(HistoryCorrupt) as caught:
        store.entries(CAMPAIGN)
    return caught.value.seq, caught.value.reason


def test_a_new_read_parses_only_the_bodies_after_the_history_checked_whole(store_location, cache, bodies_parsed):
    with Store.open(store_location) as store:
        turns(store, 0, 6)
        assert bodies_parsed(store) == 6   # the first read checks every body
        assert bodies_parsed(store) == 0   # a new read: the mark covers them
        turns(store, 6, 2)
        assert bodies_parsed(store) == 2   # only the entries added since
        assert bodies_parsed(store) == 0


def test_without_a_usable_cache_folder_every_body_is_checked(store_location, tmp_path, monkeypatch, bodies_parsed):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(blocked))
    with Store.open(store_location) as store:
        turns(store, 0, 4)
        assert bodies_parsed(store) == 4
        assert bodies_parsed(store) == 4


@pytest.mark.parametrize("seq", [0, 2, 5])
def test_a_body_changed_under_the_mark_is_refused_as_a_whole_check_refuses_it(store_location, cache, seq):
    with Store.open(store_location) as store:
        turns(store, 0, 6)
        store.entries(CAMPAIGN)  # marked
        tamper(store_location, "UPDATE entries SET body = ? WHERE campaign = ? AND seq = ?",
               ('{"text":"forged","turn":9}', CAMPAIGN, seq))
        seen = verdict(store)
        assert seen == whole_verdict(store, cache)
        assert seen[0] == seq and "does not match its hash" in seen[1]


def test_a_non_canonical_body_whose_hash_is_recomputed_is_refused_under_the_mark(store_location, cache):
    with Store.open(store_location) as store:
        turns(store, 0, 6)
        store.entries(CAMPAIGN)  # marked
        [(kind, prev)] = execute(store_location, "SELECT kind, prev FROM entries WHERE campaign = ? AND seq = 2",
                                 (CAMPAIGN,))
        body = '{"turn": 2, "text": "turn 2 happened"}'
        tamper(store_location, "UPDATE entries SET body = ?, hash = ? WHERE campaign = ? AND seq = 2",
               (body, entry_hash(CAMPAIGN, 2, kind, body, prev), CAMPAIGN))
        seen = verdict(store)
        assert seen == whole_verdict(store, cache)
        assert seen[0] == 2 and "canonical" in seen[1]


def test_a_history_rewritten_whole_does_not_fit_its_mark(store_location, cache):
    """Every hash and link recomputed after a non-canonical body, and the head moved:
    the marked entry's hash is not the mark's, so every body is checked again."""
    with Store.open(store_location) as store:
        turns(store, 0, 6)
        store.entries(CAMPAIGN)  # marked
        rows = execute(store_location, "SELECT seq, kind, body FROM entries WHERE campaign = ? ORDER BY seq",
                       (CAMPAIGN,))
        prev = execute(store_location, "SELECT prev FROM entries WHERE campaign = ? AND seq = 0", (CAMPAIGN,))[0][0]
        for seq, kind, body in rows:
            if seq == 1:
                body = '{"turn": 1, "text": "turn 1 happened"}'
            digest = entry_hash(CAMPAIGN, seq, kind, body, prev)
            tamper(store_location, "UPDATE entries SET body = ?, prev = ?, hash = ? WHERE campaign = ? AND seq = ?",
                   (body, prev, digest, CAMPAIGN, seq))
            prev = digest
        tamper(store_location, "UPDATE campaigns SET head_hash = ? WHERE id = ?", (prev, CAMPAIGN))
        seen = verdict(store)
        assert seen[0] == 1 and "canonical" in seen[1]


def test_a_damaged_mark_is_ignored_and_made_again(store_location, cache, bodies_parsed):
    with Store.open(store_location) as store:
        turns(store, 0, 5)
        store.entries(CAMPAIGN)
        [mark] = list((cache / "checked-histories").glob("*.json"))
        for damage in (b"", b"{not json", b'{"count": 99, "head": "00"}', b'{"count": -1, "head": 5}', b"[]"):
            mark.write_bytes(damage)
            assert bodies_parsed(store) == 5
        assert bodies_parsed(store) == 0
