"""The referee's desk by mail: a player asks, the adjudicator answers.

A mail whose text holds a ``campaign:`` line and one command line (and, for all
but ``help``, the ``side:`` and ``password:`` lines) is answered with what follows;
of a mail with several command lines, the first in its text is carried out and the
answer names the others, not carried out (one command a mail):

- ``help``: the commands, and how to send orders;
- ``status``: turn, phase, what is asked of whom, the deadline, whose orders are on file;
- ``report``: the latest report that went to the sender's side, again (``report N``:
  its report of step N);
- ``history``: the campaign's records, one line each (no other player's orders or address);
- ``map``: the position as the sender's side sees it, with its picture;
- ``orders``: the orders in force for the sender's side;
- ``record``: the public record (attached) and how to check it;
- ``away: FROM to TO`` (or ``away: none``): an absence of the sender's side, within
  the campaign's budget (:mod:`adjudicator.campaign.absence`); the other sides are told
  the dates.
- ``pause: until DATE`` (or ``pause: none``): a request to pause the campaign, which
  pauses it once every side has asked (:mod:`adjudicator.campaign.pause`).
- ``press:`` and a message on the lines below it: relayed to the other side without
  any address, its hash a signed ``press`` record, in a campaign that has press
  (:mod:`adjudicator.campaign.press`).
- ``language: fr`` (or ``language: en``): the language of the referee's mail to the
  sender's side from now on (:mod:`adjudicator.campaign.language_choice`).

The answers are in the language of the sender's side (``help``: of the side the mail
names, if any).

Nothing is recorded in the campaign's history by a command (an absence is kept in the
campaign's metadata, without any address), but the pause that every side's request
starts (a signed ``pause`` record) and press (a signed ``press`` record). Every view is the
sender's side's own (a fog-of-war game shows what that side may see, as its
reports do); a command with a wrong password is refused, saying so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from html import escape
from datetime import datetime, timezone
from typing import Any, Mapping

from adjudicator.campaign.absence import (
    AWAY_LINE,
    AbsenceRefused,
    absences_to_come,
    budget,
    read_away,
    with_absence,
    without_absence,
)
from adjudicator.campaign.errors import CampaignError
from adjudicator.campaign.language_choice import LANGUAGE_LINE, NAMES, with_language
from adjudicator.i18n import LANGUAGES, UnknownLanguage, language_of, said, say_in, side_title, words
from adjudicator.campaign.pause import PAUSE_LINE, PauseRefused, answer_pause, pause_status, pause_status_lines
from adjudicator.campaign.press import PRESS_LINE, PressRefused, answer_press, press_help
from adjudicator.outcome import outcome

#: A command line: the command word alone on its line (``report`` may name a step).
COMMAND_LINE = re.compile(r"^[ \t>]*(help|status|report|history|map|orders|record)(?:[ \t]+(\d+))?[ \t]*$",
                          re.IGNORECASE | re.MULTILINE)
#: Lines only orders have: a mail with one of these is orders, never a command.
ORDERS_ONLY = re.compile(r"^[ \t>]*(?:begin[ \t]+orders\b|(?:turn|step)[ \t]*:)", re.IGNORECASE | re.MULTILINE)
SIDE = re.compile(r"^[ \t>]*side[ \t]*:[ \t]*([A-Za-z][A-Za-z0-9-]*)[ \t]*$", re.IGNORECASE | re.MULTILINE)
PASSWORD = re.compile(r"^[ \t>]*password[ \t]*:[ \t]*(\S.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)

COMMANDS = ("help", "status", "report", "history", "map", "orders", "record")


def reason_of(err: Exception) -> str:
    """Why ``err`` refused a command, as it was made (a message made with
    :func:`adjudicator.i18n.said` keeps its template, to be said in the reader's language)."""
    return err.args[0] if err.args and isinstance(err.args[0], str) else str(err)


class DeskRefused(CampaignError):
    """A command by mail that cannot be answered as asked (no side, wrong password)."""


@dataclass(frozen=True)
class Command:
    """A command read from a mail: its word, the step it names (``report N``), and the
    side and password it gives."""

    word: str
    step: int | None
    side: str | None
    password: str | None
    line: str | None = None  # the 'away:' line as written
    others: tuple[str, ...] = ()  # the mail's further command lines, as written: not carried out
    after: str = ""  # a 'press:' mail's text below its 'press:' line (the message)


def command_in(text: str) -> Command | None:
    """The command a mail's text asks, or None (orders, or no command line): the first
    command line in the text. The further command lines the player wrote (``others``;
    quoted lines of an earlier mail are not the player's) are not carried out: the
    answer names them (:func:`others_note`)."""
    press = PRESS_LINE.search(text)
    text, after = (text[:press.end()], text[press.end():]) if press else (text, "")  # a message is no command
    if ORDERS_ONLY.search(text):
        return None
    side, password = SIDE.search(text), PASSWORD.search(text)
    found = sorted([*AWAY_LINE.finditer(text), *PAUSE_LINE.finditer(text), *COMMAND_LINE.finditer(text),
                    *PRESS_LINE.finditer(text), *LANGUAGE_LINE.finditer(text)], key=lambda line: line.start())
    if not found:
        return None
    first = found[0]
    others = tuple(line.group(0).strip() for line in found[1:] if not line.group(0).lstrip().startswith(">"))
    side_named, password_given = side.group(1).casefold() if side else None, password.group(1) if password else None
    if first.re is AWAY_LINE:
        return Command("away", None, side_named, password_given, first.group(0).strip(), others)
    if first.re is PAUSE_LINE:
        return Command("pause", None, side_named, password_given, first.group(0).strip(), others)
    if first.re is PRESS_LINE:
        return Command("press", None, side_named, password_given, first.group(0).strip(), others, after)
    if first.re is LANGUAGE_LINE:
        return Command("language", None, side_named, password_given, first.group(0).strip(), others)
    return Command(first.group(1).lower(), int(first.group(2)) if first.group(2) else None,
                   side_named, password_given, others=others)


def commands_beside_orders(text: str, tr: Any = None) -> list[str]:
    """What the receipt of orders says of the command lines written beside them
    (``away:``, ``pause:``, ``press:``, outside the orders, not quoted): they were not
    carried out, and a command goes in a mail of its own (in the language of ``tr``)."""
    tr = tr or _as_written
    found = sorted([*AWAY_LINE.finditer(text), *PAUSE_LINE.finditer(text), *PRESS_LINE.finditer(text)],
                   key=lambda line: line.start())
    return [tr("Not carried out: the line '%(line)s' of your mail, beside your orders. Orders and a command "
               "go in mails of their own: send it again in a mail with the campaign, side and password lines "
               "only.") % {"line": line.group(0).strip()} for line in found]


def others_note(command: Command, tr: Any = None) -> str | None:
    """What the answer says of the mail's further command lines (None when there are
    none): they were not carried out, and each command goes in a mail of its own (in
    the language of ``tr``)."""
    if not command.others:
        return None
    tr = tr or _as_written
    values = {"named": ", ".join(f"'{line}'" for line in command.others), "first": command.line or command.word}
    if len(command.others) == 1:
        return tr("Not carried out: the other command line of your mail (%(named)s). The desk carries out one "
                  "command a mail, the first in its text ('%(first)s'): send each other command in a mail of "
                  "its own.") % values
    return tr("Not carried out: the other command lines of your mail (%(named)s). The desk carries out one "
              "command a mail, the first in its text ('%(first)s'): send each other command in a mail of its "
              "own.") % values


@dataclass(frozen=True)
class Answer:
    """The answer to a command: its subject (after the campaign's tag) and text; a
    report (``report``, ``map``) has its HTML too; ``record`` has the public record."""

    heading: str
    text: str
    html: str | None = None
    record: str | None = None
    original: Any = None  # a report sent before (an EmailMessage): its body is sent again


def help_text(campaign: str, sides: list[str], meta: Mapping[str, Any] | None = None,
              tr: Any = None) -> str:
    """The commands, and how to send orders (in the language of ``tr``, a gettext;
    English without)."""
    tr = tr or _as_written
    a_year, longest = budget(meta or {})
    return "\n".join([
        tr("The referee's desk of campaign %(campaign)s answers a mail that holds these lines") % {
            "campaign": campaign},
        tr("(one command a mail; text around them is ignored):"),
        "",
        f"  campaign: {campaign}",
        f"  side: {sides[0] if sides else tr('YOUR-SIDE')}",
        "  password: " + tr("YOUR-PASSWORD"),
        "  status",
        "",
        tr("The commands:"),
        "  help      " + tr("this text (needs no side or password)"),
        "  status    " + tr("turn, phase, what is asked of whom, the deadline, and whose"),
        "            " + tr("orders are on file"),
        "  report    " + tr("your latest report again ('report N': your report of step N)"),
        "  history   " + tr("the campaign's records, one line each"),
        "  map       " + tr("the position as your side sees it, with its picture"),
        "  orders    " + tr("the orders in force for your side"),
        "  record    " + tr("the public record (attached) and how to check every die"),
        "  away: " + tr("FIRST-DAY to LAST-DAY"),
        "            " + tr("an absence (the days as YEAR-MONTH-DAY, UTC, both counted;"),
        "            " + tr("%(a_year)s days a year, at most %(longest)s in one): deadlines in it") % {
            "a_year": a_year, "longest": longest},
        "            " + tr("move past it and the other side is told the dates;"),
        "            " + tr("'away: none' ends it"),
        "  pause: " + tr("until DAY"),
        "            " + tr("asks to pause the campaign until that day (YEAR-MONTH-DAY,"),
        "            " + tr("00:00 UTC);"),
        "            " + tr("it is paused once every side has asked (until the"),
        "            " + tr("earliest day asked); 'pause: none' withdraws your request"),
        *press_help(meta or {}, tr),
        "  language: fr",
        "            " + tr("the referee's mail to your side in French from now on"),
        "            " + tr("('language: en': in English)"),
        "",
        tr("To send orders, reply to your latest report with your orders between"),
        tr("BEGIN ORDERS and END ORDERS, as its template shows, with your password."),
        tr("A receipt answers every orders mail; send again to replace your orders"),
        tr("before the deadline."),
        tr("Sides of this campaign: %(sides)s.") % {"sides": ", ".join(sides)},
    ])


def _as_written(message: str) -> str:
    return message


def words_for(meta: Mapping[str, Any], side: str | None) -> Any:
    """The translations of the language ``side``'s player reads (the default for a
    side that is not one of the campaign's)."""
    return words(language_of(meta.get("players", {}).get(side)) if side else None)


def check_sender(command: Command, meta: Mapping[str, Any], password_hash: Any) -> str:
    """The side a command speaks for, when its password is right; else DeskRefused."""
    from adjudicator.campaign.passwords import check_password

    sides = list(meta.get("players", {}))
    if command.side is None or command.side not in sides:
        given = said("side %(side)s is not a side of this campaign", side=repr(command.side)) if command.side \
            else said("no 'side:' line")
        raise DeskRefused(said("the command '%(command)s' needs your side and password: %(given)s; write 'side: "
                               "%(example)s' (or your side) and 'password: ...' on lines of their own",
                               command=command.word, given=given, example=sides[0] if sides else "YOUR-SIDE"))
    if password_hash is None:
        raise DeskRefused(said("the %(side)s player signs orders with a key: commands by mail need a "
                               "password; ask the referee", side=command.side))
    if command.password is None:
        raise DeskRefused(said("the command '%(command)s' needs the side's password (a line 'password: ...')",
                               command=command.word))
    if not check_password(command.password, password_hash).matches:
        raise DeskRefused(said("wrong password for %(side)s: the command '%(command)s' was not answered",
                               side=command.side, command=command.word))
    return command.side


def status_text(campaign: str, log: Any, match: Any, deadline: Any, sides: list[str],
                meta: Mapping[str, Any] | None = None, tr: Any = None) -> str:
    """Turn, phase, what is asked of whom, the deadline, whose orders are on file,
    the absences not yet over, and each side's language when it is not the default
    (in the language of ``tr``; English without)."""
    from adjudicator.campaign.summary import phase_words

    tr = tr or _as_written
    state = match.state
    result = getattr(state, "result", None)
    phase = getattr(state, "phase", None)
    where = {"campaign": campaign, "turn": getattr(state, "turn", "?"), "step": log.next_batch,
             "phase": "?" if phase is None else tr(phase_words(log.charter["game"], phase))}
    lines = [(tr("Campaign %(campaign)s: turn %(turn)s, %(phase)s.") if result
              else tr("Campaign %(campaign)s: turn %(turn)s, %(phase)s; next step %(step)s.")) % where]
    if result:
        lines.append(tr("The game is over: %(result)s.") % {"result": outcome(result, tr)})
        return "\n".join(lines)
    for asked in match.decisions:  # every side asked at a stop that asks several
        lines.append(tr("Asked of %(side)s: %(prompt)s") % {"side": side_title(asked.side, _Translated(tr)),
                                                             "prompt": say_in(asked.prompt, tr)})
    lines.append(tr("Deadline: %(deadline)s.") % {"deadline": deadline.strftime('%Y-%m-%d %H:%M UTC')})
    on_file = log.orders_for(log.next_batch)
    for side in sides:
        orders = on_file.get(side)
        held = {"side": side, "step": log.next_batch}
        if orders is None:
            lines.append(tr("Orders of %(side)s for step %(step)s: none yet.") % held)
        else:
            lines.append(tr("Orders of %(side)s for step %(step)s: on file (received %(when)s).") % {
                **held, "when": orders.received_at or tr("by hand")})
    for side, absence in absences_to_come(meta or {}, datetime.now(timezone.utc).date()):
        lines.append(tr("Away: %(side)s, %(dates)s (UTC).") % {"side": side, "dates": say_in(absence.words(), tr)})
    for side, player in (meta or {}).get("players", {}).items():
        language = language_of(player)
        if language != LANGUAGES[0]:
            lines.append(tr("Mail to %(side)s in %(language)s (language: %(code)s).") % {
                "side": side, "language": tr(NAMES[language]), "code": language})
    return "\n".join(lines)


class _Translated:
    """A gettext function seen as translations (what :func:`side_title` takes)."""

    def __init__(self, tr: Any) -> None:
        self.gettext = tr


def history_text(log: Any, tr: Any = None) -> str:
    """The records, one line each, in words (no orders' text, no address), in the
    language of ``tr``."""
    from adjudicator.campaign.history_words import record_line

    tr = tr or _as_written
    return "\n".join([tr("The campaign's records, one line each:"), ""] + [record_line(r, tr) for r in log.records])


def record_text(campaign: str, head: str, count: int, tr: Any = None) -> str:
    tr = tr or _as_written
    return "\n".join([
        tr("The public record of campaign %(campaign)s is attached (%(file)s,") % {
            "campaign": campaign, "file": f"{campaign}-public-record.jsonl"},
        tr("%(count)s records). It holds no password, key or unrevealed seed.") % {"count": count},
        tr("Check every signature, seed and die, and replay the game, with:"),
        "",
        f"  adjudicator verify {campaign}-public-record.jsonl --head HEAD",
        "",
        tr("where HEAD is the last record's hash (your reports name it too):"),
        "",
        f"  {head}",
    ])


# -- answering, inside the transaction that marks the mail seen ---------------------------


def answer(tx: Any, campaign: str, command: Command, sender: str, key: Any = None) -> Answer:
    """The answer to ``command`` from ``sender`` (DeskRefused: not answered as asked);
    ``key``, the referee's, signs a pause every side has asked for."""
    from adjudicator.campaign.campaign import replay_game, step_deadline
    from adjudicator.campaign.log import read_log

    meta = tx.campaign().meta
    sides = list(meta.get("players", {}))
    tr = words_for(meta, command.side if command.side in sides else None).gettext
    if command.word == "help":
        return Answer(tr("The referee's desk: commands by mail"), help_text(campaign, sides, meta, tr))
    side = check_sender(command, meta, tx.get_secret(f"password:{command.side}") if command.side in sides else None)
    if command.word == "language":
        return _language(tx, command, meta, side)
    if command.word == "away":
        try:
            return _away(tx, campaign, command, meta, side)
        except AbsenceRefused as err:
            raise DeskRefused(reason_of(err)) from err
    if command.word == "pause":
        try:
            return Answer(*answer_pause(tx, key, side, command.line or "", datetime.now(timezone.utc)))
        except PauseRefused as err:
            raise DeskRefused(reason_of(err)) from err
    if command.word == "press":
        try:
            return Answer(*answer_press(tx, key, side, command.line or "", command.after,
                                        datetime.now(timezone.utc), sender, tr))
        except PressRefused as err:
            raise DeskRefused(reason_of(err)) from err
    entries = tx.entries()
    log = read_log(campaign, entries)
    if command.word == "history":
        return Answer(tr("History"), history_text(log, tr))
    if command.word == "record":
        from adjudicator.fairdice import records_to_jsonl

        head = log.record_hash(len(log.records) - 1)
        return Answer(tr("The public record"), record_text(campaign, head, len(log.records), tr),
                      record=records_to_jsonl(log.records))
    if command.word == "report":
        return _report_again(tx, campaign, command, meta, side)
    match = replay_game(log, tx.get_secret)
    deadline = step_deadline(entries, meta)
    if command.word == "status":
        paused = pause_status_lines(pause_status(entries, meta, datetime.now(timezone.utc)))
        from adjudicator.campaign.replacement import status_lines

        return Answer(tr("Status"), "\n".join([status_text(campaign, log, match, deadline, sides, meta, tr),
                                                *paused, *status_lines(entries, sides)]))
    if command.word == "orders":
        return Answer(tr("Orders in force for %(side)s") % {"side": side}, _orders_text(log, match, side, tr))
    return _map(log, match, side, meta, deadline, tr)


def _language(tx: Any, command: Command, meta: Mapping[str, Any], side: str) -> Answer:
    """Record the language of ``side``'s mail from now on, and answer in it."""
    asked = LANGUAGE_LINE.search(command.line or "")
    code = asked.group(1) if asked else ""
    try:
        updated = with_language(meta, side, code)
    except UnknownLanguage as err:
        raise DeskRefused(said("the line '%(line)s' names no language the referee writes in: it is one of "
                               "%(languages)s", line=command.line, languages=", ".join(LANGUAGES))) from err
    tx.set_meta(updated)
    chosen = language_of(updated["players"][side])
    tr = words(chosen).gettext
    return Answer(tr("Language of your mail"), "\n".join([
        tr("From now on the referee's mail to %(side)s is in %(language)s: receipts, reports, notices "
            "and the answers of the desk.") % {"side": side, "language": tr(NAMES[chosen])},
        tr("The orders themselves are written as before (the orders language and its keywords do "
            "not change), and their hash is the same in every language."),
    ]))


def _away(tx: Any, campaign: str, command: Command, meta: Mapping[str, Any], side: str) -> Answer:
    """Record (or end) the side's absence, tell the other sides the dates, and answer
    with the receipt: the dates, the budget left and the step's deadline (each player
    in the player's language)."""
    from adjudicator.campaign.absence import days_left
    from adjudicator.campaign.campaign import step_deadline

    today = datetime.now(timezone.utc).date()
    absence = read_away(command.line or "")
    translations = words_for(meta, side)
    tr = translations.gettext
    a_year, longest = budget(meta)

    def budget_in(updated: Mapping[str, Any], year: int) -> str:
        return tr("%(left)s of %(a_year)s days left in %(year)s (at most %(longest)s days in one absence)") % {
            "left": days_left(updated, side, year), "a_year": a_year, "year": year, "longest": longest}

    if absence is None:
        updated, changed = without_absence(meta, side, today)
        if not changed:
            raise DeskRefused(said("the line '%(line)s' ends no absence: %(side)s has none in force or to come",
                                   line=command.line, side=side))
        tx.set_meta(updated)
        what = lambda tr: "; ".join(say_in(change, tr) for change in changed)
        told = lambda tr: tr("The %(side)s player is back: %(what)s.") % {"side": tr(side.capitalize()),
                                                                            "what": what(tr)}
        receipt = [tr("Recorded for %(side)s: %(what)s.") % {"side": side, "what": what(tr)},
                   tr("Your budget: %(budget)s.") % {"budget": budget_in(updated, today.year)}]
        heading = tr("Absence ended")
        notice_heading = lambda tr: tr("%(side)s is back") % {"side": tr(side.capitalize())}
    else:
        updated = with_absence(meta, side, absence, today)
        tx.set_meta(updated)
        dates = {"first": absence.first.isoformat(), "last": absence.last.isoformat()}
        told = lambda tr: tr("The %(side)s player will be away from %(first)s to %(last)s (UTC, both days "
                             "counted). A deadline that falls in these days moves past them by the time its step "
                             "had left when the absence began.") % {"side": tr(side.capitalize()), **dates}
        receipt = [tr("Recorded: %(side)s is away from %(first)s to %(last)s (UTC, both days counted), %(days)s.")
                   % {"side": side, **dates,
                      "days": translations.ngettext("%(count)s day", "%(count)s days", absence.days)
                      % {"count": absence.days}},
                   tr("Your budget: %(budget)s.") % {"budget": budget_in(updated, absence.first.year)},
                   tr("A deadline that falls in these days moves past them by the time its step had left "
                      "when your absence began."),
                   tr("The other side is told these dates, and nothing else of this mail."),
                   tr("Send 'away: none' to end it (or withdraw it before it begins).")]
        heading = tr("Absence recorded")
        notice_heading = lambda tr: tr("%(side)s will be away") % {"side": tr(side.capitalize())}
    deadline = step_deadline(tx.entries(verify=False), updated).strftime('%Y-%m-%d %H:%M UTC')
    receipt.append(tr("The deadline of the open step is %(deadline)s.") % {"deadline": deadline})
    _tell_other_sides(tx, updated, side, notice_heading, lambda tr: told(tr) + "\n" + tr(
        "The deadline of the open step is %(deadline)s.") % {"deadline": deadline})
    return Answer(heading, "\n".join(receipt))


def _tell_other_sides(tx: Any, meta: Mapping[str, Any], side: str, heading: Any, text: Any) -> None:
    """A notice to every other side's player (no address but their own), its
    ``heading`` and ``text`` written by functions of the reader's gettext."""
    from adjudicator.mail.outgoing import outgoing_mail
    from adjudicator.mail.plain import fit_text

    for other, player in meta.get("players", {}).items():
        if other == side or not player.get("address"):
            continue
        tr = words(language_of(player)).gettext
        mail = outgoing_mail(sender=meta["referee_address"], to=player["address"],
                             subject=f"[{tx.campaign_id}] {heading(tr)}", text=fit_text(text(tr)) + "\n")
        tx.queue_mail(mail.message_id, player["address"], mail.data)


def _orders_text(log: Any, match: Any, side: str, tr: Any = _as_written) -> str:
    from adjudicator.campaign.campaign import orders_in_force
    from adjudicator.campaign.games import support

    game = support(log.charter["game"]).name
    orders = orders_in_force(log, log.next_batch, getattr(match.state, "turn", None), game).get(side)
    held = {"side": side, "step": log.next_batch}
    if orders is None:
        return tr("No orders of %(side)s are in force for step %(step)s: send them before the deadline.") % held
    text = orders.canonical_text()
    return "\n".join([tr("The orders in force for %(side)s at step %(step)s (this step's orders over") % held,
                      tr("your standing orders), as adjudication would use them:"), ""]
                     + [f"  {line}" if line else "" for line in text.splitlines()])


def _map(log: Any, match: Any, side: str, meta: Mapping[str, Any], deadline: Any, tr: Any = _as_written) -> Answer:
    """The position as ``side`` sees it (its report's situation and picture, no events)."""
    from adjudicator.campaign.games import support
    from adjudicator.reports.render import render
    from adjudicator.reports.context import report_context

    player = meta["players"][side]["address"]
    report = render(report_context(log=log, match=match, events=(), side=side, player=player, deadline=deadline,
                                   game_support=support(log.charter["game"]),
                                   language=language_of(meta["players"][side])))
    return Answer(tr("The position as %(side)s sees it") % {"side": side_title(side, _Translated(tr))},
                  report.text, report.html)


def _report_again(tx: Any, campaign: str, command: Command, meta: Mapping[str, Any], side: str) -> Answer:
    """The report of step N (or the latest) that went to ``side``'s player, again."""
    from adjudicator.mail import message_from_bytes, message_headers

    held = meta["players"][side]  # a replaced side's reports also went to its former players
    addresses = {a.lower() for a in [held["address"], *held.get("former", [])]}
    sent = [m for m in tx.outbox() if m.recipient.lower() in addresses]
    found = None
    for mail in reversed(sent):  # the latest first; only the headers of the others are read
        subject = str(message_headers(mail.eml)["Subject"] or "")
        if _a_report_of(subject, command.step):
            found = message_from_bytes(mail.eml)
            break
    if found is None:
        raise DeskRefused(said("no report of step %(step)s went to the %(side)s player; 'status' tells where the "
                               "game stands", step=command.step, side=side) if command.step is not None else
                          said("no report of any step went to the %(side)s player; 'status' tells where the game "
                               "stands", side=side))
    return Answer(f"Report again: {str(found['Subject']).split('] ', 1)[-1]}",
                  found.get_body(("plain",)).get_content(), original=found)


def _a_report_of(subject: str, step: int | None) -> bool:
    """Whether ``subject`` is that of a report of ``step`` (None: of any step, or an
    opening mail), in any language the reports are written in: the words of the
    subject's template around its values are all in it."""
    from adjudicator.campaign.mailroom import OPENING_SUBJECT
    from adjudicator.reports.render import SUBJECT_WORDS

    gap = "\0"
    for language in LANGUAGES:
        tr = words(language).gettext
        report = tr(SUBJECT_WORDS) % {"step": gap if step is None else step, "turn": gap, "phase": gap, "side": gap}
        if all(piece in subject for piece in report.split(gap) if piece.strip()):
            return True
        opening = tr(OPENING_SUBJECT) % {"game": gap, "side": gap}
        if step is None and all(piece in subject for piece in opening.split(gap) if piece.strip()):
            return True
    return False


def with_note(reply: Answer, note: str | None) -> Answer:
    """``reply`` with ``note`` above its text (and its HTML); a report sent again
    (``original``) is sent as it was, and the note in a mail of its own."""
    if note is None or reply.original is not None:
        return reply
    html = None if reply.html is None else reply.html.replace("<body>", f"<body>\n<p>{escape(note)}</p>", 1)
    return replace(reply, text=f"{note}\n\n{reply.text}", html=html)


def queue_answer(tx: Any, meta: Mapping[str, Any], to: str, reply: Answer, in_reply_to: str | None,
                 references: Any = (), note: str | None = None, tr: Any = None) -> None:
    """Queue the answer's mail to ``to``, threaded under the command's mail, with
    ``note`` (:func:`others_note`) above its text, or after it in a mail of its own
    when the answer is a report sent again."""
    from adjudicator.mail import message_bytes
    from adjudicator.mail.outgoing import build_message, outgoing_mail
    from adjudicator.mail.plain import fit_text

    reply = with_note(reply, note)
    subject = f"[{tx.campaign_id}] {reply.heading}"
    threading = {"in_reply_to": in_reply_to, "references": references}
    if reply.original is not None and note is not None:
        heading = (tr or _as_written)("Commands not carried out")
        mail = outgoing_mail(sender=meta["referee_address"], to=to, subject=f"[{tx.campaign_id}] {heading}",
                             text=fit_text(note) + "\n", **threading)
        tx.queue_mail(mail.message_id, to, mail.data)
    if reply.original is not None:
        fresh = build_message(sender=meta["referee_address"], to=to, subject=subject, text="-", **threading)
        message = reply.original
        for name in ("From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References"):
            del message[name]
            if fresh[name] is not None:
                message[name] = fresh[name]
        tx.queue_mail(str(message["Message-ID"]), to, message_bytes(message))
        return
    if reply.html is not None:
        from adjudicator.reports.mailed import report_mail

        mail = report_mail(sender=meta["referee_address"], to=to, subject=subject, text=reply.text,
                           html=reply.html, **threading)
        tx.queue_mail(mail.message_id, to, mail.data)
        return
    text = fit_text(reply.text) + "\n"
    if reply.record is None:
        mail = outgoing_mail(sender=meta["referee_address"], to=to, subject=subject, text=text, **threading)
        tx.queue_mail(mail.message_id, to, mail.data)
        return
    message = build_message(sender=meta["referee_address"], to=to, subject=subject, text=text, **threading)
    message.add_attachment(reply.record.encode("utf-8"), "application", "jsonl",
                           filename=f"{tx.campaign_id}-public-record.jsonl")
    for part in message.iter_parts():
        del part["MIME-Version"]
    tx.queue_mail(str(message["Message-ID"]), to, message_bytes(message))
