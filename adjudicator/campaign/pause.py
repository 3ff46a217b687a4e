"""Pauses: the campaign's clock stops by consent of every side, or by the referee's ruling.

A player's mail with the lines ``campaign:``, ``side:``, ``password:`` and
``pause: until 2027-01-04`` (a date, UTC) asks for a pause. One side's request does
not pause anything: it is kept (in the campaign's metadata, :data:`REQUESTS`: side ->
the date asked) and the other sides are asked whether they agree, which they do by
sending the same line. Once every side has asked, the campaign is paused from that
moment until the **earliest** date asked (nobody is held to a longer pause than they
asked for), and the requests are cleared. ``pause: none`` withdraws the sender's
request. The referee may rule a pause without consent (``adjudicator pause CAMPAIGN
--until DATE --reason TEXT``), or end the one in force (``--end``).

A pause ends at 00:00 UTC of its date: play starts again on that day. Every pause is a
signed ``pause`` record of the public record (docs/dice.md §8.1): ``from`` (when it
began, UTC), ``until`` (the date it ends), ``by`` (``"sides"`` or ``"referee"``) and
``reason``. A later pause record replaces the one in force from its ``from`` on (the
referee's ``--end`` is a pause record whose ``until`` is already past: it pauses
nothing and ends the pause in force).

While the campaign is paused its clock stops: a step's deadline comes when the step
has had its deadline hours of time outside every pause (:func:`clock_deadline`), and no
reminder is sent. Every player is told when a pause begins and when it is over.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Iterable, Mapping, Sequence

from adjudicator.campaign.errors import CampaignError
from adjudicator.campaign.record_kinds import PAUSE, record_body
from adjudicator.i18n import language_of, said, words

#: The campaign's metadata keys: the requests waiting for the other sides' consent,
#: and the last pause whose end every player was told.
REQUESTS, TOLD_OVER = "pause_requests", "pause_told_over"
REMINDED = "reminded"  # the mailroom's: the step whose reminder went out
#: The longest pause asked or ruled at once, in days: a campaign that stops longer is
#: better ended, and the clock's arithmetic stays within the calendar.
LONGEST_DAYS = 366
#: Who ruled a pause, as its record says.
BY_SIDES, BY_REFEREE = "sides", "referee"
#: The ``pause:`` line of a mail.
PAUSE_LINE = re.compile(r"^[ \t]*pause[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)  # not quoted
UNTIL = re.compile(r"^until[ \t]+(\S+)$", re.IGNORECASE)
EXAMPLE = said("'pause: until 2027-01-04' (play starts again that day, 00:00 UTC) or 'pause: none'")


class PauseRefused(CampaignError):
    """A ``pause:`` line, or a referee's pause, that cannot be recorded as asked."""


@dataclass(frozen=True)
class Pause:
    """One pause of the public record: when it began, the day it ends, who ruled it
    and why, and the record's number."""

    began: datetime
    until: date
    by: str
    reason: str
    seq: int

    @property
    def end(self) -> datetime:
        """The moment it ends: 00:00 UTC of its date (never before it began)."""
        return max(self.began, midnight(self.until))

    def body(self) -> dict[str, str]:
        return {"from": self.began.isoformat(), "until": self.until.isoformat(), "by": self.by,
                "reason": self.reason}


def midnight(day: date) -> datetime:
    return datetime.combine(day, time(), timezone.utc)


def when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _as_written(message: str) -> str:
    return message


def _words_of(meta: Mapping[str, Any], side: str) -> Any:
    """The gettext of the language ``side``'s player reads."""
    return words(language_of(meta.get("players", {}).get(side))).gettext


# -- reading the mail's line ----------------------------------------------------------------


def read_pause(line: str) -> date | None:
    """The date a ``pause:`` line asks for (None: ``pause: none``); PauseRefused,
    quoting the line, when it is neither."""
    found = PAUSE_LINE.match(line)
    value = found.group(1) if found else ""
    if value.lower() == "none":
        return None
    until = UNTIL.match(value)
    if until is None:
        raise PauseRefused(said("the line '%(line)s' is not a pause: write %(example)s", line=line,
                                example=EXAMPLE))
    return read_date(until.group(1), line=line)


def read_date(given: str, where: str = "", line: str | None = None) -> date:
    """A YEAR-MONTH-DAY date; PauseRefused quoting it (after ``where``, or naming the
    ``line`` of a mail it is in) when it is not one."""
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", given):
            return date.fromisoformat(given)
    except ValueError:
        pass
    if line is None:
        raise PauseRefused(f"{where}'{given}' is not a date: write it as YEAR-MONTH-DAY, e.g. 2027-01-04")
    raise PauseRefused(said("in the line '%(line)s', '%(given)s' is not a date: write it as YEAR-MONTH-DAY, e.g. "
                            "2027-01-04", line=line, given=given))


def check_until(until: date, now: datetime) -> None:
    """A pause must end on a day after today (UTC), and within :data:`LONGEST_DAYS`."""
    if until <= now.date():
        raise PauseRefused(said("a pause until %(until)s would be over already: play starts again at 00:00 UTC "
                                "of the date given, so give a day after today (%(today)s, UTC)",
                                until=until.isoformat(), today=now.date().isoformat()))
    if until > now.date() + timedelta(days=LONGEST_DAYS):
        raise PauseRefused(said("a pause until %(until)s is longer than a campaign may pause at once (%(days)s "
                                "days, so until %(latest)s at the latest): ask for a nearer day, and again later "
                                "if need be", until=until.isoformat(), days=LONGEST_DAYS,
                                latest=(now.date() + timedelta(days=LONGEST_DAYS)).isoformat()))


# -- the pauses of the public record ---------------------------------------------------------


def pause_records(entries: Iterable[Any]) -> list[Pause]:
    """The pauses of a campaign's stored entries (or records), in order."""
    found = []
    for seq, entry in enumerate(entries):
        if entry.kind != PAUSE:
            continue
        body = record_body(entry)
        found.append(Pause(datetime.fromisoformat(body["from"]), date.fromisoformat(body["until"]), body["by"],
                           body["reason"], getattr(entry, "seq", seq)))
    return found


def held(pauses: Sequence[Pause]) -> list[tuple[Pause, datetime, datetime]]:
    """Each pause with the time it held, a later pause ending the one before it began
    (a pause that held no time is left out)."""
    found = []
    for pause, following in zip(pauses, [*pauses[1:], None]):
        end = pause.end if following is None else min(pause.end, max(pause.began, following.began))
        if end > pause.began:
            found.append((pause, pause.began, end))
    return found


def spans(pauses: Sequence[Pause]) -> list[tuple[datetime, datetime]]:
    """The time each pause held."""
    return [(start, end) for _, start, end in held(pauses)]


def in_force(pauses: Sequence[Pause], now: datetime) -> Pause | None:
    """The pause holding at ``now``, if any."""
    return next((pause for pause, start, end in held(pauses) if start <= now < end), None)


def clock_deadline(opened: datetime, hours: float, paused: Sequence[tuple[datetime, datetime]]) -> datetime:
    """When a step opened at ``opened`` has had ``hours`` of time outside every pause."""
    moment, left = opened, timedelta(hours=hours)
    for start, end in sorted(paused):
        if end <= moment:
            continue
        if start > moment:
            if moment + left <= start:
                return moment + left
            left -= start - moment
        moment = end
    return moment + left


def clock_time(start: datetime, end: datetime, paused: Sequence[tuple[datetime, datetime]]) -> timedelta:
    """The time from ``start`` to ``end`` outside every pause (the pauses' spans, as
    :func:`spans` gives them, follow each other without overlapping)."""
    total = end - start
    for began, ended in paused:
        overlap = min(ended, end) - max(began, start)
        if overlap > timedelta(0):
            total -= overlap
    return total


# -- requests by mail ---------------------------------------------------------------------------


def requests_of(meta: Mapping[str, Any]) -> dict[str, date]:
    return {side: date.fromisoformat(day) for side, day in meta.get(REQUESTS, {}).items()}


def without_stale(meta: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """The metadata without the requests whose day has come: they ask for nothing any more."""
    kept = {side: day.isoformat() for side, day in requests_of(meta).items() if day > now.date()}
    updated = {name: value for name, value in meta.items() if name != REQUESTS}
    return {**updated, REQUESTS: kept} if kept else updated


def with_request(meta: Mapping[str, Any], side: str, until: date | None) -> dict[str, Any]:
    """The metadata with ``side``'s request set (None: withdrawn)."""
    kept = {s: d for s, d in meta.get(REQUESTS, {}).items() if s != side}
    if until is not None:
        kept[side] = until.isoformat()
    updated = {**meta, REQUESTS: kept}
    if not kept:
        del updated[REQUESTS]
    return updated


def everybody_asked(meta: Mapping[str, Any]) -> bool:
    sides = list(meta.get("players", {}))
    return bool(sides) and set(sides) <= set(requests_of(meta))


def consent_reason(meta: Mapping[str, Any]) -> str:
    asked = requests_of(meta)
    return "every side asked: " + ", ".join(f"{side} until {asked[side].isoformat()}" for side in sorted(asked))


# -- recording a pause --------------------------------------------------------------------------


def record_pause(tx: Any, key: Any, until: date, by: str, reason: str, now: datetime,
                 but: str | None = None, tr: Any = _as_written) -> tuple[str, str]:
    """Append a signed pause record (the referee's ``key``) in the transaction ``tx``,
    clear the requests, and tell every player (but ``but``'s, whose answer this is):
    the notice's subject and text."""
    from adjudicator.campaign.log import read_log
    from adjudicator.campaign.referee import check_referee_key, sign_next

    if not reason.strip():
        raise PauseRefused("a pause needs its reason, for the public record: give --reason")
    log = read_log(tx.campaign_id, tx.entries(verify=False))
    check_referee_key(key, log)
    check_not_over(tx, log)
    pause = Pause(now.astimezone(timezone.utc).replace(microsecond=0), until, by, reason.strip(), len(log.records))
    tx.append(PAUSE, {"record": sign_next(key, log, PAUSE, pause.body()).to_dict()})
    # the requests are answered, and the step's reminder is due again before its moved deadline
    meta = {name: value for name, value in tx.campaign().meta.items() if name not in (REQUESTS, REMINDED)}
    if pause.end <= pause.began:  # an end: its own notice says the pause is over
        meta[TOLD_OVER] = pause.seq
    tx.set_meta(meta)
    tell_everybody_in(tx, meta, lambda tr: pause_begins_words(tx, meta, pause, tr), but=but)
    return pause_begins_words(tx, meta, pause, tr)


def check_not_over(tx: Any, log: Any) -> None:
    """PauseRefused when the campaign's game has ended: there is no clock left to stop
    (and a campaign with secrets has published its opening, the last record)."""
    from adjudicator.campaign.campaign import replay_game

    if log.forfeit is not None or replay_game(log, tx.get_secret).finished:
        raise PauseRefused(said("campaign %(campaign)s has ended: there is nothing to pause",
                                campaign=tx.campaign_id))


def rule_pause(store: Any, campaign: str, key: Any, until: date | None, reason: str,
               now: datetime | None = None) -> tuple[str, str]:
    """The referee's ruling: pause ``campaign`` until ``until`` (None: end the pause in
    force now), recorded with ``reason`` in the public record; every player is told
    (queued). The notice's subject and text."""
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    with store.transaction(campaign) as tx:
        if until is None:
            if in_force(pause_records(tx.entries(verify=False)), now) is None:
                raise PauseRefused(f"campaign {campaign!r} is not paused: there is no pause to end")
            until = now.date()
        else:
            check_until(until, now)
        return record_pause(tx, key, until, BY_REFEREE, reason, now)


def pause_begins_words(tx: Any, meta: Mapping[str, Any], pause: Pause, tr: Any = _as_written) -> tuple[str, str]:
    """The subject and text that tell every player a pause began (or, when it pauses
    nothing, that the pause in force is over), in the language of ``tr`` (a gettext;
    the pause's reason as it was given)."""
    from adjudicator.campaign.summary import step_deadline

    values = {"campaign": tx.campaign_id, "began": when(pause.began), "end": when(pause.end),
              "deadline": when(step_deadline(tx.entries(verify=False), meta)), "until": pause.until.isoformat()}
    if pause.end <= pause.began:
        return (tr("The pause is over"),
                tr("The referee ended the pause of campaign %(campaign)s on %(began)s: %(reason)s.") % {
                    **values, "reason": pause.reason.rstrip(".")} + "\n"
                + tr("The clock runs again. The deadline of the open step is %(deadline)s.") % values)
    why = ((tr("because %(reason)s (a pause lasts until the earliest day asked)") if pause.by == BY_SIDES
            else tr("by the referee's ruling: %(reason)s")) % {"reason": pause.reason}).rstrip(".")
    return (tr("Paused until %(until)s") % values, "\n".join([
        tr("Campaign %(campaign)s is paused from %(began)s until %(end)s, %(why)s.") % {**values, "why": why},
        tr("While it is paused, no deadline passes and no reminder is sent; the deadline of the open step "
           "moves by the time paused, and is now %(deadline)s.") % values,
        tr("Orders sent meanwhile are received as usual. You will be told when the pause is over."),
        tr("The pause is in the public record ('record' by mail, or 'adjudicator verify').")]))


def tell_pause_over(tx: Any, now: datetime) -> bool:
    """Tell every player that the last pause is over, once, when it is (a pause that
    the next one replaced, or that paused nothing, was told when that was recorded)."""
    from adjudicator.campaign.summary import step_deadline

    meta = tx.campaign().meta
    if not pause_over_due(tx.entries(verify=False), meta, now):
        return False
    last = pause_records(tx.entries(verify=False))[-1]
    meta = {**meta, TOLD_OVER: last.seq}
    tx.set_meta(meta)
    values = {"campaign": tx.campaign_id, "began": when(last.began), "end": when(last.end),
              "deadline": when(step_deadline(tx.entries(verify=False), meta))}
    tell_everybody_in(tx, meta, lambda tr: (tr("The pause is over"), tr(
        "The pause of campaign %(campaign)s (%(began)s to %(end)s) is over: the clock runs again. The "
        "deadline of the open step is %(deadline)s.") % values))
    return True


def pause_over_due(entries: Sequence[Any], meta: Mapping[str, Any], now: datetime) -> bool:
    """The last pause is over at ``now`` and its players were not told yet."""
    if not any(entry.kind == PAUSE for entry in entries):
        return False
    last = pause_records(entries)[-1]
    return meta.get(TOLD_OVER) != last.seq and last.began < last.end <= now.astimezone(timezone.utc)


def tell_everybody_in(tx: Any, meta: Mapping[str, Any], written: Any, but: str | None = None) -> None:
    """A notice to every side's player (but ``but``'s), in the player's language:
    ``written`` gives its subject and text for the reader's gettext."""
    for side in meta.get("players", {}):
        if side != but:
            tell(tx, meta, side, *written(_words_of(meta, side)))


def tell(tx: Any, meta: Mapping[str, Any], side: str, heading: str, text: str) -> None:
    """A notice to ``side``'s player."""
    from adjudicator.mail.outgoing import outgoing_mail
    from adjudicator.mail.plain import fit_text

    address = meta["players"][side].get("address")
    if address:
        mail = outgoing_mail(sender=meta["referee_address"], to=address,
                             subject=f"[{tx.campaign_id}] {heading}", text=fit_text(text) + "\n")
        tx.queue_mail(mail.message_id, address, mail.data)


# -- a player's request, by mail -------------------------------------------------------------


def answer_pause(tx: Any, key: Any, side: str, line: str, now: datetime) -> tuple[str, str]:
    """Record ``side``'s ``pause:`` line (a request, or ``pause: none``), pause the
    campaign when every side has asked, tell the other sides; the answer's subject and
    text. PauseRefused, saying why, when nothing can be recorded."""
    from adjudicator.campaign.log import read_log
    from adjudicator.campaign.summary import step_deadline

    until = read_pause(line)
    meta, entries = without_stale(tx.campaign().meta, now), tx.entries(verify=False)
    holding = in_force(pause_records(entries), now)
    if until is None:
        return _withdraw(tx, meta, side, line, holding)
    if holding is not None:
        raise PauseRefused(said("campaign %(campaign)s is paused already, until %(until)s 00:00 UTC: ask again "
                                "once it is over, or ask the referee to change it", campaign=tx.campaign_id,
                                until=holding.until.isoformat()))
    check_until(until, now)
    check_not_over(tx, read_log(tx.campaign_id, entries))
    updated = with_request(meta, side, until)
    tx.set_meta(updated)
    if everybody_asked(updated):
        earliest = min(requests_of(updated).values())
        return record_pause(tx, key, earliest, BY_SIDES, consent_reason(updated), now, but=side,
                            tr=_words_of(updated, side))
    waiting = [other for other in updated["players"] if other not in requests_of(updated)]
    values = {"campaign": tx.campaign_id, "until": until.isoformat(), "side": side,
              "deadline": when(step_deadline(entries, updated)), "waiting": " and ".join(waiting)}
    for other in waiting:
        tr = _words_of(updated, other)
        tell(tx, updated, other, tr("%(side)s asks for a pause") % {"side": tr(side.capitalize())},
             "\n".join([tr("The %(side)s player asks to pause campaign %(campaign)s until %(until)s (play "
                           "would start again at 00:00 UTC that day).") % {**values, "side": tr(side.capitalize())},
                        tr("Nothing is paused unless every side asks for it. To agree, send a mail with"),
                        tr("these lines:"), "",
                        f"  campaign: {tx.campaign_id}", f"  side: {other}", "  password: " + tr("YOUR-PASSWORD"),
                        f"  pause: until {until.isoformat()}", "",
                        tr("(another date is agreement too: the pause lasts until the earliest date asked)."),
                        tr("To decline, do nothing: the deadline of the open step stays %(deadline)s.") % values]))
    tr = _words_of(updated, side)
    return (tr("Pause asked"), "\n".join([
        tr("Recorded: %(side)s asks to pause campaign %(campaign)s until %(until)s (play would start again at "
           "00:00 UTC that day).") % values,
        (tr("The campaign is not paused: a pause needs every side's consent, and it waits for %(waiting)s, who "
            "is asked whether they agree.") if len(waiting) == 1 else
         tr("The campaign is not paused: a pause needs every side's consent, and it waits for %(waiting)s, who "
            "are asked whether they agree.")) % values,
        tr("Everybody is told if the pause begins."),
        tr("Until then the deadline of the open step stays %(deadline)s.") % values,
        tr("Send 'pause: none' to withdraw your request.")]))


def _withdraw(tx: Any, meta: Mapping[str, Any], side: str, line: str, holding: Pause | None) -> tuple[str, str]:
    if side not in requests_of(meta):
        if holding is not None:
            raise PauseRefused(said("the line '%(line)s' withdraws no request: campaign %(campaign)s is paused "
                                    "until %(until)s 00:00 UTC as agreed or ruled; ask the referee to end it "
                                    "sooner", line=line, campaign=tx.campaign_id, until=holding.until.isoformat()))
        raise PauseRefused(said("the line '%(line)s' withdraws no request: %(side)s has asked for no pause",
                                line=line, side=side))
    asked = requests_of(meta)[side]
    updated = with_request(meta, side, None)
    tx.set_meta(updated)
    values = {"campaign": tx.campaign_id, "until": asked.isoformat()}
    for other in updated["players"]:
        if other != side:
            tr = _words_of(updated, other)
            tell(tx, updated, other, tr("%(side)s withdrew its pause request") % {"side": tr(side.capitalize())},
                 tr("The %(side)s player withdrew the request to pause campaign %(campaign)s until %(until)s. "
                    "Nothing is paused; the deadlines stand.") % {**values, "side": tr(side.capitalize())})
    tr = _words_of(updated, side)
    if len(meta["players"]) == 2:
        answer = tr("Withdrawn: your request to pause campaign %(campaign)s until %(until)s. Nothing is paused; "
                    "the other side is told.")
    else:
        answer = tr("Withdrawn: your request to pause campaign %(campaign)s until %(until)s. Nothing is paused; "
                    "the other sides are told.")
    return (tr("Pause request withdrawn"), answer % values)


# -- what status tells ----------------------------------------------------------------------


def pause_status(entries: Sequence[Any], meta: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """The pause in force (None) and the requests waiting, for ``status``."""
    holding = in_force(pause_records(entries), now)
    return {"in_force": None if holding is None else {"from": holding.began.isoformat(),
                                                      "until": holding.until.isoformat(), "by": holding.by,
                                                      "reason": holding.reason},
            "requests": {side: day.isoformat()
                         for side, day in sorted(requests_of(without_stale(meta, now)).items())}}


def pause_status_lines(status: Mapping[str, Any]) -> list[str]:
    """The same, in words (one line each)."""
    lines = []
    holding = status["in_force"]
    if holding is not None:
        lines.append(f"Paused until {holding['until']} 00:00 UTC "
                     f"({'by every side' if holding['by'] == BY_SIDES else 'by the referee'}): {holding['reason']}.")
    for side, day in status["requests"].items():
        lines.append(f"Pause asked by {side} until {day}: it waits for every side to ask.")
    return lines
