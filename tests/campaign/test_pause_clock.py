"""The campaign's clock stops while it is paused: a step's deadline comes once the step
has had its hours outside every pause; a later pause ends the one before it; a pause
record follows its schema, and 'verify' refuses one out of order or malformed."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.campaign.pause import Pause, clock_deadline, in_force, spans
from adjudicator.campaign.record_schema import schema_problem

T = datetime(2027, 1, 1, tzinfo=timezone.utc)


def outside(start: datetime, end: datetime, held) -> timedelta:
    """The time from ``start`` to ``end`` outside every span of ``held``."""
    inside = sum((min(e, end) - max(s, start) for s, e in held if min(e, end) > max(s, start)), timedelta())
    return end - start - inside


@given(st.integers(1, 200), st.lists(st.tuples(st.integers(-100, 400), st.integers(1, 100)), max_size=4))
def test_a_deadline_comes_after_the_steps_hours_outside_every_pause(hours, raw):
    held, moment = [], T - timedelta(hours=100)
    for gap, length in sorted(raw):  # pauses that do not overlap, as spans() gives them
        start = max(moment, T + timedelta(hours=gap))
        held.append((start, start + timedelta(hours=length)))
        moment = start + timedelta(hours=length)
    deadline = clock_deadline(T, hours, held)
    assert outside(T, deadline, held) == timedelta(hours=hours)
    assert not any(s < deadline < e for s, e in held)  # never a deadline while paused
    assert deadline >= T + timedelta(hours=hours)


def test_a_later_pause_ends_the_one_in_force_and_an_end_pauses_nothing():
    first = Pause(T, date(2027, 1, 10), "sides", "every side asked", 5)
    ended = Pause(T + timedelta(days=2), date(2027, 1, 3), "referee", "back early", 9)
    assert spans([first]) == [(T, datetime(2027, 1, 10, tzinfo=timezone.utc))]
    assert spans([first, ended]) == [(T, T + timedelta(days=2))]
    assert in_force([first], T + timedelta(days=1)) == first
    assert in_force([first, ended], T + timedelta(days=3)) is None
    assert in_force([first, ended], T + timedelta(days=1)) == first  # held then, ended later
    assert clock_deadline(T - timedelta(hours=1), 3, spans([first, ended])) == T + timedelta(days=2, hours=2)


def test_a_pause_record_follows_its_schema():
    body = Pause(T, date(2027, 1, 10), "referee", "a house move", 3).body()
    assert schema_problem("pause", body) is None
    assert "until" in schema_problem("pause", {**body, "until": "soon"})
    assert "reason" in schema_problem("pause", {k: v for k, v in body.items() if k != "reason"})
    assert schema_problem("pause", {**body, "by": "japan"}) is not None
    assert schema_problem("pause", {**body, "from": "2027-01-01T00:00:00"}) is not None  # UTC, said so


def test_a_deadline_moved_past_an_absence_never_lands_in_a_pause():
    """72 hours from 1 January; russia away 3-5 January; a pause from 6 January 12:00
    until 10 January: the deadline falls in the absence with 24 hours left, which run
    12 hours before the pause and 12 after it, not into it."""
    import json
    from types import SimpleNamespace

    from adjudicator.campaign.summary import step_deadline

    pause = Pause(T + timedelta(days=5, hours=12), date(2027, 1, 10), "sides", "every side asked", 1).body()
    entries = [SimpleNamespace(kind="charter", body_json=json.dumps({"private": {"opened": T.isoformat()}})),
               SimpleNamespace(kind="pause", body_json=json.dumps({"record": {"body": pause}}))]
    meta = {"deadline_hours": 72, "absences": {"russia": [{"from": "2027-01-03", "to": "2027-01-05"}]}}
    deadline = step_deadline(entries, meta)
    assert deadline == datetime(2027, 1, 10, 12, tzinfo=timezone.utc)
    assert step_deadline(entries[:1], meta) == datetime(2027, 1, 7, tzinfo=timezone.utc)  # the absence alone
