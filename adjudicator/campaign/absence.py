"""Absences: a player who will be away says so by mail, and the step's clock stops.

A mail with the lines ``campaign:``, ``side:``, ``password:`` and
``away: 2026-12-20 to 2026-12-27`` (dates of the first and last day away, UTC, both
counted) records an absence of that side, within the campaign's budget: by default
:data:`DAYS_A_YEAR` days in a calendar year (the year the absence begins in) and at
most :data:`LONGEST` days in one absence; a roster's ``[[campaign]]`` may set its own
(``absence_days_a_year``, ``absence_days_at_most``), kept in the metadata as
:data:`BUDGET`. ``away: none`` ends the absence in force
(today is its last day) and withdraws those still to come.

A step's deadline that falls inside an absence of any side moves past its end by the
time the step had left when the absence began (or, for a step opened during it, by
the whole of the step's hours): the clock stops while a player is away.

Absences live in the campaign's metadata (:data:`ABSENCES`: side -> list of
``{"from": ISO date, "to": ISO date}``), never in the public record's entries and
never with an address; a restart keeps them with the campaign.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Mapping, Sequence

from adjudicator.campaign.errors import CampaignError
from adjudicator.i18n import said

#: Days of absence a side may take in one calendar year, and in one absence.
DAYS_A_YEAR, LONGEST = 14, 10
#: The campaign's metadata keys of the absences, and of the campaign's own budget.
ABSENCES, BUDGET = "absences", "absence_budget"
#: The roster's keys of a campaign's own budget, and the budget's keys they set.
ROSTER_KEYS = {"absence_days_a_year": "days_a_year", "absence_days_at_most": "longest"}
#: The ``away:`` line of a mail.
AWAY_LINE = re.compile(r"^[ \t]*away[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
SPAN = re.compile(r"^(\S+)[ \t]+to[ \t]+(\S+)$", re.IGNORECASE)
EXAMPLE = said("'away: 2026-12-20 to 2026-12-27' (first and last day away, UTC) or 'away: none'")


class AbsenceRefused(CampaignError):
    """An ``away:`` line that cannot be recorded (malformed, over budget, overlapping)."""


@dataclass(frozen=True)
class Absence:
    """One absence of a side: its first and last day away (UTC, both counted)."""

    first: date
    last: date

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1

    @property
    def start(self) -> datetime:
        return datetime.combine(self.first, time(), timezone.utc)

    @property
    def end(self) -> datetime:
        """The moment the absence is over: midnight UTC after its last day."""
        return datetime.combine(self.last + timedelta(days=1), time(), timezone.utc)

    def words(self) -> str:
        return said("%(first)s to %(last)s", first=self.first.isoformat(), last=self.last.isoformat())

    def stored(self) -> dict[str, str]:
        return {"from": self.first.isoformat(), "to": self.last.isoformat()}


def read_away(line: str) -> Absence | None:
    """The absence an ``away:`` line asks (None: ``away: none``); AbsenceRefused, quoting
    the line, when it is not one."""
    value = AWAY_LINE.match(line).group(1) if AWAY_LINE.match(line) else ""
    if value.lower() == "none":
        return None
    span = SPAN.match(value)
    if span is None:
        raise AbsenceRefused(said("the line '%(line)s' is not an absence: write %(example)s", line=line,
                                  example=EXAMPLE))
    days = []
    for given in span.groups():
        try:
            days.append(date.fromisoformat(given) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", given) else None)
        except ValueError:
            days.append(None)
        if days[-1] is None:
            raise AbsenceRefused(said("in the line '%(line)s', '%(given)s' is not a date: write dates as "
                                      "YEAR-MONTH-DAY, e.g. %(example)s", line=line, given=given, example=EXAMPLE))
    first, last = days
    if last < first:
        raise AbsenceRefused(said("in the line '%(line)s', the last day comes before the first: write the first "
                                  "day away, then 'to', then the last", line=line))
    return Absence(first, last)


def absences_of(meta: Mapping[str, Any], side: str) -> list[Absence]:
    return [Absence(date.fromisoformat(a["from"]), date.fromisoformat(a["to"]))
            for a in meta.get(ABSENCES, {}).get(side, [])]


def all_absences(meta: Mapping[str, Any]) -> list[tuple[str, Absence]]:
    return sorted(((side, a) for side in meta.get(ABSENCES, {}) for a in absences_of(meta, side)),
                  key=lambda pair: (pair[1].first, pair[0]))


def budget(meta: Mapping[str, Any]) -> tuple[int, int]:
    """The campaign's budget: days a year, and the longest absence."""
    own = meta.get(BUDGET, {})
    return int(own.get("days_a_year", DAYS_A_YEAR)), int(own.get("longest", LONGEST))


def days_left(meta: Mapping[str, Any], side: str, year: int) -> int:
    """Days of the side's budget left in ``year`` (absences beginning in that year count)."""
    return budget(meta)[0] - sum(a.days for a in absences_of(meta, side) if a.first.year == year)


def budget_words(meta: Mapping[str, Any], side: str, year: int) -> str:
    a_year, longest = budget(meta)
    return said("%(left)s of %(a_year)s days left in %(year)s (at most %(longest)s days in one absence)",
                left=days_left(meta, side, year), a_year=a_year, year=year, longest=longest)


def with_absence(meta: Mapping[str, Any], side: str, absence: Absence, today: date) -> dict[str, Any]:
    """The metadata with ``absence`` recorded for ``side``; AbsenceRefused when it begins
    before today, overlaps another of the side's, or is over the budget."""
    if absence.first < today:
        raise AbsenceRefused(said("an absence cannot begin before today (%(today)s, UTC): %(dates)s was not "
                                  "recorded", today=today.isoformat(), dates=absence.words()))
    year = absence.first.year
    for other in absences_of(meta, side):
        if other.first <= absence.last and absence.first <= other.last:
            raise AbsenceRefused(said("%(dates)s overlaps your absence %(other)s: send 'away: none' to end or "
                                      "withdraw yours first", dates=absence.words(), other=other.words()))
    if absence.days > budget(meta)[1]:
        raise AbsenceRefused(said("%(dates)s is %(days)s days, over the longest absence of %(longest)s days; you "
                                  "have %(budget)s", dates=absence.words(), days=absence.days,
                                  longest=budget(meta)[1], budget=budget_words(meta, side, year)))
    if absence.days > days_left(meta, side, year):
        raise AbsenceRefused(said("%(dates)s is %(days)s days, over your budget: you have %(budget)s",
                                  dates=absence.words(), days=absence.days, budget=budget_words(meta, side, year)))
    kept = sorted(absences_of(meta, side) + [absence], key=lambda a: a.first)
    return _stored(meta, side, kept)


def without_absence(meta: Mapping[str, Any], side: str, today: date) -> tuple[dict[str, Any], list[str]]:
    """The metadata with the side's absence in force ended today and those to come
    withdrawn, and what changed, in words."""
    kept, changed = [], []
    for absence in absences_of(meta, side):
        if absence.last <= today:  # over, or ending today already
            kept.append(absence)
        elif absence.first <= today:
            kept.append(Absence(absence.first, today))
            changed.append(said("the absence %(dates)s ends today (%(today)s)", dates=absence.words(),
                                today=today.isoformat()))
        else:
            changed.append(said("the absence %(dates)s is withdrawn", dates=absence.words()))
    return _stored(meta, side, kept), changed


def _stored(meta: Mapping[str, Any], side: str, absences: list[Absence]) -> dict[str, Any]:
    every = {**meta.get(ABSENCES, {}), side: [a.stored() for a in absences]}
    return {**meta, ABSENCES: {s: spans for s, spans in every.items() if spans}}


def moved_deadline(deadline: datetime, opened: datetime, meta: Mapping[str, Any],
                   paused: Sequence[tuple[datetime, datetime]] = ()) -> datetime:
    """``deadline`` moved past every absence it falls in: by the time the step had left
    when the absence began (the whole step, for a step opened during it), counted, as
    the step's own time is, outside the campaign's pauses (``paused``, the spans
    :func:`adjudicator.campaign.pause.spans` gives), so that a deadline moved out of an
    absence never lands in a pause."""
    from adjudicator.campaign.pause import clock_deadline, clock_time

    spans = sorted({(a.start, a.end) for _, a in all_absences(meta)})
    moved = True
    while moved:
        moved = False
        for start, end in spans:
            if start <= deadline < end:
                left = clock_time(max(start, opened), deadline, paused)
                deadline = clock_deadline(end, left / timedelta(hours=1), paused)
                moved = True
    return deadline


def absences_to_come(meta: Mapping[str, Any], today: date) -> list[tuple[str, Absence]]:
    """The absences not yet over, each with its side, earliest first."""
    return [(side, a) for side, a in all_absences(meta) if a.last >= today]
